"""The command line: `penang-rummy` (and `python -m penang_lib.cli`), its sub-commands in
`commands`: check, deal, simulate, puzzles, serve."""

from penang_lib.cli.commands import build_parser, main, transcript

__all__ = ["build_parser", "main", "transcript"]
