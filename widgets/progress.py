"""`Progress`: the learner's progress, kept in their own browser (localStorage) and nowhere else.

A lesson builds one near its top, `progress = Progress.for_page("03_turns_and_passport.ipynb")`
(the lesson is opened, and is the last page), without showing it, and hands it the widgets
whose results count: `progress.track(quiz)` (a `Quiz`: its best score), a `PlayTable` (a deal
played to its end, won or not) or a `PuzzleBoard` (the puzzles solved; the board is told what
was solved before). Its one small line is shown at the end of the lesson, in a cell of its own
(`progress`). The page's script runs once the widget exists, shown or not.

The page's script (`ESM`, written here so that it works offline) reads the stored text when the
page loads and sends it to Python. It keeps it under the name `storage_key` gives for the base
URL of the server the page came from (its page config's `baseUrl`), as the landing page does, so
that two users of one JupyterHub, whose servers share the hub's one address and so one
localStorage, each see only their own progress. Python applies the page's updates through
`penang_lib.course.progress`, which also checks the text, and sends back the text to store,
which the script writes. Each later update asks the page for the stored text again first, so two
lesson tabs open side by side do not undo each other. Voila runs a lesson before its page
connects: updates made before then wait and are applied when the stored text arrives.

Stored text that does not read (edited by hand) is left as it is: the line says so in one
sentence and nothing is written.
"""

from __future__ import annotations

import logging
from typing import Any, Final, TypeVar

import anywidget
import traitlets

from penang_lib.course import progress as kept_progress
from penang_lib.course.progress import (
    KEPT_HERE,
    NO_STORAGE,
    STORAGE_KEY,
    DealPlayed,
    LessonOpened,
    ProgressError,
    PuzzleSolved,
    QuizScored,
    Update,
)
from penang_lib.engine.validate import ArgumentTypeError, shown
from penang_lib.i18n import _
from penang_lib.widgets.base import guarded

__all__ = ["KEPT_HERE", "NO_STORAGE", "Progress"]

log = logging.getLogger("widgets")


W = TypeVar("W", bound=traitlets.HasTraits)

ESM: Final = """
// The base URL of the server this page came from, as its page config gives it (Voila's lesson
// pages and JupyterLab both have one): "/user/alice/penang/" on a JupyterHub. A page with none
// counts as "/".
function pageBase() {
  try {
    const node = document.getElementById("jupyter-config-data");
    const base = node ? JSON.parse(node.textContent || "{}").baseUrl : null;
    if (typeof base === "string" && base.startsWith("/")) {
      return base.endsWith("/") ? base : base + "/";
    }
  } catch (error) { /* page config that does not read: as "/" */ }
  return "/";
}

// The name the progress is kept under: penang_lib.course.progress.storage_key(base URL).
function storageKey(start) {
  const base = pageBase();
  return base === "/" ? start : start + "@" + base;
}

function stored(key) {
  try {
    return { kind: "stored", text: window.localStorage.getItem(key), blocked: false };
  } catch (error) {
    return { kind: "stored", text: null, blocked: true };
  }
}

export default {
  // Once per page, shown or not: send the stored text, then answer Python's asks.
  initialize({ model }) {
    const key = storageKey(model.get("key"));
    const listen = (message) => {
      if (!message || typeof message !== "object") { return; }
      if (message.kind === "read") {
        model.send(stored(key));
      } else if (message.kind === "store" && typeof message.text === "string") {
        try {
          window.localStorage.setItem(key, message.text);
        } catch (error) {
          model.send({ kind: "stored", text: null, blocked: true });
        }
      }
    };
    model.on("msg:custom", listen);
    model.send(stored(key));
    return () => model.off("msg:custom", listen);
  },
  render({ model, el }) {
    const line = document.createElement("p");
    line.className = "penang-progress";
    line.setAttribute("aria-live", "polite");
    const show = () => {
      line.textContent = model.get("line");
      line.classList.toggle("penang-progress-trouble", model.get("trouble"));
    };
    show();
    model.on("change:line", show);
    model.on("change:trouble", show);
    el.appendChild(line);
    return () => {
      model.off("change:line", show);
      model.off("change:trouble", show);
    };
  },
};
"""  # not for learners: JavaScript (the line it shows comes from Python)
"""The page's side: reads and writes localStorage, shows the line."""

CSS: Final = """
.penang-progress { margin: 2px 0 6px; font: 14px/1.4 system-ui, -apple-system, "Segoe UI",
  Roboto, sans-serif; color: #4a5560; }
.penang-progress.penang-progress-trouble { color: #8a2c00; font-weight: 600; }
"""  # not for learners: CSS


