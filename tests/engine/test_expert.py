"""The expert bot (`penang_lib.engine.expert`): legal moves only, no peeking at hidden cards,
repeatable for a seed, and a reason in numbers. Small budgets here; its strength is measured by
`penang-rummy tournament` (docs/CHOICES.md)."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from penang_lib.engine import expert
from penang_lib.engine.bots import (
    CarefulBot,
    WatchfulBot,
    forced_choice,
    going_out,
    make_bot,
    play_move,
)
from penang_lib.engine.deal import Deal
from penang_lib.engine.expert import (
    DEFAULT_BUDGET,
    MIN_SAMPLES,
    PLAYOUT_GO_OUT,
    PLAYOUT_GO_OUT_HAND,
    ExpertBot,
    Outcome,
    Settings,
    _still_running,
    candidates,
    judge,
)
from penang_lib.engine.moves import DeclareDead, DeclareGame, EndTurn, IllegalMove, Move
from penang_lib.engine.sampling import deal_at, sample_deal
from penang_lib.engine.validate import ArgumentTypeError
from penang_lib.engine.view import PlayerView
from tests.conftest import prepared

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
        r"Expert: .+\. In \d+ sampled deals this keeps you alive for \d+\.\d more turns on "
        r"average, ends with \d+ points and wins \d+% of them; .+ would keep you alive for "
        r"\d+\.\d turns, end with \d+ points and win \d+%"
        r"(\.|, which is not clearly better on so few deals\.)"
    )
    assert all(re.fullmatch(pattern, w) for w in weighed), weighed[0]
    # When it keeps the watchful bot's move though another scored higher, it says so.
    kept = [w for w in weighed if "not clearly better" in w]
    assert kept and all(", the move its rule of thumb picks. In " in w for w in kept)


def test_the_expert_goes_out_when_its_hand_can_be_emptied_this_turn() -> None:
    """8♥ 9♥ on the run 5♥ 6♥ 7♥ and K♣ on the kings: the careful bot would lay off one card
    and wait; the expert weighs nothing and plays the whole turn to its Game."""
    deal = prepared(
        "5H 6H 7H 8H 9H KC",
        "KS KD KH 2S 2D 2C 3D",
        moves=["meld 5H 6H 7H", "end_turn", "meld KS KD KH", "end_turn"],
    )
    line = going_out(PlayerView.of(deal))
    assert len(line) == 3 and CarefulBot().choose(PlayerView.of(deal)).move in line
    expert = ExpertBot(seed=1, budget=TINY)
    first = expert.choose(PlayerView.of(deal))
    assert first.move == line[0] and expert.last == []
    assert first.why == (
        "Expert: lay off 8♥ on North's run 5♥ 6♥ 7♥: every card of your hand can be played this "
        "turn, so play them all, go out and win the deal."
    )
    while deal.turn == 0 and not deal.is_over:
        play_move(deal, expert)
    assert deal.is_over and list(deal.winners) == [0] and deal.hand_size(0) == 0


def test_the_same_seed_plays_the_same_deal() -> None:
    assert expert_deal(5)[0].move_stack == expert_deal(5)[0].move_stack


def public_twin(view: PlayerView) -> PlayerView:
    """The same view built from its public facts alone (its history included): it holds no
    link to any deal, so nothing hidden can be read through it."""
    return PlayerView(
        seat=view.seat,
        players=view.players,
        names=view.names,
        rules=view.rules,
        copies=view.copies,
        counts=view.counts,
        table=view.table,
        owners=view.owners,
        passports=view.passports,
        actions=view.actions,
        hand_sizes=view.hand_sizes,
        status=view.status,
        turn_number=view.turn_number,
        over=view.over,
        turns=view.turns,
        history=view.history,
    )


def test_the_expert_never_reads_a_hidden_card() -> None:
    # The same view over other hidden cards (the other hands and the stock drawn anew), and the
    # same view rebuilt from its public facts alone, history included: the expert with the same
    # seed chooses the same move in all three.
    compared = 0
    for seed in range(3):
        deal = Deal(players=4, seed=seed)
        careful = make_bot("careful", seed)
        while not deal.is_over:
            view = PlayerView.of(deal)
            if len(deal.move_stack) % 5 == 0 and view.forced() is None:
                other = sample_deal(view, random.Random(seed))
                assert other.hands != deal.hands or deal.players == 1
                again = PlayerView.of(other)  # no history: the drawn deal starts here
                first = ExpertBot(seed, TINY).choose(public_twin(again))
                second = ExpertBot(seed, TINY).choose(again)
                assert first == second
                first = ExpertBot(seed, TINY).choose(view)
                second = ExpertBot(seed, TINY).choose(public_twin(view))
                assert first == second
                compared += 1
            play_move(deal, careful)
    assert compared > 10


def test_the_candidates_start_with_the_watchful_move_hold_the_careful_one_and_are_legal() -> None:
    deal = Deal(players=4, seed=8)
    careful = make_bot("careful", 8)
    for _step in range(40):
        if deal.is_over:
            break
        view = PlayerView.of(deal)
        if view.forced() is None:
            moves = candidates(view)
            own = WatchfulBot(go_out=PLAYOUT_GO_OUT, go_out_hand=PLAYOUT_GO_OUT_HAND)
            assert moves[0] == own.choose(view).move
            assert careful.choose(view).move in moves
            assert len(moves) == len(set(moves))
            assert all(deal.is_legal(m) for m in moves)
        play_move(deal, careful)


def test_the_real_deal_is_one_of_the_deals_it_could_draw() -> None:
    deal = Deal(players=3, seed=2)
    view = PlayerView.of(deal)
    assert deal_at(view, deal.hands, deal.stock)._snapshot() == deal._snapshot()


def test_make_bot_knows_the_expert_and_its_budget() -> None:
    bot = make_bot("expert", 7, budget=0.5)
    assert isinstance(bot, ExpertBot) and bot.budget == 0.5 and bot.seed == 7
    assert make_bot("Expert").budget == DEFAULT_BUDGET == 0.25  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="only the expert"):
        make_bot("careful", budget=0.5)
    with pytest.raises(ArgumentTypeError, match="budget"):
        ExpertBot(1, budget=0)
    with pytest.raises(ArgumentTypeError, match="budget"):
        ExpertBot(1, budget="fast")  # type: ignore[arg-type]


def test_moves_clearly_worse_than_the_best_are_dropped_but_never_the_default() -> None:
    noise = [(-1) ** k * (k % 3) for k in range(12)]  # the same luck of the draw for every move
    default = Outcome(EndTurn(), counts=[40 + n for n in noise], wins=[0.0] * 12)
    best = Outcome(DeclareDead(), counts=[20 + n for n in noise], wins=[0.0] * 12)
    offsets = [2, -2, 1, -1, 3, -3, 2, -2, 1, -1, 3, -1]
    counts = [20 + n + o for n, o in zip(noise, offsets, strict=True)]
    close = Outcome(DeclareGame(), counts=counts, wins=[0.0] * 12)
    kept = _still_running([default, best, close])
    assert kept == [default, best, close]  # the close one trails by a sixth of a point, noisily
    worse = Outcome(DeclareGame(), counts=[35 + n for n in noise], wins=[0.0] * 12)
    assert _still_running([default, best, worse]) == [default, best]
    # The default stays, however badly it does; the paired difference ignores the shared luck.
    assert _still_running([default, best])[0] is default
    assert best.gain_over(default) == (20.0, 0.0)


def _small_hand_view() -> PlayerView:
    """The first position of careful bots' deals (seeds from 0) where North starts a turn with at
    most `PLAYOUT_GO_OUT_HAND` cards, no forced move and no way out this turn."""
    for seed in range(50):
        deal = Deal(players=4, seed=seed)
        bots = [CarefulBot() for _ in range(4)]
        while not deal.is_over:
            view = PlayerView.of(deal)
            if (
                view.seat == 0
                and not view.actions
                and 2 < view.hand_sizes[0] <= PLAYOUT_GO_OUT_HAND
                and forced_choice(view) is None
                and not going_out(view)
            ):
                return view
            play_move(deal, bots[deal.turn])
    raise AssertionError("no such position in 50 deals")


def test_the_budget_counts_the_draws_and_the_playouts_looks_for_game_as_work() -> None:
    """A move's budget buys work: playout moves, and the deals drawn and the own seat's looks
    for a way out counted as the moves they cost. Made dear, either one alone stops the move at
    the fewest deals."""
    view = _small_hand_view()
    moves = candidates(view)
    free = Settings(draw_work=0, playout_work=0, look_work=0, search_work=0)

    def drawn(settings: Settings, looked_before: int = 0) -> int:
        bot = ExpertBot(seed=3, budget=0.05, deadline=False, settings=settings)
        bot.own_bot.looks = looked_before
        return len(bot.weigh(view, moves)[0].counts)

    most = drawn(free)
    assert most > MIN_SAMPLES
    assert drawn(replace(free, draw_work=10**9)) == MIN_SAMPLES
    assert drawn(replace(free, look_work=10**9)) == MIN_SAMPLES  # the playouts' seat looked
    assert drawn(replace(free, playout_work=50)) < most
    assert drawn(replace(free, work_per_second=free.work_per_second * 4)) > most
    # Only this move's looks count: as many before it as would spend its whole budget do not.
    whole = int(0.05 * free.work_per_second)
    assert drawn(replace(free, look_work=1), looked_before=whole) > MIN_SAMPLES


def test_settings_are_checked_and_default_to_the_module_constants() -> None:
    assert Settings().work_per_second == expert.WORK_PER_SECOND
    assert Settings().confidence == expert.CONFIDENCE
    assert ExpertBot().settings == Settings()
    for wrong in ({"draw_work": 1.5}, {"confidence": "2"}, {"max_samples": None}):
        with pytest.raises(ArgumentTypeError):
            Settings(**wrong)
    for outside in ({"draw_work": -1}, {"max_samples": 1}, {"drop_every": 0}, {"confidence": -1}):
        with pytest.raises(ValueError, match="should be from"):
            Settings(**outside)
    with pytest.raises(ArgumentTypeError, match=r"settings should be expert\.Settings"):
        ExpertBot(settings={"confidence": 1})  # type: ignore[arg-type]


def test_a_lower_confidence_departs_from_the_watchful_move_more_often() -> None:
    """`confidence` is the margin in standard errors by which another move must beat the
    watchful bot's: at 0 the best-looking move with any lead is played."""
    deal = Deal(players=4, seed=11)
    bots = [CarefulBot() for _ in range(4)]
    weigher = ExpertBot(seed=5, budget=0.05, deadline=False)
    sure, bold = ExpertBot(), ExpertBot(settings=Settings(confidence=0))
    departures = {"sure": 0, "bold": 0}
    while not deal.is_over:
        view = PlayerView.of(deal)
        moves = candidates(view) if forced_choice(view) is None else []
        if len(moves) > 1:
            outcomes = weigher.weigh(view, moves)
            default = outcomes[0]
            for name, bot in (("sure", sure), ("bold", bold)):
                first = bot.rank(outcomes)[0]
                if first is not default:
                    departures[name] += 1
                    assert first.gain_over(default)[0] > 0
        play_move(deal, bots[deal.turn])
    assert departures["bold"] > departures["sure"]


