"""A learner's progress, as kept in their own browser: no account, nothing sent anywhere.

What is kept (`Kept`): the lessons opened, in the order first opened; each lesson quiz's best
score (right answers out of its number of questions); the puzzles solved (their ids, no
repeats); the deals played against the bots and how many of them the learner won; and the last
page opened, for "continue where you left off".

The browser stores it as JSON text (localStorage) under the name `storage_key(base_url)`, with
a `version` field (`VERSION`). localStorage is shared by every page of one address, and on a
JupyterHub every user's server has the hub's one address: the name carries the base URL of the
server the site runs on (`/user/alice/penang/`), so that one user's progress never shows on
another's pages in the same browser. A lesson page sends that text here
(`penang_lib.widgets.progress`);
`apply` reads it, applies the page's updates and gives back the text to store. The landing page
has no kernel: it reads the same text with a small script of its own, which checks the same
shape and says the same sentences (`landing_settings`).

Stored text that does not read (edited by hand, or written by another version of the site) is a
`ProgressError` saying so in one sentence. Nothing is then written over it: only the learner's
own "Forget my progress" clears it.

Updates (`LessonOpened`, `QuizScored`, `PuzzleSolved`, `DealPlayed`) never lose anything kept:
a quiz score replaces the kept one only when it is better, a lesson or a puzzle is added once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from penang_lib.engine.validate import ArgumentTypeError, require_flag, require_text, require_whole
from penang_lib.i18n import N_, _

STORAGE_KEY: Final = "penang-rummy-progress"
"""The start of the name the browser keeps the progress under (see `storage_key`); a site
served at `/` keeps it under this name alone."""
VERSION: Final = 1
"""The version of the stored form; text with any other version is not read (nor overwritten)."""

LESSON_FILE: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,79}\.ipynb")
"""A page of the site as kept: a notebook's file name, no folder (e.g. 02_melds.ipynb)."""
PUZZLE_ID: Final = re.compile(r"[a-z0-9.-]{1,40}")
"""A puzzle's id (as `penang_lib.course.puzzles` names them, e.g. lay-off-0012)."""

MAX_TEXT: Final = 1_000_000
"""The longest stored text read (characters): far more than every lesson and puzzle needs."""
MAX_LESSONS: Final = 500
MAX_PUZZLES: Final = 20_000
MAX_QUESTIONS: Final = 1_000
MAX_DEALS: Final = 10**9

KEYS: Final = ("version", "lessons", "quizzes", "puzzles", "deals", "last")
"""The fields of the stored form, each always present."""

KEPT_HERE: Final = N_("Your progress is kept in this browser only.")
"""What a page says of the progress while all is well (marked: show it through `_()`)."""
NO_STORAGE: Final = N_(
    "This browser does not let the site keep your progress (its storage is turned off or full)."
)
"""What a page says when the browser refuses to store anything for the site (marked: show it
through `_()`)."""

SENTENCES: Final[dict[str, str]] = {
    "json": N_("it is not JSON text"),
    "size": N_("it is far too long to be progress"),
    "shape": N_("it is not a record of progress with the fields this site writes"),
    "version": N_("it was written by another version of the site"),
    "lessons": N_("its list of lessons opened is not a list of page names, each once"),
    "quizzes": N_("a quiz score in it is not a whole number of right answers out of the questions"),
    "puzzles": N_("its list of puzzles solved is not a list of puzzle names, each once"),
    "deals": N_("its deals played and won are not two whole numbers, with no more won than played"),
    "last": N_("its last page opened is not the name of a page"),
}
"""What can be wrong with stored text, by code: the part of the sentence that says what
(marked: `unreadable` shows it through `_()`)."""


def unreadable(code: str) -> str:
    """The one sentence a learner reads about stored progress that does not read."""
    return _(
        "The progress kept in this browser does not read ({problem}), so it is left as it is."
    ).format(problem=_(SENTENCES[code]))


class ProgressError(ValueError):
    """Stored progress that does not read: `code` says what is wrong (a key of `SENTENCES`),
    the message is the learner's sentence."""

    def __init__(self, code: str) -> None:
        super().__init__(unreadable(code))
        self.code = code


@dataclass(frozen=True)
class QuizScore:
    """A quiz's score: `score` right answers out of `out_of` questions."""

    score: int
    out_of: int

    def __post_init__(self) -> None:
        require_whole(self.out_of, "out_of", 1, MAX_QUESTIONS)
        require_whole(self.score, "score", 0, self.out_of)

    def beats(self, other: QuizScore | None) -> bool:
        """A score is better than none, and better than another when its share of right answers
        is larger (the same share out of more questions is also better)."""
        if other is None:
            return True
        mine, theirs = self.score * other.out_of, other.score * self.out_of
        return mine > theirs or (mine == theirs and self.out_of > other.out_of)


