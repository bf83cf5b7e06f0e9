"""`penang_lib.widgets.progress.Progress` driven from Python, with a stand-in for the page's
script: the
stored text arrives through the widget's own message path (`_handle_msg`, as from the browser),
and what the widget sends back is written to a dict standing in for localStorage."""

from __future__ import annotations

import ast
import json
from typing import Any

import pytest
import traitlets

from penang_lib.course import progress as pg
from penang_lib.course.progress import KEPT_HERE, NO_STORAGE, STORAGE_KEY
from penang_lib.course.puzzles import shipped_puzzles
from penang_lib.course.review import encode
from penang_lib.engine.moves import DeclareDead
from penang_lib.widgets.base import OOPS
from penang_lib.widgets.controls import Control
from penang_lib.widgets.lessons import lesson_data, position_deal
from penang_lib.widgets.play import PlayTable
from penang_lib.widgets.progress import Progress
from penang_lib.widgets.puzzle import PuzzleBoard
from penang_lib.widgets.quiz import Quiz
from penang_lib.widgets.review import open_review_link
from tests.checkout import REPO

LESSON = "02_melds.ipynb"


class Page:
    """The page's side of one widget: the script's answers, over one shared storage."""

    def __init__(self, storage: dict[str, str], blocked: bool = False) -> None:
        self.storage = storage
        self.blocked = blocked
        self.sent: list[dict[str, Any]] = []

    def connect(self, widget: Progress) -> Progress:
        """The page loads: the script listens, then sends the stored text."""

        def send(content: dict[str, Any], buffers: Any = None) -> None:
            self.sent.append(content)
            if content["kind"] == "read":
                self.tell(widget)
            elif content["kind"] == "store":
                self.storage[STORAGE_KEY] = content["text"]

        widget.send = send
        self.tell(widget)
        return widget

    def tell(self, widget: Progress, **message: Any) -> None:
        content = message or {
            "kind": "stored",
            "text": None if self.blocked else self.storage.get(STORAGE_KEY),
            "blocked": self.blocked,
        }
        widget._handle_msg(
            {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}
        )


def kept(storage: dict[str, str]) -> pg.Kept:
    return pg.read(storage.get(STORAGE_KEY))


def right_choice(quiz: Quiz, question: int) -> int:
    return quiz.questions[question].right.index(True)


def wrong_choice(quiz: Quiz, question: int) -> int:
    return quiz.questions[question].right.index(False)


class Table(traitlets.HasTraits):
    """A stand-in for PlayTable: `over`, the learner's `seat`, and the `deal` with `winners`."""

    over = traitlets.Bool(False)
    seat = traitlets.Int(0)

    def __init__(self, winners: list[int]) -> None:
        super().__init__()
        self.deal = type("Deal", (), {"winners": winners})()


class Board(traitlets.HasTraits):
    """A stand-in for PuzzleBoard: `puzzle_id` and the ids `solved` on this page."""

    puzzle_id = traitlets.Unicode("")
    solved = traitlets.List(traitlets.Unicode())


def test_updates_made_before_the_page_connects_wait_and_are_then_written() -> None:
    storage: dict[str, str] = {}
    progress = Progress.for_page(LESSON)  # Voila runs the lesson before the page connects
    quiz = progress.track(Quiz(lesson_data("02_melds")["quiz"]))
    quiz.answer(0, right_choice(quiz, 0))
    assert len(progress.pending) >= 2 and STORAGE_KEY not in storage
    Page(storage).connect(progress)
    assert progress.pending == ()
    got = kept(storage)
    assert got.lessons == (LESSON,) and got.last == LESSON
    assert got.quizzes[LESSON] == pg.QuizScore(1, len(quiz.questions))
    assert progress.line == KEPT_HERE and not progress.trouble


def test_a_quiz_keeps_its_best_score_across_visits() -> None:
    storage: dict[str, str] = {}
    data = lesson_data("02_melds")["quiz"]
    first = Page(storage).connect(Progress.for_page(LESSON))
    quiz = first.track(Quiz(data))
    for question in range(len(quiz.questions)):
        quiz.answer(question, right_choice(quiz, question))
    total = len(quiz.questions)
    assert kept(storage).quizzes[LESSON] == pg.QuizScore(total, total)
    # A later visit does worse: the best stays.
    again = Page(storage).connect(Progress.for_page(LESSON))
    worse = again.track(Quiz(data))
    worse.answer(0, wrong_choice(worse, 0))
    worse.answer(1, right_choice(worse, 1))
    assert kept(storage).quizzes[LESSON] == pg.QuizScore(total, total)
    assert again.kept is not None and again.kept.quizzes[LESSON].score == total


