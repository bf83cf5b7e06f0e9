"""Deals that agree with one seat's view (`penang_lib.engine.sampling`): the real hidden cards give
back the real position, and a sampled deal changes only what the seat cannot see."""

from __future__ import annotations

import random

import pytest

from penang_lib.engine.bots import make_bot, play_move
from penang_lib.engine.cards import JOKER_INDEX
from penang_lib.engine.deal import Deal
from penang_lib.engine.sampling import deal_at, sample_deal, unseen
from penang_lib.engine.validate import ArgumentTypeError
from penang_lib.engine.view import PlayerView


def positions(seeds: range, players: int = 4) -> list[Deal]:
    """Positions along bot-played deals: every 7th move of each deal, copied."""
    found = []
    for seed in seeds:
        deal = Deal(players=players, seed=seed)
        names = ("careful", "greedy", "random", "careful", "greedy")
        bots = [make_bot(names[p], seed) for p in range(players)]
        step = 0
        while not deal.is_over:
            if step % 7 == 0:
                found.append(deal.copy())
            play_move(deal, bots[deal.turn])
            step += 1
    return found


def real_position(deal: Deal) -> Deal:
    view = PlayerView.of(deal)
    return deal_at(view, deal.hands, deal.stock)


@pytest.mark.parametrize("players", [2, 4, 5])
def test_the_real_hidden_cards_give_back_the_real_position(players: int) -> None:
    for deal in positions(range(3), players)[:40]:
        again = real_position(deal)
        assert again._snapshot() == deal._snapshot()
        assert list(again.legal_moves) == list(deal.legal_moves)
        # and the deal plays on alike: the same bots make the same moves to the same end
        bots = [make_bot("careful", 1) for _ in range(players)]
        while not deal.is_over:
            assert play_move(deal, bots[deal.turn]).move == play_move(again, bots[again.turn]).move
        assert again.scores == deal.scores and again.winners == deal.winners


def test_a_sampled_deal_changes_only_what_the_seat_cannot_see() -> None:
    rng = random.Random(4)
    for deal in positions(range(4)):
        view = PlayerView.of(deal)
        sampled = sample_deal(view, rng)
        again = PlayerView.of(sampled)
        for name in (
            "seat",
            "counts",
            "table",
            "owners",
            "passports",
            "actions",
            "hand_sizes",
            "status",
            "turn_number",
            "over",
        ):
            assert getattr(again, name) == getattr(view, name), name
        hidden = [0] * (JOKER_INDEX + 1)
        for seat in range(deal.players):
            if seat != view.seat:
                hidden = [a + b for a, b in zip(hidden, sampled.hands[seat], strict=True)]
        hidden = [a + b for a, b in zip(hidden, sampled.stock, strict=True)]
        assert tuple(hidden) == unseen(view)


def test_sampling_draws_different_hands_and_repeats_with_the_same_seed() -> None:
    deal = positions(range(1))[2]
    view = PlayerView.of(deal)
    other = (view.seat + 1) % deal.players
    draws = [sample_deal(view, random.Random(s)).hands[other] for s in range(5)]
    assert len(set(draws)) > 1
    assert sample_deal(view, random.Random(3)).hands == sample_deal(view, random.Random(3)).hands


def test_unseen_is_the_deck_less_the_hand_and_the_table() -> None:
    deal = positions(range(1))[3]
    view = PlayerView.of(deal)
    total = view.copies * 52 + view.rules.jokers
    on_table = sum(len(m.cards) for m in view.table)
    assert sum(unseen(view)) == total - sum(view.counts) - on_table


def test_bad_arguments_are_refused() -> None:
    deal = Deal(players=4, seed=1)
    view = PlayerView.of(deal)
    with pytest.raises(ArgumentTypeError):
        sample_deal(deal, random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        sample_deal(view, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="own hand"):
        deal_at(view, [deal.hands[1]] * 4, deal.stock)
