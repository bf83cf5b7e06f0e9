"""Our engine against OpenSpiel's C++ gin rummy, in one process run: deals (games) per second.

Run with `python -m benchmarks.bench_openspiel` from the repository root, after installing the
`bench` extra (`pip install -e '.[bench]'`, which brings `open_spiel`; `make bench` does it).

Three lines are timed in turns, so that all of them see the same load on a busy machine, and the
fastest of `--repeat` runs of each counts (other work on the machine only ever slows a run):
- OpenSpiel: `pyspiel.load_game("gin_rummy")` played to the end with a uniformly random legal
  action at every node (its chance outcomes, the cards dealt and drawn, are equally likely);
- 4 random bots: `play_deal(seed, 4, ["random"])` on new seeds, the memo tables cleared first;
- 4 careful bots: the same with `["careful"]`.
Every run plays new deals (its own seeds), so nothing is remembered from the run before.

Goal (issue 9): random bots at least 2x OpenSpiel's games per second, careful bots at least 1.2x.
The first line says whether our engine runs compiled (`penang_lib.engine.compiled`): it does where a
wheel built with `PENANG_COMPILE=1` is installed (`make test-compiled` makes one, in
`.cache/compiled/venv`), and is pure Python in the editable install.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from penang_lib.engine.bots import clear_caches, play_deal
from penang_lib.engine.compiled import engine_runs

GOALS = {"random": 2.0, "careful": 1.2}
"""The least ratio of our deals per second to OpenSpiel's games per second, per bot, with the
compiled engine."""
PURE_GOALS = {"random": 1.7, "careful": 1.2}
"""The same on pure Python (the editable install)."""


def load_pyspiel() -> Any:
    """The `pyspiel` module, or a SystemExit saying how to install it."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        raise SystemExit(
            "OpenSpiel is not installed: pip install -e '.[bench]' (or make bench)"
        ) from None
    return pyspiel


def openspiel_games(games: int, seed: int) -> int:
    """Play `games` random games of OpenSpiel's gin rummy; returns the actions applied."""
    pyspiel = load_pyspiel()
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            # A chance node's outcomes (the next card of the shuffled stock) are all equally
            # likely, so a uniform pick among its legal actions draws them as OpenSpiel would,
            # and faster than weighing `chance_outcomes()` in Python.
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions


def our_deals(bot: str, deals: int, seed: int) -> int:
    """Play `deals` four-player deals with `bot` in every seat; returns the moves pushed."""
    clear_caches()
    moves = 0
    for index in range(deals):
        moves += len(play_deal(seed + index, 4, [bot]).move_stack)
    return moves


@dataclass
class Line:
    """One engine's timings: the fastest run counts."""

    name: str
    count: int
    play: Callable[[int], int]
    best: float = float("inf")
    steps: int = 0

    def run(self, seed: int) -> None:
        start = time.perf_counter()
        self.steps = self.play(seed)
        self.best = min(self.best, time.perf_counter() - start)

    @property
    def per_second(self) -> float:
        return self.count / self.best


def measure(games: int, deals: int, repeat: int, seed: int = 0) -> list[Line]:
    """Time OpenSpiel and our two bots in turns; every run plays new seeds."""
    lines = [
        Line("OpenSpiel gin rummy, random", games, lambda s: openspiel_games(games, s)),
        Line("4 random bots", deals, lambda s: our_deals("random", deals, s)),
        Line("4 careful bots", deals, lambda s: our_deals("careful", deals, s)),
    ]
    for line in lines:  # warm up (imports, small caches of pure functions)
        line.play(seed + 10_000_000)
    for attempt in range(max(1, repeat)):
        for line in lines:
            line.run(seed + attempt * 100_000)
    return lines


def report(lines: Sequence[Line]) -> str:
    spiel, *ours = lines
    out = [
        f"{spiel.name:<28} {spiel.per_second:8.1f} games/s "
        f"({spiel.count} games, {spiel.steps / spiel.count:.0f} actions each)"
    ]
    goals = GOALS if engine_runs() == "compiled with mypyc" else PURE_GOALS
    for line, bot in zip(ours, goals, strict=True):
        ratio = line.per_second / spiel.per_second
        verdict = "met" if ratio >= goals[bot] else "NOT met"
        out.append(
            f"{line.name:<28} {line.per_second:8.1f} deals/s "
            f"({line.count} deals, {line.steps / line.count:.0f} moves each): "
            f"{ratio:.2f}x OpenSpiel (goal {goals[bot]}x: {verdict})"
        )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_openspiel", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=300, help="OpenSpiel games per run (300)")
    parser.add_argument("--deals", type=int, default=300, help="our deals per run (300)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of each (5)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (0)")
    args = parser.parse_args(argv)
    load_pyspiel()
    print(
        f"One process, best of {args.repeat} runs each, taken in turns "
        f"(OpenSpiel {args.games} games, ours {args.deals} deals per run); "
        f"our engine: {engine_runs()}:"
    )
    print(report(measure(args.games, args.deals, args.repeat, args.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