def test_try_again_does_not_lower_the_kept_score() -> None:
    storage: dict[str, str] = {}
    progress = Page(storage).connect(Progress.for_page(LESSON))
    quiz = progress.track(Quiz(lesson_data("02_melds")["quiz"]))
    quiz.answer(0, right_choice(quiz, 0))
    quiz.again.click()
    assert quiz.answered == 0
    assert kept(storage).quizzes[LESSON].score == 1


def test_a_deal_played_to_its_end_counts_and_a_win_when_the_seat_is_a_winner() -> None:
    storage: dict[str, str] = {}
    progress = Page(storage).connect(Progress.for_page("08_play.ipynb"))
    won, lost = progress.track(Table(winners=[0])), progress.track(Table(winners=[2]))
    won.over = True
    lost.over = True
    lost.over = False  # a new deal starts
    lost.over = True
    got = kept(storage)
    assert (got.played, got.won) == (3, 1)


def test_each_puzzle_solved_is_kept_once() -> None:
    storage: dict[str, str] = {}
    board = Board(solved=["passport-0001"])
    progress = Page(storage).connect(Progress.for_page("11_puzzles.ipynb"))
    progress.track(board)
    board.solved = [*board.solved, "swap-0002"]
    board.solved = [*board.solved, "lay-off-0003"]
    assert kept(storage).puzzles == ("passport-0001", "swap-0002", "lay-off-0003")


def test_two_tabs_do_not_undo_each_other() -> None:
    storage: dict[str, str] = {}
    one = Page(storage).connect(Progress.for_page("01_deck_and_deal.ipynb"))
    two = Page(storage).connect(Progress.for_page("03_turns_and_passport.ipynb"))
    one.record(pg.PuzzleSolved("swap-0002"))  # after the other tab wrote
    got = kept(storage)
    assert set(got.lessons) == {"01_deck_and_deal.ipynb", "03_turns_and_passport.ipynb"}
    assert got.puzzles == ("swap-0002",) and got.last == "03_turns_and_passport.ipynb"
    assert two.kept is not None and two.kept.puzzles == ()


def test_stored_text_edited_by_hand_is_said_and_left_as_it_is() -> None:
    bad = json.dumps({**json.loads(pg.write(pg.Kept())), "lessons": "all of them"})
    storage = {STORAGE_KEY: bad}
    page = Page(storage)
    progress = page.connect(Progress.for_page(LESSON))
    quiz = progress.track(Quiz(lesson_data("02_melds")["quiz"]))
    quiz.answer(0, right_choice(quiz, 0))
    assert progress.line == pg.unreadable("lessons") and progress.trouble
    assert storage == {STORAGE_KEY: bad}
    assert not any(m["kind"] == "store" for m in page.sent)
    # Once the learner clears it (Forget my progress), the next update is written whole.
    del storage[STORAGE_KEY]
    quiz.answer(1, right_choice(quiz, 1))
    got = kept(storage)
    assert got.lessons == (LESSON,) and got.quizzes[LESSON].score == 2
    assert progress.line == KEPT_HERE and not progress.trouble


def test_a_browser_that_stores_nothing_is_said() -> None:
    progress = Page({}, blocked=True).connect(Progress.for_page(LESSON))
    assert progress.line == NO_STORAGE and progress.trouble


@pytest.mark.parametrize(
    "message",
    [
        {"kind": "store", "text": "{}"},
        {"kind": "stored", "text": 5, "blocked": False},
        {"kind": "stored", "text": None, "blocked": "no"},
        {"kind": "stored", "text": None},
        {"text": None, "blocked": False},
    ],
)
def test_a_message_of_the_wrong_shape_changes_nothing(message: dict[str, Any]) -> None:
    storage: dict[str, str] = {}
    page = Page(storage)
    progress = Progress.for_page(LESSON)
    page.connect(progress)
    written = dict(storage)
    progress.record(pg.PuzzleSolved("swap-0002"))
    before = (dict(storage), progress.line)
    page.tell(progress, **message)
    assert (dict(storage), progress.line) == before and progress.pending == ()
    assert written != storage  # control: the puzzle itself went through


