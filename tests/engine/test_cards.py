"""Card notation and the deck (RULES.md "Card notation", rule `deck`).

A card is rank then suit (ranks A 2-10 J Q K, also T; suits S H D C or the symbols), a joker is
`JK` or `🃏`, optionally noted `JK@7H` / `JK@9`. Case-insensitive, separated by spaces or commas.
A bad token is a `CardParseError` (a `ValueError`) that names it.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from penang_lib import JOKER, Card, CardParseError, full_deck, parse_cards
from penang_lib.engine.cards import from_counts, to_counts

SUITS = "SHDC"
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}


def rank_text(rank: int) -> str:
    return RANK_TEXT.get(rank, str(rank))


def texts(cards: list[Card]) -> list[str]:
    return [str(c) for c in cards]


# -- ranks and suits ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("AS", 1),
        ("2S", 2),
        ("3S", 3),
        ("4S", 4),
        ("5S", 5),
        ("6S", 6),
        ("7S", 7),
        ("8S", 8),
        ("9S", 9),
        ("10S", 10),
        ("TS", 10),
        ("JS", 11),
        ("QS", 12),
        ("KS", 13),
    ],
    ids=lambda x: str(x),
)
def test_every_rank_is_read(text: str, rank: int) -> None:
    (card,) = parse_cards(text)
    assert card.rank == rank
    assert card.suit == "S"
    assert not card.is_joker


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("7S", "S"),
        ("7H", "H"),
        ("7D", "D"),
        ("7C", "C"),
        ("7♠", "S"),
        ("7♥", "H"),
        ("7♦", "D"),
        ("7♣", "C"),
    ],
    ids=lambda x: str(x),
)
def test_every_suit_is_read_as_letter_or_symbol(text: str, suit: str) -> None:
    assert parse_cards(text) == [Card(7, suit)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("as 10h qd jk", ["AS", "10H", "QD", "JK"]),
        ("As 10H qD Jk", ["AS", "10H", "QD", "JK"]),
        ("th Th tH", ["10H", "10H", "10H"]),
        ("a♠ k♥", ["AS", "KH"]),
        ("jk@7h", ["JK@7H"]),
        ("jk@9", ["JK@9"]),
    ],
    ids=["lower", "mixed", "ten-as-t", "lower-with-symbol", "lower-joker-note", "lower-set-note"],
)
def test_notation_is_case_insensitive(text: str, expected: list[str]) -> None:
    assert texts(parse_cards(text)) == expected


@pytest.mark.parametrize(
    "text",
    [
        "AS 10H QD JK",
        "AS,10H,QD,JK",
        "AS, 10H, QD, JK",
        "  AS   10H\tQD\nJK  ",
        "AS ,10H ,, QD JK",
    ],
    ids=["spaces", "commas", "comma-space", "whitespace", "mixed"],
)
def test_cards_are_separated_by_spaces_or_commas(text: str) -> None:
    assert texts(parse_cards(text)) == ["AS", "10H", "QD", "JK"]


def test_empty_text_is_no_cards() -> None:
    assert parse_cards("") == []
    assert parse_cards("  , ") == []


# -- jokers and their notes --------------------------------------------------------------------
@pytest.mark.parametrize("text", ["JK", "jk", "🃏"], ids=["JK", "jk", "symbol"])
def test_plain_joker(text: str) -> None:
    (card,) = parse_cards(text)
    assert card.is_joker
    assert card == JOKER
    assert card.as_rank is None
    assert card.as_suit is None
    assert str(card) == "JK"


@pytest.mark.parametrize(
    ("text", "as_rank", "as_suit", "shown"),
    [
        ("JK@7H", 7, "H", "JK@7H"),
        ("JK@7♥", 7, "H", "JK@7H"),
        ("🃏@7♥", 7, "H", "JK@7H"),
        ("JK@9", 9, None, "JK@9"),
        ("JK@10S", 10, "S", "JK@10S"),
        ("JK@TS", 10, "S", "JK@10S"),
        ("JK@AH", 1, "H", "JK@AH"),
        ("JK@K", 13, None, "JK@K"),
    ],
    ids=lambda x: str(x),
)
def test_noted_joker(text: str, as_rank: int, as_suit: str | None, shown: str) -> None:
    (card,) = parse_cards(text)
    assert card.is_joker
    assert card.as_rank == as_rank
    assert card.as_suit == as_suit
    assert str(card) == shown
    assert card.plain == JOKER


# -- bad tokens --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("11H", "11H"),
        ("ZZ", "ZZ"),
        ("JK@", "JK@"),
        ("1H", "1H"),
        ("0H", "0H"),
        ("5X", "5X"),
        ("H5", "H5"),
        ("10", "10"),
        ("5HH", "5HH"),
        ("JK@7X", "JK@7X"),
        ("JK@1H", "JK@1H"),
        ("JK@14", "JK@14"),
        ("AS 11H QD", "11H"),
        ("AS, ZZ", "ZZ"),
    ],
    ids=lambda x: str(x),
)
def test_bad_token_raises_naming_it(text: str, bad: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards(text)
    assert bad in str(info.value)


def test_card_parse_error_is_a_value_error() -> None:
    assert issubclass(CardParseError, ValueError)
    with pytest.raises(ValueError, match="ZZ"):
        parse_cards("ZZ")


def test_bad_token_in_a_list_is_named() -> None:
    with pytest.raises(CardParseError, match="11H"):
        parse_cards(["AS", "11H"])


# -- other inputs and round trips --------------------------------------------------------------
def test_list_of_cards_and_strings() -> None:
    five = Card(5, "H")
    assert parse_cards([five]) == [five]
    assert texts(parse_cards(["AS", five, "6H 7H"])) == ["AS", "5H", "6H", "7H"]


def test_card_parse_reads_exactly_one_card() -> None:
    assert Card.parse("10h") == Card(10, "H")
    with pytest.raises(CardParseError):
        Card.parse("AS KS")


ALL_CARDS = [
    *[Card(rank, suit) for suit in SUITS for rank in range(1, 14)],
    JOKER,
    *[Card.joker(rank) for rank in range(1, 14)],
    *[Card.joker(rank, suit) for suit in SUITS for rank in range(1, 14)],
]


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_str_round_trips(card: Card) -> None:
    assert parse_cards(str(card)) == [card]
    assert parse_cards(str(card).lower()) == [card]


@settings(max_examples=150)
@given(
    st.lists(st.sampled_from(ALL_CARDS), max_size=12),
    st.sampled_from([" ", ",", ", ", " , "]),
)
def test_text_of_many_cards_round_trips(cards: list[Card], sep: str) -> None:
    assert parse_cards(sep.join(str(c) for c in cards)) == cards


@pytest.mark.parametrize(
    ("card", "symbol"),
    [
        (Card(10, "H"), "10♥"),
        (Card(1, "S"), "A♠"),
        (Card(12, "D"), "Q♦"),
        (Card(13, "C"), "K♣"),
        (Card(7, "S"), "7♠"),
        (JOKER, "🃏"),
    ],
    ids=lambda x: str(x),
)
def test_symbol(card: Card, symbol: str) -> None:
    assert card.symbol == symbol


@pytest.mark.parametrize("card", [c for c in ALL_CARDS if not c.is_joker], ids=str)
def test_symbol_is_read_back(card: Card) -> None:
    assert parse_cards(card.symbol) == [card]


def test_noted_joker_symbol_shows_the_joker_and_its_card() -> None:
    symbol = Card.joker(7, "H").symbol
    assert symbol.startswith("🃏")
    assert "7♥" in symbol


# -- the deck ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("packs", "jokers", "size"),
    [(2, 6, 110), (3, 6, 162), (2, 8, 112), (1, 0, 52)],
    ids=["default", "five-players", "eight-jokers", "one-pack"],
)
def test_deck_size(packs: int, jokers: int, size: int) -> None:
    deck = full_deck(packs, jokers)
    assert len(deck) == size
    assert sum(c.is_joker for c in deck) == jokers
    naturals = Counter(c for c in deck if not c.is_joker)
    assert len(naturals) == 52
    assert set(naturals.values()) == {packs}


def test_default_deck_is_two_packs_and_six_jokers() -> None:
    deck = full_deck()
    assert len(deck) == 110
    assert sum(c.is_joker for c in deck) == 6


def test_eight_joker_house_rule_deck() -> None:
    deck = full_deck(2, 8)
    assert sum(c.is_joker for c in deck) == 8
    assert len(deck) == 112


def test_counts_round_trip() -> None:
    cards = parse_cards("AS AS 10H KC JK JK@7H")
    counts = to_counts(cards)
    assert len(counts) == 53
    assert counts[-1] == 2
    assert sum(counts) == 6
    assert Counter(from_counts(counts)) == Counter(c.plain for c in cards)


# -- the cards in words (tables marked for the message catalog) ------------------------------
def test_ranks_in_words_singular_plural_and_with_their_article() -> None:
    from penang_lib.engine.cards import a_rank, rank_name

    assert [rank_name(r) for r in (1, 6, 8, 11, 14)] == ["ace", "six", "eight", "jack", "ace"]
    assert [rank_name(r, plural=True) for r in (1, 6, 7, 13)] == [
        "aces",
        "sixes",
        "sevens",
        "kings",
    ]
    assert [a_rank(r) for r in (1, 8, 9, 11, 14)] == [
        "an ace",
        "an eight",
        "a nine",
        "a jack",
        "an ace",
    ]
    for rank in range(1, 14):  # the tables agree with the words they replace
        name = rank_name(rank)
        assert rank_name(rank, plural=True) == name + ("es" if name.endswith("x") else "s")
        assert a_rank(rank) == f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def test_cards_in_words_for_screen_readers() -> None:
    assert Card.parse("10H").name == "ten of hearts"
    assert Card.parse("JK").name == "joker"
    assert Card.parse("JK@7H").name == "joker standing for the seven of hearts"
    assert Card.parse("JK@8").name == "joker standing for an eight"


def test_alternatives_and_lists_in_words() -> None:
    from penang_lib.engine.cards import and_words, or_words

    assert or_words([]) == ""
    assert or_words(["7♥"]) == "7♥"
    assert or_words(["7♥", "8♥", "9♥"]) == "7♥ or 8♥ or 9♥"
    assert and_words(["7♥", "9♥"]) == "7♥ and 9♥"
