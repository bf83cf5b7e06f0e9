"""The duplicate-deal benchmark of the careful bot's rule (`benchmarks.bench_careful`, issue 29,
item 2) measures what it says, at a tiny size (the figures come from its own command)."""

from __future__ import annotations


def test_the_duplicate_benchmark_pairs_each_seat_with_the_old_rule() -> None:
    """`benchmarks.bench_careful`: the old rule against itself differs by nothing, a variant that
    never sheds a second card sheds none, and the adopted rule is the bot's own."""
    from benchmarks.bench_careful import VARIANTS, measure

    same = measure("today", "careful", deals=3, seed=0)
    assert same.diffs == [0.0, 0.0, 0.0] and same.wins == same.base_wins and same.pairs == 12
    assert measure("never", "careful", deals=3, seed=0).sheds == 0
    adopted = measure("adopted", "new", deals=2, seed=40)
    assert adopted.pairs == 8 and "adopted" in VARIANTS
