"""The single-server JupyterHub recipe of deploy/ on a real JupyterHub: the Hub of
deploy/jupyterhub/jupyterhub_trial_config.py (which loads jupyterhub_config.py), with the Hub's
own proxy (configurable-http-proxy, which the Makefile installs from npm into .cache/npm), the
dummy login and the simple spawner it sets for a trial.

The Hub is started as a systemd unit would start it: by the full path of the environment's
`jupyterhub`, with a PATH that lacks the environment's `bin` folder (the config file must find
`jupyterhub-singleuser` itself). Only the addresses are changed, to free ports of 127.0.0.1,
and the learners' home folders, to a temporary folder.

Two learners, alice then bob, log in one after the other in one browser (one context: the same
cookies and localStorage, as on a shared school computer). Each lands on the site, opens
lesson 1 and gets an answer from its meld checker, which runs in their own kernel behind their
own server; the lesson's "All lessons" link leads back to the learner's landing page. bob's
landing page shows nothing of alice's progress.

Play together on the Hub (issue 32): the Hub runs the table service of the config once, for
every learner; ana starts a table from her own server's page, bo follows the link she shares
(through the Hub, to the same page on *his* server) and joins; both get their hands; the
teacher's page, in ana's browser, lists the table through the Hub's proxy; the table is kept
in the Hub's folder.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil  # type: ignore[import-untyped]
import pytest
from playwright.sync_api import Browser, Page

from penang_lib.site.serve import TABLES_PAGE, TOGETHER_PAGE
from penang_lib.tables.address import HUB_SERVICE, TABLES_PATH
from tests.checkout import REPO
from tests.helpers.together import join_and_start
from tools.site_runner import free_port

TRIAL_CONFIG = REPO / "deploy" / "jupyterhub" / "jupyterhub_trial_config.py"
PROXY = REPO / ".cache" / "npm" / "node_modules" / ".bin" / "configurable-http-proxy"
LESSON = "01_deck_and_deal.ipynb"
START_MS = 180_000
"""How long a login may take to reach the site: the Hub starts the learner's server, which
starts the site on the first visit to /penang/ (5 to 20 s here, more on a busy machine)."""
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
"""The PATH a service manager gives the Hub: none of the environment's folders."""


@dataclass
class Hub:
    """A JupyterHub on 127.0.0.1, its process and the file its output (and its learners'
    servers' and sites' output) goes to."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path
    folder: Path

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def wait_answering(hub: Hub, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if hub.process.poll() is not None:
            pytest.fail(f"the Hub stopped at start:\n{hub.text()[-4000:]}", pytrace=False)
        try:
            with urllib.request.urlopen(hub.url + "hub/api/", timeout=10) as reply:
                if reply.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            pass
        if time.monotonic() > deadline:
            pytest.fail(f"the Hub does not answer:\n{hub.text()[-4000:]}", pytrace=False)
        time.sleep(0.3)


def stop(process: subprocess.Popen[bytes]) -> list[psutil.Process]:
    """Stop the Hub as a service manager would (SIGTERM): it stops the learners' servers and
    its proxy. The processes of it still alive after that are killed, and returned."""
    if process.poll() is not None:
        return []
    children = psutil.Process(process.pid).children(recursive=True)
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    _, alive = psutil.wait_procs(children, timeout=30)
    for child in alive:
        child.kill()
    return list(alive)


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    if not PROXY.exists():
        pytest.fail(
            f"configurable-http-proxy is not installed at {PROXY}: `make test` installs it "
            "from npm (see the Makefile)",
            pytrace=False,
        )
    folder = tmp_path_factory.mktemp("hub")
    port, hub_port, api_port, tables_port = free_port(), free_port(), free_port(), free_port()
    jupyterhub = Path(sys.executable).parent / "jupyterhub"
    command = [
        str(jupyterhub),
        "-f",
        str(TRIAL_CONFIG),
        f"--JupyterHub.bind_url=http://127.0.0.1:{port}",
        f"--JupyterHub.hub_bind_url=http://127.0.0.1:{hub_port}",
        f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{api_port}",
        f"--ConfigurableHTTPProxy.command={PROXY}",
        f"--SimpleLocalProcessSpawner.home_dir_template={folder}/home/{{username}}",
    ]
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"VIRTUAL_ENV", "PYTHONPATH", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR"}
    }
    env["PATH"] = SYSTEM_PATH
    env["PENANG_TABLES_PORT"] = str(tables_port)
    log = folder / "hub.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    hub = Hub(f"http://127.0.0.1:{port}/", process, log, folder)
    try:
        wait_answering(hub)
        yield hub
    finally:
        left = stop(process)
        assert not left, f"still running after the Hub stopped: {left}"


def log_in(page: Page, hub: Hub, name: str) -> str:
    """Log in as `name` on the Hub's login page, as a learner does; wait for the site's landing
    page, where the Hub's default URL leads. Returns the site's address."""
    page.goto(hub.url + "hub/login", wait_until="load")
    page.locator("input[name=username]").fill(name)
    page.locator("input[name=password]").fill("any password will do")
    page.locator("form [type=submit]").first.click()
    site = f"{hub.url}user/{name}/penang/"
    try:
        page.wait_for_url(site, timeout=START_MS)
        page.locator("ol.lessons").wait_for(timeout=START_MS)
    except Exception as error:
        tail = hub.text()[-4000:]
        raise AssertionError(f"{name} did not reach {site}: {error}\n{tail}") from error
    return site


def answer_in_lesson_1(page: Page, site: str) -> None:
    """Open lesson 1 through the Hub and type a meld into its checker: the verdict changes,
    so the learner's own kernel answered over the websocket through both proxies."""
    page.goto(f"{site}voila/render/{LESSON}", wait_until="load", timeout=START_MS)
    page.locator(".penang-kit").first.wait_for(timeout=START_MS)
    box = page.locator(".penang-checker input").first
    verdict = page.locator(".penang-checker .penang-verdict").first
    before = verdict.inner_text()
    box.fill("8S 8H 8D")
    page.wait_for_function(
        "([old]) => document.querySelector('.penang-checker .penang-verdict').innerText !== old",
        arg=[before],
        timeout=60_000,
    )
    assert "Yes: a set" in verdict.inner_text()
    # The lesson's progress line has kept "opened" in this browser.
    page.wait_for_function(
        """(file) => Object.keys(window.localStorage).some(
               k => k.startsWith("penang-rummy-progress") &&
                    (window.localStorage.getItem(k) || "").includes(file))""",
        arg=LESSON,
        timeout=60_000,
    )


