"""A learner's browser without the browser: a lesson page over HTTP, its widgets over the kernel
websocket, speaking the Jupyter widget protocol the way the page's JavaScript does.

Used by the load command (`python -m tools.load`) and the site's security tests. Only
127.0.0.1 is ever contacted: `Learner` refuses any other host.

A learner keeps its cookies (the XSRF cookie and the site's learner cookie), reads the page's
kernel id from the page, opens the kernel's websocket, asks for every widget's state
(`request_states` on the `jupyter.widget.control` comm, as ipywidgets 8 does), and then can
click buttons, set values and wait for the kernel's updates, timing each round trip.

It asks the server for what a browser asks, the way a browser asks it, so that a load test
charges the server what a class would: the page's scripts, styles and fonts over 6 connections
kept open (`KeptConnection`), and the kernel's messages in the websocket protocol a lesson page
speaks (`V1_PROTOCOL`, which the server passes on without unpacking).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
import uuid
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any, TypeVar
from urllib.parse import urlsplit

from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

T = TypeVar("T")
KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')
LOCAL = ("127.0.0.1", "localhost")
ASSET_CONNECTIONS = 6
"""How many requests a browser has open at once to one server over HTTP/1.1."""
CONTROL_VERSION = "1.0.0"
"""The widget control protocol of ipywidgets 8 (`request_states` on `jupyter.widget.control`)."""


class PageError(RuntimeError):
    """A page that did not load, or a widget that did not answer in time."""


@dataclass
class Model:
    """One widget model as the page knows it: its id and its synced state."""

    id: str
    state: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.state.get("_model_name", ""))

    @property
    def classes(self) -> list[str]:
        return list(self.state.get("_dom_classes", []))

    @property
    def children(self) -> list[str]:
        return [c.removeprefix("IPY_MODEL_") for c in self.state.get("children", [])]


V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
"""The kernel websocket protocol a lesson page speaks (@jupyterlab/services offers it and
jupyter_server prefers it): binary frames the server passes on without unpacking them."""


PARTS = ("header", "parent_header", "metadata", "content")
"""The JSON parts of a kernel message, in the order of a v1 frame (after its channel)."""


def _parse_frame(frame: str | bytes) -> dict[str, Any]:
    """A kernel message from the websocket: JSON text (the legacy protocol), or a binary
    frame of the v1 protocol (its channel, then `PARTS`, then any buffers), unpacked with
    jupyter_server's own function."""
    if isinstance(frame, str):
        message: dict[str, Any] = json.loads(frame)
        return message
    channel, parts = deserialize_msg_from_ws_v1(frame)  # type: ignore[no-untyped-call]
    message = {"channel": channel}
    for name, part in zip(PARTS, parts[: len(PARTS)], strict=True):
        message[name] = json.loads(part.decode("utf-8"))
    return message


def _v1_frame(message: dict[str, Any]) -> bytes:
    """`message` as a binary frame of the v1 protocol, packed with jupyter_server's function."""
    parts = [json.dumps(message[name]).encode("utf-8") for name in PARTS]
    frame: bytes = serialize_msg_to_ws_v1(parts, message["channel"])  # type: ignore[no-untyped-call]
    return frame


