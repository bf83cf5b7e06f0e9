"""The proof of a `strategy` puzzle: the expert bot weighs every start of the turn worth
weighing, and one start must be clearly the best.

At a turn's start after the passport, the starts are the expert's own candidate first moves
(`penang_lib.engine.expert.candidates` of the learner's view: the watchful, the careful and the
greedy bot's choices, every swap and natural lay-off, the melds worth the most points), each
counted once by what it does to the table. With at least `MIN_STARTS` of them, `expert.judge`
plays each start on the same `STRATEGY_SAMPLES` deals drawn to agree with what the learner can
see, careful players finishing the deal (the learner's seat by the watchful bot, the careful bot
with two habits more, as the expert plays its own). A start's score on a drawn deal
is the expert's measure: `WIN_POINTS` for a win (shared on a tie) less the count it ends with.
The position is a puzzle only when the best start's mean score leads every other start's by at
least `STRATEGY_MARGIN` points and by at least `STRATEGY_ERRORS` standard errors of the paired
difference (the same drawn deals for every start, so luck of the draw cancels out as far as it
can).

The draw is seeded from the position (`strategy_seed`), never from the clock, so the same
position always gives the same numbers: `prove` re-derives a puzzle's answer and numbers
exactly. What was weighed is kept in the puzzle (`Weighed`), so that judging a move later
quotes numbers and never plays a deal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Final

from penang_lib.course.puzzles.model import Weighed, effect
from penang_lib.engine.cards import cards_text
from penang_lib.engine.deal import Deal
from penang_lib.engine.expert import MAX_SAMPLES, WIN_POINTS, Outcome, candidates, judge
from penang_lib.engine.explain import move_words
from penang_lib.engine.moves import Move
from penang_lib.engine.validate import require_whole
from penang_lib.engine.view import PlayerView
from penang_lib.i18n import N_, _, ngettext

__all__ = [
    "MIN_STARTS",
    "STRATEGY_ERRORS",
    "STRATEGY_MARGIN",
    "STRATEGY_SAMPLES",
    "STRATEGY_WHY",
    "proof_sentence",
    "shown_numbers",
    "starts",
    "strategy_seed",
    "weigh_starts",
]

STRATEGY_SAMPLES: Final = 200
"""Deals drawn to weigh the starts of a `strategy` puzzle (every start is played on the same
ones). At about 1 ms a playout on the development machine, five starts take about a second."""
STRATEGY_MARGIN: Final = 5
"""Points of the expert's score (`WIN_POINTS` x the win share less the count) by which the best
start must lead every other start on average: less than that is too close to call a lesson."""
STRATEGY_ERRORS: Final = 3
"""Standard errors of the paired difference by which the best start must lead every other
start: with a handful of starts, a lead of 3 standard errors is very unlikely to come from
the luck of the draw alone (the expert itself plays a move on 2)."""
MIN_STARTS: Final = 3
"""A `strategy` puzzle weighs at least this many different starts (fewer make no real choice)."""

STRATEGY_WHY: Final = N_(
    "In {samples} deals drawn to agree with what you can see, each played to its end by careful "
    "players, {best} ends with {count} points in hand on average and wins {wins}% of the deals; "
    "the next best start, {other}, ends with {other_count} points and wins {other_wins}%. "
    "Counting a win as {win_points} points, the best start leads every other by {lead} points or "
    "more, and a start is called best only when it leads by at least {margin} points and by "
    "{errors} times what the luck of the draw could explain."
)
"""The proof of a `strategy` puzzle in the learner's words (marked: shown through `_()`)."""


def strategy_seed(deal: Deal) -> int:
    """The seed of the deals drawn to weigh the starts at `deal`'s position: a digest of the
    position (the hand, the table, the moves played so far), so the same position always draws
    the same deals."""
    seen = "|".join(
        [
            cards_text(deal.hand()),
            ";".join(str(meld) for meld in deal.table),
            str(deal.ply()),
            str(deal.seed),
        ]
    )
    return int(hashlib.sha256(seen.encode()).hexdigest()[:15], 16)


