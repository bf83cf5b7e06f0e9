"""The review's numbers: each of the learner's turns beside the expert's, weighed on the same
drawn deals.

For a turn of the learner (`TurnSpan`), the expert bot plays the whole turn from the position at
its start (on a copy; it reads only the learner's view), and `penang_lib.engine.expert.judge`
plays both turns on the same deals drawn to agree with what the learner could see, then plays
on as the expert does in its look-ahead (the learner's seat by the watchful bot, every other
seat by the careful bot). What comes back (`ExpertTurn`) is, for each play, the count it
ends with on average, how often the seat is still alive after its next turn, and how often it
wins. `cost` is how many points more the learner's turn ends with than the expert's, on average;
`as_good` says the learner's turn did as well as the expert's, within the noise of the draw.

No sentence is made here: the words are `penang_lib.course.review.words`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from penang_lib.course.review.turns import TurnSpan, deal_and_seat, position_at, whole_turn
from penang_lib.engine.bots import Choice
from penang_lib.engine.deal import Deal
from penang_lib.engine.expert import CONFIDENCE, ExpertBot, Outcome, judge
from penang_lib.engine.moves import DeclareDead, DeclareGame, Move
from penang_lib.engine.validate import shown
from penang_lib.engine.view import PlayerView

__all__ = [
    "REVIEW_BUDGET",
    "REVIEW_SAMPLES",
    "ExpertTurn",
    "costliest",
    "expert_turn",
]

REVIEW_BUDGET: Final = 0.2
"""The expert's seconds of thought per move when it plays a learner's turn in a review."""
REVIEW_SAMPLES: Final = 60
"""Deals drawn to weigh the learner's turn against the expert's."""
MIN_COST: Final = 1.0
"""Points a turn must cost, on average, to be named the costliest."""


@dataclass(frozen=True)
class ExpertTurn:
    """The learner's turn `span` beside the expert's turn from the same position: the moves and
    the expert's reasons, and how each play ended on the same drawn deals (`yours`, `expert`)."""

    span: TurnSpan
    moves: tuple[Move, ...]
    expert_moves: tuple[Move, ...]
    whys: tuple[str, ...]
    yours: Outcome
    expert: Outcome

    @property
    def samples(self) -> int:
        """The deals drawn to weigh the two plays."""
        return len(self.yours.counts)

    @property
    def same(self) -> bool:
        """Whether the expert played the very moves the learner played."""
        return self.moves == self.expert_moves

    @property
    def cost(self) -> float:
        """How many points more the learner's play ended with than the expert's, on average
        (negative when the learner's ended with fewer)."""
        return self.yours.mean_count - self.expert.mean_count

    @property
    def as_good(self) -> bool:
        """The learner's play did as well as the expert's: the same moves, or a score (the
        expert's own measure: a win against the count) not worse by more than `CONFIDENCE`
        standard errors of the paired difference on the drawn deals."""
        if self.same:
            return True
        gain, error = self.yours.gain_over(self.expert)
        return gain >= -CONFIDENCE * error


def _forced(moves: Sequence[Move]) -> bool:
    return len(moves) == 1 and isinstance(moves[0], DeclareDead | DeclareGame)


def expert_turn(
    deal: Deal,
    seat: int,
    span: TurnSpan,
    budget: float = REVIEW_BUDGET,
    samples: int = REVIEW_SAMPLES,
) -> ExpertTurn:
    """The learner's turn `span` of `deal` (at `seat`) beside the expert's, weighed on the same
    `samples` drawn deals. Repeatable: the expert and the draws are seeded from the deal's seed
    and the turn."""
    deal, seat = deal_and_seat(deal, seat)
    if not isinstance(span, TurnSpan) or not 0 <= span.start < span.end <= len(deal.move_stack):
        raise ValueError(f"{shown(span)} is not a turn of this deal")
    start = position_at(deal, span.start)
    view = PlayerView.of(start)
    if view.seat != seat:
        raise ValueError(f"{shown(span)} is not a turn of seat {seat}")
    mine = tuple(deal.move_stack[span.start : span.end])
    seed = (deal.seed * 1000 + span.number) * 8 + seat
    if _forced(mine):
        # Declaring Dead or Game was the only move: the expert has nothing else to play.
        choices = [Choice(mine[0], "")]
    else:
        choices = whole_turn(start.copy(), seat, ExpertBot(seed, budget))
    theirs = tuple(c.move for c in choices)
    yours, expert = judge(view, [mine, theirs], samples=samples, seed=seed)
    return ExpertTurn(span, mine, theirs, tuple(c.why for c in choices), yours, expert)


def costliest(turns: Sequence[ExpertTurn]) -> ExpertTurn | None:
    """The turn whose play cost the learner the most points against the expert's, on average
    (at least `MIN_COST`, and not one where they did as well as the expert); None when no turn
    did."""
    costly = [t for t in turns if not t.as_good and t.cost >= MIN_COST]
    return max(costly, key=lambda t: t.cost, default=None)
