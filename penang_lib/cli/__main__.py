"""`python -m penang_lib.cli`: the `penang-rummy` command, where the script is not on the PATH."""

import sys

from penang_lib.cli.commands import main

sys.exit(main())
