"""`check_meld`: runs, sets, jokers and which rule a failed meld names (RULES.md "Melds").

Rule ids: `meld`, `run`, `set`, `joker`, `deck`. A failed check names, in this order: fewer than
three cards `meld`; no natural `joker`; too many copies `deck`; naturals of one suit `run`;
naturals of one rank `set`; otherwise `meld`.
"""

from __future__ import annotations

from collections import Counter
from itertools import islice, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from penang_lib import JOKER, Card, Rules, Verdict, check_meld, parse_cards
from penang_lib.engine.melds import run_readings, set_readings

ALL_JOKERS = Rules(all_joker_melds=True)
FULL_HEARTS = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


def reading_texts(verdict: Verdict) -> list[str]:
    return [str(m) for m in verdict.readings]


def assert_reason_has(verdict: Verdict, *words: str) -> None:
    """The reason mentions at least one of `words` (case-insensitive)."""
    reason = verdict.reason.lower()
    assert any(w.lower() in reason for w in words), f"{words} not in {verdict.reason!r}"


def outcome(cards: list[Card]) -> object:
    """Everything a verdict says that must not depend on the order of the cards."""
    try:
        v = check_meld(cards)
    except Exception as error:  # the order must not matter even for a crash
        return type(error).__name__
    return (v.ok, v.rule, v.kind, frozenset(v.readings))


# -- legal runs --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards",
    [
        "AH 2H 3H",
        "QH KH AH",
        "5S 6S 7S 8S",
        "10D JD QD KD AD",
        "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
        FULL_HEARTS,
        "5H JK 7H",
        "JK 2H 3H",
        "QH KH JK",
        "AH JK 3H",
    ],
    ids=lambda x: str(x),
)
def test_legal_run(cards: str) -> None:
    v = check_meld(cards)
    assert v.ok, v.reason
    assert bool(v)
    assert v.rule == "run"
    assert v.kind == "run"
    assert all(m.kind.value == "run" for m in v.readings)


def test_full_fourteen_card_run_has_one_reading() -> None:
    v = check_meld(FULL_HEARTS)
    assert v.ok
    assert v.kind == "run"
    assert reading_texts(v) == [FULL_HEARTS]


@pytest.mark.parametrize(
    "cards",
    [
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK",
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JK",
    ],
    ids=["A-to-K-and-joker", "2-to-A-and-joker"],
)
def test_thirteen_cards_and_a_joker_read_two_ways(cards: str) -> None:
    v = check_meld(cards)
    assert v.ok
    assert v.kind == "run"
    assert sorted(reading_texts(v)) == sorted(
        [
            "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK@AH",
            "JK@AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        ]
    )


def test_twelve_cards_and_two_jokers_fill_both_aces() -> None:
    v = check_meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK")
    assert v.ok
    assert reading_texts(v) == ["JK@AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK@AH"]


# -- illegal runs: the rule is `run` and the reason says what breaks it -------------------------
@pytest.mark.parametrize(
    "cards",
    [
        "KH AH 2H",
        "QH KH AH 2H",
        "KH AH 2H 3H",
        "AH 2H KH",
        "QH KH JK 2H",
        "QH JK AH 2H",
        "JK KH AH 2H",
        "KH 2H JK",
        "KH JK@AH 2H",
    ],
    ids=lambda x: str(x),
)
def test_corner_is_a_run_failure_named_corner(cards: str) -> None:
    v = check_meld(cards)
    assert not v.ok
    assert not v
    assert v.rule == "run"
    assert_reason_has(v, "corner")


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        ("5H 7H 9H", ("gap",)),
        ("2S 3S 9S", ("gap",)),
        ("5H 7H 9H JK", ("gap",)),
        ("5H 5H 6H", ("5♥", "5H")),
        ("5H 6H 6H JK", ("6♥", "6H")),
        ("5H 6H 7H 8H 9H 10H JH QH KH AH 2H 3H 4H 5H", ("5♥", "5H", "corner")),
        (FULL_HEARTS + " JK", ("14",)),
        (FULL_HEARTS + " 2H", ("14",)),
        ("AH AH 2H", ("ace",)),
        ("AH AH 2H 3H", ("ace",)),
        ("AH AH 2H JK", ("ace",)),
        ("QH KH AH AH", ("ace",)),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_broken_run_names_rule_run_and_why(cards: str, words: tuple[str, ...]) -> None:
    v = check_meld(cards)
    assert not v.ok
    assert v.rule == "run"
    assert_reason_has(v, *words)


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ("6H 7H 9H", "6♥ 7♥ 9♥ has a gap at 8♥, and no joker to fill it."),
        ("5H 6H 9H", "5♥ 6♥ 9♥ has gaps at 7♥ 8♥, and no joker to fill them."),
        (
            "5H 6H JK@8H",
            "5♥ 6♥ 🃏=8♥ has a gap at 7♥: its joker stands for 8♥, so nothing fills 7♥.",
        ),
        (
            "JK@9 JH QH",
            "🃏=9 J♥ Q♥ has a gap at 10♥: its joker stands for 9♥, so nothing fills 10♥.",
        ),
        (
            "5H JK@8H JK@9H",
            "5♥ 🃏=8♥ 🃏=9♥ has gaps at 6♥ 7♥: its jokers stand for 8♥ and 9♥, so nothing "
            "fills them.",
        ),
        (
            "5H 6H JK 10H",
            "5♥ 6♥ 🃏 10♥ has gaps at 7♥ 8♥ 9♥, and only one joker to fill them.",
        ),
        (
            "5H JK@6H JK 10H",
            "5♥ 🃏=6♥ 🃏 10♥ has gaps at 7♥ 8♥ 9♥, and only one joker is free to fill them: "
            "the other stands for 6♥.",
        ),
    ],
    ids=lambda x: x if "has" not in x else "",
)
def test_a_run_with_gaps_names_them_and_counts_a_noted_joker_as_placed(
    cards: str, reason: str
) -> None:
    """Issue 29: "5♥ 6♥ 🃏=8♥ ... has 0 jokers to fill them" while a joker lay in the meld.
    A joker noted for a card stands for that card, so the reason names the gap it leaves."""
    v = check_meld(cards)
    assert (v.ok, v.rule, v.reason) == (False, "run", reason)
    assert "0 jokers" not in v.reason


