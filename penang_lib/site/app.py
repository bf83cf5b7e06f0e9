"""The site's Voila application: Voila's own, with what a class's arrival needs from the server
(`python -m penang_lib.site.app`, started by `penang-rummy serve` in place of `python -m voila`).

A lesson page makes a browser fetch about 100 scripts, styles and fonts, 6 MB in all, which
stock Voila sends uncompressed and (for the extensions' scripts) revalidates on every page.
Thirty learners arriving at once then wait on 180 MB leaving one server process. `SiteVoila`
is a subclass of Voila's application class (traitlets' way of extending an application; the
flags and the config file are read as for Voila) with what a class needs, issue 22:

- **Compression**: every static file is sent gzipped to a browser that accepts it, compressed
  once and kept in memory (`Precompressed`): the server then spends no CPU per learner on it.
  Pages and API answers are gzipped as they are sent (tornado's `GZipContentEncoding`), since
  each is made for its request.
- **Kept answers**: a static file's whole answer to a URL is kept and sent again to the next
  learner while the file is unchanged (`Precompressed.get`): a class's requests then cost one
  search over Voila's folders per file, not one per request.
- **One request for Voila's chunks**: the ~70 chunks Voila's script fetches of itself come in
  one file the page's template names (`ChunksHandler`), so a learner's page makes about 30
  requests instead of 100.
- **A longer queue of connections** (`BACKLOG`), so that a class arriving within a second is
  not refused while the server is busy.
- **The lessons' list**: every lesson's "All lessons" link names `README.md`, the list next to
  the lessons, which JupyterLab opens; on the site that address (`voila/render/README.md`) leads
  to the landing page (`lessons_list_routes`).
- **Cache lifetimes**: the extensions' scripts whose names carry their content's hash are
  cached by the browser for a year (`static_immutable_cache`, a setting jupyter_server's file
  handler reads): the next lesson's page fetches none of them again.

What it relies on of Voila's is listed in `RELIES` and checked at start-up; if Voila has changed,
the site starts without these changes, with a warning in the log (the pages then still work:
their request for the chunks file gets 404, and Voila's script fetches its chunks itself).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from tornado.web import GZipContentEncoding, RedirectHandler, RequestHandler, StaticFileHandler
from voila.app import Voila

from penang_lib.site.patches import TESTED_VOILA, Target, targets_problems, voila_version

COMPRESSIBLE = re.compile(r"\.(js|css|html|json|svg|map|txt)$")
"""Files worth compressing (fonts and pictures are compressed already)."""
HASHED = re.compile(r"/static/(?:[0-9]+\.|remoteEntry\.)[0-9a-f]{8,}\.js$")
"""An extension's script whose name carries its content's hash: it never changes."""

BACKLOG = 1024
"""Connections the server's socket holds while it is busy, before it accepts them (tornado's
default is 128). A class arriving opens about 6 per learner within a second: sixty learners
overflowed 128, and every refused connection's browser tried again one or three seconds later,
which was the slowest learners' wait (the system caps it at `net.core.somaxconn`)."""

RELIES: tuple[Target, ...] = (
    Target("voila.app:Voila.init_handlers", ("self",)),
    Target("voila.app:Voila.listen", ("self",)),
    Target("voila.static_file_handler:MultiStaticFileHandler"),
    Target("voila.static_file_handler:TemplateStaticFileHandler"),
    Target("jupyter_server.base.handlers:FileFindHandler.set_headers", ("self",)),
    Target("tornado.web:StaticFileHandler.get_content_size", ("self",)),
    Target("tornado.web:StaticFileHandler.get", ("self", "path", "include_body")),
    Target("tornado.web:Application.listen", ("self", "port", "address"), ("backlog",)),
)
"""What `SiteVoila` builds on: Voila's handler list and listen step, its static handlers,
tornado's static file handler (which asks `get_content_size` and `get_content` for the body),
and tornado's `Application.listen`, which takes the `backlog` Voila's call leaves out."""


@dataclass(frozen=True)
class Answer:
    """A static file's whole answer to one URL, kept to be sent again: the file it came from
    (with its size and time, to notice a change), its headers and its body as sent."""

    path: str
    version: tuple[int, float]
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def current(self) -> bool:
        """Whether the file is still the one this answer was made from."""
        try:
            found = os.stat(self.path)
        except OSError:
            return False
        return (found.st_size, found.st_mtime) == self.version


