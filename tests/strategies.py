"""Hypothesis strategies shared by the tests: small positions (a hand against a table) that are
rich in joker swaps, for checking `can_play` and `find_action` against each other and an oracle."""

from __future__ import annotations

from collections import Counter

from hypothesis import assume
from hypothesis import strategies as st

from penang_lib import Card, Meld, check_meld, check_swap, full_deck

FULL_SPADES_JOKER_LOW = "JK@AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
FULL_HEARTS_JOKER_LOW = "JK@AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"

TABLE_POOL = [
    "5H 6H JK@7H",
    "JK@5S 6S 7S",
    "8H 8S JK@8",
    "9D 9C JK@9",
    "7C 7D 7H",
    "6D 7D 8D",
    "QH KH AH",
    FULL_SPADES_JOKER_LOW,
    FULL_HEARTS_JOKER_LOW,
    "4C 5C JK@6C JK@7C",
]
"""Table melds to draw from: jokers in runs and sets, and full runs no joker can go back to."""

HAND_RANKS = {1, 4, 5, 7, 9}
"""Ranks that touch the pool's melds, so drawn hands often have something to do."""


def meld(text: str) -> Meld:
    """The table meld written in `text` (its first reading)."""
    return check_meld(text).readings[0]


@st.composite
def positions(draw: st.DrawFn) -> tuple[list[Card], list[Meld]]:
    """Up to three table melds and up to five cards from what the deck has left."""
    texts = draw(st.lists(st.sampled_from(TABLE_POOL), min_size=1, max_size=3, unique=True))
    table = [meld(t) for t in texts]
    left = Counter(full_deck())
    for m in table:
        left.subtract(Counter(m.physical))
    assume(all(n >= 0 for n in left.values()))
    swaps = {c for c in left if any(check_swap(m, c).ok for m in table)}
    # Cards that can swap a joker out come first, so that low indices favour them.
    pool = sorted((c for c, n in left.items() for _ in range(n) if c in swaps), key=str)
    first = len(pool)
    pool += sorted(
        (
            c
            for c, n in left.items()
            for _ in range(n)
            if c not in swaps and (c.is_joker or c.rank in HAND_RANKS)
        ),
        key=str,
    )
    index = st.one_of(st.integers(0, max(first - 1, 0)), st.integers(0, len(pool) - 1))
    picks = draw(st.lists(index, max_size=5, unique=True))
    return [pool[i] for i in picks], table
