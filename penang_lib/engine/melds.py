"""Melds: runs and sets, jokers with fixed identities, and every reading of a group of cards.

Rules `meld`, `run`, `set`, `joker` and the table-side half of `lay-off` and `swap`. A run is
described by its suit and the *positions* it covers, 1 (low ace) to 14 (high ace); a set by its
rank. Every joker in a `Meld` carries the card it stands for as its note.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from mypy_extensions import mypyc_attr

from penang_lib.engine.cards import (
    BY_ORDER,
    JOKER,
    JOKER_INDEX,
    NATURALS,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    a_rank,
    and_words,
    cards_html,
    cards_symbols,
    cards_text,
    noted_joker,
    rank_name,
    rank_text,
    suit_name,
)
from penang_lib.i18n import N_, _, ngettext

MAX_RUN = 14
"""The longest run: A 2 3 ... K A."""


class Kind(str, Enum):
    """What a meld is."""

    RUN = "run"
    SET = "set"

    def __str__(self) -> str:
        return self.value


# The members as module names, for the hot paths: looking a member up on its enum class goes
# through the enum's metaclass and costs many times what reading a global does.
RUN: Final = Kind.RUN
SET: Final = Kind.SET


def position_rank(position: int) -> int:
    """The card rank at a run position (position 14 is the high ace, rank 1)."""
    return 1 if position == 14 else position


def positions_of(rank: int) -> tuple[int, ...]:
    """Run positions a card of this rank may take: an ace is low (1) or high (14)."""
    return (1, 14) if rank == 1 else (rank,)


def position_card(suit: str, position: int) -> Card:
    """The natural card at `position` of a run in `suit`."""
    return NATURALS[SUITS.index(suit) * 13 + position_rank(position) - 1]


# A plain Python class even when this module is compiled (see penang_lib.engine.compiled): melds are
# public values that must pickle and copy as every frozen dataclass does.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Meld:
    """A run or a set on the table.

    For a run, `cards` are in order from position `low` upwards and `suit` is its suit; for a set,
    `low` is the set's rank and `suit` is "". Jokers always carry their note (`JK@7H`, `JK@9`).
    Build melds with `Meld.run`, `Meld.set_of` or `read_meld`, which check them.
    """

    kind: Kind
    cards: tuple[Card, ...]
    low: int
    suit: str = ""

    # -- constructors -----------------------------------------------------------------------
    @staticmethod
    def run(suit: str, low: int, cards: Sequence[Card]) -> Meld:
        """A run in `suit` whose first card sits at `low`; plain jokers get their notes here."""
        placed: list[Card] = []
        for offset, card in enumerate(cards):
            position = low + offset
            want = position_card(suit, position)
            if card.is_joker:
                placed.append(noted_joker(want.rank, suit))
            elif card != want:
                raise ValueError(f"{card.symbol} cannot stand at the place of {want.symbol}")
            else:
                placed.append(card)
        if len(placed) < 3 or low < 1 or low + len(placed) - 1 > MAX_RUN:
            raise ValueError("a run has 3 to 14 cards between the low and the high ace")
        return Meld(RUN, tuple(placed), low, suit)

    @staticmethod
    def set_of(rank: int, cards: Sequence[Card]) -> Meld:
        """A set of `rank`: naturals (sorted by suit) then jokers noted with the rank."""
        naturals = sorted((c for c in cards if c.rank), key=BY_ORDER)
        if any(c.rank != rank for c in naturals):
            raise ValueError(f"a set of {rank_name(rank, plural=True)} takes only that rank")
        jokers = [noted_joker(rank) for c in cards if c.is_joker]
        if len(naturals) + len(jokers) < 3:
            raise ValueError("a set needs at least three cards")
        return Meld(SET, (*naturals, *jokers), rank)

    # -- reading -----------------------------------------------------------------------------
    @property
    def rank(self) -> int:
        """The rank of a set (for a run: its lowest position)."""
        return self.low

    @property
    def high(self) -> int:
        """A run's highest position (14 = high ace); a set's rank."""
        return self.low + len(self.cards) - 1 if self.kind is RUN else self.low

    @property
    def jokers(self) -> int:
        """How many jokers the meld holds (a joker is the only card of rank 0)."""
        count = 0
        for card in self.cards:
            if not card.rank:
                count += 1
        return count

    @property
    def naturals(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if not c.is_joker)

    @property
    def physical(self) -> list[Card]:
        """The cards as they lie, without joker notes."""
        return [c.plain for c in self.cards]

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return cards_text(self.cards)

    @property
    def symbols(self) -> str:
        return cards_symbols(self.cards)

    @property
    def description(self) -> str:
        """In words: "a run of hearts from 5♥ to 8♥", "a set of sevens"."""
        if self.kind is SET:
            return _("a set of {ranks}").format(ranks=rank_name(self.low, plural=True))
        first = position_card(self.suit, self.low).symbol
        last = position_card(self.suit, self.high).symbol
        return _("a run of {suit} from {first} to {last}").format(
            suit=suit_name(self.suit), first=first, last=last
        )

    def _repr_html_(self) -> str:
        return cards_html(self.cards, label=f"{self.description}: {self.symbols}")

    # -- lay-off and swap on this meld ----------------------------------------------------------
    def lay_off_results(self, card: Card) -> list[Meld]:
        """Every meld this one becomes when `card` is laid off on it (empty: it does not fit).

        A natural fits a run only at either end, never past an ace; a plain joker may fit at
        either end (two results); a noted joker only where its note says.
        """
        if self.kind is SET:
            if card.is_joker:
                if card.as_rank is not None and card.as_rank != self.low:
                    return []
                return [Meld(SET, (*self.cards, noted_joker(self.low)), self.low)]
            if card.rank != self.low:
                return []
            # The naturals stay in suit order (as `set_of` sorts them), the jokers last.
            cards = self.cards
            at = 0
            while at < len(cards) and cards[at].rank and cards[at].index <= card.index:
                at += 1
            return [Meld(SET, (*cards[:at], card, *cards[at:]), self.low)]
        results: list[Meld] = []
        ends = []
        low = self.low
        high = low + len(self.cards) - 1
        if low > 1:
            ends.append((low - 1, True))
        if high < MAX_RUN:
            ends.append((high + 1, False))
        for position, below in ends:
            want = position_card(self.suit, position)
            if not card.rank:  # a joker
                if card.as_rank is not None and (
                    card.as_rank != want.rank or (card.as_suit not in (None, self.suit))
                ):
                    continue
                placed = noted_joker(want.rank, self.suit)
            elif card is want or card == want:  # the engine's naturals are shared instances
                placed = card
            else:
                continue
            if below:
                results.append(Meld(RUN, (placed, *self.cards), position, self.suit))
            else:
                results.append(Meld(RUN, (*self.cards, placed), self.low, self.suit))
        return results

    def swap_results(self, card: Card) -> list[Meld]:
        """Every meld this one becomes when natural `card` takes the place of one of its jokers."""
        if card.is_joker or self.jokers == 0:
            return []
        if self.kind is SET:
            if card.rank != self.low:
                return []
            rest = list(self.cards)
            rest.remove(noted_joker(self.low))
            return [Meld.set_of(self.low, [*rest, card])]
        results = []
        for offset, placed in enumerate(self.cards):
            if placed.rank:
                continue
            want = position_card(self.suit, self.low + offset)
            if want is card or want == card:  # the engine's naturals are shared instances
                cards = list(self.cards)
                cards[offset] = card
                results.append(Meld(RUN, tuple(cards), self.low, self.suit))
        return results


# -- reading a group of cards as melds ----------------------------------------------------------
def _note_positions(card: Card, suit: str) -> tuple[int, ...] | None:
    """Where a noted joker may sit in a run of `suit` (None: anywhere, it has no note)."""
    if card.as_rank is None:
        return None
    if card.as_suit is not None and card.as_suit != suit:
        return ()
    return positions_of(card.as_rank)


def run_readings(cards: Sequence[Card], allow_all_jokers: bool = False) -> list[Meld]:
    """Every way `cards` (three or more) can be laid as a run, lowest first."""
    naturals = [c for c in cards if not c.is_joker]
    jokers = [c for c in cards if c.is_joker]
    if naturals:
        suit = naturals[0].suit
        if any(c.suit != suit for c in naturals):
            return []
    else:
        noted = {c.as_suit for c in jokers}
        if not allow_all_jokers or len(noted) != 1 or None in noted:
            return []
        suit = str(noted.pop())
    n = len(cards)
    if n < 3 or n > MAX_RUN:
        return []
    fixed: list[tuple[Card, tuple[int, ...]]] = []
    for card in naturals:
        fixed.append((card, positions_of(card.rank)))
    plain = 0
    for card in jokers:
        where = _note_positions(card, suit)
        if where is None:
            plain += 1
        elif not where:
            return []  # noted as a card of another suit
        else:
            fixed.append((noted_joker(position_rank(where[0]), suit), where))
    # Most constrained first keeps the search small.
    fixed.sort(key=lambda item: len(item[1]))
    # A card with one possible place pins the window: it must start at or below that place and
    # reach up to it.
    single = [where[0] for _, where in fixed if len(where) == 1]
    lowest = max([1, *(p - n + 1 for p in single)])
    highest = min([MAX_RUN - n + 1, *single])
    found: dict[tuple[Card, ...], Meld] = {}
    for low in range(lowest, highest + 1):
        high = low + n - 1
        for placement in _place(fixed, low, high, {}):
            row: list[Card] = []
            for position in range(low, high + 1):
                row.append(placement.get(position, JOKER))
            meld = Meld.run(suit, low, row)
            found.setdefault(meld.cards, meld)
    return sorted(found.values(), key=lambda m: m.low)


def _place(
    items: list[tuple[Card, tuple[int, ...]]], low: int, high: int, taken: dict[int, Card]
) -> Iterator[dict[int, Card]]:
    if not items:
        yield dict(taken)
        return
    (card, where), rest = items[0], items[1:]
    for position in where:
        if low <= position <= high and position not in taken:
            taken[position] = card
            yield from _place(rest, low, high, taken)
            del taken[position]


def set_readings(cards: Sequence[Card], allow_all_jokers: bool = False) -> list[Meld]:
    """The reading of `cards` (three or more) as a set, if they are one (a list of 0 or 1)."""
    naturals = [c for c in cards if not c.is_joker]
    notes = {c.as_rank for c in cards if c.is_joker and c.as_rank is not None}
    ranks = {c.rank for c in naturals} | notes
    if len(cards) < 3 or len(ranks) != 1:
        return []
    if not naturals and (not allow_all_jokers or any(c.as_rank is None for c in cards)):
        return []
    return [Meld.set_of(ranks.pop(), cards)]


def is_search_reading(meld: object, allow_all_jokers: bool = False) -> bool:
    """Whether `meld` is exactly the reading `set_readings` / `run_readings` give first for its
    cards, checked card by card (cheaper than the search; `Deal.push` trusts the reading a
    `MeldMove.of_meld` carries only then): a set of one rank with
    its naturals in suit order and its jokers noted with the rank, or a run whose every card,
    natural or noted joker, is the card of its place. A 13-card run holding one ace reads both
    from the low and to the high ace, and a 14-card run can hold its joker at either ace: the
    search decides, as for any meld without a reading. Melds of jokers alone only where the
    rules allow them."""
    if not isinstance(meld, Meld) or meld.__class__ is not Meld:
        return False
    cards = meld.cards
    size = len(cards)
    low = meld.low
    if size < 3 or low.__class__ is not int:
        return False
    naturals = 0
    if meld.kind is SET:
        if meld.suit != "":
            return False
        last = -1
        for card in cards:
            if card.__class__ is not Card:
                return False
            if card.rank:
                order = card.index
                if card.rank != low or order < last or last == JOKER_INDEX:
                    return False
                last = order
                naturals += 1
            elif card.as_rank != low or card.as_suit is not None:
                return False
            else:
                last = JOKER_INDEX
    elif meld.kind is RUN:
        suit = meld.suit
        if suit not in SUITS or len(suit) != 1 or low < 1 or low + size - 1 > MAX_RUN:
            return False
        if size >= 13 and (low == 1 or low == 2):
            return False
        rank = low
        for card in cards:
            if card.__class__ is not Card:
                return False
            want = 1 if rank == MAX_RUN else rank
            if card.rank:
                if card.rank != want or card.suit != suit:
                    return False
                naturals += 1
            elif card.as_rank != want or card.as_suit != suit:
                return False
            rank += 1
    else:
        return False
    return naturals > 0 or allow_all_jokers


def run_problem(cards: Sequence[Card]) -> str:
    """Why cards whose naturals share one suit are not a run (one plain sentence)."""
    shown = cards_symbols(cards)
    naturals = [c for c in cards if not c.is_joker]
    if len(cards) > MAX_RUN:
        return ngettext(
            "{cards} has {count} card, and a run holds at most 14 (A 2 ... K A)",
            "{cards} has {count} cards, and a run holds at most 14 (A 2 ... K A)",
            len(cards),
        ).format(cards=shown, count=len(cards))
    counts = Counter(c.rank for c in naturals)
    for rank, count in sorted(counts.items()):
        if rank != 1 and count > 1:
            card = next(c for c in naturals if c.rank == rank)
            return ngettext(
                "{card} appears {count} time in {cards}: a run holds each rank once",
                "{card} appears {count} times in {cards}: a run holds each rank once",
                count,
            ).format(card=card.symbol, count=count, cards=shown)
    if counts[1] > 2:
        return ngettext(
            "{cards} has {count} ace: a run holds at most two (A at each end)",
            "{cards} has {count} aces: a run holds at most two (A at each end)",
            counts[1],
        ).format(cards=shown, count=counts[1])
    if counts[1] == 2:
        return _(
            "{cards} holds two aces, which fit only in a run from A all the way to K and A "
            "again (14 cards)"
        ).format(cards=shown)
    noted_suits = [c.as_suit for c in cards if c.is_joker and c.as_suit]
    suit = naturals[0].suit if naturals else (noted_suits[0] if noted_suits else "")
    for joker in (c for c in cards if c.is_joker and c.as_rank is not None):
        if joker.as_suit not in (None, suit):
            return _("{joker} stands for a card of {suit}, not of the suit of {cards}").format(
                joker=joker.symbol, suit=suit_name(str(joker.as_suit)), cards=shown
            )
        if joker.as_rank in counts:
            return _("{joker} claims the place of a card that is already in {cards}").format(
                joker=joker.symbol, cards=shown
            )
    ranks = sorted(set(counts) | {c.as_rank for c in cards if c.as_rank is not None})
    if not ranks:
        return _("{cards} does not say which cards its jokers stand for").format(cards=shown)
    gaps_low = ranks[-1] - ranks[0] + 1
    high_ace = sorted(14 if r == 1 else r for r in ranks)
    gaps_high = high_ace[-1] - high_ace[0] + 1
    span = min(gaps_low, gaps_high)
    # The shortest arc of the 13-rank circle covering every rank: shorter than the straight
    # span means the cards only fit by going round from K to A to 2.
    circle = min(
        13 - ((ranks[(i + 1) % len(ranks)] - ranks[i]) % 13) + 1 for i in range(len(ranks))
    )
    if circle <= len(cards) < span:
        return _("{cards} turns the corner: an ace ends a run, so K A 2 never follows on").format(
            cards=shown
        )
    if span > len(cards):
        if gaps_low <= gaps_high:
            row = range(ranks[0], ranks[-1] + 1)
        else:
            row = range(high_ace[0], high_ace[-1] + 1)
        holes = [_named(rank, suit) for rank in row if (1 if rank == 14 else rank) not in ranks]
        return _gap_problem(cards, shown, suit, holes)
    return _("{cards} cannot be placed in one row of its suit").format(cards=shown)


def _named(rank: int, suit: str) -> str:
    """A card of a run by its rank (14: the high ace) and suit: `7♥` (just `7` with no suit)."""
    return f"{rank_text(1 if rank == 14 else rank)}{SUIT_SYMBOLS.get(suit, '')}"


_GAPS: Final = {
    # (holes, jokers noted for a card, free jokers): each "many" is more than one.
    ("one", "none", "none"): N_("{shown} has a gap at {gap}, and no joker to fill it"),
    ("many", "none", "none"): N_("{shown} has gaps at {gaps}, and no joker to fill them"),
    ("one", "one", "none"): N_(
        "{shown} has a gap at {gap}: its joker stands for {noted}, so nothing fills {gap}"
    ),
    ("many", "one", "none"): N_(
        "{shown} has gaps at {gaps}: its joker stands for {noted}, so nothing fills them"
    ),
    ("one", "many", "none"): N_(
        "{shown} has a gap at {gap}: its jokers stand for {noted}, so nothing fills {gap}"
    ),
    ("many", "many", "none"): N_(
        "{shown} has gaps at {gaps}: its jokers stand for {noted}, so nothing fills them"
    ),
    ("many", "none", "one"): N_("{shown} has gaps at {gaps}, and only one joker to fill them"),
    ("many", "none", "many"): N_("{shown} has gaps at {gaps}, and only {free} jokers to fill them"),
    ("many", "one", "one"): N_(
        "{shown} has gaps at {gaps}, and only one joker is free to fill "
        "them: the other stands for {noted}"
    ),
    ("many", "many", "one"): N_(
        "{shown} has gaps at {gaps}, and only one joker is free to fill "
        "them: the others stand for {noted}"
    ),
    ("many", "one", "many"): N_(
        "{shown} has gaps at {gaps}, and only {free} jokers are free to "
        "fill them: the other stands for {noted}"
    ),
    ("many", "many", "many"): N_(
        "{shown} has gaps at {gaps}, and only {free} jokers are free to "
        "fill them: the others stand for {noted}"
    ),
}
"""Why a run with gaps is not a run, by how many cards are missing, how many of its jokers
are noted for a card (`🃏=8♥` stands for 8♥ and fills no other place) and how many are free."""


def _how_many(number: int) -> str:
    return "none" if number == 0 else "one" if number == 1 else "many"


def _gap_problem(cards: Sequence[Card], shown: str, suit: str, holes: list[str]) -> str:
    """Why a run with `holes` (the missing cards, `7♥`) between its cards is not a run: which
    cards are missing, and why its jokers do not fill them."""
    free = sum(1 for c in cards if c.is_joker and c.as_rank is None)
    noted = [_named(c.as_rank, c.as_suit or suit) for c in cards if c.is_joker and c.as_rank]
    key = (_how_many(len(holes)), _how_many(len(noted)), _how_many(free))
    return _(_GAPS[key]).format(
        shown=shown, gap=holes[0], gaps=" ".join(holes), noted=and_words(noted), free=free
    )


def set_problem(cards: Sequence[Card]) -> str:
    """Why cards whose naturals share one rank are not a set (one plain sentence)."""
    naturals = [c for c in cards if not c.is_joker]
    rank = naturals[0].rank if naturals else 0
    for joker in (c for c in cards if c.is_joker):
        if joker.as_rank is not None and joker.as_rank != rank:
            return _("{joker} stands for {rank}, but this is a set of {ranks}").format(
                joker=joker.symbol, rank=a_rank(joker.as_rank), ranks=rank_name(rank, plural=True)
            )
    return _("{cards} is not a set").format(cards=cards_symbols(cards))


def same_suit(cards: Sequence[Card]) -> bool:
    """Whether the naturals (or, with none, the declared jokers) all share one suit."""
    if any(not c.is_joker for c in cards):
        return len({c.suit for c in cards if not c.is_joker}) == 1
    return len({c.as_suit for c in cards}) == 1 and cards[0].as_suit is not None


def same_rank(cards: Sequence[Card]) -> bool:
    """Whether the naturals (or, with none, the declared jokers) all share one rank."""
    if any(not c.is_joker for c in cards):
        return len({c.rank for c in cards if not c.is_joker}) == 1
    return len({c.as_rank for c in cards}) == 1
