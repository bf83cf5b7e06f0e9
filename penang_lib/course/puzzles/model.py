"""What a puzzle is: its kinds, the `Puzzle` itself, its id, and its position replayed.

Every other module of the package builds on this one, and it imports none of them. A `Puzzle`
is frozen; what is worked out from it once (its position, what its answers do, why they are
right) is kept on it by `kept`, outside its fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from penang_lib.engine.deal import Deal
from penang_lib.engine.expert import WIN_POINTS
from penang_lib.engine.moves import LayOff, MeldMove, Move, Swap
from penang_lib.engine.record import RecordError, from_record
from penang_lib.engine.validate import ArgumentTypeError, shown
from penang_lib.i18n import N_, _, ngettext

__all__ = [
    "EXACT_KINDS",
    "ID_SHAPE",
    "KIND_QUESTIONS",
    "KIND_RULES",
    "MAX_ID",
    "PUZZLE_KINDS",
    "READER_FIELDS",
    "Puzzle",
    "PuzzleError",
    "Weighed",
    "effect",
    "kept",
    "replay",
    "require_id",
    "require_puzzle",
    "shape",
    "shared_position",
    "table_effect",
]

T = TypeVar("T")

PUZZLE_KINDS: Final[tuple[str, ...]] = (
    "passport",
    "dead.passport",
    "lay-off",
    "swap",
    "dead",
    "game",
    "deadwood",
    "strategy",
)
"""The kinds of puzzle, in the order the rules are taught. The first seven are exact (their
proofs search every legal move, `EXACT_KINDS`); the last, `strategy`, is proved by the expert
bot weighing each start of the turn on deals drawn to agree with the learner's view."""
EXACT_KINDS: Final[tuple[str, ...]] = PUZZLE_KINDS[:-1]
"""The kinds whose proofs search every legal move (all but `strategy`)."""

KIND_QUESTIONS: Final[dict[str, str]] = {
    "passport": N_("Your first turn: which is the only meld you can make as your passport?"),
    "dead.passport": N_("Your first turn: make your passport if you can. What do you play?"),
    "lay-off": N_("No meld is left in your hand. Which move keeps you alive this turn?"),
    "swap": N_("You cannot meld or lay off as your hand stands. How do you stay alive this turn?"),
    "dead": N_("Your turn: find a move that keeps you alive, or declare Dead if there is none."),
    "game": N_("You can go out this turn. Which move must come first?"),
    "deadwood": N_(
        "You cannot go out this turn. Which move starts the turn that leaves you the fewest "
        "points in hand?"
    ),
    "strategy": N_(
        "Several moves can start your turn, and none is forced. Which start should end the deal "
        "best for you, with a win or the fewest points in hand?"
    ),
}
"""The question each kind asks the learner (one sentence). Marked for the catalog: a puzzle
keeps the English (it is written into the puzzle set), and a page shows it through `_()`."""

KIND_RULES: Final[dict[str, str]] = {
    "passport": "passport",
    "dead.passport": "dead.passport",
    "lay-off": "lay-off",
    "swap": "swap",
    "dead": "dead",
    "game": "game",
    "deadwood": "scoring",
    "strategy": "scoring",
}
"""The rule id a kind is about (the rule of a verdict on a legal move)."""
ID_SHAPE: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789.-")
MAX_ID: Final = 40
"""A puzzle id is 1 to `MAX_ID` characters of `ID_SHAPE` (it goes into a page's link)."""
READER_FIELDS: Final = ("table", "final_hands", "scores", "winners", "over")
"""The fields of a deal record that describe its last position (left out when a record is
replayed only up to a puzzle's position)."""


class PuzzleError(ValueError):
    """Puzzle data that cannot be used, or a puzzle that is not in a set (one sentence)."""


