"""Bots playing up to one player's turn (`play_until`), seated around that player (`bots_around`),
and the one move a player is left with when Dead or Game is due (`forced_move`)."""

from __future__ import annotations

import itertools
import random

import pytest

from penang_lib import (
    Deal,
    DeclareDead,
    DeclareGame,
    EndTurn,
    MeldMove,
    PlayerView,
    Status,
    play_deal,
)
from penang_lib.engine.bots import (
    MAX_MOVES,
    bot_names,
    bots_around,
    forced_move,
    make_bot,
    play_move,
    play_until,
    seat_bots,
)
from penang_lib.engine.validate import ArgumentTypeError
from tests.conftest import prepared


# -- bots_around ---------------------------------------------------------------------------------
def test_bots_sit_clockwise_from_the_learners_left_seeded_by_seat() -> None:
    deal = Deal(players=4, seed=3)
    bots = bots_around(deal, 1, "random,greedy")
    assert list(bots) == [2, 3, 0]
    assert [bots[p].name for p in (2, 3, 0)] == ["random", "greedy", "random"]
    # Each bot is the one make_bot seeds from the deal's seed and its seat.
    while deal.turn != 2:
        play_move(deal, make_bot("careful"))
    view = PlayerView.of(deal)
    assert bots[2].choose(view) == make_bot("random", 3 * 10 + 2).choose(view)


def test_bots_around_takes_the_default_bot_and_refuses_a_seat_not_at_the_table() -> None:
    deal = Deal(players=3, seed=1)
    assert {b.name for b in bots_around(deal, 0).values()} == {"careful"}
    with pytest.raises(ValueError, match="seat should be from 0 to 2"):
        bots_around(deal, 3)
    with pytest.raises(ArgumentTypeError):
        bots_around("deal", 0)  # type: ignore[arg-type]


# -- play_until ----------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 7])
def test_the_bots_play_up_to_the_learners_turn(seed: int) -> None:
    deal = Deal(players=4, seed=seed)
    me = (deal.turn + 2) % 4
    bots = bots_around(deal, me, "careful,greedy,random")
    played = play_until(deal, bots, me)
    assert len(played) >= 2  # two bots move before the learner
    assert deal.turn == me or deal.is_over
    assert all(seat != me for seat, _ in played)
    # The choices are the moves pushed, in order, by the bot of the seat named.
    assert [c.move for _, c in played] == deal.move_stack[-len(played) :]
    assert [seat for seat, _ in played] == list(deal.movers[-len(played) :])
    # The same bots, moved one by one, play the same moves.
    twin = Deal(players=4, seed=seed)
    twin_bots = bots_around(twin, me, "careful,greedy,random")
    by_hand = []
    while not twin.is_over and twin.turn != me:
        seat = twin.turn
        by_hand.append((seat, play_move(twin, twin_bots[seat])))
    assert by_hand == played and twin == deal


def test_nothing_is_played_when_it_is_already_the_seats_turn() -> None:
    deal = Deal(players=3, seed=4)
    before = deal.state_key()
    assert play_until(deal, bots_around(deal, deal.turn), deal.turn) == []
    assert deal.state_key() == before


def test_a_dead_seat_lets_the_bots_play_to_the_end() -> None:
    deal = prepared("2S 5H 9S KH", "7D 8D 9D 3C", "4C 5C 6C QD AD", dealer=2)
    deal.push(DeclareDead())
    assert deal.status[0] is Status.DEAD_PASSPORT
    played = play_until(deal, bots_around(deal, 0), 0)
    assert deal.is_over and played
    assert all(seat in (1, 2) for seat, _ in played)


def test_the_move_cap_stops_the_bots() -> None:
    deal = Deal(players=4, seed=5)
    bots = dict(enumerate(seat_bots(bot_names("careful", 4), 5)))
    assert len(play_until(deal, bots, None, limit=3)) == 3
    assert len(deal.move_stack) == 3 and not deal.is_over
    assert play_until(deal, bots, None, limit=0) == []
    assert MAX_MOVES >= 10_000


def test_with_no_seat_every_bot_plays_the_deal_through_as_play_deal_does() -> None:
    deal = Deal(players=4, seed=6)
    bots = dict(enumerate(seat_bots(bot_names("careful", 4), 6)))
    play_until(deal, bots)
    assert deal.is_over and deal == play_deal(6)


def test_a_seat_without_a_bot_stops_the_bots() -> None:
    deal = Deal(players=4, seed=8)
    bots = bots_around(deal, 0)
    del bots[2]
    play_until(deal, bots, 0)
    assert deal.is_over or deal.turn in (0, 2)


def test_play_until_refuses_what_is_not_a_deal_bots_or_a_seat() -> None:
    deal = Deal(players=3, seed=1)
    before = deal.state_key()
    with pytest.raises(ArgumentTypeError, match="play_until takes a Deal"):
        play_until("deal", {})  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="bots should map seats to bots"):
        play_until(deal, ["careful"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat should be from 0 to 2"):
        play_until(deal, bots_around(deal, 0), 5)
    with pytest.raises(ValueError, match="limit should be 0 or more"):
        play_until(deal, bots_around(deal, 0), 0, limit=-1)
    assert deal.state_key() == before


# -- forced_move -----------------------------------------------------------------------------------
def test_forced_move_is_dead_or_game_when_that_is_the_only_legal_move() -> None:
    dead = prepared("2S 5H 9S KH", "7D 8D 9D 3C", dealer=1)
    assert forced_move(dead, 0) == DeclareDead() and list(dead.legal_moves) == [DeclareDead()]
    assert forced_move(dead, 1) is None  # not seat 1's turn
    game = prepared("5S 6S 7S", "7D 8D 9D 3C", dealer=1)
    assert forced_move(game, 0) is None
    game.push(MeldMove.of("5S 6S 7S"))
    assert forced_move(game, 0) == DeclareGame() and list(game.legal_moves) == [DeclareGame()]
    game.push(DeclareGame())
    assert forced_move(game, 0) is None  # the deal is over


@pytest.mark.parametrize("seed", range(6))
def test_forced_move_agrees_with_the_legal_moves_along_random_deals(seed: int) -> None:
    deal = Deal(players=3, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not deal.is_over:
        first = list(itertools.islice(deal.legal_moves, 2))
        alone = first[0] if len(first) == 1 and first[0] in (DeclareDead(), DeclareGame()) else None
        assert forced_move(deal, deal.turn) == alone
        checked += alone is not None
        if EndTurn() in first and rng.random() < 0.5:
            deal.push(EndTurn())
        else:
            deal.push(rng.choice(list(itertools.islice(deal.legal_moves, 20))))
    assert checked >= 1  # every deal ends in a Dead or a Game
