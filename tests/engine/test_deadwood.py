"""`least_deadwood`: the smallest count a hand can keep after laying down melds (rule `scoring`).

A brute force here tries every collection of disjoint melds of small hands (each meld that
`iter_melds` finds, taken off in turn, with memory) and must agree with the fast search on
hundreds of random hands, jokers and both aces included. Every answer is checked too: each meld
is legal by `check_meld`, the melds and the deadwood are exactly the hand, and the deadwood
counts `points`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from penang_lib import (
    JOKER,
    Card,
    Kind,
    Rules,
    check_meld,
    deadwood_points,
    parse_cards,
)
from penang_lib.engine import deadwood
from penang_lib.engine.analysis import iter_melds
from penang_lib.engine.cards import JOKER_INDEX, Counts, from_counts, full_deck, to_counts
from penang_lib.engine.checks import counts_points
from penang_lib.engine.deadwood import (
    FREE_JOKERS,
    DeadwoodResult,
    clear_cache,
    least_deadwood,
    least_deadwood_points,
)

ALL_JOKERS = Rules(all_joker_melds=True)
FULL_HEARTS = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


# -- the brute force ------------------------------------------------------------------------------
def brute_force(counts: Counts, rules: Rules) -> int:
    """Least deadwood by trying every collection of disjoint melds (small hands only)."""

    @cache
    def solve(hand: Counts) -> int:
        best = counts_points(hand, rules)
        for meld in iter_melds(hand, rules):
            rest = list(hand)
            for card in meld.physical:
                rest[card.index] -= 1
            assert min(rest) >= 0, f"iter_melds offered {meld} from {from_counts(hand)}"
            best = min(best, solve(tuple(rest)))
        return best

    return solve(counts)


def assert_sound(hand: Sequence[Card], result: DeadwoodResult, rules: Rules) -> None:
    """The melds are legal and disjoint, melds + deadwood are the hand, the count adds up."""
    for meld in result.melds:
        verdict = check_meld(str(meld), rules)
        assert verdict.ok, f"{meld} is not a meld: {verdict.reason}"
        assert verdict.kind is not None
    laid = [card.plain for meld in result.melds for card in meld.cards]
    assert Counter(laid) + Counter(result.deadwood) == Counter(c.plain for c in hand)
    assert all(card.as_rank is None for card in result.deadwood)
    assert deadwood_points(list(result.deadwood), rules) == result.points


def check_hand(hand: Sequence[Card], rules: Rules) -> DeadwoodResult:
    result = least_deadwood(hand, rules)
    assert_sound(hand, result, rules)
    expected = brute_force(to_counts(hand), rules)
    assert result.points == expected, f"{' '.join(map(str, hand))}: {result} != {expected}"
    assert least_deadwood_points(hand, rules) == expected
    return result


# -- random small hands that make melds -----------------------------------------------------------
@st.composite
def close_hands(
    draw: st.DrawFn, min_size: int = 6, max_size: int = 10, max_jokers: int = 6, packs: int = 2
) -> list[Card]:
    """A hand from `packs` packs + `max_jokers` jokers, crowded into a few ranks and suits.

    Ranks come from a window of five run positions (often A-5 or 10-A, 14 being the high ace),
    suits from one or two, plus aces of those suits and a few cards from anywhere, so that runs,
    sets, jokers and both aces all matter. No card is drawn more often than the deck holds it.
    """
    low = draw(st.sampled_from([1, 10]) | st.integers(1, 10))  # ace windows half the time
    suits = draw(st.lists(st.sampled_from("SHDC"), min_size=1, max_size=2, unique=True))
    jokers = draw(st.integers(0, max_jokers))
    near = st.builds(
        lambda position, suit: Card(1 if position == 14 else position, suit),
        st.integers(low, low + 4),
        st.sampled_from(suits),
    )
    aces = st.builds(Card, st.just(1), st.sampled_from(suits))
    anywhere = st.sampled_from(full_deck(1, 0))
    naturals = draw(
        st.lists(
            st.one_of(near, near, near, aces, anywhere),
            min_size=max(0, min_size - jokers),
            max_size=max(0, max_size - jokers),
        )
    )
    held: Counter[Card] = Counter()
    hand = [JOKER] * jokers
    for card in naturals:
        if held[card] < packs:  # no more copies than the deck holds
            held[card] += 1
            hand.append(card)
    return hand


@settings(max_examples=400, deadline=None)
@given(close_hands())
def test_least_deadwood_is_exact_on_small_hands(hand: list[Card]) -> None:
    check_hand(hand, Rules())


@st.composite
def ace_hands(draw: st.DrawFn) -> list[Card]:
    """6-10 cards from both ends of one or two suits (A 2 3 4, J Q K, two packs) + 0-2 jokers:
    the aces may go low, high, or one of each."""
    suits = draw(st.lists(st.sampled_from("SHDC"), min_size=1, max_size=2, unique=True))
    pool = [Card(rank, suit) for suit in suits for rank in (1, 2, 3, 4, 11, 12, 13) for _ in "12"]
    picks = draw(st.lists(st.sampled_from(range(len(pool))), min_size=6, max_size=10, unique=True))
    return [pool[i] for i in picks] + [JOKER] * draw(st.integers(0, 2))


@settings(max_examples=150, deadline=None)
@given(ace_hands())
def test_exact_when_aces_go_low_and_high(hand: list[Card]) -> None:
    check_hand(hand, Rules())


@settings(max_examples=150, deadline=None)
@given(close_hands())
def test_exact_with_all_joker_melds(hand: list[Card]) -> None:
    check_hand(hand, ALL_JOKERS)


@settings(max_examples=100, deadline=None)
@given(close_hands(min_size=1, max_size=6, max_jokers=0), st.integers(10, 12), st.booleans())
def test_exact_with_more_jokers_than_any_deck(
    naturals: list[Card], jokers: int, all_jokers: bool
) -> None:
    """Ten or more jokers: the search may put jokers in place of naturals (see the docstring)."""
    hand = [*naturals, *[JOKER] * jokers]
    assert jokers > FREE_JOKERS
    check_hand(hand, Rules(jokers=20, all_joker_melds=all_jokers))


@settings(max_examples=100, deadline=None)
@given(close_hands(), st.integers(0, 30), st.integers(0, 20) | st.just(400), st.integers(0, 12))
def test_exact_with_other_card_values(hand: list[Card], joker: int, ace: int, low: int) -> None:
    """House values, zero ones included: the search never assumes the default table (and with
    values too big for its bound, it goes without one)."""
    values = {**Rules().values, "JK": joker, "A": ace, "2": low, "3": low}
    check_hand(hand, Rules(values=values))


def test_exact_on_seeded_hands_from_the_deck() -> None:
    """Plain random 8-card hands from the 110-card deck (mostly no meld at all)."""
    rng = random.Random(7)
    deck = full_deck(2, 6)
    for _ in range(150):
        check_hand(rng.sample(deck, 8), Rules())


# -- bigger hands: the shortcuts agree with the plain search ------------------------------------
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(10, 25), st.booleans())
def test_shortcuts_lose_nothing_on_bigger_hands(seed: int, size: int, all_jokers: bool) -> None:
    """With at most 9 jokers the search skips pieces that waste a joker and prunes by bounds;
    the plain search (the one for 10+ jokers: every piece, no bound) finds the same count, on
    hands as big as a real deal's."""
    from penang_lib.engine.deadwood import _least_cost, _pack, _solver_for, _values

    rules = Rules(all_joker_melds=all_jokers)
    rng = random.Random(seed)
    counts = to_counts(rng.sample(full_deck(2, 8), size))
    jokers = counts[JOKER_INDEX]
    values = _values(rules)
    state = _pack(counts)
    quick = _least_cost(state, jokers, values, all_jokers)
    plain = _solver_for(values, all_jokers, True).search(state, jokers, 0, 0)
    assert quick == plain
    assert least_deadwood(counts, rules).points == quick // 1024


