"""The tutorial site in a real browser: `penang-rummy serve` on a free port, driven by Python
Playwright on the system's Chromium (browser downloads are impossible here, so Playwright is
pointed at Debian's `chromium` with `executable_path`).

Each test gets a fresh browser context (no cookies). `open_page` loads a page, waits for its
widgets and records every request that leaves 127.0.0.1 and every error the page reports.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, sync_playwright

from penang_lib.site.serve import catalogue
from tools.learners import Learner
from tools.site_runner import (
    CHROMIUM_ARGS,
    NO_CHROMIUM,
    ROOT,
    Server,
    chromium_path,
    is_outside,
    start_site,
    wait_idle,
    wait_ready,
)

AXE = ROOT / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def site() -> Iterator[Server]:
    """The real site, every lesson with one preheated kernel; the bots at its tables wait
    0.2 s before a move (1 s by default, for people to follow them)."""
    server = start_site(pool=1, extra=["--bot-pause", "0.2"])
    try:
        wait_ready(server, {lesson["file"] for lesson in catalogue()})
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    path = chromium_path()
    if path is None:
        pytest.fail(NO_CHROMIUM, pytrace=False)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS))
        yield launched
        launched.close()


@pytest.fixture
def context(browser: Browser, site: Server) -> Iterator[BrowserContext]:
    """A fresh browser context, once the site is idle: a lesson used by an earlier test has its
    preheated kernel back and done running the notebook."""
    wait_idle(site)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    yield ctx
    ctx.close()


@dataclass
class Visit:
    """A page as loaded: the Playwright page, requests that left 127.0.0.1, page errors."""

    page: Page
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def open_page(context: BrowserContext, url: str, widgets: bool = True) -> Visit:
    """Load `url`, recording outside requests and errors; wait for its widgets to render."""
    page = context.new_page()
    visit = Visit(page)

    def on_request(request: Request) -> None:
        if is_outside(request.url):
            visit.outside.append(request.url)

    page.on("request", on_request)
    page.on("websocket", lambda ws: visit.outside.append(ws.url) if is_outside(ws.url) else None)
    page.on("pageerror", lambda error: visit.errors.append(str(error)))
    page.goto(url, wait_until="load", timeout=90_000)
    if widgets:
        page.wait_for_selector(".penang-kit", timeout=60_000)
        page.wait_for_timeout(300)
    return visit


def lesson_url(site: Server, file: str, query: str = "") -> str:
    return f"{site.url}voila/render/{file}{query}"


async def type_into_checker(learner: Learner, cards: str) -> tuple[str, str]:
    """Type `cards` into the page's first meld checker, as the browser sends a text box's
    value; (verdict before, verdict after)."""
    checker = learner.find(cls="penang-checker")[0]
    inside = learner.inside(checker)
    text = next(m for m in inside if m.name == "TextModel")
    verdict = next(m for m in inside if "penang-verdict" in m.classes)
    before = str(verdict.state.get("value", ""))
    learner.send(
        "comm_msg",
        {"comm_id": text.id, "data": {"method": "update", "state": {"value": cards}}},
    )
    await learner.settle(1.0)
    return before, str(verdict.state.get("value", ""))