@dataclass(frozen=True)
class Kept:
    """Everything kept of one learner's progress (see the module text)."""

    lessons: tuple[str, ...] = ()
    quizzes: Mapping[str, QuizScore] = field(default_factory=dict)
    puzzles: tuple[str, ...] = ()
    played: int = 0
    won: int = 0
    last: str | None = None


def storage_key(base_url: str = "/") -> str:
    """The name the progress of a site served at `base_url` is kept under in the browser.

    A site at `/` keeps `STORAGE_KEY` itself (the name used before sites were told apart, so a
    learner's progress stays); any other base URL is added after an `@`, ending with a slash:
    `penang-rummy-progress@/user/alice/penang/`. Text that is not a path (not starting with
    `/`) counts as `/`. The landing page's script and the lessons' progress line
    (`penang_lib.widgets.progress`) make the same name from the base URL their page was served
    under."""
    base = require_text(base_url, "the base URL")
    if not base.startswith("/"):
        base = "/"
    if not base.endswith("/"):
        base += "/"
    return STORAGE_KEY if base == "/" else f"{STORAGE_KEY}@{base}"


# -- updates ---------------------------------------------------------------------------------------
def _lesson_file(value: object, name: str) -> str:
    text = require_text(value, name)
    if not LESSON_FILE.fullmatch(text):
        raise ValueError(f"{name} should be a lesson's file name such as 02_melds.ipynb")
    return text


@dataclass(frozen=True)
class LessonOpened:
    """A lesson page was opened: it is among the lessons opened, and the last page."""

    file: str

    def __post_init__(self) -> None:
        _lesson_file(self.file, "the lesson file")  # not for learners: a programmer's error

    def apply(self, kept: Kept) -> Kept:
        lessons = kept.lessons if self.file in kept.lessons else (*kept.lessons, self.file)
        if len(lessons) > MAX_LESSONS:
            lessons = kept.lessons
        return replace(kept, lessons=lessons, last=self.file)


@dataclass(frozen=True)
class QuizScored:
    """A lesson's quiz reached `score` right answers out of `out_of`: kept only if better."""

    file: str
    score: int
    out_of: int

    def __post_init__(self) -> None:
        _lesson_file(self.file, "the lesson file")  # not for learners: a programmer's error
        QuizScore(self.score, self.out_of)

    def apply(self, kept: Kept) -> Kept:
        new = QuizScore(self.score, self.out_of)
        if not new.beats(kept.quizzes.get(self.file)):
            return kept
        return replace(kept, quizzes={**kept.quizzes, self.file: new})


@dataclass(frozen=True)
class PuzzleSolved:
    """A puzzle was solved: its id is among the puzzles solved (once)."""

    puzzle_id: str

    def __post_init__(self) -> None:
        if not PUZZLE_ID.fullmatch(require_text(self.puzzle_id, "the puzzle id")):
            raise ValueError("the puzzle id should be 1 to 40 of a-z, 0-9, '.' and '-'")

    def apply(self, kept: Kept) -> Kept:
        if self.puzzle_id in kept.puzzles or len(kept.puzzles) >= MAX_PUZZLES:
            return kept
        return replace(kept, puzzles=(*kept.puzzles, self.puzzle_id))


@dataclass(frozen=True)
class DealPlayed:
    """A deal against the bots was played to its end; `won` when the learner was a winner."""

    won: bool

    def __post_init__(self) -> None:
        require_flag(self.won, "won")

    def apply(self, kept: Kept) -> Kept:
        if kept.played >= MAX_DEALS:
            return kept
        return replace(kept, played=kept.played + 1, won=kept.won + int(self.won))


Update = LessonOpened | QuizScored | PuzzleSolved | DealPlayed
"""One change a page makes to the progress."""


