"""The table service over a real websocket (`penang_lib.site.tables`): a tornado server in a
thread of its own (its own event loop, so that no other test's loop is disturbed), two people
create and join a table, bots fill the other seats and play by themselves, every move reaches
every seat, two players pressing at once cannot both move, and an oversized message is refused
with a sentence."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tornado.web import Application
from websockets.sync.client import ClientConnection, connect

from penang_lib.site.tables import TABLES_PATH, TableService, TablesSocket
from penang_lib.tables.journal import Journal
from penang_lib.tables.protocol import MAX_MESSAGE
from tests.helpers.tables import until
from tools.site_runner import free_port


@dataclass
class Running:
    url: str
    service: TableService
    path: Path


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    path = tmp_path / "tables.sqlite"
    service = TableService(Journal(path), pause=0)
    port = free_port()
    ready = threading.Event()
    loop = asyncio.new_event_loop()

    async def serve() -> None:
        app = Application([(f"/{TABLES_PATH}", TablesSocket, {"service": service})])
        app.listen(port, "127.0.0.1")
        service.start()
        ready.set()

    def run() -> None:
        asyncio.set_event_loop(loop)
        started = loop.create_task(serve())
        loop.run_forever()
        started.cancel()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(30)
    yield Running(f"ws://127.0.0.1:{port}/{TABLES_PATH}", service, path)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def say(socket: ClientConnection, **message: Any) -> None:
    socket.send(json.dumps(message))


def test_two_people_and_two_bots_play_a_deal_to_its_end(running: Running) -> None:
    with connect(running.url) as ana, connect(running.url) as bo:
        say(ana, type="create", players=4, name="Ana")
        made = until(ana, "joined")
        say(bo, type="join", table=made["table"], name="Bo")
        joined = until(bo, "joined")
        sockets = {0: ana, 1: bo}
        tokens = {0: made["token"], 1: joined["token"]}
        say(ana, type="start", token=tokens[0])
        states = {p: until(s, "state", started=True) for p, s in sockets.items()}
        for _ in range(2000):
            if any(s["over"] for s in states.values()):
                break
            turn = states[0]["turn"]
            if turn in sockets and states[turn].get("legal_moves"):
                move = states[turn]["legal_moves"][0]
                say(sockets[turn], type="move", token=tokens[turn], move=move)
            # Every seat hears of each move (its own or a bot's) in a state of its own.
            states = {p: until(s, "state") for p, s in sockets.items()}
            assert states[0]["hand_sizes"] == states[1]["hand_sizes"]
            assert states[0]["seat"] == 0 and states[1]["seat"] == 1
        else:
            raise AssertionError("the deal did not end")
        assert states[0]["scores"] == states[1]["scores"]
    table = running.service.tables.tables[made["table"]]
    back = Journal(running.path).load()
    assert back[0].state(None)["scores"] == table.state(None)["scores"]


def test_two_players_pressing_at_once_cannot_both_move(running: Running) -> None:
    with connect(running.url) as ana, connect(running.url) as bo:
        say(ana, type="create", players=2, name="Ana")
        made = until(ana, "joined")
        say(bo, type="join", table=made["table"], name="Bo")
        joined = until(bo, "joined")
        say(ana, type="start", token=made["token"])
        state = until(ana, "state", started=True)
        turn = state["turn"]
        sockets = [(ana, made["token"]), (bo, joined["token"])]
        mine = state if turn == 0 else until(bo, "state", started=True)
        move = mine["legal_moves"][0]
        # Both press the same move at the same instant: one is in turn, the other is not.
        for socket, token in sockets:
            say(socket, type="move", token=token, move=move)
        refused = until(sockets[1 - turn][0], "error")
        assert refused["rule"] == "table.turn"
        until(sockets[turn][0], "state", actions=1)
    deal = running.service.tables.tables[made["table"]].deal
    assert deal is not None and [str(m) for m in deal.move_stack] == [move]


def test_an_oversized_message_is_refused_with_a_sentence(running: Running) -> None:
    with connect(running.url) as socket:
        socket.send("x" * (MAX_MESSAGE + 1))
        error = until(socket, "error")
        assert error["rule"] == "table.size" and str(MAX_MESSAGE) in error["message"]
        say(socket, type="list")
        assert until(socket, "tables")["tables"] == []
