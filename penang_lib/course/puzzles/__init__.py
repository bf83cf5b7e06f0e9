"""Puzzles: a position from a real deal with one right answer, proved by the engine.

A puzzle is a deal record, the number of moves played (`ply`) and the seat to move there (the
learner's). Its `kind` says what makes the answer the only one; there are eight kinds
(`PUZZLE_KINDS`, in the order the rules are taught), seven exact ones (`EXACT_KINDS`, proved by
searching every legal move) and one weighed by the expert bot:

- `passport`: a first turn on which exactly one meld can be made. The answers are that meld's
  moves: when a joker can stand for more than one card, every reading of the same cards counts.
- `dead.passport`: a first turn on which no meld can be made, though the hand holds pairs,
  two cards of a run or a joker: the answer is to declare Dead.
- `lay-off`: after the passport, no meld is left in the hand, no swap helps and exactly one
  card fits exactly one table meld: that lay-off is the only action (rule `turn`).
- `swap`: after the passport, no meld and no lay-off can be made as the hand stands, but a swap
  brings a joker that can be played: the answers are the swaps that leave an action.
- `dead`: after the passport, nothing can be played even counting swaps, though some cards
  look as if they could (a card of a table run's suit, a joker on the table, a pair): the answer
  is to declare Dead.
- `game`: the hand (at most `MAX_GAME_HAND` cards) can be emptied this turn, but only when the
  turn starts with one of a few moves; most legal first moves leave it impossible. The answers
  are the first moves from which some order of melds, lay-offs and swaps empties the hand.
- `deadwood`: after the passport, the hand (at most `MAX_DEADWOOD_HAND` cards) cannot be
  emptied this turn, and at least three first moves can be made. The answers are the first
  moves from which the turn can end with the fewest points in hand; most first moves keep more.
- `strategy`: after the passport, at least `MIN_STARTS` different starts of the turn are worth
  weighing (the expert bot's candidates) and the hand cannot be emptied this turn. The expert
  plays each start on the same `STRATEGY_SAMPLES` deals drawn to agree with the learner's view,
  careful bots finishing the deal; the answer is the start whose mean score (`WIN_POINTS` for a
  win less the count) leads every other by `STRATEGY_MARGIN` points and by `STRATEGY_ERRORS`
  standard errors of the paired difference. The puzzle keeps every start's numbers
  (`Weighed`), which its feedback quotes.

Every position is one at the start of a turn (no action made yet). `solve(deal, kind)` is the
proof: for an exact kind it searches every legal move (for `game` and `deadwood`, every order
of this turn's moves, remembering positions already searched), for `strategy` it weighs the
starts on deals drawn from a seed fixed by the position; it returns the answers, or a sentence
saying why the position is no puzzle of that kind. `prove(puzzle)` runs it again from the
puzzle's record. `judge` says whether a move is right, in the engine's own sentences. A
puzzle's difficulty, 1 to 5, grows with the tempting wrong moves (legal first moves that fail,
pairs that are no meld, cards of a table run's suit that do not fit it) and with the share of
legal moves that fail; for `strategy`, with a smaller lead of the best start and more starts.
The shipped set lives in notebooks/lessons/data/puzzles.json, made by `penang-rummy puzzles`
(see `mining`).

The package's modules, each doing one thing, lowest first (each imports only those above it):

- `model`: the kinds, their questions and rules, `Puzzle`, `Weighed`, `PuzzleError`, ids, and a
  puzzle's position replayed from its record.
- `difficulty`: the moves that tempt and fail, and the 1-to-5 rating.
- `weighing`: the expert's weighing of the starts behind `strategy`, and its proof sentence.
- `solvers`: the eight solvers, `Solution` and `solve` (`game` and `deadwood` search the turn
  with the engine's `turn_search`).
- `proof`: `puzzle_at`, `position_id` and `prove`.
- `judging`: `judge`, `Judgement` and `answer_sentence`.
- `store`: the JSON format (`puzzles_to_json`, `puzzles_from_json`), `shipped_puzzles` and
  `find_puzzle`.

Every public name is importable from `penang_lib.course.puzzles` itself (`__all__`), as it was
when the package was one module.
"""

from penang_lib.course.puzzles.judging import DEAD_REFUSED, Judgement, answer_sentence, judge
from penang_lib.course.puzzles.model import (
    EXACT_KINDS,
    ID_SHAPE,
    KIND_QUESTIONS,
    KIND_RULES,
    MAX_ID,
    PUZZLE_KINDS,
    READER_FIELDS,
    Puzzle,
    PuzzleError,
    Weighed,
)
from penang_lib.course.puzzles.proof import position_id, prove, puzzle_at
from penang_lib.course.puzzles.solvers import (
    MAX_DEADWOOD_HAND,
    MAX_GAME_ANSWERS,
    MAX_GAME_HAND,
    Solution,
    solve,
)
from penang_lib.course.puzzles.store import (
    FORMAT,
    PUZZLE_FIELDS,
    VERSION,
    WEIGHED_FIELDS,
    find_puzzle,
    puzzles_from_json,
    puzzles_to_json,
    shipped_puzzles,
)
from penang_lib.course.puzzles.weighing import (
    MIN_STARTS,
    STRATEGY_ERRORS,
    STRATEGY_MARGIN,
    STRATEGY_SAMPLES,
)
from penang_lib.engine.turn_search import SEARCH_BUDGET

__all__ = [
    "DEAD_REFUSED",
    "EXACT_KINDS",
    "FORMAT",
    "ID_SHAPE",
    "KIND_QUESTIONS",
    "KIND_RULES",
    "MAX_DEADWOOD_HAND",
    "MAX_GAME_ANSWERS",
    "MAX_GAME_HAND",
    "MAX_ID",
    "MIN_STARTS",
    "PUZZLE_FIELDS",
    "PUZZLE_KINDS",
    "READER_FIELDS",
    "SEARCH_BUDGET",
    "STRATEGY_ERRORS",
    "STRATEGY_MARGIN",
    "STRATEGY_SAMPLES",
    "VERSION",
    "WEIGHED_FIELDS",
    "Judgement",
    "Puzzle",
    "PuzzleError",
    "Solution",
    "Weighed",
    "answer_sentence",
    "find_puzzle",
    "judge",
    "position_id",
    "prove",
    "puzzle_at",
    "puzzles_from_json",
    "puzzles_to_json",
    "shipped_puzzles",
    "solve",
]
