"""Melds a hand can make, counted and picked by number without listing them all.

Rules `meld`, `run`, `set` and `joker` (and the house rule `all_joker_melds`), worked out on bit
masks of a count-vector hand: `count_melds` says how many distinct melds a hand can make,
`nth_meld` builds meld number k of them, `has_meld` says whether there is any. A hand with jokers
can make thousands of melds; counting them by blocks lets a bot pick one uniformly at random
without building the others. `analysis.iter_melds` lists the very same melds, in the same
order, in Meld values, for the rule checks (its loops are the slow twins of the ones here).
`HandFacts` keeps a hand's shape and meld count up to date card by card, for a deal's seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, compress, islice, product
from math import comb

from penang_lib.engine.cards import JOKER, JOKER_INDEX, NATURALS, SUITS, Card, Counts
from penang_lib.engine.melds import MAX_RUN, RUN, SET, Meld, position_rank
from penang_lib.engine.rules import Rules

# -- card tables (built once; the hot loops only index into them) ------------------------------
_RANK_OF: tuple[int, ...] = tuple(i % 13 + 1 for i in range(52))


def index_at(suit: int, position: int) -> int:
    """The count-vector index of the natural at `position` of a run in suit number `suit`."""
    return suit * 13 + position_rank(position) - 1


SET_JOKER: tuple[Card, ...] = tuple(Card.joker(r) if r else JOKER for r in range(14))
"""A joker noted as standing for each rank 1..13 in a set (0: a plain joker)."""
RUN_JOKER: tuple[tuple[Card, ...], ...] = tuple(
    tuple(Card.joker(position_rank(p), suit) if p else JOKER for p in range(MAX_RUN + 1))
    for suit in SUITS
)
"""Per suit number and run position 1..14, a joker noted as standing for that card."""


# -- the shape of a hand ---------------------------------------------------------------------------
_SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
_BIT_OF: tuple[int, ...] = tuple(1 << (i % 13) for i in range(52))
_RANGE_52 = range(52)


Shape = tuple[tuple[int, ...], tuple[int, ...]]
"""Per suit, a bit mask of the ranks held (bit r-1); per rank 1..13, how many are held."""
# Mutable on purpose: the memo of `hand_shape` (cleared at 50,000 hands), per process.
_SHAPES: dict[Counts, Shape] = {}


def hand_shape(counts: Counts) -> Shape:
    """Per suit, a bit mask of the ranks held (bit r-1); per rank 1..13, how many are held.

    Memoised by hand: a player's hand is looked at again on their next turn, unchanged."""
    shape = _SHAPES.get(counts)
    if shape is None:
        masks = [0, 0, 0, 0]
        ranks = [0] * 14
        for i in compress(_RANGE_52, counts):
            masks[_SUIT_OF[i]] |= _BIT_OF[i]
            ranks[_RANK_OF[i]] += counts[i]
        shape = (tuple(masks), tuple(ranks))
        if len(_SHAPES) >= 50_000:
            _SHAPES.clear()
        _SHAPES[counts] = shape
    return shape


def run_mask(mask: int) -> int:
    """A suit's rank mask as run positions (bit p-1 for position p): the ace is also position 14."""
    return mask | (mask & 1) << 13


# -- melds a hand can make: counted and picked without listing them -----------------------------
@lru_cache(maxsize=8192)
def _set_blocks(
    held: tuple[int, int, int, int], jokers: int, all_jokers: bool
) -> tuple[int, tuple[tuple[tuple[int, ...], int, int], ...]]:
    """The sets of one rank a hand can make: (total, blocks of (naturals taken, min jokers, n))."""
    blocks = []
    total = 0
    # Twin of the `product` loop in analysis._iter_sets (which builds each Meld).
    for take in product(*(range(n + 1) for n in held)):
        naturals = sum(take)
        if naturals == 0 and not all_jokers:
            continue
        least = max(0, 3 - naturals)
        if jokers >= least:
            blocks.append((take, least, jokers - least + 1))
            total += jokers - least + 1
    return total, tuple(blocks)


@lru_cache(maxsize=1024)
def _ace_to_ace_runs(
    usable: tuple[int, ...], aces: int, jokers: int, all_jokers: bool
) -> tuple[tuple[int, ...], ...]:
    """The A-to-A runs of a suit (positions 1 and 14 both in `usable`), as the natural positions
    of each, one per distinct meld move. Both ends are aces, so an ace and a joker standing for
    the other ace are the same cards whichever end the joker takes: with one ace it is the low
    one; with two, the high ace becomes the joker only when the low one does too."""
    chosen = usable[:-1] if aces == 1 else usable
    spare = jokers - (MAX_RUN - len(chosen))
    out = []
    # Twin of the A-to-A case of the window loop in analysis._iter_runs.
    for extra in range(min(spare, len(chosen)) + 1):
        for as_joker in combinations(chosen, extra):
            if aces > 1 and MAX_RUN in as_joker and 1 not in as_joker:
                continue
            natural = tuple(p for p in chosen if p not in as_joker)
            if natural or all_jokers:
                out.append(natural)
    return tuple(out)