def test_a_failure_of_ours_in_a_callback_is_one_sentence() -> None:
    progress = Page({}).connect(Progress.for_page("08_play.ipynb"))
    table = progress.track(Table(winners=[0]))
    del table.deal.__class__.winners  # a deal that cannot say who won
    table.over = True
    assert progress.line == OOPS and progress.trouble


def test_only_the_kit_s_widgets_are_tracked_and_a_quiz_needs_its_lesson() -> None:
    with pytest.raises(TypeError, match="a Quiz, a PlayTable or a PuzzleBoard"):
        Progress.for_page(LESSON).track(traitlets.HasTraits())
    with pytest.raises(TypeError):
        Progress.for_page(LESSON).track("quiz")  # type: ignore[type-var]
    with pytest.raises(ValueError, match="for_page"):
        Progress().track(Quiz(lesson_data("02_melds")["quiz"]))
    with pytest.raises(ValueError, match="file name"):
        Progress.for_page("../../secret")


def test_a_puzzle_solved_on_a_real_puzzle_board_is_kept() -> None:
    puzzles = shipped_puzzles()
    dead = next(p for p in puzzles if isinstance(p.answers[0], DeclareDead))
    storage: dict[str, str] = {}
    progress = Page(storage).connect(Progress.for_page("11_puzzles.ipynb"))
    board = progress.track(PuzzleBoard(puzzles, start=dead.id))
    assert kept(storage).puzzles == ()
    board.buttons[Control.DEAD].click()
    assert board.solved == [dead.id]
    assert kept(storage).puzzles == (dead.id,)


def test_a_deal_won_on_a_real_play_table_is_kept() -> None:
    """Lesson 6's position where North goes out: meld, lay off the last card, call Game."""
    storage: dict[str, str] = {}
    progress = Page(storage).connect(Progress.for_page("06_dead_game_scoring.ipynb"))
    table = progress.track(
        PlayTable(deal=position_deal(lesson_data("06_dead_game_scoring")["positions"]["game"]))
    )
    table.select("JC QC KC")
    table.buttons[Control.MELD].click()
    table.select("8H")
    table.target.value = 0
    table.buttons[Control.LAY_OFF].click()
    assert (kept(storage).played, table.over) == (0, False)
    table.buttons[Control.GAME].click()
    assert table.over and table.seat in table.deal.winners
    assert (kept(storage).played, kept(storage).won) == (1, 1)


# -- issue 29: what the puzzle board reads back, what counts as a deal played, lesson 8's quiz ----
def test_the_puzzle_board_reads_the_puzzles_kept_and_opens_at_the_first_unsolved() -> None:
    puzzles = shipped_puzzles()
    solved = [p.id for p in puzzles[:17]]
    storage = {STORAGE_KEY: pg.write(pg.Kept(puzzles=tuple(solved)))}
    progress = Progress.for_page("11_puzzles.ipynb")  # the lesson runs before its page connects
    board = progress.track(PuzzleBoard(puzzles))
    assert board.puzzle_id == puzzles[0].id and "solved 0" in board.heading.value
    Page(storage).connect(progress)
    assert board.kept_solved == solved
    assert board.puzzle_id == puzzles[17].id
    assert "Puzzle 18 of" in board.heading.value and "solved 17" in board.heading.value
    labels = [label for label, _ in board.picker.options]
    assert all(label.endswith("✓ solved") for label in labels[:17])
    assert not any("✓" in label for label in labels[17:])
    # One more solved on the page: kept, and marked.
    dead = next(p for p in puzzles[17:] if isinstance(p.answers[0], DeclareDead))
    board.picker.value = dead.id
    board.buttons[Control.DEAD].click()
    assert kept(storage).puzzles == (*solved, dead.id)
    assert "solved 18" in board.heading.value


def test_a_board_tracked_after_the_page_connected_is_told_at_once() -> None:
    puzzles = shipped_puzzles()
    storage = {STORAGE_KEY: pg.write(pg.Kept(puzzles=(puzzles[0].id,)))}
    progress = Page(storage).connect(Progress.for_page("11_puzzles.ipynb"))
    board = progress.track(PuzzleBoard(puzzles))
    assert board.kept_solved == [puzzles[0].id] and board.puzzle_id == puzzles[1].id


def game_table() -> PlayTable:
    return PlayTable(deal=position_deal(lesson_data("06_dead_game_scoring")["positions"]["game"]))


def win(table: PlayTable) -> None:
    """Lesson 6's position where North goes out: meld, lay off the last card, call Game."""
    table.select("JC QC KC")
    table.buttons[Control.MELD].click()
    table.select("8H")
    table.target.value = 0
    table.buttons[Control.LAY_OFF].click()
    table.buttons[Control.GAME].click()
    assert table.over and table.seat in table.deal.winners


