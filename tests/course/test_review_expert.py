"""The review's numbers (`penang_lib.course.review.expert`): the learner's turn beside the
expert's, weighed on the same drawn deals. Small budgets and few draws here; the review's speed
is `benchmarks.bench_review`'s."""

from __future__ import annotations

import pytest

from penang_lib.course.review import TurnSpan, learner_turns
from penang_lib.course.review.expert import ExpertTurn, costliest, expert_turn
from penang_lib.engine.bots import play_deal
from penang_lib.engine.deal import Deal
from penang_lib.engine.expert import Outcome
from penang_lib.engine.moves import DeclareDead, EndTurn

TINY = 0.004


def _deal() -> Deal:
    return play_deal(31, 4, "greedy,careful,careful,careful")


def test_a_turn_is_weighed_beside_the_experts_and_repeatably() -> None:
    deal = _deal()
    spans = learner_turns(deal, 0)
    weighed = expert_turn(deal, 0, spans[1], budget=TINY, samples=5)
    assert weighed.moves == tuple(deal.move_stack[spans[1].start : spans[1].end])
    assert weighed.expert_moves and len(weighed.whys) == len(weighed.expert_moves)
    assert weighed.samples == 5
    assert weighed.cost == pytest.approx(weighed.yours.mean_count - weighed.expert.mean_count)
    again = expert_turn(deal, 0, spans[1], budget=TINY, samples=5)
    assert (again.expert_moves, again.yours.counts, again.expert.counts) == (
        weighed.expert_moves,
        weighed.yours.counts,
        weighed.expert.counts,
    )
    # The deal reviewed is not changed.
    assert deal.move_stack == _deal().move_stack


def test_a_forced_turn_is_the_experts_too() -> None:
    deal = _deal()
    spans = learner_turns(deal, 0)
    forced = [s for s in spans if isinstance(deal.move_stack[s.start], DeclareDead)]
    assert forced, "the greedy seat of deal 31 dies"
    weighed = expert_turn(deal, 0, forced[0], budget=TINY, samples=3)
    assert weighed.same and weighed.as_good and weighed.cost == 0


def test_a_turn_of_another_seat_is_refused() -> None:
    deal = _deal()
    span = learner_turns(deal, 1)[0]
    with pytest.raises(ValueError, match="not a turn of seat 0"):
        expert_turn(deal, 0, span, budget=TINY, samples=2)
    with pytest.raises(ValueError, match="not a turn"):
        expert_turn(deal, 0, "turn 1", budget=TINY, samples=2)  # type: ignore[arg-type]


def _weighed(number: int, yours: list[int], expert: list[int]) -> ExpertTurn:
    span = TurnSpan(number, number * 4, number * 8, number * 8 + 2)
    mine, theirs = (EndTurn(),), (DeclareDead(),)
    return ExpertTurn(
        span,
        mine,
        theirs,
        ("",),
        Outcome(mine[0], counts=yours, wins=[0.0] * len(yours)),
        Outcome(theirs[0], counts=expert, wins=[0.0] * len(expert)),
    )


def test_the_costliest_turn_is_the_one_that_lost_most_points() -> None:
    cheap = _weighed(1, [22, 31, 40, 25], [20, 29, 38, 23])  # 2 points, every time
    dear = _weighed(2, [30, 41, 52, 33], [20, 30, 41, 24])  # about 10 points
    noisy = _weighed(3, [60, 10, 70, 5], [20, 30, 41, 24])  # more on average, but noise
    assert not cheap.as_good and not dear.as_good and noisy.as_good
    assert costliest([cheap, dear, noisy]) is dear
    assert costliest([cheap]) is cheap
    assert costliest([noisy]) is None and costliest([]) is None
    fine = _weighed(4, [20, 30, 40], [20, 31, 39])
    assert fine.as_good and fine.cost == 0 and costliest([fine]) is None
