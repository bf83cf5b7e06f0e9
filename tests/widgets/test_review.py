"""The review of a finished deal on the play table, without a browser: the `over` trait, the
Review this deal button, the `DealReview` that follows its stepper, and the review link. The
expectations come from `penang_lib.course.review` and the engine, not from a run."""

from __future__ import annotations

import html
import re

import pytest

from penang_lib import CarefulBot, Deal, PlayerView
from penang_lib.course.review import (
    LINKED,
    MENU_NONE,
    REVIEW_PAGE,
    Review,
    decode,
    encode,
    menu_label,
    off_turn_line,
    summary_lines,
    turn_heading,
    turn_lines,
)
from penang_lib.course.review import codec as review_codec
from penang_lib.widgets import render
from penang_lib.widgets.controls import Control
from penang_lib.widgets.review import DealReview, open_review_link
from penang_lib.widgets.shared import is_shown
from tests.helpers.widgets import hidden_cards, leaks, lesson_table, play_to_the_end


def words(value: str) -> str:
    """An HTML value as the words a learner reads (a drawn joker is an empty span)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


# -- the over trait and the button ------------------------------------------------------------
def test_over_turns_true_once_when_the_deal_ends_and_false_on_a_new_deal() -> None:
    table = lesson_table()
    seen: list[bool] = []
    table.observe(lambda change: seen.append(change["new"]), names="over")
    review_button = table.buttons[Control.REVIEW]
    assert not table.over and not is_shown(review_button)
    play_to_the_end(table)
    assert table.over and seen == [True] and is_shown(review_button)
    assert not is_shown(table.review_box)
    table.buttons[Control.NEW_DEAL].click()
    assert not table.over and seen == [True, False] and not is_shown(review_button)


def test_review_this_deal_opens_the_review_below_the_table_and_keeps_the_tree() -> None:
    table = lesson_table()
    ids = [w.model_id for w in table.walk()]
    play_to_the_end(table)
    table.buttons[Control.REVIEW].click()
    assert is_shown(table.review_box)
    assert table.root.children[-2] is table.review_box  # below the table (the trouble line last)
    assert [w.model_id for w in table.walk()] == ids
    review = table.review
    assert review.review.deal == table.deal and review.review.seat == table.seat
    assert review.stepper.steps == len(table.deal.move_stack)
    expected = Review(table.deal, table.seat, "careful")
    assert words(review.summary.value).endswith(
        words(render.symbols(summary_lines(expected.summary())[-1]))
    )
    table.buttons[Control.NEW_DEAL].click()
    assert not is_shown(table.review_box)
    assert [w.model_id for w in table.walk()] == ids


def test_a_second_deal_after_new_deal_reviews_without_trouble() -> None:
    """Issue 29, item 4: the second deal's review said "Something went wrong on our side". The
    stepper moved to the learner's first turn of the new deal while the menu still listed the
    old deal's turns, and following that step failed."""
    table = lesson_table()
    for deal_number in (1, 2, 3):
        play_to_the_end(table)
        table.buttons[Control.REVIEW].click()
        review = table.review
        assert not is_shown(review._trouble), f"deal {deal_number}: {review._trouble.value}"
        assert not is_shown(table._trouble), f"deal {deal_number}: {table._trouble.value}"
        data = Review(table.deal, table.seat, "careful")
        assert data.spans and review.stepper.step == data.spans[0].start
        assert review.menu.value == 0
        assert words(render.symbols(turn_heading(data.turn(0)))) in words(review.comparison.value)
        table.buttons[Control.NEW_DEAL].click()


def test_the_table_keeps_one_message_line_with_its_review_inside() -> None:
    table = lesson_table()
    messages = [w for w in table.walk() if "penang-message" in getattr(w, "_dom_classes", ())]
    assert messages == [table.message]


def test_before_the_end_the_review_does_not_open() -> None:
    table = lesson_table()
    table.buttons[Control.REVIEW].click()  # hidden, but a browser could still send it
    assert "once the deal is over" in words(table.message.value)
    assert not is_shown(table.review_box)
    with pytest.raises(ValueError, match="once the deal is over"):
        table.open_review()