def test_a_lay_off_on_a_run_with_a_gap_says_what_the_noted_joker_stands_for() -> None:
    """The same reason when such a meld is on the table (a text meld given to the checker)."""
    from penang_lib import check_lay_off, check_swap

    expected = "5♥ 6♥ 🃏=8♥ has a gap at 7♥: its joker stands for 8♥, so nothing fills 7♥."
    for verdict in (check_lay_off("5H 6H JK@8H", "9H"), check_swap("5H 6H JK@8H", "8H")):
        assert not verdict.ok and verdict.rule == "run"
        assert verdict.reason.endswith(expected), verdict.reason


@pytest.mark.parametrize(
    "cards",
    ["5H 5H 6H", "5H 6H 6H JK", "9C 9C 10C JC"],
    ids=lambda x: str(x),
)
def test_repeated_rank_in_a_run_is_said_to_repeat(cards: str) -> None:
    v = check_meld(cards)
    assert v.rule == "run"
    assert_reason_has(v, "once", "repeat", "twice", "times", "already")


# -- sets --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards",
    [
        "7H 7H 7C",
        "8H 8H 8C",
        "8S 8H 8D 8C",
        "8H 8H 8C 8C 8D 8D 8S 8S",
        "8H 8H 8C 8C 8D 8D 8S 8S JK",
        "AS AH AS",
        "KS KS KD",
    ],
    ids=lambda x: str(x),
)
def test_legal_set_suits_may_repeat(cards: str) -> None:
    v = check_meld(cards)
    assert v.ok, v.reason
    assert v.rule == "set"
    assert v.kind == "set"


def test_nine_naturals_of_one_rank_break_the_deck() -> None:
    v = check_meld("8H 8H 8C 8C 8D 8D 8S 8S 8S")
    assert not v.ok
    assert v.rule == "deck"


@pytest.mark.parametrize(
    "cards", ["8H 8H 8H", "AS AS AS", "8H 8H 8C 8C 8D 8D 8S 8S 8S"], ids=lambda x: str(x)
)
def test_three_packs_allow_three_copies(cards: str) -> None:
    assert check_meld(cards).rule == "deck"
    v = check_meld(cards, Rules(packs=3))
    assert v.ok
    assert v.kind == "set"


