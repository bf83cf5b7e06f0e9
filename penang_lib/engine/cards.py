"""Cards, their text notation and the deck (rule ids `deck` and the card notation of RULES.md).

A card is a rank and a suit. Ranks run from 1 (ace) to 13 (king); a joker has rank 0 and no suit.
A joker lying on the table may carry a *note*: the card it stands for (`JK@7H` in a run) or just
the rank (`JK@9` in a set). Notes never change which physical card it is: `card.plain` drops them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import attrgetter
from typing import Final

from penang_lib.engine.validate import ArgumentTypeError, cut, require_whole, shown
from penang_lib.i18n import N_, _

SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES: Final = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
"""The suits in words, marked for the catalog (shown through `_()`, as `suit_name` does)."""
RED_SUITS: Final = frozenset("HD")
RANK_TEXT: Final = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_NAMES: Final = {
    1: N_("ace"),
    2: N_("two"),
    3: N_("three"),
    4: N_("four"),
    5: N_("five"),
    6: N_("six"),
    7: N_("seven"),
    8: N_("eight"),
    9: N_("nine"),
    10: N_("ten"),
    11: N_("jack"),
    12: N_("queen"),
    13: N_("king"),
}
"""The ranks in words, marked for the catalog (shown through `_()`, as `rank_name` does)."""
RANK_PLURALS: Final = {
    1: N_("aces"),
    2: N_("twos"),
    3: N_("threes"),
    4: N_("fours"),
    5: N_("fives"),
    6: N_("sixes"),
    7: N_("sevens"),
    8: N_("eights"),
    9: N_("nines"),
    10: N_("tens"),
    11: N_("jacks"),
    12: N_("queens"),
    13: N_("kings"),
}
"""The ranks in words, several of them: "a set of sevens"."""
A_RANKS: Final = {
    1: N_("an ace"),
    2: N_("a two"),
    3: N_("a three"),
    4: N_("a four"),
    5: N_("a five"),
    6: N_("a six"),
    7: N_("a seven"),
    8: N_("an eight"),
    9: N_("a nine"),
    10: N_("a ten"),
    11: N_("a jack"),
    12: N_("a queen"),
    13: N_("a king"),
}
"""The ranks in words with their article: "an eight"."""
JOKER_RANK: Final = 0
JOKER_INDEX: Final = 52
"""Index of the joker in a count vector: 0..51 are the naturals, 52 counts jokers."""
MAX_PACKS: Final = 8
"""The most 52-card packs a deck may hold (two is the rule book's; three for five players)."""
MAX_JOKERS: Final = 64
"""The most jokers a deck may hold (six is the rule book's, eight a common house rule)."""
MAX_COPIES: Final = 1000
"""The most copies of one card a count vector given from outside may hold."""


class CardParseError(ValueError):
    """Text that is not a card in the project's notation. `token` is the offending piece, `why`
    the sentence that says what is wrong, and `what` what the text should be ("a card" unless
    given), both already in the learner's language."""

    def __init__(self, token: str, why: str, what: str | None = None) -> None:
        self.token = token
        super().__init__(
            _("{token} is not {what}: {why}").format(
                token=repr(cut(token)), what=_("a card") if what is None else what, why=why
            )
        )


def _rank(rank: object) -> int:
    """A card rank from 1 (ace) to 14 (a high ace), or a `ValueError` / `ArgumentTypeError`."""
    if rank.__class__ is int and 1 <= rank <= 14:
        return rank
    return require_whole(rank, "a rank", 1, 14)


def rank_text(rank: int) -> str:
    """The rank as written in the notation: A, 2..10, J, Q, K (14, a high ace, is A too)."""
    rank = _rank(rank)
    if rank == 14:
        return "A"
    return RANK_TEXT.get(rank, str(rank))


def rank_name(rank: int, plural: bool = False) -> str:
    """The rank in words, for sentences: "seven", "sevens", "ace", "sixes"."""
    rank = _rank(rank)
    names = RANK_PLURALS if plural else RANK_NAMES
    return _(names[1 if rank == 14 else rank])


def a_rank(rank: int) -> str:
    """The rank in words with its article: "a nine", "an eight", "an ace"."""
    rank = _rank(rank)
    return _(A_RANKS[1 if rank == 14 else rank])


def suit_name(suit: str) -> str:
    """The suit (S H D C) in words, for sentences: "hearts"."""
    return _(SUIT_NAMES[suit])


def or_words(words: Sequence[str]) -> str:
    """Words joined as alternatives, as a sentence says them: "7♥", "7♥ or 8♥", "A or B or C"
    (each "or" through the catalog, never glued)."""
    text = words[0] if words else ""
    for word in words[1:]:
        text = _("{first} or {second}").format(first=text, second=word)
    return text


def and_words(words: Sequence[str]) -> str:
    """Words joined with "and": "7♥", "7♥ and 9♥", "A and B and C" (through the catalog)."""
    text = words[0] if words else ""
    for word in words[1:]:
        text = _("{first} and {second}").format(first=text, second=word)
    return text


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. `rank` 1-13 (0 for a joker), `suit` one of S H D C ("" for a joker).

    `as_rank` / `as_suit` are a joker's note: what it stands for on the table (None when not noted,
    `as_suit` None for a set note such as `JK@9`). A high ace in a note is rank 1, as on the card.
    """

    rank: int
    suit: str
    as_rank: int | None = None
    as_suit: str | None = None
    index: int = field(init=False, repr=False, compare=False, hash=False)
    """Position in a count vector: suit-major 0..51 for naturals, 52 for every joker."""
    order: tuple[int, int, int] = field(init=False, repr=False, compare=False, hash=False)
    """Display order: naturals by suit (S H D C) then rank, jokers last (see `sort_key`)."""
    _symbol: str = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if (
            self.rank.__class__ is not int
            or self.suit.__class__ is not str
            or (self.as_rank is not None and self.as_rank.__class__ is not int)
            or (self.as_suit is not None and self.as_suit.__class__ is not str)
        ):
            self._require_types()
        if self.rank == JOKER_RANK:
            object.__setattr__(self, "index", JOKER_INDEX)
            suit_order = SUITS.index(self.as_suit) if self.as_suit else -1
            object.__setattr__(self, "order", (4, self.as_rank or 0, suit_order))
            if self.suit:
                raise ValueError("a joker has no suit")
            if self.as_rank is not None and not 1 <= self.as_rank <= 13:
                raise ValueError(f"a joker's note needs a rank from A to K, not {self.as_rank}")
            if self.as_suit is not None and (
                len(self.as_suit) != 1 or self.as_suit not in SUITS or self.as_rank is None
            ):
                raise ValueError("a joker's note needs a rank and one of the suits S H D C")
        else:
            if not 1 <= self.rank <= 13:
                raise ValueError(f"rank {self.rank} is not between 1 (ace) and 13 (king)")
            if self.suit not in SUITS or len(self.suit) != 1:
                raise ValueError(f"suit {self.suit!r} is not one of S H D C")
            if self.as_rank is not None or self.as_suit is not None:
                raise ValueError("only a joker can stand for another card")
            object.__setattr__(self, "index", SUITS.index(self.suit) * 13 + self.rank - 1)
            object.__setattr__(self, "order", (SUITS.index(self.suit), self.rank, 0))
        object.__setattr__(self, "_symbol", self._symbol_text())

    def _require_types(self) -> None:
        if self.rank.__class__ is not int:
            raise ArgumentTypeError(
                f"a card's rank should be a whole number (1 ace to 13 king, 0 a joker), "
                f"not {shown(self.rank)}"
            )
        if not isinstance(self.suit, str):
            raise ArgumentTypeError(
                f"a card's suit should be one of S H D C, not {shown(self.suit)}"
            )
        if self.as_rank is not None and self.as_rank.__class__ is not int:
            raise ArgumentTypeError(
                f"a joker's note needs a whole rank from 1 to 13, not {shown(self.as_rank)}"
            )
        if self.as_suit is not None and not isinstance(self.as_suit, str):
            raise ArgumentTypeError(
                f"a joker's note needs a suit from S H D C, not {shown(self.as_suit)}"
            )

    # -- constructors -----------------------------------------------------------------------
    @staticmethod
    def joker(as_rank: int | None = None, as_suit: str | None = None) -> Card:
        """A joker, optionally noted with the card (or rank) it stands for."""
        return Card(JOKER_RANK, "", as_rank, as_suit)

    @staticmethod
    def parse(text: str) -> Card:
        """One card in the notation (`10H`, `th`, `A♠`, `JK`, `JK@7H`, `🃏`, `🃏=7♥`)."""
        if not isinstance(text, str):
            raise ArgumentTypeError(f"Card.parse takes card text such as 10H, not {shown(text)}")
        cards = parse_cards(text)
        if len(cards) != 1:
            raise CardParseError(text, _("expected exactly one card"))
        return cards[0]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card at `index` of a count vector (52 is the joker)."""
        index = require_whole(index, "a card index", 0, JOKER_INDEX)
        if index == JOKER_INDEX:
            return JOKER
        return NATURALS[index]

    # -- properties --------------------------------------------------------------------------
    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def plain(self) -> Card:
        """The physical card: a joker without its note."""
        return JOKER if self.is_joker else self

    def sort_key(self) -> tuple[int, int, int]:
        """Jokers last; naturals by suit (S H D C) then rank."""
        return self.order

    # -- text --------------------------------------------------------------------------------
    def __str__(self) -> str:
        """The notation: `10H`, `AS`, `JK`, `JK@7H`, `JK@9`."""
        if self.is_joker:
            if self.as_rank is None:
                return "JK"
            return f"JK@{rank_text(self.as_rank)}{self.as_suit or ''}"
        return f"{rank_text(self.rank)}{self.suit}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def symbol(self) -> str:
        """The card with suit symbols: `10♥`, `A♠`, `🃏`, `🃏=7♥`."""
        return self._symbol

    def _symbol_text(self) -> str:
        if self.is_joker:
            if self.as_rank is None:
                return "🃏"
            suit = SUIT_SYMBOLS[self.as_suit] if self.as_suit else ""
            return f"🃏={rank_text(self.as_rank)}{suit}"
        return f"{rank_text(self.rank)}{SUIT_SYMBOLS[self.suit]}"

    @property
    def name(self) -> str:
        """The card in words, for screen readers: "ten of hearts", "joker standing for 7♥"."""
        if self.is_joker:
            if self.as_rank is None:
                return _("joker")
            if self.as_suit is None:
                return _("joker standing for {rank}").format(rank=a_rank(self.as_rank))
            return _("joker standing for the {rank} of {suit}").format(
                rank=rank_name(self.as_rank), suit=suit_name(self.as_suit)
            )
        return _("{rank} of {suit}").format(rank=rank_name(self.rank), suit=suit_name(self.suit))

    def _repr_html_(self) -> str:
        return card_html(self)