@dataclass(frozen=True)
class Weighed:
    """One start of the turn as the expert weighed it for a `strategy` puzzle: the `move`, the
    count it ended the deal with on average (`count`), its share of the wins (`wins`, 0 to 1;
    a tie shares a win), over how many drawn deals (`samples`), and the standard error of the
    gap between the best start's score and its own on those same deals (`error`; 0 for the best
    start itself). Numbers are kept rounded as the puzzle set stores them."""

    move: Move
    count: float
    wins: float
    samples: int
    error: float

    @property
    def score(self) -> float:
        """The expert's measure of a start: `WIN_POINTS` x its win share less its count (higher
        is better)."""
        return WIN_POINTS * self.wins - self.count


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position after the first `ply` moves of `record`, with `seat` to move,
    the `question` asked, every right move (`answers`), the rule ids it is about, how hard it
    is (1 to 5) and how many legal moves the position has."""

    id: str
    kind: str
    record: dict[str, Any]
    ply: int
    seat: int
    question: str
    answers: tuple[Move, ...]
    rules: tuple[str, ...]
    difficulty: int
    legal: int
    weighed: tuple[Weighed, ...] = ()
    """For a `strategy` puzzle, every start the expert weighed, the best first, the others by
    score: what its feedback quotes, so that a page never plays a deal to judge a move. Empty for
    the exact kinds."""

    def __hash__(self) -> int:
        return hash((self.id, self.kind, self.ply, self.seat, self.answers))

    def position(self) -> Deal:
        """A fresh deal at the puzzle's position (the record's moves replayed by the rules)."""
        return shared_position(self).copy()


def kept(puzzle: Puzzle, key: str, work: Callable[[], T]) -> T:
    """`work()`, done once for `puzzle` and kept on it under `key` (a puzzle is frozen, so what
    is worked out from its fields stays true)."""
    name = "_" + key
    if name in puzzle.__dict__:
        known: T = puzzle.__dict__[name]
        return known
    value = work()
    object.__setattr__(puzzle, name, value)
    return value


def shared_position(puzzle: Puzzle) -> Deal:
    """The puzzle's position, replayed once and kept: shared by every caller, so only ever read
    or copied, never changed (`Puzzle.position` gives a copy to play on)."""
    return kept(puzzle, "position", lambda: replay(puzzle.record, puzzle.ply))


def replay(record: dict[str, Any], ply: int) -> Deal:
    """The deal after the first `ply` moves of `record`, or a `PuzzleError` saying why not."""
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise PuzzleError(_("a puzzle's record should hold its list of moves"))
    if ply > len(moves):
        raise PuzzleError(
            ngettext(
                "the puzzle's position is after move {ply}, but its record holds only {count} move",
                "the puzzle's position is after move {ply}, but its record holds only {count} "
                "moves",
                len(moves),
            ).format(ply=ply, count=len(moves))
        )
    data = dict(record)
    if ply < len(moves):
        for key in READER_FIELDS:
            data.pop(key, None)
        data["moves"] = moves[:ply]
    try:
        return from_record(data)
    except (RecordError, ArgumentTypeError) as error:
        raise PuzzleError(
            _("the puzzle's record cannot be replayed: {error}").format(error=error)
        ) from None


def table_effect(after: Deal, move: Move) -> tuple[object, ...]:
    """What `move` did, read from `after` (the deal just after it was pushed): its type and the
    table meld it made or changed. Two moves with the same effect are the same move written two
    ways (a joker with or without its note, the cards of a meld in another order)."""
    if isinstance(move, MeldMove):
        return ("meld", after.table[-1])
    if isinstance(move, LayOff | Swap):
        return (move.type, move.target, after.table[move.target])
    return (move.type,)


def effect(deal: Deal, move: Move) -> tuple[object, ...]:
    """What legal `move` would do at `deal`'s position (played on a copy: `table_effect`)."""
    after = deal.copy()
    after.push(move)
    return table_effect(after, move)


def shape(move: Move) -> tuple[object, ...]:
    """A move with its jokers' notes left out: two readings of the same cards look the same."""
    if isinstance(move, MeldMove):
        return ("meld", tuple(sorted((c.rank, c.suit) for c in move.cards)))
    if isinstance(move, LayOff | Swap):
        return (move.type, move.target, move.card.rank, move.card.suit)
    return (move.type,)


def require_puzzle(puzzle: object) -> Puzzle:
    """`puzzle`, checked to be a `Puzzle` (an `ArgumentTypeError` when it is not)."""
    if not isinstance(puzzle, Puzzle):
        raise ArgumentTypeError(
            f"a puzzle should be a Puzzle (shipped_puzzles()), not {shown(puzzle)}"
        )
    return puzzle


def require_id(value: object) -> str:
    """`value`, checked to be a puzzle id (a `PuzzleError` when it is not)."""
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_ID or not set(value) <= ID_SHAPE:
        raise PuzzleError(
            _("a puzzle id is 1 to {most} characters a-z, 0-9, '.' or '-', not {value}").format(
                most=MAX_ID, value=shown(value)
            )
        )
    return value
