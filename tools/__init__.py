"""Tools that drive the kit the way its users do, each with its own command:

- `python -m tools.fuzz`: random legal and illegal play against the engine's invariants;
- `python -m tools.load`: a class of learners arriving at once and pressing Next;
- `python -m tools.learners`: learners who follow a lesson's steps in a real browser;
- `python -m tools.screenshots`: every page at a laptop's and a phone's size;
- `tools.site_runner`: starts the site on a free port for the others (and for benchmarks).

Speed figures of the engine, widgets and pages are in `benchmarks/`, and the goals of two
classes on one machine in `python -m benchmarks.load`, built on `tools.load`.
"""
