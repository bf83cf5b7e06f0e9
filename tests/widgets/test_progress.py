"""`widgets.progress.Progress` driven from Python, with a stand-in for the page's script: the
stored text arrives through the widget's own message path (`_handle_msg`, as from the browser),
and what the widget sends back is written to a dict standing in for localStorage."""

from __future__ import annotations

import json
from typing import Any

import pytest
import traitlets

from penang_lib.course import progress as pg
from penang_lib.course.progress import KEPT_HERE, NO_STORAGE, STORAGE_KEY
from penang_lib.course.puzzles import shipped_puzzles
from penang_lib.engine.moves import DeclareDead
from widgets.base import OOPS
from widgets.lessons import lesson_data, position_deal
from widgets.play import PlayTable
from widgets.progress import Progress
from widgets.puzzle import PuzzleBoard
from widgets.quiz import Quiz

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
    board.buttons["Declare Dead"].click()
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
    table.buttons["Meld"].click()
    table.select("8H")
    table.target.value = 0
    table.buttons["Lay off"].click()
    assert (kept(storage).played, table.over) == (0, False)
    table.buttons["Call Game"].click()
    assert table.over and table.seat in table.deal.winners
    assert (kept(storage).played, kept(storage).won) == (1, 1)