JOKER: Final = Card.joker()
BY_ORDER: Final = attrgetter("order")
"""The sort key of cards, the same as `Card.sort_key` but without a call into Python (for sorting
in the hot paths)."""


CARD_COLOURS: Final = {
    "S": "#1a1a1a",
    "H": "#c0392b",
    "D": "#c0392b",
    "C": "#1a1a1a",
    "": "#6c3483",
}
"""Ink per suit in the inline style (two-colour deck); a stylesheet may override the classes."""

_INLINE_STYLE: Final = (
    "display:inline-block;min-width:2.2em;padding:0.1em 0.3em;margin:0.1em;border:1px solid #999;"
    "border-radius:0.3em;background:#fff;font-weight:600;text-align:center"
)


def _ink_suit(card: Card) -> str:
    """The suit a card is coloured by: its own, or for a joker the one it stands for ("")."""
    return (card.as_suit or "") if card.is_joker else card.suit


def _a_card(card: object, name: str = "card") -> Card:
    if not isinstance(card, Card):
        raise ArgumentTypeError(f"{name} should be a Card, not {shown(card)}")
    return card


def _some_cards(cards: object, name: str = "cards") -> list[Card]:
    """`cards` as a list of `Card` values (text is refused: `parse_cards` reads text)."""
    if cards.__class__ is list or cards.__class__ is tuple:
        for card in cards:
            if card.__class__ is not Card and not isinstance(card, Card):
                break
        else:
            return list(cards)
    if isinstance(cards, str | bytes | Mapping) or not isinstance(cards, Iterable):
        raise ArgumentTypeError(
            f"{name} should be a list of Card values (parse_cards reads text), not {shown(cards)}"
        )
    out = list(cards)
    for card in out:
        if not isinstance(card, Card):
            raise ArgumentTypeError(f"{name} should hold only Card values, not {shown(card)}")
    return out


