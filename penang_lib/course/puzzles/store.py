"""The file format of a puzzle set, and the shipped set.

`puzzles_to_json` writes a set as JSON text, one puzzle a line, under `FORMAT` and `VERSION`;
`puzzles_from_json` reads it back and checks each puzzle (its answers must be legal at its
position), raising `PuzzleError` with one sentence on bad input. `shipped_puzzles` is the set
in notebooks/lessons/data/puzzles.json, made by `penang-rummy puzzles` (see `mining`).

A `strategy` puzzle has one field more, `weighed` (`WEIGHED_FIELDS`): every start the expert
weighed, the best first, with its numbers, so that a page judges a move without playing a deal.
The exact kinds have no such field, so their lines read as they always did.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from importlib.resources import files
from typing import Any, Final

from penang_lib.course.puzzles.model import (
    PUZZLE_KINDS,
    Puzzle,
    PuzzleError,
    Weighed,
    effect,
    kept,
    require_id,
    require_puzzle,
    shared_position,
)
from penang_lib.course.puzzles.weighing import MIN_STARTS
from penang_lib.engine.deal import Deal
from penang_lib.engine.expert import MAX_SAMPLES
from penang_lib.engine.moves import move_from_dict, move_to_dict
from penang_lib.engine.rules import RULE_BOOK
from penang_lib.engine.validate import ArgumentTypeError, cut, shown
from penang_lib.i18n import _

__all__ = [
    "FORMAT",
    "PUZZLE_FIELDS",
    "VERSION",
    "WEIGHED_FIELDS",
    "find_puzzle",
    "puzzles_from_json",
    "puzzles_to_json",
    "shipped_puzzles",
]

FORMAT: Final = "penang-rummy/puzzles"
VERSION: Final = 1
PUZZLE_FIELDS: Final = (
    "id",
    "kind",
    "ply",
    "seat",
    "question",
    "answers",
    "rules",
    "difficulty",
    "legal",
    "record",
)
STRATEGY_FIELD: Final = "weighed"
"""The field only a `strategy` puzzle has (and must have): the starts the expert weighed."""
WEIGHED_FIELDS: Final = ("move", "count", "wins", "samples", "error")
"""The fields of one start weighed (`Weighed`)."""


def _weighed_dict(weighed: Weighed) -> dict[str, Any]:
    return {
        "move": move_to_dict(weighed.move),
        "count": weighed.count,
        "wins": weighed.wins,
        "samples": weighed.samples,
        "error": weighed.error,
    }


def _puzzle_dict(puzzle: Puzzle) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": puzzle.id,
        "kind": puzzle.kind,
        "ply": puzzle.ply,
        "seat": puzzle.seat,
        "question": puzzle.question,
        "answers": [move_to_dict(m) for m in puzzle.answers],
        "rules": list(puzzle.rules),
        "difficulty": puzzle.difficulty,
        "legal": puzzle.legal,
    }
    if puzzle.weighed:
        data[STRATEGY_FIELD] = [_weighed_dict(w) for w in puzzle.weighed]
    data["record"] = puzzle.record
    return data


def puzzles_to_json(puzzles: Sequence[Puzzle], note: str = "") -> str:
    """The puzzles as JSON text (`puzzles_from_json` reads it back); `note` is kept as a
    comment, such as the command that made the set."""
    if isinstance(puzzles, Puzzle) or not isinstance(puzzles, Iterable):
        raise ArgumentTypeError(f"puzzles_to_json takes a list of puzzles, not {shown(puzzles)}")
    items = [_puzzle_dict(require_puzzle(p)) for p in puzzles]
    head: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if note:
        head["note"] = note
    # One puzzle per line: the file stays small and a change shows as the lines it touches.
    lines = [json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in items]
    opening = json.dumps(head, ensure_ascii=False)[:-1]
    return opening + ', "puzzles": [\n' + ",\n".join(lines) + "\n]}\n"


def _whole(entry: dict[str, Any], key: str, low: int, high: int | None = None) -> int:
    value = entry[key]
    if value.__class__ is not int or value < low or (high is not None and value > high):
        if high is None:
            problem = _("{key} should be a whole number from {low} or more, not {value}")
        else:
            problem = _("{key} should be a whole number from {low} to {high}, not {value}")
        raise PuzzleError(problem.format(key=repr(key), low=low, high=high, value=shown(value)))
    number: int = value
    return number


def _number(entry: dict[str, Any], key: str, high: float = math.inf) -> float:
    """`entry[key]`: a finite number from 0 to `high`, or a `PuzzleError`."""
    value = entry[key]
    if value.__class__ not in (int, float) or not (math.isfinite(value) and 0 <= value <= high):
        raise PuzzleError(
            _("{key} of a start weighed should be a number of 0 or more, not {value}").format(
                key=repr(key), value=shown(value)
            )
            if high == math.inf
            else _(
                "{key} of a start weighed should be a number from 0 to {high}, not {value}"
            ).format(key=repr(key), high=high, value=shown(value))
        )
    return float(value)


def _read_weighed(entry: object) -> Weighed:
    if not isinstance(entry, dict) or set(entry) != set(WEIGHED_FIELDS):
        raise PuzzleError(
            _("a start weighed is an object with {fields}").format(fields=", ".join(WEIGHED_FIELDS))
        )
    try:
        move = move_from_dict(entry["move"])
    except (TypeError, ValueError) as error:
        raise PuzzleError(
            _("a start weighed cannot be read: {error}").format(error=error)
        ) from None
    return Weighed(
        move=move,
        count=_number(entry, "count"),
        wins=_number(entry, "wins", 1),
        samples=_whole(entry, "samples", 2, MAX_SAMPLES),
        error=_number(entry, "error"),
    )


def _read_starts(entry: dict[str, Any], kind: str, deal: Deal) -> tuple[Weighed, ...]:
    """A `strategy` puzzle's starts weighed, checked (each legal at the position, on one number
    of drawn deals, the best first); none for the exact kinds."""
    if kind != "strategy":
        if STRATEGY_FIELD in entry:
            raise PuzzleError(_("only a strategy puzzle holds the starts the expert weighed"))
        return ()
    found = entry.get(STRATEGY_FIELD)
    if not isinstance(found, list) or len(found) < MIN_STARTS:
        raise PuzzleError(
            _("a strategy puzzle lists the {least} or more starts the expert weighed").format(
                least=MIN_STARTS
            )
        )
    weighed = tuple(_read_weighed(w) for w in found)
    for start in weighed:
        refusal = deal.explain_illegal(start.move)
        if refusal is not None:
            raise PuzzleError(
                _("the start {start} is illegal there: {reason}").format(
                    start=repr(start.move.label()), reason=refusal.reason
                )
            )
    if len({w.samples for w in weighed}) > 1:
        raise PuzzleError(_("every start weighed should be played on the same drawn deals"))
    if any(w.score > weighed[0].score for w in weighed):
        raise PuzzleError(_("the first start weighed should be the best one"))
    return weighed


def _read_puzzle(entry: object) -> Puzzle:
    if not isinstance(entry, dict):
        raise PuzzleError(
            _("a puzzle is an object with {fields}").format(fields=", ".join(PUZZLE_FIELDS))
        )
    missing = [key for key in PUZZLE_FIELDS if key not in entry]
    if missing:
        raise PuzzleError(_("a puzzle needs {field}").format(field=repr(missing[0])))
    unknown = [key for key in entry if key not in (*PUZZLE_FIELDS, STRATEGY_FIELD)]
    if unknown:
        raise PuzzleError(_("a puzzle has no field {field}").format(field=shown(unknown[0])))
    puzzle_id = require_id(entry["id"])
    kind = entry["kind"]
    if kind not in PUZZLE_KINDS:
        raise PuzzleError(
            _("{kind} is not a puzzle kind: the kinds are {kinds}").format(
                kind=shown(kind), kinds=", ".join(PUZZLE_KINDS)
            )
        )
    question = entry["question"]
    if not isinstance(question, str) or not question.strip():
        raise PuzzleError(_("a puzzle's question should be a sentence of text"))
    rules = entry["rules"]
    if not isinstance(rules, list) or not rules or any(r not in RULE_BOOK for r in rules):
        raise PuzzleError(_("a puzzle's rules should be a list of rule ids of the rule book"))
    answers = entry["answers"]
    if not isinstance(answers, list) or not answers:
        raise PuzzleError(_("a puzzle's answers should be a list of at least one move"))
    try:
        moves = tuple(move_from_dict(a) for a in answers)
    except (TypeError, ValueError) as error:
        raise PuzzleError(_("an answer cannot be read: {error}").format(error=error)) from None
    record = entry["record"]
    if not isinstance(record, dict):
        raise PuzzleError(_("a puzzle's record should be a deal record (an object)"))
    ply = _whole(entry, "ply", 0)
    puzzle = Puzzle(
        id=puzzle_id,
        kind=kind,
        record=record,
        ply=ply,
        seat=_whole(entry, "seat", 0),
        question=question,
        answers=moves,
        rules=tuple(rules),
        difficulty=_whole(entry, "difficulty", 1, 5),
        legal=_whole(entry, "legal", 1),
    )
    deal = shared_position(puzzle)
    if deal.is_over or deal.turn != puzzle.seat:
        raise PuzzleError(
            _("at the position it is not seat {seat}'s turn").format(seat=puzzle.seat)
        )
    for move in moves:
        refusal = deal.explain_illegal(move)
        if refusal is not None:
            raise PuzzleError(
                _("the answer {answer} is illegal there: {reason}").format(
                    answer=repr(move.label()), reason=refusal.reason
                )
            )
    weighed = _read_starts(entry, kind, deal)
    if weighed and effect(deal, weighed[0].move) != effect(deal, moves[0]):
        raise PuzzleError(_("the answer of a strategy puzzle should be its best start weighed"))
    if not weighed:
        return puzzle
    strategy = replace(puzzle, weighed=weighed)
    kept(strategy, "position", lambda: deal)  # the same record and ply: the same position
    return strategy


def puzzles_from_json(text: str) -> list[Puzzle]:
    """The puzzles of a JSON text made by `puzzles_to_json`, each replayed and checked (its
    answers must be legal at its position); `PuzzleError` with one sentence on bad input."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"puzzles_from_json reads JSON text, not {shown(text)}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise PuzzleError(
            _("the puzzles are not valid JSON: {error}").format(error=error)
        ) from None
    except RecursionError:
        raise PuzzleError(_("the puzzles are not valid JSON: nested too deeply")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleError(
            _("this is not a puzzle set: its 'format' should be {format}").format(
                format=repr(FORMAT)
            )
        )
    if data.get("version") != VERSION:
        raise PuzzleError(
            _("version {version} of the puzzle set is not known here").format(
                version=shown(data.get("version"))
            )
        )
    entries = data.get("puzzles")
    if not isinstance(entries, list):
        raise PuzzleError(_("a puzzle set holds its 'puzzles' as a list"))
    puzzles: list[Puzzle] = []
    seen: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        name = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(name, str):
            label = _("puzzle {number} ({id})").format(number=number, id=cut(str(name)))
        else:
            label = _("puzzle {number}").format(number=number)
        try:
            puzzle = _read_puzzle(entry)
        except PuzzleError as error:
            raise PuzzleError(
                _("{puzzle}: {problem}").format(puzzle=label, problem=error)
            ) from None
        if puzzle.id in seen:
            raise PuzzleError(
                _("{puzzle}: the id {id} is used twice").format(puzzle=label, id=repr(puzzle.id))
            )
        seen.add(puzzle.id)
        puzzles.append(puzzle)
    return puzzles


def _ordered(puzzles: Iterable[Puzzle]) -> list[Puzzle]:
    return sorted(puzzles, key=lambda p: (p.difficulty, p.id))


@lru_cache(maxsize=1)
def _shipped() -> tuple[Puzzle, ...]:
    path = files("penang_lib.notebooks") / "lessons" / "data" / "puzzles.json"
    return tuple(_ordered(puzzles_from_json(path.read_text(encoding="utf-8"))))


def shipped_puzzles() -> list[Puzzle]:
    """The puzzles shipped in notebooks/lessons/data/puzzles.json, sorted by difficulty then
    id (read and checked once, then kept)."""
    return list(_shipped())


def find_puzzle(puzzles: Sequence[Puzzle], puzzle_id: str) -> Puzzle:
    """The puzzle with id `puzzle_id`; a `PuzzleError` when the set has none."""
    if not isinstance(puzzle_id, str):
        raise ArgumentTypeError(
            f"a puzzle id is text such as 'lay-off-1a2b3c4d', not {shown(puzzle_id)}"
        )
    for puzzle in puzzles:
        if require_puzzle(puzzle).id == puzzle_id:
            return puzzle
    raise PuzzleError(_("There is no puzzle {id} in this set.").format(id=repr(cut(puzzle_id))))