def _nth_run(
    mask: int, aces: int, jokers: int, all_jokers: bool, k: int
) -> tuple[int, int, Sequence[int]] | None:
    """Run number `k` (from 0) of the runs of one suit a hand can make (`mask`: the ranks held,
    bit r-1), as its low and high positions and the positions of its naturals; None when there
    are not so many. The runs come window by window (by low, then high position), and within a
    window by how many of its naturals are left out for jokers, fewest first, in the order of
    `itertools.combinations`: the walk of `_run_count`, which only counts them."""
    m = run_mask(mask)
    by_spare = _BY_SPARE_ALL if all_jokers else _BY_SPARE
    # Twin of the run window loop in analysis._iter_runs (which builds each Meld); every window
    # starts with the two positions from `low`, and `ways` is read for the jokers still spare.
    for low in range(1, MAX_RUN - 1):
        missing = 2 - (m >> (low - 1) & 1) - (m >> low & 1)
        if missing > jokers:
            continue
        held = 2 - missing
        ways = by_spare[min(jokers - missing, MAX_RUN)]
        for high in range(low + 2, MAX_RUN + 1):
            if m >> (high - 1) & 1:
                held += 1
            else:
                missing += 1
                if missing > jokers:
                    break
                ways = by_spare[min(jokers - missing, MAX_RUN)]
            if high == MAX_RUN and low <= 2:
                if low == 1:  # A to A
                    usable = tuple(p for p in range(1, MAX_RUN + 1) if m >> (p - 1) & 1)
                    runs = _ace_to_ace_runs(usable, aces, jokers, all_jokers)
                    if k < len(runs):
                        return low, high, runs[k]
                    k -= len(runs)
                continue  # 2 to high A holds the ranks of A to K: the same meld move
            here = ways[held]
            if k >= here:
                k -= here
                continue
            spare = jokers - missing
            naturals = [p for p in range(low, high + 1) if m >> (p - 1) & 1]
            for extra in range(min(spare, held) + 1):
                n = comb(held, extra)
                if extra == held and not all_jokers:
                    n -= 1
                if k < n:
                    as_joker = next(islice(combinations(naturals, extra), k, None))
                    return low, high, [p for p in naturals if p not in as_joker]
                k -= n
    return None


@lru_cache(maxsize=65536)
def _run_count(mask: int, aces: int, jokers: int, all_jokers: bool) -> int:
    """How many runs of one suit a hand can make (the runs `_nth_run` walks), found without
    listing them (a window with h naturals and m gaps gives the sum over e <= jokers - m
    of C(h, e) runs, e naturals being left out for jokers)."""
    m = run_mask(mask)
    if jokers == 0:
        # Only unbroken stretches: one of length n holds (n - 1)(n - 2) / 2 runs.
        total = 0
        rest = m
        while rest:
            stretch = rest & ~(rest + (rest & -rest))  # the lowest stretch of held positions
            n = stretch.bit_count()
            if n >= 3:
                total += (n - 1) * (n - 2) // 2
            rest ^= stretch
        if aces == 1 and m == (1 << MAX_RUN) - 1:
            total -= 1  # A to A needs two aces
        if m >> 1 == (1 << (MAX_RUN - 1)) - 1:
            total -= 1  # 2 to high A is the same meld as A to K
        return total
    by_spare = _BY_SPARE_ALL if all_jokers else _BY_SPARE
    total = 0
    # Twin of the window loop of `_nth_run` above (positions from 0 here); every window starts
    # with the two positions from `low`, and `ways` is read for the jokers still spare.
    for low in range(MAX_RUN - 2):
        missing = 2 - (m >> low & 1) - (m >> (low + 1) & 1)
        if missing > jokers:
            continue
        held = 2 - missing
        ways = by_spare[min(jokers - missing, MAX_RUN)]
        for high in range(low + 2, MAX_RUN):
            if m >> high & 1:
                held += 1
            else:
                missing += 1
                if missing > jokers:
                    break
                ways = by_spare[min(jokers - missing, MAX_RUN)]
            if high == MAX_RUN - 1 and low < 2:
                if low == 0:  # A to A
                    usable = tuple(p + 1 for p in range(MAX_RUN) if m >> p & 1)
                    total += len(_ace_to_ace_runs(usable, aces, jokers, all_jokers))
                continue  # 2 to high A holds the ranks of A to K: the same meld move
            total += ways[held]
    return total


