"""Least deadwood: the smallest count a hand can be left with after laying down melds.

Rules `meld`, `run`, `set`, `joker` and `scoring`. `least_deadwood(hand)` lays down any collection
of disjoint melds from `hand` so that the cards left over count as little as possible, and says
which melds do it. It is exact, jokers and both aces included; nothing is guessed.

How it is exact (the argument the search rests on)
---------------------------------------------------
*Pieces.* Call a meld of 3 to 5 cards holding at least one natural a *piece*. Every legal meld
is a few pieces plus some *spare jokers*: cut a run into consecutive stretches of 3 to 5 cards
(any length from 3 up can be cut that way), keep the stretches that hold a natural, and call the
jokers of the others spare; a set with three or more naturals is cut into all-natural sets of 3
to 5, and a set with one or two naturals is those naturals plus jokers up to three, the rest of
its jokers spare. Going back, spare jokers can always be put onto pieces again: a set takes any
number of jokers, and a run of L cards takes 14 - L more at its ends (every piece, even one
extended this way, is a meld of its own, so pieces never get in each other's way). So a hand's
least deadwood is: choose disjoint pieces; every joker not in a piece is spare, and spare jokers
stay in the hand only beyond the room the pieces leave (none if there is a set, else the sum of
14 - L over the runs). With the house rule `all_joker_melds`, three or more leftover jokers are
simply a meld of their own. This is why the search only ever builds melds of 3 to 5 cards, and
why "a split piece could be only jokers" does no harm: such a piece is not kept, its jokers
become spare, and the run they came from has room for them.

*Few jokers (at most 9, every real deck).* A piece of at most 5 cards has room for at least 9
spare jokers, so once one piece is laid every joker is used and only naturals are left; the
search then counts naturals alone, and a hand with no piece at all keeps its jokers too. Three
shortcuts lose nothing. (1) A piece holds no joker it does not need: a joker at the end of a run
of 4 or 5, or beyond three cards in a set, can be spare instead. (2) No way of laying a piece
puts a joker where a natural it could take is still in hand (`c x JK` while the card after `x`
is in hand: it could lie as `c x JK` with the joker on that card). Put the natural there
instead; the joker becomes spare, and if the natural was in a later piece, that piece takes the
joker in its place (or, left without a natural, breaks up into spare jokers). The count never
rises, and the joker counts of the pieces, read in the order the search lays them, go down, so
repeating this ends. (3) Pieces with the same cards are one piece, whatever the jokers stand for.

*Many jokers (10 or more, a made-up hand).* Shortcut (2) may then lose (jokers could be left
over that a natural would have made room for), so runs may use a joker in place of a natural,
and the search keeps count of the room the pieces leave.

The search
----------
A hand is one integer: 4 bits per card, ordered by run position (1 = low ace, ..., 13 = king,
14 = high ace) and then suit. The search takes the lowest card left. It is either deadwood (an
ace at position 1 is instead moved to position 14, for a high run or to stay there), or the
lowest card of a piece: a set of its rank, or a run of its suit from it to a natural one to four
places higher (a run reaching lower would have jokers there, and is the same piece as one laid
from this card up). Costs are `points * 1024 + cards`, so among equal counts the one leaving
fewer cards wins, and every natural a piece saves lowers the cost.

With few jokers this is a branch and bound: each call gets a limit and answers exactly when the
answer is below it, otherwise with a lower bound; the cards no piece could hold with the jokers
left give the bound. Every answer, exact or bound, is remembered per (cards, jokers) in a table
per card-value table, with the step that reaches each exact one (so the melds come without a
second search). With many jokers each (cards, jokers, room) is answered once through
`functools.lru_cache`, and `_least_cost`, the count alone, is an `lru_cache`d pure function of
the cards and the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Final, TypeGuard, cast

from penang_lib.engine.cards import (
    JOKER,
    JOKER_INDEX,
    NATURALS,
    SUITS,
    Card,
    Counts,
    read_cards,
    sort_cards,
)
from penang_lib.engine.melds import MAX_RUN, Kind, Meld, position_rank
from penang_lib.engine.rules import Rules

__all__ = [
    "DeadwoodResult",
    "clear_cache",
    "least_deadwood",
    "least_deadwood_points",
]


SCALE: Final = 1024
"""Internal cost of a card left in hand: `value * SCALE + 1` (ties go to fewer cards)."""
FREE_JOKERS: Final = MAX_RUN - 5
"""Any one piece (at most 5 cards) has room for this many spare jokers."""
CACHE_SIZE: Final = 1 << 16
"""Positions remembered per card-value table (then the oldest or all of them are dropped)."""

_BITS: Final = 4
_NIBBLE: Final = (1 << _BITS) - 1
_ROOMY: Final = 99
"""The room a set leaves for spare jokers: any number (clipped to the jokers in hand anyway)."""
_HIGH_ACE: Final = 14

Piece = tuple[int, int, int]
"""A piece as the search sees it: (the cards it takes, as a packed hand; jokers; room it leaves)."""
CardsLike = str | Card | Iterable[Card | str]
HandLike = CardsLike | Counts


@dataclass(frozen=True)
class DeadwoodResult:
    """The least deadwood of a hand: its count, one set of melds that reaches it, the cards left.

    `points` equals `deadwood_points(deadwood)`; the melds are disjoint, each is legal, and
    together with `deadwood` they hold exactly the hand's cards.
    """

    points: int
    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]


# -- packing a hand -----------------------------------------------------------------------------
def _slot(position: int, suit: int) -> int:
    """Where the card at run `position` (1..14) of `suit` (0..3) sits in a packed hand."""
    return (position - 1) * 4 + suit


def _unit(position: int, suit: int) -> int:
    return 1 << (_BITS * _slot(position, suit))


def _is_counts(hand: object) -> TypeGuard[Counts]:
    return (
        isinstance(hand, tuple)
        and len(hand) == JOKER_INDEX + 1
        and all(isinstance(n, int) and not isinstance(n, bool) for n in hand)
    )


def _counts_of(hand: HandLike) -> Counts:
    if _is_counts(hand):
        counts = hand
    else:
        vector = [0] * (JOKER_INDEX + 1)
        for card in read_cards(cast(CardsLike, hand), "hand"):
            vector[card.index] += 1
        counts = tuple(vector)
    if any(n < 0 for n in counts):
        raise ValueError("a hand cannot hold a negative number of cards")
    if any(n > _NIBBLE for n in counts[:JOKER_INDEX]):
        raise ValueError(f"a hand may hold at most {_NIBBLE} copies of one card")
    if sum(counts) >= SCALE:
        raise ValueError(f"a hand may hold at most {SCALE - 1} cards")
    return counts


def _pack(counts: Counts) -> int:
    """The naturals of a count vector as one integer, 4 bits per card, aces at position 1."""
    state = 0
    for index in range(JOKER_INDEX):
        if counts[index]:
            state += counts[index] << (_BITS * _slot(index % 13 + 1, index // 13))
    return state


def _values(rules: Rules) -> tuple[int, ...]:
    """Internal cost per card left in hand: 56 packed places, then the joker."""
    values = [rules.card_value(rank) for rank in range(14)]
    if any(v < 0 for v in values):
        raise ValueError("least deadwood needs card values of zero or more")
    per_slot = [
        values[position_rank(position)] * SCALE + 1
        for position in range(1, MAX_RUN + 1)
        for _ in range(4)
    ]
    return (*per_slot, values[0] * SCALE + 1)


# -- the pieces a card can start --------------------------------------------------------------
def _pieces(state: int, position: int, suit: int, jokers: int) -> list[Piece]:
    """The pieces of the plain search (many jokers) whose lowest card is the card at
    (`position`, `suit`), the lowest in `state`: every set and run but those with a joker they
    do not need (shortcut 1) or the same cards as another (shortcut 3). Runs may use a joker
    where a natural is in hand; sets never need to, as a set leaves room for every joker.
    """
    found: dict[tuple[int, int], int] = {}
    me = _unit(position, suit)
    # Sets: the card, other naturals of its rank (none of a lower suit is left), jokers up to 3.
    if position < _HIGH_ACE:
        shift = _BITS * _slot(position, 0)
        held = [(state >> (shift + _BITS * s)) & _NIBBLE for s in range(4)]
        held[suit] -= 1
        others = sum(held)
        if others >= 2:
            units = [1 << (shift + _BITS * s) for s in range(4)]
            for take in product(*(range(n + 1) for n in held)):
                if 2 <= sum(take) <= 4:
                    delta = me + sum(t * u for t, u in zip(take, units, strict=True))
                    found[(delta, 0)] = _ROOMY
        elif 2 - others <= jokers:
            delta = me + sum(n << (shift + _BITS * s) for s, n in enumerate(held))
            found[(delta, 2 - others)] = _ROOMY
    # Runs of this suit: 3 cards starting up to two places lower, or 4-5 cards from here.
    top = min(MAX_RUN, position + 4)
    have = [0] * (top + 1)
    for place in range(position + 1, top + 1):
        if (state >> (_BITS * _slot(place, suit))) & _NIBBLE:
            have[place] = 1
    windows: list[tuple[int, int]] = []
    for low in (position - 2, position - 1, position):
        if low >= 1 and low + 2 <= MAX_RUN:
            windows.append((low, low + 2))
    for high in (position + 3, position + 4):
        if high <= top and have[high]:
            windows.append((position, high))
    for low, high in windows:
        # Naturals above the card: the far end of a run of 4 or 5 must be one, others may.
        inner = [p for p in range(position + 1, high + 1) if have[p]]
        fixed = me
        optional: list[int] = []
        for p in inner:
            if not (p == high and high - low >= 3):
                optional.append(p)
            else:
                fixed += _unit(p, suit)
        length = high - low + 1
        room = MAX_RUN - length
        for pick in product((0, 1), repeat=len(optional)):
            delta = fixed
            for p, chosen in zip(optional, pick, strict=True):
                if chosen:
                    delta += _unit(p, suit)
            naturals = 1 + len(inner) - len(optional) + sum(pick)
            used = length - naturals
            if used <= jokers and found.get((delta, used), -1) < room:
                found[(delta, used)] = room
    return [(delta, used, room) for (delta, used), room in found.items()]


# -- the search ---------------------------------------------------------------------------------
_INF: Final = 1 << 62
_ACE_SHIFT: Final = 13 * 4 * _BITS
"""From a low ace (position 1) to a high ace (position 14) in a packed hand."""
_ONES: Final = sum(1 << (_BITS * slot) for slot in range(56))
_ALL: Final = (1 << (_BITS * 56)) - 1
_POS1: Final = sum(1 << (_BITS * suit) for suit in range(4))
_POS14: Final = _POS1 << _ACE_SHIFT
_LOW_NIBBLES: Final = sum(0x0F << (8 * i) for i in range(28))
_LANES: Final = sum(0xFF << (16 * i) for i in range(14))
_LANE_ONES: Final = sum(1 << (16 * i) for i in range(14))
_LANE_TOP: Final = 0x80 * _LANE_ONES


def _lane_sums(packed: int) -> int:
    """Per position (16 bits, low byte): how many cards of the packed hand it holds."""
    pairs = (packed & _LOW_NIBBLES) + ((packed >> _BITS) & _LOW_NIBBLES)
    return (pairs + (pairs >> 8)) & _LANES


def _lower_bound(points: Sequence[int]) -> Callable[[int, int], int]:
    """A cheap lower bound on the least cost of the naturals of a packed hand with `jokers`
    jokers (what the free search looks for), from its *lonely* cards: those no piece without a
    joker can hold (no run of three around them, fewer than three of their rank).

    With no joker every lonely card stays. Otherwise some lonely cards are *hopeless*: not even
    one joker helps (no card of their suit within two places, no other of their rank). A piece
    holding one has two jokers or more and holds at most two, so at most `jokers` of them are
    saved (none with one joker). The other lonely cards each need a piece with a joker, and a
    piece of k jokers holds at most 5 - k <= 4k naturals: at most `4 * jokers` are saved. The
    bound charges all of them but the costliest that could be saved. Aces count at both ends.
    Counts per position sit in 16-bit lanes, weighed by their values in one multiplication.
    """
    weights = sum(points[p] << (16 * (13 - p)) for p in range(14))
    ones = sum(1 << (16 * (13 - p)) for p in range(14))
    if max(points) * 15 * 4 * 14 >= 1 << 16:  # lanes could overflow: no bound at all
        return lambda state, jokers: 0

    order = sorted(range(14), key=lambda p: -points[p])
    shifts = [(16 * p, points[p] * SCALE + 1) for p in order]

    def bound(state: int, jokers: int) -> int:
        present = (state | state >> 1 | state >> 2 | state >> 3) & _ONES
        row = present | (present & _POS1) << _ACE_SHIFT | (present & _POS14) >> _ACE_SHIFT
        above, below = row >> 16, (row << 16) & _ALL
        above2, below2 = row >> 32, (row << 32) & _ALL
        pairs = (state & _LOW_NIBBLES) + ((state >> _BITS) & _LOW_NIBBLES)
        lanes = (pairs + (pairs >> 8)) & _LANES
        lanes += (lanes >> _ACE_SHIFT) & 0xFF | (lanes & 0xFF) << _ACE_SHIFT
        near = (above & below) | (above & above2) | (below & below2)
        near |= (near & _POS14) >> _ACE_SHIFT | (near & _POS1) << _ACE_SHIFT
        of_rank = (lanes + 125 * _LANE_ONES) & _LANE_TOP
        alone = present & ~(near | (of_rank >> 7) * 0x1111)
        if not alone:
            return 0
        if jokers:  # of those, the ones that not even one joker helps
            near = above | below | above2 | below2
            near |= (near & _POS14) >> _ACE_SHIFT | (near & _POS1) << _ACE_SHIFT
            of_rank = (lanes + 126 * _LANE_ONES) & _LANE_TOP
            hopeless = alone & ~(near | (of_rank >> 7) * 0x1111)
        else:
            hopeless = alone
        total = 0
        # With `jokers` jokers at most `jokers` of the hopeless cards (two jokers each, at most
        # two in a piece) and at most four cards a joker of the others can be saved: all but
        # the most costly of them stay.
        for group, spare in (
            (hopeless, jokers if jokers >= 2 else 0),
            (alone & ~hopeless, 4 * jokers),
        ):
            if not group:
                continue
            masked = state & group * _NIBBLE
            pairs = (masked & _LOW_NIBBLES) + ((masked >> _BITS) & _LOW_NIBBLES)
            lanes = (pairs + (pairs >> 8)) & _LANES
            total += ((lanes * weights) >> 208 & 0xFFFF) * SCALE + ((lanes * ones) >> 208 & 0xFFFF)
            if spare:
                for shift, worth in shifts:
                    count = (lanes >> shift) & 0xFF
                    if count:
                        if count >= spare:
                            total -= spare * worth
                            break
                        total -= count * worth
                        spare -= count
        return total

    return bound


Search = Callable[[int, int, int, int], int]
"""value(packed naturals, jokers, room, limit): the least cost, exact when below `limit`."""
Walk = Callable[[int, int], tuple[list[Piece], list[int], int, int]]
"""path(packed naturals, jokers): the pieces, the deadwood places, the jokers left, their room."""


@dataclass(frozen=True)
class _Solver:
    """The search for one card-value table and joker rule, how to follow one of its optimal
    paths, and how to forget what it remembers."""

    search: Search
    walk: Walk
    forget: Callable[[], None]


@lru_cache(maxsize=1 << 12)
def _set_takes(block: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The other naturals of one rank, packed from the lowest card's suit on (`block`): how many
    there are, and every way to take 2 to 4 of them (packed, how many), biggest first."""
    held = []
    while block:
        held.append(block & _NIBBLE)
        block >>= _BITS
    takes = []
    for take in product(*(range(n + 1) for n in held)):
        if 2 <= sum(take) <= 4:
            takes.append((sum(t << (_BITS * i) for i, t in enumerate(take)), sum(take)))
    takes.sort(key=lambda item: -item[1])
    return sum(held), tuple(takes)


