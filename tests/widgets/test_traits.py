"""The widgets' own state is a trait: `ipywidgets.link` and `.observe` work as on any widget.

It checks several widgets modules (stepper, checker, quiz), so it is named for what it checks
rather than after one module."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import pytest
import traitlets

from penang_lib import check_meld, play_deal
from penang_lib.widgets import DealStepper, MeldChecker, Quiz
from penang_lib.widgets.controls import Control

SEED = 5


def test_a_stepper_step_is_observed_when_the_learner_presses_next() -> None:
    stepper = DealStepper(play_deal(SEED), step=2)
    seen: list[tuple[int, int]] = []
    stepper.observe(lambda c: seen.append((c["old"], c["new"])), names="step")
    stepper.buttons[Control.NEXT].click()
    stepper.buttons[Control.NEXT].click()
    stepper.buttons[Control.BACK].click()
    assert seen == [(2, 3), (3, 4), (4, 3)]
    stepper.slider.value = 9  # as the browser sends a drag
    assert seen[-1] == (3, 9) and len(stepper.deal.move_stack) == 9


def test_a_stepper_step_links_both_ways_with_another_slider() -> None:
    stepper = DealStepper(play_deal(SEED), step=4)
    other = widgets.IntSlider(min=0, max=stepper.steps)
    widgets.link((stepper, "step"), (other, "value"))
    assert other.value == 4  # the link starts from the stepper
    other.value = 7
    assert stepper.step == 7 and stepper.slider.value == 7
    assert len(stepper.deal.move_stack) == 7 and "Step 7 of" in stepper.status.value
    stepper.buttons[Control.FIRST].click()
    assert other.value == 0
    with pytest.raises(ValueError, match=f"from 0 to {stepper.steps}"):
        stepper.step = stepper.steps + 1
    assert stepper.step == 0 and other.value == 0


def test_a_checker_value_links_to_another_text_and_its_verdict_follows() -> None:
    checker = MeldChecker()
    other = widgets.Text()
    widgets.link((checker, "value"), (other, "value"))
    verdicts: list[Any] = []
    checker.observe(lambda c: verdicts.append(c["new"]), names="verdict")
    assert checker.verdict is None
    other.value = "7H 7H 7C"
    assert checker.value == checker.entry.value == "7H 7H 7C"
    assert checker.verdict == check_meld("7H 7H 7C")
    assert verdicts[-1] is not None and verdicts[-1].ok
    assert "penang-ok" in checker.feedback._dom_classes
    checker.entry.value = "KH AH 2H"  # typed in the box
    assert other.value == "KH AH 2H"
    assert checker.verdict == check_meld("KH AH 2H") and not verdicts[-1].ok
    checker.value = "7H ZZ"  # not cards: nothing to judge as a meld
    assert checker.verdict is None and other.value == "7H ZZ"
    assert [None if v is None else v.ok for v in verdicts] == [True, False, None]


def test_a_checker_verdict_is_read_only_and_links_one_way() -> None:
    checker = MeldChecker(value="5H 6H 7H")
    shown = widgets.HTML()
    widgets.dlink((checker, "verdict"), (shown, "value"), transform=lambda v: v.reason if v else "")
    assert shown.value == check_meld("5H 6H 7H").reason
    checker.value = ""
    assert shown.value == ""
    with pytest.raises(traitlets.TraitError, match="read-only"):
        checker.verdict = check_meld("5H 6H 7H")


def test_picking_a_hand_card_changes_the_value_trait() -> None:
    checker = MeldChecker(hand="5H 6H 7H")
    seen: list[str] = []
    checker.observe(lambda c: seen.append(c["new"]), names="value")
    for toggle in checker.toggles:
        toggle.value = True
    assert seen[-1] == checker.value and checker.verdict is not None and checker.verdict.ok


def test_a_quiz_score_and_answered_are_observed() -> None:
    quiz = Quiz(
        [
            {"ask": "Is 8H 8H 8C a meld?", "meld": "8H 8H 8C"},
            {"ask": "Is KH AH 2H a meld?", "meld": "KH AH 2H"},
        ]
    )
    scores: list[int] = []
    quiz.observe(lambda c: scores.append(c["new"]), names="score")
    shown = widgets.IntText()
    widgets.dlink((quiz, "answered"), (shown, "value"))
    quiz.answer(0, 0)  # right: 8H 8H 8C is a set
    quiz.answer(1, 0)  # wrong: a run does not turn the corner
    assert (quiz.score, quiz.answered, shown.value) == (1, 2, 2)
    quiz.reset()
    assert scores == [1, 0] and shown.value == 0
    with pytest.raises(traitlets.TraitError, match="read-only"):
        quiz.score = 5
