"""penang_lib.data.frames: the frames every widget shows, checked against the deal they describe."""

from __future__ import annotations

import pytest

from penang_lib import Deal, Match, explain, parse_move, play_deal
from penang_lib.data.frames import (
    HAND_COLUMNS,
    LOG_COLUMNS,
    SCORE_COLUMNS,
    TABLE_COLUMNS,
    changes,
    hands_frame,
    log_frame,
    match_frame,
    move_turns,
    scores_frame,
    step_changes,
    table_frame,
)
from penang_lib.engine.bots import make_bot, play_move
from penang_lib.engine.cards import Card, parse_cards
from penang_lib.engine.rules import DealerSystem, Rules


@pytest.fixture(scope="module")
def finished() -> Deal:
    return play_deal(5, players=4, bots=["careful", "greedy", "random", "careful"])


def test_hands_frame_has_one_row_per_seat_with_the_hand(finished: Deal) -> None:
    frame = hands_frame(finished)
    assert tuple(frame.columns) == HAND_COLUMNS
    assert list(frame["seat"]) == list(range(4))
    for seat, row in frame.iterrows():
        assert list(row["cards"]) == finished.hand(int(str(seat)))
        assert row["card_count"] == finished.hand_size(int(str(seat)))
        assert row["points"] == finished.count(int(str(seat)))
    assert not frame["to_move"].any()  # the deal is over


def test_hidden_hands_carry_no_cards_and_no_points() -> None:
    deal = Deal(players=4, seed=3)
    frame = hands_frame(deal, show=[deal.turn])
    for _, row in frame.iterrows():
        if row["seat"] == deal.turn:
            assert list(row["cards"]) == deal.hand(deal.turn)
            assert row["to_move"]
        else:
            assert row["cards"] is None
            assert row["points"] is pd_na()
            assert row["card_count"] == 20


def pd_na() -> object:
    import pandas as pd

    return pd.NA


def test_table_frame_lists_melds_in_order_with_owners_and_jokers() -> None:
    deal = Deal(hands=["5H 6H JK 9C 9D 9S 2S", "2C 3C 4C KD KS KH 8D"], dealer=1)
    deal.push(parse_move("meld 5H 6H JK@7H"))
    deal.push(parse_move("meld 9C 9D 9S"))
    frame = table_frame(deal)
    assert tuple(frame.columns) == TABLE_COLUMNS
    assert list(frame["meld"]) == [0, 1]
    assert list(frame["owner"]) == ["North", "North"]
    assert list(frame["kind"]) == ["run", "set"]
    assert frame["cards"][0] == tuple(parse_cards("5H 6H JK@7H"))
    assert list(frame["jokers"]) == [1, 0]
    assert frame["description"][1] == deal.table[1].description


def test_an_empty_table_is_an_empty_frame_with_the_columns() -> None:
    frame = table_frame(Deal(players=3, seed=1))
    assert frame.empty and tuple(frame.columns) == TABLE_COLUMNS


def test_log_frame_matches_the_move_stack_and_the_sentences(finished: Deal) -> None:
    frame = log_frame(finished)
    assert tuple(frame.columns) == LOG_COLUMNS
    assert len(frame) == len(finished.move_stack)
    for i, row in frame.iterrows():
        k = int(str(i))
        events = finished.event_stack[k]
        assert row["step"] == k + 1
        assert row["seat"] == finished.movers[k]
        assert row["move"] == finished.move_stack[k].label()
        assert row["rule"] == events[0].rule
        assert row["rules"] == tuple(e.rule for e in events)
        assert row["sentence"] == " ".join(explain(e, finished.names) for e in events)
    assert len(log_frame(finished, 7)) == 7
    assert len(log_frame(finished, 10**6)) == len(finished.move_stack)


def test_the_log_shows_a_meld_as_it_lies_on_the_table() -> None:
    deal = Deal(hands=["AD QD KD 9C", "2C 3C 4C 8D"], dealer=1)
    deal.push(parse_move("meld AD QD KD"))
    assert log_frame(deal)["move"][0] == "meld Q♦ K♦ A♦" == f"meld {deal.table[0].symbols}"
    # Cards that read more than one way are shown as given.
    assert parse_move("meld 5H 6H JK").label() == "meld 5♥ 6♥ 🃏"


