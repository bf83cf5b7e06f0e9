"""The widgets with bad input (issue 8, item 2): whatever a learner types, clicks or puts in a
link, the widget shows one sentence, keeps its state and lets no exception escape; an author's
bad argument is refused at once with a sentence naming it.

Every expectation is computed from penang_lib, not written down. It checks several widgets
modules, so it is named for what it checks rather than after one module."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest

from penang_lib import CardParseError, Deal, parse_cards, play_deal
from penang_lib.engine.validate import ArgumentTypeError
from penang_lib.widgets import DealStepper, MatchSheet, MeldChecker, PlayTable, Quiz
from penang_lib.widgets.base import OOPS, KitWidget
from penang_lib.widgets.controls import Control
from penang_lib.widgets.lessons import Cards, lesson_data
from penang_lib.widgets.links import MAX_NOTED, apply_link, read_link
from penang_lib.widgets.play_parts import MOVE_BUTTONS
from penang_lib.widgets.quiz import QuestionError
from penang_lib.widgets.shared import is_shown

Call = Callable[[], object]
LONGEST_SENTENCE = 400


def words(value: str) -> str:
    """An HTML value as the words a learner reads."""
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


def no_trouble(widget: KitWidget) -> None:
    """The widget never fell back to its sentence for a failure of ours."""
    assert OOPS not in widget._trouble.value
    assert not is_shown(widget._trouble)


# -- MeldChecker's text box: anything typed gets the engine's sentence ---------------------------
TYPED = {
    "nothing": "",
    "spaces": "   ",
    "garbage": "ZZ QQ",
    "Arabic-Indic digits": "\u0663H \u0664H \u0665H",
    "full-width digits": "\uff13H \uff14H \uff15H",
    "superscript": "\u00b2H",
    "a note in other digits": "JK@\u0663H 5H 6H",
    "a huge note": "JK@" + "9" * 5000,
    "a very long word": "x" * 100_000,
    "very many cards": "5H " * 20_000,
    "control characters": "5H\x00\x1b[31m",
    "markup": "<script>alert(1)</script>",
    "only jokers as symbols": "\U0001f0cf\U0001f0cf\U0001f0cf",
    "only commas": ",,,,",
    "right-to-left mark": "\u202e5H 6H 7H",
}


@pytest.mark.parametrize("typed", list(TYPED.values()), ids=list(TYPED))
@pytest.mark.parametrize("against", [-1, 0])
def test_whatever_is_typed_gets_one_verdict(typed: str, against: int) -> None:
    checker = MeldChecker(table=["5H 6H JK@7H"], hand="5H 6H 7H 9S")
    table, hand = list(checker.table), list(checker.hand)
    checker.target.value = against
    checker.entry.value = typed
    shown = words(checker.feedback.value)
    assert shown.strip()
    no_trouble(checker)
    assert checker.table == table and checker.hand == hand
    try:
        parse_cards(typed)
    except CardParseError as error:
        assert html.unescape(html.escape(str(error))) in shown
        assert len(str(error)) <= LONGEST_SENTENCE
    assert len(checker.feedback.value) < 200_000  # never the whole typed text over and over


AUTHOR_MISTAKES: list[tuple[str, Call, type[Exception], str]] = [
    ("table as one text", lambda: MeldChecker(table="5H 6H 7H"), TypeError, "table"),
    ("table of numbers", lambda: MeldChecker(table=[5]), TypeError, "table meld"),  # type: ignore[list-item]
    ("table of garbage", lambda: MeldChecker(table=["ZZ"]), CardParseError, "ZZ"),
    ("hand as a number", lambda: MeldChecker(hand=5), TypeError, "hand"),  # type: ignore[arg-type]
    ("rules as text", lambda: MeldChecker(rules="x"), TypeError, "rules"),  # type: ignore[arg-type]
    ("value as a number", lambda: MeldChecker(value=5), TypeError, "value"),  # type: ignore[arg-type]
    ("against as text", lambda: MeldChecker(table=["5H 6H 7H"], against="0"), TypeError, "against"),  # type: ignore[arg-type]
    (
        "against past the table",
        lambda: MeldChecker(table=["5H 6H 7H"], against=1),
        ValueError,
        "0 to 0",
    ),
    ("against with no table", lambda: MeldChecker(against=0), ValueError, "no table"),
    ("four_colour as text", lambda: MeldChecker(four_colour="yes"), TypeError, "four_colour"),  # type: ignore[arg-type]
    ("PlayTable seat as text", lambda: PlayTable(seat="0", seed=1), TypeError, "seat"),  # type: ignore[arg-type]
    ("PlayTable seat 9", lambda: PlayTable(seat=9, seed=1), ValueError, "seat"),
    ("PlayTable deal as text", lambda: PlayTable(deal="x"), TypeError, "deal"),  # type: ignore[arg-type]
    ("PlayTable seed as text", lambda: PlayTable(seed="x"), TypeError, "seed"),  # type: ignore[arg-type]
    ("PlayTable bots as a number", lambda: PlayTable(seed=1, bots=5), TypeError, "bots"),  # type: ignore[arg-type]
    ("DealStepper of text", lambda: DealStepper("x"), TypeError, "Deal"),  # type: ignore[arg-type]
    ("DealStepper whys of numbers", lambda: DealStepper(Deal(seed=1), whys=[5]), TypeError, "whys"),  # type: ignore[list-item]
    ("DealStepper note as a number", lambda: DealStepper(Deal(seed=1), note=5), TypeError, "note"),  # type: ignore[arg-type]
    ("DealStepper link as a number", lambda: DealStepper(Deal(seed=1), link=5), TypeError, "link"),  # type: ignore[arg-type]
    ("from_seed seed as text", lambda: DealStepper.from_seed("5"), TypeError, "seed"),  # type: ignore[arg-type]
    ("from_seed page as a number", lambda: DealStepper.from_seed(5, page=7), TypeError, "page"),  # type: ignore[arg-type]
    (
        "showing a huge limit",
        lambda: DealStepper.showing(["swap"], limit=2**63),
        ValueError,
        "limit",
    ),
    ("MatchSheet deals 10**9", lambda: MatchSheet(deals=10**9), ValueError, "deals"),
    ("MatchSheet names of numbers", lambda: MatchSheet(names=[1, 2, 3, 4]), TypeError, "name"),  # type: ignore[list-item]
    ("MatchSheet seed as text", lambda: MatchSheet(seed="x"), TypeError, "seed"),  # type: ignore[arg-type]
    (
        "Quiz rules as text",
        lambda: Quiz([{"ask": "?", "meld": "5H 6H 7H"}], rules="x"),  # type: ignore[arg-type]
        TypeError,
        "rules",
    ),
    (
        "Quiz title as a number",
        lambda: Quiz([{"ask": "?", "meld": "5H 6H 7H"}], title=5),  # type: ignore[arg-type]
        TypeError,
        "title",
    ),
    (
        "Quiz nested JSON",
        lambda: Quiz.from_json("[" * 100_000 + "]" * 100_000),
        QuestionError,
        "nested",
    ),
    ("lesson outside the data", lambda: lesson_data("../../../etc/passwd"), ValueError, "lesson"),
    ("lesson as a number", lambda: lesson_data(5), TypeError, "lesson"),  # type: ignore[arg-type]
    ("Cards of a number", lambda: Cards(5), TypeError, "parse_cards"),  # type: ignore[arg-type]
    ("Cards label as a number", lambda: Cards("5H", label=5), TypeError, "label"),  # type: ignore[arg-type]
    ("a link of None", lambda: read_link(None), TypeError, "query"),  # type: ignore[arg-type]
    ("a link's default seed as text", lambda: read_link("", seed="5"), TypeError, "seed"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(
    ("call", "kind", "named"),
    [(c, k, n) for _, c, k, n in AUTHOR_MISTAKES],
    ids=[i for i, _, _, _ in AUTHOR_MISTAKES],
)
def test_an_authors_bad_argument_is_refused_naming_it(
    call: Call, kind: type[Exception], named: str
) -> None:
    with pytest.raises(kind) as caught:
        call()
    message = str(caught.value)
    assert named in message and "\n" not in message and len(message) <= LONGEST_SENTENCE
    if kind is TypeError:
        assert isinstance(caught.value, ArgumentTypeError)


# -- PlayTable: a click the rules or the selection do not allow is a sentence, nothing changes ---
def _my_turn_table() -> PlayTable:
    table = PlayTable(seed=3)
    if table.deal.turn != table.seat:
        table.buttons[Control.BOTS_TO_ME].click()
    assert table.deal.turn == table.seat and not table.deal.is_over
    return table


@pytest.mark.parametrize("selection", ["none", "all", "one"])
@pytest.mark.parametrize(
    "button",
    [*MOVE_BUTTONS, Control.USE_READING],
)
def test_a_refused_click_is_a_sentence_and_changes_nothing(button: Control, selection: str) -> None:
    table = _my_turn_table()
    visible = [t for t in table.toggles if is_shown(t)]
    chosen = {"none": [], "all": visible, "one": visible[:1]}[selection]
    for toggle in chosen:
        toggle.value = True
    key = table.deal.state_key()
    moves = len(table.deal.move_stack)
    before = table.message.value
    table.buttons[button].click()
    no_trouble(table)
    if table.deal.state_key() == key:  # refused: said so, in a sentence
        assert table.message.value != before or words(before).strip()
        assert words(table.message.value).strip()
    else:  # allowed: the engine took exactly one move, and said what happened
        assert len(table.deal.move_stack) == moves + 1
        assert words(table.message.value).strip()


@pytest.mark.parametrize("text", ["ZZ", "\u0663H", "x" * 10_000])
def test_selecting_unreadable_cards_is_refused(text: str) -> None:
    table = _my_turn_table()
    key = table.deal.state_key()
    with pytest.raises(CardParseError):
        table.select(text)
    with pytest.raises(TypeError):
        table.select(None)  # type: ignore[arg-type]
    assert table.deal.state_key() == key
    no_trouble(table)


# -- DealStepper: a step that is not one is refused, the slider stays within the deal ----------
def test_the_stepper_refuses_another_deal_that_is_not_a_deal() -> None:
    stepper = DealStepper(play_deal(5), step=3)
    key, status = stepper.deal.state_key(), stepper.status.value
    for bad in ("x", None, 5, [play_deal(5)]):
        with pytest.raises(TypeError):
            stepper.show_deal(bad)  # type: ignore[arg-type]
        if not isinstance(bad, str):
            with pytest.raises(TypeError):
                stepper.show_note(bad)  # type: ignore[arg-type]
    assert stepper.deal.state_key() == key and stepper.status.value == status
    no_trouble(stepper)


@pytest.mark.parametrize("value", [-5, 10**6])
def test_the_slider_stays_within_the_deal(value: int) -> None:
    stepper = DealStepper(play_deal(5))
    stepper.slider.value = value
    assert 0 <= stepper.step <= stepper.steps
    assert stepper.step == stepper.slider.value
    no_trouble(stepper)


# -- Quiz: answering a question that is not there is refused, nothing is scored ----------------
@pytest.mark.parametrize(
    ("question", "choice", "kind"),
    [
        ("0", 0, TypeError),
        (0, None, TypeError),
        (5, 0, ValueError),
        (-1, 0, ValueError),
        (0, 2, ValueError),
        (True, 0, TypeError),
    ],
)
def test_answering_what_is_not_there_is_refused(
    question: object, choice: object, kind: type
) -> None:
    quiz = Quiz([{"ask": "Is 8H 8H 8C a meld?", "meld": "8H 8H 8C"}])
    with pytest.raises(kind):
        quiz.answer(question, choice)  # type: ignore[arg-type]
    assert quiz.answered == 0 and quiz.score == 0
    no_trouble(quiz)


# -- MatchSheet: its settings menu only ever holds a dealer system -------------------------------
def test_the_match_sheet_settings_keep_the_match_whole() -> None:
    sheet = MatchSheet(deals=2, seed=1)
    for system in [option[1] for option in sheet.system.options]:
        sheet.system.value = system
        assert sheet.match.rules.dealer_system is system
        no_trouble(sheet)
    sheet.buttons[Control.PLAY_THE_REST].click()
    sheet.buttons[Control.PLAY_NEXT_DEAL].click()  # after the end: nothing happens, no error
    assert sheet.match.is_over and len(sheet.match.deals) == 2
    no_trouble(sheet)


# -- links: a hostile query string is ignored with one sentence, the default deal is kept -------
QUERIES = {
    "other digits": "seed=\u0663&step=\uff13&players=\u0664",
    "a huge step": "step=" + "9" * 30,
    "a huge seed": "seed=" + "9" * 5000,
    "negative": "seed=-1&step=-1",
    "many unknown keys": "&".join(f"k{i}=1" for i in range(5000)),
    "a long key": "x" * 10_000 + "=1",
    "repeated": "seed=1&seed=2&seed=3",
    "many bots": "bots=" + "careful," * 1000,
    "markup": "seed=<b>1</b>",
    "bytes": "seed=%00%ff",
    "a step past the end": "step=100000",
    "nine players": "players=9",
    "very long": "a=" + "b" * 1_000_000,
}


@pytest.mark.parametrize("query", list(QUERIES.values()), ids=list(QUERIES))
def test_a_hostile_link_is_ignored_in_one_sentence(query: str) -> None:
    stepper = DealStepper.from_seed(5, page="07_whole_deal.ipynb")
    link = apply_link(stepper, query)
    note = words(stepper.note.value).strip()
    assert note.startswith("From the link, these were ignored") and len(note) <= 1200
    assert note.count(";") <= MAX_NOTED
    # What was usable is used, the defaults fill the rest.
    wanted = DealStepper.from_seed(link.seed, link.players, list(link.bots))
    assert stepper.deal.initial_hands == wanted.deal.initial_hands
    assert stepper.steps == wanted.steps
    assert link.step is None or link.step <= stepper.steps or stepper.step == 0
    no_trouble(stepper)
