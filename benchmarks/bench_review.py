"""Speed of a deal's review on the Python side: one turn reviewed (the careful bot's whole turn
played on a copy from the position at the start of the learner's turn, and the comparison with
what the learner played), the summary (with its bounded search for the turn that would have kept
the learner alive), the link's code made and read back, and the whole `DealReview` filled.

Goal of issue 21: one turn reviewed under 50 ms median. With `--expert`, also one turn weighed
against the expert's (`course.review.expert.expert_turn`: the expert plays the turn at the
review's budget, then both turns are played out on the same sampled deals); goal of issue 31:
under 1 s median. The learner's seat is played by the
greedy bot (it plays more than it must, so its turns differ from the careful bot's and it often
dies) and then by the random bot (longer deals, many turns), the other seats by careful bots.

Run with `python -m benchmarks.bench_review` from the repository root.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

from benchmarks.bench_deadwood import percentile
from penang_lib import Deal
from penang_lib.course.review import Review, decode, encode, review_turn
from penang_lib.course.review.expert import expert_turn
from penang_lib.engine.bots import bots_around, make_bot, play_move
from penang_lib.widgets.review import DealReview

SEAT = 0


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def learner_deal(seed: int, learner: str = "greedy", players: int = 4) -> Deal:
    """A finished deal with the `learner` bot at the learner's seat and careful bots around it."""
    deal = Deal(players=players, seed=seed, dealer=players - 1)
    bots = bots_around(deal, SEAT, "careful")
    bots[SEAT] = make_bot(learner, seed)
    while not deal.is_over:
        play_move(deal, bots[deal.turn])
    return deal


def _summary(deal: Deal) -> None:
    Review(deal, SEAT).summary()


def _link(deal: Deal) -> None:
    decode(encode(deal, SEAT))


def measure(seeds: range, learner: str = "greedy", expert: bool = False) -> dict[str, list[float]]:
    """Milliseconds per turn reviewed, per summary, per link made and read, per widget filled,
    and with `expert` per turn weighed against the expert's."""
    out: dict[str, list[float]] = {
        "turn": [],
        "expert": [],
        "summary": [],
        "link": [],
        "widget": [],
    }
    widget: DealReview | None = None
    for seed in seeds:
        deal = learner_deal(seed, learner)
        review = Review(deal, SEAT, "careful")
        for span in review.spans:
            out["turn"].append(_timed(partial(review_turn, deal, SEAT, span)))
            if expert:
                out["expert"].append(_timed(partial(expert_turn, deal, SEAT, span)))
        out["summary"].append(_timed(partial(_summary, deal)))
        out["link"].append(_timed(partial(_link, deal)))
        if widget is None:
            widget = DealReview(deal, SEAT)
        else:
            out["widget"].append(_timed(partial(widget.show_deal, deal, SEAT)))
    return out


def _line(what: str, times: list[float]) -> str:
    times = sorted(times)
    return (
        f"{what}: {len(times)} runs, median {statistics.median(times):.2f} ms, "
        f"p95 {percentile(times, 0.95):.2f} ms, max {times[-1]:.2f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Review speed: turns, summary, link, widget.")
    parser.add_argument("--deals", type=int, default=30, help="learner deals to review")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--expert", action="store_true", help="also weigh each turn against the expert's"
    )
    args = parser.parse_args(argv)
    measure(range(0, 1))  # warm-up: imports, caches, the first render
    for learner in ("greedy", "random"):
        print(f"The learner's seat played by the {learner} bot:")
        times = measure(range(args.seed, args.seed + args.deals), learner, args.expert)
        print(_line("  One turn reviewed (goal: median under 50 ms)", times["turn"]))
        if args.expert:
            print(
                _line("  One turn weighed by the expert (goal: median under 1 s)", times["expert"])
            )
        print(_line("  Summary with its search (a fresh review)", times["summary"]))
        print(_line("  Link code made and read back", times["link"]))
        print(_line("  DealReview.show_deal (everything, filled)", times["widget"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
