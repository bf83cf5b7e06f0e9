"""The table service over a real websocket (`penang_lib.site.tables`), in-process on tornado:
two people create and join a table, bots fill the other seats and play by themselves, every move
reaches every seat, and an oversized message is refused with a sentence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tornado.testing import AsyncHTTPTestCase, gen_test
from tornado.web import Application
from tornado.websocket import WebSocketClientConnection, websocket_connect

from penang_lib.site.tables import TABLES_PATH, TableService, TablesSocket
from penang_lib.tables.journal import Journal
from penang_lib.tables.protocol import MAX_MESSAGE


class ServiceTest(AsyncHTTPTestCase):
    def get_app(self) -> Application:
        return Application([(f"/{TABLES_PATH}", TablesSocket, {"service": self.service})])

    def setUp(self) -> None:
        import tempfile

        self._tmp = tempfile.TemporaryDirectory()
        self.path = Path(self._tmp.name) / "tables.sqlite"
        self.service = TableService(Journal(self.path), pause=0)
        super().setUp()
        self.io_loop.add_callback(self.service.start)

    def tearDown(self) -> None:
        super().tearDown()
        self._tmp.cleanup()

    async def connect(self) -> WebSocketClientConnection:
        return await websocket_connect(self.get_url(f"/{TABLES_PATH}").replace("http", "ws"))

    @staticmethod
    async def until(socket: WebSocketClientConnection, kind: str, **fields: Any) -> dict[str, Any]:
        for _ in range(20_000):
            text = await socket.read_message()
            assert isinstance(text, str), "the service closed the connection"
            message: dict[str, Any] = json.loads(text)
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message
        raise AssertionError(f"no {kind} message")

    @gen_test(timeout=120)
    async def test_two_people_and_two_bots_play_a_deal_to_its_end(self) -> None:
        ana, bo = await self.connect(), await self.connect()
        await ana.write_message(json.dumps({"type": "create", "players": 4, "name": "Ana"}))
        made = await self.until(ana, "joined")
        await bo.write_message(json.dumps({"type": "join", "table": made["table"], "name": "Bo"}))
        joined = await self.until(bo, "joined")
        sockets = {0: ana, 1: bo}
        tokens = {0: made["token"], 1: joined["token"]}
        await ana.write_message(json.dumps({"type": "start", "token": tokens[0]}))
        states = {p: await self.until(s, "state", started=True) for p, s in sockets.items()}
        for _ in range(2000):
            if any(s["over"] for s in states.values()):
                break
            turn = states[0]["turn"]
            if turn in sockets and states[turn].get("legal_moves"):
                move = states[turn]["legal_moves"][0]
                await sockets[turn].write_message(
                    json.dumps({"type": "move", "token": tokens[turn], "move": move})
                )
            # Every seat hears of each move (its own or a bot's) in a state of its own.
            states = {p: await self.until(s, "state") for p, s in sockets.items()}
            assert states[0]["hand_sizes"] == states[1]["hand_sizes"]
            assert states[0]["seat"] == 0 and states[1]["seat"] == 1
        else:
            raise AssertionError("the deal did not end")
        assert states[0]["scores"] == states[1]["scores"]
        table = self.service.tables.tables[made["table"]]
        back = Journal(self.path).load()
        assert back[0].state(None)["scores"] == table.state(None)["scores"]

    @gen_test(timeout=60)
    async def test_two_players_pressing_at_once_cannot_both_move(self) -> None:
        ana, bo = await self.connect(), await self.connect()
        await ana.write_message(json.dumps({"type": "create", "players": 2, "name": "Ana"}))
        made = await self.until(ana, "joined")
        await bo.write_message(json.dumps({"type": "join", "table": made["table"], "name": "Bo"}))
        joined = await self.until(bo, "joined")
        await ana.write_message(json.dumps({"type": "start", "token": made["token"]}))
        state = await self.until(ana, "state", started=True)
        turn = state["turn"]
        sockets = [(ana, made["token"]), (bo, joined["token"])]
        mine = state if turn == 0 else await self.until(bo, "state", started=True)
        move = mine["legal_moves"][0]
        # Both press the same move at the same instant: one is in turn, the other is not.
        for socket, token in sockets:
            socket.write_message(json.dumps({"type": "move", "token": token, "move": move}))
        refused = await self.until(sockets[1 - turn][0], "error")
        assert refused["rule"] == "table.turn"
        await self.until(sockets[turn][0], "state", actions=1)
        table = self.service.tables.tables[made["table"]]
        deal = table.deal
        assert deal is not None and [str(m) for m in deal.move_stack] == [move]

    @gen_test(timeout=30)
    async def test_an_oversized_message_is_refused_with_a_sentence(self) -> None:
        socket = await self.connect()
        await socket.write_message("x" * (MAX_MESSAGE + 1))
        error = await self.until(socket, "error")
        assert error["rule"] == "table.size" and str(MAX_MESSAGE) in error["message"]
        await socket.write_message(json.dumps({"type": "list"}))
        assert (await self.until(socket, "tables"))["tables"] == []
