"""Deals per second with bots on one process: 4 random bots and 4 careful bots, seeded deals.

Run with `python -m benchmarks.bench_deals` (or `python -m benchmarks` for every benchmark) from
the repository root. Each bot line plays the same seeded deals `--repeat` times after one warm-up
run and keeps the fastest (other processes on the machine only ever slow a run down). Between
runs it pushes the very same moves again with no bot choosing: "engine alone" is that replay's
speed, the ceiling the bots could reach if choosing were free, and "bots" is what choosing adds
per deal.
`--profile` prints the top cProfile entries of one run.
Targets on one core of the development machine: 400 deals/s random, 200 deals/s careful.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from penang_lib.data.simulate import deal_seed
from penang_lib.engine.bots import clear_caches, play_deal
from penang_lib.engine.deal import Deal
from penang_lib.engine.moves import Move

TARGETS = {"random": 400.0, "careful": 200.0}
"""Deals per second on one core that issue 3 asks for."""


@dataclass(frozen=True)
class Figures:
    """One bot line: the fastest of the repeats, and the engine alone on the same moves."""

    bot: str
    deals: int
    seconds: float
    cpu_seconds: float
    replay_seconds: float
    moves: int

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds else float("inf")

    @property
    def engine_deals_per_second(self) -> float:
        return self.deals / self.replay_seconds if self.replay_seconds else float("inf")

    @property
    def bot_ms_per_deal(self) -> float:
        """What the bots add per deal: views and choices (the whole run minus the replay)."""
        return max(0.0, self.seconds - self.replay_seconds) / self.deals * 1000


def play_all(bot: str, deals: int, players: int, seed: int) -> list[list[Move]]:
    """Play the seeded deals with one kind of bot in every seat; returns each deal's moves."""
    return [play_deal(deal_seed(seed, index), players, [bot]).move_stack for index in range(deals)]


def replay_all(games: list[list[Move]], players: int, seed: int) -> None:
    """Push the same moves again with no bot choosing: the engine's share of the time."""
    for index, moves in enumerate(games):
        deal = Deal(players=players, seed=deal_seed(seed, index))
        for move in moves:
            deal.push(move)


def _timed(run: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def measure(
    bot: str, deals: int = 200, players: int = 4, seed: int = 0, repeat: int = 5
) -> Figures:
    """Time `deals` seeded deals played by `bot` in every seat, and their replay.

    A warm-up on other seeds fills the caches a long run keeps warm (small pure functions of a
    suit or a rank); the memo tables of whole hands and table melds are cleared before each
    timed run, so that the same deals are not remembered from the run before. Plays and replays
    take turns, so that both see the same load on a busy machine; the fastest of each counts."""
    play_all(bot, deals, players, seed + 1)
    games = play_all(bot, deals, players, seed)
    wall = cpu = replay = float("inf")
    for _ in range(max(1, repeat)):
        clear_caches()
        w, c = _timed(lambda: play_all(bot, deals, players, seed))
        wall, cpu = min(wall, w), min(cpu, c)
        replay = min(replay, _timed(lambda: replay_all(games, players, seed))[0])
    moves = sum(len(g) for g in games)
    return Figures(bot, deals, wall, cpu, replay, moves)


def profile(bot: str, deals: int, players: int, seed: int, top: int = 15) -> str:
    """The top cProfile entries (by own time) of one run."""
    profiler = cProfile.Profile()
    profiler.enable()
    play_all(bot, deals, players, seed)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_deals", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--deals", type=int, default=200, help="seeded deals per bot (200)")
    parser.add_argument("--players", type=int, default=4, help="players per deal (4)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (0)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per bot (5)")
    parser.add_argument("--bots", default="random,careful", help="bots to time (random,careful)")
    parser.add_argument("--profile", action="store_true", help="print cProfile top entries")
    args = parser.parse_args(argv)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    print(
        f"Deals per second, one process, {args.players} players, {args.deals} seeded deals "
        f"(seed {args.seed}), best of {args.repeat}:"
    )
    for bot in bots:
        f = measure(bot, args.deals, args.players, args.seed, args.repeat)
        target = TARGETS.get(bot)
        aim = f"target {target:.0f}" if target else "no target"
        print(
            f"  {args.players} {bot:<8} bots {f.deals_per_second:7.1f} deals/s ({aim}); "
            f"cpu {f.deals / f.cpu_seconds:6.1f}/s; {f.moves / f.deals:5.1f} moves/deal; "
            f"engine alone {f.engine_deals_per_second:6.1f} deals/s; "
            f"bots {f.bot_ms_per_deal:.2f} ms/deal"
        )
        if args.profile:
            print(profile(bot, args.deals, args.players, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