def test_turn_numbers_grow_by_one_after_each_turn_change(finished: Deal) -> None:
    turns = move_turns(finished)
    assert turns[0] == 1
    for k in range(1, len(turns)):
        passed = any(e.rule == "turn-order" for e in finished.event_stack[k - 1])
        assert turns[k] == turns[k - 1] + (1 if passed else 0)
    # Every turn started is counted once in the deal's own tally.
    assert turns[-1] == finished.turn_number


def test_scores_frame_agrees_with_the_deal(finished: Deal) -> None:
    frame = scores_frame(finished)
    assert tuple(frame.columns) == SCORE_COLUMNS
    assert list(frame["count"]) == finished.scores
    assert [s for s in frame["seat"] if frame["winner"][s]] == finished.winners
    assert not scores_frame(Deal(players=4, seed=2))["winner"].any()


def test_step_changes_name_the_cards_that_left_and_the_meld_they_went_to() -> None:
    deal = Deal(hands=["5H 6H JK 7H 9C 9D 9S", "2C 3C 4C KD KS KH 8D"], dealer=1)
    deal.push(parse_move("meld 5H 6H JK@7H"))
    change = step_changes(deal, 1)
    assert change.seat == 0
    assert sorted(change.left_hand, key=Card.sort_key) == sorted(
        parse_cards("5H 6H JK@7H"), key=Card.sort_key
    )
    assert change.melds == (0,)
    assert "passport" in change.rules and "run" in change.rules
    deal.push(parse_move("swap 0 7H"))
    swap = step_changes(deal, 2)
    assert swap.left_hand == tuple(parse_cards("7H"))
    assert [c.plain for c in swap.taken] == parse_cards("JK")
    assert swap.melds == (0,)
    with pytest.raises(IndexError):
        step_changes(deal, 3)
    assert step_changes(deal, 0).seat is None


def test_changes_name_the_dead_and_the_player_who_went_out() -> None:
    deal = Deal(hands=["5H 6H 7H", "2C 9D KS"], dealer=1)
    deal.push(parse_move("meld 5H 6H 7H"))
    deal.push(parse_move("game"))
    assert changes(deal.event_stack[-1], 0).went_out == 0
    dead = Deal(hands=["2C 9D KS", "5H 6H 7H 8H"], dealer=1)
    dead.push(parse_move("dead"))
    assert step_changes(dead, 1).died == (0,)
    assert "dead.passport" in step_changes(dead, 1).rules


def _play_match(match: Match) -> None:
    for _ in range(match.length):
        deal = match.new_deal()
        seats = [make_bot("careful", seat) for seat in range(match.players)]
        while not deal.is_over:
            play_move(deal, seats[deal.turn])


@pytest.mark.parametrize("system", list(DealerSystem))
def test_match_frame_adds_up_and_names_the_next_dealer(system: DealerSystem) -> None:
    match = Match(players=3, deals=3, seed=4, rules=Rules(dealer_system=system))
    _play_match(match)
    frame = match_frame(match)
    names = list(match.deals[0].names)
    assert list(frame["deal"]) == [1, 2, 3]
    for p, name in enumerate(names):
        assert list(frame[name]) == [d.scores[p] for d in match.deals]
        if system is DealerSystem.WINNER:
            assert frame[f"{name} total"].iloc[-1] == match.totals[p]
        else:  # no points recorded: nothing adds up, so the sheet keeps no total
            assert f"{name} total" not in frame.columns
    assert list(frame["winners"]) == [", ".join(names[w] for w in d.winners) for d in match.deals]
    for k in range(2):
        assert frame["next_dealer"][k] == names[match.deals[k + 1].dealer]
        assert frame["dealer"][k + 1] == frame["next_dealer"][k]
    word = "won" if system is DealerSystem.WINNER else "highest count"
    assert word in frame["why"][0]
    assert frame["next_dealer"].iloc[-1] == ""


def test_match_frame_of_a_match_not_started_is_empty() -> None:
    frame = match_frame(Match(players=4, deals=2, seed=1))
    assert frame.empty and "North total" in frame.columns
