"""Bots: players that pick the next move from what one player can see, and say why.

A bot never gets the `Deal`. It gets a `PlayerView` (`PlayerView.of(deal)`): the hand of the player
to move, the table, who owns each meld, the passports made, the actions made this turn, how many
cards each player holds and whether they are alive, and the rules. `PlayerView.legal_moves()`
works out the legal moves from that alone (rules `turn`, `passport`, `lay-off`, `swap`, `dead`,
`game`), so a bot cannot peek at another hand even by accident.

Three bots (`make_bot(name, seed)`):

- `random`: a uniformly random legal move; the turn ends at random once it may.
- `greedy`: plays as many points as it can each turn: its biggest melds, every lay-off, and the
  swaps that let it shed more, before it ends the turn.
- `careful`: plays as little as keeps it alive (one action per turn), lays off before melding,
  keeps its jokers (swaps them out when it can, lays one off only when nothing else is left),
  melds what feeds the opponents least, and, when death is near, sheds its highest cards.

Each choice is a `Choice`: the move and a one-line `why` in plain words for the stepper.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, compress, islice, product
from math import comb
from typing import Protocol

from penang_lib import analysis
from penang_lib.cards import JOKER, JOKER_INDEX, SUITS, Card, Counts, from_counts
from penang_lib.deal import Deal, Status
from penang_lib.melds import MAX_RUN, Kind, Meld
from penang_lib.moves import DeclareDead, DeclareGame, EndTurn, LayOff, MeldMove, Move, Swap
from penang_lib.rules import Rules

BOT_NAMES = ("random", "greedy", "careful")
"""The names `make_bot` knows."""

# -- card tables (built once; the hot loops only index into them) ------------------------------
_NATURALS: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))
_RANK_OF: tuple[int, ...] = tuple(i % 13 + 1 for i in range(52))


def _rank_at(position: int) -> int:
    """The rank at a run position (14 is the high ace)."""
    return 1 if position == MAX_RUN else position


def _index_at(suit: int, position: int) -> int:
    """The count-vector index of the natural at `position` of a run in suit number `suit`."""
    return suit * 13 + _rank_at(position) - 1


_SET_JOKER: tuple[Card, ...] = tuple(Card.joker(r) if r else JOKER for r in range(14))
_RUN_JOKER: tuple[tuple[Card, ...], ...] = tuple(
    tuple(Card.joker(_rank_at(p), suit) if p else JOKER for p in range(MAX_RUN + 1))
    for suit in SUITS
)


# -- what a table meld takes ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _TableInfo:
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


def _set_info(rank: int, with_joker: bool) -> _TableInfo:
    accepts = (rank - 1, 12 + rank, 25 + rank, 38 + rank)
    mask = _mask(accepts)
    swaps = accepts if with_joker else ()
    return _TableInfo(accepts, mask, (_SET_JOKER[rank],), swaps, mask if with_joker else 0)


_SET_INFO: tuple[tuple[_TableInfo, _TableInfo], ...] = tuple(
    (_set_info(max(rank, 1), False), _set_info(max(rank, 1), True)) for rank in range(14)
)


@lru_cache(maxsize=4096)
def _run_info(s: int, low: int, high: int, joker_positions: tuple[int, ...]) -> _TableInfo:
    ends: list[int] = []
    if low > 1:
        ends.append(low - 1)
    if high < MAX_RUN:
        ends.append(high + 1)
    if len(ends) == 2 and _index_at(s, ends[0]) == _index_at(s, ends[1]):
        del ends[1]  # 2 to K: the ace fits at either end, one card, one joker note
    accepts = tuple(_index_at(s, p) for p in ends)
    jokers = tuple(_RUN_JOKER[s][p] for p in ends)
    swaps = tuple(dict.fromkeys(_index_at(s, p) for p in joker_positions))
    return _TableInfo(accepts, _mask(accepts), jokers, swaps, _mask(swaps))


def _table_info_of(meld: Meld) -> _TableInfo:
    cards = meld.cards
    with_joker = False
    for card in cards:
        if not card.rank:
            with_joker = True
            break
    if meld.kind is Kind.SET:
        return _SET_INFO[meld.low][with_joker]
    low = meld.low
    jokers = tuple(low + i for i, c in enumerate(cards) if not c.rank) if with_joker else ()
    return _run_info(_SUIT_INDEX[meld.suit], low, low + len(cards) - 1, jokers)


_SUIT_INDEX = {suit: s for s, suit in enumerate(SUITS)}


_INFO_CACHE: dict[int, tuple[Meld, _TableInfo]] = {}


def _table_info(meld: Meld) -> _TableInfo:
    """`_TableInfo` of a table meld, memoised by identity (table melds are immutable values)."""
    entry = _INFO_CACHE.get(id(meld))
    if entry is not None and entry[0] is meld:
        return entry[1]
    if len(_INFO_CACHE) > 50_000:
        _INFO_CACHE.clear()
    info = _table_info_of(meld)
    _INFO_CACHE[id(meld)] = (meld, info)
    return info


# -- the shape of a hand ---------------------------------------------------------------------------
_SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
_BIT_OF: tuple[int, ...] = tuple(1 << (i % 13) for i in range(52))
_RANGE_52 = range(52)


_Shape = tuple[tuple[int, ...], tuple[int, ...]]
_SHAPES: dict[Counts, _Shape] = {}


def _shape(counts: Counts) -> _Shape:
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


def _high(mask: int) -> int:
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
def _one_ace_runs(
    usable: tuple[int, ...], jokers: int, all_jokers: bool
) -> tuple[tuple[int, ...], ...]:
    """The A-to-A runs of a suit with one ace (positions 1 and 14 both in `usable`): the ace is
    the low or the high one, never both. Each distinct set of natural positions once."""
    seen: dict[tuple[int, ...], None] = {}
    for chosen in (usable[:-1], usable[1:]):
        spare = jokers - (MAX_RUN - len(chosen))
        for extra in range(min(spare, len(chosen)) + 1):
            for as_joker in combinations(chosen, extra):
                natural = tuple(p for p in chosen if p not in as_joker)
                if natural or all_jokers:
                    seen.setdefault(natural)
    return tuple(seen)


_RunBlock = tuple[int, int, int, tuple[int, ...], int]
"""(count, low, high, positions, extra): `extra` of `positions` become jokers (-1: exactly these
positions are the naturals)."""


@lru_cache(maxsize=16384)
def _run_blocks(
    mask: int, aces: int, jokers: int, all_jokers: bool
) -> tuple[int, tuple[_RunBlock, ...]]:
    """The runs of one suit a hand can make, as counted blocks (`mask`: ranks held, bit r-1)."""
    have = [False] * (MAX_RUN + 1)
    for p in range(1, MAX_RUN + 1):
        have[p] = bool(mask >> (_rank_at(p) - 1) & 1)
    blocks: list[_RunBlock] = []
    total = 0
    for low in range(1, MAX_RUN - 1):
        missing = 0
        for high in range(low, MAX_RUN + 1):
            if not have[high]:
                missing += 1
                if missing > jokers:
                    break
            if high - low < 2 or (low, high) == (2, MAX_RUN):
                continue  # 2 to high A holds the ranks of A to K: the same meld move
            usable = tuple(p for p in range(low, high + 1) if have[p])
            if low == 1 and high == MAX_RUN and aces == 1:
                for natural in _one_ace_runs(usable, jokers, all_jokers):
                    blocks.append((1, low, high, natural, -1))
                    total += 1
                continue
            spare = jokers - missing
            for extra in range(min(spare, len(usable)) + 1):
                n = comb(len(usable), extra)
                if extra == len(usable) and not all_jokers:
                    n -= 1
                if n > 0:
                    blocks.append((n, low, high, usable, extra))
                    total += n
    return total, tuple(blocks)


@lru_cache(maxsize=65536)
def _run_count(mask: int, aces: int, jokers: int, all_jokers: bool) -> int:
    """How many runs of one suit a hand can make: the total of `_run_blocks`, found without
    listing the blocks (a window with h naturals and m gaps gives the sum over e <= jokers - m
    of C(h, e) runs, e naturals being left out for jokers)."""
    if jokers == 0:
        # Only unbroken stretches: one of length n holds (n - 1)(n - 2) / 2 runs.
        m = _high(mask)
        total = 0
        length = 0
        for p in range(MAX_RUN + 1):
            if p < MAX_RUN and m >> p & 1:
                length += 1
            else:
                if length >= 3:
                    total += (length - 1) * (length - 2) // 2
                length = 0
        if aces == 1 and m == (1 << MAX_RUN) - 1:
            total -= 1  # A to A needs two aces
        if m >> 1 == (1 << (MAX_RUN - 1)) - 1:
            total -= 1  # 2 to high A is the same meld as A to K
        return total
    m = _high(mask)
    ways = _WAYS_ALL if all_jokers else _WAYS
    total = 0
    for low in range(MAX_RUN - 2):
        missing = 0
        held = 0
        for high in range(low, MAX_RUN):
            if m >> high & 1:
                held += 1
            else:
                missing += 1
                if missing > jokers:
                    break
            if high - low < 2 or (low, high) == (1, MAX_RUN - 1):
                continue  # 2 to high A holds the ranks of A to K: the same meld move
            if high == MAX_RUN - 1 and low == 0 and aces == 1:
                usable = tuple(p + 1 for p in range(MAX_RUN) if m >> p & 1)
                total += len(_one_ace_runs(usable, jokers, all_jokers))
                continue
            total += ways[held][min(jokers - missing, MAX_RUN)]
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


def _rank_held(counts: Counts, rank: int) -> tuple[int, int, int, int]:
    i = rank - 1
    return (counts[i], counts[13 + i], counts[26 + i], counts[39 + i])


def count_melds(counts: Counts, rules: Rules) -> int:
    """How many distinct melds the hand can make (the melds `analysis.iter_melds` lists)."""
    return _count_melds(counts, rules, _shape(counts))


_MELD_COUNTS: tuple[dict[Counts, int], dict[Counts, int]] = ({}, {})


def _count_melds(counts: Counts, rules: Rules, shape: _Shape) -> int:
    """`count_melds`, memoised by hand (one table for each value of `all_joker_melds`)."""
    memo = _MELD_COUNTS[rules.all_joker_melds]
    total = memo.get(counts)
    if total is None:
        total = _count_melds_of(counts, rules, shape)
        if len(memo) >= 50_000:
            memo.clear()
        memo[counts] = total
    return total


def _count_melds_of(counts: Counts, rules: Rules, shape: _Shape) -> int:
    masks, ranks = shape
    jokers = counts[JOKER_INDEX]
    allj = rules.all_joker_melds
    total = 0
    need = 3 - jokers
    for rank in range(1, 14):
        n = ranks[rank]
        if n >= need and (n or allj):
            total += _set_blocks(_rank_held(counts, rank), jokers, allj)[0]
    for s in range(4):
        mask = masks[s]
        if mask or allj:
            total += _run_count(mask, min(counts[s * 13], 2), jokers, allj)
    return total


def nth_meld(counts: Counts, rules: Rules, k: int, shape: _Shape | None = None) -> Meld:
    """Meld number `k` (from 0) of the `count_melds` melds of the hand, in a fixed order
    (`shape`: the hand's `_shape`, when already known)."""
    if k < 0:
        raise IndexError(k)
    masks, ranks = shape or _shape(counts)
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
            naturals = tuple(_NATURALS[s * 13 + rank - 1] for s in range(4) for _ in range(take[s]))
            return Meld(Kind.SET, naturals + (_SET_JOKER[rank],) * (least + k), rank)
    for s in range(4):
        mask = masks[s]
        if not mask and not allj:
            continue
        aces = min(counts[s * 13], 2)
        total = _run_count(mask, aces, jokers, allj)
        if k >= total:
            k -= total
            continue
        runs = _run_blocks(mask, aces, jokers, allj)[1]
        for size, low, high, positions, extra in runs:
            if k >= size:
                k -= size
                continue
            if extra < 0:
                natural = set(positions)
            else:
                as_joker = next(islice(combinations(positions, extra), k, None))
                natural = set(positions).difference(as_joker)
            return _run(s, low, high, natural)
    raise IndexError("meld number out of range")


def _run(s: int, low: int, high: int, natural: set[int] | Sequence[int]) -> Meld:
    jokers = _RUN_JOKER[s]
    row = tuple(
        _NATURALS[_index_at(s, p)] if p in natural else jokers[p] for p in range(low, high + 1)
    )
    return Meld(Kind.RUN, row, low, SUITS[s])


def has_meld(counts: Counts, rules: Rules) -> bool:
    """Whether the hand can make any meld at all (cheaper than looking for one)."""
    return _has_meld(counts, rules, _shape(counts))


def _has_meld(counts: Counts, rules: Rules, shape: _Shape) -> bool:
    masks, ranks = shape
    jokers = counts[JOKER_INDEX]
    if jokers >= 3 and rules.all_joker_melds:
        return True
    if jokers >= 2:
        return any(masks)
    if max(ranks) >= 3 - jokers:
        return True
    for mask in masks:
        m = _high(mask)
        if jokers == 0:
            if m & (m >> 1) & (m >> 2):
                return True
        elif (m & (m >> 1)) | (m & (m >> 2)):
            return True
    return False


# -- the view ------------------------------------------------------------------------------------
_SIZES: dict[int, tuple[Counts, int]] = {}


def _hand_size(hand: Counts) -> int:
    """How many cards a count vector holds, memoised by identity (a hand that has not changed
    is the same tuple)."""
    entry = _SIZES.get(id(hand))
    if entry is not None and entry[0] is hand:
        return entry[1]
    if len(_SIZES) >= 50_000:
        _SIZES.clear()
    size = sum(hand)
    _SIZES[id(hand)] = (hand, size)
    return size


_Option = tuple[int, Card]
"""A lay-off or swap before it is made a move: (table meld number, card)."""


class PlayerView:
    """What the player to move sees: their own hand and the public state, nothing else.

    Build it with `PlayerView.of(deal)`. Attributes: `seat`, `players`, `names`, `rules`,
    `copies` (packs in the deck), `counts` (the hand as a count vector) and `cards`, `table` and
    `owners`, `passport` (this player's) and `passports` (everyone's: a meld on the table shows
    it), `actions` (melds and lay-offs made this turn), `hand_sizes` and `status` of every player,
    `turn_number` and `over`.
    """

    __slots__ = (
        "_lay",
        "_melds",
        "_natural",
        "_shape",
        "_swap",
        "actions",
        "copies",
        "counts",
        "hand_sizes",
        "names",
        "over",
        "owners",
        "passport",
        "passports",
        "players",
        "rules",
        "seat",
        "status",
        "table",
        "turn_number",
    )

    seat: int
    players: int
    names: tuple[str, ...]
    rules: Rules
    copies: int
    counts: Counts
    table: tuple[Meld, ...]
    owners: tuple[int, ...]
    passport: bool
    passports: tuple[bool, ...]
    actions: int
    hand_sizes: tuple[int, ...]
    status: tuple[Status, ...]
    turn_number: int
    over: bool

    def __init__(
        self,
        *,
        seat: int,
        players: int,
        names: Sequence[str],
        rules: Rules,
        copies: int,
        counts: Counts,
        table: Sequence[Meld],
        owners: Sequence[int],
        passports: Sequence[bool],
        actions: int,
        hand_sizes: Sequence[int],
        status: Sequence[Status],
        turn_number: int,
        over: bool = False,
    ) -> None:
        self.seat = seat
        self.players = players
        self.names = tuple(names)
        self.rules = rules
        self.copies = copies
        self.counts = tuple(counts)
        self.table = tuple(table)
        self.owners = tuple(owners)
        self.passports = tuple(passports)
        self.passport = self.passports[seat]
        self.actions = actions
        self.hand_sizes = tuple(hand_sizes)
        self.status = tuple(status)
        self.turn_number = turn_number
        self.over = over
        self._shape: _Shape | None = None
        self._melds: int | None = None
        self._lay: list[_Option] | None = None
        self._natural: list[_Option] | None = None
        self._swap: list[_Option] | None = None

    @classmethod
    def of(cls, deal: Deal) -> PlayerView:
        """The view of the player to move in `deal` (only public facts and their own hand)."""
        # Filled in directly (the same values `__init__` would make): this runs every move.
        view = cls.__new__(cls)
        seat = deal.turn
        view.seat = seat
        view.players = deal.players
        view.names = tuple(deal.names)
        view.rules = deal.rules
        view.copies = deal.copies
        view.counts = deal.hands[seat]
        view.table = tuple(deal.table)
        view.owners = tuple(deal.owners)
        view.passports = tuple(deal.passport)
        view.passport = view.passports[seat]
        view.actions = deal.actions
        view.hand_sizes = tuple(map(_hand_size, deal.hands))
        view.status = tuple(deal.status)
        view.turn_number = deal.turn_number
        view.over = deal.is_over
        view._shape = None
        view._melds = None
        view._lay = None
        view._natural = None
        view._swap = None
        return view

    def __repr__(self) -> str:
        return (
            f"<PlayerView seat={self.seat} cards={sum(self.counts)} table={len(self.table)} "
            f"passport={self.passport} actions={self.actions}>"
        )

    # -- reading -------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.names[self.seat]

    @property
    def cards(self) -> list[Card]:
        """The player's own cards, in display order."""
        return from_counts(self.counts)

    @property
    def jokers(self) -> int:
        return self.counts[JOKER_INDEX]

    def shape(self) -> _Shape:
        """Per suit a bit mask of the ranks held (bit r-1); per rank 1..13 how many are held."""
        if self._shape is None:
            self._shape = _shape(self.counts)
        return self._shape

    def table_naturals(self) -> list[int]:
        """How many of each natural lie on the table (a count vector; jokers not counted)."""
        seen = [0] * 53
        for meld in self.table:
            for card in meld.cards:
                seen[card.index] += 1
        seen[JOKER_INDEX] = 0
        return seen

    # -- what can be played ----------------------------------------------------------------------
    def has_meld(self) -> bool:
        """Whether the hand can make any meld (with jokers too)."""
        if self._melds is not None:
            return self._melds > 0
        return _has_meld(self.counts, self.rules, self.shape())

    def count_melds(self) -> int:
        """How many distinct melds the hand can make."""
        if self._melds is None:
            self._melds = _count_melds(self.counts, self.rules, self.shape())
        return self._melds

    def melds(self) -> Iterator[Meld]:
        """Every meld the hand can make, each once, lazily."""
        for k in range(self.count_melds()):
            yield nth_meld(self.counts, self.rules, k, self.shape())

    def _scan(self) -> None:
        """One pass over the table: the lay-offs and the swaps this hand has (after the
        passport; jokers laid off carry the card they become)."""
        lay: list[_Option] = []
        natural: list[_Option] = []
        swap: list[_Option] = []
        if self.passport:
            hand = self.counts
            jokers = hand[JOKER_INDEX]
            masks = self.shape()[0]
            held = masks[0] | masks[1] << 13 | masks[2] << 26 | masks[3] << 39
            cache = _INFO_CACHE
            for target, meld in enumerate(self.table):
                entry = cache.get(id(meld))
                info = entry[1] if entry is not None and entry[0] is meld else _table_info(meld)
                if info.accept_mask & held:
                    for index in info.accepts:
                        if hand[index]:
                            option = (target, _NATURALS[index])
                            lay.append(option)
                            natural.append(option)
                if jokers:
                    for card in info.joker_cards:
                        lay.append((target, card))
                if info.swap_mask & held:
                    for index in info.swaps:
                        if hand[index]:
                            swap.append((target, _NATURALS[index]))
            if swap and not self.actions:
                swap = [o for o in swap if self._swap_leaves_action(o)]
        self._lay = lay
        self._natural = natural
        self._swap = swap

    def lay_off_options(self) -> list[_Option]:
        """Every distinct lay-off as (meld number, card)."""
        if self._lay is None:
            self._scan()
        assert self._lay is not None
        return self._lay

    def natural_lay_off_options(self) -> list[_Option]:
        """The lay-offs of natural cards (no joker), as (meld number, card)."""
        if self._natural is None:
            self._scan()
        assert self._natural is not None
        return self._natural

    def swap_options(self) -> list[_Option]:
        """Every legal swap as (meld number, card): at the start of a turn only those after which
        a meld or lay-off is still possible, since a swap is not an action (rule `swap`)."""
        if self._swap is None:
            self._scan()
        assert self._swap is not None
        return self._swap

    def lay_offs(self) -> list[LayOff]:
        """Every distinct legal lay-off (none before the passport)."""
        return [LayOff(t, c) for t, c in self.lay_off_options()]

    def swaps(self) -> list[Swap]:
        """Every distinct legal swap (none before the passport)."""
        return [Swap(t, c) for t, c in self.swap_options()]

    def _swap_leaves_action(self, option: _Option) -> bool:
        # The joker taken can be laid off on any set and any run shorter than A to A.
        for meld in self.table:
            if meld.kind is Kind.SET or len(meld.cards) < MAX_RUN:
                return True
        target, card = option
        after = analysis.TableOption(target, card, self.table[target].swap_results(card)[0])
        hand, table = analysis.apply_option(self.counts, self.table, after, swap=True)
        return analysis.find_action(hand, table, True, self.rules) is not None

    def can_act(self) -> bool:
        """Whether a meld or lay-off can be made this turn, swaps included (rules `dead`,
        `dead.passport`)."""
        if self.has_meld():
            return True
        return bool(self.passport and (self.lay_off_options() or self.swap_options()))

    def forced(self) -> Move | None:
        """The only legal move when there is one: Game with an empty hand, Dead when nothing can
        be played at the start of the turn; else None."""
        if self.over:
            return None
        if not any(self.counts):
            return DeclareGame()
        if self.actions == 0 and not self.can_act():
            return DeclareDead()
        return None

    def count_moves(self) -> int:
        """How many distinct legal moves there are."""
        if self.over:
            return 0
        if self.forced() is not None:
            return 1
        lay, swap = self.lay_off_options(), self.swap_options()
        return self.count_melds() + len(lay) + len(swap) + (self.actions > 0)

    def nth_move(self, k: int) -> Move:
        """Legal move number `k` (from 0) in the order of `legal_moves()`."""
        forced = self.forced()
        if forced is not None:
            if k != 0:
                raise IndexError(k)
            return forced
        melds = self.count_melds()
        if k < melds:
            return MeldMove(nth_meld(self.counts, self.rules, k, self.shape()).cards)
        k -= melds
        lay = self.lay_off_options()
        if k < len(lay):
            return LayOff(*lay[k])
        k -= len(lay)
        swap = self.swap_options()
        if k < len(swap):
            return Swap(*swap[k])
        if k == len(swap) and self.actions:
            return EndTurn()
        raise IndexError("move number out of range")

    def legal_moves(self) -> Iterator[Move]:
        """Every distinct legal move, worked out from this view alone, lazily."""
        if self.over:
            return
        forced = self.forced()
        if forced is not None:
            yield forced
            return
        for meld in self.melds():
            yield MeldMove(meld.cards)
        yield from self.lay_offs()
        yield from self.swaps()
        if self.actions:
            yield EndTurn()


# -- choices and bots ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Choice:
    """A bot's move and, in one line of plain words, why it chose it."""

    move: Move
    why: str


class Bot(Protocol):
    """Anything that picks a move from a `PlayerView`."""

    name: str

    def choose(self, view: PlayerView) -> Choice: ...


def _forced_choice(view: PlayerView) -> Choice | None:
    if view.over:
        raise ValueError("the deal is over: there is no move to choose")
    move = view.forced()
    if move is None:
        return None
    if isinstance(move, DeclareGame):
        return Choice(move, "The hand is empty: calling Game wins the deal.")
    if view.passport:
        return Choice(move, "No meld, no lay-off and no swap that leads to one: Dead.")
    return Choice(move, "No meld can be made for the passport: Dead at once.")


class RandomBot:
    """Picks uniformly at random among the distinct legal moves (ending the turn is one of them).

    The moves are counted by kind and only the chosen one is built, so a hand with jokers (which
    can make thousands of melds) costs no more than any other.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Choice:
        if view.over:
            raise ValueError("the deal is over: there is no move to choose")
        if not any(view.counts):
            return Choice(DeclareGame(), "The hand is empty: calling Game wins the deal.")
        total = view.count_melds() + len(view.lay_off_options()) + len(view.swap_options())
        total += view.actions > 0
        if total == 0:
            forced = _forced_choice(view)
            assert forced is not None
            return forced
        move = view.nth_move(self.rng.randrange(total))
        return Choice(move, f"Picked at random among {total} legal moves.")


def _set_meld(counts: Counts, rank: int, naturals: int, jokers: int) -> Meld:
    """A set of `rank` with `naturals` of the hand's cards of that rank and `jokers` jokers."""
    cards: list[Card] = []
    for s in range(4):
        index = s * 13 + rank - 1
        take = min(counts[index], naturals - len(cards))
        cards.extend([_NATURALS[index]] * take)
    return Meld(Kind.SET, (*cards, *([_SET_JOKER[rank]] * jokers)), rank)


def _meld_points(meld: Meld, rules: Rules) -> int:
    return sum(rules.card_value(c.rank) for c in meld.physical)


def _best_meld(view: PlayerView) -> Meld | None:
    """The meld that sheds the most points now (every joker it can use, the longest runs)."""
    counts = view.counts
    rules = view.rules
    masks, ranks = view.shape()
    jokers = counts[JOKER_INDEX]
    joker_value = rules.card_value(0)
    best: tuple[int, int, Meld | None] = (-1, 0, None)
    for rank in range(1, 14):
        n = ranks[rank]
        if n and n + jokers >= 3:
            points = n * rules.card_value(rank) + jokers * joker_value
            if points > best[0]:
                best = (points, n + jokers, _set_meld(counts, rank, n, jokers))
    for s in range(4):
        mask = _high(masks[s])
        if not mask:
            continue
        two_aces = counts[s * 13] >= 2
        for low in range(1, MAX_RUN - 1):
            missing = 0
            high = low - 1
            naturals: list[int] = []
            # Widen the window as far as the jokers allow: every card added sheds points.
            while high < MAX_RUN:
                p = high + 1
                real = bool(mask >> (p - 1) & 1)
                if real and p == MAX_RUN and low == 1 and not two_aces:
                    real = False  # the one ace already stands at the low end
                if not real and missing == jokers:
                    break
                high = p
                if real:
                    naturals.append(p)
                else:
                    missing += 1
            if high - low < 2 or not naturals:
                continue
            points = sum(rules.card_value(_rank_at(p)) for p in naturals) + missing * joker_value
            if points > best[0] or (points == best[0] and high - low + 1 > best[1]):
                best = (points, high - low + 1, _run(s, low, high, naturals))
    if best[2] is None and rules.all_joker_melds and jokers >= 3:
        return next(view.melds(), None)
    return best[2]


class GreedyBot:
    """Sheds as many points as it can each turn: its biggest meld first (jokers and all), then
    every lay-off, highest card first, then the swaps that free a joker to lay off; it ends the
    turn only when nothing is left to play."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Choice:
        forced = _forced_choice(view)
        if forced is not None:
            return forced
        rules = view.rules
        meld = _best_meld(view)
        if meld is not None:
            points = _meld_points(meld, rules)
            return Choice(
                MeldMove(meld.cards),
                f"Greedy: the biggest meld in hand, {meld.symbols}, sheds {points} points.",
            )
        lay = view.lay_off_options()
        naturals = view.natural_lay_off_options()
        if naturals:
            target, card = max(naturals, key=lambda o: rules.card_value(o[1].rank))
            return Choice(
                LayOff(target, card), f"Greedy: lay off {card.symbol}, the highest card that fits."
            )
        swaps = view.swap_options()
        if swaps:
            target, card = swaps[0]
            return Choice(
                Swap(target, card), f"Greedy: swap {card.symbol} for a joker, to shed more cards."
            )
        if lay:
            return Choice(LayOff(*lay[0]), "Greedy: lay off a joker, 20 points out of the hand.")
        return Choice(EndTurn(), "Greedy: nothing more can be played this turn.")


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A meld the careful bot could make: how many unseen cards it would let the others lay off
    (`feeds`), how many of its own cards it could lay off later (`keeps`), its points."""

    meld: Meld
    feeds: int
    keeps: int
    points: int


_END_TURN = Choice(EndTurn(), "Careful: one action is enough to stay alive; end the turn.")


class CarefulBot:
    """Plays as little as keeps it alive, the way players describe it (RULES.md, `dead`).

    - One action per turn: a meld or a lay-off, then it ends the turn.
    - Lays off before it melds; prefers a card that is in no meld of its own hand, a set as the
      target (a run grows and opens a new end to the others), then the highest card.
    - Keeps jokers: swaps them out of the table whenever it can, and lays one off only when that
      is the only action left; melds with jokers only when no natural meld is possible.
    - Holds back melds that would feed the others: of the three-card melds it could make, it
      picks the one whose open ends take the fewest cards it cannot see.
    - When death is near (no meld in hand, no joker, at most `near_death` cards it can lay off)
      it sheds every card it can, highest first, so that it dies holding few points.
    """

    name = "careful"

    def __init__(self, seed: int | None = None, near_death: int = 2) -> None:
        self.seed = seed
        self.near_death = near_death

    def choose(self, view: PlayerView) -> Choice:
        forced = _forced_choice(view)
        if forced is not None:
            return forced
        if not view.passport:
            return self._meld(view, passport=True)
        rules = view.rules
        if view.actions:
            if view.jokers or view.has_meld():
                return _END_TURN
            naturals = view.natural_lay_off_options()
            if naturals and self._death_near(view, naturals):
                target, card = max(naturals, key=lambda o: rules.card_value(o[1].rank))
                return Choice(
                    LayOff(target, card),
                    f"Death is near: shed {card.symbol} too, to die holding fewer points.",
                )
            return _END_TURN
        swaps = view.swap_options()
        if swaps:
            target, card = swaps[0]
            return Choice(
                Swap(target, card),
                f"Careful: swap {card.symbol} for the joker; a joker in hand is a spare turn.",
            )
        naturals = view.natural_lay_off_options()
        if naturals:
            if self._death_near(view, naturals):
                target, card = max(naturals, key=lambda o: rules.card_value(o[1].rank))
                why = f"Death is near: shed the highest card, {card.symbol}."
            else:
                target, card = self._best_lay_off(view, naturals)
                why = f"Careful: lay off just {card.symbol}; one card keeps me alive."
            return Choice(LayOff(target, card), why)
        if view.has_meld():
            return self._meld(view, passport=False)
        lay = view.lay_off_options()
        if lay:
            target, card = min(lay, key=lambda o: view.table[o[0]].kind is not Kind.SET)
            return Choice(LayOff(target, card), "Careful: a joker lay-off is the only action left.")
        # Unreachable: with no meld, no lay-off and no swap the move was forced (Dead).
        return Choice(next(view.legal_moves()), "Careful: the only move left.")

    # -- helpers -----------------------------------------------------------------------------
    def _meld(self, view: PlayerView, passport: bool) -> Choice:
        candidate = _pick_meld(view, with_jokers=False) or _pick_meld(view, with_jokers=True)
        what = "passport" if passport else "meld"
        if candidate is None:  # only a meld of jokers alone (a house rule) is possible
            return Choice(next(view.legal_moves()), f"Careful: the only {what} there is.")
        feeds = candidate.feeds
        fed = "feeds nobody" if feeds == 0 else f"opens the table to {feeds} unseen card"
        if feeds > 1:
            fed += "s"
        return Choice(
            MeldMove(candidate.meld.cards),
            f"Careful: the smallest {what}, {candidate.meld.symbols}, {fed}.",
        )

    def _death_near(self, view: PlayerView, naturals: list[_Option]) -> bool:
        if view.jokers:
            return False
        counts = view.counts
        if sum(counts[card.index] for _, card in naturals) > self.near_death:
            return False
        return not view.has_meld()

    @staticmethod
    def _best_lay_off(view: PlayerView, naturals: list[_Option]) -> _Option:
        rules = view.rules
        useful = _meld_cards(view)
        table = view.table

        def key(option: _Option) -> tuple[bool, bool, int]:
            target, card = option
            return (
                not useful >> card.index & 1,
                table[target].kind is Kind.SET,
                rules.card_value(card.rank),
            )

        return max(naturals, key=key)


_POPCOUNT3 = (0, 1, 1, 2, 1, 2, 2, 3)


def _pick_meld(view: PlayerView, with_jokers: bool) -> _Candidate | None:
    """The three-card meld that feeds the others least: naturals only, or else with the fewest
    jokers (two naturals and a joker before one natural and two jokers)."""
    counts = view.counts
    masks, ranks = view.shape()
    jokers = counts[JOKER_INDEX]
    levels = ((2, 1), (1, 2)) if with_jokers else ((3, 0),)
    options: list[tuple[int, int, int]] = []  # (suit or -1 for a set, rank or low, jokers)
    for need, use in levels:
        if use > jokers:
            break
        for rank in range(1, 14):
            if ranks[rank] >= need:
                options.append((-1, rank, use))
        for s in range(4):
            mask = _high(masks[s])
            if not mask:
                continue
            if need == 3:
                starts = mask & (mask >> 1) & (mask >> 2) & 0xFFF
                while starts:
                    bit = starts & -starts
                    options.append((s, bit.bit_length(), 0))
                    starts ^= bit
                continue
            for low in range(1, MAX_RUN - 1):
                if _POPCOUNT3[mask >> (low - 1) & 7] == need:
                    options.append((s, low, use))
        if options:
            break
    if not options:
        return None
    seen = view.table_naturals()
    copies = view.copies
    rules = view.rules
    best: tuple[int, int, int] | None = None
    choice: tuple[int, int, int] | None = None
    for s, at, use in options:
        if s < 0:
            idx = [q * 13 + at - 1 for q in range(4)]
            left = ranks[at] - (3 - use)  # of this rank, still in hand after the meld
            feeds = max(0, 4 * copies - left - sum(seen[i] for i in idx))
            keeps = left
            points = (3 - use) * rules.card_value(at) + use * rules.card_value(0)
        else:
            ends = [p for p in (at - 1, at + 3) if 1 <= p <= MAX_RUN]
            idx = [_index_at(s, p) for p in ends]
            feeds = sum(max(0, copies - counts[i] - seen[i]) for i in idx)
            keeps = sum(counts[i] for i in idx)
            mask = _high(masks[s])
            points = use * rules.card_value(0) + sum(
                rules.card_value(_rank_at(p)) for p in range(at, at + 3) if mask >> (p - 1) & 1
            )
        key = (feeds, -keeps, -points)
        if best is None or key < best:
            best, choice = key, (s, at, use)
    assert best is not None and choice is not None
    s, at, use = choice
    if s < 0:
        meld = _set_meld(counts, at, 3 - use, use)
    else:
        mask = _high(masks[s])
        meld = _run(s, at, at + 2, [p for p in range(at, at + 3) if mask >> (p - 1) & 1])
    return _Candidate(meld, best[0], -best[1], -best[2])


def _meld_cards(view: PlayerView) -> int:
    """The naturals that belong to some natural three-card meld of the hand, as a bit mask over
    count-vector indices."""
    masks, ranks = view.shape()
    out = 0
    for rank in range(1, 14):
        if ranks[rank] >= 3:
            out |= _RANK_BITS[rank]
    for s in range(4):
        m = _high(masks[s])
        starts = m & (m >> 1) & (m >> 2)
        if starts:
            covered = starts | starts << 1 | starts << 2
            out |= ((covered | covered >> 13) & 0x1FFF) << (13 * s)
    return out


_RANK_BITS: tuple[int, ...] = tuple(
    sum(1 << (q * 13 + rank - 1) for q in range(4)) if rank else 0 for rank in range(14)
)


_FACTORIES: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "careful": CarefulBot,
}


def clear_caches() -> None:
    """Forget the memo tables kept per hand and per table meld (hand shapes and sizes, meld
    counts, what each table meld takes). They only ever save time; benchmarks clear them so that
    playing the same deals again is not faster than playing new ones."""
    _SHAPES.clear()
    _SIZES.clear()
    _INFO_CACHE.clear()
    for memo in _MELD_COUNTS:
        memo.clear()


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name ("random", "greedy" or "careful"); `seed` drives the random one."""
    factory = _FACTORIES.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(BOT_NAMES)}")
    return factory(seed)


def play_move(deal: Deal, bot: Bot) -> Choice:
    """Let `bot` choose the next move of `deal` from the player's view, and push it."""
    choice = bot.choose(PlayerView.of(deal))
    deal.push(choice.move)
    return choice
