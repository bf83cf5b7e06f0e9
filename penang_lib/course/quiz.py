"""Quiz questions as data, judged by the engine: the right answer is never written by hand.

A question is a dict (a lesson keeps its questions in JSON). Every question has `"ask"`, the text
the learner reads, and exactly one of the forms below. The right answer is what the engine says.
An author may still write `"answer"`; it is checked against the engine when the question is
built, and a disagreement raises `QuestionError` (a `ValueError`), so a wrong question never
reaches a learner.

Yes/no questions about one rule check (the right answer is `bool(verdict)`):

- `{"ask": "Is 8♥ 8♥ 8♣ a meld?", "meld": "8H 8H 8C"}`: `check_meld(cards)`.
- `{"ask": ..., "lay_off": ["5H 6H 7H", "8H"]}`: `check_lay_off(table meld, card)`.
- `{"ask": ..., "swap": ["5H 6H JK@7H", "7H"]}`: `check_swap(table meld, card)`.
- `{"ask": ..., "can_play": {"hand": "7H 9S 9C", "table": ["5H 6H JK@7H"], "passport": true}}`:
  `can_play(hand, table, passport)`; `table` defaults to an empty table, `passport` is required.
- Optional: `"answer": true / false` (checked against the engine), and `"labels": ["Yes", "No"]`
  (the two answers' words, the first meaning "allowed"; default "Yes" and "No").

Pick the legal move from a prepared position:

- `{"ask": "North to play. Which move is legal?", "position": {"hands": ["5H 6H 7H 9C", ...],
  "dealer": 1, "moves": ["meld 5H 6H 7H", "end_turn"]}, "choices": ["lay_off 0 8H",
  "swap 0 7H", "meld 9C 9D 9S"]}`.
- `position` is a prepared position (`penang_lib.course.positions.position_deal`).
- `choices` are move texts; a choice is right when the engine allows it now
  (`deal.explain_illegal(move) is None`). At least one must be legal. An optional `"answer"`
  (one choice text, or a list of them) must name exactly the legal choices.

How many cards, from the deal's own numbers:

- `{"ask": "Three play. How many cards does each hand hold?", "count": {"of": "hand",
  "players": 3}, "choices": [20, 25, 27]}`: `of` is `"deck"` (the cards in the deck),
  `"hand"` (the cards dealt to each player) or `"put_aside"` (the cards left over, never used),
  for a deal of `players` (2 to 5). The right choice is the engine's number (a deal of that many
  players is dealt to find it), and the feedback gives the engine's own sentence about that
  deal (rule `deck` or `deal`). Exactly one choice must be right; an optional `"answer"` (a
  number) must be it.

Every question may (and in a lesson must) carry `"why"`: one plain sentence in the author's
words saying why the right answer is right ("There is no minimum score: any meld is a
passport."). Built with `explained=True` (as the lessons' quizzes are checked), a question
without a `"why"` is a data error. Malformed data raises `QuestionError` naming the question
number (from 1) and what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from penang_lib.course.positions import position_deal
from penang_lib.engine.cards import CardParseError
from penang_lib.engine.checks import Verdict, can_play, check_lay_off, check_meld, check_swap
from penang_lib.engine.deal import Deal
from penang_lib.engine.events import Event
from penang_lib.engine.explain import explain
from penang_lib.engine.moves import IllegalMove, Move, parse_move
from penang_lib.engine.rules import Rules
from penang_lib.engine.validate import shown
from penang_lib.i18n import N_, _, ngettext

CHECKS = ("meld", "lay_off", "swap", "can_play")
"""The yes/no forms: the key names the rule check asked about."""
FORMS = (*CHECKS, "position", "count")
COMMON_KEYS = frozenset({"ask", "answer", "why"})
FORM_KEYS: dict[str, frozenset[str]] = {
    **{form: frozenset({form, "labels"}) for form in CHECKS},
    "position": frozenset({"position", "choices"}),
    "count": frozenset({"count", "choices"}),
}
COUNT_KEYS = frozenset({"of", "players"})
COUNTED: dict[str, str] = {"deck": "deck", "hand": "deal", "put_aside": "deal"}
"""What a count question may ask about, and the rule whose sentence answers it."""
CAN_PLAY_KEYS = frozenset({"hand", "table", "passport"})
DEFAULT_LABELS = (N_("Yes"), N_("No"))
"""A yes/no question's answers' words when its data gives none (marked: shown through `_()`)."""


class QuestionError(ValueError):
    """A question whose data is malformed or whose written answer the engine contradicts."""


@dataclass(frozen=True)
class Question:
    """One question as built: what it asks, its answers' words and, for each answer, whether
    the engine says it is right.

    A yes/no question keeps the engine's `verdict`; a position question keeps the position's
    `deal`, the parsed `moves` (one per choice) and, per choice, the engine's `refusals` (None
    for a legal move) and the `events` a legal move makes (empty for a refused one).
    """

    number: int
    data: dict[str, Any]
    form: str
    ask: str
    labels: list[str]
    right: list[bool]
    verdict: Verdict | None = None
    """The engine's verdict, for a yes/no question."""
    deal: Deal | None = None
    """The prepared position, for a position question (the question's own: do not push to it)."""
    moves: list[Move] = field(default_factory=list)
    """The parsed choices, for a position question."""
    refusals: list[IllegalMove | None] = field(default_factory=list)
    """Per choice of a position question, the engine's refusal, or None when it is legal."""
    events: list[tuple[Event, ...]] = field(default_factory=list)
    """Per choice of a position question, what the move does when played (empty if refused)."""
    why: str = ""
    """The author's sentence saying why the right answer is right ("" when none is given)."""
    fact: tuple[str, str] | None = None
    """For a count question, the rule id and the engine's sentence that give the number."""

    @property
    def right_labels(self) -> list[str]:
        """The words of every right answer (one for a yes/no question)."""
        return [label for label, ok in zip(self.labels, self.right, strict=True) if ok]