class Progress(anywidget.AnyWidget):
    """One page's link to the progress kept in the learner's browser (see the module text).

    `page`: the lesson file this page is (quiz scores are kept under it). `line` is what the
    learner reads; `trouble` is True while it says that something is wrong. `kept` is the
    progress as last read from the browser and updated (None until the page has sent it).
    """

    _esm = ESM
    _css = CSS
    key = traitlets.Unicode(STORAGE_KEY).tag(sync=True)
    line = traitlets.Unicode(KEPT_HERE).tag(sync=True)
    trouble = traitlets.Bool(False).tag(sync=True)

    def __init__(self, page: str | None = None) -> None:
        super().__init__(line=_(KEPT_HERE))
        if page is not None:
            page = LessonOpened(page).file  # checked as a lesson's file name
        self.page = page
        self.kept: kept_progress.Kept | None = None
        self._pending: list[Update] = []
        self._ready = False  # the page has sent the stored text once
        self._asked = False  # a read is asked for and not yet answered
        self._boards: list[Any] = []  # the puzzle boards told what this browser kept solved
        self._playing: dict[int, int] = {}
        """For each table with a `deal` trait (by id): the id of its deal, while that deal was
        seen on it before it was over. Only such a deal counts as played when it ends."""
        self.on_msg(self._on_message)

    @classmethod
    def for_page(cls, lesson_file: str) -> Progress:
        """The progress of a lesson page: the lesson counts as opened, and as the last page."""
        progress = cls(page=lesson_file)
        progress.record(LessonOpened(lesson_file))
        return progress

    @property
    def pending(self) -> tuple[Update, ...]:
        """The updates not yet written to the browser."""
        return tuple(self._pending)

    def record(self, update: Update) -> None:
        """Keep `update`: written at once when the page is there, else when it connects."""
        if not isinstance(update, LessonOpened | QuizScored | PuzzleSolved | DealPlayed):
            raise ArgumentTypeError(f"update should be a progress update, not {shown(update)}")
        self._pending.append(update)
        if self._ready and not self._asked:
            self._asked = True
            self.send({"kind": "read"})

    def track(self, widget: W) -> W:
        """Count what the learner does in `widget`, and return it (so a cell can show it):
        a `PuzzleBoard` (trait `solved`: each puzzle solved; a board with the trait
        `kept_solved` is told, each time the stored progress is read, the puzzles this browser
        kept as solved), a `PlayTable` (trait `over`: each deal played to its end, won when the
        learner's seat is among the winners; a deal that was already over when it came onto the
        table, such as one a review link opens, was not played here and does not count) or a
        `Quiz` (traits `score` and `answered`: its best score, kept under this page)."""
        if not isinstance(widget, traitlets.HasTraits):
            raise ArgumentTypeError(f"track takes a widget of the kit, not {shown(widget)}")
        if widget.has_trait("solved"):
            widget.observe(self._on_solved, names="solved")
            board: Any = widget
            for puzzle_id in board.solved:
                self.record(PuzzleSolved(puzzle_id))
            if widget.has_trait("kept_solved"):
                self._boards.append(widget)
                if self.kept is not None:
                    board.kept_solved = list(self.kept.puzzles)
        elif widget.has_trait("over"):
            if widget.has_trait("deal"):
                widget.observe(self._on_deal, names="deal")
                self._on_deal({"owner": widget, "new": getattr(widget, "deal", None)})
            widget.observe(self._on_over, names="over")
        elif widget.has_trait("score") and widget.has_trait("answered"):
            if self.page is None:
                raise ValueError(
                    "a quiz's score is kept under its lesson: make this with "
                    "Progress.for_page(lesson_file)"
                )
            widget.observe(self._on_quiz, names=["score", "answered"])
            self._quiz_score(widget)
        else:
            raise ArgumentTypeError(
                f"track takes a Quiz, a PlayTable or a PuzzleBoard, not a {type(widget).__name__}"
            )
        return widget

    def report(self, sentence: str) -> None:
        """Show a failure of ours in the line (`penang_lib.widgets.base.guarded` calls this)."""
        self.set_line(sentence or _(KEPT_HERE), trouble=bool(sentence))

    def set_line(self, text: str, trouble: bool) -> None:
        with self.hold_sync():
            self.line = text
            self.trouble = trouble

    # -- what the tracked widgets say ------------------------------------------------------
    @guarded
    def _on_solved(self, change: dict[str, Any]) -> None:
        old = set(change["old"] or ())
        for puzzle_id in change["new"]:
            if puzzle_id not in old:
                self.record(PuzzleSolved(puzzle_id))

    @guarded
    def _on_deal(self, change: dict[str, Any]) -> None:
        """A deal came onto a table: it can count once it ends only if it is not over yet."""
        table, deal = change["owner"], change["new"]
        if deal is not None and getattr(deal, "is_over", True) is False:
            self._playing[id(table)] = id(deal)
        else:
            self._playing.pop(id(table), None)

    @guarded
    def _on_over(self, change: dict[str, Any]) -> None:
        if change["new"] is True and change["old"] is not True:
            table = change["owner"]
            if table.has_trait("deal"):
                if self._playing.get(id(table)) != id(table.deal):
                    return  # it came onto the table finished (a review link): not played here
                del self._playing[id(table)]  # each deal counts once
            self.record(DealPlayed(table.seat in table.deal.winners))

    @guarded
    def _on_quiz(self, change: dict[str, Any]) -> None:
        self._quiz_score(change["owner"])

    def _quiz_score(self, quiz: Any) -> None:
        if quiz.answered > 0 and self.page is not None:
            self.record(QuizScored(self.page, quiz.score, len(quiz.questions)))

    # -- what the page says ----------------------------------------------------------------
    @guarded
    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """The page sent the stored text: apply the pending updates and send the text back."""
        if not isinstance(content, dict) or content.get("kind") != "stored":
            log.warning("Progress: a message of no known kind was ignored")
            return
        text, blocked = content.get("text"), content.get("blocked")
        if not (text is None or isinstance(text, str)) or not isinstance(blocked, bool):
            log.warning("Progress: a stored-text message of the wrong shape was ignored")
            return
        self._ready, self._asked = True, False
        if blocked:
            self.set_line(_(NO_STORAGE), trouble=True)
            return
        try:
            kept = kept_progress.read(text)
        except ProgressError as error:
            self.set_line(str(error), trouble=True)  # and nothing is written over it
            return
        updates, self._pending = self._pending, []
        for update in updates:
            kept = update.apply(kept)
        self.kept = kept
        for board in self._boards:
            board.kept_solved = list(kept.puzzles)
        new = kept_progress.write(kept)
        if updates and new != text:
            self.send({"kind": "store", "text": new})
        if self.line != _(KEPT_HERE) or self.trouble:
            self.set_line(_(KEPT_HERE), trouble=False)
