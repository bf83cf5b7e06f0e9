"""MoveControls, the move-making part that PlayTable and PuzzleBoard (and, next, a table played
by several people) compose: clicked here with a stand-in owner whose strategy only records the
moves it is given, as a table that sends its moves to a server would, and then inside both the
play table and the puzzle board."""

from __future__ import annotations

import html
import re

import ipywidgets as widgets
import pytest

from penang_lib.course.puzzles import shipped_puzzles
from penang_lib.engine.cards import Card, parse_cards
from penang_lib.engine.deal import Deal
from penang_lib.engine.moves import (
    DeclareGame,
    EndTurn,
    LayOff,
    MeldMove,
    Move,
    Swap,
    parse_move,
)
from penang_lib.widgets import MoveControls as Exported
from penang_lib.widgets.base import OOPS
from penang_lib.widgets.controls import Control, naming
from penang_lib.widgets.move_controls import (
    CHOOSE_FIRST,
    CLEARED,
    NO,
    OK,
    MoveControls,
    move_cards,
)
from penang_lib.widgets.play import PlayTable
from penang_lib.widgets.puzzle import PuzzleBoard
from penang_lib.widgets.shared import is_shown

HANDS = ["5H 6H 7H JK 2S", "7D 8D 9D 3C KD"]
"""North (seat 0) to move first: a run to meld, then a plain joker to lay off at either end."""


