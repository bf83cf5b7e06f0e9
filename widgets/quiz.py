"""`Quiz`: a short check at the end of a lesson. The questions are data, the truth is the engine's.

A quiz is a list of questions, each a dict (a lesson may keep them in JSON and load them with
`Quiz.from_json`). Every question has `"ask"`, the text the learner reads, and exactly one of the
forms below. The right answer is never written by hand: it is what `penang_lib` says, and the
feedback is the engine's own sentence with its rule id. An author may still write `"answer"`; it is
checked against the engine when the quiz is built, and a disagreement raises `ValueError`, so a
wrong question never reaches a learner.

Yes/no questions about one rule check (the right answer is `bool(verdict)`):

- `{"ask": "Is 8♥ 8♥ 8♣ a meld?", "meld": "8H 8H 8C"}`: `check_meld(cards)`.
- `{"ask": ..., "lay_off": ["5H 6H 7H", "8H"]}`: `check_lay_off(table meld, card)`.
- `{"ask": ..., "swap": ["5H 6H JK@7H", "7H"]}`: `check_swap(table meld, card)`.
- `{"ask": ..., "can_play": {"hand": "7H 9S 9C", "table": ["5H 6H JK@7H"], "passport": true}}`:
  `can_play(hand, table, passport)`; `table` defaults to an empty table, `passport` is required.
- Optional: `"answer": true / false` (checked against the engine), and `"labels": ["Yes", "No"]`
  (the two buttons' words, the first meaning "allowed"; default "Yes" and "No").

Pick the legal move from a prepared position:

- `{"ask": "North to play. Which move is legal?", "position": {"hands": ["5H 6H 7H 9C", ...],
  "dealer": 1, "moves": ["meld 5H 6H 7H", "end_turn"]}, "choices": ["lay_off 0 8H",
  "swap 0 7H", "meld 9C 9D 9S"]}`.
- `position` builds `Deal(hands=..., dealer=...)` (`dealer` defaults to the last seat, so seat 0
  plays first; `names` may name the seats) and plays `moves` (the move text of `parse_move`).
- `choices` are move texts; a choice is right when the engine allows it now
  (`deal.explain_illegal(move) is None`). At least one must be legal. An optional `"answer"`
  (one choice text, or a list of them) must name exactly the legal choices.

Every question may (and in a lesson must) carry `"why"`: one plain sentence in the author's
words saying why the right answer is right ("There is no minimum score: any meld is a
passport."). The feedback after either button shows it, after the right answer and before the
engine's own sentence; a position question's wrong choices also show the engine's refusal. Built
with `explained=True` (as the lessons' quizzes are checked), a question without a `"why"` is a
data error.

Each question is answered once (its buttons are then disabled); the score line counts the right
answers, and `Try again` starts over. Malformed data raises `ValueError` naming the question
number (from 1) and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from penang_lib import (
    CardParseError,
    Deal,
    Rules,
    Verdict,
    can_play,
    check_lay_off,
    check_meld,
    check_swap,
    parse_move,
)
from penang_lib.data.tables import hands_frame, table_frame
from penang_lib.engine.moves import Move
from penang_lib.engine.validate import require_flag, require_text, require_whole
from penang_lib.engine.validate import shown as cut_repr
from widgets import render
from widgets.base import KitWidget, guarded
from widgets.lessons import position_deal
from widgets.shared import part, show

CHECKS = ("meld", "lay_off", "swap", "can_play")
"""The yes/no forms: the key names the rule check asked about."""
FORMS = (*CHECKS, "position")
COMMON_KEYS = frozenset({"ask", "answer", "why"})
FORM_KEYS: dict[str, frozenset[str]] = {
    **{form: frozenset({form, "labels"}) for form in CHECKS},
    "position": frozenset({"position", "choices"}),
}
CAN_PLAY_KEYS = frozenset({"hand", "table", "passport"})
DEFAULT_LABELS = ("Yes", "No")

RIGHT = "Right!"
WRONG = "Not quite."


class QuestionError(ValueError):
    """A question whose data is malformed or whose written answer the engine contradicts."""


@dataclass
class Question:
    """One question as built: what it asks, its buttons' words and, for each button, whether it
    is right and the feedback (the engine's sentence) shown when it is chosen."""

    number: int
    data: dict[str, Any]
    form: str
    ask: str
    labels: list[str]
    tooltips: list[str]
    right: list[bool]
    feedback: list[str]
    position: str = ""
    """The position shown under the question (HTML), for a position question."""
    verdict: Verdict | None = None
    """The engine's verdict, for a yes/no question."""
    moves: list[Move] = field(default_factory=list)
    """The parsed choices, for a position question."""
    why: str = ""
    """The author's sentence saying why the right answer is right ("" when none is given)."""


# -- reading question data ------------------------------------------------------------------------
def _fail(number: int, what: str) -> QuestionError:
    return QuestionError(f"Question {number}: {what}")


def _text(number: int, value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(number, f"{what} should be text, not {cut_repr(value)}")
    return value


def _texts(number: int, value: Any, what: str, size: int | None = None) -> list[str]:
    if not isinstance(value, list) or (size is not None and len(value) != size):
        count = f"{size} " if size is not None else ""
        raise _fail(number, f"{what} should be a list of {count}texts, not {cut_repr(value)}")
    return [_text(number, v, what) for v in value]


def _flag(number: int, value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(number, f"{what} should be true or false, not {cut_repr(value)}")
    return value


def _why(number: int, data: dict[str, Any], explained: bool) -> str:
    """The question's `why` sentence: text ending as a sentence ends; "" when none is given and
    none is required."""
    if "why" not in data:
        if explained:
            raise _fail(
                number, "'why' is missing: one sentence saying why the right answer is right"
            )
        return ""
    why = _text(number, data["why"], "why").strip()
    if not why.endswith((".", "!", "?")):
        raise _fail(number, f"why should be a sentence ending with a full stop: {cut_repr(why)}")
    return why


def _verdict(number: int, form: str, value: Any, rules: Rules) -> Verdict:
    """The engine's verdict on a yes/no question."""
    if form == "meld":
        cards = value if isinstance(value, str) else " ".join(_texts(number, value, "meld"))
        return check_meld(_text(number, cards, "meld"), rules)
    if form in ("lay_off", "swap"):
        meld, card = _texts(number, value, f"{form} (a table meld and a card)", 2)
        check = check_lay_off if form == "lay_off" else check_swap
        return check(meld, card, rules)
    if not isinstance(value, dict):
        raise _fail(
            number, f"can_play should be an object with hand, table, passport: {cut_repr(value)}"
        )
    unknown = sorted(set(value) - CAN_PLAY_KEYS)
    if unknown:
        raise _fail(
            number, f"unknown key {cut_repr(unknown[0])} in can_play (use hand, table, passport)"
        )
    if "hand" not in value or "passport" not in value:
        raise _fail(number, "can_play needs a hand and a passport (true or false)")
    hand = _text(number, value["hand"], "can_play's hand")
    table = _texts(number, value.get("table", []), "can_play's table")
    passport = _flag(number, value["passport"], "can_play's passport")
    return can_play(hand, table, passport, rules)


def _yes_no(number: int, data: dict[str, Any], form: str, rules: Rules, why: str) -> Question:
    verdict = _verdict(number, form, data[form], rules)
    labels = list(DEFAULT_LABELS)
    if "labels" in data:
        labels = _texts(number, data["labels"], "labels", 2)
    if "answer" in data:
        answer = _flag(number, data["answer"], "answer")
        if answer != bool(verdict):
            raise _fail(
                number,
                f"the answer written is {answer}, but the engine says {bool(verdict)} "
                f"(rule {verdict.rule}: {verdict.reason})",
            )
    sentence = render.sentence_html(verdict.rule, verdict.reason, ok=verdict.ok)
    truth = labels[0] if verdict.ok else labels[1]
    right = [verdict.ok, not verdict.ok]
    said = f"The answer is {render.esc(truth)}." + (f" {render.symbols(why)}" if why else "")
    feedback = [f"<p><strong>{RIGHT if r else WRONG}</strong> {said}</p>{sentence}" for r in right]
    tooltips = [f"Answer {label!r}" for label in labels]
    return Question(
        number, data, form, data["ask"], labels, tooltips, right, feedback, verdict=verdict, why=why
    )


def _deal(number: int, value: Any, rules: Rules) -> Deal:
    """The prepared position: the hands dealt, then the moves played."""
    try:
        return position_deal(value, rules)
    except ValueError as error:
        raise _fail(number, str(error)) from error


def position_html(deal: Deal) -> str:
    """The position a question asks about: the mover's hand, every player (others face down)
    and the table."""
    me = deal.turn
    name = deal.names[me]
    hand = render.card_row(deal.hand(me), f"{name}'s hand")
    return (
        f'<div class="penang-position"><p><strong>{render.esc(name)} to play.</strong> '
        f"{render.esc(name)}'s hand: {hand}</p>"
        f"{render.hands_html(hands_frame(deal, show=[me]))}"
        f"{render.table_html(table_frame(deal))}</div>"
    )


def _position(number: int, data: dict[str, Any], rules: Rules, why: str) -> Question:
    deal = _deal(number, data["position"], rules)
    if "choices" not in data:
        raise _fail(number, "a position question needs choices (move texts)")
    choices = _texts(number, data["choices"], "choices")
    moves: list[Move] = []
    for text in choices:
        try:
            moves.append(parse_move(text))
        except CardParseError as error:
            raise _fail(number, f"choice {cut_repr(text)}: {error}") from error
    refusals = [deal.explain_illegal(move) for move in moves]
    right = [refusal is None for refusal in refusals]
    if not any(right):
        raise _fail(number, "no choice is legal in this position: at least one must be")
    if "answer" in data:
        raw = data["answer"]
        written = [raw] if isinstance(raw, str) else _texts(number, raw, "answer")
        try:
            said = {parse_move(_text(number, w, "answer")) for w in written}
        except CardParseError as error:
            raise _fail(number, f"answer: {error}") from error
        legal = {m for m, r in zip(moves, right, strict=True) if r}
        if said != legal:
            shown = ", ".join(str(m) for m in moves if m in legal)
            raise _fail(
                number, f"the answer written is {cut_repr(raw)}, but the engine allows {shown}"
            )
    legal_labels = ", ".join(m.label() for m, r in zip(moves, right, strict=True) if r)
    because = f" {render.symbols(why)}" if why else ""
    feedback = []
    for move, refusal in zip(moves, refusals, strict=True):
        if refusal is None:
            events = deal.copy().push(move)
            feedback.append(
                f"<p><strong>{RIGHT}</strong> {render.symbols(move.label())} is legal.{because}</p>"
                f"{render.events_html(events, deal.names)}"
            )
        else:
            feedback.append(
                f"<p><strong>{WRONG}</strong> {render.symbols(move.label())} is not allowed.</p>"
                f"{render.sentence_html(refusal.rule, refusal.reason, ok=False)}"
                f"<p>Legal here: {render.symbols(legal_labels)}.{because}</p>"
            )
    labels = [m.label() for m in moves]
    tooltips = [f"Choose: {label}" for label in labels]
    return Question(
        number,
        data,
        "position",
        data["ask"],
        labels,
        tooltips,
        right,
        feedback,
        position=position_html(deal),
        moves=moves,
        why=why,
    )


def build_question(
    number: int, data: Any, rules: Rules | None = None, explained: bool = False
) -> Question:
    """Question `number` (from 1) from its data, judged by the engine (see the module text);
    `explained`: a question without a `why` sentence is a data error."""
    rules = Rules.of(rules)
    if not isinstance(data, Mapping):
        raise _fail(number, f"a question is an object with an 'ask', not {cut_repr(data)}")
    data = dict(data)
    forms = [f for f in FORMS if f in data]
    if len(forms) != 1:
        found = f"found {', '.join(forms)}" if forms else "found none"
        raise _fail(number, f"give exactly one of {', '.join(FORMS)} ({found})")
    form = forms[0]
    unknown = sorted(set(data) - COMMON_KEYS - FORM_KEYS[form])
    if unknown:
        allowed = ", ".join(sorted(COMMON_KEYS | FORM_KEYS[form]))
        raise _fail(
            number, f"unknown key {cut_repr(unknown[0])} (a {form} question takes {allowed})"
        )
    if "ask" not in data:
        raise _fail(number, "'ask' is missing: the question the learner reads")
    _text(number, data["ask"], "ask")
    why = _why(number, data, explained)
    try:
        if form == "position":
            return _position(number, data, rules, why)
        return _yes_no(number, data, form, rules, why)
    except CardParseError as error:
        raise _fail(number, f"bad cards: {error}") from error


# -- the widget -----------------------------------------------------------------------------------
class Quiz(KitWidget):
    """A list of questions with instant feedback (the engine's sentence) and a score.

    `questions`: dicts in the forms of the module text; `title`: the heading; `rules`: the rule
    set the engine judges by (default `Rules()`); `explained`: every question must say why its
    right answer is right (a `"why"` sentence), else `QuestionError`.

    Public: `questions` (the built `Question`s), `buttons[i]` (question i's answer buttons),
    `feedback[i]` (its feedback `HTML`), `score` (right answers so far), `answered` (questions
    answered so far), `chosen[i]` (the button index chosen, or None), `score_line` (`HTML`),
    `again` (the `Try again` button), `reset()`.
    """

    def __init__(
        self,
        questions: Sequence[Mapping[str, Any]],
        title: str = "Check yourself",
        rules: Rules | None = None,
        four_colour: bool = False,
        explained: bool = False,
    ) -> None:
        super().__init__(four_colour)
        if isinstance(questions, str | bytes) or not isinstance(questions, Sequence):
            raise QuestionError("A quiz takes a list of questions.")
        if not questions:
            raise QuestionError("A quiz needs at least one question.")
        self.title = require_text(title, "title")
        self.rules = Rules.of(rules)
        explained = require_flag(explained, "explained")
        self.questions: list[Question] = [
            build_question(i, q, self.rules, explained) for i, q in enumerate(questions, 1)
        ]
        self.chosen: list[int | None] = [None] * len(self.questions)
        self.buttons: list[list[Any]] = []
        self.feedback: list[Any] = []
        self._where: dict[int, tuple[int, int]] = {}

        children: list[Any] = [part(widgets.HTML, f"<h3>{render.esc(title)}</h3>")]
        for qi, question in enumerate(self.questions):
            ask = (
                f'<p class="penang-ask"><strong>{question.number}.</strong> '
                f"{render.symbols(question.ask)}</p>{question.position}"
            )
            row = []
            for bi, (label, tip) in enumerate(zip(question.labels, question.tooltips, strict=True)):
                button = part(
                    widgets.Button,
                    description=render.plain(label),
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
                    part(widgets.HBox, row, layout={"flex_flow": "row wrap"}),
                    feedback,
                ],
            )
            box.add_class("penang-question")
            children.append(box)

        self.score_line = part(widgets.HTML, "")
        self.score_line.add_class("penang-score")
        self.again = part(
            widgets.Button,
            description="Try again",
            tooltip="Clear every answer and start the quiz again",
            icon="refresh",
        )
        self.again.on_click(self._on_again)
        children.append(part(widgets.HBox, [self.score_line, self.again]))
        self._show_score()
        self._finish(children, "penang-quiz")

    # -- state ------------------------------------------------------------------------------
    @property
    def answered(self) -> int:
        """How many questions have been answered."""
        return sum(c is not None for c in self.chosen)

    @property
    def score(self) -> int:
        """How many questions were answered right."""
        return sum(
            c is not None and q.right[c] for q, c in zip(self.questions, self.chosen, strict=True)
        )

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
        total = len(self.questions)
        answered = self.answered
        left = total - answered
        if answered == 0:
            text = f"Score: no question answered yet ({total} to go)."
        else:
            text = f"Score: {self.score} of {answered} answered right"
            text += f" ({left} to go)." if left else ". All done!"
        self.score_line.value = f"<p><strong>{render.esc(text)}</strong></p>"

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
            raise QuestionError(f"The quiz is not valid JSON: {error}") from error
        except RecursionError:
            raise QuestionError("The quiz is not valid JSON: it is nested too deeply.") from None
        if not isinstance(data, list):
            raise QuestionError("A quiz file holds a JSON list of questions.")
        return cls(data, **options)
