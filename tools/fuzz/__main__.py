"""`python -m tools.fuzz`: the command (see `tools.fuzz.cli`)."""

from tools.fuzz.cli import main

raise SystemExit(main())