KEPT_ANSWERS = 2_000
"""At most this many answers are kept (a lesson page fetches about 100 files): a browser that
asks for made-up URLs cannot make the server keep more."""
NOT_KEPT = frozenset({"Date", "Server", "Set-Cookie"})
"""Headers made for each request, never replayed from a kept answer."""


class Precompressed(StaticFileHandler):
    """A static file handler that sends a file gzipped when the browser accepts it (and asks
    for no byte range), compressing each file once per version (path, size, time).

    Its whole answer to a plain GET (no byte range, no "has it changed?" question) is kept per
    URL and sent again to the next browser that asks for that URL while the file is unchanged:
    the search for the file over Voila's folders, its checks and its reading are done once,
    not once per learner. The request itself still goes through the handler's `prepare` (and
    so through the server's checks of who is asking)."""

    _gzipped: ClassVar[dict[tuple[str, int, float], bytes]] = {}
    _answers: ClassVar[dict[tuple[str, str, bool], Answer]] = {}

    async def get(self, path: str, include_body: bool = True) -> None:
        key = self._answer_key() if include_body else None
        kept = self._answers.get(key) if key else None
        if kept is not None and kept.current():
            for name, value in kept.headers:
                self.set_header(name, value)
            self.write(kept.body)
            return
        await super().get(path, include_body)
        if key and self.get_status() == 200 and len(self._answers) < KEPT_ANSWERS:
            self._keep(key)

    def _answer_key(self) -> tuple[str, str, bool] | None:
        """What a kept answer is found by (the handler, the URL with its query, and whether
        the browser takes gzip); None for a request a kept answer cannot serve."""
        headers = self.request.headers
        if "Range" in headers or "If-None-Match" in headers or "If-Modified-Since" in headers:
            return None
        gzipped = "gzip" in headers.get("Accept-Encoding", "")
        return (type(self).__qualname__, self.request.uri or "", gzipped)

    def _keep(self, key: tuple[str, str, bool]) -> None:
        path = self.absolute_path
        if not path:
            return
        found = os.stat(path)
        version = (found.st_size, found.st_mtime)
        body = (
            self._gzipped.get((path, *version)) if self._headers.get("Content-Encoding") else None
        )
        if body is None:
            if self._headers.get("Content-Encoding"):
                return  # compressed by someone else: not ours to replay
            with open(path, "rb") as file:
                body = file.read()
        if str(len(body)) != self._headers.get("Content-Length"):
            return  # the file changed while it was sent
        headers = tuple((k, v) for k, v in self._headers.get_all() if k not in NOT_KEPT)
        self._answers[key] = Answer(path, version, headers, body)

    def set_headers(self) -> None:
        super().set_headers()
        self.set_header("Vary", "Accept-Encoding")
        body = self._compressed()
        if body is None:
            return
        self.set_header("Content-Encoding", "gzip")
        etag = self._headers.get("Etag")
        if etag:  # another representation of the file: another tag
            self.set_header("Etag", etag.rstrip('"') + '-gz"')
        self.get_content_size = lambda: len(body)  # type: ignore[method-assign]
        self.get_content = lambda *_args: body  # type: ignore[method-assign, assignment]

    def _compressed(self) -> bytes | None:
        path = self.absolute_path
        if (
            not path
            or not COMPRESSIBLE.search(path)
            or "gzip" not in self.request.headers.get("Accept-Encoding", "")
            or "Range" in self.request.headers
        ):
            return None
        found = os.stat(path)
        key = (path, found.st_size, found.st_mtime)
        if key not in self._gzipped:
            with open(path, "rb") as file:
                self._gzipped[key] = gzip.compress(file.read(), 6, mtime=0)
        return self._gzipped[key]