def _turn_of(bot_name: str, deal: Deal) -> list[Move]:
    """The whole turn `bot_name` plays from `deal`'s position (on a copy)."""
    working = deal.copy()
    seat = working.turn
    bot = make_bot(bot_name, 1)
    moves: list[Move] = []
    while not working.is_over and working.turn == seat:
        moves.append(play_move(working, bot).move)
    return moves


def test_judge_plays_whole_turns_on_the_same_drawn_deals() -> None:
    deal = Deal(players=4, seed=21)
    careful = make_bot("careful", 21)
    for _step in range(9):
        play_move(deal, careful)
    view = PlayerView.of(deal)
    careful_turn, greedy_turn = _turn_of("careful", deal), _turn_of("greedy", deal)
    first, second, again = judge(view, [careful_turn, greedy_turn, careful_turn], samples=6, seed=4)
    assert (first.move, first.then) == (careful_turn[0], tuple(careful_turn[1:]))
    # The same play on the same drawn deals ends the same way: the deals are shared.
    assert (first.counts, first.wins, first.survived) == (again.counts, again.wins, again.survived)
    assert len(second.counts) == 6 and all(
        0 <= r <= 1 for r in (second.win_rate, second.survival_rate)
    )
    assert judge(view, [greedy_turn], samples=6, seed=4)[0].counts == second.counts


def test_judge_refuses_a_play_that_is_not_legal_and_changes_nothing() -> None:
    deal = Deal(players=4, seed=22)
    before = deal.copy()
    view = PlayerView.of(deal)
    with pytest.raises(IllegalMove):
        judge(view, [[EndTurn()]], samples=2)  # no passport yet: the turn cannot end
    with pytest.raises(ValueError, match="at least one move"):
        judge(view, [[]], samples=2)
    with pytest.raises(ValueError, match="samples"):
        judge(view, [[EndTurn()]], samples=0)
    assert deal == before


def test_a_forced_death_never_survives() -> None:
    deal = Deal(players=4, seed=23)
    careful = make_bot("careful", 23)
    while not deal.is_over:
        view = PlayerView.of(deal)
        forced = view.forced()
        if isinstance(forced, DeclareDead):
            (dead,) = judge(view, [[forced]], samples=3)
            assert dead.survival_rate == 0 and dead.mean_alive == 0
            return
        play_move(deal, careful)
    pytest.fail("nobody died in the deal of seed 23")
