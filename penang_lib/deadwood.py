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
spare jokers, so as soon as one piece is laid every joker is used, and only naturals can be
left. Then three shortcuts lose nothing. (1) A piece never holds a joker that is not needed: a
joker at the end of a run of 4 or 5, or a fourth joker-bearing card of a set, can be spare
instead. (2) A piece never uses a joker where a natural it could use is still in the hand: put
the natural in its place; the joker becomes spare, and if the natural was in another piece that
piece takes the joker instead (or, left without a natural, breaks up into spare jokers). The
count never rises, jokers in earlier pieces never increase, so repeating this ends. (3) Pieces
with the same cards are the same piece, whatever the jokers stand for.

*Many jokers (10 or more, a made-up hand).* Shortcut (2) may then lose (jokers could be left
over that a natural would have made room for), so runs may use a joker in place of a natural,
and the search keeps count of the room the pieces leave.

The search
----------
A hand is one integer: 4 bits per card, ordered by run position (1 = low ace, ..., 13 = king,
14 = high ace) and then suit. The search takes the first card in that order, the lowest one
left. It is either deadwood (an ace: kept for a high run instead; at position 14 it may still be
deadwood), or the lowest card of some piece: a set of its rank, or a run of its suit starting
at most two places lower (those places can only be jokers, every lower card being gone). Both
branches are tried, and each position of the hand is answered once: `functools.lru_cache` on a
pure function of (cards, jokers, room), built once per card-value table. Costs are counted as
`points * 1024 + cards`, so among equally low counts the one leaving fewer cards wins.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Final, TypeGuard, cast

from penang_lib.cards import JOKER, JOKER_INDEX, SUITS, Card, Counts, parse_cards, sort_cards
from penang_lib.melds import MAX_RUN, Kind, Meld, position_rank
from penang_lib.rules import Rules

__all__ = [
    "DeadwoodResult",
    "clear_cache",
    "least_deadwood",
    "least_deadwood_points",
]

_DEFAULT_RULES: Final = Rules()

SCALE: Final = 1024
"""Internal cost of a card left in hand: `value * SCALE + 1` (ties go to fewer cards)."""
FREE_JOKERS: Final = MAX_RUN - 5
"""Any one piece (at most 5 cards) has room for this many spare jokers."""
CACHE_SIZE: Final = 1 << 18
"""Positions remembered per card-value table (least recently used ones are dropped)."""

_BITS: Final = 4
_NIBBLE: Final = (1 << _BITS) - 1
_ROOMY: Final = 99
"""The room a set leaves for spare jokers: any number (clipped to the jokers in hand anyway)."""
_HIGH_ACE: Final = 14

Piece = tuple[int, int, int]
"""A piece as the search sees it: (the cards it takes, as a packed hand; jokers; room it leaves)."""
Search = Callable[[int, int, int], int]
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
        for card in parse_cards(cast(CardsLike, hand)):
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
def _pieces(state: int, position: int, suit: int, jokers: int, substitute: bool) -> list[Piece]:
    """Every piece whose lowest card is the card at (`position`, `suit`), the lowest in `state`.

    Without `substitute` only the pieces the shortcuts of the module docstring allow; with it,
    runs may also use a joker where a natural is in hand.
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
        # Naturals above the card that the run must (or, with `substitute`, may) take.
        inner = [p for p in range(position + 1, high + 1) if have[p]]
        fixed = me
        optional: list[int] = []
        for p in inner:
            if substitute and not (p == high and high - low >= 3):
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
@lru_cache(maxsize=16)
def _search_for(values: tuple[int, ...], all_joker_melds: bool, substitute: bool) -> Search:
    """The memoised search for one card-value table and joker rule (see the module docstring)."""
    slot_cost = values[:-1]
    joker_cost = values[-1]
    slot_shift = tuple(_BITS * slot for slot in range(len(slot_cost)))

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
        unit = 1 << slot_shift[slot]
        if position == 1:  # an ace not used low waits at position 14 (for a high run, or dead)
            result = best(state - unit + _unit(_HIGH_ACE, suit), jokers, room)
        else:
            result = slot_cost[slot] + best(state - unit, jokers, room)
        for delta, used, gain in _pieces(state, position, suit, jokers, substitute):
            left = jokers - used
            cost = best(state - delta, left, min(room + gain, left))
            if cost < result:
                result = cost
        return result

    return best


def _search(rules: Rules, jokers: int) -> Search:
    return _search_for(_values(rules), rules.all_joker_melds, jokers > FREE_JOKERS)


def clear_cache() -> None:
    """Forget every remembered position (for cold timings, or to free memory)."""
    _search_for.cache_clear()


# -- building the answer ------------------------------------------------------------------------
def _walk(
    best: Search, state: int, jokers: int, substitute: bool
) -> tuple[list[Piece], list[int], int, int]:
    """Follow one optimal path: the pieces, the packed places left as deadwood, jokers, room."""
    pieces: list[Piece] = []
    dead: list[int] = []
    room = 0
    values_left = best(state, jokers, room)
    while state:
        slot = ((state & -state).bit_length() - 1) // _BITS
        position, suit = slot // 4 + 1, slot % 4
        unit = 1 << (_BITS * slot)
        for delta, used, gain in _pieces(state, position, suit, jokers, substitute):
            left = jokers - used
            next_room = min(room + gain, left)
            cost = best(state - delta, left, next_room)
            if cost == values_left:
                pieces.append((delta, used, gain))
                state, jokers, room = state - delta, left, next_room
                break
        else:
            if position == 1:
                state = state - unit + _unit(_HIGH_ACE, suit)
            else:
                dead.append(slot)
                state -= unit
                values_left = best(state, jokers, room)
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


def _piece_meld(delta: int, jokers: int, room: int) -> Meld:
    places = _unpack(delta)
    if room == _ROOMY:
        rank = places[0][0]
        naturals = [Card(rank, SUITS[s]) for _, s, n in places for _ in range(n)]
        return Meld.set_of(rank, naturals + [JOKER] * jokers)
    suit = places[0][1]
    positions = [p for p, _, _ in places]
    low, high = positions[0], positions[-1]
    spare = jokers - (high - low + 1 - len(positions))
    above = min(spare, MAX_RUN - high)
    low -= spare - above
    high += above
    row = [
        Card(position_rank(p), SUITS[suit]) if p in positions else JOKER
        for p in range(low, high + 1)
    ]
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
    rules = rules or _DEFAULT_RULES
    counts = _counts_of(hand)
    jokers = counts[JOKER_INDEX]
    substitute = jokers > FREE_JOKERS
    best = _search(rules, jokers)
    pieces, dead, spare, room = _walk(best, _pack(counts), jokers, substitute)
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
    deadwood = [Card(position_rank(slot // 4 + 1), SUITS[slot % 4]) for slot in dead]
    deadwood += [JOKER] * spare
    points = sum(rules.card_value(card.rank) for card in deadwood)
    return DeadwoodResult(points, tuple(_merged(melds)), tuple(sort_cards(deadwood)))


def least_deadwood_points(hand: HandLike, rules: Rules | None = None) -> int:
    """Just the count of `least_deadwood(hand, rules)`, without building the melds."""
    rules = rules or _DEFAULT_RULES
    counts = _counts_of(hand)
    jokers = counts[JOKER_INDEX]
    return _search(rules, jokers)(_pack(counts), jokers, 0) // SCALE
