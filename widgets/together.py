"""`PlayTogether`: one seat of a table that several people play, each from their own browser.

The table service (docs/TABLES.md) is the authority: it checks every move with the engine and
sends each seat what that seat may see, the rules' answers included (the melds' readings, the
forced move, the counts). This widget decides nothing: it shows the last `state` it was sent, as
`together_view` draws it, and sends what the learner does through a `Transport`
(`together_wire`): the service's websocket on the site, an in-process `Tables` in the tests.

Before a table: a name field, Start a table (with the number of players) and Join (with a code
field, filled from the page's `?table=CODE`). At the table: who sits where, the code and the link
to share, the learner's own link to come back, Start with a bot menu per empty seat (for the
one who opened the table), then the deal: whose turn it is (marked when it is the learner's),
the other hands face down from their sizes, the table's melds, the last events with their rule
ids, the learner's hand with the same move controls as lesson 8's table (`MoveControls`), and
once the deal is over every hand, the counts, the winner and Deal again. Every control is keyed
by its `Control` and takes its label and tooltip from `controls.WORDS`.

Coming back: the learner's own link carries the seat's token (`?table=CODE&token=T`); a page
opened from it sends `resume` and gets the same seat back.

Hidden information: the state holds no other seat's card before the deal is over, and nothing
here adds one; the other hands are drawn from their sizes (`render.face_down`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qs

import ipywidgets as widgets

from penang_lib.engine.cards import parse_cards
from penang_lib.engine.checks import check_meld
from penang_lib.engine.moves import IllegalMove, MeldMove, Move
from penang_lib.engine.rules import MAX_PLAYERS, MIN_PLAYERS
from penang_lib.i18n import N_, _
from penang_lib.tables.address import tables_url
from penang_lib.tables.codes import MAX_TOKEN, read_code
from penang_lib.widgets import render
from penang_lib.widgets.base import KitWidget, guarded
from penang_lib.widgets.controls import Control, label, tooltip
from penang_lib.widgets.links import off_site_html, query_string
from penang_lib.widgets.move_controls import NO, OK, MoveControls
from penang_lib.widgets.play_parts import WIDE, WRAP, paragraph
from penang_lib.widgets.shared import part, show
from penang_lib.widgets.together_view import (
    BOT_WORDS,
    PAGE,
    SeatPosition,
    events_html,
    forced_of,
    hands_frame,
    links_html,
    next_words,
    review_html,
    scores_html,
    seats_html,
    table_frame,
    turn_sentence,
)
from penang_lib.widgets.together_wire import LOST, Transport, WebsocketTransport

__all__ = ["BOT_WORDS", "PAGE", "PAGE_BUTTONS", "PlayTogether", "Query", "read_query"]

NO_SERVICE: Final = N_(
    "No table service answers here: open this page in the tutorial site, which {command} "
    "starts, to play with others."
)
"""Said where the kernel knows no table service (JupyterLab, a plain notebook)."""

PAGE_BUTTONS: Final = (
    Control.CREATE_TABLE,
    Control.JOIN_TABLE,
    Control.START_TABLE,
    Control.DEAL_AGAIN,
)
"""The page's own buttons (`PlayTogether.buttons`); the move buttons are `MoveControls`'."""


@dataclass
class Query:
    """What the page's query string asks for: a table's code and a seat's token."""

    table: str | None = None
    token: str | None = None
    watch: bool = False
    """Whether the page only watches the table (the teacher's page links to it so)."""


def read_query(text: str) -> Query:
    """The `table` (a code, checked), `token` (the learner's own link) and `watch` (`watch=1`:
    a spectator) of a query string; whatever cannot be one is left out."""
    found = parse_qs(text[:1000], keep_blank_values=False)
    code = read_code(found.get("table", [""])[0])
    token = found.get("token", [""])[0]
    if not 0 < len(token) <= MAX_TOKEN or not all(c.isalnum() or c in "-_" for c in token):
        token = ""
    watch = found.get("watch", [""])[0] == "1"
    return Query(code, token or None, watch and code is not None and not token)