# -- the panel follows the stepper ----------------------------------------------------------
def test_the_panel_shows_each_learner_turn_beside_the_careful_bots_turn() -> None:
    table = lesson_table()
    play_to_the_end(table)
    review = table.open_review()
    data = Review(table.deal, table.seat)
    for i, span in enumerate(data.spans):
        review.stepper.step = span.start
        turn = data.turn(i)
        panel = words(review.comparison.value)
        assert words(render.symbols(turn_heading(turn))) in panel
        assert all(words(render.symbols(line)) in panel for line in turn_lines(turn))
        for move in turn.careful.moves:
            assert words(render.symbols(move.label())) in panel
        assert review.menu.value == i
        tone = "penang-ok" if turn.same else "penang-no"
        assert tone in review.comparison._dom_classes
    bot_steps = [k for k in range(review.stepper.steps + 1) if data.turn_at(k) is None]
    assert bot_steps, "the bots play some steps of this deal"
    review.stepper.step = bot_steps[0]
    assert words(review.comparison.value) == off_turn_line(bot_steps[0])
    assert review.menu.value == -1 and review.menu.options[0][0] == MENU_NONE


def test_the_menu_takes_the_stepper_to_a_turn_and_names_whether_the_bot_agrees() -> None:
    table = lesson_table()
    play_to_the_end(table)
    review = table.open_review()
    data = Review(table.deal, table.seat)
    labels = [label for label, value in review.menu.options if value != -1]
    assert labels == [render.plain(menu_label(data.turn(i))) for i in range(len(data.spans))]
    last = len(data.spans) - 1
    review.menu.value = last
    assert review.stepper.step == data.spans[last].start
    review.stepper.buttons[Control.NEXT].click()
    assert review.stepper.step == data.spans[last].start + 1
    assert review.menu.value == last  # still inside the same turn: the stepper does not jump


def test_the_review_shows_the_learners_seat_with_the_bots_reasons() -> None:
    table = lesson_table()
    play_to_the_end(table)
    review = table.open_review()
    data = Review(table.deal, table.seat)
    assert review.stepper.seat == table.seat and review.stepper.whys == data.whys
    bot_moves = [k for k, s in enumerate(table.deal.movers) if s != table.seat]
    assert all(data.whys[k] for k in bot_moves)  # careful bots: every reason is theirs
    assert not any(data.whys[k] for k, s in enumerate(table.deal.movers) if s == table.seat)


# -- hidden hands ---------------------------------------------------------------------------
def test_the_hidden_review_holds_no_other_hand_while_a_deal_is_played() -> None:
    table = lesson_table()
    table.seat = 2  # before the first move: the review must follow the new seat
    assert leaks(table, hidden_cards(table.deal, 2) - set(table.deal.hand(2))) == []
    table.buttons[Control.BOTS_TO_ME].click()
    assert leaks(table, hidden_cards(table.deal, 2) - set(table.deal.hand(2))) == []
    assert "review=" not in str([w.get_state() for w in table.walk()])


# -- the link -------------------------------------------------------------------------------
def test_the_reviews_link_opens_the_same_review_on_a_fresh_lesson_table() -> None:
    table = lesson_table()
    play_to_the_end(table)
    review = table.open_review()
    href = re.search(r'href="([^"]+)"', review.link.value)
    assert href is not None
    link = html.unescape(href.group(1))
    page, query = link.split("?", 1)
    assert page == REVIEW_PAGE and decode(query.removeprefix("review=")).deal == table.deal
    fresh = lesson_table()
    assert open_review_link(fresh, query) == ""
    assert fresh.deal == table.deal and fresh.deal.move_stack == table.deal.move_stack
    assert fresh.over and is_shown(fresh.review_box) and fresh.seat == table.seat
    assert words(fresh.message.value).startswith(LINKED)
    assert words(fresh.review.summary.value) == words(review.summary.value)


def test_a_link_with_a_step_opens_the_review_there() -> None:
    table = lesson_table()
    play_to_the_end(table, learner="careful")
    code = encode(table.deal, table.seat)
    fresh = lesson_table()
    open_review_link(fresh, f"review={code}&step=7")
    assert fresh.review.stepper.step == 7
    status = fresh.review.stepper.status.value
    assert f"review={code}&amp;step=7" in status  # the stepper's own link to this step


