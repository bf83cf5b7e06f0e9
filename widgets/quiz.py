"""`Quiz`: a short check at the end of a lesson. The questions are data, the truth is the engine's.

The question forms, and how the engine judges each, are those of `penang_lib.course.quiz` (a
lesson may keep its questions in JSON and load them with `Quiz.from_json`). This module shows
them: each question's answer buttons, and after a click the feedback, which is the author's
`why` sentence (after the right answer) and the engine's own sentence with its rule id; a
position question shows the position, and its wrong choices also the engine's refusal; a count
question gives the engine's sentence about the deal it counted.

Each question is answered once (its buttons are then disabled); the score line counts the right
answers, and `Try again` starts over. Malformed data raises `QuestionError` (a `ValueError`)
naming the question number (from 1) and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import traitlets

from penang_lib.course.quiz import Question, QuestionError, build_question, build_questions
from penang_lib.data.frames import hands_frame, table_frame
from penang_lib.engine.deal import Deal
from penang_lib.engine.rules import Rules
from penang_lib.engine.validate import require_flag, require_text, require_whole
from penang_lib.i18n import N_, _
from penang_lib.widgets import render
from penang_lib.widgets.base import KitWidget, guarded
from penang_lib.widgets.controls import Control, label, tooltip
from penang_lib.widgets.shared import ROW_WRAP, part, show

__all__ = [
    "Question",
    "QuestionError",
    "Quiz",
    "ShownQuestion",
    "as_shown",
    "build_question",
    "position_html",
]

RIGHT = N_("Right!")
WRONG = N_("Not quite.")
TITLE = N_("Check yourself")
"""The quiz's heading unless a lesson gives its own."""


@dataclass(frozen=True)
class ShownQuestion(Question):
    """A question as the quiz shows it: the engine's judgement (`Question`), the HTML of the
    position it asks about, and for each answer button its tooltip and its feedback."""

    position: str = ""
    """The position shown under the question (HTML), for a position question."""
    tooltips: list[str] = field(default_factory=list)
    feedback: list[str] = field(default_factory=list)
    """Per answer, the HTML shown when it is chosen."""


def position_html(deal: Deal) -> str:
    """The position a question asks about: the mover's hand, every player (others face down)
    and the table."""
    me = deal.turn
    name = deal.names[me]
    hand = render.card_row(deal.hand(me), _("{player}'s hand").format(player=name))
    said = _("<strong>{player} to play.</strong> {player}'s hand: {cards}").format(
        player=render.esc(name), cards=hand
    )
    return (
        f'<div class="penang-position"><p>{said}</p>'
        f"{render.hands_html(hands_frame(deal, show=[me]))}"
        f"{render.table_html(table_frame(deal))}</div>"
    )


def _verdict(right: bool) -> str:
    """ "Right!" or "Not quite.", in bold, before the feedback's sentence."""
    return f"<strong>{_(RIGHT) if right else _(WRONG)}</strong>"


def _the_answer(truth: str, why: str) -> str:
    """The right answer in a sentence, and the author's reason after it when there is one."""
    if why:
        return _("The answer is {answer}. {why}").format(
            answer=render.esc(truth), why=render.symbols(why)
        )
    return _("The answer is {answer}.").format(answer=render.esc(truth))


def _yes_no_feedback(question: Question) -> list[str]:
    verdict = question.verdict
    assert verdict is not None
    sentence = render.sentence_html(verdict.rule, verdict.reason, ok=verdict.ok)
    said = _the_answer(question.right_labels[0], question.why)
    return [f"<p>{_verdict(r)} {said}</p>{sentence}" for r in question.right]


def _count_feedback(question: Question) -> list[str]:
    assert question.fact is not None
    rule, reason = question.fact
    sentence = render.sentence_html(rule, reason, ok=True)
    said = _the_answer(question.right_labels[0], question.why)
    return [f"<p>{_verdict(r)} {said}</p>{sentence}" for r in question.right]


