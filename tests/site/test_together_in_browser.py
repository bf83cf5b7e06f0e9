"""The Play together page in a real browser (issue 32): two browser contexts, two people, start
a table and join it, bots in the other seats; each sees only their own hand; one reloads from
their own link mid-deal and gets their seat back; the deal, played on to its end through the
service by the same seats' tokens, ends on both pages with every hand shown and a link to each
seat's own review; a name with markup is refused and never drawn as HTML; the teacher's page
lists the table; no request leaves 127.0.0.1."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Browser, BrowserContext, Page
from websockets.sync.client import ClientConnection, connect

from penang_lib.site.serve import TABLES_PAGE, TOGETHER_PAGE
from tests.helpers.browser import axe_violations
from tests.helpers.tables import until
from tests.helpers.together import hand, join_and_start
from tests.site.conftest import lesson_url, open_page
from tools.site_runner import Server, tables_address

HOSTILE_NAME = "<img src=x onerror=q9=1>"
"""A name (of 24 characters, the most a name may have) that would run a script setting
`window.q9`, if a page ever drew it as HTML."""


def latest(line: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    """The last state the line was sent so far (`state` if none came), waiting a little."""
    while True:
        try:
            message = json.loads(line.recv(timeout=0.3))
        except TimeoutError:
            return state
        if message["type"] == "state":
            state = message


def own_link(page: Page) -> str:
    link = page.locator("div.penang-summary a", has_text="your seat")
    link.wait_for(timeout=60_000)
    return link.get_attribute("href") or ""


def test_two_people_play_one_table_from_two_browsers(
    site: Server, browser: Browser, context: BrowserContext
) -> None:
    other = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        ana_visit = open_page(context, lesson_url(site, TOGETHER_PAGE))
        ana = ana_visit.page
        ana.get_by_label("Your name").fill("Ana")
        ana.get_by_role("button", name="Start a table").click()
        ana.locator("div.penang-summary", has_text="Table code:").wait_for(timeout=60_000)
        summary = ana.locator("div.penang-summary").inner_text()
        code = re.search(r"Table code: ([A-Z0-9]{5})", summary)
        assert code, summary
        table = code.group(1)
        bo_visit = open_page(other, lesson_url(site, TOGETHER_PAGE, f"?table={table}"))
        bo = bo_visit.page
        # A name with markup is refused in one sentence, and nothing of it runs or is drawn.
        bo.get_by_label("Your name").fill(HOSTILE_NAME)
        bo.get_by_role("button", name="Join").click()
        bo.get_by_text("no angle brackets").wait_for(timeout=60_000)
        assert bo.get_by_label("Your name").input_value() == HOSTILE_NAME
        assert bo.evaluate("() => typeof window.q9 === 'undefined'")
        assert bo.locator("img[src='x']").count() == 0
        join_and_start(ana, bo, table)
        bo_cards = hand(bo)
        # Bo reloads from his own link: the same seat, the same hand.
        link = own_link(bo)
        token = parse_qs(urlparse(link).query)["token"][0]
        bo_visit = open_page(other, lesson_url(site, TOGETHER_PAGE, "?" + urlparse(link).query))
        bo = bo_visit.page
        bo.locator(".penang-together .penang-hand button").first.wait_for(timeout=60_000)
        assert hand(bo) == bo_cards
        tokens = {0: parse_qs(urlparse(own_link(ana)).query)["token"][0], 1: token}
        # The rest of the deal, played for both seats through the service (the same seats'
        # tokens), with the bots: both pages follow it to its end.
        with connect(tables_address(site)) as one, connect(tables_address(site)) as two:
            lines = {0: one, 1: two}
            states = {}
            for seat, line in lines.items():
                line.send(json.dumps({"type": "resume", "table": table, "token": tokens[seat]}))
                until(line, "joined")
                states[seat] = until(line, "state")
            for _ in range(3000):
                states = {seat: latest(line, states[seat]) for seat, line in lines.items()}
                state = states[0]
                if state["over"]:
                    break
                turn = state["turn"]
                mine = states.get(turn)
                if mine is not None and mine["turn"] == turn and mine.get("legal_moves"):
                    move = mine["legal_moves"][0]
                    lines[turn].send(
                        json.dumps({"type": "move", "token": tokens[turn], "move": move})
                    )
                    states[turn] = until(lines[turn], "state")
        assert state["over"]
        for page in (ana, bo):
            page.get_by_role("button", name="Deal again").wait_for(timeout=60_000)
            assert "Ana" in page.locator(".penang-scores").inner_text()
            review = page.get_by_role("link", name="Review this deal from your seat")
            assert (review.get_attribute("href") or "").startswith("08_play.ipynb?review=")
        teacher = open_page(context, site.url + TABLES_PAGE, widgets=False).page
        teacher.locator("#tables tbody tr", has_text=table).wait_for(timeout=60_000)
        for visit in (ana_visit, bo_visit):
            assert visit.outside == [] and visit.errors == []
        assert axe_violations(ana) == [] and axe_violations(bo) == []
    finally:
        other.close()
