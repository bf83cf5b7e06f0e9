"""The review of one deal (`Review`): the learner's turns, each compared when first asked, the
bots' reasons for the stepper, and the summary of the deal with its search.

The summary (`Review.summary`): the turns where the learner made more than one action without
going out (the rule book's strategy note under `dead`: play as little as you must), leaving out a
turn whose extra actions the careful bot would have made in the same position, the jokers
left in hand at the end, and, when the learner died, the latest of their turns from which the
careful bot, playing their seat from there on with the same bots around it, stays alive past the
turn where they died (the search tries at most `SEARCH_TURNS` turns).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from penang_lib.course.links import REVIEW_PAGE
from penang_lib.course.review.codec import encode, link_for, read_people
from penang_lib.course.review.turns import (
    TurnReview,
    TurnSpan,
    actions_in,
    deal_and_seat,
    learner_turns,
    position_at,
    review_turn,
    whole_turn,
)
from penang_lib.engine.bots import Bot, CarefulBot, bot_names, bots_around, play_move
from penang_lib.engine.deal import Deal, Status
from penang_lib.engine.expert import ExpertBot
from penang_lib.engine.moves import DeclareDead, DeclareGame, Move
from penang_lib.engine.validate import require_whole
from penang_lib.engine.view import PlayerView

__all__ = ["SEARCH_MOVES", "SEARCH_TURNS", "Rescue", "Review", "Summary"]

SEARCH_TURNS: Final = 40
"""How many of the learner's turns, latest first, the summary's search tries at most."""
SEARCH_MOVES: Final = 5000
"""How many moves one try of the search plays at most (a deal is far shorter)."""


# -- the summary ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rescue:
    """The latest turn of the learner (`span`) from which the careful bot, playing their seat
    with the same bots around it (careful bots for expert ones, so that the search stays
    quick), stays alive past the turn where the learner died: its moves
    in that turn (`moves`) and the seat's status where the search stopped (`status`: alive, or
    out when it went on to win)."""

    span: TurnSpan
    moves: tuple[Move, ...]
    status: Status


@dataclass(frozen=True)
class Summary:
    """What the review says of the whole deal (see `summary_lines`)."""

    over: bool
    extra: tuple[tuple[TurnSpan, int, int], ...]
    """The turns with more than one action that did not go out: the turn, the learner's actions
    and the careful bot's from the same position."""
    jokers: int
    joker_points: int
    status: Status
    died: TurnSpan | None
    rescue: Rescue | None
    searched: int


