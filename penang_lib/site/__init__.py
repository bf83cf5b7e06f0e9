"""The tutorial site: what Voila serves and how.

- `serve`: the published lessons, the landing page's catalogue, the rule sheet and the command
  that starts Voila (`penang-rummy serve`); it imports no Jupyter.
- `proxy`: the site behind a Jupyter server (jupyter-server-proxy's entry point).
- `app`: the site's Voila application (`SiteVoila`, `python -m penang_lib.site.app`), which
  `serve` starts in place of `python -m voila`, with what a class's arrival needs of the
  server (compressed and kept page files, Voila's chunks in one request, a longer queue).
- `settings`: Voila's configuration, read by Voila from `jupyter/voila.py`.
- `patches`: the site's changes to Voila: its hooks first, then the few patches no hook allows.
- `jupyter/`: the site's Jupyter data folder (package data): the config file `voila.py` and the
  template `voila/templates/penang`.
"""