def _ways(all_jokers: bool) -> tuple[tuple[int, ...], ...]:
    """ways[h][spare]: the runs one window with h naturals gives when `spare` jokers are left
    after filling its gaps: leave out e <= spare of its naturals for jokers, C(h, e) ways each
    (all of them only when melds of jokers alone are allowed)."""
    table = []
    for h in range(MAX_RUN + 1):
        row = []
        for spare in range(MAX_RUN + 1):
            n = sum(comb(h, e) for e in range(min(spare, h) + 1))
            if spare >= h and not all_jokers:
                n -= 1
            row.append(n)
        table.append(tuple(row))
    return tuple(table)


_WAYS = _ways(False)
_WAYS_ALL = _ways(True)
_BY_SPARE = tuple(zip(*_WAYS, strict=True))
"""`_WAYS` the other way round: by_spare[spare][h]."""
_BY_SPARE_ALL = tuple(zip(*_WAYS_ALL, strict=True))


def _rank_held(counts: Counts, rank: int) -> tuple[int, int, int, int]:
    i = rank - 1
    return (counts[i], counts[13 + i], counts[26 + i], counts[39 + i])


_MELD_COUNTS: tuple[dict[Counts, int], dict[Counts, int]] = ({}, {})


def count_melds(counts: Counts, rules: Rules, shape: Shape | None = None) -> int:
    """How many distinct melds the hand can make (the melds `analysis.iter_melds` lists)
    (`shape`: the hand's `hand_shape`, when already known).

    Memoised by hand (one table for each value of `all_joker_melds`)."""
    memo = _MELD_COUNTS[rules.all_joker_melds]
    total = memo.get(counts)
    if total is None:
        total = _count_melds_of(counts, rules, shape or hand_shape(counts))
        if len(memo) >= 50_000:
            memo.clear()
        memo[counts] = total
    return total


def _count_melds_of(counts: Counts, rules: Rules, shape: Shape) -> int:
    sets = [0] + [-1] * 13
    runs = [-1] * 4
    _fill_terms(counts, shape, rules.all_joker_melds, sets, runs)
    return sum(sets) + sum(runs)


def _fill_terms(counts: Counts, shape: Shape, allj: bool, sets: list[int], runs: list[int]) -> None:
    """Work out the melds of the hand by where they lie, for the entries still -1: `sets[r]`,
    the sets of rank r (1..13), and `runs[s]`, the runs of suit number s. The hand's meld count
    is the sum of them all."""
    masks, ranks = shape
    jokers = counts[JOKER_INDEX]
    need = 3 - jokers
    for rank in range(1, 14):
        if sets[rank] < 0:
            n = ranks[rank]
            if n >= need and (n or allj):
                sets[rank] = _set_blocks(_rank_held(counts, rank), jokers, allj)[0]
            else:
                sets[rank] = 0
    for s in range(4):
        if runs[s] < 0:
            mask = masks[s]
            if mask or allj:
                runs[s] = _run_count(mask, min(counts[s * 13], 2), jokers, allj)
            else:
                runs[s] = 0


