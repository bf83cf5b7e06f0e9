"""PuzzleBoard with the shipped strategy puzzles: the question, the same controls as the other
kinds, and feedback that is the proof's numbers (`judge`, `answer_sentence`), shown without a
deal being played on the page."""

from __future__ import annotations

import html
import re

import pytest

from penang_lib.course.puzzles import (
    KIND_QUESTIONS,
    Puzzle,
    answer_sentence,
    judge,
    shipped_puzzles,
)
from penang_lib.course.puzzles.weighing import shown_numbers
from penang_lib.engine.moves import LayOff, MeldMove, Move, Swap
from penang_lib.widgets import render
from penang_lib.widgets.controls import Control
from penang_lib.widgets.puzzle import PuzzleBoard
from penang_lib.widgets.shared import is_shown

STRATEGY = [p for p in shipped_puzzles() if p.kind == "strategy"]


def words(value: str) -> str:
    """An HTML value as the words a learner reads."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def said(board: PuzzleBoard) -> str:
    return words(str(board.message.value))


def play(board: PuzzleBoard, move: Move) -> None:
    """Select the move's cards, choose its table meld, press its button (and pick the joker's
    reading when the engine asks), as a learner would."""
    if isinstance(move, MeldMove):
        board.select(" ".join(str(c.plain) for c in move.cards))
    elif isinstance(move, LayOff | Swap):
        board.select(str(move.card.plain))
        board.action_bar.target.value = move.target
    board.buttons[Control(move.type)].click()
    if is_shown(board.action_bar.chooser):
        options = board.action_bar.readings.options
        board.action_bar.readings.value = next(
            i for _, i in options if board.action_bar._choices[i] == move
        )
        board.buttons[Control.USE_READING].click()


def verdict_words(p: Puzzle, move: Move) -> str:
    verdict = judge(p, move)
    return words(render.sentence_html(verdict.rule, verdict.sentence, ok=verdict.right))


@pytest.mark.parametrize("p", STRATEGY, ids=[p.id for p in STRATEGY])
def test_the_best_start_shows_the_proofs_numbers(p: Puzzle) -> None:
    board = PuzzleBoard(STRATEGY, start=p.id)
    assert words(render.symbols(KIND_QUESTIONS["strategy"])) in words(board.question.value)
    play(board, p.answers[0])
    best = shown_numbers(p.weighed[0])
    assert verdict_words(p, p.answers[0]) in said(board)
    assert f"ends with {best['count']} points in hand on average" in said(board)
    assert f"In {p.weighed[0].samples} deals drawn" in said(board)
    assert "penang-ok" in board.message._dom_classes and board.solved == [p.id]


def test_a_worse_start_shows_its_numbers_beside_the_best_and_show_answer_the_proof() -> None:
    p = STRATEGY[0]
    board = PuzzleBoard(STRATEGY, start=p.id)
    worse = p.weighed[-1]
    play(board, worse.move)
    message = said(board)
    mine, best = shown_numbers(worse), shown_numbers(p.weighed[0])
    assert verdict_words(p, worse.move) in message and "Try again" in message
    assert f"it ends with {mine['count']} points in hand on average" in message
    assert f"the best start ends with {best['count']} points and wins {best['wins']}%" in message
    assert is_shown(board.buttons[Control.SHOW_ANSWER])
    board.buttons[Control.SHOW_ANSWER].click()
    assert words(render.symbols(answer_sentence(p))) in said(board)
    play(board, p.answers[0])
    assert "penang-ok" in board.message._dom_classes and board.solved == []
