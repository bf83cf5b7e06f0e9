"""Speed of the widgets' Python side: one Next of a `DealStepper` on 4-player deals, and one
learner action of a `PlayTable` (a legal Meld, a refused Meld, End turn), bot replies excluded.

Goals of issue 6: a Next under 20 ms median, an action under 50 ms median. What the browser does
with the messages is not counted here (no kernel, no front end): only the work in Python.

Run with `python -m benchmarks.bench_widgets` (or `python -m benchmarks`) from the repository root.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from benchmarks.bench_deadwood import percentile
from penang_lib import Deal, MeldMove
from penang_lib.engine.cards import cards_text
from penang_lib.widgets import DealStepper, PlayTable
from penang_lib.widgets.controls import Control


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def time_next(seeds: range) -> list[float]:
    """Milliseconds per Next click, every step of each seed's 4-player bot deal."""
    times = []
    for seed in seeds:
        stepper = DealStepper.from_seed(seed, players=4)
        button = stepper.buttons[Control.NEXT]
        while stepper.step < stepper.steps:
            times.append(_timed(button.click))
    return times


def time_back(seeds: range) -> list[float]:
    """Milliseconds per Back click (an exact undo through the engine), from the last step."""
    times = []
    for seed in seeds:
        stepper = DealStepper.from_seed(seed, players=4)
        stepper.step = stepper.steps
        button = stepper.buttons[Control.BACK]
        while stepper.step > 0:
            times.append(_timed(button.click))
    return times


def time_actions(seeds: range) -> dict[str, list[float]]:
    """Milliseconds per learner action on the first turn of each seed's deal (North moves first):
    a refused Meld of two cards, a legal Meld (the first joker-free one the engine lists), then
    End turn."""
    out: dict[str, list[float]] = {"refused meld": [], "legal meld": [], "end turn": []}
    for seed in seeds:
        deal = Deal(players=4, seed=seed, dealer=3)
        # A meld without jokers: a plain joker may have several readings (a chooser, not a push).
        meld = next(
            (
                m
                for m in deal.legal_moves
                if isinstance(m, MeldMove) and not any(c.is_joker for c in m.cards)
            ),
            None,
        )
        if meld is None:  # no such meld in this hand
            continue
        table = PlayTable(seat=0, deal=deal)
        table.select(cards_text(meld.cards[:2]))
        out["refused meld"].append(_timed(table.buttons[Control.MELD].click))
        table.select(cards_text(meld.cards))
        out["legal meld"].append(_timed(table.buttons[Control.MELD].click))
        out["end turn"].append(_timed(table.buttons[Control.END_TURN].click))
        assert len(deal.move_stack) == 2, "the benchmark's moves should have been played"
    return out


def _line(what: str, times: list[float]) -> str:
    times = sorted(times)
    return (
        f"{what}: {len(times)} clicks, median {statistics.median(times):.2f} ms, "
        f"p95 {percentile(times, 0.95):.2f} ms, max {times[-1]:.2f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Widget speed: stepper steps, play actions.")
    parser.add_argument("--deals", type=int, default=10, help="deals to step through")
    parser.add_argument("--positions", type=int, default=40, help="first turns to play")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    DealStepper.from_seed(0).buttons[Control.NEXT].click()  # warm-up: imports, first render
    deals = range(args.seed, args.seed + args.deals)
    print(_line("DealStepper Next (goal: median under 20 ms)", time_next(deals)))
    print(_line("DealStepper Back", time_back(deals)))
    positions = range(args.seed, args.seed + args.positions)
    for what, times in time_actions(positions).items():
        print(_line(f"PlayTable {what} (goal: median under 50 ms)", times))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
