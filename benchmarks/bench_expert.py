"""How good the expert's choices are, judged by a referee that sees every card.

Positions come from deals of four careful bots (from `--seed` on): about one choice in eight
that is not forced and has at least two candidates (`expert.candidates`). For each, the referee
plays every candidate on the real deal, careful bots to the end after it (the expert's own
playout, but on the true cards, so that one playout settles it), and scores it as the expert
does: `WIN_POINTS` x the share of the win, less the count. A choice's *regret* is the best
candidate's score less the chosen one's: 0 when it picked what the cards in fact favoured.

Printed, over the same positions: the mean regret of the careful bot's move (the expert's
default), of the expert drawing deals that keep to its clues (as it plays), and of the expert
drawing the unseen cards at random (`ExpertBot(clues=False)`), the paired differences with their
standard errors, and how often each picked the referee's best. Much faster than a tournament to
compare two versions of the expert: the positions are the same and the referee is exact, so the
noise of whole deals is gone. (A lower regret should mean more wins; the tournament says how
many.)

Run with `python -m benchmarks.bench_expert` (minutes: not part of `python -m benchmarks`).
Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass

from penang_lib.engine.bots import CarefulBot, WatchfulBot
from penang_lib.engine.deal import Deal
from penang_lib.engine.expert import ExpertBot, Outcome, candidates
from penang_lib.engine.moves import Move
from penang_lib.engine.sampling import deal_at
from penang_lib.engine.view import PlayerView

TAKE = 0.12
"""The share of the choices of a deal taken as positions."""


@dataclass
class Position:
    view: PlayerView
    moves: list[Move]
    scores: list[float]
    """The referee's score of each move, on the true cards."""

    def regret(self, move: Move) -> float:
        return max(self.scores) - self.scores[self.moves.index(move)]


def positions(count: int, seed: int) -> list[Position]:
    """`count` positions from careful deals, each with its candidates scored on the true cards."""
    rng = random.Random(seed)
    careful, watchful = CarefulBot(), WatchfulBot()
    found: list[Position] = []
    deal_seed = seed
    while len(found) < count:
        deal = Deal(players=4, seed=deal_seed)
        deal_seed += 1
        while not deal.is_over and len(found) < count:
            view = PlayerView.of(deal)
            if view.forced() is None and rng.random() < TAKE:
                moves = candidates(view)
                if len(moves) > 1:
                    hands = [tuple(hand) for hand in deal.hands]
                    true = deal_at(view, hands, tuple(deal.stock))
                    scores = []
                    for move in moves:
                        outcome = Outcome(move)
                        outcome.play(true, view.seat, watchful, careful)
                        scores.append(outcome.utilities()[0])
                    found.append(Position(view, moves, scores))
            deal.push(careful.choose(view).move)
    return found


def regrets(
    found: list[Position], choose: Callable[[int, PlayerView], Move], label: str
) -> list[float]:
    out = []
    for k, position in enumerate(found):
        out.append(position.regret(choose(k, position.view)))
        print(f"\r{label}: {k + 1} of {len(found)} positions", end="", file=sys.stderr)
    print(file=sys.stderr)
    return out


def expert(budget: float, clues: bool) -> Callable[[int, PlayerView], Move]:
    """The expert's choice at position k (seeded by k), drawing with or without its clues."""

    def choose(k: int, view: PlayerView) -> Move:
        return ExpertBot(k, budget, clues=clues).choose(view).move

    return choose


def line(label: str, values: list[float], best: int, base: list[float] | None) -> str:
    mean = statistics.fmean(values)
    error = statistics.stdev(values) / len(values) ** 0.5
    text = f"{label:<28} regret {mean:6.2f} ± {error:.2f}, the referee's best in {best}"
    if base is not None:
        diffs = [a - b for a, b in zip(values, base, strict=True)]
        spread = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        text += f"; against careful {statistics.fmean(diffs):+.2f} ± {spread:.2f}"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The expert's choices against a referee.")
    parser.add_argument("--positions", type=int, default=200, help="positions (default 200)")
    parser.add_argument("--budget", type=float, default=0.5, help="expert's seconds a move")
    parser.add_argument("--seed", type=int, default=7000, help="first deal's seed")
    args = parser.parse_args(argv)
    if args.positions < 2:
        parser.error("--positions should be at least 2")
    found = positions(args.positions, args.seed)
    spread = statistics.fmean(max(p.scores) - min(p.scores) for p in found)
    print(f"{len(found)} positions; the candidates' scores span {spread:.1f} on average")
    careful = regrets(found, lambda _k, view: CarefulBot().choose(view).move, "careful")
    results = [("the careful bot's move", careful)]
    for label, clues in (("expert, with its clues", True), ("expert, random draws", False)):
        results.append((label, regrets(found, expert(args.budget, clues), label)))
    for label, values in results:
        best = sum(v == 0 for v in values)
        print(line(label, values, best, None if values is careful else careful))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
