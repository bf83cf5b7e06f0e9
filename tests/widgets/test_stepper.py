"""DealStepper: steps follow the engine's move stack exactly, both ways, and hide what a seat
cannot see. Expectations come from penang_lib (the deal, its events, `explain`, the frames)."""

from __future__ import annotations

import asyncio
import html
import re
import threading
from typing import Any

import ipywidgets as widgets
import pytest
from ipywidgets.widgets import widget_link

from penang_lib import Card, Deal, dumps, explain, loads, play_deal
from penang_lib.data import frames as frames_module
from penang_lib.engine.bots import make_bot, play_deal_explained, play_move
from penang_lib.engine.showcase import rules_shown
from penang_lib.widgets import render
from penang_lib.widgets.base import OOPS, later, send_now
from penang_lib.widgets.controls import Control
from penang_lib.widgets.render import FOUR_COLOUR, STYLESHEET
from penang_lib.widgets.shared import is_shown
from penang_lib.widgets.stepper import AUTOPLAY_CLASS, DRAW_DELAY_S, DealStepper

SEED = 3
"""A 4-player deal of careful bots (about 80 moves)."""

REGIONS = ("status", "explanation", "table", "hands", "log", "scores")


def regions(stepper: DealStepper) -> dict[str, str]:
    return {name: getattr(stepper, name).value for name in REGIONS}


def log_rows(stepper: DealStepper) -> int:
    value: str = stepper.log.value
    if "<tbody>" not in value:
        return 0
    return value.split("<tbody>", 1)[1].count("<tr")


def start_key(deal: Deal) -> tuple[object, ...]:
    """The state key of `deal` taken back to its start (through the engine's own undo)."""
    start = deal.copy()
    while start.move_stack:
        start.pop()
    return start.state_key()


def test_the_step_number_shows_once_in_the_status_line() -> None:
    stepper = DealStepper(play_deal(4, 4))
    assert stepper.slider.readout is False  # no second number beside the slider
    for k in (0, 5, stepper.steps):
        stepper.slider.value = k
        assert stepper.status.value.count(f"Step {k} of {stepper.steps}") == 1


def test_next_changes_the_explanation_and_back_restores_it_exactly() -> None:
    full = play_deal(SEED)
    stepper = DealStepper(full)
    names = full.names
    shown = [regions(stepper)]
    for k in range(1, 6):
        stepper.buttons[Control.NEXT].click()
        assert stepper.step == k
        now = regions(stepper)
        assert now["explanation"] != shown[-1]["explanation"]
        for event in full.event_stack[k - 1]:
            assert html.escape(explain(event, names)) in now["explanation"]
            assert f">{event.rule}</span>" in now["explanation"]
        assert full.move_stack[k - 1].label() in html.unescape(now["explanation"])
        shown.append(now)
    for k in range(4, -1, -1):
        stepper.buttons[Control.BACK].click()
        assert stepper.step == k
        assert regions(stepper) == shown[k]
    assert stepper.deal.state_key() == start_key(full)


def test_step_zero_shows_the_start_of_the_deal() -> None:
    full = play_deal(SEED)
    stepper = DealStepper(full)
    for event in full.start_events:
        assert html.escape(explain(event, full.names)) in stepper.explanation.value
    assert "Step 0 of" in stepper.status.value
    assert stepper.buttons[Control.FIRST].disabled and stepper.buttons[Control.BACK].disabled
    assert not stepper.buttons[Control.NEXT].disabled and not stepper.buttons[Control.LAST].disabled


def test_first_last_and_the_slider_agree_with_the_move_stack() -> None:
    full = play_deal(SEED)
    stepper = DealStepper(full)
    assert stepper.steps == len(full.move_stack)
    assert stepper.slider.min == 0 and stepper.slider.max == stepper.steps
    assert stepper.slider.description == "Step"

    stepper.buttons[Control.LAST].click()
    assert stepper.slider.value == stepper.steps
    assert stepper.deal.state_key() == full.state_key()
    assert stepper.buttons[Control.NEXT].disabled and stepper.buttons[Control.LAST].disabled
    assert not stepper.buttons[Control.FIRST].disabled
    assert is_shown(stepper.scores)
    for seat in full.winners:
        assert html.escape(full.names[seat]) in stepper.scores.value
    assert "the deal is over" in stepper.status.value

    stepper.buttons[Control.FIRST].click()
    assert stepper.slider.value == 0
    assert len(stepper.deal.move_stack) == 0
    assert stepper.deal.state_key() == start_key(full)
    assert not is_shown(stepper.scores)
    assert log_rows(stepper) == 0

    for k in (7, 3, stepper.steps - 1, 12):
        stepper.slider.value = k
        assert len(stepper.deal.move_stack) == k
        assert stepper.deal.move_stack == full.move_stack[:k]
        assert log_rows(stepper) == k
        assert f"Step {k} of {stepper.steps}" in stepper.status.value

    stepper.step = 20
    assert stepper.slider.value == 20
    assert len(stepper.deal.move_stack) == 20


