"""Speed of `least_deadwood` on cold caches: 1,000 seeded 25-card hands from 2 packs + 8 jokers.

Run with `python -m benchmarks.bench_deadwood` from the repository root. Every hand is timed
alone with every cache cleared first, so the figures are cold, worst-case ones. Targets on the
development machine: p95 under 5 ms, max under 100 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from penang_lib.cards import Counts, full_deck, to_counts
from penang_lib.deadwood import clear_cache, least_deadwood


def deal_hands(count: int, seed: int, size: int = 25) -> list[Counts]:
    """`count` random hands of `size` cards from two packs and eight jokers."""
    rng = random.Random(seed)
    deck = full_deck(packs=2, jokers=8)
    return [to_counts(rng.sample(deck, size)) for _ in range(count)]


def time_hands(hands: list[Counts]) -> list[float]:
    """Milliseconds of `least_deadwood` per hand, each measured cold."""
    times = []
    for counts in hands:
        clear_cache()
        start = time.perf_counter()
        least_deadwood(counts)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--size", type=int, default=25)
    args = parser.parse_args(argv)
    hands = deal_hands(args.hands, args.seed, args.size)
    times = time_hands(hands)
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * len(ordered)) - 1)]
    print(
        f"least_deadwood, {len(times)} cold {args.size}-card hands (2 packs + 8 jokers, "
        f"seed {args.seed}): median {statistics.median(times):.2f} ms, p95 {p95:.2f} ms, "
        f"max {ordered[-1]:.2f} ms"
    )


if __name__ == "__main__":
    main()