def _position_feedback(question: Question) -> list[str]:
    assert question.deal is not None
    names = question.deal.names
    legal = render.symbols(", ".join(question.right_labels))
    why = render.symbols(question.why) if question.why else ""
    feedback = []
    for move, refusal, events in zip(
        question.moves, question.refusals, question.events, strict=True
    ):
        played = render.symbols(move.label())
        if refusal is None:
            if why:
                said = _("{move} is legal. {why}").format(move=played, why=why)
            else:
                said = _("{move} is legal.").format(move=played)
            feedback.append(f"<p>{_verdict(True)} {said}</p>{render.events_html(events, names)}")
        else:
            refused = _("{move} is not allowed.").format(move=played)
            if why:
                legal_here = _("Legal here: {moves}. {why}").format(moves=legal, why=why)
            else:
                legal_here = _("Legal here: {moves}.").format(moves=legal)
            feedback.append(
                f"<p>{_verdict(False)} {refused}</p>"
                f"{render.sentence_html(refusal.rule, refusal.reason, ok=False)}"
                f"<p>{legal_here}</p>"
            )
    return feedback


def as_shown(question: Question) -> ShownQuestion:
    """`question` with what the quiz shows of it: the position, the tooltips and the feedback."""
    judged = {f.name: getattr(question, f.name) for f in fields(Question)}
    if question.form == "position":
        assert question.deal is not None
        return ShownQuestion(
            **judged,
            position=position_html(question.deal),
            tooltips=[_("Choose: {answer}").format(answer=answer) for answer in question.labels],
            feedback=_position_feedback(question),
        )
    return ShownQuestion(
        **judged,
        tooltips=[_("Answer {answer}").format(answer=repr(answer)) for answer in question.labels],
        feedback=_count_feedback(question)
        if question.form == "count"
        else _yes_no_feedback(question),
    )


