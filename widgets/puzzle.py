"""`PuzzleBoard`: one position of a deal at a time, and one question: what is the right move now?

A puzzle (`penang_lib.course.puzzles.Puzzle`) is a moment of a deal seen from the seat to move.
The board shows that position as a play table does: the melds on the table, the learner's hand as
card toggles and the other hands face down, drawn from their sizes alone. The learner selects
cards, chooses a meld on the table when the move needs one, and presses a move button. The move
is never played: the engine judges it (`judge`) and its sentence is the feedback, right or wrong
and why. A try the rules refuse says the rule it breaks; a legal move that is not an answer says
why it is not the one. A plain joker that could stand for more than one card is refused by the
engine with its readings, and the learner picks one, as at the play table: the board composes
the play table's `MoveControls` (the hand, the move buttons, the joker's readings, the message),
whose moves it has the engine judge instead of playing them. A strategy puzzle is answered with
the same controls; its feedback is the expert bot's numbers that the puzzle keeps (the count a
start ends the deal with on average and how often it wins), so no deal is played on the page.

A wrong try never gives the answer away: it says which rule the move breaks, or what it misses
(`judge`). After a wrong try, Show answer says the answer in a sentence (`answer_sentence`) and
selects its cards (and its meld on the table); its button with that selection plays it. As on
lichess, a puzzle counts as solved only when the move is found with no wrong try before it and
without Show answer (`COUNTED`); found later, the board says why it does not count. A wrong try
or a shown answer is remembered for the rest of the page, however the learner steps about.

Previous and Next puzzle step through the set in the order given (the shipped set comes sorted
by difficulty), and the "Go to puzzle" menu (`picker`, keyed by puzzle id) opens any of them;
its labels mark the puzzles solved. A line above says where the learner is: "Puzzle 4 of 62 ·
difficulty 2 · solved 3".

Traits (not synced to the browser; `.observe` and `ipywidgets.link` work on them): `puzzle_id`,
the id of the puzzle shown (set it to show another; an unknown id is refused with the engine's
sentence), `solved`, the ids solved on this page, in the order solved, each once, and
`kept_solved`, the ids this browser kept as solved on earlier visits (a `Progress` that tracks
the board sets it when the page sends the stored progress). Both count as solved in the line
and the menu. When `kept_solved` first arrives, a board opened with no link, on which the
learner has done nothing yet, moves on to the first puzzle not solved.

The question, the hand and the move buttons come first, one under the other, and the table's
melds after them: on a phone the buttons stay a short scroll from the question.

Hidden hands: no widget of the tree holds a card of another hand (they are drawn face down from
their sizes, as `PlayTable` draws them). A puzzle's record stays in Python.

A page links to a puzzle with `11_puzzles.ipynb?puzzle=<id>`: `linked_puzzle` reads the id, and
`start` opens it (and then stays, whatever was solved before); an id that names no puzzle is said
in one sentence and the first puzzle shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
import traitlets

from penang_lib.course.links import linked_puzzle_id
from penang_lib.course.puzzles import (
    Judgement,
    Puzzle,
    PuzzleError,
    answer_sentence,
    find_puzzle,
    judge,
)
from penang_lib.data import frames
from penang_lib.engine.cards import Card
from penang_lib.engine.deal import Deal
from penang_lib.engine.explain import seat_status, turn_status
from penang_lib.engine.moves import Move
from penang_lib.engine.validate import ArgumentTypeError, require_text, shown
from penang_lib.i18n import N_, _
from penang_lib.widgets import render
from penang_lib.widgets.base import KitWidget, guarded
from penang_lib.widgets.controls import Control, label, naming, tooltip
from penang_lib.widgets.links import query_string
from penang_lib.widgets.move_controls import NO, OK, MoveControls
from penang_lib.widgets.play_parts import (
    MOVE_BUTTONS,
    WIDE,
    WRAP,
    Board,
    button,
    move_control,
    paragraph,
)
from penang_lib.widgets.render import esc
from penang_lib.widgets.shared import is_shown, part, show

__all__ = ["MOVE_BUTTONS", "NAV_BUTTONS", "PuzzleBoard", "linked_puzzle"]

NAV_BUTTONS = (Control.PREVIOUS_PUZZLE, Control.SHOW_ANSWER, Control.NEXT_PUZZLE)
"""The buttons that step through the set and show an answer."""

ASK = N_(
    "Select cards of your hand (and a meld in '{target}' to lay off or swap), then press the "
    "button of your move."
)
"""What the message says while a puzzle waits for a try.

