"""Running the site and a browser for the browser tests and the site benchmark: `penang-rummy
serve` (or a stock Voila) on a free port, and Debian's Chromium for Playwright.

Playwright cannot download a browser on this machine, so it is pointed at the system Chromium
with `executable_path`; the flags keep Chromium from calling home (the network is closed).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCAL_HOSTS = ("127.0.0.1", "localhost")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
NO_CHROMIUM = (
    "No Chromium found for the browser tests: on Debian run `apt-get install chromium` "
    "(.ci/run does), elsewhere `python -m playwright install chromium`, or set "
    "PENANG_CHROMIUM to a Chromium executable."
)


def chromium_path() -> str | None:
    """The system Chromium (PENANG_CHROMIUM overrides), or None."""
    for candidate in (
        os.environ.get("PENANG_CHROMIUM"),
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def is_outside(url: str) -> bool:
    """Whether a request leaves this machine (data:, blob: and about: URLs never do)."""
    if url.startswith(("data:", "blob:", "about:")):
        return False
    host = re.sub(r"^[a-z]+://", "", url).split("/")[0].split(":")[0]
    return host not in LOCAL_HOSTS


@dataclass
class Server:
    """A running server: its base URL, its process and the lines it has logged."""

    url: str
    process: subprocess.Popen[str]
    log: list[str] = field(default_factory=list)

    def get(self, path: str) -> tuple[int, str]:
        """An HTTP GET of `path` (status, body), without a browser."""
        try:
            with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=30) as reply:
                return reply.status, reply.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8", "replace")

    def pools_filled(self) -> set[str]:
        """The notebooks whose preheated kernel pool has been (re)filled, from the log."""
        return {
            m.group(1)
            for line in list(self.log)
            if (m := re.search(r"Kernel pool of (\S+) is filled", line))
        }

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def start(
    command: Sequence[str], port: int, cwd: Path = ROOT, env: dict[str, str] | None = None
) -> Server:
    """Start a server command listening on `port`; its output is collected in `log`."""
    process = subprocess.Popen(
        list(command),
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    server = Server(f"http://127.0.0.1:{port}/", process)

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            server.log.append(line.rstrip())

    threading.Thread(target=read, daemon=True).start()
    return server


def start_site(
    pool: int = 1,
    port: int | None = None,
    extra: Sequence[str] = (),
    root: Path = ROOT,
    python: str = sys.executable,
) -> Server:
    """`penang-rummy serve` on a free port, with `extra` options (not yet ready: see
    `wait_ready`). `root` is the checkout whose kit it serves (another one, such as an older
    revision in a git worktree, is put first on the path of the server and its kernels);
    `python` is the interpreter that runs it (another environment's, such as a virtual
    environment where an older revision is installed)."""
    port = port or free_port()
    command = [
        python,
        "-m",
        "penang_lib.cli",
        "serve",
        "--port",
        str(port),
        "--no-browser",
        "--pool",
        str(pool),
        *extra,
    ]
    env = dict(os.environ)
    # Each server keeps its tables (issue 32) in a journal of its own, never the user's.
    journal = Path(tempfile.mkdtemp(prefix="penang-tables-")) / "tables.sqlite"
    env.setdefault("PENANG_TABLES_JOURNAL", str(journal))
    if python != sys.executable:
        # Started from this checkout, `python -m` would import this checkout's penang_lib.
        return start(command, port, cwd=Path(tempfile.gettempdir()), env=env)
    if root == ROOT:
        return start(command, port, env=env)
    env["PYTHONPATH"] = os.pathsep.join([str(root), *filter(None, [env.get("PYTHONPATH")])])
    return start(command, port, cwd=root, env=env)


def site_ready(server: Server) -> bool:
    """Whether every preheated kernel of `penang-rummy serve` has run its lesson: the site says
    "Penang site ready" in its log (penang_lib/site/patches.py) and has handed out none since."""
    for line in reversed(list(server.log)):
        if "Penang site ready" in line:
            return True
        if "Penang site starting" in line or "Using pre-heated kernel" in line:
            return False
    return False


def wait_idle(server: Server, timeout: float = 90) -> None:
    """Wait (at most `timeout` seconds) until the site's pools are refilled and their kernels
    have run their lessons, so that the next page meets a ready kernel."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not site_ready(server):
        time.sleep(0.2)


def wait_ready(server: Server, notebooks: set[str], timeout: float = 240) -> None:
    """Wait until the server answers and, for `penang-rummy serve` (`notebooks` not empty),
    every notebook in `notebooks` has a preheated kernel that has run it. Raises RuntimeError
    with the log's tail if the server does not get ready in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError("the server stopped at start:\n" + "\n".join(server.log[-30:]))
        if notebooks <= server.pools_filled() and (not notebooks or site_ready(server)):
            try:
                if server.get("")[0] < 500:
                    return
            except (OSError, urllib.error.URLError):
                pass
        time.sleep(0.3)
    server.stop()
    raise RuntimeError(
        f"the server did not get ready in {timeout:.0f} s; pools filled: "
        f"{sorted(server.pools_filled())}\n" + "\n".join(server.log[-20:])
    )


TABLES_LINE = re.compile(r"^Tables: (ws://127\.0\.0\.1:\d+/(?:[\w./-]*/)?penang/tables)$")
"""The line a server (the site, or the service alone) prints once its table service answers."""


def tables_address(server: Server, timeout: float = 60) -> str:
    """The table service's address, from the `Tables:` line of `server`'s log. Raises
    RuntimeError with the log's tail when none comes within `timeout` seconds or the server
    stops first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in list(server.log):
            found = TABLES_LINE.match(line)
            if found:
                return found.group(1)
        if server.process.poll() is not None:
            break
        time.sleep(0.2)
    raise RuntimeError("no 'Tables:' line in the log:\n" + "\n".join(server.log[-20:]))