# -- the widget -----------------------------------------------------------------------------------
class Quiz(KitWidget):
    """A list of questions with instant feedback (the engine's sentence) and a score.

    `questions`: dicts in the forms of the module text; `title`: the heading; `rules`: the rule
    set the engine judges by (default `Rules()`); `explained`: every question must say why its
    right answer is right (a `"why"` sentence), else `QuestionError`.

    Public: `questions` (the built questions, each a `ShownQuestion`), `buttons[i]` (question
    i's answer buttons), `feedback[i]` (its feedback `HTML`), `chosen[i]` (the button index
    chosen, or None), `score_line` (`HTML`), `again` (the `Try again` button), `answer()`,
    `reset()`; and two read-only traits to observe or link: `score` (right answers so far) and
    `answered` (questions answered so far).
    """

    score = traitlets.Int(0, read_only=True)
    """How many questions were answered right (a trait: `quiz.observe(f, "score")`)."""
    answered = traitlets.Int(0, read_only=True)
    """How many questions have been answered (a trait)."""

    def __init__(
        self,
        questions: Sequence[Mapping[str, Any]],
        title: str = TITLE,
        rules: Rules | None = None,
        four_colour: bool = False,
        explained: bool = False,
    ) -> None:
        super().__init__(four_colour)
        self.title = require_text(title, "title")
        self.rules = Rules.of(rules)
        explained = require_flag(explained, "explained")
        self.questions: list[ShownQuestion] = [
            as_shown(q) for q in build_questions(questions, self.rules, explained)
        ]
        self.chosen: list[int | None] = [None] * len(self.questions)
        self.buttons: list[list[Any]] = []
        self.feedback: list[Any] = []
        self._where: dict[int, tuple[int, int]] = {}

        heading = _(TITLE) if title == TITLE else title
        children: list[Any] = [part(widgets.HTML, f"<h3>{render.esc(heading)}</h3>")]
        for qi, question in enumerate(self.questions):
            ask = (
                f'<p class="penang-ask"><strong>{question.number}.</strong> '
                f"{render.symbols(question.ask)}</p>{question.position}"
            )
            row = []
            for bi, (answer, tip) in enumerate(
                zip(question.labels, question.tooltips, strict=True)
            ):
                button = part(
                    widgets.Button,
                    description=render.plain(answer),
                    tooltip=render.plain(tip),
                    layout={"width": "auto"},
                )
                button.add_class("penang-answer")
                button.on_click(self._on_answer)
                self._where[id(button)] = (qi, bi)
                row.append(button)
            self.buttons.append(row)
            feedback = part(widgets.HTML, "")
            show(feedback, False)
            feedback.add_class("penang-message")
            self.feedback.append(feedback)
            box = part(
                widgets.VBox,
                [
                    part(widgets.HTML, ask),
                    part(widgets.HBox, row, layout={"flex_flow": ROW_WRAP}),
                    feedback,
                ],
            )
            box.add_class("penang-question")
            children.append(box)

        self.score_line = part(widgets.HTML, "")
        self.score_line.add_class("penang-score")
        self.again = part(
            widgets.Button,
            description=label(Control.TRY_AGAIN),
            tooltip=tooltip(Control.TRY_AGAIN),
            icon="refresh",
        )
        self.again.on_click(self._on_again)
        children.append(part(widgets.HBox, [self.score_line, self.again]))
        self._show_score()
        self._finish(children, "penang-quiz")

    # -- state ------------------------------------------------------------------------------
    def answer(self, question: int, choice: int) -> None:
        """Answer question `question` (from 0) with button `choice`, as a click does."""
        question = require_whole(question, "question", 0, len(self.buttons) - 1)
        choice = require_whole(choice, "choice", 0, len(self.buttons[question]) - 1)
        self.buttons[question][choice].click()

    def reset(self) -> None:
        """Clear every answer: buttons enabled again, feedback hidden, score back to 0."""
        self.chosen = [None] * len(self.questions)
        for row, feedback in zip(self.buttons, self.feedback, strict=True):
            for button in row:
                with button.hold_sync():
                    button.disabled = False
                    button.button_style = ""
            with feedback.hold_sync():
                feedback.value = ""
                show(feedback, False)
        self._show_score()
        self.report("")

    # -- callbacks --------------------------------------------------------------------------
    @guarded
    def _on_answer(self, button: Any) -> None:
        qi, bi = self._where[id(button)]
        if self.chosen[qi] is not None:
            return  # answered already (a late click from the browser)
        question = self.questions[qi]
        self.chosen[qi] = bi
        for i, other in enumerate(self.buttons[qi]):
            style = ""
            if question.right[i] and (i == bi or not question.right[bi]):
                style = "success"
            elif i == bi:
                style = "danger"
            with other.hold_sync():
                other.disabled = True
                other.button_style = style
        feedback = self.feedback[qi]
        with feedback.hold_sync():
            feedback.value = question.feedback[bi]
            show(feedback, True)
        self._show_score()

    @guarded
    def _on_again(self, button: Any) -> None:
        self.reset()

    def _show_score(self) -> None:
        """Show the score line, then count the answers in the `score` and `answered` traits."""
        answered = sum(c is not None for c in self.chosen)
        score = sum(
            c is not None and q.right[c] for q, c in zip(self.questions, self.chosen, strict=True)
        )
        total = len(self.questions)
        left = total - answered
        if answered == 0:
            text = _("Score: no question answered yet ({left} to go).").format(left=total)
        elif left:
            text = _("Score: {score} of {answered} answered right ({left} to go).").format(
                score=score, answered=answered, left=left
            )
        else:
            text = _("Score: {score} of {answered} answered right. All done!").format(
                score=score, answered=answered
            )
        self.score_line.value = f"<p><strong>{render.esc(text)}</strong></p>"
        with self.hold_trait_notifications():
            self.set_trait("answered", answered)
            self.set_trait("score", score)

    # -- loading ----------------------------------------------------------------------------
    @classmethod
    def from_json(cls, path_or_text: str | Path, **options: Any) -> Quiz:
        """A quiz from a JSON list of questions: a file's path, or the JSON text itself.
        `options` go to the constructor (`title`, `rules`, `four_colour`, `explained`)."""
        text = str(path_or_text)
        if isinstance(path_or_text, Path) or not text.lstrip().startswith(("[", "{")):
            text = Path(path_or_text).read_text(encoding="utf-8")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise QuestionError(
                _("The quiz is not valid JSON: {error}").format(error=error)
            ) from error
        except RecursionError:
            raise QuestionError(_("The quiz is not valid JSON: it is nested too deeply.")) from None
        if not isinstance(data, list):
            raise QuestionError(_("A quiz file holds a JSON list of questions."))
        return cls(data, **options)