def card_classes(card: Card) -> str:
    """The CSS classes of a card: `penang-card`, its suit (`penang-suit-h`; `penang-joker` for a
    joker, with the suit it stands for when noted) and `penang-red` for hearts and diamonds."""
    _a_card(card)
    suit = _ink_suit(card)
    classes = ["penang-card"]
    if card.is_joker:
        classes.append("penang-joker")
    if suit:
        classes.append(f"penang-suit-{suit.lower()}")
    if suit in RED_SUITS:
        classes.append("penang-red")
    return " ".join(classes)


JOKER_MARK: Final = "🃏"
"""How a joker is written in text (`Card.symbol`); HTML draws `joker_svg` in its place."""


def joker_svg(fill: str = "currentColor") -> str:
    """Our own drawing of a joker, a jester's cap with three bells, as inline SVG one text line
    high, painted `fill` (by default the colour of the text around it). It is hidden from
    screen readers: the element that holds it carries the name. The kit draws it rather than
    the emoji 🃏, which a browser without an emoji font shows as a boxed star or an empty box.
    """
    if not isinstance(fill, str) or not re.fullmatch(r"#[0-9A-Fa-f]{3,8}|[A-Za-z]+", fill):
        raise ArgumentTypeError(f"fill should be a colour such as #6c3483, not {shown(fill)}")
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="1.15em" '
        'height="1.15em" aria-hidden="true" focusable="false" style="vertical-align:-0.2em">'
        f'<g fill="{fill}"><path d="M5.5 18C5.5 14.5 4.5 12 2 12.6C3 7.5 7.5 7 10 10.5C10.2 '
        "7.5 11 5.5 12 3.8C13 5.5 13.8 7.5 14 10.5C16.5 7 21 7.5 22 12.6C19.5 12 18.5 14.5 "
        '18.5 18Z"/><rect x="4.2" y="18.4" width="15.6" height="3.6" rx="1.2"/>'
        '<circle cx="2" cy="13.6" r="1.8"/><circle cx="12" cy="2.4" r="1.8"/>'
        '<circle cx="22" cy="13.6" r="1.8"/></g></svg>'
    )


