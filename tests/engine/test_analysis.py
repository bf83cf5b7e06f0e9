"""Hand analysis on count vectors (`penang_lib.engine.analysis`) against the rule-check API.

`iter_melds` must list exactly the legal melds a hand can make (compared with a brute force over
every sub-multiset of the hand), `first_meld` must find one exactly when there is one, and
`find_action` must agree with `can_play` and give an action that is legal step by step.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from penang_lib import JOKER, Card, Meld, Rules, can_play, check_lay_off, check_meld, check_swap
from penang_lib.engine.analysis import find_action, first_meld, iter_melds
from penang_lib.engine.cards import full_deck, parse_cards, to_counts
from penang_lib.engine.melds import run_readings, set_readings
from tests.strategies import meld as table_meld
from tests.strategies import positions

RULES = Rules()
ALL_JOKERS = Rules(all_joker_melds=True)
NATURALS_2_PACKS = [c for c in full_deck(2, 0)]

MeldKey = tuple[str, tuple[str, ...]]


def key(meld: Meld) -> MeldKey:
    """A meld as a move: its kind and the cards (with joker notes) it puts on the table.

    The only two `Meld` values with one key are a 13-card run read from A to K or from 2 to the
    high A: the same cards, the same move.
    """
    return meld.kind.value, tuple(sorted(str(c) for c in meld.cards))


def brute_force(hand: list[Card]) -> set[MeldKey]:
    """Every reading of every sub-multiset of the hand with three or more cards."""
    counts = Counter(hand)
    cards = list(counts)
    found: set[MeldKey] = set()
    for take in product(*(range(counts[c] + 1) for c in cards)):
        sub = [c for c, n in zip(cards, take, strict=True) for _ in range(n)]
        if len(sub) < 3:
            continue
        readings = [*set_readings(sub), *run_readings(sub)]
        assert {key(m) for m in readings} == {key(m) for m in check_meld(sub).readings}
        found.update(key(m) for m in readings)
    return found


def melds_of(hand: list[Card], rules: Rules = RULES) -> list[Meld]:
    return list(iter_melds(to_counts(hand), rules))


# -- iter_melds --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand",
    [
        "",
        "5H 6H",
        "JK JK",
        "7H 7H 7C",
        "5H 6H JK",
        "JK JK 5D",
        "AH 2H 3H QH KH",
        "AH JK JK",
        "8S 8S 8H 8D JK",
        "AS 2S 3S 4S JK 9C",
        "QD KD AD AD 2D JK",
        "5C 5D 6C 7C 7D JK JK",
    ],
    ids=lambda x: str(x) or "empty",
)
def test_iter_melds_equals_brute_force(hand: str) -> None:
    cards = parse_cards(hand)
    found = melds_of(cards)
    keys = [key(m) for m in found]
    assert len(keys) == len(set(keys)), "a meld is listed twice"
    assert set(keys) == brute_force(cards)


@pytest.mark.parametrize(
    "hand",
    [
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK",
    ],
    ids=["A-to-K", "A-to-A", "2-to-K-and-joker"],
)
def test_iter_melds_long_runs(hand: str) -> None:
    cards = parse_cards(hand)
    keys = [key(m) for m in melds_of(cards)]
    assert len(keys) == len(set(keys)), "a meld is listed twice"
    assert key(check_meld(cards).readings[0]) in keys
    for meld in melds_of(cards):
        assert check_meld(str(meld)).ok, str(meld)


def test_iter_melds_finds_the_full_run() -> None:
    cards = parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    fourteen = [str(m) for m in melds_of(cards) if len(m) == 14]
    assert fourteen == ["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"]


def test_iter_melds_with_one_ace_and_a_joker_for_the_other() -> None:
    # The joker could stand for the low or the high ace: the same cards, so one meld.
    cards = parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK")
    fourteen = [str(m) for m in melds_of(cards) if len(m) == 14]
    assert fourteen == ["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK@AH"]


def test_iter_melds_with_two_aces_lists_each_move_once() -> None:
    cards = parse_cards("AH AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK")
    melds = list(melds_of(cards))
    moves = [tuple(sorted(m.cards, key=Card.sort_key)) for m in melds]
    assert len(moves) == len(set(moves))
    fourteen = {str(m) for m in melds if len(m) == 14}
    either = {
        "JK@AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK@AH",
    }
    assert len(either & fourteen) == 1  # the joker for one ace and a natural ace: one move


def _hands(max_naturals: int, max_jokers: int, pool: list[Card]) -> st.SearchStrategy[list[Card]]:
    """Small hands drawn without replacement from `pool` (each card as often as the deck has it)
    plus up to `max_jokers` jokers."""
    picks = st.lists(st.integers(0, len(pool) - 1), max_size=max_naturals, unique=True)
    return st.builds(
        lambda idx, jokers: [pool[i] for i in idx] + [JOKER] * jokers,
        picks,
        st.integers(0, max_jokers),
    )


SMALL_HANDS = _hands(6, 2, NATURALS_2_PACKS)
DENSE_POOL = [c for c in NATURALS_2_PACKS if c.suit in "HS" and c.rank in {1, 2, 3, 5, 6, 12, 13}]
DENSE_HANDS = _hands(6, 2, DENSE_POOL)


@settings(max_examples=100, deadline=None)
@given(st.one_of(SMALL_HANDS, DENSE_HANDS))
def test_iter_melds_equals_brute_force_on_random_hands(hand: list[Card]) -> None:
    found = melds_of(hand)
    keys = [key(m) for m in found]
    assert len(keys) == len(set(keys))
    assert set(keys) == brute_force(hand)


@settings(max_examples=150, deadline=None)
@given(st.one_of(_hands(9, 3, NATURALS_2_PACKS), _hands(9, 3, DENSE_POOL)))
def test_iter_melds_yields_only_legal_melds_from_the_hand(hand: list[Card]) -> None:
    counts = Counter(hand)
    seen = set()
    for meld in iter_melds(to_counts(hand), RULES):
        verdict = check_meld(str(meld))
        assert verdict.ok, str(meld)
        assert meld in verdict.readings
        assert not Counter(meld.physical) - counts, "uses a card the hand lacks"
        assert meld not in seen
        seen.add(meld)


@pytest.mark.parametrize("hand", ["JK JK JK", "JK JK JK 5H", "JK JK JK JK"], ids=str)
def test_iter_melds_all_joker_house_rule(hand: str) -> None:
    cards = parse_cards(hand)
    found = melds_of(cards, ALL_JOKERS)
    assert len(found) == len(set(found))
    assert any(m.jokers == len(m) for m in found)
    for meld in found:
        assert check_meld(str(meld), ALL_JOKERS).ok, str(meld)
    assert not any(m.jokers == len(m) for m in melds_of(cards))
    assert first_meld(to_counts(cards), ALL_JOKERS) is not None


# -- first_meld --------------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.one_of(_hands(8, 3, NATURALS_2_PACKS), DENSE_HANDS), st.booleans())
def test_first_meld_exactly_when_iter_melds_finds_one(hand: list[Card], all_jokers: bool) -> None:
    rules = ALL_JOKERS if all_jokers else RULES
    counts = to_counts(hand)
    first = first_meld(counts, rules)
    any_meld = next(iter_melds(counts, rules), None)
    assert (first is None) == (any_meld is None)
    if first is not None:
        assert check_meld(str(first), rules).ok
        assert not Counter(first.physical) - Counter(hand)


@pytest.mark.parametrize(
    ("hand", "has_meld"),
    [
        ("", False),
        ("5H 6H", False),
        ("5H 7H 9H", False),
        ("KH AH 2H", False),
        ("5H 6D 7C", False),
        ("JK JK", False),
        ("JK JK JK", False),
        ("7H 7H 7C", True),
        ("QH KH AH", True),
        ("KH 2H JK", False),
        ("5D JK JK", True),
        ("AH JK 3H", True),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_first_meld_examples(hand: str, has_meld: bool) -> None:
    assert (first_meld(to_counts(parse_cards(hand)), RULES) is not None) == has_meld


# -- find_action agrees with can_play ----------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(positions(), st.booleans())
def test_find_action_agrees_with_can_play(
    position: tuple[list[Card], list[Meld]], passport: bool
) -> None:
    hand, table = position
    action = find_action(to_counts(hand), table, passport, RULES)
    verdict = can_play(hand, table, passport)
    assert (action is not None) == verdict.ok
    if action is not None:
        assert action.rule == verdict.rule
    else:
        assert verdict.rule == ("dead" if passport else "dead.passport")


@settings(max_examples=150, deadline=None)
@given(positions(), st.booleans())
def test_find_action_is_legal_step_by_step(
    position: tuple[list[Card], list[Meld]], passport: bool
) -> None:
    hand, table = position
    action = find_action(to_counts(hand), table, passport, RULES)
    if action is None:
        return
    held = Counter(hand)
    table = list(table)
    if action.swaps:
        assert passport
        assert action.rule == "swap"
    for option in action.swaps:
        assert held[option.card] > 0
        assert check_swap(table[option.target], option.card).ok
        held[option.card] -= 1
        held[JOKER] += 1
        table[option.target] = option.result
    if action.meld is not None:
        assert check_meld(str(action.meld)).ok
        assert not Counter(action.meld.physical) - held
        if not action.swaps:
            assert action.rule == action.meld.kind.value
    else:
        assert passport
        assert action.lay_off is not None
        card = action.lay_off.card
        assert held[card.plain] > 0
        assert check_lay_off(table[action.lay_off.target], card).ok
        if not action.swaps:
            assert action.rule == "lay-off"


def test_find_action_chain_of_two_swaps() -> None:
    table = [
        table_meld("JK@AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"),
        table_meld("JK@AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),
    ]
    action = find_action(to_counts(parse_cards("AS AH 5D")), table, True, RULES)
    assert action is not None
    assert action.rule == "swap"
    assert len(action.swaps) == 2
    assert action.meld is not None
    assert check_meld(str(action.meld)).ok
    assert find_action(to_counts(parse_cards("AS 5D")), table, True, RULES) is None