def test_the_log_is_the_engines_log_of_the_working_deal() -> None:
    full = play_deal(SEED)
    stepper = DealStepper(full, step=4)
    for k in (4, 5, 0, 30):
        stepper.step = k
        assert render.log_html(frames_module.log_frame(stepper.deal)) in stepper.log.value
        assert log_rows(stepper) == k
    first = html.escape(full.move_stack[0].label())
    second = html.escape(full.move_stack[1].label())
    assert stepper.log.value.rindex(first) > stepper.log.value.rindex(second)  # newest first


def test_play_moves_the_slider_in_the_browser_and_follows_each_step() -> None:
    stepper = DealStepper.from_seed(SEED)
    assert isinstance(stepper.play, widgets.Play)
    assert stepper.play.min == 0 and stepper.play.max == stepper.steps
    assert 800 <= stepper.play.interval <= 2000
    link = stepper._link
    assert isinstance(link, widget_link.DirectionalLink)  # one way: no echo of each step
    assert link.source == (stepper.play, "value")
    assert link.target == (stepper.slider, "value")
    stepper.buttons[Control.NEXT].click()
    stepper.buttons[Control.NEXT].click()
    assert stepper.play.value == stepper.step == 2  # Play goes on from the step on screen
    stepper.step = 7
    assert stepper.play.value == 7
    named = {
        Control.FIRST: "First",
        Control.BACK: "Back",
        Control.NEXT: "Next",
        Control.LAST: "Last",
    }
    for control, description in named.items():
        assert stepper.buttons[control].description == description
        assert stepper.buttons[control].tooltip


def test_a_button_sends_the_explanation_before_the_step_moves() -> None:
    stepper = DealStepper.from_seed(SEED, step=2)
    seen: list[tuple[str, object]] = []
    stepper.explanation.observe(lambda c: seen.append(("explanation", c["new"])), names="value")
    stepper.slider.observe(lambda c: seen.append(("slider", c["new"])), names="value")
    stepper.buttons[Control.NEXT].click()
    assert [name for name, _ in seen] == ["explanation", "slider"]
    assert "Step 3," in str(seen[0][1])
    assert seen[0][1] == stepper.explanation.value  # drawing the rest sent it no second time