def test_a_deal_opened_from_a_review_link_is_not_counted_again() -> None:
    storage: dict[str, str] = {}
    first = Page(storage).connect(Progress.for_page("08_play.ipynb"))
    played = first.track(game_table())
    win(played)
    assert (kept(storage).played, kept(storage).won) == (1, 1)
    code = encode(played.deal, played.seat)
    # The review link, opened later on lesson 8: the table shows that deal, over.
    again = Page(storage).connect(Progress.for_page("08_play.ipynb"))
    table = again.track(game_table())
    assert open_review_link(table, f"review={code}") == ""
    assert table.over and table.deal.is_over
    assert (kept(storage).played, kept(storage).won) == (1, 1)
    # A deal played on that table afterwards counts, once.
    table.deal = position_deal(lesson_data("06_dead_game_scoring")["positions"]["game"])
    assert not table.over
    win(table)
    assert (kept(storage).played, kept(storage).won) == (2, 2)


def run_lesson(stem: str) -> dict[str, Any]:
    """Run every code cell of a lesson, as Voila does (no link in the page's address); what
    the cells display is dropped. The namespace the cells made."""
    path = REPO / "notebooks" / "lessons" / f"{stem}.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    namespace: dict[str, Any] = {"display": lambda *_args, **_kw: None}
    for cell in cells:
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            exec(compile(ast.parse(source), f"<{stem}>", "exec"), namespace)
    return namespace


def test_lesson_8s_quiz_score_reaches_the_stored_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29, item 7: lesson 8's quiz was made in a cell of its own and never tracked."""
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.setenv("QUERY_STRING", "")
    made: list[Quiz] = []
    monkeypatch.setattr(Quiz, "__init__", _recording(Quiz.__init__, made))
    namespace = run_lesson("08_play")
    progress = namespace["progress"]
    assert isinstance(progress, Progress) and len(made) == 1
    storage: dict[str, str] = {}
    Page(storage).connect(progress)
    quiz = made[0]
    for question in range(len(quiz.questions)):
        quiz.answer(question, right_choice(quiz, question))
    total = len(quiz.questions)
    assert kept(storage).quizzes["08_play.ipynb"] == pg.QuizScore(total, total)


def _recording(init: Any, made: list[Quiz]) -> Any:
    def recorded(self: Quiz, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append(self)

    return recorded


LESSON_FILES = sorted((REPO / "notebooks" / "lessons").glob("*.ipynb"))
TABLE_PAGE = "12_play_together.ipynb"
"""The "Play together" page (issue 32) counts nothing yet: its deals are the table service's,
and `Progress.track` reads a finished deal from a `PlayTable`'s own `deal`."""


TRACKED_FILES = [p for p in LESSON_FILES if p.name != TABLE_PAGE]


@pytest.mark.parametrize("path", TRACKED_FILES, ids=[p.name for p in TRACKED_FILES])
def test_each_lesson_shows_its_progress_line_at_its_end(path: Any) -> None:
    """Issue 29, item 15: the line sat mid-lesson under the example cards. Each lesson makes its
    Progress early (without showing it), tracks its widgets with it, and shows the line in a
    cell of its own after the last widget it tracks, before the closing links."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    sources = ["".join(c["source"]) for c in cells]
    made = [i for i, s in enumerate(sources) if "Progress.for_page(" in s]
    shown = [i for i, c in enumerate(cells) if c.get("id") == "progress-line"]
    tracked = [i for i, s in enumerate(sources) if "progress.track(" in s]
    assert len(made) == 1 and len(shown) == 1 and tracked, path.name
    assert sources[shown[0]] == "progress" and cells[shown[0]]["cell_type"] == "code"
    assert made[0] <= tracked[0] and tracked[-1] < shown[0], path.name
    assert not sources[made[0]].rstrip().endswith("\nprogress"), "shown where it is made"
    assert "display(progress)" not in sources[made[0]]
    after = [c["cell_type"] for c in cells[shown[0] + 1 :]]
    assert after[-1] == "markdown" and "quiz" not in " ".join(sources[shown[0] + 1 :]).lower()
    # Every quiz of the lesson is tracked.
    quizzes = [s for s in sources if "Quiz(" in s]
    assert all(s.count("Quiz(") == s.count("progress.track(Quiz(") for s in quizzes), path.name
