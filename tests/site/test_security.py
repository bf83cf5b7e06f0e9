"""The real `penang-rummy serve` against what a curious or careless learner could send it.

Each check talks to the server the way a page does (HTTP, and the widget protocol over the
kernel's websocket, through `tools.learners.Learner`), with a positive control beside it
where one is possible, so that a check that could not fail would show.
"""

from __future__ import annotations

import http.client
import re
import uuid
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pytest
from tornado.httpclient import HTTPClientError

from penang_lib import Card, Deal
from penang_lib.site.serve import catalogue
from penang_lib.widgets.controls import Control, label
from penang_lib.widgets.lessons import lesson_data
from tests.site.conftest import type_into_checker
from tools.learners import Learner, run_sync
from tools.site_runner import Server, wait_idle

T = TypeVar("T")
TIMEOUT = 90.0


def raw_get(site: Server, path: str) -> tuple[int, bytes]:
    """GET exactly `path` (no client-side normalising of `..` or `%2e`)."""
    parts = urlsplit(site.url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.endheaders()
        reply = connection.getresponse()
        return reply.status, reply.read()
    finally:
        connection.close()


async def opened(site: Server, lesson: str) -> Learner:
    learner = Learner(site.url, timeout=TIMEOUT)
    await learner.open(f"voila/render/{lesson}")
    return learner


# -- the kernel runs no code from the page -----------------------------------------------------
def test_code_sent_over_the_kernel_websocket_is_not_run(site: Server, tmp_path: Path) -> None:
    marker = tmp_path / f"ran-{uuid.uuid4().hex}"

    async def scenario() -> tuple[list[str], bool]:
        learner = await opened(site, "02_melds.ipynb")
        try:
            code = f"open({str(marker)!r}, 'w').write('ran')"
            learner.send("execute_request", {"code": code, "silent": False})
            learner.send("inspect_request", {"code": "open", "cursor_pos": 4})
            learner.send("complete_request", {"code": "import o", "cursor_pos": 8})
            # Positive control: the same socket still reaches the widgets.
            before, after = await type_into_checker(learner, "KH AH 2H")
            kinds = [str(m.get("header", {}).get("msg_type")) for m in learner.replies]
            return kinds, after != before and "corner" in after
        finally:
            await learner.shutdown()

    kinds, widgets_answered = run_sync(scenario())
    assert widgets_answered, "the control failed: the checker did not answer over the socket"
    assert not marker.exists()
    assert not {"execute_reply", "inspect_reply", "complete_reply", "execute_result"} & set(kinds)


# -- files: nothing but the pages and their assets ---------------------------------------------
SECRETS = (
    b'"cells"',  # a notebook
    b"get_config()",  # penang_lib/site/settings.py
    b"[project]",  # pyproject.toml
    b"import ",  # any Python source
    b"root:",  # /etc/passwd
    b"[core]",  # .git/config
)
LESSON = catalogue()[0]["file"]
PROBES = [
    f"/voila/files/{LESSON}",
    "/voila/files/data/08_play.json",
    "/voila/files/.git/config",
    "/voila/files/../../pyproject.toml",
    "/voila/files/%2e%2e/%2e%2e/pyproject.toml",
    "/voila/files/..%2f..%2fpyproject.toml",
    "/voila/files/..%5c..%5cpyproject.toml",
    "/voila/files/%252e%252e/%252e%252e/pyproject.toml",
    "/voila/static/../../../../etc/passwd",
    "/voila/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/voila/static/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/voila/templates/penang/../../../voila.py",
    "/voila/templates/penang/%2e%2e/%2e%2e/%2e%2e/voila.py",
    "/voila/templates/penang/%2e%2e/%2e%2e/%2e%2e/penang_site.py",
    "/voila/templates/penang/conf.json/../../../../../pyproject.toml",
    "/static/../pyproject.toml",
    "/static/%2e%2e/pyproject.toml",
    "/api/contents",
    f"/api/contents/{LESSON}",
    "/api/contents/data/08_play.json?content=1",
    "/files/pyproject.toml",
    "/tree",
    "/notebooks/" + LESSON,
    "/voila/render/../../pyproject.toml",
    "/voila/render/%2e%2e/%2e%2e/penang_lib/site/settings.py",
    "/voila/render/.ipynb_checkpoints/x.ipynb",
]


@pytest.mark.parametrize("path", PROBES)
def test_no_source_data_dotfile_or_outside_path_is_served(site: Server, path: str) -> None:
    status, body = raw_get(site, path)
    leaked = [secret for secret in SECRETS if secret in body]
    assert status != 200 or not leaked, f"{path} answered {status} with {leaked}"


def test_the_pages_own_assets_are_still_served(site: Server) -> None:
    """The control for the probes above: the same handlers do serve what pages need."""
    assert raw_get(site, "/voila/static/voila.js")[0] == 200
    assert raw_get(site, "/")[0] == 200
    status, body = raw_get(site, f"/voila/render/{LESSON}")
    assert status == 200 and b"penang" in body


# -- what a page holds ----------------------------------------------------------------------
def test_a_failing_callback_sends_no_traceback_and_no_source(site: Server) -> None:
    """Values no page would send (a string for the stepper's slider, a step far past the end)
    reach the kernel's callbacks: nothing it sends back holds a traceback or code."""

    async def scenario() -> tuple[str, bool]:
        learner = await opened(site, "07_whole_deal.ipynb")
        try:
            stepper = learner.find(cls="penang-stepper")[0]
            inside = learner.inside(stepper)
            slider = next(m for m in inside if m.name == "IntSliderModel")
            texts_before = len(learner.texts())
            for value in ("abc", 10**9, -5, None, [1, 2]):
                learner.send(
                    "comm_msg",
                    {"comm_id": slider.id, "data": {"method": "update", "state": {"value": value}}},
                )
            await learner.settle(1.5)
            everything = " ".join(learner.texts()) + " ".join(
                str(m.get("content")) for m in learner.replies
            )
            return everything, len(learner.texts()) >= texts_before
        finally:
            await learner.shutdown()

    everything, still_whole = run_sync(scenario())
    assert still_whole
    assert "Traceback" not in everything
    assert not re.search(r'File "[^"]+\.py", line \d+', everything)
    # Source lines, not the letters "def" that end a widget's random hex id ("...972def IPY_").
    assert not re.search(r"\bdef \w+\(", everything)
    assert not re.search(r"\b(?:import \w|from \w[\w.]* import )", everything)


def hidden_cards(deal: Deal, seat: int) -> set[Card]:
    """Cards in the other hands that the learner cannot see anywhere (not in their own hand,
    not on the table, in any copy)."""
    public = {c.plain for meld in deal.table for c in meld.cards} | set(deal.hand(seat))
    return {
        card
        for p in range(deal.players)
        if p != seat
        for card in deal.hand(p)
        if not card.is_joker and card not in public
    }


def shown(texts: list[str], cards: set[Card]) -> set[Card]:
    """Which of `cards` appear in the texts, as symbol, notation or name."""
    text = " ".join(texts)
    found = set()
    for card in cards:
        notation = re.compile(rf"(?<![A-Za-z0-9]){re.escape(str(card))}(?![A-Za-z0-9])")
        if card.symbol in text or card.name in text or notation.search(text):
            found.add(card)
    return found


def test_the_play_page_holds_no_hidden_card_in_any_synced_trait(site: Server) -> None:
    """The play table's widgets, as the page holds them (the quiz below it shows cards of its
    own questions, which hide nothing)."""
    data = lesson_data("08_play")
    deal = Deal(players=4, seed=data["seed"], dealer=data["dealer"])
    seat = data["seat"]
    hidden = hidden_cards(deal, seat)
    own = set(deal.hand(seat)) - {c for c in deal.hand(seat) if c.is_joker}
    assert hidden

    async def scenario() -> list[list[str]]:
        learner = await opened(site, "08_play.ipynb")
        try:
            table = learner.find(cls="penang-play")[0]
            inside = learner.inside(table)
            buttons = {str(m.state.get("description")): m for m in inside}
            message = next(m for m in inside if "penang-message" in m.classes)
            seen = [learner.texts(inside)]
            await learner.click(buttons[label(Control.HINT)], message)
            await learner.settle(0.5)
            seen.append(learner.texts(inside))
            return seen
        finally:
            await learner.shutdown()

    for texts in run_sync(scenario()):
        assert shown(texts, own), "the control failed: the learner's own cards were not found"
        assert shown(texts, hidden) == set()


# -- one learner's kernel is theirs ------------------------------------------------------------
def test_another_learners_kernel_id_opens_nothing(site: Server) -> None:
    wait_idle(site)

    async def scenario() -> dict[str, Any]:
        owner = await opened(site, "02_melds.ipynb")
        other = Learner(site.url, timeout=TIMEOUT)
        await other.fetch("")  # the landing page: the other learner has cookies of their own
        out: dict[str, Any] = {"cookies": dict(other.cookies)}
        try:
            try:
                await other.connect(owner.kernel_id)
                out["socket"] = "open"
            except HTTPClientError as error:
                out["socket"] = error.code
            out["api"] = (await other.fetch(f"api/kernels/{owner.kernel_id}"))[0]
            out["delete"] = (await other.fetch(f"api/kernels/{owner.kernel_id}", "DELETE"))[0]
            out["shutdown"] = (await other.fetch(f"voila/api/shutdown/{owner.kernel_id}", "POST"))[
                0
            ]
            out["unknown"] = (await other.fetch(f"api/kernels/{uuid.uuid4()}"))[0]
            out["list"] = (await other.fetch("api/kernels"))[0]
            out["sessions"] = (await other.fetch("api/sessions"))[0]
            # The owner's page still works after all that, and its own calls are answered.
            out["owner_api"] = (await owner.fetch(f"api/kernels/{owner.kernel_id}"))[0]
            before, after = await type_into_checker(owner, "KH AH 2H")
            out["owner_works"] = after != before and "corner" in after
        finally:
            await owner.shutdown()
            await other.close()
        return out

    out = run_sync(scenario())
    assert "penang_learner" in out["cookies"]
    assert out["socket"] == 403
    assert out["api"] == 403
    assert out["delete"] == 403
    assert out["shutdown"] == 403
    assert out["unknown"] == 404
    assert out["list"] in (404, 405)
    assert out["sessions"] in (404, 405)
    assert out["owner_api"] == 200
    assert out["owner_works"]
