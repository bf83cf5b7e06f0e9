"""The table service on the real site (`penang-rummy serve`): it prints its address once it
answers, and a client that knows nothing but that line plays on it (issue 32)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tools.site_runner import Server

ADDRESS = re.compile(r"^Tables: (ws://127\.0\.0\.1:\d+/penang/tables)$")


def tables_address(site: Server, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in list(site.log):
            found = ADDRESS.match(line)
            if found:
                return found.group(1)
        time.sleep(0.2)
    raise AssertionError("no 'Tables:' line in the log:\n" + "\n".join(site.log[-20:]))


def until(socket: ClientConnection, kind: str, **fields: Any) -> dict[str, Any]:
    for _ in range(500):
        message: dict[str, Any] = json.loads(socket.recv(timeout=30))
        if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
            return message
    raise AssertionError(f"no {kind} message")


def test_serve_prints_the_tables_address_once_it_answers(site: Server) -> None:
    address = tables_address(site)
    assert address.endswith(f":{site.url.split(':')[2].split('/')[0]}/penang/tables")
    assert sum(1 for line in site.log if line.startswith("Tables: ")) == 1


def test_a_client_plays_on_the_printed_address(site: Server) -> None:
    address = tables_address(site)
    with connect(address) as ana, connect(address) as bo:
        ana.send(json.dumps({"type": "create", "players": 3, "name": "Ana"}))
        made = until(ana, "joined")
        bo.send(json.dumps({"type": "join", "table": made["table"], "name": "<i>Bo</i>"}))
        assert until(bo, "error")["rule"] == "table.name"
        bo.send(json.dumps({"type": "join", "table": made["table"], "name": "Bo"}))
        joined = until(bo, "joined")
        ana.send(json.dumps({"type": "start", "token": made["token"]}))
        state = until(ana, "state", started=True)
        assert state["names"][:2] == ["Ana", "Bo"] and state["seats"][2]["kind"] == "bot"
        assert len(state["hand"]) == 25 and "hands" not in state  # three players hold 25
        seen = until(bo, "state", started=True)
        assert seen["seat"] == 1 and seen["hand"] != state["hand"]
        # Whoever is to play, the bot at seat 2 or a person, the table moves on and both hear it.
        people = {0: (ana, made["token"]), 1: (bo, joined["token"])}
        turn, states = state["turn"], {0: state, 1: seen}
        if turn in people:
            socket, token = people[turn]
            move = states[turn]["legal_moves"][0]
            socket.send(json.dumps({"type": "move", "token": token, "move": move}))
        after = until(ana, "state", actions=1)
        assert after["events"] and after["events"][-1]["text"].endswith(".")
        assert until(bo, "state", actions=1)["hand_sizes"] == after["hand_sizes"]
