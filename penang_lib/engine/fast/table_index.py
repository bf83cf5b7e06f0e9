"""What each table meld takes, worked out once per meld: the table index behind lay-offs and swaps.

A `TableInfo` lists the naturals a table meld accepts as a lay-off, the noted jokers it accepts,
and the naturals that may take the place of one of its jokers (rules `lay-off`, `swap`), with
the naturals also as bit masks over count-vector indices, so that a whole hand is tested at
once. `Deal` keeps one per table meld, up to date as melds are laid and changed, and
`PlayerView` reads them instead of looking at the table again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from mypy_extensions import mypyc_attr

from penang_lib.engine.cards import SUITS, Card
from penang_lib.engine.fast.meld_count import RUN_JOKER, SET_JOKER, index_at
from penang_lib.engine.melds import MAX_RUN, SET, Meld


# A plain Python class even when this module is compiled: a deal keeps these, and a deal must
# pickle and copy the same either way.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class TableInfo:
    """What a table meld takes: natural lay-offs, joker lay-offs (noted) and swap cards; the
    naturals also as bit masks over count-vector indices, to test a whole hand at once."""

    accepts: tuple[int, ...]
    accept_mask: int
    joker_cards: tuple[Card, ...]
    swaps: tuple[int, ...]
    swap_mask: int


def _mask(indices: Iterable[int]) -> int:
    out = 0
    for i in indices:
        out |= 1 << i
    return out


def _set_info(rank: int, with_joker: bool) -> TableInfo:
    # Twin of analysis.accepting_cards and analysis.swap_cards for a set (those give Cards).
    accepts = (rank - 1, 12 + rank, 25 + rank, 38 + rank)
    mask = _mask(accepts)
    swaps = accepts if with_joker else ()
    return TableInfo(accepts, mask, (SET_JOKER[rank],), swaps, mask if with_joker else 0)


_SET_INFO: tuple[tuple[TableInfo, TableInfo], ...] = tuple(
    (_set_info(max(rank, 1), False), _set_info(max(rank, 1), True)) for rank in range(14)
)


_RUN_INDEX: tuple[tuple[int, ...], ...] = tuple(
    tuple(index_at(s, max(p, 1)) for p in range(MAX_RUN + 1)) for s in range(len(SUITS))
)
"""Per suit number and run position 1..14, the count-vector index of the natural there."""


@lru_cache(maxsize=4096)
def _run_info(s: int, low: int, high: int, joker_positions: tuple[int, ...]) -> TableInfo:
    # Twin of analysis.accepting_cards and analysis.swap_cards for a run (those give Cards).
    row = _RUN_INDEX[s]
    notes = RUN_JOKER[s]
    if low > 1 and high < MAX_RUN:
        below, above = row[low - 1], row[high + 1]
        if below == above:  # 2 to K: the ace fits at either end, one card, one joker note
            accepts: tuple[int, ...] = (below,)
            jokers: tuple[Card, ...] = (notes[low - 1],)
        else:
            accepts = (below, above)
            jokers = (notes[low - 1], notes[high + 1])
    elif low > 1:
        accepts = (row[low - 1],)
        jokers = (notes[low - 1],)
    elif high < MAX_RUN:
        accepts = (row[high + 1],)
        jokers = (notes[high + 1],)
    else:
        accepts = jokers = ()
    swaps = tuple(dict.fromkeys([row[p] for p in joker_positions]))
    return TableInfo(accepts, _mask(accepts), jokers, swaps, _mask(swaps))


_SUIT_INDEX = {suit: s for s, suit in enumerate(SUITS)}


def takes_a_joker(infos: Sequence[TableInfo]) -> bool:
    """Whether some table meld takes a joker as a lay-off (any set, any run shorter than A to A).
    Then a swap at the start of a turn always leaves an action, the joker it brings, which is
    the first thing `analysis.swap_leaves_action` looks at: only a table of full runs needs that
    whole search."""
    return any(info.joker_cards for info in infos)


def table_info(meld: Meld) -> TableInfo:
    """What table meld `meld` takes (a run's ends and joker places; a set's rank)."""
    cards = meld.cards
    low = meld.low
    if meld.kind is SET:
        for card in cards:
            if not card.rank:
                return _SET_INFO[low][True]
        return _SET_INFO[low][False]
    jokers = [low + i for i, card in enumerate(cards) if not card.rank]
    return _run_info(_SUIT_INDEX[meld.suit], low, low + len(cards) - 1, tuple(jokers))


def clear_caches() -> None:
    """Forget the runs' table infos kept by their ends and joker places."""
    _run_info.cache_clear()