def assert_bound_holds(naturals: Sequence[Card], jokers: int, ace: int = 15) -> None:
    """`_lower_bound`, by which the search prunes, never exceeds the true least cost of the
    naturals with `jokers` jokers (counting nothing), which the plain search works out in full."""
    from penang_lib.engine.deadwood import SCALE, _lower_bound, _pack, _solver_for, _values

    values = _values(Rules(values={**Rules().values, "JK": 0, "A": ace}))
    state = _pack(to_counts(naturals))
    bound = _lower_bound([values[4 * p] // SCALE for p in range(14)])
    exact = _solver_for(values, False, True).search(state, jokers, 0, 0)
    assert bound(state, jokers) <= exact, f"{' '.join(map(str, naturals))} + {jokers} jokers"


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 25), st.integers(0, 4), st.booleans())
def test_the_bound_is_a_lower_bound(seed: int, size: int, jokers: int, aces: bool) -> None:
    rng = random.Random(seed)
    deck = full_deck(2, 0)
    if aces:  # crowd the hand towards both ends, where aces go low or high
        deck = [c for c in deck if c.rank in (1, 2, 3, 4, 11, 12, 13)]
    assert_bound_holds(rng.sample(deck, size), jokers, rng.choice([15, 1, 0]))


@settings(max_examples=300, deadline=None)
@given(close_hands(max_jokers=0), st.integers(0, 4))
def test_the_bound_is_a_lower_bound_on_crowded_hands(naturals: list[Card], jokers: int) -> None:
    assert_bound_holds(naturals, jokers)


