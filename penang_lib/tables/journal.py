"""The tables' journal: every table written to SQLite as it is played, so that nothing is lost.

A table is its record: the rules, the match's seed, the seats (names, the digest of each
person's token, the bot of each bot's seat) and its moves in order, each in the engine's text
notation. Nothing else is kept: `load` builds every table again by pushing its moves through the
engine (`Table.restore`), so a journal can never hold an illegal deal, and a journal whose move
the engine refuses raises rather than open a wrong table.

Each change is one transaction, committed before the table answers anyone, in WAL mode: a
server killed between two moves loses neither.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

from penang_lib.engine.rules import Rules
from penang_lib.tables.table import Table

__all__ = ["SCHEMA", "Journal"]

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    rules TEXT NOT NULL,
    created REAL NOT NULL,
    started INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL REFERENCES tables(code),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    digest TEXT,
    bot TEXT,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    code TEXT NOT NULL REFERENCES tables(code),
    n INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (code, n)
);
"""
"""The journal's tables: one row per table, per seat and per move ("" deals the next deal)."""


class Journal:
    """A journal in the SQLite file `path` (made when missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def _write(self, sql: str, values: tuple[object, ...]) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(sql, values)

    def created(self, table: Table) -> None:
        self._write(
            "INSERT INTO tables (code, players, seed, rules, created) VALUES (?, ?, ?, ?, ?)",
            (table.code, table.players, table.seed, json.dumps(table.rules.as_dict()), time.time()),
        )

    def seated(self, table: Table, seat: int) -> None:
        s = table.seats[seat]
        assert s is not None
        self._write(
            "INSERT OR REPLACE INTO seats (code, seat, name, digest, bot) VALUES (?, ?, ?, ?, ?)",
            (table.code, seat, s.name, s.digest, s.bot),
        )

    def started(self, table: Table) -> None:
        with self.db:
            self.db.execute("BEGIN")
            for p, s in enumerate(table.seats):
                if s is not None and not s.is_person:
                    self.db.execute(
                        "INSERT OR REPLACE INTO seats (code, seat, name, digest, bot) "
                        "VALUES (?, ?, ?, NULL, ?)",
                        (table.code, p, s.name, s.bot),
                    )
            self.db.execute("UPDATE tables SET started = 1 WHERE code = ?", (table.code,))

    def moved(self, table: Table, deal: int, ply: int, move: str) -> None:
        self._write(
            "INSERT INTO moves (code, n, deal, ply, move) VALUES (?, "
            "(SELECT COUNT(*) FROM moves WHERE code = ?), ?, ?, ?)",
            (table.code, table.code, deal, ply, move),
        )

    def codes(self) -> list[str]:
        """The codes of every table in the journal, oldest first."""
        return [row[0] for row in self.db.execute("SELECT code FROM tables ORDER BY created")]

    def load(self, clock: Callable[[], float] = time.monotonic) -> list[Table]:
        """Every table of the journal, built again move by move (each table's journal set to
        this one, so that it goes on being written)."""
        tables = []
        for code, players, seed, rules, started in self.db.execute(
            "SELECT code, players, seed, rules, started FROM tables ORDER BY created"
        ).fetchall():
            seats: list[tuple[str, str | None, str | None]] = [
                (name, digest, bot)
                for name, digest, bot in self.db.execute(
                    "SELECT name, digest, bot FROM seats WHERE code = ? ORDER BY seat", (code,)
                )
            ]
            moves = [
                (deal, move)
                for deal, move in self.db.execute(
                    "SELECT deal, move FROM moves WHERE code = ? ORDER BY n", (code,)
                )
            ]
            table = Table.restore(
                code,
                players,
                seed,
                Rules.from_dict(json.loads(rules)),
                seats,
                bool(started),
                moves,
                clock,
            )
            table.journal = self
            tables.append(table)
        return tables