class PlayTogether(KitWidget):
    """One seat of a shared table (see the module's docstring). `transport` is the line to the
    service (default: its websocket, from `tables_url()`); `query` the page's query string
    (default: read from Voila)."""

    def __init__(
        self,
        transport: Transport | None = None,
        query: str | None = None,
        four_colour: bool = False,
    ) -> None:
        super().__init__(four_colour)
        self.state: dict[str, Any] = {}
        """The last state the service sent this seat (nothing a browser can read)."""
        self.table: str | None = None
        self.seat: int | None = None
        self._token: str | None = None
        self._asked: str | None = None
        """The type of the last message sent (an error answers it)."""
        self._tried: tuple[Move, bool] | None = None
        """The last move sent, and whether a refusal of it may offer a joker's readings."""
        self.position = SeatPosition()
        """The public table of the last state, as the move controls read it."""
        self._build()
        url = tables_url()
        if transport is None and url is not None:
            transport = WebsocketTransport(url)
        self.transport = transport
        if transport is None:
            self._no_service()
        else:
            transport.listen(self.receive)
            self._open_link(read_query(query_string() if query is None else query))

    # -- the tree --------------------------------------------------------------------------------
    def _build(self) -> None:
        players = list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
        self.inputs: dict[Control, widgets.ValueWidget] = {
            Control.TABLE_NAME: self._input(
                widgets.Text, Control.TABLE_NAME, value="", placeholder=_("Ana")
            ),
            Control.TABLE_PLAYERS: self._input(
                widgets.Dropdown, Control.TABLE_PLAYERS, options=players, value=4
            ),
            Control.TABLE_CODE: self._input(
                widgets.Text, Control.TABLE_CODE, value="", placeholder="ACD34"
            ),
        }
        primary = (Control.CREATE_TABLE, Control.START_TABLE)
        self.buttons: dict[Control, widgets.Button] = {
            control: part(
                widgets.Button,
                description=label(control),
                tooltip=tooltip(control),
                button_style="primary" if control in primary else "",
                layout={"width": "auto"},
            )
            for control in PAGE_BUTTONS
        }
        handlers = {
            Control.CREATE_TABLE: self._on_create,
            Control.JOIN_TABLE: self._on_join,
            Control.START_TABLE: self._on_start,
            Control.DEAL_AGAIN: self._on_again,
        }
        for control, handler in handlers.items():
            self.buttons[control].on_click(handler)
        row = [self.inputs[Control.TABLE_PLAYERS], self.buttons[Control.CREATE_TABLE]]
        join = [self.inputs[Control.TABLE_CODE], self.buttons[Control.JOIN_TABLE]]
        self.lobby_message = self._html("penang-message")
        self.lobby = part(
            widgets.VBox,
            [
                self.inputs[Control.TABLE_NAME],
                part(widgets.HBox, row, layout=WRAP),
                part(widgets.HBox, join, layout=WRAP),
                self.lobby_message,
            ],
        )
        self.seats_view = self._html("penang-seats")
        self.links_view = self._html("penang-summary")
        self.bot_menus = [
            part(
                widgets.Dropdown,
                description="",
                options=[(_(words), name) for name, words in BOT_WORDS.items()],
                value="careful",
                style={"description_width": "initial"},
                layout={"width": "auto", "max_width": "100%"},
            )
            for _seat in range(MAX_PLAYERS)
        ]
        for menu in self.bot_menus:
            show(menu, False)
        start = [*self.bot_menus, self.buttons[Control.START_TABLE]]
        self.start_bar = part(widgets.HBox, start, layout=WRAP)
        self.turn_view = self._html("penang-explain")
        self.hands_view = self._html("penang-hands")
        self.table_view = self._html("penang-table")
        self.events_view = self._html("penang-log-box")
        self.scores_view = self._html("penang-scores")
        self.controls = MoveControls(
            20, self._attempt, lambda: self.position, self._key, self.report
        )
        show(self.controls.buttons[Control.HINT], False)  # no hint at a table of people
        self.at_table = part(
            widgets.VBox,
            [
                self.seats_view,
                self.links_view,
                self.start_bar,
                self.turn_view,
                self.hands_view,
                self.table_view,
                self.controls.hand_panel.box,
                self.controls.action_bar.box,
                self.controls.message,
                self.events_view,
                self.scores_view,
                self.buttons[Control.DEAL_AGAIN],
            ],
        )
        show(self.at_table, False)
        self._finish([self.lobby, self.at_table], "penang-together")

    def _input(self, kind: type[widgets.ValueWidget], control: Control, **kw: Any) -> Any:
        return part(
            kind,
            description=label(control),
            description_allow_html=False,
            tooltip=tooltip(control),
            style={"description_width": "initial"},
            layout={"width": "auto", "max_width": "100%"},
            **kw,
        )

    @staticmethod
    def _html(css: str) -> widgets.HTML:
        made = part(widgets.HTML, "", layout=WIDE)
        made.add_class(css)
        return made

    def _no_service(self) -> None:
        for button in self.buttons.values():
            button.disabled = True
        self.lobby_message.value = f"<p>{off_site_html(NO_SERVICE)}</p>"

    # -- what the learner does ---------------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        assert self.transport is not None
        self._asked = str(message["type"])
        self.transport.send(message)

    def _open_link(self, query: Query) -> None:
        if query.table is not None:
            self.inputs[Control.TABLE_CODE].value = query.table
        if query.table is not None and query.token is not None:
            self._send({"type": "resume", "table": query.table, "token": query.token})
        elif query.table is not None and query.watch:
            self._watch(query.table)

    def _watch(self, code: str) -> None:
        """Watch table `code` as a spectator: what every seat sees, no hand and no controls."""
        self.table, self.seat = code, None
        self.lobby_message.value = ""
        show(self.lobby, False)
        show(self.at_table, True)
        self._send({"type": "watch", "table": code})

    @guarded
    def _on_create(self, _button: Any = None) -> None:
        name = self.inputs[Control.TABLE_NAME].value
        players = self.inputs[Control.TABLE_PLAYERS].value
        self._send({"type": "create", "players": players, "name": name})

    @guarded
    def _on_join(self, _button: Any = None) -> None:
        name, code = self.inputs[Control.TABLE_NAME].value, self.inputs[Control.TABLE_CODE].value
        self._send({"type": "join", "table": code, "name": name})

    @guarded
    def _on_start(self, _button: Any = None) -> None:
        empty = self._empty_seats()
        bots = {str(p): self.bot_menus[p].value for p in empty}
        self._send({"type": "start", "token": self._token, "bots": bots})

    @guarded
    def _on_again(self, _button: Any = None) -> None:
        self._send({"type": "again", "token": self._token})

    def _attempt(self, move: Move, offers: bool) -> None:
        """The move controls' strategy: send the move; the answer comes later, as a state (the
        move was played) or an error (`refuse`, or the joker's readings when `offers`)."""
        self._tried = (move, offers)
        self._send({"type": "move", "token": self._token, "move": str(move)})

    def _key(self) -> object:
        return (self.table, self.state.get("deal_number"), len(self.state.get("events", [])))

    def select(self, text: str) -> None:
        """Select exactly the toggles of the given cards ("5H 6H JK"), as the learner's clicks
        would; a card not in the hand raises ValueError."""
        self.controls.select(text)

    # -- what the service sends --------------------------------------------------------------------
    @guarded
    def receive(self, message: dict[str, Any]) -> None:
        """One message from the service: `joined`, `state`, `error` (or the line's `lost`)."""
        kind = message.get("type")
        if kind == "joined":
            self._joined(message)
        elif kind == "state" and message.get("table") == self.table:
            self._show_state(message)
        elif kind == "error":
            self._refused(str(message.get("message", "")), str(message.get("rule", "")))
        elif kind == LOST:
            self._lost()

    def _joined(self, message: dict[str, Any]) -> None:
        self.table, self.seat = str(message["table"]), int(message["seat"])
        self._token = str(message["token"])
        self.lobby_message.value = ""
        show(self.lobby, False)
        show(self.at_table, True)
        self.links_view.value = links_html(self.table, self._token)

    def _refused(self, sentence: str, rule: str) -> None:
        said = render.sentence_html(rule, sentence, ok=False)
        if self.table is None:
            self.lobby_message.value = said
        elif self._asked == "move" and self._readings(sentence, rule):
            return
        elif self._asked == "move":
            self.controls.refuse(said)
        else:
            self.controls.say(said, NO)

    def _readings(self, sentence: str, rule: str) -> bool:
        """A meld refused because a plain joker in it reads more than one way: offer the
        engine's readings of those cards (`check_meld`), as lesson 8's table does (the
        service's refusal names the rule, not the readings)."""
        if self._tried is None or not self._tried[1] or rule != "joker":
            return False
        move = self._tried[0]
        if not isinstance(move, MeldMove) or not any(c.is_joker for c in move.cards):
            return False
        readings = check_meld(list(move.cards)).readings
        if len(readings) < 2:
            return False
        options = tuple(MeldMove(tuple(r.cards)) for r in readings)
        self.controls.offer(self.position, IllegalMove(rule, sentence, options))
        return True

    def _lost(self) -> None:
        closed = _(
            "The line to the table closed. Open the page again from your own link to sit down "
            "again."
        )
        said = paragraph(closed)
        if self.table is None:
            self.lobby_message.value = said
        else:
            self.controls.say(said, NO)
        for button in self.buttons.values():
            button.disabled = True

    # -- drawing the state -------------------------------------------------------------------
    def _show_state(self, state: dict[str, Any]) -> None:
        self.state = state
        self.position = SeatPosition.of(state)
        over = bool(state.get("over"))
        mine = state.get("turn") is not None and state.get("turn") == self.seat
        self.seats_view.value = seats_html(state, self.seat)
        self._show_start_bar()
        self.turn_view.value = paragraph(turn_sentence(state, self.seat))
        if mine:  # the gentle sign: the turn line turns green, with a pointer before it
            self.turn_view.add_class(OK)
        else:
            self.turn_view.remove_class(OK)
        playing = bool(state.get("started"))
        seated = self.seat is not None  # a spectator has no hand and makes no move
        for part_box in (self.controls.hand_panel.box, self.controls.action_bar.box):
            show(part_box, playing and not over and seated)
        if playing:
            hand = parse_cards(" ".join(state.get("hand", [])))
            self.controls.hand_panel.show(hand, mine)
            self.controls.action_bar.show(self.position, mine, forced_of(state))
            self.hands_view.value = render.hands_html(hands_frame(state, self.seat))
            self.table_view.value = render.table_html(table_frame(self.position))
        self.events_view.value = events_html(state.get("events", []))
        self.scores_view.value = scores_html(state) + review_html(state, self.seat) if over else ""
        show(self.scores_view, over)
        show(self.buttons[Control.DEAL_AGAIN], over and seated)
        self.controls.say(paragraph(next_words(state, self.seat)))

    def _empty_seats(self) -> list[int]:
        seats = self.state.get("seats", [])
        return [p for p, s in enumerate(seats) if s.get("kind") == "empty"]

    def _show_start_bar(self) -> None:
        starter = self.seat == 0 and not self.state.get("started")
        show(self.start_bar, starter)
        empty = set(self._empty_seats()) if starter else set()
        for p, menu in enumerate(self.bot_menus):
            if p in empty:
                menu.description = _("Seat {number}:").format(number=p + 1)
            show(menu, p in empty)
