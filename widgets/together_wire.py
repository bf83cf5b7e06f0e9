"""How the "Play together" page's kernel speaks to the table service (docs/TABLES.md).

A `Transport` carries the protocol's messages, one JSON object each way: `send(message)` writes
one, and the function given to `listen` is called with each message that arrives. The page's
widget (`penang_lib.widgets.together.PlayTogether`) only knows this small shape, so a test can
plug it straight into an in-process `penang_lib.tables.protocol.Tables` (`InProcess`), and the
site's pages use `WebsocketTransport`, which speaks over the service's websocket.

`WebsocketTransport` runs on the kernel's own asyncio loop: the first message opens the
connection in a background task, which writes what is queued and reads what arrives, calling the
listener for each message in the loop (where widget callbacks run too, so nothing needs a lock).
When the connection cannot be opened or closes, the listener hears one `lost` message of our own
(`LOST`), never sent by the service: the widget says so in a sentence.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any, Final, Protocol

from penang_lib.tables.protocol import Client, Tables

__all__ = ["LOST", "InProcess", "Listener", "Transport", "WebsocketTransport"]

log = logging.getLogger("widgets")

Listener = Callable[[dict[str, Any]], None]
"""What is called with each message that arrives (a JSON object, read)."""

LOST: Final = "lost"
"""The type of the one message a transport makes itself: the connection failed or closed."""

OPEN_TIMEOUT: Final = 10.0
"""Seconds to wait for the service to accept the connection."""
MAX_INCOMING: Final = 2**20
"""Bytes in one message from the service, at most (a state is a few kilobytes)."""


class Transport(Protocol):
    """One client's line to the table service."""

    def listen(self, listener: Listener) -> None:
        """Have `listener` called with every message that arrives from now on."""

    def send(self, message: dict[str, Any]) -> None:
        """Send one protocol message (a JSON object)."""

    def close(self) -> None:
        """Hang up; the service then knows this seat's person has left."""


def _read(text: object) -> dict[str, Any] | None:
    """A message from the service, or None for anything that is not a JSON object with a type."""
    if isinstance(text, bytes):
        return None
    try:
        message = json.loads(str(text))
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return None
    return message


class InProcess:
    """A transport straight into a `Tables` in this process, without a network: what is sent is
    read by `tables.receive` at once, and what the tables send the client is handed to the
    listener, as JSON text read back (so a message that would not survive the wire fails here
    too)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self._listener: Listener | None = None
        self.client: Client = tables.connect(self._deliver)
        self.sent: list[dict[str, Any]] = []
        """Every message sent, in order (for tests)."""

    def listen(self, listener: Listener) -> None:
        self._listener = listener

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)
        self.tables.receive(self.client, json.dumps(message))

    def close(self) -> None:
        self.tables.disconnect(self.client)

    def _deliver(self, message: dict[str, Any]) -> None:
        read = _read(json.dumps(message))
        if read is not None and self._listener is not None:
            self._listener(read)


class WebsocketTransport:
    """The service's websocket at `url` (`ws://.../penang/tables`), on the kernel's running
    asyncio loop (see the module's docstring)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._listener: Listener | None = None
        self._queue: asyncio.Queue[str] | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def listen(self, listener: Listener) -> None:
        self._listener = listener

    def send(self, message: dict[str, Any]) -> None:
        if self._closed:
            self._tell({"type": LOST})
            return
        if self._queue is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # not in a kernel's loop (a plain script): no line to open
                self._closed = True
                self._tell({"type": LOST})
                return
            self._queue = asyncio.Queue()
            self._task = loop.create_task(self._run())
        self._queue.put_nowait(json.dumps(message))

    def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        try:
            async with connect(
                self.url, open_timeout=OPEN_TIMEOUT, max_size=MAX_INCOMING
            ) as socket:
                writer = asyncio.get_running_loop().create_task(self._write(socket))
                try:
                    async for text in socket:
                        message = _read(text)
                        if message is not None:
                            self._tell(message)
                finally:
                    writer.cancel()
        except asyncio.CancelledError:
            raise
        except (OSError, TimeoutError, WebSocketException):
            log.info("Penang tables: the connection to %s failed or closed", self.url)
        self._closed = True
        self._tell({"type": LOST})

    async def _write(self, socket: Any) -> None:
        assert self._queue is not None
        while True:
            text = await self._queue.get()
            await socket.send(text)

    def _tell(self, message: dict[str, Any]) -> None:
        if self._listener is None:
            return
        try:
            self._listener(message)
        except Exception:  # the widget guards its own handlers; this one must keep reading
            log.exception("Penang tables: a message could not be shown")