def starts(deal: Deal, view: PlayerView | None = None) -> list[Move]:
    """The starts worth weighing at `deal`'s position: the expert's candidate first moves, in
    its order, each kept once by what it does (two ways of writing one move are one start)."""
    view = PlayerView.of(deal) if view is None else view
    found: dict[tuple[object, ...], Move] = {}
    for move in candidates(view):
        found.setdefault(effect(deal, move), move)
    return list(found.values())


def _weighed(outcome: Outcome, best: Outcome) -> Weighed:
    error = 0.0 if outcome is best else best.gain_over(outcome)[1]
    return Weighed(
        move=outcome.move,
        count=round(outcome.mean_count, 2),
        wins=round(outcome.win_rate, 4),
        samples=len(outcome.counts),
        error=round(error, 2),
    )


def _words(deal: Deal, move: Move) -> str:
    return move_words(move, deal.table, deal.owners, deal.names)


def _too_close(deal: Deal, best: Outcome, other: Outcome) -> str | None:
    """Why `best` does not lead `other` clearly enough (None when it does)."""
    gain, error = best.gain_over(other)
    if gain < STRATEGY_MARGIN:
        return _(
            "The best start, {best}, leads {other} by only {gain} points on average, less than "
            "the {margin} a clear best start needs."
        ).format(
            best=_words(deal, best.move),
            other=_words(deal, other.move),
            gain=round(gain, 1),
            margin=STRATEGY_MARGIN,
        )
    if gain < STRATEGY_ERRORS * error:
        return _(
            "The best start, {best}, leads {other} by {gain} points on average, less than {errors} "
            "times what the luck of the draw could explain ({error} points): not clear enough."
        ).format(
            best=_words(deal, best.move),
            other=_words(deal, other.move),
            gain=round(gain, 1),
            errors=STRATEGY_ERRORS,
            error=round(error, 1),
        )
    return None


def weigh_starts(deal: Deal, samples: int = STRATEGY_SAMPLES) -> tuple[Weighed, ...] | str:
    """Every start at `deal`'s position (a turn's start, the passport made) weighed on the same
    `samples` drawn deals, the best first and the others by score: when the best start leads
    every other by `STRATEGY_MARGIN` points and `STRATEGY_ERRORS` standard errors. Otherwise
    one sentence saying why the position is no `strategy` puzzle. The deal is left as it was."""
    samples = require_whole(samples, "samples", 2, MAX_SAMPLES)
    view = PlayerView.of(deal)
    if view.forced() is not None:
        return _("Only one move can be made here: there is no choice to weigh.")
    moves = starts(deal, view)
    if len(moves) < MIN_STARTS:
        return ngettext(
            "Only {count} start is worth weighing: the choice is too plain to ask.",
            "Only {count} starts are worth weighing: the choice is too plain to ask.",
            len(moves),
        ).format(count=len(moves))
    outcomes = judge(view, [[m] for m in moves], samples=samples, seed=strategy_seed(deal))
    ranked = sorted(outcomes, key=lambda o: -o.value)  # stable: a tie keeps the expert's order
    best = ranked[0]
    for other in ranked[1:]:
        problem = _too_close(deal, best, other)
        if problem is not None:
            return problem
    return tuple(_weighed(o, best) for o in ranked)


def shown_numbers(weighed: Weighed) -> dict[str, int]:
    """A start's numbers as a sentence shows them: the mean count and the per cent of wins,
    each rounded to a whole number."""
    return {"count": round(weighed.count), "wins": round(100 * weighed.wins)}


def proof_sentence(deal: Deal, weighed: Sequence[Weighed]) -> str:
    """The proof of a `strategy` puzzle in numbers (`STRATEGY_WHY`): the best start and the next
    best, named as the table names them, and how clear the lead must be."""
    best, other = weighed[0], weighed[1]
    lead = best.score - max(w.score for w in weighed[1:])
    mine, theirs = shown_numbers(best), shown_numbers(other)
    return _(STRATEGY_WHY).format(
        samples=best.samples,
        best=_words(deal, best.move),
        count=mine["count"],
        wins=mine["wins"],
        other=_words(deal, other.move),
        other_count=theirs["count"],
        other_wins=theirs["wins"],
        win_points=WIN_POINTS,
        lead=round(lead),
        margin=STRATEGY_MARGIN,
        errors=STRATEGY_ERRORS,
    )
