"""`PlayTogether`: one seat of a table that several people play, each from their own browser.

The table service (docs/TABLES.md) is the authority: it checks every move with the engine and
sends each seat what that seat may see. This widget decides nothing: it shows the last `state`
it was sent and sends what the learner does, through a `Transport` (`together_wire`): the
service's websocket on the site, an in-process `Tables` in the tests.

Before a table: a name field, Start a table (with the number of players) and Join (with a code
field, filled from the page's `?table=CODE`). At the table: who sits where, the code and the link
to share, the learner's own link to come back, Start with a bot menu per empty seat (for the
one who opened the table), then the deal: whose turn it is (marked when it is the learner's),
the other hands face down from their sizes, the table's melds, the last events with their rule
ids, the learner's hand with the same move controls as lesson 8's table (`MoveControls`), and
once the deal is over every hand, the counts, the winner and Deal again.

Coming back: the learner's own link carries the seat's token (`?table=CODE&token=T`); a page
opened from it sends `resume` and gets the same seat back.

Hidden information: the state holds no other seat's card before the deal is over, and nothing
here adds one; the other hands are drawn from their sizes (`render.face_down`).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple, cast
from urllib.parse import parse_qs, urlencode

import ipywidgets as widgets
import pandas as pd

from penang_lib.data.frames import HAND_COLUMNS, SCORE_COLUMNS, TABLE_COLUMNS
from penang_lib.engine.cards import Card, parse_cards
from penang_lib.engine.checks import check_meld, deadwood_points
from penang_lib.engine.deal import Deal, Status
from penang_lib.engine.explain import STATUS_WORDS
from penang_lib.engine.melds import Meld
from penang_lib.engine.moves import DeclareDead, DeclareGame, IllegalMove, MeldMove, Move
from penang_lib.engine.rules import MAX_PLAYERS, MIN_PLAYERS
from penang_lib.i18n import N_, _, ngettext
from penang_lib.tables.address import tables_url
from penang_lib.tables.codes import MAX_TOKEN, read_code
from penang_lib.widgets import render
from penang_lib.widgets.base import KitWidget, guarded
from penang_lib.widgets.controls import Control, label
from penang_lib.widgets.links import off_site_html, page_link, query_string
from penang_lib.widgets.move_controls import NO, OK, MoveControls
from penang_lib.widgets.play_parts import WIDE, WRAP, paragraph
from penang_lib.widgets.render import esc
from penang_lib.widgets.shared import part, show
from penang_lib.widgets.together_wire import LOST, Transport, WebsocketTransport

__all__ = ["BOT_WORDS", "PAGE", "WORDS", "PlayTogether", "Spot", "read_query"]

PAGE: Final = "12_play_together.ipynb"
"""The page this widget lives on: its links (to share, to come back) lead there."""

BOT_WORDS: Final[dict[str, str]] = {
    "careful": N_("careful bot (the default)"),
    "greedy": N_("greedy bot"),
    "random": N_("random bot"),
    "expert": N_("expert bot"),
}
"""The bot menu's choices, by bot name, in the menu's order (the service's default first)."""

NO_SERVICE: Final = N_(
    "No table service answers here: open this page in the tutorial site, which {command} "
    "starts, to play with others."
)
"""Said where the kernel knows no table service (JupyterLab, a plain notebook)."""


class Spot(enum.Enum):
    """The page's own controls, by their name in code (the move controls are `Control`'s)."""

    NAME = "name"
    PLAYERS = "players"
    CREATE = "create"
    CODE = "code"
    JOIN = "join"
    START = "start"
    AGAIN = "again"


class Words(NamedTuple):
    label: str
    tooltip: str


WORDS: Final[dict[Spot, Words]] = {
    Spot.NAME: Words(N_("Your name"), N_("The name the others at the table see")),
    Spot.PLAYERS: Words(N_("Players"), N_("How many seats the new table has")),
    Spot.CREATE: Words(N_("Start a table"), N_("Open a new table and sit in its first seat")),
    Spot.CODE: Words(N_("Table code"), N_("The code someone at the table gave you")),
    Spot.JOIN: Words(N_("Join"), N_("Sit at the table of this code")),
    Spot.START: Words(
        N_("Start"), N_("Deal the first deal: a bot takes each seat nobody has taken")
    ),
    Spot.AGAIN: Words(N_("Deal again"), N_("Deal the next deal of the match at this table")),
}
"""Each of the page's controls' label and tooltip, written once."""


def spot_label(spot: Spot) -> str:
    return _(WORDS[spot].label)


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


@dataclass
class SeatPosition:
    """The public part of the table a seat's moves are made in: the melds (read back from their
    notation), who laid each, and the names. `MoveControls` and `ActionBar` ask a deal for
    exactly these three (the menu of table melds, their names); a seat of a shared table has no
    deal, so it hands them this."""

    table: list[Meld] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, state: dict[str, Any]) -> SeatPosition:
        melds = [read_meld(m["cards"], m["kind"]) for m in state.get("melds", [])]
        owners = [int(m["owner"]) for m in state.get("melds", [])]
        return cls(melds, owners, seat_names(state))

    def as_deal(self) -> Deal:
        return cast(Deal, self)  # read for `table`, `owners` and `names` only