_SET, _RUN, _DEAD = 0, 1, 2
"""What a step of the free search does with the lowest card (an ace kept for later is _DEAD)."""


def _free_solver(values: tuple[int, ...]) -> _Solver:
    """The search for at most `FREE_JOKERS` jokers: the least cost of the *naturals* left,
    jokers being free once a piece is laid (`_least_cost` handles a hand with no piece at all).

    A branch and bound: `best(state, jokers, limit, total)` (`total`: the cost of all of
    `state`) is exact when below `limit`, otherwise some lower bound at least `limit`. Results,
    exact or bounds, are remembered per (cards, jokers) in a table shared by every hand with the
    same card values, with the step that reaches each exact one. Only the pieces the shortcuts
    of the module docstring allow are tried, fullest first, and the card left in hand last.
    """
    points = [values[4 * p] // SCALE for p in range(14)]
    bound = _lower_bound(points)
    table: dict[int, int] = {}
    steps: dict[int, tuple[int, int, int]] = {}
    info = []
    for slot in range(56):
        position, suit = slot // 4 + 1, slot % 4
        unit = 1 << (_BITS * slot)
        runs = tuple(
            (_BITS * _slot(q, suit), 1 << (_BITS * _slot(q, suit)), values[_slot(q, suit)])
            for q in range(position + 1, min(MAX_RUN, position + 4) + 1)
        )
        same = _BITS * slot if position < _HIGH_ACE else -1
        suits = (1 << (_BITS * (4 - suit))) - 1
        if position == 1:  # an ace not used low waits at position 14: for a high run, or dead
            dead = (0, unit - _unit(_HIGH_ACE, suit), 0)
        else:
            dead = (values[slot], unit, values[slot])
        info.append((unit, values[slot], runs, same, suits, dead))
    slots = tuple(info)

    def best(state: int, jokers: int, limit: int, total: int) -> int:
        if not state:
            return 0
        key = state << 4 | jokers
        entry = table.get(key)
        if entry is not None and (entry & 1 or entry >> 1 >= limit):
            return entry >> 1
        if limit <= 0:
            return 0
        if total < limit:
            limit = _INF  # leaving every card costs less than the limit: the answer is exact
        elif jokers <= 1 and limit < _INF:
            low = bound(state, jokers)
            if low >= limit:
                table[key] = low << 1
                return low
        unit, cost, runs, same, suits, dead = slots[((state & -state).bit_length() - 1) >> 2]
        rest = state - unit
        result = _INF
        step = (0, 0, _DEAD)
        others = 0
        if same >= 0:  # a set: this card, others of its rank (no lower suit is left), jokers
            block = (rest >> same) & suits
            if block:
                others, takes = _set_takes(block)
                if others >= 2:
                    for take, count in takes:
                        taken = unit + (take << same)
                        ceiling = result if result < limit else limit
                        value = best(state - taken, jokers, ceiling, total - cost * (count + 1))
                        if value < result:
                            result, step = value, (taken, 0, _SET)
                            if not value:
                                break
                elif jokers:
                    taken = unit + (block << same)
                    ceiling = result if result < limit else limit
                    value = best(state - taken, jokers - 1, ceiling, total - 2 * cost)
                    if value < result:
                        result, step = value, (taken, 1, _SET)
        if result:  # a run of this card's suit, from it to a natural 1 to 4 places higher
            taken = unit
            removed = cost
            gaps = 0
            for i, (shift, place, worth) in enumerate(runs):
                if (state >> shift) & _NIBBLE:
                    taken += place
                    removed += worth
                    if i:
                        used = gaps
                    elif len(runs) > 1 and (state >> runs[1][0]) & _NIBBLE:
                        continue  # not c x JK while the next card is in hand: c x y instead
                    else:
                        used = 1
                    if used <= jokers:
                        ceiling = result if result < limit else limit
                        value = best(state - taken, jokers - used, ceiling, total - removed)
                        if value < result:
                            result, step = value, (taken, used, _RUN)
                            if not value:
                                break
                else:
                    gaps += 1
                    if gaps > jokers:
                        break
        if (
            result
            and jokers >= 2
            and not others
            and not any((state >> shift) & _NIBBLE for shift, _, _ in runs[:2])
        ):  # the card and two jokers, when no natural could stand in for a joker
            ceiling = result if result < limit else limit
            value = best(rest, jokers - 2, ceiling, total - cost)
            if value < result:
                result, step = value, (unit, 2, _SET)
        if result:  # the card stays in hand (an ace: it waits at position 14)
            paid, gone, worth = dead
            ceiling = result if result < limit else limit
            if paid < ceiling:
                value = paid + best(state - gone, jokers, ceiling - paid, total - worth)
                if value < result:
                    result, step = value, (gone, 0, _DEAD)
            elif paid < result:
                result = paid
        if result < limit:
            table[key] = result << 1 | 1
            steps[key] = step
        else:
            table[key] = result << 1
        return result

    def search(state: int, jokers: int, room: int, limit: int) -> int:
        if len(table) > CACHE_SIZE:
            forget()
        return best(state, jokers, limit, _packed_total(state, values))

    def walk(state: int, jokers: int) -> tuple[list[Piece], list[int], int, int]:
        search(state, jokers, 0, _INF)
        pieces: list[Piece] = []
        dead: list[int] = []
        while state:
            key = state << 4 | jokers
            if key not in steps:  # remembered only as a value: work out the step again
                table.pop(key, None)
                best(state, jokers, _INF, _packed_total(state, values))
            taken, used, kind = steps[key]
            if kind == _DEAD:
                slot = ((state & -state).bit_length() - 1) >> 2
                if slot >= 4:  # an ace at position 1 only moves to position 14
                    dead.append(slot)
            else:
                span = ((taken.bit_length() - 1) >> 4) - (((taken & -taken).bit_length() - 1) >> 4)
                gain = _ROOMY if kind == _SET else MAX_RUN - max(3, span + 1)
                pieces.append((taken, used, gain))
            state -= taken
            jokers -= used
        return pieces, dead, jokers, jokers if pieces else 0

    def forget() -> None:
        table.clear()
        steps.clear()

    return _Solver(search, walk, forget)


def _plain_solver(values: tuple[int, ...], all_joker_melds: bool) -> _Solver:
    """The search for more than `FREE_JOKERS` jokers: exact, memoised per (cards, jokers,
    room), runs may use a joker in place of a natural, and spare jokers beyond the room count."""
    slot_cost = values[:-1]
    joker_cost = values[-1]

    @lru_cache(maxsize=CACHE_SIZE)
    def best(state: int, jokers: int, room: int) -> int:
        """Least internal cost of the packed naturals `state` with `jokers` jokers, given `room`
        for spare jokers already left by pieces laid earlier (clipped to `jokers`)."""
        if not state:
            if all_joker_melds and jokers >= 3:
                return 0
            return (jokers - room) * joker_cost
        slot = ((state & -state).bit_length() - 1) // _BITS
        position, suit = slot // 4 + 1, slot % 4
        unit = 1 << (_BITS * slot)
        if position == 1:
            result = best(state - unit + _unit(_HIGH_ACE, suit), jokers, room)
        else:
            result = slot_cost[slot] + best(state - unit, jokers, room)
        for delta, used, gain in _pieces(state, position, suit, jokers):
            left = jokers - used
            result = min(result, best(state - delta, left, min(room + gain, left)))
        return result

    def search(state: int, jokers: int, room: int, limit: int) -> int:
        return best(state, jokers, room)

    def walk(state: int, jokers: int) -> tuple[list[Piece], list[int], int, int]:
        return _walk(search, values, state, jokers)

    return _Solver(search, walk, best.cache_clear)


# Mutable on purpose: a cache of built solvers, one per card-value table and joker rule, kept
# small (cleared at 16 entries); each process builds its own.
_SOLVERS: dict[tuple[tuple[int, ...], bool, bool], _Solver] = {}


def _solver_for(values: tuple[int, ...], all_joker_melds: bool, substitute: bool) -> _Solver:
    """The solver for one card-value table and joker rule, built once (see the module docstring)."""
    key = (values, all_joker_melds and substitute, substitute)
    solver = _SOLVERS.get(key)
    if solver is None:
        if len(_SOLVERS) >= 16:
            _SOLVERS.clear()
        solver = _plain_solver(values, all_joker_melds) if substitute else _free_solver(values)
        _SOLVERS[key] = solver
    return solver


@lru_cache(maxsize=1 << 12)
def _least_cost(state: int, jokers: int, values: tuple[int, ...], all_joker_melds: bool) -> int:
    """The least internal cost of a packed hand: a pure function of the cards and the rules."""
    substitute = jokers > FREE_JOKERS
    cost = _solver_for(values, all_joker_melds, substitute).search(state, jokers, 0, _INF)
    if substitute or cost < _packed_total(state, values):
        return cost
    # No piece at all: the jokers stay too (unless three or more make a meld of their own).
    return cost if all_joker_melds and jokers >= 3 else cost + jokers * values[-1]


def _packed_total(state: int, values: tuple[int, ...]) -> int:
    """The cost of leaving every card of a packed hand."""
    lanes = _lane_sums(state)
    return sum(((lanes >> (16 * p)) & 0xFF) * values[4 * p] for p in range(14))


def clear_cache() -> None:
    """Forget every remembered position (for cold timings, or to free memory). The tables that
    depend on the card values alone are kept."""
    for solver in _SOLVERS.values():
        solver.forget()
    _least_cost.cache_clear()


# -- building the answer ------------------------------------------------------------------------
def _walk(
    best: Search, values: tuple[int, ...], state: int, jokers: int
) -> tuple[list[Piece], list[int], int, int]:
    """Follow one optimal path of the plain search: the pieces, the packed places left as
    deadwood, the jokers left and their room."""
    pieces: list[Piece] = []
    dead: list[int] = []
    room = 0
    values_left = best(state, jokers, room, _INF)
    while state:
        slot = ((state & -state).bit_length() - 1) // _BITS
        position, suit = slot // 4 + 1, slot % 4
        unit = 1 << (_BITS * slot)
        for delta, used, gain in _pieces(state, position, suit, jokers):
            left = jokers - used
            next_room = min(room + gain, left)
            if best(state - delta, left, next_room, values_left + 1) == values_left:
                pieces.append((delta, used, gain))
                state, jokers, room = state - delta, left, next_room
                break
        else:
            if position == 1:
                state = state - unit + _unit(_HIGH_ACE, suit)
            else:
                dead.append(slot)
                state -= unit
                values_left -= values[slot]
    return pieces, dead, jokers, room


def _unpack(delta: int) -> list[tuple[int, int, int]]:
    """(position, suit, count) for every place `delta` holds."""
    out = []
    slot = 0
    while delta:
        count = delta & _NIBBLE
        if count:
            out.append((slot // 4 + 1, slot % 4, count))
        delta >>= _BITS
        slot += 1
    return out


def _card(position: int, suit: int) -> Card:
    return NATURALS[suit * 13 + position_rank(position) - 1]


def _piece_meld(delta: int, jokers: int, room: int) -> Meld:
    places = _unpack(delta)
    if room == _ROOMY:
        rank = position_rank(places[0][0])
        naturals = [_card(rank, s) for _, s, n in places for _ in range(n)]
        return Meld.set_of(rank, naturals + [JOKER] * jokers)
    suit = places[0][1]
    positions = [p for p, _, _ in places]
    low, high = positions[0], positions[-1]
    spare = jokers - (high - low + 1 - len(positions))
    above = min(spare, MAX_RUN - high)
    low -= spare - above
    high += above
    row = [_card(p, suit) if p in positions else JOKER for p in range(low, high + 1)]
    return Meld.run(SUITS[suit], low, row)


def _grow(meld: Meld, jokers: int) -> tuple[Meld, int]:
    """Put up to `jokers` spare jokers on `meld`; the meld and how many it took."""
    if meld.kind is Kind.SET:
        return Meld.set_of(meld.low, [*meld.cards, *[JOKER] * jokers]), jokers
    above = min(jokers, MAX_RUN - meld.high)
    below = min(jokers - above, meld.low - 1)
    row = [JOKER] * below + list(meld.cards) + [JOKER] * above
    return Meld.run(meld.suit, meld.low - below, row), above + below


def _merged(melds: list[Meld]) -> list[Meld]:
    """Sets of one rank become one set; runs of one suit that meet end to end become one run."""
    sets: dict[int, list[Card]] = {}
    runs: list[Meld] = []
    for meld in melds:
        if meld.kind is Kind.SET:
            sets.setdefault(meld.low, []).extend(meld.cards)
        else:
            runs.append(meld)
    out = [Meld.set_of(rank, cards) for rank, cards in sorted(sets.items())]
    runs.sort(key=lambda m: (SUITS.index(m.suit), m.low, m.high))
    joined: list[Meld] = []
    for run in runs:
        for i, other in enumerate(joined):
            if other.suit == run.suit and other.high + 1 == run.low:
                joined[i] = Meld.run(run.suit, other.low, [*other.cards, *run.cards])
                break
        else:
            joined.append(run)
    return out + joined


def least_deadwood(hand: HandLike, rules: Rules | None = None) -> DeadwoodResult:
    """The least count `hand` can be left with after laying down disjoint melds (rule `scoring`).

    `hand` is card text (`"5H 6H JK 9C"`), a list of `Card`, or a 53-entry count vector. Melds
    follow rules `run`, `set` and `joker` of `rules` (the default rule set when None); jokers left
    over count `rules.card_value(0)`. Returns the count, one collection of melds reaching it
    (runs that meet end to end and sets of one rank are shown merged) and the cards left.
    """
    rules = Rules.of(rules)
    counts = _counts_of(hand)
    jokers = counts[JOKER_INDEX]
    values = _values(rules)
    solver = _solver_for(values, rules.all_joker_melds, jokers > FREE_JOKERS)
    pieces, dead, spare, room = solver.walk(_pack(counts), jokers)
    melds = [_piece_meld(delta, used, gain) for delta, used, gain in pieces]
    if rules.all_joker_melds and spare >= 3 and room < spare:
        melds.append(Meld.set_of(1, [JOKER] * spare))
        spare = 0
    rooms = sorted(range(len(melds)), key=lambda i: melds[i].kind is not Kind.SET)
    for i in rooms:
        if not spare:
            break
        melds[i], took = _grow(melds[i], spare)
        spare -= took
    deadwood = [_card(slot // 4 + 1, slot % 4) for slot in dead]
    deadwood += [JOKER] * spare
    points = sum(rules.card_value(card.rank) for card in deadwood)
    return DeadwoodResult(points, tuple(_merged(melds)), tuple(sort_cards(deadwood)))


def least_deadwood_points(hand: HandLike, rules: Rules | None = None) -> int:
    """Just the count of `least_deadwood(hand, rules)`, without building the melds."""
    rules = Rules.of(rules)
    counts = _counts_of(hand)
    cost = _least_cost(_pack(counts), counts[JOKER_INDEX], _values(rules), rules.all_joker_melds)
    return cost // SCALE