@pytest.mark.parametrize(
    ("cards", "readings"),
    [
        ("8H JK JK", None),
        ("9S 9C JK", ["9S 9C JK@9"]),
        ("JK@9 9S 9C", ["9S 9C JK@9"]),
        ("JK@9H 9S 9C", ["9S 9C JK@9"]),
        ("JK@9S 9H 9D", ["9H 9D JK@9"]),
        ("JK@7H JK@7S 7C", ["7C JK@7 JK@7"]),
        ("5H JK JK JK JK JK JK", None),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_jokers_in_sets(cards: str, readings: list[str] | None) -> None:
    v = check_meld(cards)
    assert v.ok, v.reason
    assert v.kind == "set"
    assert v.readings[0].kind.value == "set"
    if readings is not None:
        assert reading_texts(v) == readings


def test_no_cap_on_jokers_but_the_deck_has_six() -> None:
    assert check_meld("5H JK JK JK JK JK JK").ok
    seven = check_meld("5H JK JK JK JK JK JK JK")
    assert not seven.ok
    assert seven.rule == "deck"
    assert check_meld("5H JK JK JK JK JK JK JK", Rules(jokers=8)).ok


# -- joker notes in runs -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "reading"),
    [
        ("JK@9 8H 10H", "8H JK@9H 10H"),
        ("JK@9H 8H 10H", "8H JK@9H 10H"),
        ("2H 4H JK@3", "2H JK@3H 4H"),
        ("JK@A 2H 3H", "JK@AH 2H 3H"),
        ("JK@A QH KH", "QH KH JK@AH"),
        ("KH QH JK@AH", "QH KH JK@AH"),
        ("5H 6H JK@7♥", "5H 6H JK@7H"),
    ],
    ids=lambda x: str(x),
)
def test_noted_joker_in_a_run_stands_where_its_note_says(cards: str, reading: str) -> None:
    v = check_meld(cards)
    assert v.ok, v.reason
    assert v.kind == "run"
    assert reading_texts(v) == [reading]


@pytest.mark.parametrize(
    "cards",
    [
        "8H 9H JK@8H",
        "AH JK@AH 2H",
        "8H JK@10H 10H",
        "5H 6H JK@9H",
    ],
    ids=lambda x: str(x),
)
def test_noted_joker_that_does_not_fit_the_run(cards: str) -> None:
    v = check_meld(cards)
    assert not v.ok
    assert v.rule == "run"


@pytest.mark.parametrize(
    "cards",
    ["JK@9S 8H 10H", "2H 4H JK@3S", "5H 6H JK@7S", "JK@AS QH KH"],
    ids=lambda x: str(x),
)
def test_joker_noted_with_another_suit_is_not_a_run(cards: str) -> None:
    """A note naming another suit conflicts with the run: not ok, rule `run` (no crash)."""
    v = check_meld(cards)
    assert not v.ok
    assert v.rule == "run"


@pytest.mark.parametrize(
    "cards",
    ["JK@8 9H 9D", "JK@8H 9H 9D", "9S 9C JK@10"],
    ids=lambda x: str(x),
)
def test_joker_noted_with_another_rank_is_not_a_set(cards: str) -> None:
    v = check_meld(cards)
    assert not v.ok
    assert v.rule == "set"


# -- ambiguity ---------------------------------------------------------------------------------
def test_two_jokers_and_a_five_list_every_reading_sets_first() -> None:
    v = check_meld("JK JK 5D")
    assert v.ok
    assert v.kind == "set"
    assert v.rule == "set"
    assert reading_texts(v)[0] == "5D JK@5 JK@5"
    assert sorted(reading_texts(v)) == sorted(
        ["5D JK@5 JK@5", "JK@3D JK@4D 5D", "JK@4D 5D JK@6D", "5D JK@6D JK@7D"]
    )


def test_two_hearts_and_a_joker_read_two_ways() -> None:
    v = check_meld("5H 6H JK")
    assert v.ok
    assert v.kind == "run"
    assert sorted(reading_texts(v)) == ["5H 6H JK@7H", "JK@4H 5H 6H"]


def test_ace_and_two_jokers_read_as_set_low_run_and_high_run() -> None:
    v = check_meld("AH JK JK")
    assert v.ok
    assert v.kind == "set"
    assert reading_texts(v)[0] == "AH JK@A JK@A"
    assert sorted(reading_texts(v)[1:]) == sorted(["AH JK@2H JK@3H", "JK@QH JK@KH AH"])


@pytest.mark.parametrize(
    "cards",
    ["JK JK 5D", "5H 6H JK", "AH JK JK", "JK JK JK AH", "8H JK JK", "QH KH JK"],
    ids=lambda x: str(x),
)
def test_readings_are_distinct_legal_and_sets_come_first(cards: str) -> None:
    v = check_meld(cards)
    assert v.ok
    assert len(v.readings) >= 2
    kinds = [m.kind.value for m in v.readings]
    assert kinds == sorted(kinds, key=lambda k: k != "set")
    assert v.kind == kinds[0]
    assert len(set(v.readings)) == len(v.readings)
    for meld in v.readings:
        again = check_meld(str(meld))
        assert again.ok, str(meld)
        assert again.kind == meld.kind.value


# -- which rule a failed check names -----------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "rules", "rule"),
    [
        # fewer than three cards comes first
        ("", None, "meld"),
        ("5H", None, "meld"),
        ("5H 6H", None, "meld"),
        ("JK JK", None, "meld"),
        ("8S 8S", Rules(packs=1), "meld"),
        # then no natural card
        ("JK JK JK", None, "joker"),
        ("JK JK JK JK JK JK JK", None, "joker"),
        ("JK@7H JK@8H JK@9H", None, "joker"),
        # then too many copies
        ("8H 8H 8H", None, "deck"),
        ("5H 5H 5H 6H 7H", None, "deck"),
        ("5S 5S 5S 9C", None, "deck"),
        # then all naturals of one suit
        ("5H 7H 9H", None, "run"),
        ("5H 5H 6H", None, "run"),
        ("KH AH 2H", None, "run"),
        ("JK@9 JK@9 8H", None, "run"),
        # then all naturals of one rank
        ("9H 9D JK@8", None, "set"),
        ("9H 9D JK@8H", None, "set"),
        # otherwise neither
        ("5H 6D 7C", None, "meld"),
        ("5H 5H 6H 7C", None, "meld"),
        ("5H 5D 6H", None, "meld"),
        ("AS 2H 3H", None, "meld"),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_failure_rule_order(cards: str, rules: Rules | None, rule: str) -> None:
    v = check_meld(cards, rules)
    assert not v.ok
    assert v.rule == rule
    assert v.readings == ()


def test_fewer_than_three_reason_says_three() -> None:
    assert_reason_has(check_meld("5H 6H"), "three", "3")


def test_no_natural_reason_mentions_a_real_card() -> None:
    assert_reason_has(check_meld("JK JK JK"), "natural", "real")


# -- the all-joker house rule ------------------------------------------------------------------
def test_all_joker_run_declared_is_ok_with_the_house_rule() -> None:
    v = check_meld("JK@7H JK@8H JK@9H", ALL_JOKERS)
    assert v.ok, v.reason
    assert v.rule == "run"
    assert v.kind == "run"
    assert reading_texts(v) == ["JK@7H JK@8H JK@9H"]


def test_all_joker_set_declared_is_ok_with_the_house_rule() -> None:
    v = check_meld("JK@7 JK@7 JK@7", ALL_JOKERS)
    assert v.ok
    assert v.kind == "set"


@pytest.mark.parametrize(
    "cards", ["JK JK JK", "JK@7 JK JK", "JK@7H JK@8H JK"], ids=lambda x: str(x)
)
def test_undeclared_all_joker_meld_fails_even_with_the_house_rule(cards: str) -> None:
    v = check_meld(cards, ALL_JOKERS)
    assert not v.ok
    assert v.rule == "joker"


def test_all_joker_meld_fails_without_the_house_rule() -> None:
    v = check_meld("JK@7H JK@8H JK@9H")
    assert not v.ok
    assert v.rule == "joker"


def test_house_rule_does_not_change_ordinary_melds() -> None:
    for cards in ["7H 7H 7C", "QH KH AH", "KH AH 2H", "5H 6D 7C", "JK JK 5D"]:
        a, b = check_meld(cards), check_meld(cards, ALL_JOKERS)
        assert (a.ok, a.rule, a.kind, a.readings) == (b.ok, b.rule, b.kind, b.readings)


# -- input forms and order ---------------------------------------------------------------------
def test_cards_as_a_list_of_card_or_text() -> None:
    text = check_meld("5H 6H 7H")
    as_cards = check_meld(parse_cards("5H 6H 7H"))
    as_strings = check_meld(["5H", "6H", "7H"])
    assert text.readings == as_cards.readings == as_strings.readings
    assert text.ok and as_cards.ok and as_strings.ok


ORDER_CASES = [
    "AH 2H 3H",
    "QH KH AH",
    "KH AH 2H",
    "5H 6H JK",
    "JK JK 5D",
    "8H 8H 8C",
    "9S 9D JK@9",
    "JK@9 8H 10H",
    "5H 7H 9H",
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK",
    "5H 6D 7C",
    "9H 9D JK@8",
]


@pytest.mark.parametrize("cards", ORDER_CASES, ids=lambda x: str(x))
def test_order_of_cards_never_matters(cards: str) -> None:
    parsed = parse_cards(cards)
    first = outcome(parsed)
    orders = [*islice(permutations(parsed), 60), parsed[::-1]]
    orders += [parsed[i:] + parsed[:i] for i in range(len(parsed))]
    for order in orders:
        assert outcome(list(order)) == first, " ".join(map(str, order))


# -- properties over random groups -------------------------------------------------------------
def _naturals(suits: str, ranks: range) -> list[Card]:
    return [Card(r, s) for s in suits for r in ranks]


NATURALS = st.sampled_from(_naturals("SHDC", range(1, 14)))
NEAR_NATURALS = st.sampled_from(_naturals("HS", range(1, 14)))
JOKERS = st.one_of(
    st.just(JOKER),
    st.builds(Card.joker, st.integers(1, 13)),
    st.builds(Card.joker, st.integers(1, 13), st.sampled_from("SHDC")),
)
GROUPS = st.lists(st.one_of(NEAR_NATURALS, NEAR_NATURALS, NATURALS, JOKERS), min_size=0, max_size=6)


@settings(max_examples=200)
@given(GROUPS)
def test_check_meld_answers_every_group_without_crashing(cards: list[Card]) -> None:
    v = check_meld(cards)
    assert isinstance(v, Verdict)
    assert v.rule in {"meld", "run", "set", "joker", "deck"}
    assert bool(v) is v.ok


@settings(max_examples=150)
@given(st.data())
def test_order_never_matters_on_random_groups(data: st.DataObject) -> None:
    cards = data.draw(GROUPS)
    shuffled = data.draw(st.permutations(cards))
    assert outcome(shuffled) == outcome(cards)


ONE_SUIT = st.lists(
    st.one_of(st.sampled_from(_naturals("H", range(1, 14))), st.just(JOKER)),
    min_size=3,
    max_size=8,
)


@settings(max_examples=200)
@given(st.one_of(ONE_SUIT, st.lists(st.one_of(NEAR_NATURALS, st.just(JOKER)), max_size=6)))
def test_verdict_and_readings_agree(cards: list[Card]) -> None:
    v = check_meld(cards)
    assert v.ok == bool(v.readings)
    if not v.ok:
        assert v.kind is None or v.kind in {"run", "set"}
        return
    assert v.kind == v.readings[0].kind.value
    assert v.rule == v.kind
    kinds = [m.kind.value for m in v.readings]
    assert kinds == sorted(kinds, key=lambda k: k != "set")
    assert len(set(v.readings)) == len(v.readings)
    physical = Counter(c.plain for c in cards)
    for meld in v.readings:
        assert Counter(meld.physical) == physical
        assert check_meld(str(meld)).ok
    expected = set(set_readings(cards)) | set(run_readings(cards))
    assert set(v.readings) == expected


@settings(max_examples=150)
@given(st.integers(1, 12), st.integers(3, 14), st.sampled_from("SHDC"))
def test_every_straight_of_one_suit_is_a_run(low: int, length: int, suit: str) -> None:
    high = min(low + length - 1, 14)
    if high - low + 1 < 3:
        return
    cards = [Card(1 if p == 14 else p, suit) for p in range(low, high + 1)]
    v = check_meld(cards)
    assert v.ok, v.reason
    assert v.kind == "run"