def test_a_broken_link_says_one_sentence_and_changes_nothing() -> None:
    table = lesson_table()
    play_to_the_end(table)
    code = encode(table.deal, table.seat)
    fresh = lesson_table()
    before = fresh.deal.state_key()
    states = {w.model_id: w.get_state() for w in fresh.walk() if w is not fresh.message}
    sentence = open_review_link(fresh, f"review={code[:-12]}")
    assert sentence.startswith("This review link cannot be opened")
    assert words(render.symbols(sentence)) in words(fresh.message.value)
    assert "You play North." in words(fresh.message.value)  # what the table said is still there
    assert fresh.deal.state_key() == before and not fresh.over
    assert {w.model_id: w.get_state() for w in fresh.walk() if w is not fresh.message} == states


def test_a_page_without_a_review_link_is_left_alone() -> None:
    fresh = lesson_table()
    message = fresh.message.value
    assert open_review_link(fresh, "seed=4") == "" and open_review_link(fresh, "") == ""
    assert fresh.message.value == message and not is_shown(fresh.review_box)


def test_a_link_too_long_is_said_in_one_sentence_and_not_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = lesson_table()
    play_to_the_end(table)
    monkeypatch.setattr(review_codec, "MAX_LINK", 50)
    review = table.open_review()
    said = words(review.link.value)
    assert said.startswith("This deal is too long to link") and "href" not in review.link.value
    assert "link to this step" not in review.stepper.status.value


def test_a_review_of_its_own_takes_a_finished_deal() -> None:
    deal = Deal(players=3, seed=9)
    while not deal.is_over:
        deal.push(CarefulBot().choose(PlayerView.of(deal)).move)
    review = DealReview(deal, seat=1, bots="careful")
    data = Review(deal, 1)
    assert review.stepper.step == data.spans[0].start
    assert words(review.heading.value).startswith("Review of this deal From your seat (East):")
    with pytest.raises(ValueError):
        review.show_deal(deal, seat=5)
    assert review.review.seat == 1 and review.stepper.seat == 1  # a refusal changes nothing


def _finished(seed: int = 9) -> Deal:
    deal = Deal(players=3, seed=seed)
    while not deal.is_over:
        deal.push(CarefulBot().choose(PlayerView.of(deal)).move)
    return deal


def _quick(review: DealReview) -> DealReview:
    review.expert_budget, review.expert_samples = 0.004, 3
    return review


def test_ask_the_expert_weighs_every_turn_and_names_the_costliest() -> None:
    review = _quick(DealReview(_finished(), seat=1, bots="careful"))
    assert is_shown(review.expert_row) and not is_shown(review.expert_summary)
    assert "Expert" not in words(review.comparison.value)
    review.ask_expert(wait=True)
    spans = review.review.spans
    assert sorted(review.expert_turns) == list(range(len(spans)))
    assert review.progress.value == len(spans) and not is_shown(review.progress)
    assert review.buttons[Control.ASK_EXPERT].disabled
    summary = words(review.expert_summary.value)
    assert is_shown(review.expert_summary)
    assert summary.startswith(("Your costliest turn was turn", "Against the expert, none"))
    # The panel of a turn now holds the expert's numbers beside the learner's.
    review.stepper.step = spans[0].start
    panel = words(review.comparison.value)
    for row in ("Count at the end, on average", "Still alive after the next turn", "Won the deal"):
        assert row in panel
    # Another deal starts afresh: no numbers of the old one stay.
    review.show_deal(_finished(10), seat=0)
    assert review.expert_turns == {} and not review.buttons[Control.ASK_EXPERT].disabled
    assert not is_shown(review.expert_summary)


def test_ask_the_expert_in_a_thread_fills_the_panel_when_done() -> None:
    review = _quick(DealReview(_finished(), seat=1, bots="careful"))
    review.buttons[Control.ASK_EXPERT].click()
    thread = review._weighing
    assert thread is not None
    thread.join(timeout=120)
    assert not thread.is_alive()
    assert len(review.expert_turns) == len(review.review.spans)
    assert "Count at the end, on average" in words(review.comparison.value)


def test_the_expert_is_not_offered_before_the_deal_ends() -> None:
    deal = _finished()
    review = DealReview(deal.root(), seat=1, bots="careful")
    assert not is_shown(review.expert_row)
    with pytest.raises(ValueError, match="finished deal"):
        review.ask_expert(wait=True)
