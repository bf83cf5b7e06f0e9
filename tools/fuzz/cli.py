"""The command line: `python -m tools.fuzz [--deals N] [--seed S] [--jobs J] [--deal I]`."""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from tools.fuzz.run import fuzz, fuzz_deal
from tools.fuzz.state import variant_for


def main(argv: Sequence[str] | None = None) -> int:
    """The command: figures on stdout, findings after them; exit 1 when there are findings."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.fuzz",
        description="Fuzz the engine: seeded bot deals with illegal and garbage moves in between.",
    )
    parser.add_argument("--deals", type=int, default=1000, help="deals to play (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--pop-every", type=int, default=1, help="full pop() walk on every N-th deal (default 1)"
    )
    parser.add_argument("--deal", type=int, default=None, help="fuzz only this deal number")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.deals < 0 or args.jobs < 1 or args.pop_every < 1:
        parser.error("--deals must be 0 or more, --jobs and --pop-every 1 or more")
    if args.deal is not None:
        clock = time.perf_counter()
        report = fuzz_deal(args.seed, args.deal)
        report.seconds = time.perf_counter() - clock
        print(variant_for(args.seed, args.deal).describe())
    else:
        report = fuzz(
            args.deals,
            seed=args.seed,
            jobs=args.jobs,
            progress=not args.no_progress and args.deals >= 200,
            pop_every=args.pop_every,
        )
    print(report.figures())
    if report.ok:
        return 0
    print()
    print("Findings (grouped; the first example of each, with a reproducer):")
    print(report.findings_text())
    return 1
