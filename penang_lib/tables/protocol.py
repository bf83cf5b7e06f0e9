"""The tables' protocol: JSON messages from clients, answered and passed on (docs/TABLES.md).

`Tables` holds every open table and reads each message a `Client` sends (`receive`): it checks
the message (its size, its JSON, its type and fields, the client's pace), lets the table act,
and sends each client what it may see. Nothing here does input or output: a `Client` is given
a `send` function (the service's websocket writes the message), so the tests speak the
protocol without a network.

A client that joined or resumed a seat gets, after every change of its table, the state of its
seat; a spectator (`watch`) the state every seat sees; a teacher (`list`) the list of open
tables. Whatever is refused gets `{"type": "error", "message": ..., "rule": ...}`, and changes
nothing.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from penang_lib.engine.rules import Rules
from penang_lib.i18n import _
from penang_lib.tables.codes import new_code, read_code
from penang_lib.tables.table import Journal, Table, TableError, read_name

__all__ = [
    "FLOOD_BURST",
    "FLOOD_RATE",
    "MAX_MESSAGE",
    "MAX_TABLES",
    "MESSAGE_TYPES",
    "Client",
    "Tables",
]

MAX_MESSAGE: Final = 4096
"""Characters in one message, at most (a move is a few dozen)."""
FLOOD_BURST: Final = 30
FLOOD_RATE: Final = 10.0
"""A client may send `FLOOD_BURST` messages at once, then `FLOOD_RATE` a second; beyond that
each message is refused (rule `table.flood`) until its pace drops."""
MAX_TABLES: Final = 1000
"""Open tables at most (a class needs a few dozen)."""
MESSAGE_TYPES: Final = ("create", "join", "resume", "watch", "start", "move", "again", "list")
"""The messages a client may send."""

Send = Callable[[dict[str, Any]], None]


@dataclass(eq=False)
class Client:
    """One connection: where it sits (`table`, `seat`: None for a spectator), whether it
    watches the list of tables, and the pace of its messages."""

    send: Send
    table: str | None = None
    seat: int | None = None
    lobby: bool = False
    allowance: float = FLOOD_BURST
    checked: float = field(default_factory=time.monotonic)


def _error(error: TableError) -> dict[str, Any]:
    return {"type": "error", "message": error.message, "rule": error.rule}


class Tables:
    """Every open table, and the clients connected to them."""

    def __init__(
        self,
        journal: Journal | None = None,
        clock: Callable[[], float] = time.monotonic,
        rules: Rules | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.journal = journal
        self.clock = clock
        self.rules = Rules.of(rules)
        self.rng = rng
        self.tables: dict[str, Table] = {}
        self.clients: list[Client] = []

    # -- connections ---------------------------------------------------------------------------
    def connect(self, send: Send) -> Client:
        client = Client(send, checked=self.clock())
        self.clients.append(client)
        return client

    def disconnect(self, client: Client) -> None:
        """The client's connection closed: its seat (if no other connection holds it) waits."""
        if client in self.clients:
            self.clients.remove(client)
        table = self.tables.get(client.table or "")
        if table is None or client.seat is None:
            return
        if not any(c.table == client.table and c.seat == client.seat for c in self.clients):
            seat = table.seats[client.seat]
            if seat is not None and seat.is_person:
                table.disconnect(client.seat)
                self.broadcast(table)

    def add(self, table: Table) -> None:
        """Open `table` (one restored from the journal, say)."""
        self.tables[table.code] = table

    # -- messages --------------------------------------------------------------------------------
    def receive(self, client: Client, text: object) -> None:
        """Read one message from `client` and act on it."""
        try:
            self._pace(client)
            message = self._read(text)
            self._act(client, message)
        except TableError as error:
            client.send(_error(error))

    def _pace(self, client: Client) -> None:
        now = self.clock()
        client.allowance = min(FLOOD_BURST, client.allowance + (now - client.checked) * FLOOD_RATE)
        client.checked = now
        if client.allowance < 1:
            raise TableError(
                _("Too many messages at once: wait a moment, then try again."), "table.flood"
            )
        client.allowance -= 1

    def _read(self, text: object) -> dict[str, Any]:
        if isinstance(text, bytes):
            raise TableError(_("The table reads messages of text only."), "table.message")
        if not isinstance(text, str):
            raise TableError(_("That message cannot be read."), "table.message")
        if len(text) > MAX_MESSAGE:
            raise TableError(
                _("That message is too long: the table reads at most {most} characters.").format(
                    most=MAX_MESSAGE
                ),
                "table.size",
            )
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            raise TableError(
                _("That message is not JSON: the table cannot read it."), "table.message"
            ) from None
        if not isinstance(message, dict) or message.get("type") not in MESSAGE_TYPES:
            raise TableError(
                _("A message is a JSON object whose type is one of: {types}.").format(
                    types=", ".join(MESSAGE_TYPES)
                ),
                "table.message",
            )
        return message

    def _act(self, client: Client, message: Mapping[str, Any]) -> None:
        kind = message["type"]
        if kind == "create":
            self._create(client, message)
        elif kind == "join":
            table = self._table(message.get("table"))
            seat, token = table.sit(message.get("name"))
            self._joined(client, table, seat, token)
        elif kind == "resume":
            table = self._table(message.get("table"))
            secret = message.get("token")
            seat = table.seat_of(secret)
            assert isinstance(secret, str)  # a seat's token was found for it
            table.connect(seat)
            self._joined(client, table, seat, secret)
        elif kind == "watch":
            table = self._table(message.get("table"))
            client.table, client.seat = table.code, None
            client.send(table.state(None))
        elif kind == "list":
            client.lobby = True
            client.send(self.listing())
        else:
            table = self._table_of(client, message)
            given = message.get("token")
            if kind == "start":
                table.start(given, self._bots(message.get("bots")))
            elif kind == "move":
                self._bind(client, table, table.seat_of(given))
                table.move(given, message.get("move"))
            else:
                table.deal_again(given)
            self.broadcast(table)

    def _create(self, client: Client, message: Mapping[str, Any]) -> None:
        players = message.get("players")
        if len(self.tables) >= MAX_TABLES:
            raise TableError(
                _("The site has as many tables open as it can hold: join one of them."),
                "table.full",
            )
        code = new_code(self.tables, self.rng)
        seed = (self.rng or random.SystemRandom()).randrange(2**32)
        if not isinstance(players, int) or isinstance(players, bool):
            players = -1
        table = Table(code, players, seed, self.rules, self.clock, self.journal)
        read_name(message.get("name"))  # before the table is written: a refused one is not
        if self.journal is not None:
            self.journal.created(table)
        self.tables[code] = table
        seat, token = table.sit(message.get("name"))
        self._joined(client, table, seat, token)

    def _joined(self, client: Client, table: Table, seat: int, token: str) -> None:
        self._bind(client, table, seat)
        client.send({"type": "joined", "table": table.code, "seat": seat, "token": token})
        self.broadcast(table)

    def _bind(self, client: Client, table: Table, seat: int) -> None:
        client.table, client.seat = table.code, seat

    def _table(self, code: object) -> Table:
        found = read_code(code)
        table = self.tables.get(found) if found is not None else None
        if table is None:
            raise TableError(
                _("No open table has that code: check the code and try again."), "table.code"
            )
        return table

    def _table_of(self, client: Client, message: Mapping[str, Any]) -> Table:
        """The table a `start`, `move` or `again` is for: the one named in it, else the
        client's own."""
        code = message.get("table", client.table)
        return self._table(code)

    @staticmethod
    def _bots(bots: object) -> dict[int, str] | None:
        if bots is None:
            return None
        if not isinstance(bots, dict) or len(bots) > 5:
            raise TableError(
                _("Name the bots by seat, such as {example}.").format(example='{"2": "greedy"}'),
                "table.bot",
            )
        chosen: dict[int, str] = {}
        for key, name in bots.items():
            if not (isinstance(key, str) and key.isdigit() and len(key) == 1):
                raise TableError(_("A seat is a number, from 0."), "table.bot")
            chosen[int(key)] = name if isinstance(name, str) else ""
        return chosen

    # -- what each client is sent ------------------------------------------------------------
    def broadcast(self, table: Table) -> None:
        """Send each client of `table` what its seat may see, and the list to the lobby."""
        for client in list(self.clients):
            if client.table == table.code:
                client.send(table.state(client.seat))
        listing = None
        for client in self.clients:
            if client.lobby:
                listing = listing or self.listing()
                client.send(listing)

    def listing(self) -> dict[str, Any]:
        """The open tables, for the teacher's page: the most recently changed first."""
        ordered = sorted(self.tables.values(), key=lambda t: -t.changed)
        return {"type": "tables", "tables": [t.summary() for t in ordered]}

    # -- time --------------------------------------------------------------------------------
    def tick(self) -> list[Table]:
        """Let bots stand in for people away too long; the tables whose bot is to play now."""
        due = []
        for table in self.tables.values():
            if table.stand_ins_due():
                self.broadcast(table)
            if table.bot_due() is not None:
                due.append(table)
        return due
