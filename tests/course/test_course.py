"""penang_lib.course: prepared positions and quiz questions as data, judged by the engine."""

from __future__ import annotations

from typing import Any

import pytest

from penang_lib import Deal, Rules, check_lay_off, check_meld, parse_move
from penang_lib.course.positions import POSITION_KEYS, position_deal
from penang_lib.course.quiz import Question, QuestionError, build_question, build_questions
from tests.conftest import prepared

HANDS = ["5H 6H 7H 8H 9C 9D 9S", "2C 3C 4C 5C 6C KD"]
MOVES = ["meld 5H 6H 7H", "end_turn", "meld 2C 3C 4C", "end_turn"]
POSITION = {"hands": HANDS, "dealer": 1, "moves": MOVES}
CHOICES = ["lay_off 0 8H", "swap 0 7H", "meld 9C 9D"]


def test_a_position_is_dealt_and_played_by_the_engine() -> None:
    deal = position_deal(POSITION)
    assert [str(m) for m in deal.move_stack] == [str(parse_move(m)) for m in MOVES]
    assert deal.turn == 0 and set(POSITION) <= POSITION_KEYS
    with pytest.raises(ValueError, match="move 2 of the position"):
        position_deal({"hands": HANDS, "dealer": 1, "moves": ["meld 5H 6H 7H", "meld 2C 3C 4C"]})
    with pytest.raises(ValueError, match="unknown key 'seat'"):
        position_deal({"hands": HANDS, "seat": 0})


def test_a_yes_no_question_keeps_the_engine_verdict() -> None:
    q = build_question(1, {"ask": "A meld?", "meld": "8H 8H 8C", "why": "Three eights."})
    assert isinstance(q, Question) and q.form == "meld"
    assert q.verdict == check_meld("8H 8H 8C") and q.right == [True, False]
    assert q.right_labels == ["Yes"] and q.why == "Three eights."
    lay = build_question(2, {"ask": "?", "lay_off": ["5H 6H 7H", "9H"], "labels": ["Ok", "No"]})
    assert lay.verdict == check_lay_off("5H 6H 7H", "9H") and lay.right_labels == ["No"]


def test_a_position_question_judges_each_choice_by_the_engine() -> None:
    q = build_question(3, {"ask": "Which?", "position": POSITION, "choices": CHOICES})
    deal = position_deal(POSITION)
    assert q.deal is not None and q.deal.state_key() == deal.state_key()
    for move, right, refusal, events in zip(q.moves, q.right, q.refusals, q.events, strict=True):
        assert (deal.explain_illegal(move) is None) is right is (refusal is None)
        assert events == (deal.copy().push(move) if right else ())
    assert q.right == [True, False, False]
    assert q.right_labels == [parse_move(CHOICES[0]).label()]


@pytest.mark.parametrize(
    ("of", "players", "rules", "truth", "rule"),
    [
        ("deck", 4, Rules(), 110, "deck"),
        ("deck", 5, Rules(), 162, "deck"),
        ("deck", 4, Rules(jokers=8), 112, "deck"),
        ("hand", 4, Rules(), 20, "deal"),
        ("hand", 3, Rules(), 25, "deal"),
        ("put_aside", 3, Rules(), 35, "deal"),
        ("put_aside", 4, Rules(), 30, "deal"),
    ],
)
def test_a_count_question_takes_its_number_from_a_real_deal(
    of: str, players: int, rules: Rules, truth: int, rule: str
) -> None:
    """Issue 29, item 12: lesson 1 asks about the deck and the deal, not about melds. The right
    number is read off a deal the engine deals, and the feedback is that deal's own sentence."""
    choices = [truth - 5, truth, truth + 5]
    q = build_question(
        1, {"ask": "How many?", "count": {"of": of, "players": players}, "choices": choices}, rules
    )
    assert q.form == "count" and q.right == [False, True, False]
    assert q.labels == [f"{c} cards" for c in choices] and q.right_labels == [f"{truth} cards"]
    assert q.fact is not None and q.fact[0] == rule and f"{truth}" in q.fact[1]
    if of == "hand":  # the number a learner sees dealt in any deal of that many players
        assert all(
            len(Deal(players=players, seed=9, rules=rules).hand(seat)) == truth
            for seat in range(players)
        )


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"ask": "?", "count": {"of": "hand", "players": 4}, "choices": [19, 21]}, "counts 20"),
        (
            {"ask": "?", "count": {"of": "hand", "players": 4}, "choices": [20, 21], "answer": 21},
            "the answer written is 21",
        ),
        ({"ask": "?", "count": {"of": "hand", "players": 6}, "choices": [20, 21]}, "players"),
        ({"ask": "?", "count": {"of": "jokers", "players": 4}, "choices": [6, 8]}, "count's of"),
        ({"ask": "?", "count": {"of": "hand", "players": 4}, "choices": [20, 20]}, "differ"),
        ({"ask": "?", "count": {"of": "hand", "players": 4}, "choices": ["20"]}, "two or more"),
        ({"ask": "?", "count": {"of": "hand"}, "choices": [20, 21]}, "of and players"),
    ],
)
def test_bad_count_questions_are_refused(data: dict[str, Any], said: str) -> None:
    with pytest.raises(QuestionError, match=f"Question 2: .*{said}"):
        build_question(2, data)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"ask": "?", "meld": "8H 8H 8C", "answer": False}, "the engine says True"),
        ({"ask": "?", "position": POSITION, "choices": ["meld 9C 9D"]}, "no choice is legal"),
        ({"ask": "?", "meld": "8H", "swap": ["5H 6H JK", "7H"]}, "exactly one of"),
        ({"meld": "8H 8H 8C"}, "'ask' is missing"),
        ({"ask": "?", "meld": "ZZ"}, "bad cards"),
    ],
)
def test_bad_question_data_is_refused_with_its_number(data: dict[str, Any], said: str) -> None:
    with pytest.raises(QuestionError, match=f"Question 4: .*{said}"):
        build_question(4, data)


def test_an_explained_question_needs_a_why_sentence() -> None:
    with pytest.raises(QuestionError, match="'why' is missing"):
        build_question(1, {"ask": "?", "meld": "8H 8H 8C"}, explained=True)
    with pytest.raises(QuestionError, match="full stop"):
        build_question(1, {"ask": "?", "meld": "8H 8H 8C", "why": "no stop"})


def test_a_quiz_is_a_non_empty_list_of_questions() -> None:
    questions = build_questions([{"ask": "?", "meld": "8H 8H 8C"}] * 2)
    assert [q.number for q in questions] == [1, 2]
    with pytest.raises(QuestionError, match="at least one"):
        build_questions([])
    with pytest.raises(QuestionError, match="list of questions"):
        build_questions("8H 8H 8C")


def test_positions_can_also_be_prepared_deals() -> None:
    # A position from data and the tests' own prepared() agree on the same hands.
    deal = position_deal({"hands": HANDS})
    assert deal.state_key() == prepared(*HANDS).state_key()
