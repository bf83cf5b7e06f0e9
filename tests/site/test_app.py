"""The site's Voila application (`penang_lib.site.app`): static files gzipped once and kept,
pages gzipped as sent, and the extensions' hashed scripts cached for a year."""

from __future__ import annotations

import asyncio
import gzip
import os
import re
import select
import signal
import socket
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from tornado.httpclient import AsyncHTTPClient
from tornado.web import Application, StaticFileHandler

from penang_lib.site import app
from penang_lib.site.patches import target_problem
from tools.site_runner import Server


def get(site: Server, path: str, gzipped: bool) -> tuple[bytes, dict[str, str]]:
    request = urllib.request.Request(site.url + path)
    request.add_header("Accept-Encoding", "gzip" if gzipped else "identity")
    with urllib.request.urlopen(request, timeout=30) as reply:
        return reply.read(), dict(reply.headers)


def page_assets(site: Server) -> list[str]:
    _, html = site.get("voila/render/01_deck_and_deal.ipynb")
    return re.findall(r'(?:src|href)="/(voila/[^"]+\.(?:js|css)[^"]*)"', html)


def test_what_the_app_relies_on_is_in_the_installed_voila() -> None:
    assert [target_problem(t) for t in app.RELIES] == [None] * len(app.RELIES)


def test_every_kind_of_static_file_is_sent_gzipped_and_means_the_same(site: Server) -> None:
    assets = page_assets(site)
    kinds = {"/labextensions/": 0, "/static/voila.js": 0, "/templates/": 0}
    for path in assets:
        plain, plain_headers = get(site, path, gzipped=False)
        packed, headers = get(site, path, gzipped=True)
        assert "Content-Encoding" not in plain_headers, path
        assert headers["Content-Encoding"] == "gzip", path
        assert gzip.decompress(packed) == plain, path
        assert len(packed) < len(plain), path
        assert "Accept-Encoding" in headers["Vary"], path
        if "Etag" in plain_headers:  # another representation, another tag
            assert headers["Etag"] != plain_headers["Etag"], path
        for kind in kinds:
            kinds[kind] += kind in path
    assert all(kinds.values()), kinds


def test_a_page_is_gzipped_as_it_is_sent(site: Server) -> None:
    packed, headers = get(site, "voila/rules", gzipped=True)
    assert headers["Content-Encoding"] == "gzip"
    assert b"Rule sheet" in gzip.decompress(packed)


def test_only_the_extensions_hashed_scripts_are_cached_for_a_year(site: Server) -> None:
    scripts = [a for a in page_assets(site) if "/labextensions/" in a]
    assert scripts
    for path in scripts:
        _, headers = get(site, path, gzipped=True)
        hashed = app.HASHED.search("/" + path.split("?")[0]) is not None
        assert hashed, path  # every script a page names carries its hash
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable", path
    _, headers = get(
        site, "voila/labextensions/@jupyter-widgets/jupyterlab-manager/package.json", False
    )
    assert "immutable" not in headers.get("Cache-Control", "")