class HandFacts:
    """One hand with what the meld search reads from it, derived card by card as it changes.

    A deal keeps one per seat. When a move takes cards from a hand (or gives it a joker),
    `changed` works out the new hand's shape from the old one's, and keeps the meld counts of
    the ranks and suits the move did not touch (none when the number of jokers changed): only
    the others are counted again, when the count is first asked for (`melds()`).

    `counts` is the hand, `shape` its `hand_shape` and `held` the naturals held, as a bit mask
    over count-vector indices: always what a fresh look at `counts` gives.

    `HandFacts(counts, all_jokers)` looks at a hand afresh; the other arguments are for
    `changed`, which passes what it derived (a compiled class always runs `__init__`).
    """

    __slots__ = ("_allj", "_runs", "_sets", "_total", "counts", "held", "shape")

    def __init__(
        self,
        counts: Counts,
        all_jokers: bool,
        shape: Shape | None = None,
        held: int = -1,
        sets: list[int] | None = None,
        runs: list[int] | None = None,
    ) -> None:
        self.counts = counts
        if shape is None:
            shape = hand_shape(counts)
            masks = shape[0]
            held = masks[0] | masks[1] << 13 | masks[2] << 26 | masks[3] << 39
        self.shape = shape
        self.held = held
        self._allj = all_jokers
        self._sets = [0] + [-1] * 13 if sets is None else sets
        """Per rank 1..13, how many sets of that rank the hand can make (-1: not counted yet)."""
        self._runs = [-1] * 4 if runs is None else runs
        """Per suit number, how many runs of that suit the hand can make (-1: not counted yet)."""
        self._total: int | None = None

    def __reduce__(self) -> tuple[type[HandFacts], tuple[object, ...]]:
        """Pickle and copy by the arguments (a compiled class has no `__dict__` to copy)."""
        facts = (self.counts, self._allj, self.shape, self.held, list(self._sets), list(self._runs))
        return HandFacts, facts

    def changed(self, counts: Counts, indices: Sequence[int]) -> HandFacts:
        """The facts of `counts`: this hand after the cards at `indices` were taken or given
        (an index may come more than once; 52 is a joker)."""
        old = self.counts
        masks = list(self.shape[0])
        ranks = list(self.shape[1])
        held = self.held
        if counts[JOKER_INDEX] == old[JOKER_INDEX]:
            sets = self._sets.copy()
            runs = self._runs.copy()
        else:  # other jokers: every rank and suit is counted again
            sets = [0] + [-1] * 13
            runs = [-1] * 4
        for i in indices if len(indices) == 1 else set(indices):  # each index once
            if i == JOKER_INDEX:
                continue
            n = counts[i]
            s = _SUIT_OF[i]
            rank = _RANK_OF[i]
            ranks[rank] += n - old[i]
            if n:
                masks[s] |= _BIT_OF[i]
                held |= 1 << i
            else:
                masks[s] &= ~_BIT_OF[i]
                held &= ~(1 << i)
            sets[rank] = -1
            runs[s] = -1
        return HandFacts(counts, self._allj, (tuple(masks), tuple(ranks)), held, sets, runs)

    def melds(self) -> int:
        """How many distinct melds the hand can make (what `count_melds` says)."""
        total = self._total
        if total is None:
            sets, runs = self._sets, self._runs
            _fill_terms(self.counts, self.shape, self._allj, sets, runs)
            total = self._total = sum(sets) + sum(runs)
        return total


def nth_meld(counts: Counts, rules: Rules, k: int, shape: Shape | None = None) -> Meld:
    """Meld number `k` (from 0) of the `count_melds` melds of the hand, in a fixed order
    (`shape`: the hand's `hand_shape`, when already known)."""
    if k < 0:
        raise IndexError(k)
    masks, ranks = shape or hand_shape(counts)
    jokers = counts[JOKER_INDEX]
    allj = rules.all_joker_melds
    need = 3 - jokers
    for rank in range(1, 14):
        n = ranks[rank]
        if n < need or not (n or allj):
            continue
        total, blocks = _set_blocks(_rank_held(counts, rank), jokers, allj)
        if k >= total:
            k -= total
            continue
        for take, least, size in blocks:
            if k >= size:
                k -= size
                continue
            naturals = tuple(NATURALS[s * 13 + rank - 1] for s in range(4) for _ in range(take[s]))
            return Meld(SET, naturals + (SET_JOKER[rank],) * (least + k), rank)
    for s in range(4):
        mask = masks[s]
        if not mask and not allj:
            continue
        aces = min(counts[s * 13], 2)
        total = _run_count(mask, aces, jokers, allj)
        if k >= total:
            k -= total
            continue
        found = _nth_run(mask, aces, jokers, allj, k)
        assert found is not None  # `_run_count` counted it
        low, high, natural = found
        return run_meld(s, low, high, natural)
    raise IndexError("meld number out of range")


def run_meld(s: int, low: int, high: int, natural: set[int] | Sequence[int]) -> Meld:
    """The run of suit number `s` from position `low` to `high`: the naturals at the positions
    in `natural`, noted jokers everywhere else."""
    jokers = RUN_JOKER[s]
    row = tuple(
        NATURALS[index_at(s, p)] if p in natural else jokers[p] for p in range(low, high + 1)
    )
    return Meld(RUN, row, low, SUITS[s])


def has_meld(counts: Counts, rules: Rules, shape: Shape | None = None) -> bool:
    """Whether the hand can make any meld at all (cheaper than looking for one; the bit-mask
    twin of `analysis.first_meld`)."""
    masks, ranks = shape or hand_shape(counts)
    jokers = counts[JOKER_INDEX]
    if jokers >= 3 and rules.all_joker_melds:
        return True
    if jokers >= 2:
        return any(masks)
    if max(ranks) >= 3 - jokers:
        return True
    for mask in masks:
        m = run_mask(mask)
        if jokers == 0:
            if m & (m >> 1) & (m >> 2):
                return True
        elif (m & (m >> 1)) | (m & (m >> 2)):
            return True
    return False


def clear_caches() -> None:
    """Forget the memo tables kept per hand (hand shapes and meld counts)."""
    _SHAPES.clear()
    for memo in _MELD_COUNTS:
        memo.clear()
