"""Speed of the rule engine itself: `can_play` on 20-card hands against a table, and whole deals
of random legal play through `Deal.legal_moves` and `Deal.push()` (no bot logic at all).

Run with `python -m benchmarks.bench_engine` (or `python -m benchmarks`) from the repository root.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from benchmarks.bench_deadwood import percentile
from penang_lib import Deal, EndTurn, can_play
from penang_lib.engine.melds import Meld
from penang_lib.engine.rules import Rules

RULES = Rules()


def positions(count: int, seed: int) -> list[tuple[str, list[Meld]]]:
    """`count` 20-card hands, each with the table of a seeded deal part-way through."""
    rng = random.Random(seed)
    out = []
    for number in range(count):
        deal = Deal(players=4, seed=seed * 100_000 + number)
        for _ in range(rng.randrange(0, 40)):
            if deal.is_over:
                break
            play_one(deal, rng)
        hand = " ".join(str(card) for card in deal.hand(deal.turn))
        out.append((hand, list(deal.table)))
    return out


def play_one(deal: Deal, rng: random.Random) -> None:
    """One random legal move (the first 50 listed, ending the turn half the time it may)."""
    moves = []
    for move in deal.legal_moves:
        moves.append(move)
        if len(moves) == 50:
            break
    deal.push(EndTurn() if EndTurn() in moves and rng.random() < 0.5 else rng.choice(moves))


def time_can_play(cases: list[tuple[str, list[Meld]]]) -> list[float]:
    """Milliseconds per `can_play` call (text hand, parsed each time, as a caller would)."""
    times = []
    for hand, table in cases:
        start = time.perf_counter()
        can_play(hand, table, passport=True, rules=RULES)
        times.append((time.perf_counter() - start) * 1000)
    return times


def time_deals(count: int, seed: int) -> float:
    """Deals per second of random legal play, 4 players, seeded."""
    rng = random.Random(seed)
    start = time.process_time()
    for number in range(count):
        deal = Deal(players=4, seed=seed + number)
        while not deal.is_over:
            play_one(deal, rng)
    return count / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Engine speed: can_play and random deals.")
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    cases = positions(args.hands, args.seed)
    times = sorted(time_can_play(cases))
    print(
        f"can_play: {len(times)} 20-card hands against part-played tables: median "
        f"{statistics.median(times):.3f} ms, p95 {percentile(times, 0.95):.3f} ms, "
        f"max {times[-1]:.3f} ms"
    )
    rate = time_deals(args.deals, args.seed)
    print(f"random legal play (legal_moves + push, no bot): {rate:.1f} deals/s, 4 players")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
