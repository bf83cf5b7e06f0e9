"""Speed of `least_deadwood` on cold caches: 1,000 seeded 25-card hands from 2 packs + 8 jokers.

Run with `python -m benchmarks.bench_deadwood` (or `python -m benchmarks` for every benchmark)
from the repository root. Every hand is timed alone with every remembered position forgotten
first (`clear_cache()`), so each figure is a cold one: the search, the melds and the result. A
hand is timed `--repeat` times and its fastest run kept (other processes on the machine only
ever slow a run down). Targets on the development machine: p95 under 5 ms, max under 100 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from penang_lib.engine.cards import JOKER_INDEX, Counts, from_counts, full_deck, to_counts
from penang_lib.engine.deadwood import clear_cache, least_deadwood


def deal_hands(count: int, seed: int, size: int = 25) -> list[Counts]:
    """`count` random hands of `size` cards from two packs and eight jokers."""
    rng = random.Random(seed)
    deck = full_deck(packs=2, jokers=8)
    return [to_counts(rng.sample(deck, size)) for _ in range(count)]


def time_hand(counts: Counts, repeat: int) -> float:
    """Milliseconds of one cold `least_deadwood(counts)`, the fastest of `repeat` runs."""
    best = float("inf")
    for _ in range(repeat):
        clear_cache()
        start = time.perf_counter()
        least_deadwood(counts)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def percentile(ordered: list[float], share: float) -> float:
    """The value below which `share` of the sorted figures lie (nearest rank)."""
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Cold least_deadwood timings.")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--size", type=int, default=25)
    parser.add_argument("--repeat", type=int, default=3, help="runs per hand, fastest kept")
    parser.add_argument("--slowest", type=int, default=0, help="also list the slowest hands")
    args = parser.parse_args(argv)
    hands = deal_hands(args.hands, args.seed, args.size)
    least_deadwood(hands[0])  # import-time work and the per-rules tables, not a hand's cost
    times = [time_hand(counts, args.repeat) for counts in hands]
    ordered = sorted(times)
    print(
        f"least_deadwood: {len(times)} cold {args.size}-card hands (2 packs + 8 jokers, "
        f"seed {args.seed}, fastest of {args.repeat}): median {statistics.median(times):.2f} ms, "
        f"p95 {percentile(ordered, 0.95):.2f} ms, max {ordered[-1]:.2f} ms"
    )
    slowest = sorted(zip(times, hands, strict=True), key=lambda item: -item[0])
    for ms, counts in slowest[: args.slowest]:
        points = least_deadwood(counts).points
        hand = " ".join(str(card) for card in from_counts(counts))
        print(f"  {ms:6.2f} ms  {counts[JOKER_INDEX]} jokers  {points:3d} points  {hand}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
