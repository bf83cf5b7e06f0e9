"""`MoveControls`: the learner's move controls, the one part every board of moves composes.

`PlayTable` (a deal against bots), `PuzzleBoard` (one position, judged) and `PlayTogether` (one
seat of a deal played by several people, its moves sent to a server) all let the learner make a
move the same way, so they share this part:

- the selection: the hand as card toggles and the "Selected:" line (`hand_panel`, a `HandPanel`;
  `select`, `selected`);
- the moves: the "Meld on table" menu and the move buttons (`action_bar`, an `ActionBar`), turned
  into a `Move` here: Meld takes the selected cards, Lay off and Swap the one selected card and the
  chosen table meld, End turn, Declare Dead and Call Game their move;
- the "Joker stands for" chooser: `offer` shows the readings of a plain joker that the engine's
  refusal lists, and Use this reading makes the move of the one chosen;
- the message line (`message`, `say`), with its tone (`OK`, `NO`);
- a move shown to the learner (a hint, a puzzle's answer): `show_move` selects the cards a move
  uses (`move_cards`) and chooses its table meld, and remembers it, so that its button with that
  selection makes that very move (a joker keeps its reading);
- the keyboard focus after an action, when the owner says which control comes next
  (`next_control`): after a refusal that clears the selection, the control to start again from;
  after readings are offered, the readings menu. `focus` sends it anywhere else.

The part decides nothing. What becomes of a move is the owner's strategy, `attempt(move,
offers)`: the play table pushes it to its deal, the puzzle board has the engine judge it, a
shared table sends it to the server and hears the answer later. The engine's answer comes back
through the part's methods, whenever it arrives: `offer` (the readings of a joker, when `offers`
was True), `refuse` (a refusal: the selection is cleared and the owner's sentences said), or the
owner's own drawing of the new position.

The owner lays the part's boxes out (`hand_panel.box`, `action_bar.box`, `message`) and wires any
other button (Hint) itself. The part reads the position the moves are made in only through a
`Position` (the table's melds, their owners, the names): the boards hand over their `Deal`, the
shared table a plain value built from the state the server sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from penang_lib.engine.cards import Card
from penang_lib.engine.moves import (
    DeclareDead,
    DeclareGame,
    EndTurn,
    IllegalMove,
    LayOff,
    MeldMove,
    Move,
    Swap,
)
from penang_lib.i18n import N_, _
from penang_lib.widgets.base import guarded
from penang_lib.widgets.controls import Control, naming
from penang_lib.widgets.play_parts import (
    WIDE,
    ActionBar,
    HandPanel,
    HintMemory,
    one_card,
    paragraph,
)
from penang_lib.widgets.position import Position
from penang_lib.widgets.shared import part

__all__ = [
    "CHOOSE_FIRST",
    "CLEARED",
    "NO",
    "OK",
    "Attempt",
    "MoveControls",
    "Position",
    "move_cards",
]

CLEARED = N_("Your selection was cleared.")
"""Said after a refused try that had cards selected (the refusal clears the selection)."""

CHOOSE_FIRST = N_("Choose a reading first, then click {use_reading}.")
"""Said when Use this reading is pressed with no reading chosen (`controls.naming` names the
button)."""

OK = "penang-ok"
"""The message's tone for a right move (the stylesheet colours it)."""
NO = "penang-no"
"""The message's tone for a refusal or a wrong try."""

Attempt = Callable[[Move, bool], None]
"""The owner's strategy for a move the learner made: `attempt(move, offers)` plays, judges or
sends `move`; with `offers` True, a refusal that lists a joker's readings goes to `offer`."""


def move_cards(move: Move) -> list[Card]:
    """The cards of the learner's hand that `move` uses (a joker as the plain joker): a meld's
    cards, the card a lay-off or a swap plays, none for the other moves."""
    if isinstance(move, MeldMove):
        return [c.plain for c in move.cards]
    if isinstance(move, LayOff | Swap):
        return [move.card.plain]
    return []