def opened_mark(page: Page) -> str:
    """What the landing page says beside lesson 1 ("" while it shows no progress)."""
    mark = page.locator(f'.done[data-file="{LESSON}"]')
    return mark.inner_text() if mark.is_visible() else ""


def test_two_learners_on_one_browser_each_get_their_own_site_and_progress(
    hub: Hub, browser: Browser
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        alice = log_in(page, hub, "alice")
        assert opened_mark(page) == ""
        answer_in_lesson_1(page, alice)
        # The lesson's "All lessons" link (README.md, which JupyterLab opens as the list next to
        # the lessons) leads to the landing page of alice's own site.
        page.get_by_role("link", name="All lessons").first.click()
        page.wait_for_url(alice)
        page.locator(f'.done[data-file="{LESSON}"]').wait_for(state="visible")
        assert opened_mark(page).startswith("✓ Opened")

        page.goto(hub.url + "hub/logout", wait_until="load")
        bob = log_in(page, hub, "bob")
        assert bob != alice
        # Same browser, same localStorage: alice's progress is still kept in it, but bob's
        # site reads only its own.
        keys = page.evaluate("() => Object.keys(window.localStorage)")
        assert any(LESSON in (page.evaluate(f"localStorage.getItem({k!r})") or "") for k in keys)
        assert opened_mark(page) == "", "bob's landing page shows alice's lesson"
        assert page.locator("section.progress .nothing").is_visible()
        answer_in_lesson_1(page, bob)
    finally:
        context.close()
    log = hub.text()
    # Each learner had a server of their own, which ran the site with no kernels kept ready.
    for name in ("alice", "bob"):
        assert re.search(rf"User {name} took [\d.]+ seconds to start", log), log[-4000:]
    assert "Penang site ready: no kernels are kept ready" in log
    assert "finish() called twice" not in log and "Penang site starting" not in log


def test_two_learners_on_their_own_servers_sit_at_one_table_of_the_hubs_service(
    hub: Hub, browser: Browser
) -> None:
    ana_context = browser.new_context(viewport={"width": 1280, "height": 800})
    bo_context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        ana = ana_context.new_page()
        ana_site = log_in(ana, hub, "ana")
        ana.goto(f"{ana_site}voila/render/{TOGETHER_PAGE}", wait_until="load", timeout=START_MS)
        ana.get_by_label("Your name").fill("Ana", timeout=START_MS)
        ana.get_by_role("button", name="Start a table").click()
        summary = ana.locator("div.penang-summary", has_text="Table code:")
        summary.wait_for(timeout=60_000)
        found = re.search(r"Table code: ([A-Z0-9]{5})", summary.inner_text())
        assert found, summary.inner_text()
        code = found.group(1)
        # The link ana shares leads through the Hub to the page on the server of whoever opens it.
        shared = summary.locator("a").first.get_attribute("href") or ""
        assert shared == f"/hub/user-redirect/penang/voila/render/{TOGETHER_PAGE}?table={code}"

        bo = bo_context.new_page()
        bo_site = log_in(bo, hub, "bo")
        bo.goto(hub.url + shared.lstrip("/"), wait_until="load", timeout=START_MS)
        assert bo.url.startswith(f"{bo_site}voila/render/{TOGETHER_PAGE}"), bo.url
        join_and_start(ana, bo, code)

        # The teacher's page of ana's site reaches the Hub's service from the browser.
        ana.goto(ana_site + TABLES_PAGE, wait_until="load")
        ana.locator("#tables tbody tr", has_text=code).wait_for(timeout=60_000)
    finally:
        ana_context.close()
        bo_context.close()
    # One service for the whole Hub, which both learners' sites (and so their kernels) used:
    # each site announced the Hub's service, and ran none of its own.
    service = f"/services/{HUB_SERVICE}/{TABLES_PATH}"
    announced = re.findall(r"^Tables: (ws://127\.0\.0\.1:\d+)(/\S*)$", hub.text(), re.MULTILINE)
    assert {path for _, path in announced} == {service}, announced
    assert len(announced) >= 3 and len(set(announced)) == 1
    with sqlite3.connect(hub.folder / "tables.sqlite") as journal:
        names = journal.execute("SELECT name FROM seats WHERE code = ?", (code,)).fetchall()
    assert {"Ana", "Bo"} <= {name for (name,) in names}