The module's sentences name buttons by placeholders named after their controls (`{target}`,
`{show_answer}`, `{next_puzzle}`): `controls.naming(ASK)` says them with the labels."""

COUNTED = N_(
    "A puzzle counts as solved only when your first try is right and you did not press "
    "{show_answer}."
)
"""How puzzles are counted (as lichess counts them), said when one does not count."""

SEEN = N_(
    "You saw the answer first, so this one does not count as solved. A puzzle counts as solved "
    "only when your first try is right and you did not press {show_answer}."
)
"""Said after a right move played once the answer was shown (`COUNTED` after its reason)."""

MISSED = N_(
    "It came after a wrong try, so this one does not count as solved. A puzzle counts as solved "
    "only when your first try is right and you did not press {show_answer}."
)
"""Said after a right move found after a wrong try (`COUNTED` after its reason)."""

MISSED_BEFORE = N_(
    "You made a wrong try on this puzzle already, so finding it now will not count as solved."
)
"""Said when a puzzle with a wrong try (or its answer shown) is opened again on the page."""

SOLVED = N_("Solved. Press {next_puzzle} for another.")
"""Said after a right first try."""

BACK = N_("Welcome back: this is the first puzzle you have not solved yet.")
"""Said when the board moves on to the first puzzle not solved in this browser."""

TABLE_LABEL = N_("The melds on the table:")

LOG_LABEL = N_("The moves that led to this position, the latest first:")


def linked_puzzle(query: str | None = None) -> str | None:
    """The puzzle id a page's query string asks for (`puzzle=lay-off-0012`), or None when it
    asks for none (`query` None: this page's own, read from Voila). Other settings in the query
    are no concern of the puzzle page (`penang_lib.course.links.linked_puzzle_id` reads it)."""
    return linked_puzzle_id(query_string() if query is None else query)


def _checked_puzzles(puzzles: object) -> tuple[Puzzle, ...]:
    if isinstance(puzzles, str | bytes) or not isinstance(puzzles, Sequence):
        raise ArgumentTypeError(f"puzzles should be a list of Puzzle values, not {shown(puzzles)}")
    found = tuple(puzzles)
    if not found:
        raise ValueError("a puzzle board needs at least one puzzle")
    bad = next((p for p in found if not isinstance(p, Puzzle)), None)
    if bad is not None:
        raise ArgumentTypeError(f"puzzles should be Puzzle values, not {shown(bad)}")
    ids = [p.id for p in found]
    twice = next((i for i in ids if ids.count(i) > 1), None)
    if twice is not None:
        raise ValueError(f"the puzzle {twice!r} is in the set twice: each id names one puzzle")
    return found


class PuzzleBoard(KitWidget):
    """The learner answers the puzzles of `puzzles`, one at a time, in the order given.

    `start` is the id of the puzzle shown first (from a link, see `linked_puzzle`); None shows
    the first one, and an id of no puzzle is said in one sentence and the first one shown.

    Traits: `puzzle_id` (the puzzle shown; set it to show another), `solved` (the ids solved
    on this page, in order, no repeats) and `kept_solved` (the ids solved on earlier visits).
    Parts, as at the play table: `controls` (`MoveControls`, whose moves the engine judges here)
    with its `hand_panel`, `action_bar` and `message`, and `board`, plus `heading` (the "Puzzle
    4 of 62" line), `picker` (the "Go to puzzle" menu), `question`, and `buttons` (every button
    by its `Control`).
    """

    puzzle_id = traitlets.Unicode("")
    solved = traitlets.List(traitlets.Unicode())
    kept_solved = traitlets.List(traitlets.Unicode())

    def __init__(
        self, puzzles: Sequence[Puzzle], start: str | None = None, four_colour: bool = False
    ) -> None:
        super().__init__(four_colour)
        self.puzzles = _checked_puzzles(puzzles)
        self._place = {p.id: i for i, p in enumerate(self.puzzles)}
        note = ""
        first = self.puzzles[0]
        self._linked = False
        """A link chose the puzzle shown first: the board stays there."""
        if start is not None:
            start = require_text(start, "start")
            try:
                first = find_puzzle(self.puzzles, start)
                self._linked = True
            except PuzzleError as error:
                note = _("{error} The first puzzle is shown instead.").format(error=error)
        self._missed: set[str] = set()
        """The puzzles with a wrong try on this page (found later, they do not count)."""
        self._seen: set[str] = set()
        """The puzzles whose answer was shown on this page."""
        self._placed = False
        """True once the board stopped waiting for the kept progress to choose its puzzle."""
        self._picking = False
        """True while the board sets the "Go to puzzle" menu itself."""
        self._deal: Deal = first.position()
        """The position of the puzzle shown (a fresh copy: the learner's tries never change it)."""
        self._live = False
        """False until the board is built: then a new puzzle is shown as it is set."""
        # The controls remember the answer once shown, so that its button with its selection
        # plays it exactly; the focus stays where the learner put it.
        self.controls = MoveControls(
            len(self._deal.hand(first.seat)),
            attempt=self._attempt,
            position=lambda: self._deal,
            key=lambda: self.puzzle.id,
            report=self.report,
        )
        self.hand_panel = self.controls.hand_panel
        self.action_bar = self.controls.action_bar
        self.message = self.controls.message
        self.board = Board()
        show(self.action_bar.buttons[Control.HINT], False)  # the answer is what the learner seeks
        # Always on screen here, Call Game goes without the kit's green: white on that green is
        # too faint to read (axe-core reports its colour contrast).
        self.action_bar.buttons[Control.GAME].button_style = ""
        self.heading = part(widgets.HTML, "", layout=WIDE)
        self.heading.add_class("penang-puzzle-head")
        self.picker = part(
            widgets.Dropdown,
            description=label(Control.PUZZLE_PICKER),
            tooltip=tooltip(Control.PUZZLE_PICKER),
            options=self._picker_options(),
            value=first.id,
            style={"description_width": "initial"},
            layout={"width": "auto", "max_width": "100%"},
        )
        self.picker.add_class("penang-puzzle-picker")
        picker_row = part(widgets.HBox, [self.picker], layout=WRAP)
        self.question = part(widgets.HTML, "", layout=WIDE)
        self.question.add_class("penang-explain")
        nav = {c: button(c, "primary" if c is Control.NEXT_PUZZLE else "") for c in NAV_BUTTONS}
        moves: dict[Control, widgets.Button] = {
            c: b for c, b in self.action_bar.buttons.items() if c != Control.HINT
        }
        self.buttons: dict[Control, widgets.Button] = {**moves, **nav}
        self._listen()
        nav_row = part(widgets.HBox, list(nav.values()), layout=WRAP)
        table_words, log_words = esc(_(TABLE_LABEL)), esc(_(LOG_LABEL))
        table_label = part(widgets.HTML, f'<p class="penang-summary">{table_words}</p>')
        log_label = part(widgets.HTML, f'<p class="penang-summary">{log_words}</p>')
        # The question, the hand and the moves together, then what they refer to: on a
        # phone's narrow screen the table's melds no longer push the buttons a screen away.
        self._finish(
            [
                self.heading,
                picker_row,
                self.question,
                self.board.status,
                self.hand_panel.box,
                self.action_bar.box,
                self.message,
                nav_row,
                table_label,
                self.board.table_view,
                self.board.hands,
                log_label,
                self.board.log,
            ],
            "penang-puzzle",
        )
        self._note = note
        self._note_tone = NO
        """The tone of the note said with the next puzzle shown (a bad link's is a refusal)."""
        self.puzzle_id = first.id
        self._live = True
        self._show_puzzle()

    # -- what is shown ----------------------------------------------------------------------------
    @property
    def puzzle(self) -> Puzzle:
        """The puzzle shown."""
        return self.puzzles[self._place[self.puzzle_id]]

    def select(self, text: str) -> None:
        """Select exactly the toggles of the given cards (e.g. "5H 6H JK"), as a learner's clicks
        would; a card not in the hand raises ValueError."""
        self.controls.select(text)

    def selected(self) -> list[Card]:
        """The cards of the selected toggles, in display order."""
        return self.controls.selected()

    # -- the traits -------------------------------------------------------------------------------
    @traitlets.validate("puzzle_id")
    def _valid_id(self, proposal: Any) -> str:
        value = proposal["value"]
        try:
            return find_puzzle(self.puzzles, value).id
        except PuzzleError as error:
            raise traitlets.TraitError(str(error)) from None

    @traitlets.observe("puzzle_id")
    def _on_puzzle(self, _change: Any) -> None:
        if self._live:
            self._show_puzzle()

    @traitlets.validate("solved")
    def _valid_solved(self, proposal: Any) -> list[str]:
        return list(dict.fromkeys(proposal["value"]))  # each id once, in the order first solved

    @traitlets.observe("solved")
    def _on_solved(self, _change: Any) -> None:
        if self._live:
            self._show_marks()

    @traitlets.validate("kept_solved")
    def _valid_kept(self, proposal: Any) -> list[str]:
        return list(dict.fromkeys(proposal["value"]))

    @traitlets.observe("kept_solved")
    def _on_kept(self, _change: Any) -> None:
        """The stored progress arrived (or changed): mark what it holds; the first time, open
        the first puzzle not solved, unless a link chose one or the learner has begun."""
        if not self._live:
            return
        self._show_marks()
        if self._placed:
            return
        self._placed = True
        if self._linked or self.selected():
            return
        done = self._all_solved()
        first = next((p for p in self.puzzles if p.id not in done), None)
        if first is not None and first.id != self.puzzle_id:
            self._note, self._note_tone = _(BACK), ""
            self.puzzle_id = first.id

    @guarded
    def _on_pick(self, change: dict[str, Any]) -> None:
        if self._picking or change["new"] is None:
            return
        self._placed = True
        self.puzzle_id = change["new"]

    def _listen(self) -> None:
        # The moves' buttons and Use this reading are the controls' own.
        handlers = {
            Control.PREVIOUS_PUZZLE: lambda _b: self._on_step(-1),
            Control.NEXT_PUZZLE: lambda _b: self._on_step(1),
            Control.SHOW_ANSWER: self._on_answer,
        }
        for control, handler in handlers.items():
            self.buttons[control].on_click(handler)
        self.picker.observe(self._on_pick, names="value")

    # -- callbacks --------------------------------------------------------------------------------
    @guarded
    def _on_step(self, by: int) -> None:
        self._placed = True
        place = self._place[self.puzzle_id] + by
        if 0 <= place < len(self.puzzles):
            self.puzzle_id = self.puzzles[place].id

    @guarded
    def _on_answer(self, _button: Any = None) -> None:
        puzzle = self.puzzle
        answer = puzzle.answers[0]
        cards, _label = self.controls.show_move(answer, puzzle.id)
        self._placed = True
        self._seen.add(puzzle.id)
        press = label(move_control(answer))
        if cards:
            done = _("Its cards are selected ({cards}): press {button}.").format(
                cards=self.controls.picked(), button=press
            )
        else:
            done = _("Press {button}.").format(button=press)
        self._say(paragraph(answer_sentence(puzzle)) + paragraph(done))

    # -- judging a try ----------------------------------------------------------------------------
    def _attempt(self, move: Move, offers: bool) -> None:
        """The controls' strategy: judge `move`, unless (with `offers`) it holds a plain joker
        the engine reads more than one way (a meld, or a lay-off at either end): then the
        learner picks the reading first."""
        if offers:
            refusal = self._deal.explain_illegal(move, self.puzzle.seat)
            if refusal is not None and refusal.options:
                self.controls.offer(self._deal, refusal)
                return
        self._try(move)

    def _try(self, move: Move) -> None:
        """Let the engine judge `move` in the puzzle's position and say its verdict."""
        puzzle = self.puzzle
        verdict: Judgement = judge(puzzle, move)
        sentence = render.sentence_html(verdict.rule, verdict.sentence, ok=verdict.right)
        self.action_bar.hide_chooser()
        self._placed = True
        if verdict.right:
            for control in MOVE_BUTTONS:
                self.buttons[control].disabled = True
            self.action_bar.target.disabled = True
            for toggle in self.hand_panel.toggles:
                toggle.disabled = True
            show(self.buttons[Control.SHOW_ANSWER], False)
            if puzzle.id in self._seen:
                tail = naming(SEEN)
            elif puzzle.id in self._missed:
                tail = naming(MISSED)
            else:
                tail = naming(SOLVED)
            self._say(sentence + paragraph(tail), tone=OK)
            solved = puzzle.id not in self._seen and puzzle.id not in self._missed
            if solved and puzzle.id not in self.solved:
                self.solved = [*self.solved, puzzle.id]
            return
        self._missed.add(puzzle.id)
        show(self.buttons[Control.SHOW_ANSWER], True)
        again = _("Try again, or press {button}.").format(button=label(Control.SHOW_ANSWER))
        self.controls.refuse(sentence, paragraph(again))

    # -- rendering --------------------------------------------------------------------------------
    def _say(self, html: str, tone: str = "") -> None:
        self.controls.say(html, tone)

    def _all_solved(self) -> set[str]:
        """The puzzles of this set solved, on this page or kept from earlier visits."""
        return {i for i in (*self.kept_solved, *self.solved) if i in self._place}

    def _picker_options(self) -> list[tuple[str, str]]:
        """The "Go to puzzle" menu: each puzzle by its place and difficulty, a tick when solved
        (the value is the puzzle's id)."""
        done = self._all_solved() if hasattr(self, "_place") else set()
        return [
            (
                (
                    _("Puzzle {number} · difficulty {difficulty} · ✓ solved")
                    if p.id in done
                    else _("Puzzle {number} · difficulty {difficulty}")
                ).format(number=k, difficulty=p.difficulty),
                p.id,
            )
            for k, p in enumerate(self.puzzles, 1)
        ]

    def _show_marks(self) -> None:
        """The line and the menu after a change of what is solved."""
        self._show_heading()
        options = self._picker_options()
        if list(self.picker.options) != options:
            self._picking = True
            try:
                with self.picker.hold_sync():
                    self.picker.options = options
                    self.picker.value = self.puzzle_id
            finally:
                self._picking = False

    def _show_heading(self) -> None:
        puzzle = self.puzzle
        place = self._place[puzzle.id]
        done = self._all_solved()
        words = {
            "number": place + 1,
            "count": len(self.puzzles),
            "difficulty": puzzle.difficulty,
            "solved": len(done),
        }
        if puzzle.id in done:
            line = _(
                "Puzzle {number} of {count} · difficulty {difficulty} · solved {solved} · ✓ you "
                "solved this one"
            ).format(**words)
        else:
            line = _(
                "Puzzle {number} of {count} · difficulty {difficulty} · solved {solved}"
            ).format(**words)
        value = f"<p><b>{render.esc(line)}</b></p>"
        if self.heading.value != value:
            self.heading.value = value

    def _show_puzzle(self) -> None:
        """Show the puzzle of `puzzle_id` afresh: its position, its question, nothing selected."""
        puzzle = self.puzzle
        self._deal = deal = puzzle.position()
        seat = puzzle.seat
        self.controls.hint.forget()
        self._show_heading()
        if self.picker.value != puzzle.id:
            self._picking = True
            try:
                self.picker.value = puzzle.id
            finally:
                self._picking = False
        self.question.value = "<p><b>{}</b> {}</p>".format(
            esc(_("Puzzle:")), render.symbols(puzzle.question)
        )
        self.board.show(
            deal, seat, frames.Changes(), turn_status(deal, seat), seat_status(deal, seat)
        )
        self.hand_panel.show(deal.hand(seat), True)
        self.action_bar.show(deal, True, None)
        # Every move button is offered: which one is right is the question itself.
        for control in (Control.DEAD, Control.GAME):
            show(self.buttons[control], True)
        place = self._place[puzzle.id]
        self.buttons[Control.PREVIOUS_PUZZLE].disabled = place == 0
        self.buttons[Control.NEXT_PUZZLE].disabled = place + 1 == len(self.puzzles)
        tried = puzzle.id in self._missed or puzzle.id in self._seen
        show(self.buttons[Control.SHOW_ANSWER], tried)
        note, tone = self._note, self._note_tone
        self._note, self._note_tone = "", NO
        if tried and not note:
            note, tone = _(MISSED_BEFORE), ""
        if not note:
            tone = ""
        ask = paragraph(naming(ASK))
        self._say(paragraph(note) + ask if note else ask, tone=tone)
        if is_shown(self._trouble):
            self.report("")
