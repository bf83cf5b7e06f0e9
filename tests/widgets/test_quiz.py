"""widgets.quiz.Quiz: questions are data, the engine says what is right and why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from penang_lib import Deal, can_play, check_lay_off, check_meld, check_swap, parse_move
from penang_lib.widgets import render
from penang_lib.widgets.base import OOPS
from penang_lib.widgets.lessons import lesson_data
from penang_lib.widgets.quiz import Quiz
from penang_lib.widgets.shared import is_shown

HANDS = ["5H 6H 7H 8H 9C 9D 9S", "2C 3C 4C 5C 6C KD"]
MOVES = ["meld 5H 6H 7H", "end_turn", "meld 2C 3C 4C", "end_turn"]
CHOICES = ["lay_off 0 8H", "swap 0 7H", "meld 9C 9D"]


def position_question(**extra: Any) -> dict[str, Any]:
    return {
        "ask": "North to play. Which move is legal?",
        "position": {"hands": HANDS, "dealer": 1, "moves": MOVES},
        "choices": CHOICES,
        **extra,
    }


def position_deal() -> Deal:
    deal = Deal(hands=HANDS, dealer=1)
    for text in MOVES:
        deal.push(parse_move(text))
    return deal


QUESTIONS: list[dict[str, Any]] = [
    {"ask": "Is 8♥ 8♥ 8♣ a meld?", "meld": "8H 8H 8C"},
    {"ask": "Is K♥ A♥ 2♥ a meld?", "meld": "KH AH 2H"},
    {"ask": "May 8♥ be laid off on 5♥ 6♥ 7♥?", "lay_off": ["5H 6H 7H", "8H"]},
    {"ask": "May 7♥ replace the joker?", "swap": ["5H 6H JK@7H", "7H"], "answer": True},
    {
        "ask": "Can this player act?",
        "can_play": {"hand": "7H 9S 9C", "table": ["5H 6H JK@7H"], "passport": False},
        "labels": ["True", "False"],
    },
    position_question(),
]


def text(widget: Any) -> str:
    value: str = widget.value
    return value


def test_hooks_and_buttons():
    q = Quiz(QUESTIONS)
    assert "penang-quiz" in q.root._dom_classes
    assert len(q.questions) == len(QUESTIONS)
    assert [b.description for b in q.buttons[0]] == ["Yes", "No"]
    assert [b.description for b in q.buttons[4]] == ["True", "False"]
    assert [b.description for b in q.buttons[5]] == [parse_move(c).label() for c in CHOICES]
    assert all(b.tooltip for row in q.buttons for b in row)
    assert q.again.description == "Try again"
    assert q.score == 0 and q.answered == 0
    assert "no question answered yet" in text(q.score_line)


def test_right_and_wrong_answers_update_the_score():
    q = Quiz(QUESTIONS)
    tree = q.walk()
    meld = check_meld("8H 8H 8C")
    corner = check_meld("KH AH 2H")
    assert meld.ok and not corner.ok
    q.buttons[0][0 if meld else 1].click()  # right
    assert (q.score, q.answered) == (1, 1)
    assert "Right!" in text(q.feedback[0])
    assert render.sentence_html(meld.rule, meld.reason, ok=True) in text(q.feedback[0])
    assert all(b.disabled for b in q.buttons[0])
    assert "Score: 1 of 1 answered right" in text(q.score_line)

    q.buttons[1][1 if corner else 0].click()  # wrong: the other button
    assert (q.score, q.answered) == (1, 2)
    assert "Not quite." in text(q.feedback[1])
    assert render.esc(corner.reason) in text(q.feedback[1])
    assert render.badge(corner.rule, "penang-bad") in text(q.feedback[1])
    assert "Score: 1 of 2 answered right" in text(q.score_line)

    q.buttons[1][1].click()  # answered already: nothing changes
    assert (q.score, q.answered) == (1, 2)

    lay = check_lay_off("5H 6H 7H", "8H")
    swap = check_swap("5H 6H JK@7H", "7H")
    dead = can_play("7H 9S 9C", ["5H 6H JK@7H"], passport=False)
    q.buttons[2][0 if lay else 1].click()
    q.buttons[3][0 if swap else 1].click()
    q.buttons[4][0 if dead else 1].click()
    assert render.esc(dead.reason) in text(q.feedback[4])
    assert (q.score, q.answered) == (4, 5)
    assert q.walk() == tree  # the tree is fixed: answering changes values only

    q.again.click()
    assert (q.score, q.answered) == (0, 0)
    assert not any(b.disabled for row in q.buttons for b in row)
    assert all(text(f) == "" for f in q.feedback)
    assert "no question answered yet" in text(q.score_line)


def test_author_answer_disagreeing_with_the_engine_is_refused():
    wrong = not bool(check_meld("KH AH 2H"))
    questions = [QUESTIONS[0], {"ask": "Is K♥ A♥ 2♥ a meld?", "meld": "KH AH 2H", "answer": wrong}]
    with pytest.raises(ValueError, match="Question 2"):
        Quiz(questions)
    bad_pick = position_question(answer="meld 9C 9D")
    with pytest.raises(ValueError, match="Question 1"):
        Quiz([bad_pick])
    Quiz([position_question(answer=["lay_off 0 8H"])])  # agrees with the engine


def test_position_question_judged_by_the_engine():
    deal = position_deal()
    refusals = [deal.explain_illegal(parse_move(c)) for c in CHOICES]
    assert refusals[0] is None and refusals[1] is not None and refusals[2] is not None
    q = Quiz([position_question()])
    ask = q.root.children[2].children[0].value
    assert render.card_row(deal.hand(deal.turn), "North's hand") in ask
    assert "5♣" not in ask and "K♦" not in ask  # East's hand stays face down
    assert "penang-back" in ask

    q.buttons[0][2].click()  # illegal: too few cards
    assert q.score == 0
    feedback = text(q.feedback[0])
    assert "Not quite." in feedback
    assert render.sentence_html(refusals[2].rule, refusals[2].reason, ok=False) in feedback
    assert q.buttons[0][0].button_style == "success"
    assert q.buttons[0][2].button_style == "danger"

    q.reset()
    q.buttons[0][0].click()  # legal: the events of the lay-off
    assert q.score == 1
    events = deal.copy().push(parse_move(CHOICES[0]))
    assert "Right!" in text(q.feedback[0])
    assert render.events_html(events, deal.names) in text(q.feedback[0])
    assert len(deal.move_stack) == len(MOVES)


def test_from_json_round_trip(tmp_path: Path):
    dumped = json.dumps(QUESTIONS, ensure_ascii=False)
    from_text = Quiz.from_json(dumped, title="Melds")
    path = tmp_path / "quiz.json"
    path.write_text(dumped, encoding="utf-8")
    for q in (from_text, Quiz.from_json(path), Quiz.from_json(str(path))):
        assert [x.data for x in q.questions] == QUESTIONS
        assert [x.right for x in q.questions] == [x.right for x in Quiz(QUESTIONS).questions]
    assert from_text.title == "Melds"


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ({"ask": "?", "meld": "8H 8H 8C", "colour": "red"}, "unknown key 'colour'"),
        ({"ask": "?", "meld": "8H 8X 8C"}, "8X"),
        ({"ask": "?", "lay_off": ["5H 6H 7H"]}, "lay_off"),
        ({"ask": "?", "meld": "8H 8H 8C", "swap": ["5H 6H JK@7H", "7H"]}, "exactly one"),
        ({"meld": "8H 8H 8C"}, "ask"),
        ({"ask": "?", "meld": "8H 8H 8C", "answer": "yes"}, "true or false"),
        ({"ask": "?", "can_play": {"hand": "7H", "passport": True, "seat": 1}}, "seat"),
        ({"ask": "?", "can_play": {"hand": "7H 8H"}}, "passport"),
        (position_question(choices=["swap 0 7H", "meld 9C 9D"]), "no choice is legal"),
        (position_question(choices=["lay_off 0 8Z"]), "8Z"),
        ({**position_question(), "position": {"hands": HANDS, "moves": ["meld 9C 9D"]}}, "move 1"),
        ({**position_question(), "position": {"hands": ["5H 5Q", "2C 3C 4C"]}}, "5Q"),
        ("just text", "object"),
    ],
)
def test_bad_data_names_the_question(bad: Any, words: str):
    with pytest.raises(ValueError, match="Question 2") as caught:
        Quiz([QUESTIONS[0], bad])
    assert words in str(caught.value)


def test_a_callback_failure_shows_one_sentence(monkeypatch: pytest.MonkeyPatch):
    q = Quiz(QUESTIONS[:2])

    def broken() -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(q, "_show_score", broken)
    q.buttons[0][0].click()  # no exception escapes
    assert OOPS in q._trouble.value
    assert is_shown(q._trouble)


WHY = "There is no minimum score: any meld is a passport."


def test_every_answer_says_why_in_a_sentence():
    # Issue 19, item 14: "Not quite. The answer is Yes." then why, then the engine's sentence.
    question = {
        "ask": "Is a meld worth only 9 points enough for a passport?",
        "can_play": {"hand": "2C 3C 4C KD", "table": [], "passport": False},
        "why": WHY,
    }
    q = Quiz([question, position_question(why="8♥ extends the run 5♥ 6♥ 7♥.")])
    verdict = can_play("2C 3C 4C KD", [], passport=False)
    assert verdict.ok
    assert q.questions[0].why == WHY
    q.answer(0, 1)  # wrong
    feedback = text(q.feedback[0])
    assert feedback.startswith(f"<p><strong>Not quite.</strong> The answer is Yes. {WHY}</p>")
    assert render.sentence_html(verdict.rule, verdict.reason, ok=True) in feedback
    q.reset()
    q.answer(0, 0)  # right: the same reason
    assert text(q.feedback[0]).startswith(f"<p><strong>Right!</strong> The answer is Yes. {WHY}")

    deal = position_deal()
    refusal = deal.explain_illegal(parse_move(CHOICES[1]))
    assert refusal is not None
    q.answer(1, 1)  # wrong: the engine's refusal, then the legal move and why
    feedback = text(q.feedback[1])
    assert render.sentence_html(refusal.rule, refusal.reason, ok=False) in feedback
    assert "Legal here: lay off 8♥ on meld 0. 8♥ extends the run 5♥ 6♥ 7♥.</p>" in feedback
    q.reset()
    q.answer(1, 0)
    assert "lay off 8♥ on meld 0 is legal. 8♥ extends the run 5♥ 6♥ 7♥.</p>" in text(q.feedback[1])


def test_without_a_why_the_answer_still_ends_as_a_sentence():
    q = Quiz([QUESTIONS[0]])
    q.answer(0, 1)
    assert "The answer is Yes.</p>" in text(q.feedback[0])
    assert q.questions[0].why == ""


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ({"ask": "?", "meld": "8H 8H 8C"}, "'why' is missing"),
        (position_question(), "'why' is missing"),
        ({"ask": "?", "meld": "8H 8H 8C", "why": "  "}, "why should be text"),
        ({"ask": "?", "meld": "8H 8H 8C", "why": 3}, "why should be text"),
        ({"ask": "?", "meld": "8H 8H 8C", "why": "suits repeat"}, "full stop"),
    ],
)
def test_an_explained_quiz_refuses_a_question_without_a_why(bad: Any, words: str):
    first = {**QUESTIONS[0], "why": "Three eights make a set, and suits may repeat."}
    Quiz([first], explained=True)  # one with a why is fine
    with pytest.raises(ValueError, match="Question 2") as caught:
        Quiz([first, bad], explained=True)
    assert words in str(caught.value)
    if "missing" in words:
        Quiz([first, bad])  # a quiz not asked to be explained takes it
    with pytest.raises(TypeError, match="explained"):
        Quiz([first], explained="yes")  # type: ignore[arg-type]


def test_an_answer_button_writes_a_joker_as_jk_and_its_feedback_draws_it():
    """A button holds plain text only, where many fonts have no joker sign: it says JK (the
    kit's notation); the feedback is HTML and draws the joker as the cards do."""
    data = lesson_data("08_play")["quiz"]
    quiz = Quiz(data)
    labels = [q.labels for q in quiz.questions]
    with_joker = [
        (qi, bi) for qi, row in enumerate(labels) for bi, label in enumerate(row) if "🃏" in label
    ]
    assert with_joker, "lesson 8's quiz offers a move with a joker"
    for qi, bi in with_joker:
        button = quiz.buttons[qi][bi]
        assert "🃏" not in button.description + button.tooltip
        assert button.description == labels[qi][bi].replace("🃏", "JK")
        button.click()
        feedback = quiz.feedback[qi].value
        assert "🃏" not in feedback and "penang-joker-mark" in feedback