@pytest.mark.parametrize(
    ("hand", "jokers"),
    [("5H 6H 8H 9H", 1), ("5H 6H 8H 9H 5C 6C 8C 9C", 2), ("QH KH 2H 3H AH", 0), ("9S JS KS", 2)],
)
def test_the_bound_when_one_joker_saves_four_cards(hand: str, jokers: int) -> None:
    assert_bound_holds(parse_cards(hand), jokers)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([20, 25]))
def test_answers_are_sound_on_dealt_hands(seed: int, size: int) -> None:
    rng = random.Random(seed)
    hand = rng.sample(full_deck(2, 8), size)
    result = least_deadwood(hand)
    assert_sound(hand, result, Rules())
    assert result.points <= deadwood_points(hand)


# -- hand-made cases ------------------------------------------------------------------------------
def test_empty_hand_counts_nothing() -> None:
    assert least_deadwood("") == DeadwoodResult(0, (), ())
    assert least_deadwood([]) == DeadwoodResult(0, (), ())
    assert least_deadwood((0,) * 53).points == 0


def test_full_run_of_fourteen_is_one_meld() -> None:
    result = least_deadwood(FULL_HEARTS)
    assert result.points == 0
    assert [str(m) for m in result.melds] == [FULL_HEARTS]
    assert result.deadwood == ()