CHUNKS_PATH = "voila/penang-chunks.js"
"""Where the page finds Voila's script chunks in one file (`ChunksHandler`)."""
PAGE_CHUNKS: tuple[int, ...] = (
    73,
    143,
    225,
    431,
    457,
    614,
    630,
    1187,
    1601,
    1621,
    1670,
    1996,
    2121,
    2296,
    2772,
    2829,
    2930,
    3144,
    3249,
    3307,
    3311,
    3459,
    3649,
    3916,
    3989,
    3992,
    4041,
    4135,
    4173,
    4222,
    4371,
    4486,
    4653,
    4729,
    4875,
    4972,
    5044,
    5312,
    5688,
    5764,
    5767,
    5992,
    6008,
    6049,
    6074,
    6305,
    6382,
    6468,
    6573,
    7155,
    7245,
    7259,
    7393,
    7483,
    7556,
    7598,
    7770,
    7883,
    8017,
    8135,
    8487,
    8766,
    8773,
    8862,
    8925,
    9081,
    9151,
    9212,
    9582,
    9684,
    9890,
    9981,
)
"""The chunks of Voila's script (`voila/static/NNNN.voila.js`) a lesson page loads, as
headless Chromium fetched them with Voila 0.5.13 (the same for every lesson: they are
JupyterLab's own code, not the lessons' widgets). `tests/site/test_app.py` opens lessons in the
browser and fails, naming the chunks, if a page still fetches one of its own."""


class ChunksHandler(RequestHandler):
    """Voila's script chunks that every lesson page loads (`PAGE_CHUNKS`), in one file.

    Voila's script fetches about 70 chunks of itself once it runs, one request each; a class of
    30 arriving made 2,000 such requests of the one server process. Each chunk only registers
    its code with webpack's chunk list (`self.webpackChunk...push(...)`, no code runs), and
    webpack fetches no chunk already registered: so the page's template loads this file just
    before Voila's script, and the chunks arrive in one request. The file is built once (from
    the chunks found in Voila's static folders; a missing one is left out, and the page then
    fetches it itself), gzipped once, and revalidated by its ETag."""

    _files: ClassVar[dict[tuple[str, ...], tuple[bytes, bytes, str]]] = {}

    def initialize(self, paths: list[str]) -> None:
        self.paths = tuple(paths)

    def _built(self) -> tuple[bytes, bytes, str]:
        if self.paths not in self._files:
            parts = []
            for chunk in PAGE_CHUNKS:
                for folder in self.paths:
                    path = os.path.join(folder, f"{chunk}.voila.js")
                    if os.path.isfile(path):
                        with open(path, "rb") as file:
                            parts.append(file.read())
                        break
            body = b"\n;".join(parts) + b"\n"
            tag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
            self._files[self.paths] = (body, gzip.compress(body, 6, mtime=0), tag)
        return self._files[self.paths]

    def get(self) -> None:
        body, packed, tag = self._built()
        self.set_header("Content-Type", "application/javascript; charset=UTF-8")
        self.set_header("Cache-Control", "no-cache")
        self.set_header("Vary", "Accept-Encoding")
        if "gzip" in self.request.headers.get("Accept-Encoding", ""):
            self.set_header("Content-Encoding", "gzip")
            body, tag = packed, tag.rstrip('"') + '-gz"'  # another representation, another tag
        self.set_header("Etag", tag)
        if tag in self.request.headers.get("If-None-Match", ""):
            self.set_status(304)
            return
        self.write(body)


def compressed(handler: type[Any]) -> type[Any]:
    """`handler` (a static file handler of Voila's) sending gzipped files (`Precompressed`)."""
    return type(f"Compressed{handler.__name__}", (Precompressed, handler), {})