# -- the kept answers, on a static folder of the test's own ------------------------------------
class Files:
    """A tornado application serving `folder` through the site's static handler, in-process."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.handler = app.compressed(StaticFileHandler)
        self.handler._answers = {}  # this test's own, not the class's shared ones
        self.handler._gzipped = {}

    def get(self, path: str, **headers: str) -> tuple[int, bytes, dict[str, str]]:
        async def fetch() -> tuple[int, bytes, dict[str, str]]:
            web = Application([(r"/static/(.*)", self.handler, {"path": str(self.folder)})])
            server = web.listen(0, "127.0.0.1")
            port = next(iter(server._sockets.values())).getsockname()[1]
            client = AsyncHTTPClient(force_instance=True)
            try:
                reply = await client.fetch(
                    f"http://127.0.0.1:{port}/static/{path}",
                    headers=headers,
                    decompress_response=False,
                    raise_error=False,
                )
                return reply.code, reply.body, dict(reply.headers)
            finally:
                client.close()
                server.stop()

        return asyncio.run(fetch())


@pytest.fixture
def files(tmp_path: Path) -> Files:
    (tmp_path / "a.js").write_text("let a = 1;\n" * 200)
    return Files(tmp_path)


def test_a_kept_answer_is_the_files_own_answer(
    files: Files, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = files.get("a.js", **{"Accept-Encoding": "gzip"})

    def not_again(*_args: object) -> None:
        raise AssertionError("the file was looked for again")

    with monkeypatch.context() as patched:  # the second answer must be the kept one
        patched.setattr(StaticFileHandler, "validate_absolute_path", not_again)
        second = files.get("a.js", **{"Accept-Encoding": "gzip"})
    assert first[0] == second[0] == 200
    assert gzip.decompress(second[1]) == (files.folder / "a.js").read_bytes()
    same = {k: v for k, v in first[2].items() if k != "Date"}
    assert same == {k: v for k, v in second[2].items() if k != "Date"}
    plain = files.get("a.js")
    assert plain[1] == (files.folder / "a.js").read_bytes()
    assert "Content-Encoding" not in plain[2]


def test_a_changed_or_removed_file_is_never_answered_from_what_was_kept(files: Files) -> None:
    files.get("a.js", **{"Accept-Encoding": "gzip"})
    (files.folder / "a.js").write_text("let b = 2;\n")
    code, body, _ = files.get("a.js", **{"Accept-Encoding": "gzip"})
    assert code == 200 and gzip.decompress(body) == b"let b = 2;\n"
    (files.folder / "a.js").unlink()
    assert files.get("a.js", **{"Accept-Encoding": "gzip"})[0] == 404


def test_ranges_and_revalidations_are_answered_by_the_file_handler(files: Files) -> None:
    _, _, headers = files.get("a.js")
    code, body, _ = files.get("a.js", Range="bytes=0-3")
    assert (code, body) == (206, b"let ")
    assert files.get("a.js", **{"If-None-Match": headers["Etag"]})[0] == 304


def test_made_up_urls_cannot_make_the_server_keep_more_than_its_limit(
    files: Files, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app, "KEPT_ANSWERS", 3)
    for n in range(6):
        assert files.get(f"a.js?v={n}")[0] == 200
    assert len(files.handler._answers) == 3


def test_a_class_worth_of_connections_waits_for_a_busy_server(site: Server) -> None:
    """While the server is busy (here: stopped), the system holds the connections it has not
    accepted yet in its socket's queue, up to `app.BACKLOG`; tornado's 128 would refuse the
    rest of a class's arrival, and each refused browser would try again a second later."""
    opening = 300  # 50 learners' 6 connections; more than 128, fewer than BACKLOG
    assert 128 < opening < app.BACKLOG
    port = urlsplit(site.url).port
    sockets = []
    os.kill(site.process.pid, signal.SIGSTOP)
    try:
        for _ in range(opening):
            sock = socket.socket()
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            sockets.append(sock)
        # A socket becomes writable once the system has queued its connection (the server
        # itself accepts nothing while stopped); a refused one is still waiting for an answer.
        _, ready, _ = select.select([], sockets, [], 3.0)
        queued = [s for s in ready if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0]
    finally:
        os.kill(site.process.pid, signal.SIGCONT)
        for sock in sockets:
            sock.close()
    assert len(queued) == opening
    assert site.get("voila/rules")[0] == 200  # and the server goes on


# -- Voila's script chunks in one request --------------------------------------------------------
# Every lesson page fetches them in one request: tests/site/test_pages.py checks it on each.


def test_the_chunks_file_holds_every_page_chunk_as_voila_ships_it(site: Server) -> None:
    packed, headers = get(site, app.CHUNKS_PATH, gzipped=True)
    assert headers["Content-Encoding"] == "gzip" and "javascript" in headers["Content-Type"]
    text = gzip.decompress(packed)
    plain, _ = get(site, app.CHUNKS_PATH, gzipped=False)
    assert text == plain
    for chunk in app.PAGE_CHUNKS:
        shipped, _ = get(site, f"voila/static/{chunk}.voila.js", gzipped=False)
        assert shipped in text, chunk
    request = urllib.request.Request(site.url + app.CHUNKS_PATH)
    request.add_header("If-None-Match", headers["Etag"])  # the gzipped file's tag
    request.add_header("Accept-Encoding", "gzip")
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request, timeout=30)
    assert answer.value.code == 304