def test_full_run_with_a_joker_for_the_second_ace() -> None:
    result = check_hand(parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK"), Rules())
    assert result.points == 0


@pytest.mark.parametrize(
    ("hand", "melds"),
    [
        ("AH 2H 3H QH KH AH", ["AH 2H 3H", "QH KH AH"]),
        ("AS AS AD AH 2H 3H", ["AS AS AD", "AH 2H 3H"]),
        ("AD AD QD KD 2D 3D", ["AD 2D 3D", "QD KD AD"]),
    ],
)
def test_aces_are_used_twice(hand: str, melds: list[str]) -> None:
    result = check_hand(parse_cards(hand), Rules())
    assert result.points == 0
    assert sorted(str(m) for m in result.melds) == sorted(melds)


def test_a_lone_ace_goes_where_it_saves_most() -> None:
    # AH with 2H 3H (low) or with QH KH (high): one pair stays dead, the cheaper one is 2H 3H.
    result = check_hand(parse_cards("AH 2H 3H QH KH"), Rules())
    assert result.points == 5
    assert [str(m) for m in result.melds] == ["QH KH AH"]


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        ("5H 6H JK 9C", 9),
        ("9C JK JK", 0),
        ("9C KD JK JK", 9),
        ("JK 9C 9D KD KS", 18),
        ("4S 6S 8S JK JK", 0),
        ("7H 7H 7C 8C 9C JK", 0),
        ("2S 2S 3D JK 10H JH JK", 3),
    ],
)
def test_jokers_lower_the_count(hand: str, points: int) -> None:
    cards = parse_cards(hand)
    result = check_hand(cards, Rules())
    assert result.points == points
    assert result.points < deadwood_points(cards)
    assert JOKER not in result.deadwood


@pytest.mark.parametrize(
    "hand", ["2S 5H 9D KC", "AH KS 10D 5C JK", "JK JK", "AS 2S 4S 5S 7D 7C", "KH AH 2H"]
)
def test_no_meld_leaves_the_plain_count(hand: str) -> None:
    result = check_hand(parse_cards(hand), Rules())
    assert result.melds == ()
    assert result.points == deadwood_points(hand)


def test_all_joker_melds_house_rule() -> None:
    assert least_deadwood("JK JK JK").points == 60
    result = check_hand(parse_cards("JK JK JK KH"), ALL_JOKERS)
    assert result.points == 0
    result = check_hand(parse_cards("JK JK JK 2S 9D"), ALL_JOKERS)
    assert result.points == 2
    assert [m.kind for m in result.melds] == [Kind.SET]
    assert check_hand(parse_cards("JK JK JK"), ALL_JOKERS).points == 0


def test_more_jokers_than_a_run_can_hold() -> None:
    # Twelve jokers and 5H 6H 7H: a set of fives takes any number of jokers.
    hand = parse_cards("5H 6H 7H " + "JK " * 12)
    result = check_hand(hand, Rules(jokers=20))
    assert result.points == 0


def test_card_values_come_from_the_rules() -> None:
    values = {**Rules().values, "JK": 50, "K": 13}
    rules = Rules(values=values)
    assert least_deadwood("KS JK", rules).points == 63
    assert least_deadwood("KS KD JK", rules).points == 0


def test_every_way_to_give_a_hand_agrees() -> None:
    text = "7H 8H 9H JK 2C 2D QS"
    cards = parse_cards(text)
    by_text = least_deadwood(text)
    assert least_deadwood(cards) == by_text
    assert least_deadwood(to_counts(cards)) == by_text
    assert least_deadwood(tuple(cards)) == by_text
    assert by_text.points == 10


def test_results_do_not_depend_on_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    hand = "3C 4C 5C 5C 6C 7C 7S 7D JK QD QS"
    first = least_deadwood(hand)
    clear_cache()
    assert least_deadwood(hand) == first
    rng = random.Random(3)
    hands = [rng.sample(full_deck(2, 8), 20) for _ in range(30)]
    expected = [least_deadwood(h) for h in hands]
    monkeypatch.setattr(deadwood, "CACHE_SIZE", 50)  # the table is emptied again and again
    clear_cache()
    for h, result in zip(hands, expected, strict=True):
        assert least_deadwood_points(h) == result.points
        assert least_deadwood(h) == result


def test_bad_hands_are_refused() -> None:
    with pytest.raises(ValueError):
        least_deadwood((-1,) + (0,) * 52)
    with pytest.raises(ValueError):
        least_deadwood("5H ZZ")
    with pytest.raises(ValueError):
        least_deadwood("5H", Rules(values={**Rules().values, "5": -1}))
