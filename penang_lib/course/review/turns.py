"""The learner's turns of a deal, each beside the careful bot's turn from the same position.

A *turn* of the learner is the run of their moves between two turn changes (rule `turn`,
`learner_turns`). The careful bot's turn is played on a copy of the deal from the position at the
start of that turn (`review_turn`), with its `why` for every move; what each play leaves is kept
for both players (`Play`): the cards left in hand after the turn and the points they count (rule
`scoring`). No sentence is made here: the words are `penang_lib.course.review.words`'.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from penang_lib.engine.bots import Bot, CarefulBot, Choice, play_move
from penang_lib.engine.deal import Deal, Status
from penang_lib.engine.moves import EndTurn, LayOff, MeldMove, Move
from penang_lib.engine.validate import ArgumentTypeError, require_whole, shown
from penang_lib.engine.view import PlayerView

__all__ = [
    "Play",
    "TurnReview",
    "TurnSpan",
    "actions_in",
    "deal_and_seat",
    "learner_turns",
    "position_at",
    "review_turn",
    "whole_turn",
]


# -- the learner's turns ----------------------------------------------------------------------
@dataclass(frozen=True)
class TurnSpan:
    """One turn of the learner: `number` counts their own turns (from 1), `turn` is the deal's
    turn number, and the turn's moves are `deal.move_stack[start:end]` (so the stepper shows the
    position before it at step `start` and after it at step `end`)."""

    number: int
    turn: int
    start: int
    end: int


def deal_and_seat(deal: object, seat: object) -> tuple[Deal, int]:
    """`deal` and `seat` checked: a `Deal`, and one of its seats."""
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"a review looks at a Deal, not {shown(deal)}")
    return deal, require_whole(seat, "seat", 0, deal.players - 1)


def learner_turns(deal: Deal, seat: int) -> list[TurnSpan]:
    """The turns `seat` has played in `deal`, in order (a turn a move ended: rule `turn-order`,
    or the deal's end, starts the next)."""
    deal, seat = deal_and_seat(deal, seat)
    spans: list[TurnSpan] = []
    turn, start = 1, 0
    moves = len(deal.move_stack)
    for i, events in enumerate(deal.event_stack):
        ended = i == moves - 1 or any(e.rule in ("turn-order", "end") for e in events)
        if not ended:
            continue
        if deal.movers[start] == seat:
            spans.append(TurnSpan(len(spans) + 1, turn, start, i + 1))
        turn, start = turn + 1, i + 1
    return spans


def position_at(deal: Deal, ply: int) -> Deal:
    """A copy of `deal` after its first `ply` moves (taken back exactly with `pop`)."""
    working = deal.copy()
    while len(working.move_stack) > ply:
        working.pop()
    return working


# -- one turn compared ------------------------------------------------------------------------
def actions_in(moves: Iterable[Move]) -> int:
    """Melds and lay-offs among `moves` (a swap is not an action: rule `swap`)."""
    return sum(1 for m in moves if isinstance(m, MeldMove | LayOff))


@dataclass(frozen=True)
class Play:
    """One player's play of a turn and where it leaves their seat: the moves (with the careful
    bot's reason for each; empty for the learner's), how many `actions` they make, the cards
    left in hand after the turn and their points (`cards`, `points`), the jokers among them and
    the seat's status."""

    moves: tuple[Move, ...]
    whys: tuple[str, ...]
    actions: int
    cards: int
    points: int
    jokers: int
    status: Status

    @staticmethod
    def after(deal: Deal, seat: int, moves: Sequence[Move], whys: Sequence[str]) -> Play:
        """The play of `moves`, seen from `deal` as they leave it."""
        jokers = sum(1 for c in deal.hand(seat) if c.is_joker)
        return Play(
            tuple(moves),
            tuple(whys),
            actions_in(moves),
            deal.hand_size(seat),
            deal.count(seat),
            jokers,
            deal.status[seat],
        )


@dataclass(frozen=True)
class TurnReview:
    """One turn of the learner beside the careful bot's turn from the same position. `same`
    says whether the careful bot's turn leaves the same hand and the same table (the same moves,
    perhaps in another order). `unhinted` counts the learner's actions after the turn's first
    that they made where the careful bot (from that very position) would have ended the
    turn."""

    span: TurnSpan
    yours: Play
    careful: Play
    same: bool
    unhinted: int = 0

    @property
    def extra(self) -> bool:
        """More than one action in a turn that did not go out (the strategy note of `dead`), at
        least one of them where the careful bot said to end the turn: an extra action that the
        careful bot made in that position too is never counted against the learner."""
        return (
            self.yours.actions > 1
            and self.yours.status is not Status.OUT
            and not self.same
            and self.unhinted > 0
        )


def _table_key(deal: Deal) -> list[str]:
    return sorted(str(meld) for meld in deal.table)


def whole_turn(position: Deal, seat: int, bot: Bot) -> list[Choice]:
    """Let `bot` play the whole turn of `seat` on `position` (a copy: it is changed)."""
    turn = position.turn_number
    played: list[Choice] = []
    while not position.is_over and position.turn == seat and position.turn_number == turn:
        played.append(play_move(position, bot))
    return played


def review_turn(deal: Deal, seat: int, span: TurnSpan, before: Deal | None = None) -> TurnReview:
    """The learner's turn `span` of `deal` beside the careful bot's whole turn, played on a copy
    from the position at the start of that turn (`before`, when the caller has that position
    already; it is not changed)."""
    deal, seat = deal_and_seat(deal, seat)
    if not isinstance(span, TurnSpan) or not 0 <= span.start < span.end <= len(deal.move_stack):
        raise ValueError(f"{shown(span)} is not a turn of this deal")
    start = before.copy() if before is not None else position_at(deal, span.start)
    after = position_at(start, span.start)  # the same position, to play the learner's moves on
    mine = deal.move_stack[span.start : span.end]
    unhinted = 0
    hint = CarefulBot()
    for move in mine:
        if (
            after.actions
            and isinstance(move, MeldMove | LayOff)
            and isinstance(hint.choose(PlayerView.of(after)).move, EndTurn)
        ):
            unhinted += 1
        after.push(move)
    choices = whole_turn(start, seat, CarefulBot())
    yours = Play.after(after, seat, mine, [""] * len(mine))
    careful = Play.after(start, seat, [c.move for c in choices], [c.why for c in choices])
    same = after.hands[seat] == start.hands[seat] and _table_key(after) == _table_key(start)
    return TurnReview(span, yours, careful, same, unhinted)