class SiteVoila(Voila):  # type: ignore[misc]
    """Voila's application with compressed, cached static files (see the module's docstring)."""

    def init_handlers(self) -> list[Any]:
        handlers: list[Any] = [
            *lessons_list_routes(self.server_url or self.base_url, self.base_url),
            *self._tables_routes(),
            *super().init_handlers(),
        ]
        self._site_changes = not targets_problems(RELIES)
        if not self._site_changes:
            self.log.warning(
                "Penang site: static files are sent uncompressed: %s (installed Voila %s; "
                "tested on voila%s)",
                "; ".join(targets_problems(RELIES)),
                voila_version(),
                TESTED_VOILA,
            )
            return handlers
        from voila.static_file_handler import MultiStaticFileHandler

        out = []
        for route in handlers:
            pattern, handler, *rest = route
            if handler is MultiStaticFileHandler and pattern.endswith("/voila/static/(.*)"):
                chunks = pattern.removesuffix("voila/static/(.*)") + CHUNKS_PATH
                out.append((chunks, ChunksHandler, {"paths": list(rest[0]["paths"])}))
            if isinstance(handler, type) and issubclass(handler, StaticFileHandler):
                handler = compressed(handler)
            out.append((pattern, handler, *rest))
        return out

    def _tables_routes(self) -> list[Any]:
        """The table service's websocket (issue 32), its tables built again from the journal;
        none when a JupyterHub's service was given (`TABLES_URL_ENV` naming another server)."""
        from jupyter_server.utils import url_path_join

        from penang_lib.site.tables import TABLES_PATH, TableService, TablesSocket
        from penang_lib.tables.address import TABLES_URL_ENV

        given = os.environ.get(TABLES_URL_ENV, "").strip()
        if given and not given.startswith(f"ws://127.0.0.1:{self.port}/"):
            self.log.info("Penang site: the tables are the service at %s", given)
            self._tables_outside = given
            return []
        try:
            service = TableService.from_environment()
        except Exception:
            self.log.exception("Penang site: the tables' journal cannot be read; no tables")
            return []
        self._tables = service
        pattern = url_path_join(self.server_url or self.base_url, TABLES_PATH)
        # The lessons' kernels, started by this server from now on, find the service here.
        here = f"ws://127.0.0.1:{self.port}{url_path_join(self.base_url, TABLES_PATH)}"
        os.environ.setdefault(TABLES_URL_ENV, here)
        return [(pattern, TablesSocket, {"service": service})]

    async def _announce_tables(self) -> None:
        """Start the tables' bots, then ask the service for its tables as a client would, and
        print its address once it answers (`Tables: ws://...`, read by outside clients). A
        JupyterHub's service is asked the same, and its address printed."""
        from jupyter_server.utils import url_path_join

        from penang_lib.site.tables import TABLES_PATH

        outside: str | None = getattr(self, "_tables_outside", None)
        service = getattr(self, "_tables", None)
        if outside is not None:
            url = local = outside
        elif service is not None:
            service.start()
            path = url_path_join(self.base_url, TABLES_PATH)
            url = f"ws://{self.ip}:{self.port}{path}"
            local = f"ws://127.0.0.1:{self.port}{path}" if self.ip in ("0.0.0.0", "") else url
        else:
            return
        if await tables_answer(local):
            print(f"Tables: {url}", flush=True)  # not for learners: the teacher's terminal
        else:
            self.log.error("Penang site: the table service at %s does not answer", local)

    def listen(self) -> None:
        from tornado.ioloop import IOLoop

        IOLoop.current().add_callback(self._announce_tables)
        if getattr(self, "_site_changes", False):
            self.app.add_transform(GZipContentEncoding)
            self.app.settings["static_immutable_cache"] = immutable_scripts(self)
            listen = self.app.listen  # Voila calls it as listen(port, ip)
            self.app.listen = lambda *args, **kwargs: listen(*args, backlog=BACKLOG, **kwargs)
        super().listen()


async def tables_answer(url: str) -> bool:
    """Whether the table service at `url` answers a `list` with its tables."""
    from tornado.websocket import websocket_connect

    try:
        socket = await websocket_connect(url)
        socket.write_message(json.dumps({"type": "list"}))
        answer = await socket.read_message()
        socket.close()
    except Exception:
        return False
    return answer is not None and json.loads(answer).get("type") == "tables"


LESSONS_LIST = "README.md"
"""The list of the lessons next to them (`notebooks/lessons/README.md`), which every lesson's
"All lessons" link names: JupyterLab opens it as the list it is; on the site, where that link
leads to `voila/render/README.md`, it is the landing page (`lessons_list_routes`)."""


def lessons_list_routes(server_url: str, base_url: str) -> list[Any]:
    """Routes that send the lessons' "All lessons" link (and the lessons' folder itself) to the
    landing page, at `base_url` for the browser; they come before Voila's, which would send a
    browser on to the file's download instead."""
    from jupyter_server.utils import url_path_join

    listed = re.escape(LESSONS_LIST)
    pattern = url_path_join(server_url, rf"/voila/render/(?:{listed})?")
    return [(pattern, RedirectHandler, {"url": base_url, "permanent": False})]


def immutable_scripts(app: Any) -> list[str]:
    """The URL paths of the extensions' scripts whose names carry their hash (`HASHED`)."""
    from jupyter_server.utils import url_path_join

    from penang_lib.site.settings import EXTENSIONS, extension_files

    base = url_path_join(app.server_url or app.base_url, "voila/labextensions")
    return [
        url_path_join(base, path)
        for path in extension_files(EXTENSIONS)
        if HASHED.search("/" + path)
    ]


main = SiteVoila.launch_instance

if __name__ == "__main__":
    main()
