"""The rule-check API: the public examples of RULES.md, `check_lay_off`, `check_swap` and
`deadwood_points` (rules `lay-off`, `swap`, `deck`, `scoring`).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from penang_lib import (
    JOKER,
    Card,
    CardParseError,
    Kind,
    Meld,
    Rules,
    Verdict,
    can_play,
    check_lay_off,
    check_meld,
    check_swap,
    deadwood_points,
    parse_cards,
)

FULL_HEARTS = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
NATURALS = [Card(rank, suit) for suit in "SHDC" for rank in range(1, 14)]


def assert_reason_has(verdict: Verdict, *words: str) -> None:
    """The reason mentions at least one of `words` (case-insensitive)."""
    reason = verdict.reason.lower()
    assert any(w.lower() in reason for w in words), f"{words} not in {verdict.reason!r}"


# -- the public examples table of RULES.md, row by row -------------------------------------------
def test_example_set_suits_may_repeat() -> None:
    v = check_meld("7H 7H 7C")
    assert v.ok
    assert v
    assert v.kind == "set"
    assert v.rule == "set"


@pytest.mark.parametrize("cards", ["QH KH AH", "AH 2H 3H"], ids=["high-ace", "low-ace"])
def test_example_runs_with_an_ace(cards: str) -> None:
    v = check_meld(cards)
    assert v.ok
    assert v.kind == "run"
    assert v.rule == "run"


def test_example_corner() -> None:
    v = check_meld("KH AH 2H")
    assert not v.ok
    assert not v
    assert v.rule == "run"
    assert_reason_has(v, "corner")


def test_example_fewer_than_three() -> None:
    v = check_meld("5H 6H")
    assert not v.ok
    assert v.rule == "meld"


def test_example_no_natural() -> None:
    v = check_meld("JK JK JK")
    assert not v.ok
    assert v.rule == "joker"


def test_example_lay_off_extends_run() -> None:
    v = check_lay_off("5H 6H 7H", "8H")
    assert v.ok
    assert v.rule == "lay-off"
    assert v.kind == "run"


def test_example_lay_off_on_joker_place_fails_but_swap_works() -> None:
    lay = check_lay_off("5H 6H JK@7H", "7H")
    assert not lay.ok
    assert not lay
    swap = check_swap("5H 6H JK@7H", "7H")
    assert swap.ok
    assert swap.rule == "swap"
    assert swap.kind == "run"


def test_example_swap_in_a_set() -> None:
    v = check_swap("9S 9D JK@9", "9S")
    assert v.ok
    assert v.rule == "swap"
    assert v.kind == "set"


def test_example_can_play_after_swap() -> None:
    v = can_play("7H 9S 9C", ["5H 6H JK@7H"], passport=True)
    assert v.ok
    assert v.rule == "swap"


def test_example_can_play_without_passport_is_dead() -> None:
    v = can_play("7H 9S 9C", ["5H 6H JK@7H"], passport=False)
    assert not v.ok
    assert not v
    assert v.rule == "dead.passport"


def test_example_deadwood() -> None:
    assert deadwood_points("AH KS 10D 5C JK") == 60


# -- lay-off on runs ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("meld", "card"),
    [
        ("5H 6H 7H", "8H"),
        ("5H 6H 7H", "4H"),
        ("QH KH AH", "JH"),
        ("AH 2H 3H", "4H"),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH"),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH"),
        ("3S 4S 5S", "2S"),
        ("JC QC KC", "AC"),
        ("5H 6H JK@7H", "8H"),
        ("5H 6H JK@7H", "4H"),
        ("JK@4H 5H 6H", "3H"),
    ],
    ids=lambda x: str(x),
)
def test_lay_off_at_either_end(meld: str, card: str) -> None:
    v = check_lay_off(meld, card)
    assert v.ok, v.reason
    assert v.rule == "lay-off"
    assert v.kind == "run"


@pytest.mark.parametrize(
    ("meld", "fits"),
    [
        ("QH KH AH", {"JH"}),
        ("AH 2H 3H", {"4H"}),
        ("5H 6H 7H", {"4H", "8H"}),
        ("5H 6H JK@7H", {"4H", "8H"}),
        (FULL_HEARTS, set()),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", {"AH"}),
        ("7S 7H 7C", {"7S", "7H", "7D", "7C"}),
    ],
    ids=["QKA", "A23", "567", "56-joker", "full-run", "A-to-K", "set"],
)
def test_exactly_these_naturals_can_be_laid_off(meld: str, fits: set[str]) -> None:
    allowed = {str(card) for card in NATURALS if check_lay_off(meld, card).ok}
    assert allowed == fits


@pytest.mark.parametrize(
    ("meld", "card"),
    [("QH KH AH", "2H"), ("AH 2H 3H", "KH"), ("QD KD AD", "2D"), ("AC 2C 3C 4C", "KC")],
    ids=lambda x: str(x),
)
def test_lay_off_round_the_corner_says_corner(meld: str, card: str) -> None:
    v = check_lay_off(meld, card)
    assert not v.ok
    assert v.rule == "lay-off"
    assert_reason_has(v, "corner")


@pytest.mark.parametrize(
    ("meld", "card"),
    [("QH KH AH", "JK@2H"), ("AH 2H 3H", "JK@KH")],
    ids=["JK@2H-on-QKA", "JK@KH-on-A23"],
)
def test_noted_joker_round_the_corner_says_corner(meld: str, card: str) -> None:
    v = check_lay_off(meld, card)
    assert not v.ok
    assert v.rule == "lay-off"
    assert_reason_has(v, "corner")


@pytest.mark.parametrize("card", [*NATURALS, JOKER, Card.joker(1, "H")], ids=str)
def test_full_run_takes_nothing(card: Card) -> None:
    v = check_lay_off(FULL_HEARTS, card)
    assert not v.ok
    assert v.rule in {"lay-off", "deck"}


# -- lay-off on sets ---------------------------------------------------------------------------
@pytest.mark.parametrize("card", ["7S", "7H", "7D", "7C"])
def test_set_takes_any_suit(card: str) -> None:
    v = check_lay_off("7S 7H 7C", card)
    assert v.ok
    assert v.rule == "lay-off"
    assert v.kind == "set"


@pytest.mark.parametrize("card", ["8C", "6H", "AS", "KD"])
def test_set_takes_only_its_rank(card: str) -> None:
    v = check_lay_off("7H 7H 7C", card)
    assert not v.ok
    assert v.rule == "lay-off"


def test_third_copy_on_a_set_breaks_the_deck() -> None:
    v = check_lay_off("7S 7S 7D", "7S")
    assert not v.ok
    assert v.rule == "deck"


def test_second_copy_on_a_set_is_fine() -> None:
    assert check_lay_off("7S 7D 7C", "7S").ok


def test_third_copy_is_fine_with_three_packs() -> None:
    assert check_lay_off("7S 7S 7D", "7S", Rules(packs=3)).ok


# -- jokers laid off ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("meld", "card", "kind"),
    [
        ("5H 6H 7H", "JK", "run"),
        ("5H 6H 7H", "🃏", "run"),
        ("5H 6H 7H", "JK@8H", "run"),
        ("5H 6H 7H", "JK@4H", "run"),
        ("5H 6H 7H", "JK@8", "run"),
        ("QH KH AH", "JK", "run"),
        ("QH KH AH", "JK@JH", "run"),
        ("AH 2H 3H", "JK@4H", "run"),
        ("7H 7H 7C", "JK", "set"),
        ("7H 7H 7C", "JK@7", "set"),
        ("7H 7H 7C", "JK@7S", "set"),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "JK", "run"),
    ],
    ids=lambda x: str(x),
)
def test_joker_laid_off(meld: str, card: str, kind: str) -> None:
    v = check_lay_off(meld, card)
    assert v.ok, v.reason
    assert v.rule == "lay-off"
    assert v.kind == kind


@pytest.mark.parametrize(
    ("meld", "card"),
    [
        ("5H 6H 7H", "JK@9H"),
        ("5H 6H 7H", "JK@8S"),
        ("5H 6H 7H", "JK@6H"),
        ("QH KH AH", "JK@2H"),
        ("QH KH AH", "JK@AH"),
        ("7H 7H 7C", "JK@8"),
        ("7H 7H 7C", "JK@8H"),
    ],
    ids=lambda x: str(x),
)
def test_noted_joker_that_does_not_fit(meld: str, card: str) -> None:
    v = check_lay_off(meld, card)
    assert not v.ok
    assert v.rule == "lay-off"


def test_seventh_joker_breaks_the_deck() -> None:
    assert check_lay_off("5H JK JK JK JK JK", "JK").ok
    v = check_lay_off("5H JK JK JK JK JK JK", "JK")
    assert not v.ok
    assert v.rule == "deck"
    assert check_lay_off("5H JK JK JK JK JK JK", "JK", Rules(jokers=8)).ok


# -- plain JK in a text table meld -------------------------------------------------------------
@pytest.mark.parametrize(
    ("meld", "card", "kind", "reading"),
    [
        ("5H 6H JK", "7H", "run", ("JK@4H", "🃏=4♥")),
        ("5H 6H JK", "3H", "run", ("JK@4H", "🃏=4♥")),
        ("5H 6H JK", "8H", "run", ("JK@7H", "🃏=7♥")),
        ("5H 6H JK", "4H", "run", ("JK@7H", "🃏=7♥")),
        ("JK JK 5D", "5S", "set", ("JK@5", "🃏=5")),
        ("JK JK 5D", "2D", "run", ("JK@3D", "🃏=3♦")),
        ("JK JK 5D", "8D", "run", ("JK@7D", "🃏=7♦")),
        ("JK JK 5D", "6D", "run", ("JK@4D", "🃏=4♦")),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_lay_off_on_plain_joker_meld_uses_a_reading_that_allows_it(
    meld: str, card: str, kind: str, reading: tuple[str, ...]
) -> None:
    v = check_lay_off(meld, card)
    assert v.ok, v.reason
    assert v.rule == "lay-off"
    assert v.kind == kind
    assert_reason_has(v, *reading)


@pytest.mark.parametrize(
    ("meld", "card"),
    [("5H 6H JK", "9H"), ("5H 6H JK", "2H"), ("JK JK 5D", "9D"), ("JK JK 5D", "6C")],
    ids=lambda x: str(x),
)
def test_lay_off_on_plain_joker_meld_fails_when_no_reading_allows(meld: str, card: str) -> None:
    v = check_lay_off(meld, card)
    assert not v.ok
    assert v.rule == "lay-off"


def test_lay_off_on_a_meld_object() -> None:
    (meld,) = check_meld("5H 6H JK@7H").readings
    assert isinstance(meld, Meld)
    assert check_lay_off(meld, "8H").ok
    assert not check_lay_off(meld, "7H").ok


# -- illegal table melds fail with their own rule ----------------------------------------------
ILLEGAL_TABLES = [
    ("KH AH 2H", "run"),
    ("5H 7H 9H", "run"),
    ("5H 6H", "meld"),
    ("5H 6D 7C", "meld"),
    ("JK JK JK", "joker"),
    ("8H 8H 8H", "deck"),
    ("9H 9D JK@8", "set"),
    ("5H 6H JK@7S", "run"),
]


@pytest.mark.parametrize(("meld", "rule"), ILLEGAL_TABLES, ids=lambda x: str(x))
def test_lay_off_on_illegal_meld_names_its_rule(meld: str, rule: str) -> None:
    v = check_lay_off(meld, "8H")
    assert not v.ok
    assert v.rule == rule
    assert v.rule == check_meld(meld).rule


@pytest.mark.parametrize(("meld", "rule"), ILLEGAL_TABLES, ids=lambda x: str(x))
def test_swap_on_illegal_meld_names_its_rule(meld: str, rule: str) -> None:
    v = check_swap(meld, "7H")
    assert not v.ok
    assert v.rule == rule


# -- exactly one card --------------------------------------------------------------------------
@pytest.mark.parametrize("card", ["8H 9H", "8H,9H", ["8H", "9H"], "JK 8H"], ids=str)
def test_lay_off_takes_exactly_one_card(card: str | list[str]) -> None:
    with pytest.raises(CardParseError):
        check_lay_off("5H 6H 7H", card)


@pytest.mark.parametrize("card", ["7H 8H", "7H,JK", ["7H", "7H"]], ids=str)
def test_swap_takes_exactly_one_card(card: str | list[str]) -> None:
    with pytest.raises(CardParseError):
        check_swap("5H 6H JK@7H", card)


def test_one_card_may_be_a_card_object() -> None:
    assert check_lay_off("5H 6H 7H", Card(8, "H")).ok
    assert check_swap("5H 6H JK@7H", Card(7, "H")).ok


def test_bad_card_text_is_a_parse_error() -> None:
    with pytest.raises(CardParseError, match="ZZ"):
        check_lay_off("5H 6H 7H", "ZZ")
    with pytest.raises(CardParseError, match="11H"):
        check_swap("5H 6H 11H", "7H")


# -- swap --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("meld", "card", "kind"),
    [
        ("5H 6H JK@7H", "7H", "run"),
        ("JK@7H 5H 6H", "7H", "run"),
        ("9S 9D JK@9", "9S", "set"),
        ("9S 9D JK@9", "9H", "set"),
        ("9S 9D JK@9", "9C", "set"),
        ("9S 9D JK@9H", "9C", "set"),
        ("JK@AH 2H 3H", "AH", "run"),
        ("QH KH JK@AH", "AH", "run"),
        ("5D JK@6D JK@7D", "6D", "run"),
        ("5D JK@6D JK@7D", "7D", "run"),
        ("5H 6H JK", "7H", "run"),
        ("5H 6H JK", "4H", "run"),
        ("JK JK 5D", "5C", "set"),
        ("JK JK 5D", "3D", "run"),
        ("JK JK 5D", "7D", "run"),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", "AH", "run"),
    ],
    ids=lambda x: str(x),
)
def test_swap_allowed(meld: str, card: str, kind: str) -> None:
    v = check_swap(meld, card)
    assert v.ok, v.reason
    assert v.rule == "swap"
    assert v.kind == kind


@pytest.mark.parametrize(
    ("meld", "card"),
    [
        ("5H 6H JK@7H", "4H"),
        ("5H 6H JK@7H", "7S"),
        ("5H 6H JK@7H", "8H"),
        ("9S 9D JK@9", "8H"),
        ("5H 6H JK", "8H"),
        ("JK JK 5D", "9D"),
    ],
    ids=lambda x: str(x),
)
def test_swap_needs_the_card_the_joker_stands_for(meld: str, card: str) -> None:
    v = check_swap(meld, card)
    assert not v.ok
    assert v.rule == "swap"


@pytest.mark.parametrize(
    ("meld", "card"),
    [
        ("5H 6H JK@7H", "JK"),
        ("5H 6H JK@7H", "JK@7H"),
        ("9S 9D JK@9", "JK"),
        ("9S 9D JK@9", "🃏"),
    ],
    ids=lambda x: str(x),
)
def test_swap_of_a_joker_card_is_refused(meld: str, card: str) -> None:
    v = check_swap(meld, card)
    assert not v.ok
    assert v.rule == "swap"


@pytest.mark.parametrize(
    ("meld", "card"),
    [("5H 6H 7H", "7H"), ("5H 6H 7H", "8H"), ("7H 7H 7C", "7S"), (FULL_HEARTS, "AH")],
    ids=lambda x: str(x),
)
def test_swap_on_a_meld_without_jokers_is_refused(meld: str, card: str) -> None:
    v = check_swap(meld, card)
    assert not v.ok
    assert v.rule == "swap"
    assert_reason_has(v, "joker")


def test_swap_that_needs_a_third_copy_breaks_the_deck() -> None:
    v = check_swap("7S 7S JK@7", "7S")
    assert not v.ok
    assert v.rule == "deck"
    assert check_swap("7S 7S JK@7", "7D").ok


def test_swap_on_plain_joker_meld_names_the_reading() -> None:
    v = check_swap("5H 6H JK", "4H")
    assert v.ok
    assert_reason_has(v, "JK@4H", "🃏=4♥")
    w = check_swap("5H 6H JK", "7H")
    assert w.ok
    assert_reason_has(w, "JK@7H", "🃏=7♥")


# -- lay-off and swap agree with check_meld ------------------------------------------------------
TABLE_MELDS = [
    "5H 6H 7H",
    "5H 6H JK@7H",
    "QH KH AH",
    "AH 2H 3H",
    "7S 7H 7C",
    "9S 9D JK@9",
    "JK@AH 2H 3H 4H",
    "10H JH QH KH",
]


@settings(max_examples=200)
@given(st.sampled_from(TABLE_MELDS), st.sampled_from([*NATURALS, JOKER]))
def test_lay_off_ok_means_the_bigger_meld_is_legal(meld: str, card: Card) -> None:
    v = check_lay_off(meld, card)
    bigger = check_meld([*parse_cards(meld), card])
    if v.ok:
        assert bigger.ok
        assert v.kind == check_meld(meld).kind
    elif not card.is_joker and not bigger.ok:
        assert not v.ok


@settings(max_examples=200)
@given(st.sampled_from(TABLE_MELDS), st.sampled_from(NATURALS))
def test_swap_ok_means_card_replaces_a_joker(meld: str, card: Card) -> None:
    v = check_swap(meld, card)
    cards = parse_cards(meld)
    if not any(c.is_joker for c in cards):
        assert not v.ok
        return
    if v.ok:
        rest = list(cards)
        rest.remove(next(c for c in cards if c.is_joker))
        assert check_meld([*rest, card]).ok


# -- deadwood_points ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("card", "points"),
    [
        ("AS", 15),
        ("2H", 2),
        ("3D", 3),
        ("4C", 4),
        ("5S", 5),
        ("6H", 6),
        ("7D", 7),
        ("8C", 8),
        ("9S", 9),
        ("10H", 10),
        ("JD", 10),
        ("QC", 10),
        ("KS", 10),
        ("JK", 20),
        ("JK@7H", 20),
        ("🃏", 20),
    ],
    ids=lambda x: str(x),
)
def test_card_values(card: str, points: int) -> None:
    assert deadwood_points(card) == points


def test_empty_hand_counts_zero() -> None:
    assert deadwood_points("") == 0
    assert deadwood_points([]) == 0


def test_points_add_up() -> None:
    assert deadwood_points("AH AH KS JK JK 2C") == 15 + 15 + 10 + 20 + 20 + 2
    assert deadwood_points(parse_cards("10H 10H")) == 20


def test_custom_values() -> None:
    values = dict(Rules().values)
    values.update({"A": 1, "JK": 50, "K": 13})
    rules = Rules(values=values)
    assert deadwood_points("AH JK KS 5C", rules) == 1 + 50 + 13 + 5
    assert deadwood_points("AH JK KS 5C") == 15 + 20 + 10 + 5


@settings(max_examples=100)
@given(st.lists(st.sampled_from([*NATURALS, JOKER]), max_size=25))
def test_points_are_the_sum_of_each_card(cards: list[Card]) -> None:
    assert deadwood_points(cards) == sum(deadwood_points([c]) for c in cards)
    assert deadwood_points(" ".join(str(c) for c in cards)) == deadwood_points(cards)


# -- reasons are plain English -----------------------------------------------------------------
@pytest.mark.parametrize(
    "verdict",
    [
        pytest.param(lambda: check_meld("JK@8 9H 9D"), id="meld-joker-noted-eight"),
        pytest.param(lambda: check_meld("JK@A 9H 9D"), id="meld-joker-noted-ace"),
        pytest.param(lambda: check_lay_off("8S 8H 8D", "7C"), id="lay-off-on-eights"),
        pytest.param(lambda: check_lay_off("AS AH AD", "7C"), id="lay-off-on-aces"),
        pytest.param(lambda: check_swap("8S 8H JK@8", "7C"), id="swap-on-eights"),
        pytest.param(lambda: check_swap("AS AH JK@A", "7C"), id="swap-on-aces"),
    ],
)
def test_reason_says_an_eight_and_an_ace(verdict: Callable[[], Verdict]) -> None:
    v = verdict()
    assert not v.ok
    words = v.reason.lower().replace(",", " ").replace(":", " ").split()
    for before, word in pairwise(words):
        assert not (before == "a" and word in {"eight", "ace"}), v.reason


# -- more deck limits --------------------------------------------------------------------------
def test_set_of_eight_naturals_takes_no_ninth() -> None:
    full = "8S 8S 8H 8H 8D 8D 8C 8C"
    for card in ["8S", "8H", "8D", "8C"]:
        v = check_lay_off(full, card)
        assert not v.ok
        assert v.rule == "deck"
    assert check_lay_off(full, "JK").ok


def test_all_joker_corner_says_corner_under_the_house_rule() -> None:
    """Declared jokers that wrap round K A 2 are refused, and the reason says why: the corner."""
    v = check_meld("JK@KH JK@AH JK@2H", Rules(all_joker_melds=True))
    assert not v.ok
    assert_reason_has(v, "corner")


@pytest.mark.parametrize(
    "cards",
    ["JK@7H JK@8S JK@9H", "JK@7H JK@8H JK@10H", "JK@7 JK@8 JK@7"],
    ids=str,
)
def test_bad_all_joker_melds_fail_under_the_house_rule(cards: str) -> None:
    assert not check_meld(cards, Rules(all_joker_melds=True)).ok


# -- a Meld value on the table is checked like a text one ----------------------------------------
def test_an_illegal_meld_value_fails_with_its_own_rule() -> None:
    broken_run = Meld(Kind.RUN, tuple(parse_cards("5H 9D")), 5, "H")
    assert check_lay_off(broken_run, "7H").rule == "meld"
    mixed_set = Meld(Kind.SET, tuple(parse_cards("5H 6C JK@5")), 5)
    verdict = check_swap(mixed_set, "5S")
    assert not verdict.ok and verdict.rule == "meld"


def test_a_meld_value_out_of_order_is_refused() -> None:
    shuffled = Meld(Kind.RUN, tuple(parse_cards("6H 5H 7H")), 5, "H")
    verdict = check_lay_off(shuffled, "8H")
    assert not verdict.ok and verdict.rule == "run"


def test_a_legal_meld_value_keeps_its_joker_identity() -> None:
    low = check_meld("5H 6H JK").readings[0]  # the joker as 4H
    assert not check_swap(low, "7H").ok
    assert check_swap(low, "4H").ok


def test_joker_lay_offs_lists_every_place_a_plain_joker_may_stand() -> None:
    from penang_lib.engine.cards import JOKER, Card
    from penang_lib.engine.checks import joker_lay_offs

    ends = joker_lay_offs("5H 6H 7H", JOKER)
    assert [v.reason.split(" can ")[0] for v in ends] == ["🃏=4♥", "🃏=8♥"]
    assert "at the bottom" in ends[0].reason and "at the top" in ends[1].reason
    assert all(v.ok and v.rule == "lay-off" for v in ends)
    high = joker_lay_offs("QD KD AD", JOKER)  # never past an ace
    assert len(high) == 1 and high[0].reason.startswith("🃏=J♦")
    assert joker_lay_offs("5H 6H 7H", Card.parse("8H")) == []  # a natural: check_lay_off
    assert joker_lay_offs("9S 9D 9C", JOKER)[0].kind == "set"
