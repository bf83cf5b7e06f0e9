"""The tables' journal (`penang_lib.tables.journal`): every table is written to SQLite as it is
played, and built again from it move by move, through the engine."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from penang_lib.engine.moves import IllegalMove
from penang_lib.tables.journal import Journal
from penang_lib.tables.protocol import Tables
from tests.tables.helpers import Clock, play_out


def opened(path: Path) -> tuple[Tables, dict[int, str], str]:
    """Two people at a table of four, started, with a few moves played."""
    tables = Tables(Journal(path), clock=Clock(), rng=random.Random(4))
    got: list[dict[str, object]] = []
    ana, bo = tables.connect(got.append), tables.connect(got.append)
    tables.receive(ana, json.dumps({"type": "create", "players": 4, "name": "Ana"}))
    made = next(m for m in got if m["type"] == "joined")
    code = str(made["table"])
    tables.receive(bo, json.dumps({"type": "join", "table": code, "name": "Bo"}))
    tokens = {0: str(made["token"]), 1: str([m for m in got if m["type"] == "joined"][-1]["token"])}
    tables.receive(ana, json.dumps({"type": "start", "token": tokens[0], "bots": {"3": "greedy"}}))
    return tables, tokens, code


def test_a_table_comes_back_after_a_restart_with_every_move(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    tables, tokens, code = opened(path)
    table = tables.tables[code]
    play_out(table, tokens)
    table.deal_again(tokens[1])
    for _ in range(9):
        if table.bot_due() is not None:
            table.play_bot()
    before = {seat: table.state(seat) for seat in (0, 1, None)}
    # The server is killed: nothing is closed or flushed on purpose.
    again = Journal(path).load(Clock())
    assert [t.code for t in again] == [code]
    back = again[0]
    for seat, state in before.items():
        now = back.state(seat)
        state.pop("seats"), now.pop("seats")
        assert now == state
    assert back.seat_of(tokens[0]) == 0 and back.seat_of(tokens[1]) == 1
    seats = back.seats
    assert all(s is not None and not s.connected for s in seats[:2])  # back through their links
    assert seats[3] is not None and seats[3].bot == "greedy"


def test_a_table_not_yet_started_comes_back_with_its_seats(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    tables = Tables(Journal(path), clock=Clock(), rng=random.Random(5))
    got: list[dict[str, object]] = []
    tables.receive(
        tables.connect(got.append), json.dumps({"type": "create", "players": 3, "name": "Cy"})
    )
    back = Journal(path).load()
    assert len(back) == 1 and back[0].names() == ["Cy", None, None] and not back[0].started


def test_the_journal_keeps_digests_never_tokens(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    _tables, tokens, _code = opened(path)
    text = path.read_bytes() + (
        path.with_name(path.name + "-wal").read_bytes()
        if path.with_name(path.name + "-wal").exists()
        else b""
    )
    assert all(token.encode() not in text for token in tokens.values())


def test_a_journal_with_an_illegal_move_does_not_open(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    _tables, _tokens, code = opened(path)
    db = sqlite3.connect(path)
    with db:
        n = db.execute("SELECT COUNT(*) FROM moves WHERE code = ?", (code,)).fetchone()[0]
        db.execute(
            "INSERT INTO moves (code, n, deal, ply, move) VALUES (?, ?, 1, 1, ?)",
            (code, n, "meld JK JK JK"),
        )
    db.close()
    with pytest.raises((IllegalMove, ValueError)):
        Journal(path).load()
