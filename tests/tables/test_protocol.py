"""The tables' protocol (`penang_lib.tables.protocol`), spoken as a client would, without a
network: create, join, resume, watch, start, move, again and list; every refusal is one
`error` message that changes nothing; each seat is sent only what it may see."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from penang_lib.tables.codes import read_code
from penang_lib.tables.protocol import FLOOD_BURST, MAX_MESSAGE, Client, Tables
from tests.tables.helpers import Clock


class Line:
    """A client's end of the line: what it was sent, in order."""

    def __init__(self, tables: Tables) -> None:
        self.got: list[dict[str, Any]] = []
        self.client: Client = tables.connect(self.got.append)
        self.tables = tables

    def say(self, **message: Any) -> dict[str, Any]:
        """Send `message`; the first answer addressed to this client after it."""
        before = len(self.got)
        self.tables.receive(self.client, json.dumps(message))
        assert len(self.got) > before, f"no answer to {message}"
        return self.got[before]

    def last(self, kind: str) -> dict[str, Any]:
        return next(m for m in reversed(self.got) if m["type"] == kind)


@pytest.fixture
def tables() -> Tables:
    return Tables(clock=Clock(), rng=random.Random(3))


def opened(tables: Tables, players: int = 4) -> tuple[Line, Line, dict[str, Any], dict[str, Any]]:
    ana, bo = Line(tables), Line(tables)
    made = ana.say(type="create", players=players, name="Ana")
    joined = bo.say(type="join", table=made["table"].lower(), name="Bo")
    return ana, bo, made, joined


def test_create_and_join_answer_joined_with_a_seat_and_a_token(tables: Tables) -> None:
    ana, _bo, made, joined = opened(tables)
    assert made["type"] == joined["type"] == "joined"
    assert read_code(made["table"]) == made["table"] and joined["table"] == made["table"]
    assert (made["seat"], joined["seat"]) == (0, 1) and made["token"] != joined["token"]
    # Everyone at the table hears who sat down.
    assert ana.last("state")["names"] == ["Ana", "Bo", None, None]


def test_start_move_and_the_state_each_seat_is_sent(tables: Tables) -> None:
    ana, bo, made, joined = opened(tables)
    tokens = {0: made["token"], 1: joined["token"]}
    lines = {0: ana, 1: bo}
    ana.say(type="start", token=made["token"], bots={"2": "greedy"})
    table = tables.tables[made["table"]]
    assert table.started and table.seats[2] is not None and table.seats[2].bot == "greedy"
    deal = table.deal
    assert deal is not None
    for _ in range(400):
        while table.bot_due() is not None and not deal.is_over:
            table.play_bot()
            tables.broadcast(table)
        if deal.is_over:
            break
        seat = deal.turn
        state = lines[seat].last("state")
        assert state["turn"] == seat and state["legal_moves"]
        lines[seat].say(type="move", token=tokens[seat], move=state["legal_moves"][0])
        for p, line in lines.items():
            got = line.last("state")
            assert got["seat"] == p and got["hand_sizes"] == [deal.hand_size(q) for q in range(4)]
            assert ("legal_moves" in got) == (not deal.is_over and deal.turn == p)
    else:
        pytest.fail("the deal did not end")
    end = bo.last("state")
    assert end["over"] and end["scores"] == deal.scores and len(end["hands"]) == 4
    ana.say(type="again", token=tokens[0])
    assert ana.last("state")["deal_number"] == 2


def test_resume_gives_the_same_seat_back_and_a_spectator_sees_no_hand(tables: Tables) -> None:
    ana, bo, made, joined = opened(tables)
    ana.say(type="start", token=made["token"])
    tables.disconnect(bo.client)
    table = tables.tables[made["table"]]
    seat = table.seats[1]
    assert seat is not None and not seat.connected
    assert ana.last("state")["seats"][1]["connected"] is False
    again = Line(tables)
    back = again.say(type="resume", table=made["table"], token=joined["token"])
    assert back == {**joined, "type": "joined"}
    assert seat.connected and again.last("state")["seat"] == 1
    watcher = Line(tables)
    seen = watcher.say(type="watch", table=made["table"])
    assert seen["seat"] is None and seen["hand"] == [] and "legal_moves" not in seen


