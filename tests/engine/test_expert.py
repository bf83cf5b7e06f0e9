"""The expert bot (`penang_lib.engine.expert`): legal moves only, no peeking at hidden cards,
repeatable for a seed, and a reason in numbers. Small budgets here; its strength is measured by
`penang-rummy tournament` (docs/CHOICES.md)."""

from __future__ import annotations

import random
import re

import pytest

from penang_lib.engine.bots import make_bot, play_move
from penang_lib.engine.deal import Deal
from penang_lib.engine.expert import ExpertBot, candidates
from penang_lib.engine.sampling import deal_at, sample_deal
from penang_lib.engine.validate import ArgumentTypeError
from penang_lib.engine.view import PlayerView

TINY = 0.004
"""A budget that buys the fewest drawn deals: enough to test the machinery, fast."""


def expert_deal(seed: int, players: int = 4, expert_seat: int = 0) -> tuple[Deal, list[str]]:
    deal = Deal(players=players, seed=seed)
    bots = [make_bot("careful", seed * 10 + p) for p in range(players)]
    bots[expert_seat] = make_bot("expert", seed, budget=TINY)
    whys = []
    while not deal.is_over:
        mover = deal.turn
        choice = play_move(deal, bots[mover])  # play_move pushes: an illegal move would raise
        if mover == expert_seat:
            whys.append(choice.why)
    return deal, whys


@pytest.mark.parametrize("players", [2, 4])
def test_the_expert_plays_legal_moves_to_the_end(players: int) -> None:
    for seed in range(2):
        deal, whys = expert_deal(seed, players)
        assert deal.is_over and whys
        assert all(why and "\n" not in why for why in whys)


def test_its_reason_gives_numbers_from_the_drawn_deals() -> None:
    _deal, whys = expert_deal(3)
    weighed = [w for w in whys if w.startswith("Expert:") and "sampled deals" in w]
    assert weighed
    pattern = (
        r"Expert: .+\. In \d+ sampled deals this ends with \d+ points on average and wins "
        r"\d+% of them; .+ would end with \d+ points and win \d+%\."
    )
    assert all(re.fullmatch(pattern, w) for w in weighed), weighed[0]


def test_the_same_seed_plays_the_same_deal() -> None:
    assert expert_deal(5)[0].move_stack == expert_deal(5)[0].move_stack


def test_the_expert_never_reads_a_hidden_card() -> None:
    # The same view over other hidden cards (the other hands and the stock drawn anew): the
    # expert with the same seed chooses the same move.
    compared = 0
    for seed in range(3):
        deal = Deal(players=4, seed=seed)
        careful = make_bot("careful", seed)
        while not deal.is_over:
            view = PlayerView.of(deal)
            if len(deal.move_stack) % 5 == 0 and view.forced() is None:
                other = sample_deal(view, random.Random(seed))
                assert other.hands != deal.hands or deal.players == 1
                again = PlayerView.of(other)
                first = ExpertBot(seed, TINY).choose(view)
                second = ExpertBot(seed, TINY).choose(again)
                assert first == second
                compared += 1
            play_move(deal, careful)
    assert compared > 10


def test_the_candidates_include_the_careful_move_and_are_legal() -> None:
    deal = Deal(players=4, seed=8)
    careful = make_bot("careful", 8)
    for _step in range(40):
        if deal.is_over:
            break
        view = PlayerView.of(deal)
        if view.forced() is None:
            moves = candidates(view)
            assert moves[0] == careful.choose(view).move
            assert len(moves) == len(set(moves))
            assert all(deal.is_legal(m) for m in moves)
        play_move(deal, careful)


def test_the_real_deal_is_one_of_the_deals_it_could_draw() -> None:
    deal = Deal(players=3, seed=2)
    view = PlayerView.of(deal)
    assert deal_at(view, deal.hands, deal.stock)._snapshot() == deal._snapshot()


def test_make_bot_knows_the_expert_and_its_budget() -> None:
    bot = make_bot("expert", 7, budget=0.25)
    assert isinstance(bot, ExpertBot) and bot.budget == 0.25 and bot.seed == 7
    assert make_bot("Expert").budget == 0.5  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="only the expert"):
        make_bot("careful", budget=0.5)
    with pytest.raises(ArgumentTypeError, match="budget"):
        ExpertBot(1, budget=0)
    with pytest.raises(ArgumentTypeError, match="budget"):
        ExpertBot(1, budget="fast")  # type: ignore[arg-type]