def read_meld(text: str, kind: str) -> Meld:
    """A table meld from the service's notation (its jokers noted: `5H 6H JK@7H`)."""
    readings = check_meld(text).readings
    return next((m for m in readings if m.kind.value == kind), readings[0])


def seat_names(state: dict[str, Any]) -> list[str]:
    """Each seat's name; an empty seat is named by its number."""
    return [
        name if isinstance(name, str) else _("seat {number}").format(number=p + 1)
        for p, name in enumerate(state.get("names", []))
    ]


def forced_of(state: dict[str, Any]) -> Move | None:
    """Dead or Game, when the service lists it as this seat's only move."""
    legal = state.get("legal_moves") or []
    if legal == [str(DeclareDead())]:
        return DeclareDead()
    if legal == [str(DeclareGame())]:
        return DeclareGame()
    return None


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
        self._tried: tuple[Move, bool] | None = None
        """The last move sent, and whether a refusal of it may offer a joker's readings."""
        """The type of the last message sent (an error answers it)."""
        self._position = SeatPosition()
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
        self.inputs: dict[Spot, widgets.ValueWidget] = {
            Spot.NAME: self._input(widgets.Text, Spot.NAME, value="", placeholder=_("Ana")),
            Spot.PLAYERS: self._input(
                widgets.Dropdown,
                Spot.PLAYERS,
                options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
                value=4,
            ),
            Spot.CODE: self._input(widgets.Text, Spot.CODE, value="", placeholder="ACD34"),
        }
        self.buttons: dict[Spot, widgets.Button] = {
            spot: part(
                widgets.Button,
                description=spot_label(spot),
                tooltip=_(WORDS[spot].tooltip),
                button_style="primary" if spot in (Spot.CREATE, Spot.START) else "",
                layout={"width": "auto"},
            )
            for spot in (Spot.CREATE, Spot.JOIN, Spot.START, Spot.AGAIN)
        }
        handlers = {
            Spot.CREATE: self._on_create,
            Spot.JOIN: self._on_join,
            Spot.START: self._on_start,
            Spot.AGAIN: self._on_again,
        }
        for spot, handler in handlers.items():
            self.buttons[spot].on_click(handler)
        row = [self.inputs[Spot.PLAYERS], self.buttons[Spot.CREATE]]
        join = [self.inputs[Spot.CODE], self.buttons[Spot.JOIN]]
        self.lobby_message = self._html("penang-message")
        self.lobby = part(
            widgets.VBox,
            [
                self.inputs[Spot.NAME],
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
        self.start_bar = part(
            widgets.HBox, [*self.bot_menus, self.buttons[Spot.START]], layout=WRAP
        )
        self.turn_view = self._html("penang-explain")
        self.hands_view = self._html("penang-hands")
        self.table_view = self._html("penang-table")
        self.events_view = self._html("penang-log-box")
        self.scores_view = self._html("penang-scores")
        self.controls = MoveControls(
            20, self._attempt, self._position.as_deal, self._key, self.report
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
                self.buttons[Spot.AGAIN],
            ],
        )
        show(self.at_table, False)
        self._finish([self.lobby, self.at_table], "penang-together")

    def _input(self, kind: type[widgets.ValueWidget], spot: Spot, **kw: Any) -> Any:
        return part(
            kind,
            description=spot_label(spot),
            description_allow_html=False,
            tooltip=_(WORDS[spot].tooltip),
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
            self.inputs[Spot.CODE].value = query.table
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
        name, players = self.inputs[Spot.NAME].value, self.inputs[Spot.PLAYERS].value
        self._send({"type": "create", "players": players, "name": name})

    @guarded
    def _on_join(self, _button: Any = None) -> None:
        name, code = self.inputs[Spot.NAME].value, self.inputs[Spot.CODE].value
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
        self.links_view.value = self._links_html()

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
        engine's readings of those cards (`check_meld`), as lesson 8's table does."""
        if self._tried is None or not self._tried[1] or rule != "joker":
            return False
        move = self._tried[0]
        if not isinstance(move, MeldMove) or not any(c.is_joker for c in move.cards):
            return False
        readings = check_meld(list(move.cards)).readings
        if len(readings) < 2:
            return False
        options = tuple(MeldMove(tuple(r.cards)) for r in readings)
        self.controls.offer(self._position.as_deal(), IllegalMove(rule, sentence, options))
        return True

    def _lost(self) -> None:
        said = paragraph(
            _(
                "The line to the table closed. Open the page again from your own link to sit "
                "down again."
            )
        )
        if self.table is None:
            self.lobby_message.value = said
        else:
            self.controls.say(said, NO)
        for button in self.buttons.values():
            button.disabled = True

    # -- drawing the state -------------------------------------------------------------------
    def _show_state(self, state: dict[str, Any]) -> None:
        self.state = state
        position = SeatPosition.of(state)
        self._position.table, self._position.owners = position.table, position.owners
        self._position.names = position.names
        over = bool(state.get("over"))
        mine = self._my_turn()
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
            self.controls.action_bar.show(self._position.as_deal(), mine, forced_of(state))
            self.hands_view.value = render.hands_html(hands_frame(state, self.seat))
            self.table_view.value = render.table_html(table_frame(state, position))
        self.events_view.value = events_html(state.get("events", []))
        self.scores_view.value = scores_html(state) if over else ""
        show(self.scores_view, over)
        show(self.buttons[Spot.AGAIN], over and seated)
        self.controls.say(paragraph(next_words(state, self.seat)))

    def _my_turn(self) -> bool:
        state = self.state
        return state.get("turn") is not None and state.get("turn") == self.seat

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

    def _links_html(self) -> str:
        assert self.table is not None and self._token is not None
        share = f"{PAGE}?{urlencode({'table': self.table})}"
        own = f"{PAGE}?{urlencode({'table': self.table, 'token': self._token})}"
        code = _("Table code: {code}. Give it to the others, or this link:").format(code=self.table)
        keep = _("Your own link (keep it to come back; do not share it):")
        yours = page_link(own, _("your seat"))
        return f"<p>{esc(code)} {page_link(share)}</p><p>{esc(keep)} {yours}</p>"


# -- the state as the learner reads it -------------------------------------------------------------
def bot_words(name: object) -> str:
    """A bot's name as the page says it ("greedy bot")."""
    words = BOT_WORDS.get(str(name))
    return _(words) if words is not None and name != "careful" else _("careful bot")


def who_sits(seat: dict[str, Any], mine: bool) -> str:
    """Who plays one seat, in words."""
    kind = seat.get("kind")
    if kind == "empty":
        return _("empty: a bot takes it when the table starts")
    if kind == "bot":
        return bot_words(seat.get("bot"))
    name = str(seat.get("name"))
    if seat.get("standing_in"):
        return _("a {bot} plays for {name} until they come back").format(
            bot=bot_words(seat.get("bot")), name=name
        )
    if not seat.get("connected"):
        return _("waiting for {name}").format(name=name)
    return _("you, here") if mine else _("a person, here")


def seats_html(state: dict[str, Any], seat: int | None) -> str:
    """Who sits where: each seat's number, name and who plays it (names escaped)."""
    rows = []
    for p, s in enumerate(state.get("seats", [])):
        name = s.get("name")
        shown_name = esc(name) if isinstance(name, str) else "—"
        mark = "▶ " if state.get("turn") == p else ""
        who = esc(who_sits(s, p == seat))
        cells = (str(p + 1), mark + shown_name, who)
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in (_("Seat"), _("Name"), _("Who")))
    name = esc(_("seats"))
    return (
        f'<table class="penang-frame" aria-label="{name}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def turn_sentence(state: dict[str, Any], seat: int | None) -> str:
    """Whose turn it is (or what the table waits for)."""
    names = seat_names(state)
    if not state.get("started"):
        if seat == 0:
            return _("Press {start} when everyone is here: a bot takes each empty seat.").format(
                start=spot_label(Spot.START)
            )
        return _("Waiting for {name} to start the table.").format(name=names[0])
    if state.get("over"):
        return _("The deal is over.")
    turn = state.get("turn")
    if turn == seat:
        return _("▶ It is your turn.")
    if isinstance(turn, int) and 0 <= turn < len(names):
        return _("It is {name}'s turn.").format(name=names[turn])
    return ""


def next_words(state: dict[str, Any], seat: int | None) -> str:
    """What the learner can do now, naming the buttons by their labels."""
    if not state.get("started") or seat is None:
        return ""
    if state.get("over"):
        return _("Every hand is shown. Click {button} to play the next deal.").format(
            button=spot_label(Spot.AGAIN)
        )
    if state.get("turn") != seat:
        status = state.get("status", [])
        if seat < len(status) and status[seat] != Status.ALIVE.value:
            return _("You are out of this deal: the others play it to the end.")
        return _("The others' moves appear here as they are played.")
    forced = forced_of(state)
    if forced == DeclareDead():
        return _("You can make no meld and no lay-off: click {button}.").format(
            button=label(Control.DEAD)
        )
    if forced == DeclareGame():
        return _("Your hand is empty: click {button}.").format(button=label(Control.GAME))
    if state.get("actions"):
        return _("Your turn: play more, or click {button}.").format(button=label(Control.END_TURN))
    return _(
        "Your turn: select cards and click {meld}, or choose a meld on the table and {lay_off} "
        "or {swap} one card."
    ).format(meld=label(Control.MELD), lay_off=label(Control.LAY_OFF), swap=label(Control.SWAP))


def events_html(events: Sequence[dict[str, Any]]) -> str:
    """The last events' sentences (the engine's), each after its rule id, the newest last."""
    return "".join(
        f"<p>{render.badge(str(e.get('rule', '')))}{render.symbols(str(e.get('text', '')))}</p>"
        for e in events
    )


def _status(value: object) -> str:
    try:
        return _(STATUS_WORDS[Status(value)])
    except ValueError:
        return ""


def hands_frame(state: dict[str, Any], seat: int | None) -> pd.DataFrame:
    """The hands as `frames.hands_frame` shapes them: this seat's cards, the others' only as
    sizes until the deal is over (then the state holds every hand)."""
    over = bool(state.get("over"))
    names = seat_names(state)
    rows = []
    for p, size in enumerate(state.get("hand_sizes", [])):
        cards: tuple[Card, ...] | None = None
        if over:
            cards = tuple(parse_cards(" ".join(state["hands"][p])))
        elif p == seat:
            cards = tuple(parse_cards(" ".join(state.get("hand", []))))
        rows.append(
            {
                "seat": p,
                "name": names[p],
                "status": _status(state["status"][p]),
                "to_move": state.get("turn") == p,
                "cards": cards,
                "card_count": size,
                "points": deadwood_points(list(cards)) if cards is not None else None,
                "passport": bool(state["passport"][p]),
            }
        )
    frame: pd.DataFrame = pd.DataFrame(rows, columns=list(HAND_COLUMNS))
    frame["points"] = frame["points"].astype("Int64")
    return frame


def table_frame(state: dict[str, Any], position: SeatPosition) -> pd.DataFrame:
    """The table's melds as `frames.table_frame` shapes them."""
    rows = [
        {
            "meld": i,
            "owner_seat": owner,
            "owner": position.names[owner],
            "kind": meld.kind.value,
            "cards": meld.cards,
            "jokers": meld.jokers,
            "description": meld.description,
        }
        for i, (meld, owner) in enumerate(zip(position.table, position.owners, strict=True))
    ]
    frame: pd.DataFrame = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
    return frame


def scores_html(state: dict[str, Any]) -> str:
    """The counts of a deal that is over, the winner in a sentence, and the match's totals."""
    names = seat_names(state)
    winners = [int(w) for w in state.get("winners", [])]
    rows = [
        {
            "seat": p,
            "name": names[p],
            "status": _status(state["status"][p]),
            "cards_left": len(state["hands"][p]),
            "count": score,
            "winner": p in winners,
        }
        for p, score in enumerate(state.get("scores", []))
    ]
    counts = render.scores_html(pd.DataFrame(rows, columns=list(SCORE_COLUMNS)))
    who = ", ".join(names[w] for w in winners)
    won = ngettext("{names} wins the deal.", "{names} share the win.", len(winners))
    totals = state.get("totals") or []
    match = ""
    if totals:
        each = ", ".join(
            _("{name}: {total}").format(name=names[p], total=t) for p, t in enumerate(totals)
        )
        match = paragraph(_("The match so far (lowest total wins): {totals}.").format(totals=each))
    return paragraph(won.format(names=who)) + counts + match