# -- reading question data ------------------------------------------------------------------------
def _fail(number: int, what: str) -> QuestionError:
    return QuestionError(_("Question {number}: {problem}").format(number=number, problem=what))


def _text(number: int, value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(
            number, _("{what} should be text, not {value}").format(what=what, value=shown(value))
        )
    return value


def _texts(number: int, value: Any, what: str, size: int | None = None) -> list[str]:
    if not isinstance(value, list) or (size is not None and len(value) != size):
        if size is None:
            problem = _("{what} should be a list of texts, not {value}")
        else:
            problem = ngettext(
                "{what} should be a list of {size} text, not {value}",
                "{what} should be a list of {size} texts, not {value}",
                size,
            )
        raise _fail(number, problem.format(what=what, size=size, value=shown(value)))
    return [_text(number, v, what) for v in value]


def _flag(number: int, value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(
            number,
            _("{what} should be true or false, not {value}").format(what=what, value=shown(value)),
        )
    return value


def _why(number: int, data: dict[str, Any], explained: bool) -> str:
    """The question's `why` sentence: text ending as a sentence ends; "" when none is given and
    none is required."""
    if "why" not in data:
        if explained:
            raise _fail(
                number, _("'why' is missing: one sentence saying why the right answer is right")
            )
        return ""
    why = _text(number, data["why"], "why").strip()
    if not why.endswith((".", "!", "?")):
        raise _fail(
            number,
            _("why should be a sentence ending with a full stop: {why}").format(why=shown(why)),
        )
    return why


def _verdict(number: int, form: str, value: Any, rules: Rules) -> Verdict:
    """The engine's verdict on a yes/no question."""
    if form == "meld":
        cards = value if isinstance(value, str) else " ".join(_texts(number, value, "meld"))
        return check_meld(_text(number, cards, "meld"), rules)
    if form in ("lay_off", "swap"):
        what = _("{form} (a table meld and a card)").format(form=form)
        meld, card = _texts(number, value, what, 2)
        check = check_lay_off if form == "lay_off" else check_swap
        return check(meld, card, rules)
    if not isinstance(value, dict):
        raise _fail(
            number,
            _("can_play should be an object with hand, table, passport: {value}").format(
                value=shown(value)
            ),
        )
    unknown = sorted(set(value) - CAN_PLAY_KEYS)
    if unknown:
        raise _fail(
            number,
            _("unknown key {key} in can_play (use hand, table, passport)").format(
                key=shown(unknown[0])
            ),
        )
    if "hand" not in value or "passport" not in value:
        raise _fail(number, _("can_play needs a hand and a passport (true or false)"))
    hand = _text(number, value["hand"], "can_play's hand")
    table = _texts(number, value.get("table", []), "can_play's table")
    passport = _flag(number, value["passport"], "can_play's passport")
    return can_play(hand, table, passport, rules)


def _yes_no(number: int, data: dict[str, Any], form: str, rules: Rules, why: str) -> Question:
    verdict = _verdict(number, form, data[form], rules)
    labels = [_(label) for label in DEFAULT_LABELS]
    if "labels" in data:
        labels = _texts(number, data["labels"], "labels", 2)
    if "answer" in data:
        answer = _flag(number, data["answer"], "answer")
        if answer != bool(verdict):
            raise _fail(
                number,
                _(
                    "the answer written is {answer}, but the engine says {verdict} "
                    "(rule {rule}: {reason})"
                ).format(
                    answer=answer, verdict=bool(verdict), rule=verdict.rule, reason=verdict.reason
                ),
            )
    right = [verdict.ok, not verdict.ok]
    return Question(number, data, form, data["ask"], labels, right, verdict=verdict, why=why)


def _deal(number: int, value: Any, rules: Rules) -> Deal:
    """The prepared position: the hands dealt, then the moves played."""
    try:
        return position_deal(value, rules)
    except ValueError as error:
        raise _fail(number, str(error)) from error


def _position(number: int, data: dict[str, Any], rules: Rules, why: str) -> Question:
    deal = _deal(number, data["position"], rules)
    if "choices" not in data:
        raise _fail(number, _("a position question needs choices (move texts)"))
    choices = _texts(number, data["choices"], "choices")
    moves: list[Move] = []
    for text in choices:
        try:
            moves.append(parse_move(text))
        except CardParseError as error:
            raise _fail(
                number, _("choice {choice}: {error}").format(choice=shown(text), error=error)
            ) from error
    refusals = [deal.explain_illegal(move) for move in moves]
    right = [refusal is None for refusal in refusals]
    if not any(right):
        raise _fail(number, _("no choice is legal in this position: at least one must be"))
    if "answer" in data:
        raw = data["answer"]
        written = [raw] if isinstance(raw, str) else _texts(number, raw, "answer")
        try:
            said = {parse_move(_text(number, w, "answer")) for w in written}
        except CardParseError as error:
            raise _fail(number, _("answer: {error}").format(error=error)) from error
        legal = {m for m, r in zip(moves, right, strict=True) if r}
        if said != legal:
            allowed = ", ".join(str(m) for m in moves if m in legal)
            raise _fail(
                number,
                _("the answer written is {answer}, but the engine allows {allowed}").format(
                    answer=shown(raw), allowed=allowed
                ),
            )
    events = [
        deal.copy().push(move) if refusal is None else ()
        for move, refusal in zip(moves, refusals, strict=True)
    ]
    return Question(
        number,
        data,
        "position",
        data["ask"],
        [m.label() for m in moves],
        right,
        deal=deal,
        moves=moves,
        refusals=refusals,
        events=events,
        why=why,
    )


def _count(number: int, data: dict[str, Any], rules: Rules, why: str) -> Question:
    """A count question: the engine deals a deal of that many players and reads the number
    off it (the deck's size, a hand's size, or the cards put aside)."""
    value = data["count"]
    if not isinstance(value, dict) or set(value) != COUNT_KEYS:
        raise _fail(
            number,
            _("count should be an object with of and players, not {value}").format(
                value=shown(value)
            ),
        )
    of = value["of"]
    if of not in COUNTED:
        raise _fail(
            number,
            _("count's of should be one of {kinds}, not {value}").format(
                kinds=", ".join(COUNTED), value=shown(of)
            ),
        )
    players = value["players"]
    if players.__class__ is not int or not rules.min_players <= players <= rules.max_players:
        raise _fail(
            number,
            _("count's players should be a player count, not {value}").format(value=shown(players)),
        )
    choices = data.get("choices")
    if (
        not isinstance(choices, list)
        or len(choices) < 2
        or not all(c.__class__ is int for c in choices)
    ):
        raise _fail(
            number,
            _("choices should be a list of two or more numbers: {value}").format(
                value=shown(choices)
            ),
        )
    if len(set(choices)) != len(choices):
        raise _fail(number, _("choices should all differ"))
    deal = Deal(players=players, seed=0, rules=rules)
    hand = len(deal.hand(0))
    deck = 52 * rules.packs_for(players) + rules.jokers
    truth = {"deck": deck, "hand": hand, "put_aside": deck - players * hand}[of]
    right = [choice == truth for choice in choices]
    if not any(right):
        raise _fail(number, _("no choice is right: the engine counts {truth}").format(truth=truth))
    if "answer" in data and data["answer"] != truth:
        raise _fail(
            number,
            _("the answer written is {answer}, but the engine counts {truth}").format(
                answer=shown(data["answer"]), truth=truth
            ),
        )
    rule = COUNTED[of]
    sentence = next(explain(e, deal.names) for e in deal.start_events if e.rule == rule)
    labels = [
        ngettext("{count} card", "{count} cards", choice).format(count=choice) for choice in choices
    ]
    return Question(
        number, data, "count", data["ask"], labels, right, why=why, fact=(rule, sentence)
    )


def build_question(
    number: int, data: Any, rules: Rules | None = None, explained: bool = False
) -> Question:
    """Question `number` (from 1) from its data, judged by the engine (see the module text);
    `explained`: a question without a `why` sentence is a data error."""
    rules = Rules.of(rules)
    if not isinstance(data, Mapping):
        raise _fail(
            number,
            _("a question is an object with an 'ask', not {value}").format(value=shown(data)),
        )
    data = dict(data)
    forms = [f for f in FORMS if f in data]
    if len(forms) != 1:
        if forms:
            problem = _("give exactly one of {forms} (found {found})")
        else:
            problem = _("give exactly one of {forms} (found none)")
        raise _fail(number, problem.format(forms=", ".join(FORMS), found=", ".join(forms)))
    form = forms[0]
    unknown = sorted(set(data) - COMMON_KEYS - FORM_KEYS[form])
    if unknown:
        allowed = ", ".join(sorted(COMMON_KEYS | FORM_KEYS[form]))
        raise _fail(
            number,
            _("unknown key {key} (a {form} question takes {allowed})").format(
                key=shown(unknown[0]), form=form, allowed=allowed
            ),
        )
    if "ask" not in data:
        raise _fail(number, _("'ask' is missing: the question the learner reads"))
    _text(number, data["ask"], "ask")
    why = _why(number, data, explained)
    try:
        if form == "position":
            return _position(number, data, rules, why)
        if form == "count":
            return _count(number, data, rules, why)
        return _yes_no(number, data, form, rules, why)
    except CardParseError as error:
        raise _fail(number, _("bad cards: {error}").format(error=error)) from error


def build_questions(
    questions: Any, rules: Rules | None = None, explained: bool = False
) -> list[Question]:
    """Every question of a quiz (a non-empty list of question data), numbered from 1."""
    if isinstance(questions, str | bytes) or not isinstance(questions, Sequence):
        raise QuestionError(_("A quiz takes a list of questions."))
    if not questions:
        raise QuestionError(_("A quiz needs at least one question."))
    return [build_question(i, q, rules, explained) for i, q in enumerate(questions, 1)]
