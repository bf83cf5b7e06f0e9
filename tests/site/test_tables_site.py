"""The table service on the real site (`penang-rummy serve`): it prints its address once it
answers, and a client that knows nothing but that line plays on it (issue 32)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from playwright.sync_api import BrowserContext
from websockets.sync.client import connect

from penang_lib.site.serve import TABLES_PAGE, TOGETHER_PAGE
from tests.helpers.browser import axe_violations
from tests.helpers.tables import until
from tests.site.conftest import open_page
from tools.site_runner import Server, free_port, start, start_site, tables_address, wait_ready


def test_serve_prints_the_tables_address_once_it_answers(site: Server) -> None:
    address = tables_address(site)
    assert address.endswith(f":{site.url.split(':')[2].split('/')[0]}/penang/tables")
    assert sum(1 for line in site.log if line.startswith("Tables: ")) == 1


def test_a_client_plays_on_the_printed_address(site: Server) -> None:
    address = tables_address(site)
    with connect(address) as ana, connect(address) as bo:
        ana.send(json.dumps({"type": "create", "players": 3, "name": "Ana"}))
        made = until(ana, "joined")
        bo.send(json.dumps({"type": "join", "table": made["table"], "name": "<i>Bo</i>"}))
        assert until(bo, "error")["rule"] == "table.name"
        bo.send(json.dumps({"type": "join", "table": made["table"], "name": "Bo"}))
        joined = until(bo, "joined")
        ana.send(json.dumps({"type": "start", "token": made["token"]}))
        state = until(ana, "state", started=True)
        assert state["names"][:2] == ["Ana", "Bo"] and state["seats"][2]["kind"] == "bot"
        assert len(state["hand"]) == 25 and "hands" not in state  # three players hold 25
        seen = until(bo, "state", started=True)
        assert seen["seat"] == 1 and seen["hand"] != state["hand"]
        # Whoever is to play, the bot at seat 2 or a person, the table moves on and both hear it.
        people = {0: (ana, made["token"]), 1: (bo, joined["token"])}
        turn, states = state["turn"], {0: state, 1: seen}
        if turn in people:
            socket, token = people[turn]
            move = states[turn]["legal_moves"][0]
            socket.send(json.dumps({"type": "move", "token": token, "move": move}))
        after = until(ana, "state", actions=1)
        assert after["events"] and after["events"][-1]["text"].endswith(".")
        assert until(bo, "state", actions=1)["hand_sizes"] == after["hand_sizes"]


def test_a_server_killed_mid_deal_resumes_every_table_with_no_move_lost(tmp_path: Path) -> None:
    journal = tmp_path / "tables.sqlite"
    extra = ["--bot-pause", "0", "--tables-journal", str(journal)]
    server = start_site(pool=0, extra=extra)
    try:
        wait_ready(server, set())
        address = tables_address(server)
        with connect(address) as ana:
            ana.send(json.dumps({"type": "create", "players": 2, "name": "Ana"}))
            made = until(ana, "joined")
            ana.send(json.dumps({"type": "start", "token": made["token"]}))
            state = until(ana, "state", started=True)
            for _ in range(200):  # a few moves of Ana's and of the bot's
                if state["turn"] == 0 and state.get("legal_moves"):
                    move = state["legal_moves"][0]
                    ana.send(json.dumps({"type": "move", "token": made["token"], "move": move}))
                state = until(ana, "state")
                # Stop on Ana's turn (the bot then waits for her: nothing else is on its way).
                if (state["turn"] == 0 and len(state["melds"]) >= 3) or state["over"]:
                    break
    finally:
        server.process.kill()  # no goodbye: what was said must already be in the journal
        server.process.wait(timeout=20)
    again = start_site(pool=0, extra=extra)
    try:
        wait_ready(again, set())
        with connect(tables_address(again)) as ana:
            ana.send(json.dumps({"type": "resume", "table": made["table"], "token": made["token"]}))
            assert until(ana, "joined")["seat"] == 0
            back = until(ana, "state")
            for key in ("hand", "hand_sizes", "melds", "turn", "status", "over", "deal_number"):
                assert back[key] == state[key], key
    finally:
        again.stop()


def test_the_teachers_page_lists_the_tables_as_they_change(
    site: Server, context: BrowserContext
) -> None:
    address = tables_address(site)
    visit = open_page(context, site.url + TABLES_PAGE, widgets=False)
    page = visit.page
    status = page.locator("#status")
    with connect(address) as ana:
        ana.send(json.dumps({"type": "create", "players": 4, "name": "<Ana & Co>"}))
        assert until(ana, "error")["rule"] == "table.name"
        ana.send(json.dumps({"type": "create", "players": 4, "name": "Ana"}))
        made = until(ana, "joined")
        row = page.locator("#tables tbody tr", has_text=made["table"])
        row.wait_for()
        cells = row.locator("td")
        assert cells.nth(0).inner_text() == made["table"]
        assert cells.nth(1).inner_text().startswith("Ana, (empty seat)")
        assert "Waiting for players to start" in cells.nth(2).inner_text()
        watch = cells.nth(4).locator("a")
        href = watch.get_attribute("href") or ""
        assert href.endswith(f"{TOGETHER_PAGE}?table={made['table']}&watch=1")
        ana.send(json.dumps({"type": "start", "token": made["token"]}))
        page.wait_for_function(
            "code => [...document.querySelectorAll('#tables tbody tr')].some("
            "r => r.textContent.includes(code) && r.textContent.includes('West (bot)'))",
            arg=made["table"],
        )
        assert "(bot) (bot)" not in row.inner_text()
        page.wait_for_function(
            "code => [...document.querySelectorAll('#tables tbody tr')].some("
            "r => r.textContent.includes(code) && r.textContent.includes('Deal 1'))",
            arg=made["table"],
        )
        assert "Tables open:" in status.inner_text()
    assert axe_violations(page) == []
    assert visit.outside == [] and visit.errors == []


def test_the_service_on_its_own_for_a_hub_answers_under_the_hubs_prefix(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "JUPYTERHUB_SERVICE_PREFIX": "/services/penang-tables/"}
    command = [sys.executable, "-m", "penang_lib.site.tables_service", "--port", str(port)]
    command += ["--journal", str(tmp_path / "hub.sqlite"), "--bot-pause", "0"]
    server = start(command, port, env=env)
    try:
        address = tables_address(server)
        assert address == f"ws://127.0.0.1:{port}/services/penang-tables/penang/tables"
        with connect(address) as ana:
            ana.send(json.dumps({"type": "create", "players": 2, "name": "Ana"}))
            assert until(ana, "joined")["seat"] == 0
        assert (tmp_path / "hub.sqlite").exists()
    finally:
        server.stop()