_JOKER_SVG: Final = joker_svg()
JOKER_DRAWN: Final = "penang-joker-drawn"
"""The class of an empty span that a stylesheet paints with `joker_svg` (a page that has the
kit's stylesheet then carries the drawing once, not once per joker)."""
_JOKER_DRAWN: Final = f'<span class="{JOKER_DRAWN}" aria-hidden="true"></span>'


def symbols_html(text: str, inline: bool = True) -> str:
    """Text that may hold card symbols, escaped for HTML, with each 🃏 drawn as `joker_svg`
    inside a span named "joker" for screen readers (the rest of a noted joker, `=7♥`, stays
    text). Without `inline` the drawing is left to a stylesheet (`JOKER_DRAWN`)."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"text should be text, not {shown(text)}")
    escaped = html.escape(text.replace("\ufe0f", ""))
    if JOKER_MARK not in escaped:
        return escaped
    drawing = _JOKER_SVG if inline else _JOKER_DRAWN
    joker = html.escape(_("joker"), quote=True)
    mark = f'<span class="penang-joker-mark" role="img" aria-label="{joker}">{drawing}</span>'
    return escaped.replace(JOKER_MARK, mark)


def card_html(card: Card, inline: bool = True, extra: str = "") -> str:
    """One card as an HTML span: rank and suit symbol, red for hearts and diamonds, named for
    screen readers; a joker is our own drawing (`joker_svg`), followed by what it stands for
    when noted (`=7♥`). With `inline` the look is in a style attribute (a bare notebook has no
    stylesheet); without it only classes are written and a stylesheet styles them (and draws
    the joker, `JOKER_DRAWN`). `extra` adds classes (a widget marks a card that just moved)."""
    _a_card(card)
    if not isinstance(extra, str):
        raise ArgumentTypeError(f"extra should be text (CSS classes), not {shown(extra)}")
    classes = card_classes(card) + (f" {extra}" if extra else "")
    suit = _ink_suit(card)
    style = f' style="{_INLINE_STYLE};color:{CARD_COLOURS[suit]}"' if inline else ""
    name = html.escape(card.name)
    face = html.escape(card.symbol)
    if card.is_joker:
        face = (_JOKER_SVG if inline else _JOKER_DRAWN) + face[len(JOKER_MARK) :]
    return (
        f'<span class="{classes}" role="img" aria-label="{name}" title="{name}"{style}>'
        f"{face}</span>"
    )


def cards_html(cards: Iterable[Card], label: str | None = None, inline: bool = True) -> str:
    """A row of cards as HTML, with an accessible label ("cards" unless given)."""
    if label is None:
        label = _("cards")
    if not isinstance(label, str):
        raise ArgumentTypeError(f"label should be text, not {shown(label)}")
    inner = "".join(card_html(c, inline) for c in _some_cards(cards))
    return (
        f'<span class="penang-cards" role="group" aria-label="{html.escape(label)}">{inner}</span>'
    )


# -- parsing ---------------------------------------------------------------------------------
_SYMBOL_TO_SUIT: Final = {
    **{"♠": "S", "♥": "H", "♦": "D", "♣": "C"},
    **{"♤": "S", "♡": "H", "♢": "D", "♧": "C"},
}
_RANK_WORDS: Final = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10, "1": 1}
_NATURAL: Final = re.compile(r"^(10|[2-9]|[AJQKT])([SHDC])$")
_NOTE: Final = re.compile(r"^(10|[2-9]|[AJQKT])([SHDC]?)$")


def _normalise(token: str) -> str:
    out = token.strip().upper().replace("\ufe0f", "")
    for symbol, letter in _SYMBOL_TO_SUIT.items():
        out = out.replace(symbol, letter)
    return out.replace("🃏", "JK")


def _rank_of(text: str) -> int:
    return _RANK_WORDS[text] if text in _RANK_WORDS else int(text)


def _parse_token(token: str) -> Card:
    text = _normalise(token)
    if text == "JK":
        return JOKER
    if text.startswith("JK="):
        # `Card.symbol` shows a noted joker as 🃏=7♥ (🃏=9 in a set): read that form back.
        if not token.strip().replace("\ufe0f", "").startswith("🃏"):
            raise CardParseError(
                token, _("a noted joker is written JK@7H (the engine shows it as 🃏=7♥)")
            )
        text = "JK@" + text[3:]
    if text.startswith("JK@"):
        note = _NOTE.match(text[3:])
        if note is None:
            raise CardParseError(
                token, _("after JK@ write the card the joker stands for, e.g. JK@7H")
            )
        return noted_joker(_rank_of(note.group(1)), note.group(2) or None)
    match = _NATURAL.match(text)
    if match is None:
        raise CardParseError(
            token,
            _("write a rank (A 2-10 J Q K) then a suit (S H D C), e.g. 10H, or JK for a joker"),
        )
    return NATURALS[SUITS.index(match.group(2)) * 13 + _rank_of(match.group(1)) - 1]


def parse_cards(text: str | Card | Iterable[Card | str]) -> list[Card]:
    """Cards from text (`"AS 10H, QD JK"`) or from a list of `Card`s and card strings.

    What the engine shows reads back: the symbols (`10♥ A♠ 🃏`) and a noted joker as `Card.symbol`
    prints it (`🃏=7♥` in a run, `🃏=9` in a set), so `parse_cards(card.symbol) == [card]`.

    Raises `CardParseError` (a `ValueError`) naming the first token that is not a card, and
    `ArgumentTypeError` (a `TypeError`) for something that is neither text nor cards.
    """
    return read_cards(text, "parse_cards")


def read_cards(value: object, name: str) -> list[Card]:
    """`parse_cards` for an argument called `name` (a wrong type names it)."""
    if isinstance(value, Card):
        return [value]
    if isinstance(value, str):
        return [_parse_token(t) for t in re.split(r"[\s,]+", value.strip()) if t]
    if value.__class__ is not list and (
        isinstance(value, bytes | bytearray | Mapping) or not isinstance(value, Iterable)
    ):
        raise ArgumentTypeError(
            f"{name} takes card text such as '5H 6H JK', a Card or a list of them, "
            f"not {shown(value)}"
        )
    cards: list[Card] = []
    for item in value:
        if isinstance(item, Card):
            cards.append(item)
        elif isinstance(item, str):
            cards.extend(read_cards(item, name))
        else:
            raise ArgumentTypeError(
                f"{name} takes card text or Card values, and {shown(item)} is neither"
            )
    return cards


def cards_text(cards: Iterable[Card]) -> str:
    """Cards in the notation, space separated (the inverse of `parse_cards`)."""
    return " ".join(str(c) for c in _some_cards(cards))


def cards_symbols(cards: Iterable[Card]) -> str:
    """Cards with suit symbols, space separated: `5♥ 6♥ 🃏`."""
    if isinstance(cards, tuple | list):
        try:  # the engine's own cards: no need to look at each one first
            return " ".join([c.symbol for c in cards])
        except AttributeError:
            pass
    return " ".join(c.symbol for c in _some_cards(cards))


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in display order: by suit (S H D C), then rank, jokers last."""
    return sorted(_some_cards(cards), key=BY_ORDER)


