"""Matches: counts add up over the agreed deals, and the dealer moves by the rule book's systems."""

from __future__ import annotations

import pytest

from penang_lib import DealerSystem, Match, Rules, next_dealer
from penang_lib.engine.bots import play_move, seat_bots
from tests.play import play_randomly


@pytest.mark.parametrize(
    ("previous", "scores", "winners", "expected"),
    [
        (0, [30, 0, 50, 40], [1], 1),  # the winner deals
        (2, [10, 10, 50, 40], [0, 1], 0),  # tie: nearest clockwise from seat 3 (dealer's left)
        (0, [10, 10, 50, 40], [0, 1], 1),  # tie: from seat 1, seat 1 comes first
        (3, [10, 20, 30, 40], [0], 0),
    ],
)
def test_the_winner_deals_next(
    previous: int, scores: list[int], winners: list[int], expected: int
) -> None:
    assert next_dealer(previous, scores, winners, DealerSystem.WINNER) == expected


@pytest.mark.parametrize(
    ("previous", "scores", "expected"),
    [
        (0, [30, 0, 50, 40], 2),  # the highest count deals
        (0, [50, 0, 50, 40], 2),  # tie between 0 and 2: seat 1 is the dealer's left, then 2
        (2, [50, 0, 50, 40], 0),  # from seat 3 the next tied seat is 0
        (1, [5, 5, 5], 2),  # everyone tied: the dealer's left
    ],
)
def test_the_worst_loser_deals_next(previous: int, scores: list[int], expected: int) -> None:
    winners = [p for p, s in enumerate(scores) if s == min(scores)]
    assert next_dealer(previous, scores, winners, DealerSystem.WORST_LOSER) == expected


@pytest.mark.parametrize("system", list(DealerSystem))
def test_a_match_adds_counts_and_moves_the_dealer(system: DealerSystem) -> None:
    match = Match(players=4, deals=3, seed=9, rules=Rules(dealer_system=system))
    for number in range(3):
        deal = match.new_deal()
        if number:
            last = match.deals[-2]
            scores = last.scores
            if system is DealerSystem.WINNER:
                assert deal.dealer in last.winners
            else:
                assert scores[deal.dealer] == max(scores)
            # Among tied candidates, the nearest clockwise from the last dealer's left deals.
            tied = [
                p
                for p in range(4)
                if (
                    p in last.winners if system is DealerSystem.WINNER else scores[p] == max(scores)
                )
            ]
            order = [(last.dealer + step) % 4 for step in range(1, 5)]
            assert deal.dealer == next(p for p in order if p in tied)
        play_randomly(deal, number)
    assert match.is_over
    assert match.deal_winners == [d.winners for d in match.deals]
    if system is DealerSystem.WINNER:
        assert match.points_recorded
        assert match.totals == [sum(d.scores[p] for d in match.deals) for p in range(4)]
        assert match.winners == [p for p in range(4) if match.totals[p] == min(match.totals)]
    else:  # no points recorded: each deal is won on its own, nothing adds up
        assert not match.points_recorded
        assert match.totals == [] and match.winners == []


def test_with_no_points_recorded_there_is_no_total_and_no_match_winner() -> None:
    """Rule `scoring`: the counts add up only in a match with points recorded; rule `dealer`:
    without them the worst loser deals, so a count decides only who deals next."""
    match = Match(players=3, deals=2, seed=4, rules=Rules(dealer_system=DealerSystem.WORST_LOSER))
    for number in range(2):
        play_randomly(match.new_deal(), number)
        assert match.totals == []
        assert match.deal_winners[-1] == match.deals[-1].winners
    assert match.is_over and match.winners == []
    for deal, won in zip(match.deals, match.deal_winners, strict=True):
        assert won == [p for p in range(3) if deal.scores[p] == min(deal.scores)]


def test_a_match_is_reproducible_by_seed() -> None:
    first, second = Match(players=3, deals=2, seed=4), Match(players=3, deals=2, seed=4)
    for match in (first, second):
        for number in range(2):
            play_randomly(match.new_deal(), number)
    assert first.totals == second.totals
    assert [d.initial_hands for d in first.deals] == [d.initial_hands for d in second.deals]


def test_the_next_deal_waits_for_the_current_one() -> None:
    match = Match(players=2, deals=2, seed=1)
    match.new_deal()
    with pytest.raises(ValueError, match="not over"):
        match.new_deal()
    assert match.winners == []


def test_a_match_stops_at_the_agreed_number_of_deals() -> None:
    match = Match(players=2, deals=1, seed=1)
    play_randomly(match.new_deal(), 0)
    with pytest.raises(ValueError, match="1 deals"):
        match.new_deal()


def test_a_match_needs_a_legal_table() -> None:
    with pytest.raises(ValueError, match="players"):
        Match(players=6)
    with pytest.raises(ValueError, match="at least one deal"):
        Match(players=4, deals=0)


# -- bots play a match (the loop MatchSheet drives) ---------------------------------------------
def test_play_next_plays_one_deal_to_its_end_with_the_seeded_bots() -> None:
    match = Match(players=3, deals=2, seed=11)
    deal = match.play_next("careful,random")
    assert deal is match.deals[0] and deal.is_over and len(match.deals) == 1
    # By hand, as the loop should: the same deal, bots seeded from its seed, played to the end.
    again = Match(players=3, deals=2, seed=11).new_deal()
    seats = seat_bots(["careful", "random", "careful"], again.seed)
    while not again.is_over:
        play_move(again, seats[again.turn])
    assert again.move_stack == deal.move_stack and again.scores == deal.scores


def test_play_rest_plays_every_deal_left_and_then_nothing() -> None:
    match = Match(players=4, deals=3, seed=5)
    first = match.play_next()
    rest = match.play_rest(["random"])
    assert [first, *rest] == match.deals and len(match.deals) == 3
    assert match.is_over and all(d.is_over for d in match.deals) and match.winners
    assert match.play_next() is None and match.play_rest() == [] and len(match.deals) == 3


def test_the_same_seed_plays_the_same_match() -> None:
    a, b = Match(players=2, deals=3, seed=9), Match(players=2, deals=3, seed=9)
    a.play_rest("careful")
    b.play_rest(["careful"])
    assert [d.move_stack for d in a.deals] == [d.move_stack for d in b.deals]
    assert a.totals == b.totals


def test_play_next_refuses_an_unknown_bot_before_dealing() -> None:
    match = Match(players=2, deals=2, seed=1)
    with pytest.raises(ValueError, match="nobody"):
        match.play_next("nobody")
    assert match.deals == []