# -- the stored form -------------------------------------------------------------------------------
def _is_whole(value: object, low: int, high: int) -> bool:
    """A whole number from `low` to `high`: 3 or 3.0 (JSON does not tell them apart, nor does
    the landing page's script), never true or false."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _names(value: object, pattern: re.Pattern[str], limit: int) -> tuple[str, ...] | None:
    """`value` as distinct names matching `pattern` (at most `limit`), or None."""
    if not isinstance(value, list) or len(value) > limit:
        return None
    if not all(isinstance(v, str) and pattern.fullmatch(v) for v in value):
        return None
    return tuple(value) if len(set(value)) == len(value) else None


def read(text: str | None) -> Kept:
    """The progress stored as `text` (None: nothing stored yet, a fresh start).

    Raises `ProgressError` when the text does not read (its `code` says why)."""
    if text is None:
        return Kept()
    text = require_text(text, "the stored progress")
    if len(text) > MAX_TEXT:
        raise ProgressError("size")
    try:
        data = json.loads(text, parse_constant=_no_constant)  # NaN, Infinity: not JSON
    except ValueError:
        raise ProgressError("json") from None
    except RecursionError:  # JSON nested far deeper than progress ever is
        raise ProgressError("shape") from None
    if not isinstance(data, dict) or set(data) != set(KEYS):
        raise ProgressError("shape")
    if not _is_whole(data["version"], VERSION, VERSION):
        raise ProgressError("version")
    lessons = _names(data["lessons"], LESSON_FILE, MAX_LESSONS)
    if lessons is None:
        raise ProgressError("lessons")
    quizzes = _quizzes(data["quizzes"])
    puzzles = _names(data["puzzles"], PUZZLE_ID, MAX_PUZZLES)
    if puzzles is None:
        raise ProgressError("puzzles")
    deals = data["deals"]
    if not (
        isinstance(deals, dict)
        and set(deals) == {"played", "won"}
        and _is_whole(deals["played"], 0, MAX_DEALS)
        and _is_whole(deals["won"], 0, deals["played"])
    ):
        raise ProgressError("deals")
    last = data["last"]
    if last is not None and not (isinstance(last, str) and LESSON_FILE.fullmatch(last)):
        raise ProgressError("last")
    return Kept(lessons, quizzes, puzzles, int(deals["played"]), int(deals["won"]), last)


def _quizzes(value: object) -> dict[str, QuizScore]:
    if not isinstance(value, dict) or len(value) > MAX_LESSONS:
        raise ProgressError("quizzes")
    quizzes = {}
    for file, entry in value.items():
        if not (
            LESSON_FILE.fullmatch(file)
            and isinstance(entry, dict)
            and set(entry) == {"score", "out_of"}
            and _is_whole(entry["out_of"], 1, MAX_QUESTIONS)
            and _is_whole(entry["score"], 0, entry["out_of"])
        ):
            raise ProgressError("quizzes")
        quizzes[file] = QuizScore(int(entry["score"]), int(entry["out_of"]))
    return quizzes


def to_data(kept: Kept) -> dict[str, Any]:
    """The stored form of `kept` as plain data (what `write` turns into text)."""
    return {
        "version": VERSION,
        "lessons": list(kept.lessons),
        "quizzes": {f: {"score": q.score, "out_of": q.out_of} for f, q in kept.quizzes.items()},
        "puzzles": list(kept.puzzles),
        "deals": {"played": kept.played, "won": kept.won},
        "last": kept.last,
    }


def write(kept: Kept) -> str:
    """The text the browser stores for `kept` (compact JSON; `read` gives `kept` back)."""
    return json.dumps(to_data(kept), separators=(",", ":"), ensure_ascii=False)


def apply(text: str | None, updates: Sequence[Update]) -> str:
    """The stored `text` with `updates` applied, as the text to store.

    Raises `ProgressError` when `text` does not read: then nothing is to be written."""
    kept = read(text)
    for update in updates:
        if not isinstance(update, LessonOpened | QuizScored | PuzzleSolved | DealPlayed):
            raise ArgumentTypeError(f"an update should be one of this module's, not {update!r}")
        kept = update.apply(kept)
    return write(kept)


def landing_settings() -> dict[str, Any]:
    """What the landing page's script needs to read the stored progress as `read` does: the
    storage key's start (the page adds its base URL as `storage_key` does), the version, the
    patterns of names and the limits, and the sentences."""
    return {
        "key": STORAGE_KEY,
        "version": VERSION,
        "keys": list(KEYS),
        "lesson": LESSON_FILE.pattern,
        "puzzle": PUZZLE_ID.pattern,
        "max_text": MAX_TEXT,
        "max_lessons": MAX_LESSONS,
        "max_puzzles": MAX_PUZZLES,
        "max_questions": MAX_QUESTIONS,
        "max_deals": MAX_DEALS,
        "sentences": {code: unreadable(code) for code in SENTENCES},
        "no_storage": _(NO_STORAGE),
    }
