"""What the tests of the table service on a real server share: the next message of a kind from
a websocket (the service's address is `tools.site_runner.tables_address`)."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import ClientConnection


def until(socket: ClientConnection, kind: str, **fields: Any) -> dict[str, Any]:
    """The next message of type `kind` (with these `fields`) the socket receives."""
    for _ in range(500):
        message: dict[str, Any] = json.loads(socket.recv(timeout=30))
        if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
            return message
    raise AssertionError(f"no {kind} message")
