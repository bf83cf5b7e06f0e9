"""What a seat can tell of the hidden hands from the moves everyone saw (engine/inference.py), and
the public history the view keeps for it (`PlayerView.history`)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from penang_lib import Deal, PlayerView, Status
from penang_lib.engine.bots import make_bot, seat_bots
from penang_lib.engine.cards import JOKER_INDEX
from penang_lib.engine.checks import unchecked_counts_points
from penang_lib.engine.inference import Clues, draw_deal
from penang_lib.engine.moves import DeclareDead, MeldMove
from penang_lib.engine.view import Seen


def positions(lineup: str, seeds: range, every: int = 7) -> Iterator[tuple[Deal, PlayerView]]:
    """Every `every`-th position of the deals of `seeds` played by the bots of `lineup`."""
    names = lineup.split(",")
    for seed in seeds:
        deal = Deal(players=len(names), seed=seed)
        bots = seat_bots(names, seed)
        step = 0
        while not deal.is_over:
            view = PlayerView.of(deal)
            if step % every == every - 1:
                yield deal, view
            deal.push(bots[deal.turn].choose(view).move)
            step += 1


def holds_barred(deal: Deal, seat: int, mask: int) -> bool:
    return any(deal.hands[seat][i] and mask >> i & 1 for i in range(JOKER_INDEX))


# -- the history ---------------------------------------------------------------------------------
def test_history_is_every_move_as_the_table_saw_it() -> None:
    checked = 0
    for deal, view in positions("careful,careful,careful,careful", range(6), every=11):
        history = view.history
        assert [h.seat for h in history] == deal.movers
        assert [h.move for h in history] == deal.move_stack
        table: list[object] = []
        for seen in history:
            assert isinstance(seen, Seen)
            if isinstance(seen.move, MeldMove):
                assert seen.target == len(table)
                table.append(seen.meld)
            elif seen.meld is not None:
                assert seen.target is not None
                table[seen.target] = seen.meld
            if isinstance(seen.move, DeclareDead):
                # The Dead's points, as announced: the count of the hand it died with.
                points = unchecked_counts_points(deal.hands[seen.seat], deal.rules)
                assert seen.points == points
            else:
                assert seen.points is None
        assert table == list(deal.table)
        checked += 1
    assert checked > 20


def test_a_view_keeps_the_history_of_its_moment() -> None:
    deal = Deal(players=4, seed=3)
    bot = make_bot("careful")
    for _ in range(12):
        deal.push(bot.choose(PlayerView.of(deal)).move)
    view = PlayerView.of(deal)
    for _ in range(5):
        deal.push(bot.choose(PlayerView.of(deal)).move)
    assert len(view.history) == 12


def test_a_history_given_to_the_constructor_is_checked() -> None:
    view = PlayerView.of(Deal(players=2, seed=1))
    fields = {name: getattr(view, name) for name in ("seat", "players", "names", "rules")}
    fields |= {name: getattr(view, name) for name in ("copies", "counts", "table", "owners")}
    fields |= {"passports": view.passports, "actions": 0, "hand_sizes": view.hand_sizes}
    fields |= {"status": view.status, "turn_number": 1}
    assert PlayerView(**fields).history == ()
    seen = Seen(0, MeldMove.of("AS 2S 3S"))
    assert PlayerView(**fields, history=[seen]).history == (seen,)
    with pytest.raises(TypeError, match="a move in history should be a Seen"):
        PlayerView(**fields, history=["meld AS 2S 3S"])  # type: ignore[list-item]


# -- the clues -----------------------------------------------------------------------------------
@pytest.mark.parametrize("lineup", ["random,random,random,random", "greedy,careful,random"])
def test_the_rules_clues_hold_whatever_the_players_do(lineup: str) -> None:
    """A dead seat holds no card the table took when it died, and a seat holds at least the
    jokers it took by swaps and has not played: true of any player."""
    dead = jokers = 0
    for deal, view in positions(lineup, range(25)):
        clues = Clues.of(view)
        for seat in range(deal.players):
            assert not holds_barred(deal, seat, clues.barred_by_rule[seat])
            assert deal.hands[seat][JOKER_INDEX] >= clues.jokers[seat]
            if seat != view.seat and clues.points[seat] is not None:
                assert clues.points[seat] == unchecked_counts_points(deal.hands[seat], deal.rules)
                dead += 1
            jokers += clues.jokers[seat] > 0
    assert dead and jokers  # both clues were met


def test_the_careful_habits_hold_for_careful_players() -> None:
    barred = 0
    for deal, view in positions("careful,careful,careful,careful", range(25)):
        clues = Clues.of(view)
        assert not any(clues.habits_broken)
        for seat in range(deal.players):
            assert not holds_barred(deal, seat, clues.barred[seat])
            barred += bin(clues.barred[seat]).count("1")
    assert barred > 1000  # the habits say a lot


def test_a_player_who_breaks_the_habits_is_found_out() -> None:
    """A random player may start a turn with a meld while it could lay off, and lay that card
    off later: its moves break the careful habits, and its habit bars are then dropped (for it
    alone)."""
    broken = 0
    for _deal, view in positions("careful,random,careful,careful", range(15)):
        clues = Clues.of(view)
        assert not clues.habits_broken[0] and not clues.habits_broken[2]
        broken += clues.habits_broken[1]
        if clues.habits_broken[1]:
            assert clues.barred[1] == clues.barred_by_rule[1]
    assert broken


def test_clues_are_read_from_a_view_only() -> None:
    with pytest.raises(TypeError, match="clues are read from a PlayerView"):
        Clues.of(Deal(players=2, seed=1))  # type: ignore[arg-type]


# -- drawing deals that keep to the clues ----------------------------------------------------------
def test_drawn_deals_keep_to_the_clues_and_the_view() -> None:
    fitted = dead = 0
    for _deal, view in positions("careful,careful,careful,careful", range(12), every=13):
        clues = Clues.of(view)
        for k in range(3):
            world = draw_deal(view, random.Random(k), clues)
            assert PlayerView.of(world).counts == view.counts
            for seat in range(view.players):
                assert sum(world.hands[seat]) == view.hand_sizes[seat]
                if seat == view.seat:
                    continue
                assert not holds_barred(world, seat, clues.barred[seat])
                assert world.hands[seat][JOKER_INDEX] >= clues.jokers[seat]
                if clues.points[seat] is not None and view.status[seat] is Status.DEAD:
                    dead += 1
                    points = unchecked_counts_points(world.hands[seat], world.rules)
                    fitted += points == clues.points[seat]
    assert dead and fitted >= 0.6 * dead


def test_the_same_generator_draws_the_same_deal() -> None:
    _deal, view = next(positions("careful,careful,careful,careful", range(1), every=30))
    one = draw_deal(view, random.Random(5))
    two = draw_deal(view, random.Random(5))
    assert one.hands == two.hands and one.stock == two.stock
