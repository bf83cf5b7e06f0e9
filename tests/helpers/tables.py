"""What the tests of the table service on a real server share: its address, read from the
server's log, and the next message of a kind from a websocket."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from websockets.sync.client import ClientConnection

from tools.site_runner import Server

ADDRESS = re.compile(r"^Tables: (ws://127\.0\.0\.1:\d+/(?:services/penang-tables/)?penang/tables)$")
"""The line a server prints once its table service answers."""


def tables_address(server: Server, timeout: float = 60) -> str:
    """The table service's address, from the `Tables:` line of the server's log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in list(server.log):
            found = ADDRESS.match(line)
            if found:
                return found.group(1)
        time.sleep(0.2)
    raise AssertionError("no 'Tables:' line in the log:\n" + "\n".join(server.log[-20:]))


def until(socket: ClientConnection, kind: str, **fields: Any) -> dict[str, Any]:
    """The next message of type `kind` (with these `fields`) the socket receives."""
    for _ in range(500):
        message: dict[str, Any] = json.loads(socket.recv(timeout=30))
        if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
            return message
    raise AssertionError(f"no {kind} message")