class MoveControls:
    """The selection, the move buttons, the joker's readings and the message line of a board
    where the learner makes moves (see the module's docstring).

    `pool` is the number of card toggles built at first (more are added when a hand needs them).
    The owner's strategies: `attempt(move, offers)` does what the board does with a move;
    `position()` is the position the moves are made in (a `Position`: the deal itself, or a
    plain value with its table, the melds' owners and the names, which name the melds and the
    readings);
    `key()` is what a move shown by `show_move` is remembered against (the deal's state key, a
    puzzle's id): once it changes, the button no longer plays the shown move; `report(text)`
    shows a callback's failure; `next_control(start_over)`, when given, is the control the
    keyboard focus goes to after a refusal (with `start_over` True) or an action.

    Parts: `hand_panel`, `action_bar`, `message`, `buttons` (the action bar's, by `Control`),
    `hint` (the `HintMemory` of the move last shown) and `focused` (the control the part last sent
    the focus to; None before).
    """

    def __init__(
        self,
        pool: int,
        attempt: Attempt,
        position: Callable[[], Position],
        key: Callable[[], object],
        report: Callable[[str], None],
        next_control: Callable[[bool], widgets.DOMWidget] | None = None,
    ) -> None:
        self._attempt = attempt
        self._position = position
        self._key = key
        self._report = report
        self._next_control = next_control
        self.hand_panel = HandPanel(pool)
        self.action_bar = ActionBar()
        self.message = part(widgets.HTML, "", layout=WIDE)
        self.message.add_class("penang-message")
        self.buttons: dict[Control, widgets.Button] = self.action_bar.buttons
        self.hint = HintMemory()
        self.focused: widgets.DOMWidget | None = None
        handlers: dict[Control, Callable[[Any], None]] = {
            Control.MELD: self.meld,
            Control.LAY_OFF: self.lay_off,
            Control.SWAP: self.swap,
            Control.END_TURN: lambda _b: self.play(EndTurn()),
            Control.DEAD: lambda _b: self.play(DeclareDead()),
            Control.GAME: lambda _b: self.play(DeclareGame()),
            Control.USE_READING: self.use_reading,
        }
        for control, handler in handlers.items():
            self.buttons[control].on_click(handler)

    # -- the selection -----------------------------------------------------------------------------
    def select(self, text: str) -> None:
        """Select exactly the toggles of the given cards (e.g. "5H 6H JK"), as the learner's
        clicks would; a card not in the hand raises ValueError."""
        self.hand_panel.select(text)

    def selected(self) -> list[Card]:
        """The cards of the selected toggles, in display order."""
        return self.hand_panel.selected()

    def picked(self) -> str:
        """The selected cards as the learner reads them ("5♥ 6♥ 🃏")."""
        return " ".join(c.symbol for c in self.selected())

    def report(self, text: str) -> None:
        """Show `text` as a callback's failure, where the owner shows one."""
        self._report(text)

    # -- the buttons -------------------------------------------------------------------------------
    @guarded
    def meld(self, _button: Any = None) -> None:
        """Meld: the move shown for this button, else the selected cards as a meld."""
        self._attempt(self.remembered(Control.MELD) or MeldMove(tuple(self.selected())), True)

    @guarded
    def lay_off(self, _button: Any = None) -> None:
        """Lay off: the move shown for this button, else the one selected card on the chosen
        table meld (or the sentence that asks for exactly one card)."""
        move = self.remembered(Control.LAY_OFF)
        if move is None:
            card = self._one_card(Control.LAY_OFF)
            if card is None:
                return
            move = LayOff(self.target(), card)
        self._attempt(move, True)

    @guarded
    def swap(self, _button: Any = None) -> None:
        """Swap: the move shown for this button, else the one selected card for the joker of the
        chosen table meld."""
        move = self.remembered(Control.SWAP)
        if move is None:
            card = self._one_card(Control.SWAP)
            if card is None:
                return
            move = Swap(self.target(), card)
        self._attempt(move, False)

    @guarded
    def play(self, move: Move) -> None:
        """A move that needs no selection (End turn, Declare Dead, Call Game)."""
        self._attempt(move, False)

    @guarded
    def use_reading(self, _button: Any = None) -> None:
        """Use this reading: the move of the joker's reading chosen."""
        move = self.action_bar.chosen()
        if move is None:
            self.say(paragraph(naming(CHOOSE_FIRST)))
            return
        self._attempt(move, False)

    def target(self) -> int:
        """The chosen table meld; with none, a number the engine will say does not exist."""
        return self.action_bar.target_index(len(self._position().table))

    def remembered(self, control: Control) -> Move | None:
        """The move last shown, when button `control` plays it and the key, the selection and
        the chosen table meld are still as it left them."""
        chosen = self.action_bar.target.value
        return self.hint.move_for(control, self._key(), self.selected(), chosen)

    def _one_card(self, what: Control) -> Card | None:
        card = one_card(self.selected(), what)
        if isinstance(card, Card):
            return card
        self.action_bar.hide_chooser()
        self.say(paragraph(card))
        return None

    # -- the engine's answers ----------------------------------------------------------------------
    def offer(self, position: Position, refusal: IllegalMove) -> None:
        """The engine refused a move for a plain joker it reads more than one way: offer the
        readings `refusal` lists (a lay-off's named by the meld it would make on `position`'s
        table), say so, and (with `next_control`) focus the readings menu."""
        self.say(self.action_bar.offer_readings(position, refusal), NO)
        if self._next_control is not None:
            self.focus(self.action_bar.readings)

    def refuse(self, head: str, tail: str = "") -> None:
        """A try was refused (or judged wrong): hide the chooser, clear the selection, and say
        the HTML `head`, that the selection was cleared (when it held cards) and `tail`; with
        `next_control`, the focus goes where the learner starts again."""
        self.action_bar.hide_chooser()
        cleared = paragraph(_(CLEARED)) if self.selected() else ""
        self.hand_panel.mark([])
        self.say(head + cleared + tail, NO)
        if self._next_control is not None:
            self.focus(self._next_control(True))

    # -- showing a move ----------------------------------------------------------------------------
    def show_move(self, move: Move, key: object) -> tuple[list[Card], str | None]:
        """Select the cards `move` uses and choose its table meld, hide the chooser, and remember
        the move against `key`; return the cards and the chosen meld's label (None: none)."""
        cards = move_cards(move)
        meld = None
        if isinstance(move, LayOff | Swap):
            meld = self.action_bar.choose_target(move.target)
        self.action_bar.hide_chooser()
        self.hand_panel.mark(cards)
        self.hint.remember(move, self.selected(), key)
        return cards, meld

    # -- the message and the focus -----------------------------------------------------------------
    def say(self, html: str, tone: str = "") -> None:
        """Show `html` in the message line, in `tone` (`OK`, `NO`, or "" for neither)."""
        with self.message.hold_sync():
            self.message.value = html
            for cls in (OK, NO):
                if cls != tone:
                    self.message.remove_class(cls)
            if tone:
                self.message.add_class(tone)

    def focus(self, control: widgets.DOMWidget) -> None:
        """Send the keyboard focus to `control` (the browser focuses it; `focused` names it)."""
        self.focused = control
        control.focus()