def words(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


class Owner:
    """A stand-in for a board: its strategy keeps each move it is given, and plays none."""

    def __init__(self, deal: Deal, focus: bool = False) -> None:
        self.deal = deal
        self.key: object = "first"
        self.tried: list[tuple[Move, bool]] = []
        self.reports: list[str] = []
        self.asked: list[bool] = []
        self.start = widgets.Button(description="start here")
        self.controls = MoveControls(
            len(deal.hand(0)),
            attempt=lambda move, offers: self.tried.append((move, offers)),
            position=lambda: self.deal,
            key=lambda: self.key,
            report=self.reports.append,
            next_control=self.next_control if focus else None,
        )
        self.show()

    def next_control(self, start_over: bool) -> widgets.DOMWidget:
        self.asked.append(start_over)
        return self.start

    def show(self) -> None:
        self.controls.hand_panel.show(self.deal.hand(0), True)
        self.controls.action_bar.show(self.deal, True, None)


def melded() -> Owner:
    deal = Deal(hands=HANDS, dealer=1)
    deal.push(MeldMove.of("5H 6H 7H"), 0)
    return Owner(deal)


def test_the_buttons_turn_the_selection_into_moves_and_play_none() -> None:
    owner = Owner(Deal(hands=HANDS, dealer=1))
    buttons = owner.controls.buttons
    owner.controls.select("5H 6H 7H")
    buttons[Control.MELD].click()
    buttons[Control.END_TURN].click()
    buttons[Control.GAME].click()
    assert owner.tried == [
        (MeldMove.of("5H 6H 7H"), True),  # a meld's joker may have readings to offer
        (EndTurn(), False),
        (DeclareGame(), False),
    ]
    assert owner.deal.move_stack == []  # the strategy decides; the part pushes nothing
    assert owner.controls.selected() == parse_cards("5H 6H 7H")


def test_lay_off_and_swap_take_one_card_and_the_chosen_meld() -> None:
    owner = melded()
    controls, buttons = owner.controls, owner.controls.buttons
    controls.select("JK")
    buttons[Control.LAY_OFF].click()
    buttons[Control.SWAP].click()
    assert owner.tried == [(LayOff(0, Card.joker()), True), (Swap(0, Card.joker()), False)]
    controls.select("JK 2S")
    buttons[Control.LAY_OFF].click()
    assert len(owner.tried) == 2
    said = words(controls.message.value)
    assert "Select exactly one card of your hand to lay off (you selected 2)" in said


def test_with_no_meld_on_the_table_the_target_is_one_the_engine_refuses() -> None:
    owner = Owner(Deal(hands=HANDS, dealer=1))
    owner.controls.select("2S")
    owner.controls.buttons[Control.SWAP].click()
    assert owner.tried == [(Swap(0, parse_cards("2S")[0]), False)]
    assert owner.controls.target() == len(owner.deal.table) == 0


def test_offered_readings_are_chosen_and_tried_as_the_engine_listed_them() -> None:
    owner = melded()
    controls = owner.controls
    controls.buttons[Control.USE_READING].click()  # nothing offered yet
    assert words(controls.message.value).strip() == naming(CHOOSE_FIRST) and owner.tried == []
    refusal = owner.deal.explain_illegal(LayOff(0, Card.joker()), 0)
    assert refusal is not None and len(refusal.options) == 2
    controls.offer(owner.deal, refusal)
    assert is_shown(controls.action_bar.chooser)
    assert NO in controls.message._dom_classes and refusal.reason in words(controls.message.value)
    assert controls.focused is None  # no next_control: the focus stays where it is
    controls.action_bar.readings.value = 1
    controls.buttons[Control.USE_READING].click()
    assert owner.tried == [(refusal.options[1], False)]


def test_a_refusal_clears_the_selection_and_sends_the_focus_to_start_again() -> None:
    owner = Owner(Deal(hands=HANDS, dealer=1), focus=True)
    controls = owner.controls
    controls.select("5H 2S")
    controls.refuse("<p>Refused.</p>", "<p>Then this.</p>")
    assert controls.selected() == []
    said = words(controls.message.value)
    assert said.split() == f"Refused. {CLEARED} Then this.".split()
    assert NO in controls.message._dom_classes
    assert owner.asked == [True] and controls.focused is owner.start
    controls.refuse("<p>Refused again.</p>")  # nothing selected: no word of a selection
    assert CLEARED not in words(controls.message.value)
    refusal = owner.deal.explain_illegal(MeldMove.of("5H 6H JK"), 0)
    assert refusal is not None and refusal.options
    controls.offer(owner.deal, refusal)
    assert controls.focused is controls.action_bar.readings


def test_a_shown_move_is_made_by_its_button_until_the_key_changes() -> None:
    owner = melded()
    controls = owner.controls
    high = LayOff(0, Card.joker(8, "H"))
    cards, label = controls.show_move(high, owner.key)
    assert cards == move_cards(high) == [Card.joker()] and controls.selected() == cards
    assert controls.action_bar.target.value == 0 and label is not None and "5♥ 6♥ 7♥" in label
    controls.buttons[Control.LAY_OFF].click()
    controls.buttons[Control.SWAP].click()  # another button: the plain selection
    owner.key = "moved on"
    controls.buttons[Control.LAY_OFF].click()
    assert owner.tried == [
        (high, True),  # the joker keeps the reading it was shown with
        (Swap(0, Card.joker()), False),
        (LayOff(0, Card.joker()), True),  # the key changed: the plain selection again
    ]


def test_move_cards_names_the_hand_cards_a_move_uses() -> None:
    assert move_cards(parse_move("meld 5H 6H JK@7H")) == parse_cards("5H 6H JK")
    assert move_cards(Swap(1, parse_cards("7H")[0])) == parse_cards("7H")
    assert move_cards(EndTurn()) == []


def test_the_message_has_one_tone_at_a_time() -> None:
    controls = Owner(Deal(hands=HANDS, dealer=1)).controls
    classes = controls.message._dom_classes
    controls.say("<p>Right.</p>", OK)
    assert OK in controls.message._dom_classes and NO not in controls.message._dom_classes
    controls.say("<p>Wrong.</p>", NO)
    assert NO in controls.message._dom_classes and OK not in controls.message._dom_classes
    controls.say("<p>Plain.</p>")
    assert not {OK, NO} & set(controls.message._dom_classes)
    assert "penang-message" in classes


def test_a_failing_strategy_is_reported_not_raised() -> None:
    owner = Owner(Deal(hands=HANDS, dealer=1))

    def broken(_move: Move, _offers: bool) -> None:
        raise RuntimeError("boom")

    owner.controls._attempt = broken
    owner.controls.buttons[Control.END_TURN].click()
    assert owner.reports == [OOPS]


@pytest.mark.parametrize("kind", ["table", "puzzle"])
def test_the_play_table_and_the_puzzle_board_compose_the_same_part(kind: str) -> None:
    board: PlayTable | PuzzleBoard
    if kind == "table":
        board = PlayTable(deal=Deal(hands=["5S 6S 7S 2H 9C", "7D 8D 9D 3C"], dealer=1))
    else:
        board = PuzzleBoard(shipped_puzzles()[:1])
    controls = board.controls
    assert Exported is MoveControls and isinstance(controls, MoveControls)
    assert board.hand_panel is controls.hand_panel and board.message is controls.message
    assert board.action_bar is controls.action_bar
    assert all(board.buttons[c] is controls.buttons[c] for c in (Control.MELD, Control.USE_READING))
    # A try the engine refuses (one card is no meld) is said the same way at both.
    card = board.hand_panel.toggles[0]
    card.value = True
    board.buttons[Control.MELD].click()
    assert board.selected() == [] and NO in board.message._dom_classes
    assert CLEARED in words(board.message.value)
    assert not is_shown(controls.action_bar.chooser)
