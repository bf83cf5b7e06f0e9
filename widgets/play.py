"""`PlayTable`: the learner plays one seat of a deal against bots.

The learner's hand is a row of toggle buttons (click cards to select them); Meld, Lay off, Swap
and End turn send the selection to the engine as a move, and the engine's answer is shown: the
sentences of what happened, or the rule id and the reason a try was refused (the deal is then
unchanged). A Dead that is due is announced with the engine's reason and played with one click;
an empty hand is closed with Call Game. When a plain joker could stand for more than one card the
engine refuses it, and the learner picks one of the readings instead.

The bots play from `PlayerView.of(deal)` (their own hand and the public state), one move per click
of `Bot move`, or all of them up to the learner's next turn with `Bots to my turn`; each bot move
shows its events' sentences and the bot's own one-line reason.

The selection: a "Selected:" line under the hand names the selected cards (the stylesheet raises,
colours and ticks a selected card). A refused try clears the selection and says so; when a Dead
or a Game is due, the refusal keeps saying it. Hint selects the cards (and the table meld) of the
careful bot's move and says which button plays it; that button with exactly that selection plays
the hinted move itself (a joker keeps the reading the hint gave it).

Hidden information: no widget of the tree ever holds a card of another hand while the deal is
being played (the other hands are drawn face down from their sizes, see `render.face_down`); at
the end every hand is shown. The widget tree is built once; a step only changes values.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from penang_lib.data import tables
from penang_lib.engine.bots import Bot, CarefulBot, Choice, bot_names, make_bot, play_move
from penang_lib.engine.cards import Card, card_classes, read_cards
from penang_lib.engine.deal import Deal, Status
from penang_lib.engine.events import Event
from penang_lib.engine.explain import join_names
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
from penang_lib.engine.rules import Rules
from penang_lib.engine.validate import ArgumentTypeError, require_whole
from penang_lib.engine.validate import shown as shown_value
from penang_lib.engine.view import PlayerView
from widgets import render
from widgets.base import KitWidget, guarded
from widgets.shared import HIDDEN, is_shown, part, show

ACTION_BUTTONS = ("Meld", "Lay off", "Swap", "End turn", "Declare Dead", "Call Game", "Hint")
"""The buttons of the learner's turn (disabled while a bot is to move)."""
BOT_BUTTONS = ("Bot move", "Bots to my turn")
"""The buttons that advance the bots (disabled on the learner's turn)."""

TOOLTIPS = {
    "Meld": "Lay the selected cards from your hand as a meld (a run or a set)",
    "Lay off": "Add the one selected card to the meld chosen in 'Meld on table'",
    "Swap": "Put the one selected card in place of a joker in the chosen meld and take the joker",
    "End turn": "End your turn (after at least one meld or lay-off)",
    "Declare Dead": "You can make no meld and no lay-off: declare Dead",
    "Call Game": "Your hand is empty: call Game and win the deal",
    "Hint": "Ask the careful bot for a legal move, and why",
    "Bot move": "Play the next bot move and show why the bot chose it",
    "Bots to my turn": "Let the bots play until it is your turn again (or the deal ends)",
    "New deal": "Start a fresh deal with the same seats and bots",
    "Use this reading": "Play the move with the joker standing for the card chosen on the left",
}

HINT_BUTTONS = {
    "meld": "Meld",
    "lay_off": "Lay off",
    "swap": "Swap",
    "end_turn": "End turn",
    "dead": "Declare Dead",
    "game": "Call Game",
}
"""The button that plays a move of each type (what a hint tells the learner to press)."""

CLEARED = "Your selection was cleared."
"""Said after a refused try that had cards selected (the refusal clears the selection)."""

BUTTON_STYLES = {
    "Meld": "primary",
    "Declare Dead": "danger",
    "Call Game": "success",
    "Use this reading": "primary",
}

