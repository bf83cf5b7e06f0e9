"""Puzzles made from proved positions, and proved again: `puzzle_at` turns a position the
solvers prove into a `Puzzle` (its id from `position_id`), and `prove` runs the proof again from
a puzzle's record, which is how the shipped set is checked against the engine of the day.
"""

from __future__ import annotations

import hashlib

from penang_lib.course.puzzles.model import (
    KIND_QUESTIONS,
    Puzzle,
    PuzzleError,
    replay,
    require_id,
)
from penang_lib.course.puzzles.solvers import Solution, solve
from penang_lib.course.puzzles.weighing import STRATEGY_SAMPLES, shown_numbers
from penang_lib.engine.cards import cards_text
from penang_lib.engine.deal import Deal
from penang_lib.engine.record import to_record
from penang_lib.engine.validate import ArgumentTypeError, shown
from penang_lib.i18n import _, ngettext

__all__ = ["position_id", "prove", "puzzle_at"]


def position_id(deal: Deal, kind: str) -> str:
    """A stable, URL-safe id for a puzzle of `kind` at `deal`'s position: the kind and a digest
    of what the learner sees (the hand, the table, the passport)."""
    seen = "|".join(
        [
            kind,
            cards_text(deal.hand()),
            ";".join(str(meld) for meld in deal.table),
            str(deal.passport[deal.turn]),
        ]
    )
    return f"{kind}-{hashlib.sha256(seen.encode()).hexdigest()[:8]}"


def puzzle_at(
    deal: Deal, kind: str, puzzle_id: str | None = None, found: Solution | None = None
) -> Puzzle:
    """The puzzle of `kind` at `deal`'s position, proved by `solve` (or given its `found`
    solution); a `PuzzleError` with the proof's sentence when the position is not one. The id
    defaults to `position_id`."""
    if found is None:
        solved = solve(deal, kind)
        if isinstance(solved, str):
            raise PuzzleError(solved)
        found = solved
    return Puzzle(
        id=position_id(deal, kind) if puzzle_id is None else require_id(puzzle_id),
        kind=kind,
        record=to_record(deal),
        ply=deal.ply(),
        seat=deal.turn,
        question=KIND_QUESTIONS[kind],  # as marked (the English), translated where shown
        answers=found.answers,
        rules=found.rules,
        difficulty=found.difficulty,
        legal=found.legal,
        weighed=found.weighed,
    )


def prove(puzzle: Puzzle) -> str | None:
    """None when the engine still proves the puzzle (its answers are exactly the right moves,
    unique in the sense its kind states); otherwise one sentence saying what broke. A
    `strategy` puzzle is weighed again on as many drawn deals as it says, and its numbers must
    come out the same."""
    if not isinstance(puzzle, Puzzle):
        raise ArgumentTypeError(f"prove takes a Puzzle, not {shown(puzzle)}")
    try:
        deal = replay(puzzle.record, puzzle.ply)
    except PuzzleError as error:
        return str(error)
    if deal.turn != puzzle.seat:
        return _("At the puzzle's position seat {seat} is to move, not seat {expected}.").format(
            seat=deal.turn, expected=puzzle.seat
        )
    samples = puzzle.weighed[0].samples if puzzle.weighed else STRATEGY_SAMPLES
    found = solve(deal, puzzle.kind, samples=samples)
    if isinstance(found, str):
        return found
    if set(found.answers) != set(puzzle.answers):
        engine = "; ".join(m.label() for m in found.answers)
        return _("The engine's answers are now {answers}, not the puzzle's.").format(answers=engine)
    if found.legal != puzzle.legal:
        return ngettext(
            "The position has {count} legal move, not {expected}.",
            "The position has {count} legal moves, not {expected}.",
            found.legal,
        ).format(count=found.legal, expected=puzzle.legal)
    if found.weighed != puzzle.weighed:
        if not found.weighed:
            return _("Only a strategy puzzle holds the starts the expert weighed.")
        best = found.weighed[0]
        return _(
            "The expert's weighing has changed: {best} now ends with {count} points on average "
            "and wins {wins}% of the drawn deals."
        ).format(best=best.move.label(), **shown_numbers(best))
    return None