# -- count vectors ---------------------------------------------------------------------------
Counts = tuple[int, ...]
"""A hand as 53 counts: one per natural card (suit-major) and the joker count last."""


def to_counts(cards: Iterable[Card]) -> Counts:
    """The count vector of some cards (joker notes are dropped)."""
    counts = [0] * 53
    for card in _some_cards(cards):
        counts[card.index] += 1
    return tuple(counts)


def require_counts(counts: object, name: str = "counts") -> Counts:
    """`counts` as a count vector: 53 whole numbers from 0 (52 naturals, then the jokers)."""
    if isinstance(counts, str | bytes) or not isinstance(counts, Sequence):
        raise ArgumentTypeError(
            f"{name} should be a count vector (53 whole numbers), not {shown(counts)}"
        )
    if len(counts) != JOKER_INDEX + 1:
        raise ValueError(f"{name} should hold 53 counts (52 cards, then jokers), not {len(counts)}")
    return tuple(require_whole(n, f"a count in {name}", 0, MAX_COPIES) for n in counts)


def from_counts(counts: Sequence[int]) -> list[Card]:
    """The cards of a count vector, in display order."""
    return cards_of(require_counts(counts))


def cards_of(counts: Counts) -> list[Card]:
    """`from_counts` on a vector the engine made (not checked)."""
    if max(counts) <= 1:
        return list(compress(_BY_INDEX, counts))
    out: list[Card] = []
    for index in compress(_INDICES, counts):
        out.extend([_BY_INDEX[index]] * counts[index])
    return out