MAX_BOT_MOVES = 20_000
"""`Bots to my turn` stops after this many moves (a deal that long is a bug, not a deal)."""
SHOWN_BOT_MOVES = 12
"""How many of the bot moves of one `Bots to my turn` the message lists (the log has them all)."""


def _p(text: str) -> str:
    """A paragraph of text, escaped, with its jokers drawn."""
    return f"<p>{render.symbols(text)}</p>"


class PlayTable(KitWidget):
    """The learner plays seat `seat` against bots.

    With `deal` given, that deal is played (its players, names and seat layout; it may already be
    under way); otherwise `Deal(players=players, seed=seed, rules=rules)`. `bots` (a name or a
    comma-separated text or a list: "careful", "greedy", "random") are cycled to the other seats
    clockwise from the learner's left; each bot is `make_bot(name, deal.seed * 10 + its seat)`.

    Public: `deal` (the current `Deal`), `seat`, `toggles` (the learner's card toggles in display
    order; hidden ones hold no card), `buttons` (description -> Button), `message` (the
    `penang-message` HTML), `target` (the "Meld on table" dropdown), `readings` (the "Joker stands
    for" chooser), `chooser` (its box), `bots` (seat -> bot), `select(text)`, `walk()`.
    """

    def __init__(
        self,
        seat: int = 0,
        players: int = 4,
        bots: str | Sequence[str] = "careful",
        seed: int | None = None,
        deal: Deal | None = None,
        rules: Rules | None = None,
        four_colour: bool = False,
    ) -> None:
        super().__init__(four_colour)
        if deal is None:
            deal = Deal(players=players, seed=seed, rules=rules)
        elif not isinstance(deal, Deal):
            raise ArgumentTypeError(
                f"deal should be a Deal (or None for a new one), not {shown_value(deal)}"
            )
        seat = require_whole(seat, "seat")
        if not 0 <= seat < deal.players:
            raise ValueError(f"the learner's seat must be from 0 to {deal.players - 1}")
        self.seat = seat
        self.deal = deal
        self._seeded = seed is not None
        self._bot_spec: str | Sequence[str] = bots
        self.bots: dict[int, Bot] = self._make_bots(deal)
        self._shown: list[Card] = []
        """The card of each visible toggle, in display order."""
        self._choices: list[Move] = []
        """The move behind each option of the reading chooser."""
        self._target_options: tuple[tuple[str, int], ...] = ()
        self._quiet = False
        """True while the widget itself sets the toggles (one "Selected:" update at the end)."""
        self._hint: tuple[Move, list[Card], object] | None = None
        """The last hint's move, its selection and the deal's state key when it was given."""

        wrap = {"flex_flow": "row wrap", "align_items": "center", "max_width": "100%"}
        self.status = part(widgets.HTML, "")
        self.status.add_class("penang-status")
        self.hands = part(widgets.HTML, "", layout={"max_width": "100%"})
        self.hands.add_class("penang-hands")
        self.table_view = part(widgets.HTML, "", layout={"max_width": "100%"})
        self.table_view.add_class("penang-table")

        pool = max(deal.rules.hand_size(deal.players), sum(deal.initial_hands[seat]))
        self.toggles: list[Any] = []
        for _ in range(pool):
            toggle = part(
                widgets.ToggleButton,
                value=False,
                description="",
                tooltip="",
                layout={"width": "auto", "min_width": "3.2em"},
                style={"font_weight": "bold"},
            )
            toggle._dom_classes = ("penang-card", HIDDEN)
            toggle.observe(self._on_pick, names="value")
            self.toggles.append(toggle)
        hand_label = part(
            widgets.HTML,
            '<span class="penang-summary">Your hand (click cards to select them):</span>',
        )
        self.hand_box = part(widgets.HBox, self.toggles, layout=wrap)
        self.hand_box.add_class("penang-hand")
        self.selection = part(widgets.HTML, "", layout={"max_width": "100%"})
        self.selection.add_class("penang-selection")

        self.buttons: dict[str, Any] = {}
        for name in (*ACTION_BUTTONS, *BOT_BUTTONS, "New deal", "Use this reading"):
            button = part(
                widgets.Button,
                description=name,
                tooltip=TOOLTIPS[name],
                button_style=BUTTON_STYLES.get(name, ""),
                layout={"width": "auto"},
            )
            self.buttons[name] = button
        self.target = part(
            widgets.Dropdown,
            description="Meld on table",
            tooltip="The table meld that Lay off and Swap play on",
            options=[],
            style={"description_width": "initial"},
            layout={"width": "auto", "max_width": "100%"},
        )
        actions = part(
            widgets.HBox, [self.target, *(self.buttons[n] for n in ACTION_BUTTONS)], layout=wrap
        )
        self.readings = part(
            widgets.Dropdown,
            description="Joker stands for",
            tooltip="Choose which card the joker stands for",
            options=[],
            style={"description_width": "initial"},
            layout={"width": "auto", "max_width": "100%"},
        )
        self.chooser = part(
            widgets.HBox,
            [self.readings, self.buttons["Use this reading"]],
            layout={"flex_flow": "row wrap", "align_items": "center"},
        )
        self.chooser.add_class("penang-readings")
        show(self.chooser, False)
        self.message = part(widgets.HTML, "", layout={"max_width": "100%"})
        self.message.add_class("penang-message")
        bot_row = part(
            widgets.HBox,
            [*(self.buttons[n] for n in BOT_BUTTONS), self.buttons["New deal"]],
            layout=wrap,
        )
        mine_parts = [hand_label, self.hand_box, self.selection, actions, self.chooser]
        mine = part(widgets.VBox, [*mine_parts, self.message, bot_row])
        mine.add_class("penang-play-mine")
        self.scores = part(widgets.HTML, "", layout={"max_width": "100%"})
        self.scores.add_class("penang-scores")
        show(self.scores, False)
        self.log = part(widgets.HTML, "", layout={"max_width": "100%"})
        self.log.add_class("penang-log-box")

        handlers = {
            "Meld": self._on_meld,
            "Lay off": self._on_lay_off,
            "Swap": self._on_swap,
            "End turn": self._on_end_turn,
            "Declare Dead": self._on_dead,
            "Call Game": self._on_game,
            "Hint": self._on_hint,
            "Bot move": self._on_bot_move,
            "Bots to my turn": self._on_bots_to_me,
            "New deal": self._on_new_deal,
            "Use this reading": self._on_reading,
        }
        for name, handler in handlers.items():
            self.buttons[name].on_click(handler)

        # The table right above the learner's hand, actions and message (on a phone the hand
        # comes before the long list of hands); the hands, then the log, below.
        self._finish(
            [self.status, self.table_view, mine, self.scores, self.hands, self.log], "penang-play"
        )
        self._show_start()

    # -- public helpers ------------------------------------------------------------------------
    def select(self, text: str) -> None:
        """Select exactly the toggles of the given cards (e.g. "5H 6H JK"); a card the learner
        does not hold raises ValueError."""
        cards = [c.plain for c in read_cards(text, "select")]
        missing = self._mark(cards)
        if missing is not None:
            self._mark([])
            raise ValueError(f"{missing.symbol} is not (or not that often) in your hand")

    def selected(self) -> list[Card]:
        """The cards of the selected toggles, in display order."""
        return [c for c, t in zip(self._shown, self.toggles, strict=False) if t.value]

    # -- set-up --------------------------------------------------------------------------------
    def _make_bots(self, deal: Deal) -> dict[int, Bot]:
        others = [(self.seat + k) % deal.players for k in range(1, deal.players)]
        names = bot_names(self._bot_spec, len(others))
        return {
            p: make_bot(name, deal.seed * 10 + p) for p, name in zip(others, names, strict=True)
        }

    def _show_start(self, lead: str = "") -> None:
        deal = self.deal
        intro = lead + _p(f"You play {deal.names[self.seat]}.")
        if deal.move_stack:
            self._render(deal.event_stack[-1], deal.movers[-1], intro)
        else:
            self._render(deal.start_events, None, intro)

    # -- callbacks: the learner's moves ----------------------------------------------------------
    @guarded
    def _on_meld(self, _button: Any = None) -> None:
        hinted = self._hinted("Meld")
        err = self._push(hinted or MeldMove(tuple(self.selected())), offers=True)
        if err is not None and err.options:
            # The engine lists the readings of a plain joker: the learner picks one.
            readings = [(render.plain(m.label().removeprefix("meld ")), m) for m in err.options]
            self._offer(readings, err)

    @guarded
    def _on_lay_off(self, _button: Any = None) -> None:
        hinted = self._hinted("Lay off")
        if hinted is not None:
            self._push(hinted)
            return
        card = self._one_card("lay off")
        if card is None:
            return
        err = self._push(LayOff(self._target(), card), offers=True)
        if err is not None and err.options:
            # The engine lists where the joker may stand: the learner picks one end.
            options = []
            for move in err.options:
                assert isinstance(move, LayOff)
                making = self.deal.table[move.target].lay_off_results(move.card)[0]
                label = f"{move.card.symbol} (making {making.symbols})"
                options.append((render.plain(label), move))
            self._offer(options, err)

    @guarded
    def _on_swap(self, _button: Any = None) -> None:
        hinted = self._hinted("Swap")
        if hinted is not None:
            self._push(hinted)
            return
        card = self._one_card("swap")
        if card is not None:
            self._push(Swap(self._target(), card))

    @guarded
    def _on_end_turn(self, _button: Any = None) -> None:
        self._push(EndTurn())

    @guarded
    def _on_dead(self, _button: Any = None) -> None:
        self._push(DeclareDead())

    @guarded
    def _on_game(self, _button: Any = None) -> None:
        self._push(DeclareGame())

    @guarded
    def _on_reading(self, _button: Any = None) -> None:
        index = self.readings.value
        if not isinstance(index, int) or not 0 <= index < len(self._choices):
            self._say(_p("Choose a reading first, then click Use this reading."))
            return
        self._push(self._choices[index])

    @guarded
    def _on_hint(self, _button: Any = None) -> None:
        if not self._my_turn():
            self._say(_p("A hint is for your own turn."))
            return
        choice = CarefulBot().choose(PlayerView.of(self.deal))
        move = choice.move
        cards: list[Card] = []
        if isinstance(move, MeldMove):
            cards = [c.plain for c in move.cards]
        elif isinstance(move, LayOff | Swap):
            cards = [move.card.plain]
        self._mark(cards)
        picked = " ".join(c.symbol for c in self.selected())
        button = HINT_BUTTONS.get(move.type, "")
        if isinstance(move, LayOff | Swap) and 0 <= move.target < len(self._target_options):
            self.target.value = move.target
            label = self._target_options[move.target][0]
            done = f"The hint selected {picked} and chose meld {label} in Meld on table"
        elif cards:
            done = f"The hint selected {picked} for you"
        else:
            done = "Nothing needs selecting"
        self._hint = (move, self.selected(), self.deal.state_key())
        self._hide_chooser()
        self._say(
            _p(f"Hint: {move.label()} — {choice.why}")
            + _p(
                f"{done}: press {button}."
                + (" (Clicking a card again unselects it.)" if cards else "")
            )
        )

    def _hinted(self, button: str) -> Move | None:
        """The last hint's move, when `button` is the one the hint named and the deal, the
        selection and the table meld are still exactly as the hint left them."""
        if self._hint is None:
            return None
        move, cards, key = self._hint
        if HINT_BUTTONS.get(move.type) != button or key != self.deal.state_key():
            return None
        if sorted(self.selected(), key=Card.sort_key) != sorted(cards, key=Card.sort_key):
            return None
        if isinstance(move, LayOff | Swap) and self.target.value != move.target:
            return None
        return move

    # -- callbacks: the bots --------------------------------------------------------------------
    @guarded
    def _on_bot_move(self, _button: Any = None) -> None:
        if not self._bots_to_move():
            self._say(_p("No bot is to move now."))
            return
        seat = self.deal.turn
        choice = play_move(self.deal, self.bots[seat])
        self._render(
            self.deal.event_stack[-1],
            seat,
            self._bot_line(seat, choice),
            f"<p><b>Why:</b> {render.symbols(choice.why)}</p>",
        )

    @guarded
    def _on_bots_to_me(self, _button: Any = None) -> None:
        if not self._bots_to_move():
            self._say(_p("No bot is to move now."))
            return
        played: list[tuple[int, Choice]] = []
        while self._bots_to_move() and len(played) < MAX_BOT_MOVES:
            seat = self.deal.turn
            played.append((seat, play_move(self.deal, self.bots[seat])))
        lines = "".join(
            self._bot_line(seat, c, f" Why: {c.why}") for seat, c in played[-SHOWN_BOT_MOVES:]
        )
        earlier = len(played) - SHOWN_BOT_MOVES
        if earlier > 0:
            lines = _p(f"… and {earlier} earlier bot moves (see the move log).") + lines
        lead = _p(f"The bots played {len(played)} move{'s' if len(played) != 1 else ''}:") + lines
        self._render(self.deal.event_stack[-1], played[-1][0], lead)

    @guarded
    def _on_new_deal(self, _button: Any = None) -> None:
        old = self.deal
        seed = old.seed + 1 if self._seeded else None
        self.deal = Deal(players=old.players, seed=seed, rules=old.rules, names=old.names)
        self.bots = self._make_bots(self.deal)
        self._show_start(_p("A new deal."))

    # -- moves and messages ----------------------------------------------------------------------
    def _push(self, move: Move, offers: bool = False) -> IllegalMove | None:
        """Push the learner's move: show its events, or the engine's refusal (nothing changes).
        With `offers`, a refusal that lists readings of a joker is left to the caller."""
        try:
            events = self.deal.push(move, self.seat)
        except IllegalMove as err:
            if offers and err.options:
                return err  # a plain joker with several readings: the caller offers them
            self._hide_chooser()
            cleared = _p(CLEARED) if self.selected() else ""
            self._mark([])
            # The standing state of the hand (Dead or Game due) stays beside the refusal.
            forced = self._forced()
            standing = self._prompt(True, forced) if forced is not None else ""
            self._say(
                render.sentence_html(err.rule, err.reason, ok=False) + cleared + standing,
                refused=True,
            )
            return err
        self._render(events, self.seat)
        return None

    def _offer(self, options: Sequence[tuple[str, Move]], err: IllegalMove) -> None:
        """Show the reading chooser with `options` (label, move) after the engine's refusal."""
        self._choices = [move for _, move in options]
        with self.readings.hold_sync():
            self.readings.options = [(label, i) for i, (label, _) in enumerate(options)]
            self.readings.value = 0
        show(self.chooser, True)
        self._say(
            render.sentence_html(err.rule, err.reason, ok=False)
            + _p(
                "Choose what the joker stands for in the Joker stands for menu above this "
                "message, then click Use this reading."
            ),
            refused=True,
        )

    def _hide_chooser(self) -> None:
        if is_shown(self.chooser):
            show(self.chooser, False)
            self._choices = []
            self.readings.options = []

    def _one_card(self, what: str) -> Card | None:
        cards = self.selected()
        if len(cards) != 1:
            self._hide_chooser()
            self._say(
                _p(
                    f"Select exactly one card of your hand to {what} (you selected "
                    f"{len(cards)}), and choose the meld in 'Meld on table'."
                )
            )
            return None
        return cards[0]

    def _target(self) -> int:
        """The chosen table meld; with none, a number the engine will say does not exist."""
        value = self.target.value
        return value if isinstance(value, int) else len(self.deal.table)

    def _say(self, html: str, refused: bool = False) -> None:
        with self.message.hold_sync():
            self.message.value = html
            if refused:
                self.message.add_class("penang-no")
            else:
                self.message.remove_class("penang-no")

    def _bot_line(self, seat: int, choice: Choice, tail: str = "") -> str:
        bot = self.bots[seat]
        return _p(f"{self.deal.names[seat]} ({bot.name} bot): {choice.move.label()}.{tail}")

    def _mark(self, cards: Sequence[Card]) -> Card | None:
        """Select the toggles of `cards` (each copy once) and no other; returns a card not found."""
        chosen = [False] * len(self._shown)
        missing = None
        for card in cards:
            for i, shown in enumerate(self._shown):
                if shown == card and not chosen[i]:
                    chosen[i] = True
                    break
            else:
                missing = missing or card
        self._quiet = True
        try:
            for i, toggle in enumerate(self.toggles):
                toggle.value = i < len(chosen) and chosen[i]
        finally:
            self._quiet = False
        self._show_selected()
        return missing

    def _on_pick(self, _change: Any = None) -> None:
        """A toggle changed: one update of the "Selected:" line (none while the widget sets
        several toggles itself)."""
        if not self._quiet:
            self._show_selected()

    def _show_selected(self) -> None:
        cards = self.selected()
        shown_cards = render.card_row(cards, "selected cards") if cards else "none"
        value = f'<p><span class="penang-summary">Selected:</span> {shown_cards}</p>'
        if self.selection.value != value:
            self.selection.value = value

    # -- state questions (answered by the engine) --------------------------------------------------
    def _my_turn(self) -> bool:
        return not self.deal.is_over and self.deal.turn == self.seat

    def _bots_to_move(self) -> bool:
        return not self.deal.is_over and self.deal.turn in self.bots

    def _forced(self) -> Move | None:
        """The learner's only legal move when it is Dead or Game, else None."""
        if not self._my_turn():
            return None
        first = list(itertools.islice(self.deal.legal_moves, 2))
        if first == [DeclareDead()] or first == [DeclareGame()]:
            return first[0]
        return None

    # -- rendering -------------------------------------------------------------------------------
    def _render(
        self,
        events: Sequence[Event] = (),
        mover: int | None = None,
        lead: str = "",
        tail: str = "",
    ) -> None:
        """Show the deal as it is now, with `events` (of `mover`'s move) in the message."""
        deal = self.deal
        over = deal.is_over
        mine = self._my_turn()
        forced = self._forced()
        change = tables.changes(events, mover) if mover is not None else tables.Changes()
        shown = None if over else [self.seat]
        self.hands.value = render.hands_html(tables.hands_frame(deal, show=shown), change)
        self.table_view.value = render.table_html(tables.table_frame(deal), change)
        self.log.value = render.log_html(tables.log_frame(deal))
        self._render_hand(mine)
        self._render_target()
        self._render_buttons(mine, forced)
        self._hide_chooser()
        self.status.value = self._status_html(mine)
        self._render_scores(over)
        body = lead + render.events_html(events, deal.names) + tail + self._prompt(mine, forced)
        self._say(body)
        if is_shown(self._trouble):
            self.report("")

    def _render_hand(self, mine: bool) -> None:
        hand = self.deal.hand(self.seat)
        if len(hand) > len(self.toggles):
            raise RuntimeError(f"a hand of {len(hand)} cards does not fit {len(self.toggles)}")
        self._shown = hand
        self._quiet = True
        try:
            self._set_toggles(hand, mine)
        finally:
            self._quiet = False
        self._show_selected()

    def _set_toggles(self, hand: Sequence[Card], mine: bool) -> None:
        for i, toggle in enumerate(self.toggles):
            with toggle.hold_sync():
                toggle.value = False
                toggle.disabled = not mine
                if i < len(hand):
                    card = hand[i]
                    toggle.description = card.symbol
                    toggle.tooltip = card.name
                    # The stylesheet colours the card's classes (red, four-colour deck).
                    toggle._dom_classes = tuple(card_classes(card).split())
                else:
                    toggle.description = ""
                    toggle.tooltip = ""
                    toggle._dom_classes = ("penang-card", HIDDEN)

    def _render_target(self) -> None:
        deal = self.deal
        options = tuple(
            (render.plain(f"{i}: {deal.names[deal.owners[i]]} · {meld.symbols}"), i)
            for i, meld in enumerate(deal.table)
        )
        if options == self._target_options:
            return
        keep = self.target.value
        with self.target.hold_sync():
            self.target.options = options
            if isinstance(keep, int) and 0 <= keep < len(options):
                self.target.value = keep
            elif options:
                self.target.value = 0  # never a blank menu once there is a meld
        self._target_options = options

    def _render_buttons(self, mine: bool, forced: Move | None) -> None:
        bots = self._bots_to_move()
        for name in ACTION_BUTTONS:
            self.buttons[name].disabled = not mine
        self.target.disabled = not mine
        show(self.buttons["Declare Dead"], forced == DeclareDead())
        show(self.buttons["Call Game"], forced == DeclareGame())
        for name in BOT_BUTTONS:
            self.buttons[name].disabled = not bots

    def _status_html(self, mine: bool) -> str:
        deal = self.deal
        me = self.seat
        if deal.is_over:
            winners = join_names([deal.names[w] for w in deal.winners])
            head = f"The deal is over after {deal.turn_number} turns. Won by {winners}."
        elif mine:
            head = f"Your turn ({deal.names[me]}), turn {deal.turn_number}."
        else:
            bot = self.bots[deal.turn]
            head = f"{deal.names[deal.turn]}'s turn ({bot.name} bot), turn {deal.turn_number}."
        count = deal.count(me)
        size = deal.hand_size(me)
        standing = tables.STATUS_WORDS[deal.status[me]]
        passport = "made" if deal.passport[me] else "not yet"
        mine_text = (
            f"You are {deal.names[me]} ({standing}): {size} card{'s' if size != 1 else ''} "
            f"counting {count} points; passport {passport}."
        )
        return f"<p><b>{render.esc(head)}</b> {render.esc(mine_text)}</p>"

    def _render_scores(self, over: bool) -> None:
        if not over:
            if is_shown(self.scores):
                self.scores.value = ""
                show(self.scores, False)
            return
        # The counts as a table; the scoring sentence is in the message with the deal's last
        # events (said once).
        self.scores.value = render.scores_html(tables.scores_frame(self.deal))
        show(self.scores, True)

    def _prompt(self, mine: bool, forced: Move | None) -> str:
        """What the learner can do now (the engine's sentence when a move is forced)."""
        deal = self.deal
        if deal.is_over:
            return _p("The deal is over: every hand is shown. Click New deal to play another.")
        if forced == DeclareDead():
            verdict = deal.can_play()
            return (
                _p("Dead is due:")
                + render.sentence_html(verdict.rule, verdict.reason, ok=False)
                + _p("Click Declare Dead.")
            )
        if forced == DeclareGame():
            err = deal.explain_illegal(EndTurn())
            reason = err.reason if err is not None else ""
            return render.sentence_html("game", reason, ok=True) + _p("Click Call Game.")
        if mine:
            if deal.actions:
                return _p("Your turn: play more, or click End turn.")
            return _p(
                "Your turn: select cards and click Meld, or choose a meld on the table and "
                "Lay off or Swap one card."
            )
        if deal.status[self.seat] is not Status.ALIVE:
            return _p("You are out of this deal: Bots to my turn plays it to the end.")
        return _p(
            f"It is {deal.names[deal.turn]}'s turn: click Bot move to see the next move, or "
            "Bots to my turn."
        )