def test_the_teachers_list_names_every_open_table(tables: Tables) -> None:
    teacher = Line(tables)
    assert teacher.say(type="list") == {"type": "tables", "tables": []}
    _ana, _bo, made, _joined = opened(tables, players=3)
    listing = teacher.last("tables")["tables"]
    assert [t["table"] for t in listing] == [made["table"]]
    assert listing[0]["names"] == ["Ana", "Bo", None] and listing[0]["deal_number"] == 0


BAD: list[tuple[Any, str]] = [
    ("{not json", "table.message"),
    ("[1, 2]", "table.message"),
    (json.dumps({"type": "dance"}), "table.message"),
    (json.dumps({"type": "join", "table": "ZZZZZ", "name": "Cy"}), "table.code"),
    (json.dumps({"type": "join", "table": "<img src=x>", "name": "Cy"}), "table.code"),
    (json.dumps({"type": "create", "players": 9, "name": "Cy"}), "table.players"),
    (json.dumps({"type": "create", "players": True, "name": "Cy"}), "table.players"),
    (json.dumps({"type": "create", "players": 4, "name": ""}), "table.name"),
    (json.dumps({"type": "create", "players": 4, "name": "<b>x</b>"}), "table.name"),
    (json.dumps({"type": "resume", "table": "ZZZZZ", "token": "x"}), "table.code"),
    ("x" * (MAX_MESSAGE + 1), "table.size"),
    (b"{}", "table.message"),
]


@pytest.mark.parametrize(("text", "rule"), BAD)
def test_bad_input_is_one_error_and_changes_nothing(tables: Tables, text: Any, rule: str) -> None:
    line = Line(tables)
    tables.receive(line.client, text)
    assert len(line.got) == 1
    error = line.got[0]
    assert error["type"] == "error" and error["rule"] == rule
    assert error["message"].endswith(".") and "<" not in error["message"]
    assert tables.tables == {}


def test_a_forged_or_another_seats_token_is_refused(tables: Tables) -> None:
    _ana, bo, made, joined = opened(tables)
    assert bo.say(type="start", token=joined["token"], table=made["table"])["rule"] == "table.start"
    assert bo.say(type="start", token="forged", table=made["table"])["rule"] == "table.token"
    wrong = Line(tables).say(type="resume", table=made["table"], token="forged")
    assert wrong["rule"] == "table.token"
    assert not tables.tables[made["table"]].started


def test_a_full_or_started_table_is_refused(tables: Tables) -> None:
    ana, _bo, made, _joined = opened(tables, players=2)
    assert Line(tables).say(type="join", table=made["table"], name="Cy")["rule"] == "table.full"
    ana.say(type="start", token=made["token"])
    late = Line(tables).say(type="join", table=made["table"], name="Cy")
    assert late["rule"] == "table.started"


def test_a_flood_of_messages_is_refused_until_the_pace_drops() -> None:
    clock = Clock()
    tables = Tables(clock=clock)
    line = Line(tables)
    for _ in range(FLOOD_BURST):
        line.say(type="list")
    assert line.say(type="list")["rule"] == "table.flood"
    clock.advance(1)
    assert line.say(type="list")["type"] == "tables"


def test_a_dropped_seat_passes_to_a_bot_after_the_wait_and_back_on_resume() -> None:
    clock = Clock()
    tables = Tables(clock=clock, rng=random.Random(8))
    ana, bo, made, joined = opened(tables, players=2)
    ana.say(type="start", token=made["token"])
    table = tables.tables[made["table"]]
    tables.disconnect(bo.client)
    assert ana.last("state")["seats"][1]["connected"] is False
    clock.advance(59)
    tables.tick()
    assert ana.last("state")["seats"][1]["standing_in"] is False
    clock.advance(1)
    due = tables.tick()
    assert ana.last("state")["seats"][1] == {
        "name": "Bo",
        "kind": "person",
        "bot": "careful",
        "connected": False,
        "standing_in": True,
    }
    deal = table.deal
    assert deal is not None
    assert (table in due) == (deal.turn == 1)
    back = Line(tables)
    back.say(type="resume", table=made["table"], token=joined["token"])
    seat = back.last("state")["seats"][1]
    assert seat["connected"] and not seat["standing_in"] and seat["bot"] is None