def run_in_a_loop(test: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run `test(stepper)` as a kernel runs a button's callback: in a kernel (a stand-in), in an
    event loop (of a thread of its own, so that no other loop of the test run is in the way)."""
    from penang_lib.widgets import base

    monkeypatch.setattr(base, "_kernel", lambda: object())
    failures: list[BaseException] = []

    async def main() -> None:
        await test(DealStepper.from_seed(SEED, step=2))

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as error:  # handed to the test's own thread below
            failures.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failures:
        raise failures[0]


def test_in_a_kernel_a_button_draws_the_rest_only_after_a_pause(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def check(stepper: DealStepper) -> None:
        table_before = stepper.table.value
        stepper.buttons[Control.NEXT].click()
        assert "Step 3," in stepper.explanation.value  # on its way at once
        assert stepper.slider.value == 2 and stepper.table.value == table_before
        await asyncio.sleep(DRAW_DELAY_S * 4)
        assert stepper.slider.value == 3 and len(stepper._working.move_stack) == 3
        assert re.search(r"Step 3 of \d+", stepper.status.value)

    run_in_a_loop(check, monkeypatch)


def test_reading_the_step_finishes_a_move_on_its_way(monkeypatch: pytest.MonkeyPatch) -> None:
    async def check(stepper: DealStepper) -> None:
        stepper.buttons[Control.NEXT].click()
        assert stepper.step == 3 and stepper.slider.value == 3  # no waiting needed
        stepper.buttons[Control.NEXT].click()
        stepper.buttons[Control.NEXT].click()  # a quick second click is a second step
        assert stepper.step == 5 and len(stepper.deal.move_stack) == 5
        await asyncio.sleep(DRAW_DELAY_S * 4)
        assert stepper.step == 5  # the cancelled timers moved nothing more

    run_in_a_loop(check, monkeypatch)


def test_a_drag_during_a_move_on_its_way_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    async def check(stepper: DealStepper) -> None:
        stepper.buttons[Control.NEXT].click()
        stepper.slider.value = 9  # as the browser would send it
        await asyncio.sleep(DRAW_DELAY_S * 4)
        assert stepper.step == 9 and stepper.slider.value == 9

    run_in_a_loop(check, monkeypatch)


def test_later_runs_at_once_outside_a_kernel() -> None:
    ran: list[int] = []

    async def in_a_loop() -> None:  # even with an event loop running
        assert later(10.0, lambda: ran.append(2)) is None

    assert later(10.0, lambda: ran.append(1)) is None
    thread = threading.Thread(target=lambda: asyncio.run(in_a_loop()))
    thread.start()
    thread.join()
    assert ran == [1, 2]


def test_the_callers_deal_is_never_changed() -> None:
    full = play_deal(SEED)
    before = full.state_key()
    stepper = DealStepper(full)
    stepper.buttons[Control.LAST].click()
    stepper.slider.value = 9
    stepper.buttons[Control.BACK].click()
    stepper.step = 0
    assert full.state_key() == before
    assert stepper.deal is not full


def test_a_record_can_be_stepped() -> None:
    full = play_deal(SEED)
    stepper = DealStepper(loads(dumps(full)))
    assert stepper.steps == len(full.move_stack)
    stepper.buttons[Control.LAST].click()
    assert stepper.deal.scores == full.scores
    assert stepper.deal.move_stack == full.move_stack


def test_an_unfinished_deal_can_be_stepped() -> None:
    full = play_deal(SEED)
    part = full.copy()
    for _ in range(len(full.move_stack) - 10):
        part.pop()
    stepper = DealStepper(loads(dumps(part)))
    assert stepper.steps == 10
    stepper.buttons[Control.LAST].click()
    assert stepper.deal.state_key() == part.state_key()
    assert not is_shown(stepper.scores)
    assert f"{html.escape(part.names[part.turn])} to move" in stepper.status.value


# -- hidden hands -----------------------------------------------------------------------------
HANDS = (
    "AS 2S 3S 4S 5S 9H 10H JH QH KS",
    "3D 4D 5D 6D 9C 9C 9D KD QC 2C",
    "7D 8D 9D 10D 4C 5C 6C JD QD 2D",
    "AC KC QC JC 10C 7C 7C 3C AD 8C",
)
"""Seat 0 holds only spades and hearts, the others only diamonds and clubs."""


def played_position() -> Deal:
    deal = Deal(hands=list(HANDS), seed=1)
    bots = [make_bot("careful", seat) for seat in range(deal.players)]
    for _ in range(500):
        if deal.is_over:
            break
        play_move(deal, bots[deal.turn])
    assert deal.is_over
    return deal


def synced_text(stepper: DealStepper) -> str:
    states: list[dict[str, Any]] = [w.get_state() for w in stepper.walk()]
    return "\n".join(repr(state) for state in states)


def seen_forms(card: Card) -> set[str]:
    """How a card can show: its symbol and its spoken name (a joker also as what it stands for)."""
    forms = {card.symbol, card.name}
    if card.is_joker and card.as_rank is not None and card.as_suit is not None:
        plain = Card(card.as_rank, card.as_suit)
        forms |= {plain.symbol, plain.name}
    return forms


def hidden_forms(deal: Deal, seat: int) -> set[str]:
    """The ways a card in another seat's hand could show, less whatever shows anyway (seat's
    own cards, the table's cards and the cards jokers stand for)."""
    visible: set[str] = set()
    for card in deal.hand(seat):
        visible |= seen_forms(card)
    for meld in deal.table:
        for card in meld.cards:
            visible |= seen_forms(card)
    hidden: set[str] = set()
    for other in range(deal.players):
        if other != seat:
            for card in deal.hand(other):
                hidden |= seen_forms(card)
    return hidden - visible


def test_with_a_seat_the_other_hands_are_in_no_synced_trait() -> None:
    full = played_position()
    stepper = DealStepper(full, seat=0)
    checked = 0
    for k in range(stepper.steps + 1):
        stepper.step = k
        if stepper.deal.is_over:
            break
        hidden = hidden_forms(stepper.deal, 0)
        assert any("♦" in h or "♣" in h for h in hidden)
        text = synced_text(stepper)
        leaked = sorted(h for h in hidden if h in text)
        assert leaked == [], f"step {k}: {leaked}"
        for other in range(1, full.players):
            count = stepper.deal.hand_size(other)
            assert f"{full.names[other]}&#x27;s hand: {count} cards, face down" in text
        checked += 1
    assert checked == stepper.steps  # every step before the last is still being played
    # At the end everything is shown, so the check above can see cards when they are there.
    stepper.buttons[Control.LAST].click()
    assert stepper.deal.is_over
    text = synced_text(stepper)
    for other in range(1, full.players):
        for card in stepper.deal.hand(other):
            assert card.symbol in text


def test_without_a_seat_every_hand_is_shown() -> None:
    full = played_position()
    stepper = DealStepper(full)
    text = synced_text(stepper)
    for hand in HANDS[1:]:
        for card in Deal(hands=[hand, "AS"]).hand(0):
            assert card.symbol in text


def test_a_bad_seat_is_refused() -> None:
    full = play_deal(SEED)
    for seat in (-1, full.players, True):
        with pytest.raises(ValueError, match="seat"):
            DealStepper(full, seat=seat)


# -- bots' reasons and rule showcases --------------------------------------------------------
def test_from_seed_shows_the_bots_reason() -> None:
    deal, choices = play_deal_explained(SEED)
    stepper = DealStepper.from_seed(SEED)
    assert stepper.deal.state_key() == start_key(deal)
    stepper.buttons[Control.NEXT].click()
    assert html.escape(choices[0].why) in stepper.explanation.value
    stepper.step = 5
    assert html.escape(choices[4].why) in stepper.explanation.value


def test_showing_starts_where_the_rule_first_happens() -> None:
    stepper = DealStepper.showing(["swap"])
    k = stepper.step
    assert k > 0
    assert "swap" in rules_shown(stepper.deal)
    assert any(e.rule == "swap" for e in stepper.deal.event_stack[k - 1])
    assert not any(e.rule == "swap" for ev in stepper.deal.event_stack[: k - 1] for e in ev)
    assert ">swap</span>" in stepper.explanation.value
    assert stepper.slider.value == k
    assert stepper.whys is not None and len(stepper.whys) == stepper.steps
    assert html.escape(stepper.whys[k - 1]) in stepper.explanation.value
    # The joker taken is shown as what changed, and marked in the hand that took it.
    assert "penang-taken" in stepper.explanation.value
    assert stepper.hands.value.count("penang-taken") == 1


def test_showing_refuses_an_unknown_rule_and_a_rule_not_found() -> None:
    with pytest.raises(ValueError, match="no-such-rule"):
        DealStepper.showing(["no-such-rule"])
    with pytest.raises(ValueError, match="None of the 2 deals"):
        DealStepper.showing(["dead.passport"], limit=2)


def test_a_bad_step_is_refused_and_changes_nothing() -> None:
    full = play_deal(SEED)
    stepper = DealStepper(full, step=3)
    before = regions(stepper)
    key = stepper.deal.state_key()
    for bad in (-1, stepper.steps + 1, True, 1.5, "2"):
        with pytest.raises(ValueError, match=f"from 0 to {stepper.steps}"):
            stepper.step = bad  # type: ignore[assignment]
        assert stepper.step == 3 and stepper.slider.value == 3
        assert stepper.deal.state_key() == key
        assert regions(stepper) == before
    with pytest.raises(ValueError, match="from 0 to"):
        DealStepper(full, step=stepper.steps + 1)
    with pytest.raises(ValueError, match="reason"):
        DealStepper(full, whys=["too few"])


# -- the widget tree ---------------------------------------------------------------------------
def test_the_widget_tree_is_fixed() -> None:
    stepper = DealStepper.from_seed(SEED, four_colour=True)
    ids = {w.model_id for w in stepper.walk()}
    stepper.buttons[Control.NEXT].click()
    stepper.buttons[Control.LAST].click()
    stepper.slider.value = 11
    stepper.buttons[Control.BACK].click()
    stepper.buttons[Control.FIRST].click()
    assert {w.model_id for w in stepper.walk()} == ids
    classes = stepper.root._dom_classes
    assert "penang-stepper" in classes and FOUR_COLOUR in classes
    assert "penang-explain" in stepper.explanation._dom_classes


def test_a_failing_callback_shows_the_kits_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    stepper = DealStepper(play_deal(SEED))

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(frames_module, "hands_frame", broken)
    stepper.buttons[Control.NEXT].click()  # must not raise
    assert html.escape(OOPS) in stepper._trouble.value
    assert is_shown(stepper._trouble)
    assert "Traceback" not in synced_text(stepper)
    monkeypatch.undo()
    stepper.buttons[Control.NEXT].click()
    assert stepper.step == 2
    assert not is_shown(stepper._trouble)
    assert re.search(r"Step 2 of \d+", stepper.status.value)


class _OutputThread:
    """Stands in for ipykernel's output thread: runs what it is given a little later, on a
    thread of its own."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def schedule(self, callback: Any) -> None:
        def later() -> None:
            self.ran.append("ran")
            callback()

        self.ran.append("scheduled")
        threading.Timer(0.05, later).start()


def test_send_now_waits_for_the_kernels_output_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    import IPython

    from penang_lib.widgets import base

    send_now()  # no kernel here (a plain interpreter): nothing to wait for
    thread = _OutputThread()
    kernel = SimpleNamespace(iopub_socket=SimpleNamespace(io_thread=thread))
    monkeypatch.setattr(IPython, "get_ipython", lambda: SimpleNamespace(kernel=kernel))
    monkeypatch.setattr(base, "SEND_WAIT_S", 30.0)  # long enough on any machine
    send_now()
    assert thread.ran == ["scheduled", "ran"]  # it returned only once the thread had run


def test_the_header_and_the_panel_say_which_turn_they_number() -> None:
    """The panel names the turn the step was played in, the header the turn now under way: the
    one numbering (the log's), each labelled, so that a step that ends a turn shows both."""
    stepper = DealStepper.from_seed(SEED)
    log = frames_module.log_frame(stepper._full)
    both = 0
    for k in range(1, stepper.steps):
        stepper.step = k
        played = int(log["turn"].iloc[k - 1])
        assert f"Step {k}, played in turn {played}:" in stepper.explanation.value
        deal = stepper.deal
        mover = html.escape(deal.names[deal.turn])
        assert f"next: turn {deal.turn_number}, {mover} to move" in stepper.status.value
        assert re.findall(r"turn (\d+)", stepper.status.value) == [str(deal.turn_number)]
        if deal.turn_number != played:
            both += 1
    assert both  # steps that end a turn: the two numbers differ, and each says what it is


def test_play_has_no_stop_button_to_send_the_deal_back_to_step_0() -> None:
    """ipywidgets' Stop (■) sets Play's value to its minimum, 0: the stepper hides it, and Play
    turns into Pause, which keeps the step."""
    stepper = DealStepper.from_seed(SEED, step=5)
    assert AUTOPLAY_CLASS in stepper.play._dom_classes
    # The browser test of Play checks that the button is really hidden.
    assert f".{AUTOPLAY_CLASS} > button:nth-of-type(2) {{ display: none; }}" in STYLESHEET
    stepper.play.playing = False  # what Pause does: the step stays where it is
    assert stepper.step == 5 and "Step 5 of" in stepper.status.value


def test_the_link_to_this_step_opens_in_this_tab_as_lesson_7_says() -> None:
    """Issue 29: lesson 7 told what its step links do, wrongly. The stepper's own link has no
    target: a click loads the page again in this tab, at the step (tests/site/test_step_links.py
    clicks it in a browser)."""
    stepper = DealStepper.from_seed(SEED, page="07_whole_deal.ipynb", step=3)
    (anchor,) = re.findall(r"<a [^>]*>link to this step</a>", stepper.status.value)
    assert 'href="07_whole_deal.ipynb?seed=' in anchor and "&amp;step=3" in anchor
    assert "target=" not in anchor and "a click opens it here" in anchor