def full_deck(packs: int = 2, jokers: int = 6) -> list[Card]:
    """`packs` standard 52-card packs plus `jokers` jokers, in pack order (rule `deck`)."""
    packs = require_whole(packs, "packs", 1, MAX_PACKS)
    jokers = require_whole(jokers, "jokers", 0, MAX_JOKERS)
    deck = [NATURALS[i] for _pack in range(packs) for i in range(52)]
    return deck + [JOKER] * jokers


NATURALS: Final[tuple[Card, ...]] = tuple(Card(i % 13 + 1, SUITS[i // 13]) for i in range(52))
"""The 52 natural cards by count-vector index (shared instances, for speed)."""
_NOTED: Final[dict[tuple[int, str | None], Card]] = {
    (rank, suit): Card.joker(rank, suit) for rank in range(1, 14) for suit in (*SUITS, None)
}


_BY_INDEX: Final[tuple[Card, ...]] = (*NATURALS, JOKER)
_INDICES: Final = range(JOKER_INDEX + 1)


def noted_joker(rank: int, suit: str | None = None) -> Card:
    """A joker noted as standing for `rank` (of `suit`, for a run), as a shared instance."""
    try:
        return _NOTED[(rank, suit)]
    except (KeyError, TypeError):
        raise ValueError(
            f"a joker can stand for a rank from 1 to 13 of suit S, H, D, C (or None in a set), "
            f"not {shown(rank)} of {shown(suit)}"
        ) from None
