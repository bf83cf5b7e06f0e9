"""The `penang-rummy` command.

`penang-rummy check "5H 6H JK"` prints the verdict sentence; exit 0 when the meld is legal, 1 when
it is not, 2 on bad input (one line on stderr, no traceback).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from penang_lib.cards import CardParseError
from penang_lib.checks import Verdict, check_lay_off, check_meld, check_swap

EXIT_OK, EXIT_ILLEGAL, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as one line and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"penang-rummy: {message}\n")


def _check(args: argparse.Namespace) -> int:
    cards = " ".join(args.cards)
    if args.on is None:
        verdict = check_meld(cards)
    else:
        check: Callable[[str, str], Verdict] = check_swap if args.swap else check_lay_off
        verdict = check(args.on, cards)
    print(f"{verdict} (rule {verdict.rule})")
    return EXIT_OK if verdict else EXIT_ILLEGAL


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="penang-rummy", description="Penang Rummy (Si Rummy): rules, deals and bots."
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = sub.add_parser(
        "check",
        help="is this a legal meld (or lay-off / swap)? exit 0 yes, 1 no, 2 bad input",
        description='Check a meld: penang-rummy check "5H 6H JK". With --on MELD, check laying '
        "off one card on that table meld (or, with --swap, swapping it for a joker).",
    )
    check.add_argument("cards", nargs="+", help="cards in the notation, e.g. 5H 6H JK")
    check.add_argument("--on", metavar="MELD", help="a table meld, e.g. '5H 6H JK@7H'")
    check.add_argument("--swap", action="store_true", help="with --on: check a joker swap")
    check.set_defaults(run=_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except CardParseError as error:
        print(f"penang-rummy: {error}", file=sys.stderr)
        return EXIT_USAGE
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
