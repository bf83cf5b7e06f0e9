"""`can_play`: may this player act on their turn, or must they declare Dead?

Rules `passport`, `dead.passport`, `dead`, `turn`, `lay-off`, `swap`, `deck`. Without a passport
only a meld from the hand counts. With one, a lay-off counts too, and so does anything a swap (or a
chain of swaps) makes possible: the joker taken may be melded or laid off, even on its own meld.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from penang_lib import (
    JOKER,
    Card,
    Meld,
    Rules,
    Verdict,
    can_play,
    check_lay_off,
    check_meld,
    check_swap,
    parse_cards,
)
from tests.strategies import FULL_HEARTS_JOKER_LOW, FULL_SPADES_JOKER_LOW, meld, positions

FULL_CLUBS = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"


def assert_alive(v: Verdict, rule: str) -> None:
    assert v.ok, v.reason
    assert v
    assert v.rule == rule


def assert_dead(v: Verdict, rule: str) -> None:
    assert not v.ok
    assert not v
    assert v.rule == rule


# -- before the passport: only a meld from the hand ----------------------------------------------
@pytest.mark.parametrize(
    ("hand", "table", "rule", "kind"),
    [
        ("7H 7S 7C", [], "set", "set"),
        ("5C 6C 7C 2D", [], "run", "run"),
        ("QD KD AD", [], "run", "run"),
        ("5C 5D JK", [], "set", "set"),
        ("5C 6C JK", [], "run", "run"),
        ("7H 7S 7C", ["5H 6H JK@7H"], "set", "set"),
        ("AS 2S 3S", ["4S 5S 6S"], "run", "run"),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_without_passport_a_meld_is_a_passport(
    hand: str, table: list[str], rule: str, kind: str
) -> None:
    v = can_play(hand, table, passport=False)
    assert_alive(v, rule)
    assert v.kind == kind


@pytest.mark.parametrize(
    ("hand", "table"),
    [
        ("8H 2C", ["5H 6H 7H"]),
        ("JK 2C", ["5H 6H 7H"]),
        ("7S 2C", ["7H 7D 7C"]),
        ("7H 2C", ["5H 6H JK@7H"]),
        ("7H 9S 9C", ["5H 6H JK@7H"]),
        ("AS AH 5C", [FULL_SPADES_JOKER_LOW, FULL_HEARTS_JOKER_LOW]),
        ("5C 9D", []),
        ("", []),
        ("JK JK", []),
        ("JK JK JK", []),
        ("KH AH 2H", []),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_without_passport_nothing_else_counts(hand: str, table: list[str]) -> None:
    assert_dead(can_play(hand, table, passport=False), "dead.passport")


def test_all_joker_passport_with_the_house_rule() -> None:
    v = can_play("JK JK JK", [], passport=False, rules=Rules(all_joker_melds=True))
    assert v.ok


# -- after the passport ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "table"),
    [
        ("8H 2C", ["5H 6H 7H"]),
        ("4H 2C", ["5H 6H 7H"]),
        ("JH 2C", ["QH KH AH"]),
        ("7S 2C", ["7H 7D 7C"]),
        ("JK 2C", ["5H 6H 7H"]),
        ("JK", ["7H 7D 7C"]),
        ("JK", ["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"]),
        ("8H 2C", ["5H 6H JK@7H"]),
        ("AC", ["2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"]),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_lay_off_keeps_a_player_alive(hand: str, table: list[str]) -> None:
    assert_alive(can_play(hand, table, passport=True), "lay-off")


@pytest.mark.parametrize(
    ("hand", "table", "rule"),
    [
        ("7H 7S 7C", ["5H 6H 7H"], "set"),
        ("2D 3D 4D", [], "run"),
    ],
    ids=["set", "run"],
)
def test_meld_after_passport(hand: str, table: list[str], rule: str) -> None:
    assert_alive(can_play(hand, table, passport=True), rule)


def test_swap_then_meld() -> None:
    v = can_play("7H 9S 9C", ["5H 6H JK@7H"], passport=True)
    assert_alive(v, "swap")
    assert "swap" in v.reason.lower()


def test_swap_then_lay_off_the_joker_on_the_meld_it_came_from() -> None:
    assert_alive(can_play("7H 2C", ["5H 6H JK@7H"], passport=True), "swap")
    assert_alive(can_play("7H 2C", [meld("5H 6H JK@7H")], passport=True), "swap")


def test_swap_then_lay_off_the_joker_elsewhere() -> None:
    table = ["JK@AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "7H 7D 7C"]
    assert_alive(can_play("AS 2C", table, passport=True), "swap")


def test_swap_from_a_full_run_with_nowhere_to_put_the_joker_is_dead() -> None:
    assert_dead(can_play("AS 2C", [FULL_SPADES_JOKER_LOW], passport=True), "dead")


def test_chain_of_two_swaps() -> None:
    """Only full 14-card runs on the table, so a joker cannot go back; the hand has one natural
    to meld with and needs both jokers, so it must swap twice before it can act."""
    table = [FULL_SPADES_JOKER_LOW, FULL_HEARTS_JOKER_LOW, FULL_CLUBS]
    v = can_play("AS AH 5D", table, passport=True)
    assert_alive(v, "swap")
    # one swap is not enough: with only one of the two aces the player is dead
    assert_dead(can_play("AS 5D", table, passport=True), "dead")
    assert_dead(can_play("AH 5D", table, passport=True), "dead")
    assert_dead(can_play("AS AH 5D", table, passport=False), "dead.passport")


def test_chain_of_two_swaps_on_meld_objects() -> None:
    table = [meld(FULL_SPADES_JOKER_LOW), meld(FULL_HEARTS_JOKER_LOW)]
    assert_alive(can_play("AS AH 5D", table, passport=True), "swap")


@pytest.mark.parametrize(
    ("hand", "table"),
    [
        ("9D 2C", ["5H 6H 7H"]),
        ("5C 9D", []),
        ("", []),
        ("", ["5H 6H 7H"]),
        ("2H", ["QH KH AH"]),
        ("KH", ["AH 2H 3H"]),
        ("JK", [FULL_CLUBS]),
        ("AD", [FULL_CLUBS]),
        ("4H 2D", [FULL_CLUBS]),
        ("7S 2C", ["5H 6H JK@7H"]),
        ("AS 5C", [FULL_SPADES_JOKER_LOW, FULL_HEARTS_JOKER_LOW]),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_dead_when_nothing_works(hand: str, table: list[str]) -> None:
    assert_dead(can_play(hand, table, passport=True), "dead")


# -- the table as text or as Meld objects ------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "table", "passport"),
    [
        ("8H 2C", ["5H 6H 7H"], True),
        ("9D 2C", ["5H 6H 7H"], True),
        ("7H 9S 9C", ["5H 6H JK@7H"], True),
        ("7H 9S 9C", ["5H 6H JK@7H"], False),
        ("7H 2C", ["5H 6H JK@7H", "QD KD AD"], True),
        ("AS AH 5D", [FULL_SPADES_JOKER_LOW, FULL_HEARTS_JOKER_LOW], True),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_text_and_meld_objects_agree(hand: str, table: list[str], passport: bool) -> None:
    as_text = can_play(hand, table, passport)
    as_melds = can_play(hand, [meld(t) for t in table], passport)
    mixed = can_play(hand, [meld(t) if i % 2 else t for i, t in enumerate(table)], passport)
    assert as_text.ok == as_melds.ok == mixed.ok
    assert as_text.rule == as_melds.rule == mixed.rule


def test_table_meld_as_a_list_of_cards() -> None:
    assert_alive(can_play("8H 2C", [parse_cards("5H 6H 7H")], passport=True), "lay-off")
    assert_alive(can_play("8H 2C", [["5H", "6H", "7H"]], passport=True), "lay-off")


def test_hand_as_cards() -> None:
    assert_alive(can_play(parse_cards("8H 2C"), ["5H 6H 7H"], passport=True), "lay-off")
    assert_alive(can_play([Card(8, "H")], ["5H 6H 7H"], passport=True), "lay-off")


# -- plain jokers in text table melds ------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "table"),
    [
        ("8H 2C", ["5H 6H JK"]),
        ("3H 2C", ["5H 6H JK"]),
        ("4H 2C", ["5H 6H JK"]),
        ("7H 2C", ["5H 6H JK"]),
        ("6D 2C", ["JK JK 5D"]),
        ("8D 2C", ["JK JK 5D"]),
        ("5S 2C", ["JK JK 5D"]),
        ("10H 2C", ["QH KH JK"]),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_plain_joker_table_meld_counts_every_reading(hand: str, table: list[str]) -> None:
    assert can_play(hand, table, passport=True).ok


AMBIGUOUS = [
    "5H 6H JK",
    "JK JK 5D",
    "QH KH JK",
    "AH JK JK",
    "JK 2S 3S",
    "9S 9D JK",
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK",
]
NATURALS = [Card(rank, suit) for suit in "SHDC" for rank in range(1, 14)]


@settings(max_examples=200)
@given(st.sampled_from(AMBIGUOUS), st.sampled_from([*NATURALS, JOKER]))
def test_can_play_agrees_with_check_lay_off_on_text_melds(table: str, card: Card) -> None:
    assume(Counter(parse_cards(table))[card] < 2)
    lay_off = check_lay_off(table, card)
    alive = can_play([card], [table], passport=True)
    if lay_off.ok:
        assert alive.ok, (table, str(card))
    if not lay_off.ok and not check_swap(table, card).ok:
        assert not alive.ok, (table, str(card))


# -- illegal tables and impossible copies ------------------------------------------------------
@pytest.mark.parametrize(
    ("table", "rule"),
    [
        (["KH AH 2H"], "run"),
        (["5H 7H 9H"], "run"),
        (["5H 6H"], "meld"),
        (["5H 6D 7C"], "meld"),
        (["JK JK JK"], "joker"),
        (["8H 8H 8H"], "deck"),
        (["9H 9D JK@8"], "set"),
        (["5H 6H 7H", "KH AH 2H"], "run"),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
@pytest.mark.parametrize("passport", [True, False], ids=["passport", "no-passport"])
def test_illegal_table_meld_fails_with_its_rule(
    table: list[str], rule: str, passport: bool
) -> None:
    v = can_play("7S 7D 7C", table, passport)
    assert not v.ok
    assert v.rule == rule


@pytest.mark.parametrize(
    ("hand", "table"),
    [
        ("7S 7S 2C", ["5S 6S 7S"]),
        ("7S 2C", ["7S 7S 7H"]),
        ("7S 7S 7S", []),
        ("JK JK JK 2C", ["5H JK JK JK JK"]),
        ("JK JK JK JK JK JK JK", []),
        ("AS AS", [FULL_SPADES_JOKER_LOW.replace("JK@AS", "AS")]),
        ("2C", ["7S 7S 7H", "5S 6S 7S"]),
        ("JK JK 2C", ["5H JK JK JK", "9S JK JK 9C"]),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
@pytest.mark.parametrize("passport", [True, False], ids=["passport", "no-passport"])
def test_impossible_copies_are_rule_deck(hand: str, table: list[str], passport: bool) -> None:
    v = can_play(hand, table, passport)
    assert not v.ok
    assert v.rule == "deck"


def test_three_packs_allow_three_copies() -> None:
    v = can_play("7S 2C", ["7S 7S 7H"], passport=True, rules=Rules(packs=3))
    assert_alive(v, "lay-off")


# -- an independent oracle built from the single-move checks -----------------------------------
def _key(hand: Sequence[Card]) -> tuple[str, ...]:
    return tuple(sorted(str(c) for c in hand))


def oracle(hand: list[Card], table: list[Meld], passport: bool) -> bool:
    """Alive by the rule book, using only check_meld, check_lay_off, and `Meld.swap_results`.

    Any legal meld holds a legal three-card meld, so three-card subsets of the hand suffice.
    """

    @cache
    def alive(hand_key: tuple[str, ...], table_key: tuple[Meld, ...]) -> bool:
        cards = [c for text in hand_key for c in parse_cards(text)]
        if any(check_meld(list(three)).ok for three in combinations(cards, 3)):
            return True
        if not passport:
            return False
        for card in set(cards):
            if any(check_lay_off(m, card).ok for m in table_key):
                return True
        for card in {c for c in cards if not c.is_joker}:
            for i, target in enumerate(table_key):
                for result in target.swap_results(card):
                    rest = list(cards)
                    rest.remove(card)
                    new_table = (*table_key[:i], result, *table_key[i + 1 :])
                    if alive(_key([*rest, JOKER]), new_table):
                        return True
        return False

    return alive(_key(hand), tuple(table))


@settings(max_examples=150, deadline=None)
@given(positions(), st.sampled_from([True, True, True, False]))
def test_can_play_agrees_with_the_oracle(
    position: tuple[list[Card], list[Meld]], passport: bool
) -> None:
    hand, table = position
    v = can_play(hand, table, passport)
    expected = oracle(hand, table, passport)
    event(f"{v.rule}")
    assert v.ok == expected, (" ".join(map(str, hand)), [str(m) for m in table], v.reason)
    if not v.ok:
        assert v.rule == ("dead" if passport else "dead.passport")
    else:
        assert v.rule in {"run", "set", "lay-off", "swap"}
