"""Deals per second with bots on one process: 4 random bots and 4 careful bots, seeded deals.

Run with `python -m benchmarks.bench_deals` (or `python -m benchmarks` for every benchmark) from
the repository root. Each bot line plays the same seeded deals `--repeat` times and keeps the
fastest run (other processes on the machine only ever slow a run down). A second, instrumented
pass splits the time between the bots choosing (`PlayerView` and `choose`) and the engine
playing (`Deal.push`). `--profile` prints the top cProfile entries of one run.
Targets on one core of the development machine: 400 deals/s random, 200 deals/s careful.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
from collections.abc import Sequence
from dataclasses import dataclass

from penang_lib.bots import PlayerView
from penang_lib.deal import Deal
from penang_lib.simulate import bot_names, deal_seed, play_deal, seat_bots

TARGETS = {"random": 400.0, "careful": 200.0}
"""Deals per second on one core that issue 3 asks for."""


@dataclass(frozen=True)
class Figures:
    """One bot line: the fastest of the repeats and how its time splits."""

    bot: str
    deals: int
    seconds: float
    cpu_seconds: float
    moves: int
    choose_share: float

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds else float("inf")


def play_all(bot: str, deals: int, players: int, seed: int) -> int:
    """Play the seeded deals with one kind of bot in every seat; returns the moves played."""
    moves = 0
    for index in range(deals):
        deal = play_deal(deal_seed(seed, index), players, [bot])
        moves += len(deal.move_stack)
    return moves


def choose_share(bot: str, deals: int, players: int, seed: int) -> float:
    """The share of the time spent by the bots (view + choose) rather than in `Deal.push`."""
    names = bot_names([bot], players)
    choosing = pushing = 0.0
    clock = time.perf_counter
    for index in range(deals):
        s = deal_seed(seed, index)
        deal = Deal(players=players, seed=s)
        seats = seat_bots(names, s)
        while not deal.is_over:
            t0 = clock()
            choice = seats[deal.turn].choose(PlayerView.of(deal))
            t1 = clock()
            deal.push(choice.move)
            choosing += t1 - t0
            pushing += clock() - t1
    total = choosing + pushing
    return choosing / total if total else 0.0


def measure(
    bot: str, deals: int = 200, players: int = 4, seed: int = 0, repeat: int = 3
) -> Figures:
    best = best_cpu = float("inf")
    moves = 0
    for _ in range(max(1, repeat)):
        wall, cpu = time.perf_counter(), time.process_time()
        moves = play_all(bot, deals, players, seed)
        best = min(best, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    share = choose_share(bot, deals, players, seed)
    return Figures(bot, deals, best, best_cpu, moves, share)


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
        prog="python -m benchmarks.bench_deals", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--deals", type=int, default=200, help="seeded deals per bot (200)")
    parser.add_argument("--players", type=int, default=4, help="players per deal (4)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (0)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per bot; the best counts (3)")
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
            f"  {args.players} {bot:<8} bots  {f.deals_per_second:7.1f} deals/s  "
            f"({aim}; cpu {f.deals / f.cpu_seconds:6.1f} deals/s; "
            f"{f.moves / f.deals:5.1f} moves/deal; bots {f.choose_share:4.0%} of the time, "
            f"Deal.push the rest)"
        )
        if args.profile:
            print(profile(bot, args.deals, args.players, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
