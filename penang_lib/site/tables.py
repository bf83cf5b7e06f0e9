"""The table service in the site's own server process: a websocket that speaks the tables'
protocol (`penang_lib.tables.protocol`, docs/TABLES.md), and the bots that play at the tables.

One `TableService` per server: its `Tables` hold every open table, journaled to SQLite in the
site's data folder (`journal_path`), and built again from it when the server starts. Each
websocket connection is one `Client`; what the protocol sends a client is written to its
socket. Bots play one move at a time, after `bot_pause` seconds (`penang-rummy serve
--bot-pause`), each thinking in a worker thread on a copy of the deal (`Table.bot_job`), so
that the server goes on answering while the expert thinks; its move is played only if the deal
is still where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

from tornado.websocket import WebSocketClosedError, WebSocketHandler

from penang_lib.site.serve import BOT_PAUSE_ENV, JOURNAL_ENV
from penang_lib.tables.address import TABLES_PATH
from penang_lib.tables.journal import Journal
from penang_lib.tables.protocol import MAX_MESSAGE, Client, Tables
from penang_lib.tables.table import Table, TableError

__all__ = [
    "BOT_PAUSE_ENV",
    "DEFAULT_BOT_PAUSE",
    "JOURNAL_ENV",
    "TABLES_PATH",
    "TableService",
    "TablesSocket",
    "journal_path",
]

DEFAULT_BOT_PAUSE: Final = 1.0
"""Seconds a bot waits before its move: time for a person to read the last one."""
TICK: Final = 1.0
"""Seconds between two looks for people away too long (a bot then stands in)."""
LOG = logging.getLogger("penang_lib.site.tables")


def journal_path() -> Path:
    """The journal's file: `$PENANG_TABLES_JOURNAL`, else tables.sqlite in the kit's folder of
    Jupyter's data folder (where a server keeps what it must not lose)."""
    given = os.environ.get(JOURNAL_ENV)
    if given:
        return Path(given)
    from jupyter_core.paths import jupyter_data_dir

    return Path(jupyter_data_dir()) / "penang-rummy" / "tables.sqlite"


def bot_pause() -> float:
    """Seconds between bot moves: `$PENANG_BOT_PAUSE`, else `DEFAULT_BOT_PAUSE`."""
    try:
        pause = float(os.environ.get(BOT_PAUSE_ENV, DEFAULT_BOT_PAUSE))
    except ValueError:
        return DEFAULT_BOT_PAUSE
    return min(max(pause, 0.0), 60.0)


class TableService:
    """The tables of one server, their journal and their bots."""

    def __init__(self, journal: Journal | None, pause: float = DEFAULT_BOT_PAUSE) -> None:
        self.journal = journal
        self.pause = pause
        self.tables = Tables(journal)
        self._thinking: set[str] = set()
        self._threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="penang-bot")
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        if journal is not None:
            for table in journal.load():
                self.tables.add(table)

    @classmethod
    def from_environment(cls) -> TableService:
        return cls(Journal(journal_path()), bot_pause())

    def start(self) -> None:
        """Start the bots' loop on the running event loop."""
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run())

    def wake(self) -> None:
        """Something changed: look for a bot to play now rather than at the next tick."""
        if self._wake is not None:
            self._wake.set()

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), TICK)
            self._wake.clear()
            for table in self.tables.tick():
                if table.code not in self._thinking:
                    self._thinking.add(table.code)
                    asyncio.get_running_loop().create_task(self._bot_move(table))

    async def _bot_move(self, table: Table) -> None:
        try:
            if self.pause:
                await asyncio.sleep(self.pause)
            job = table.bot_job()
            if job is None:
                return
            move = await asyncio.get_running_loop().run_in_executor(self._threads, job.choose)
            try:
                table.apply_bot(job, move)
            except TableError:
                return  # the deal moved on meanwhile (a person came back and played)
            self.tables.broadcast(table)
        except Exception:  # a bot's failure must not stop the other tables
            LOG.exception("Penang tables: a bot's move at table %s failed", table.code)
        finally:
            self._thinking.discard(table.code)
            self.wake()


class TablesSocket(WebSocketHandler):
    """One client's websocket: messages in go to the service's `Tables`, messages out are
    written as JSON text."""

    service: TableService
    client: Client | None = None

    def initialize(self, service: TableService) -> None:
        self.service = service

    @property
    def max_message_size(self) -> int:
        # Room for an oversized message to be read and refused with a sentence (table.size);
        # far beyond, tornado closes the connection.
        return 16 * MAX_MESSAGE

    def open(self, *args: Any, **kwargs: Any) -> None:
        # Each state goes out at once: with Nagle's algorithm (tornado's default for a
        # websocket) a state to a seat that sent nothing lately waited for a delayed
        # acknowledgement, about 35 ms a move when people play fast (benchmarks.tables_load).
        self.set_nodelay(True)
        self.client = self.service.tables.connect(self._send)

    def on_message(self, message: str | bytes) -> None:
        if self.client is None:
            return
        self.service.tables.receive(self.client, message)
        self.service.wake()

    def on_close(self) -> None:
        if self.client is not None:
            self.service.tables.disconnect(self.client)
            self.client = None

    def _send(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(WebSocketClosedError):
            self.write_message(json.dumps(message))