class KeptConnection:
    """One HTTP/1.1 connection to this machine, kept open for the next request as a browser
    keeps it (tornado's own client opens a connection per request, which no browser does and
    which would make the server's work per asset look larger than a class makes it)."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        if host not in LOCAL:
            raise ValueError(f"a learner only visits this machine, not {host}")
        self.host, self.port, self.timeout = host, port, timeout
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def get(self, target: str, headers: dict[str, str]) -> tuple[int, bytes]:
        """(status, body as sent) of a GET of `target`, reconnecting if the server closed."""
        return await asyncio.wait_for(self._get(target, headers), self.timeout)

    async def _get(self, target: str, headers: dict[str, str]) -> tuple[int, bytes]:
        if self._writer is None or self._writer.is_closing():
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        assert self._reader is not None
        lines = [f"GET {target} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        self._writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        head = (await self._reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        fields = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in head[1:])}
        if fields.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while size := int((await self._reader.readuntil(b"\r\n")).strip(), 16):
                body += (await self._reader.readexactly(size + 2))[:-2]
            await self._reader.readuntil(b"\r\n")
        else:
            body = await self._reader.readexactly(int(fields.get("content-length", "0")))
        if fields.get("connection", "").lower() == "close":
            self.close()
        return status, body

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None


@dataclass
class Learner:
    """One learner on `base` (e.g. http://127.0.0.1:8866/)."""

    base: str
    timeout: float = 60.0
    cookies: dict[str, str] = field(default_factory=dict)
    models: dict[str, Model] = field(default_factory=dict)
    kernel_id: str = ""
    html: str = ""
    load_seconds: float = 0.0
    asset_seconds: float = 0.0
    """Of `load_seconds`: fetching the page's scripts, styles and fonts (`open(assets=...)`)."""
    socket_seconds: float = 0.0
    """Of `load_seconds`: the kernel's websocket, its kernel info and every widget's state."""
    asset_bytes: int = 0
    """What the assets weighed on the wire (compressed, where the server compressed them)."""
    _socket: WebSocketClientConnection | None = None
    _reader: asyncio.Task[None] | None = None
    _updates: asyncio.Queue[tuple[float, str, dict[str, Any]]] | None = None
    _session: str = field(default_factory=lambda: uuid.uuid4().hex)
    replies: list[dict[str, Any]] = field(default_factory=list)
    """Every non-widget message the kernel sent this learner (execute replies, errors...)."""

    def __post_init__(self) -> None:
        if urlsplit(self.base).hostname not in LOCAL:
            raise ValueError(f"a learner only visits this machine, not {self.base}")
        self.base = self.base.rstrip("/") + "/"

    # -- HTTP ---------------------------------------------------------------------------------
    def _cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def _keep_cookies(self, headers: Any) -> None:
        for line in headers.get_list("Set-Cookie"):
            jar: SimpleCookie = SimpleCookie()
            jar.load(line)
            for key, morsel in jar.items():
                self.cookies[key] = morsel.value

    async def fetch(
        self, path: str, method: str = "GET", body: str | None = None
    ) -> tuple[int, str]:
        """(status, body) of a request to `path`, with this learner's cookies."""
        headers = {"Cookie": self._cookie_header()}
        if "_xsrf" in self.cookies:
            headers["X-XSRFToken"] = self.cookies["_xsrf"]
        request = HTTPRequest(
            self.base + path.lstrip("/"),
            method=method,
            body=body if body is not None else ("" if method in ("POST", "PUT") else None),
            headers=headers,
            request_timeout=self.timeout,
            follow_redirects=False,
        )
        # A client of this request's own, as each browser has its own connections: tornado's
        # shared client lets 10 requests of the whole event loop out at a time, so sixty
        # learners would queue behind each other before reaching the server.
        client = AsyncHTTPClient(force_instance=True)
        try:
            reply = await client.fetch(request)
        except HTTPClientError as error:
            if error.response is None:
                raise
            self._keep_cookies(error.response.headers)
            return error.code, error.response.body.decode("utf-8", "replace")
        finally:
            client.close()
        self._keep_cookies(reply.headers)
        return reply.code, reply.body.decode("utf-8", "replace")

    async def fetch_assets(
        self, paths: Sequence[str], connections: int = ASSET_CONNECTIONS
    ) -> None:
        """Fetch `paths` as a browser does: over at most `connections` kept open and reused
        (HTTP/1.1 keep-alive), accepting gzip and leaving it compressed (a browser unpacks it on
        its own device). Adds the bytes on the wire to `asset_bytes`."""
        todo = list(paths)
        parts = urlsplit(self.base)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80

        async def worker() -> None:
            connection = KeptConnection(host, port, self.timeout)
            try:
                while todo:
                    path = todo.pop(0)
                    status, body = await connection.get(
                        parts.path + path.lstrip("/"),
                        {"Cookie": self._cookie_header(), "Accept-Encoding": "gzip"},
                    )
                    if status != 200:
                        raise PageError(f"{path} answered {status}")
                    self.asset_bytes += len(body)
            finally:
                connection.close()

        await asyncio.gather(*(worker() for _ in range(min(connections, len(todo)))))

    async def open(self, path: str, assets: Sequence[str] = ()) -> None:
        """Load a page, fetch its `assets` (what a browser fetches for it: see
        `tools.load.browser_assets`), connect to its kernel and ask for its kernel info, as the
        page's script does; the widgets' states are then in `models`."""
        start = time.perf_counter()
        status, self.html = await self.fetch(path)
        if status != 200:
            raise PageError(f"{path} answered {status}")
        found = KERNEL_ID.search(self.html)
        if found is None:
            raise PageError(f"{path} names no kernel")
        self.kernel_id = found.group(1)
        fetched = time.perf_counter()
        await self.fetch_assets(assets)
        connecting = time.perf_counter()
        self.asset_seconds = connecting - fetched
        await self.connect(self.kernel_id)
        await self.kernel_info()
        await self.request_states()
        self.load_seconds = time.perf_counter() - start
        self.socket_seconds = time.perf_counter() - connecting

    async def kernel_info(self) -> None:
        """Ask for the kernel's info and wait for the reply, as the page does once connected."""
        msg_id = self.send("kernel_info_request", {})
        deadline = time.monotonic() + self.timeout
        while not any(r.get("parent_header", {}).get("msg_id") == msg_id for r in self.replies):
            if time.monotonic() > deadline:
                raise PageError("the kernel did not answer its kernel info in time")
            await asyncio.sleep(0.01)

    # -- the kernel's websocket ------------------------------------------------------------------
    async def connect(self, kernel_id: str) -> None:
        """Open the websocket of `kernel_id` (raises tornado's HTTPClientError if refused)."""
        url = self.base.replace("http", "ws", 1) + (
            f"api/kernels/{kernel_id}/channels?session_id={self._session}"
        )
        request = HTTPRequest(
            url, headers={"Cookie": self._cookie_header()}, request_timeout=self.timeout
        )
        self._socket = await websocket_connect(request, subprotocols=[V1_PROTOCOL])
        self._updates = asyncio.Queue()
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self._socket is not None and self._updates is not None
        while True:
            frame = await self._socket.read_message()
            if frame is None:
                return
            message = _parse_frame(frame)
            arrived = time.perf_counter()
            kind = message.get("header", {}).get("msg_type")
            content = message.get("content", {})
            data = content.get("data", {}) if kind == "comm_msg" else {}
            method = data.get("method")
            if method == "update" and content.get("comm_id") in self.models:
                self.models[content["comm_id"]].state.update(data.get("state", {}))
                await self._updates.put((arrived, content["comm_id"], data.get("state", {})))
            elif method == "update_states":
                for model_id, entry in data.get("states", {}).items():
                    self.models[model_id] = Model(model_id, dict(entry.get("state", {})))
                await self._updates.put((arrived, "", {"update_states": True}))
            elif kind == "comm_open":
                model_id = content.get("comm_id", "")
                state = content.get("data", {}).get("state", {})
                self.models[model_id] = Model(model_id, dict(state))
            elif kind not in ("status", "comm_msg"):
                self.replies.append(message)

    def send(
        self,
        msg_type: str,
        content: dict[str, Any],
        channel: str = "shell",
        metadata: dict[str, Any] | None = None,
    ) -> str:
        """Send one message to the kernel; returns its id."""
        assert self._socket is not None, "connect first"
        msg_id = uuid.uuid4().hex
        message = {
            "header": {
                "msg_id": msg_id,
                "msg_type": msg_type,
                "username": "learner",
                "session": self._session,
                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "version": "5.3",
            },
            "parent_header": {},
            "metadata": metadata or {},
            "content": content,
            "channel": channel,
            "buffers": [],
        }
        if self._socket.selected_subprotocol == V1_PROTOCOL:
            self._socket.write_message(_v1_frame(message), binary=True)
        else:
            self._socket.write_message(json.dumps(message))
        return msg_id

    async def _next_update(self, deadline: float) -> tuple[float, str, dict[str, Any]]:
        assert self._updates is not None
        left = deadline - time.monotonic()
        if left <= 0:
            raise PageError("the kernel did not answer in time")
        try:
            return await asyncio.wait_for(self._updates.get(), left)
        except TimeoutError:
            raise PageError("the kernel did not answer in time") from None

    async def request_states(self) -> None:
        """Ask for every widget's state, as the page does when it loads."""
        comm_id = uuid.uuid4().hex
        self.send(
            "comm_open",
            {"comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
            metadata={"version": CONTROL_VERSION},
        )
        self.send("comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}})
        deadline = time.monotonic() + self.timeout
        while True:
            _, model_id, state = await self._next_update(deadline)
            if not model_id and state.get("update_states"):
                return

    async def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
        if self._reader is not None:
            self._reader.cancel()
        self._socket = None

    async def shutdown(self) -> int:
        """What the page does when its tab closes: ask Voila to shut the kernel down."""
        await self.close()
        status, _ = await self.fetch(f"voila/api/shutdown/{self.kernel_id}", method="POST")
        return status

    # -- widgets ------------------------------------------------------------------------------
    def find(self, name: str = "", cls: str = "", description: str = "") -> list[Model]:
        """Models of this model name (e.g. ButtonModel), DOM class and description."""
        return [
            m
            for m in self.models.values()
            if (not name or m.name == name)
            and (not cls or cls in m.classes)
            and (not description or m.state.get("description") == description)
        ]

    def inside(self, root: Model) -> list[Model]:
        """`root` and every model below it in the widget tree."""
        seen: list[Model] = []
        todo = [root.id]
        while todo:
            model = self.models.get(todo.pop())
            if model is None or model in seen:
                continue
            seen.append(model)
            todo.extend(model.children)
        return seen

    def drain(self) -> None:
        """Forget updates that arrived before now."""
        assert self._updates is not None
        while not self._updates.empty():
            self._updates.get_nowait()

    async def click(self, button: Model, watched: Model, key: str = "value") -> float:
        """Click `button`; seconds until `watched` changes `key` (the round trip)."""
        self.drain()
        before = watched.state.get(key)
        start = time.perf_counter()
        self.send(
            "comm_msg",
            {"comm_id": button.id, "data": {"method": "custom", "content": {"event": "click"}}},
        )
        deadline = time.monotonic() + self.timeout
        while True:
            arrived, model_id, state = await self._next_update(deadline)
            if model_id == watched.id and key in state and state[key] != before:
                return arrived - start

    async def settle(self, quiet: float = 0.3) -> None:
        """Wait until the kernel has sent nothing for `quiet` seconds."""
        assert self._updates is not None
        while True:
            try:
                await asyncio.wait_for(self._updates.get(), quiet)
            except TimeoutError:
                return

    def texts(self, models: list[Model] | None = None) -> list[str]:
        """Every string in the synced state of `models` (default: every model of the page)."""
        out: list[str] = []

        def walk(value: Any) -> None:
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, dict):
                for item in value.values():
                    walk(item)
            elif isinstance(value, list | tuple):
                for item in value:
                    walk(item)

        for model in self.models.values() if models is None else models:
            walk(model.state)
        return out


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a learner's coroutine to its end from synchronous code, in a thread of its own (the
    caller may already be inside an event loop, e.g. Playwright's)."""
    result: list[T] = []
    problem: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coroutine))
        except BaseException as error:  # handed to the caller
            problem.append(error)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join()
    if problem:
        raise problem[0]
    return result[0]