# -- the review of one deal -----------------------------------------------------------------------
class Review:
    """The review of `deal` from the learner's `seat`; `bots` are the bots of the other seats
    as the play table seated them (a name, a comma-separated text or a list, cycled clockwise
    from the learner's left: `bots_around`).

    `spans` are the learner's turns; `turn(i)` compares turn `spans[i]` with the careful bot's
    (computed when first asked, then kept); `turn_at(step)` is the turn a stepper's step is in;
    `whys` the bots' reasons, one per move (empty for the learner's moves, for the moves of
    `people`, the other seats a person played, and for a move the bot would not have chosen);
    `summary()` the summary; `code()` and `link()` the link that opens this review again. The
    caller's deal is copied, never changed.
    """

    def __init__(
        self,
        deal: Deal,
        seat: int = 0,
        bots: str | Sequence[str] | None = "careful",
        people: Sequence[int] = (),
    ) -> None:
        deal, seat = deal_and_seat(deal, seat)
        if deal.players < 2:
            raise ValueError("a review needs the learner and at least one bot")
        self.deal = deal.copy()
        self.seat = seat
        self.bots: tuple[str, ...] = bot_names(bots, deal.players - 1)
        """The bots' names clockwise from the learner's left, one per other seat."""
        self.people: tuple[int, ...] = read_people(people, deal.players, seat)
        """Other seats a person played: no bot's reason is shown for their moves."""
        self.spans: tuple[TurnSpan, ...] = tuple(learner_turns(deal, seat))
        self._turns: dict[int, TurnReview] = {}
        self._whys: tuple[str, ...] | None = None
        self._bots_at: list[dict[int, Bot]] = []
        """The bots (their state, a random bot's draws) at the start of each learner turn."""
        self._summary: Summary | None = None

    # -- turns --
    def turn(self, index: int) -> TurnReview:
        """The comparison of the learner's turn `spans[index]`."""
        index = require_whole(index, "index", 0, max(0, len(self.spans) - 1))
        if not self.spans:
            raise ValueError("the learner has played no turn in this deal yet")
        found = self._turns.get(index)
        if found is None:
            found = self._turns[index] = review_turn(self.deal, self.seat, self.spans[index])
        return found

    def turn_at(self, step: int) -> int | None:
        """The index of the learner's turn that step `step` shows (the position before one of
        its moves, or just after its last), or None on a bot's step. Where one of the learner's
        turns follows another (a lone player), the turn about to start wins."""
        found = None
        for i, span in enumerate(self.spans):
            if span.start <= step < span.end:
                return i
            if step == span.end:
                found = i
        return found

    # -- the replay: the bots' reasons and states --
    def _replay(self) -> None:
        if self._whys is not None:
            return
        deal, seat = self.deal, self.seat
        working = position_at(deal, 0)
        bots = bots_around(working, seat, list(self.bots))
        starts = {span.start for span in self.spans}
        whys: list[str] = []
        self._bots_at = []
        for k, (move, mover) in enumerate(zip(deal.move_stack, deal.movers, strict=True)):
            if k in starts:
                self._bots_at.append(copy.deepcopy(bots))
            why = ""
            bot = bots.get(mover)
            # The expert's reasons are not worked out again: that would take as long as its
            # thinking did (about a quarter of a second a move); its moves are shown without them.
            if (
                bot is not None
                and mover != seat
                and mover not in self.people
                and not isinstance(bot, ExpertBot)
            ):
                choice = bot.choose(PlayerView.of(working))
                why = choice.why if choice.move == move else ""
            whys.append(why)
            working.push(move)
        self._whys = tuple(whys)

    @property
    def whys(self) -> tuple[str, ...]:
        """The bots' reason for each move of the deal, as the stepper shows them."""
        self._replay()
        assert self._whys is not None
        return self._whys

    # -- the summary --
    def summary(self) -> Summary:
        """What the review says of the whole deal (its search computed when first asked)."""
        if self._summary is None:
            self._summary = self._summarise()
        return self._summary

    def _summarise(self) -> Summary:
        deal, seat = self.deal, self.seat
        extra = []
        for index, span in enumerate(self.spans):
            moves = deal.move_stack[span.start : span.end]
            actions = actions_in(moves)
            if actions > 1 and not any(isinstance(m, DeclareGame) for m in moves):
                review = self.turn(index)
                if review.extra:
                    extra.append((span, actions, review.careful.actions))
        jokers = sum(1 for c in deal.hand(seat) if c.is_joker)
        status = deal.status[seat]
        died = next(
            (
                s
                for s in self.spans
                if any(isinstance(m, DeclareDead) for m in deal.move_stack[s.start : s.end])
            ),
            None,
        )
        rescue, searched = (None, 0) if died is None else self._search(died)
        return Summary(
            deal.is_over,
            tuple(extra),
            jokers,
            jokers * deal.rules.card_value(0),
            status,
            died,
            rescue,
            searched,
        )

    def _search(self, died: TurnSpan) -> tuple[Rescue | None, int]:
        """The latest turn before `died` from which the careful bot keeps the seat alive past
        the learner's own turn `died.number`, and how many turns were tried."""
        self._replay()
        seat = self.seat
        tried = 0
        for index in range(died.number - 2, -1, -1):
            if tried >= SEARCH_TURNS:
                break
            tried += 1
            span = self.spans[index]
            working = position_at(self.deal, span.start)
            bots = copy.deepcopy(self._bots_at[index])
            for other, bot in bots.items():
                if isinstance(bot, ExpertBot):
                    # Played by a careful bot in the search, which must stay quick.
                    bots[other] = CarefulBot()
            careful = CarefulBot()
            bots[seat] = careful
            first = whole_turn(working, seat, careful)
            for _ in range(SEARCH_MOVES):
                if working.is_over or working.status[seat] is not Status.ALIVE:
                    break
                if working.turns[seat] > died.number:
                    break
                play_move(working, bots[working.turn])
            if working.status[seat] in (Status.ALIVE, Status.OUT):
                return Rescue(span, tuple(c.move for c in first), working.status[seat]), tried
        return None, tried

    # -- the link --
    def code(self) -> str:
        """The code of this review's link (see `encode`)."""
        return encode(self.deal, self.seat, self.bots, self.people)

    def link(self, page: str = REVIEW_PAGE) -> str | None:
        """`page?review=CODE`, or None when it would be longer than `MAX_LINK`."""
        return link_for(self.code(), page)
