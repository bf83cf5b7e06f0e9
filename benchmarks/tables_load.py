"""Tables of people playing together, against the goals of issue 32:
`python -m benchmarks.load --tables 15` (or `python -m benchmarks.tables_load --tables 15`).

The benchmark speaks the tables' protocol (docs/TABLES.md) as the kit's page does, one websocket
per person, all from this process on one asyncio loop:

- **arriving**: the tables' creators arrive within `--spread` seconds (seeded). Each one opens a
  connection and sends `create` for `--players` seats; the others open theirs within `--spread`
  seconds of the code being known and send `join` with it. Joining is timed from the `create`
  or `join` sent to the `joined` received (connecting is timed apart). Once every seat is taken,
  the creator sends `start`: every seat is a person, so no bot plays.
- **phase 1, a reader's pace**: on each state where it is their turn (`legal_moves` given), a
  person thinks `--pace LOW HIGH` seconds (uniform, seeded per seat), then plays one of the
  legal moves (`choose`: Game, Dead, else now and then the end of the turn, else the longest
  meld, a lay-off, the end of the turn, a swap). Every table plays `--deals` deals; when a deal
  is over the creator sends `again`. Once every table is through phase 1, phase 2 starts.
- **phase 2, as fast as they can**: `--deals` more deals, with no thinking at all.

A move's **echo** is the time from the move being sent to the moment every other seat of that
table has received the state that shows it. A state carries no move number, so each state is
known by its key: what every seat sees alike in it (the deal number, the turn, the actions, the
hand sizes, the melds, the passports, the standings, whether it is over, the last events),
which changes with every move and never comes back within a deal. The first state the mover
receives after its move gives the move's key; each connection has a task of its own that notes
the moment each key arrives, as the message comes off the socket, apart from the play. Every
echo of every move is measured, one per other seat; a move's echo is its slowest seat's.

**Lost moves**: the moves the service answered (the mover received the next state) are compared,
table by table, with the moves in the service's journal (its SQLite file, read once the deals
are over): 0 lost is every answered move in the journal. **Errors**: every `error` message, and
anything that went wrong on the people's side (a closed connection, a table silent for
`--timeout` seconds, a deal past `MAX_MOVES` moves, a move never answered).

The service runs twice (`--service both`, the default):

- **site**: inside `penang-rummy serve --pool 1 --bot-pause 0`, the whole site, which also
  serves its landing page every few seconds during the run. Its memory is that server's process
  (Voila with the service; the kernels are processes of their own), before the tables and with
  them all still seated, the difference being what the tables cost.
- **alone**: `python -m penang_lib.site.tables_service`, the hub's deployment: its process's
  memory is the service's own.

Memory is USS (`tools.load.memory_mb`), sampled every second too for the peak. Figures only,
each beside its goal: nothing here asserts a time. Exit status 1 when an error happened or a
move was lost, else 0 (a missed goal too). `tests/site/test_tables_load.py` runs it at two
small tables in `make test`, checking the behaviour.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]
from websockets.asyncio.client import ClientConnection, connect

from benchmarks.load import Figures, Goal, shown, summary
from penang_lib.site.serve import catalogue
from penang_lib.tables.protocol import FLOOD_BURST, FLOOD_RATE
from tools.load import cpu_seconds, memory_mb, percentile
from tools.site_runner import Server, free_port, start, start_site, tables_address, wait_ready

READER = (1.0, 3.0)
"""Seconds a person thinks before a move, at a reader's pace."""
MAX_MOVES = 600
"""Moves in one deal at most: past that a table counts as an error (a deal of four people with
`choose` takes about 55)."""
MOST_TABLES = 40
LANDING_EVERY = 5.0
"""Seconds between two fetches of the site's landing page while the tables play."""
PROGRESS_EVERY = 15.0
"""Seconds between two progress lines while the tables play."""
BURST = FLOOD_BURST - 5
RATE = FLOOD_RATE * 0.8
"""A person's own pace limit, kept under the service's flood limit (30 at once, then 10 a
second), so that a fast table is never refused for its pace."""
KEY_FIELDS = (
    "deal_number",
    "turn",
    "actions",
    "hand_sizes",
    "melds",
    "passport",
    "status",
    "over",
    "events",
)
"""What every seat of a table sees alike in a state: together, a state's key."""

GOALS = {
    "echo_reader": Goal("a move's echo to every other seat, at a reader's pace: p95", 0.150, "s"),
    "echo_fast": Goal("a move's echo to every other seat, as fast as they can: p95", 0.300, "s"),
    "join": Goal("joining a table (create or join, to joined): p95", 1.0, "s"),
    "errors": Goal("errors", 0, ""),
    "lost": Goal("lost moves", 0, ""),
    "memory": Goal("the service's memory with the tables seated (USS)", 150, "MB"),
}

Say = Callable[[str], None]


def say_now(line: str) -> None:
    print(line, flush=True)


def quiet(line: str) -> None:
    """Progress lines nobody reads (the test's)."""


@dataclass(frozen=True)
class Plan:
    """What to play: `tables` tables of `players` people, `deals` deals in each phase."""

    tables: int = 15
    players: int = 4
    deals: int = 1
    pace: tuple[float, float] = READER
    seed: int = 0
    spread: float = 2.0
    timeout: float = 60.0

    @property
    def total_deals(self) -> int:
        return 2 * self.deals

    def phase(self, deal_number: int) -> int:
        """1 for a deal played at a reader's pace, 2 for one played as fast as they can."""
        return 1 if deal_number <= self.deals else 2


@dataclass
class Sent:
    """One move as its player sent it, and when the service answered it."""

    seat: int
    deal: int
    text: str
    sent_at: float = 0.0
    key: str | None = None
    """The key of the state that answered it (None until then)."""
    answered_at: float | None = None
    refused: bool = False


@dataclass
class Ledger:
    """One table, as its people heard it."""

    index: int
    players: int
    code: str = ""
    receipts: dict[str, dict[int, float]] = field(default_factory=dict)
    """When each seat first received each state, by the state's key."""
    moves: list[Sent] = field(default_factory=list)
    deals_over: list[int] = field(default_factory=list)
    held: bool = False
    """Waiting for the other tables between the phases (nobody's silence is then an error)."""
    failed: bool = False

    def moves_in(self, deal: int) -> int:
        return sum(1 for s in self.moves if s.deal == deal and not s.refused)


@dataclass
class Played:
    """What one run measured, with its problems."""

    plan: Plan
    ledgers: list[Ledger]
    connects: list[float] = field(default_factory=list)
    joins: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    flood_waits: int = 0
    phase_seconds: list[float] = field(default_factory=list)
    echoes: dict[int, list[float]] = field(default_factory=lambda: {1: [], 2: []})
    """Each answered move's echo (to the slowest other seat), by phase."""
    answers: list[float] = field(default_factory=list)
    """From a move sent to its mover receiving the new state."""
    echo_pairs: int = 0
    """(move, other seat) pairs whose echo was measured."""
    missing_echoes: int = 0
    answered: int = 0
    lost: int = 0
    unheard: int = 0
    """Moves in the journal that no person heard answered."""
    memory_before: float = 0.0
    memory_peak: float = 0.0
    memory_live: float = 0.0
    landing: list[float] = field(default_factory=list)
    cpu: str = ""

    @property
    def deals_ended(self) -> int:
        return sum(len(ledger.deals_over) for ledger in self.ledgers)


class Broken(Exception):
    """Something went wrong for one person: their table stops, counted as an error."""


class Stopped(Exception):
    """Another person of the table met an error: this one stops too, without another count."""


class Barrier:
    """Where the tables wait for each other between the two phases."""

    def __init__(self, parties: int) -> None:
        self.left = set(range(parties))
        self.event = asyncio.Event()
        self.opened_at = 0.0

    def arrive(self, index: int) -> None:
        self.left.discard(index)
        if not self.left and not self.event.is_set():
            self.opened_at = time.perf_counter()
            self.event.set()


def state_key(state: dict[str, Any]) -> str:
    """What every seat of the table sees alike in `state`, as one string (see the docstring)."""
    return json.dumps([state.get(name) for name in KEY_FIELDS], separators=(",", ":"))


def choose(moves: Sequence[str], rng: random.Random) -> str:
    """One of the legal `moves` (text), by a policy that ends a deal in a few dozen moves: Game
    or Dead when they are the move, else the end of the turn one time in two once it is allowed,
    else the longest meld, a lay-off, the end of the turn, a swap."""
    if "game" in moves:
        return "game"
    if "dead" in moves:
        return "dead"
    if "end_turn" in moves and rng.random() < 0.5:
        return "end_turn"
    melds = [m for m in moves if m.startswith("meld ")]
    if melds:
        longest = max(len(m.split()) for m in melds)
        return rng.choice([m for m in melds if len(m.split()) == longest])
    for kind in ("lay_off ", "end_turn", "swap "):
        options = [m for m in moves if m.startswith(kind)]
        if options:
            return rng.choice(options)
    return moves[0]


class Person:
    """One person at one table: a websocket of their own, a task that notes when each message
    arrives, and the play itself."""

    def __init__(
        self, ledger: Ledger, number: int, plan: Plan, played: Played, barrier: Barrier, say: Say
    ) -> None:
        self.ledger = ledger
        self.number = number
        """Who this is at the table (0: the creator); the seat comes with `joined`."""
        self.plan = plan
        self.played = played
        self.barrier = barrier
        self.say = say
        self.rng = random.Random(f"{plan.seed}:{ledger.index}:{number}")
        self.queue: asyncio.Queue[tuple[float, dict[str, Any] | None]] = asyncio.Queue()
        self.socket: ClientConnection | None = None
        self.reading: asyncio.Task[None] | None = None
        self.token = ""
        self.allowance = float(BURST)
        self.checked = time.monotonic()

    @property
    def name(self) -> str:
        return f"table {self.ledger.index + 1} ({self.ledger.code or 'no code yet'}), " + (
            "its creator" if self.number == 0 else f"person {self.number + 1}"
        )

    async def open(self, address: str) -> None:
        began = time.perf_counter()
        self.socket = await connect(address, open_timeout=self.plan.timeout, max_size=2**22)
        self.played.connects.append(time.perf_counter() - began)
        self.reading = asyncio.create_task(self._read())

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self.reading is not None:
            await self.reading

    async def _read(self) -> None:
        """Note each message's arrival (and each state's key, for the echoes) as it comes."""
        assert self.socket is not None
        try:
            async for raw in self.socket:
                at = time.perf_counter()
                message: dict[str, Any] = json.loads(raw)
                seat = message.get("seat")
                if message.get("type") == "state" and message.get("started") and seat is not None:
                    heard = self.ledger.receipts.setdefault(state_key(message), {})
                    heard.setdefault(seat, at)
                self.queue.put_nowait((at, message))
        except Exception as error:  # the play reads the end of the queue and reports it
            self.queue.put_nowait((time.perf_counter(), {"type": "broken", "why": repr(error)}))
        self.queue.put_nowait((time.perf_counter(), None))

    async def next(self) -> tuple[float, dict[str, Any]]:
        """The next message: `Broken` after `timeout` seconds of silence (unless the table is
        waiting for the others between the phases), `Stopped` when the table has failed."""
        waited = 0.0
        while True:
            if self.ledger.failed:
                raise Stopped
            try:
                at, message = await asyncio.wait_for(self.queue.get(), 1.0)
            except asyncio.TimeoutError:
                waited = 0.0 if self.ledger.held else waited + 1.0
                if waited >= self.plan.timeout:
                    raise Broken(f"no message for {self.plan.timeout:.0f} s") from None
                continue
            if message is None:
                raise Broken("the connection closed")
            if message["type"] == "broken":
                raise Broken(f"the connection failed: {message['why']}")
            return at, message

    async def send(self, message: dict[str, Any]) -> float:
        """Send `message` once this person's own pace allows it; the moment it left."""
        now = time.monotonic()
        self.allowance = min(BURST, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1:
            self.played.flood_waits += 1
            await asyncio.sleep((1 - self.allowance) / RATE)
            self.allowance, self.checked = 1.0, time.monotonic()
        self.allowance -= 1
        assert self.socket is not None
        sent_at = time.perf_counter()
        await self.socket.send(json.dumps(message))
        return sent_at

    async def sit(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send `create` or `join` and wait for `joined`, timing it."""
        began = await self.send(message)
        while True:
            at, reply = await self.next()
            if reply["type"] == "joined":
                self.played.joins.append(at - began)
                self.token = reply["token"]
                return reply
            if reply["type"] == "error":
                raise Broken(f"{message['type']} refused ({reply['rule']}): {reply['message']}")

    def error(self, text: str) -> None:
        self.played.errors.append(f"{self.name}: {text}")

    async def play(self) -> None:
        """Play until the last deal is over (see the module's docstring)."""
        plan, ledger = self.plan, self.ledger
        creator = self.number == 0
        latest: dict[str, Any] | None = None
        acted_on: dict[str, Any] | None = None
        pending: Sent | None = None
        tried: set[str] = set()
        started = False
        dealt_again: set[int] = set()
        while True:
            batch = [await self.next()]
            while not self.queue.empty():
                at, message = self.queue.get_nowait()
                if message is None or message["type"] == "broken":
                    self.queue.put_nowait((at, message))  # `next` reports it
                    break
                batch.append((at, message))
            for at, message in batch:
                if message["type"] == "error":
                    self.error(f"error {message['rule']}: {message['message']}")
                    if pending is not None:  # the move was refused: the table is unchanged
                        pending.refused, pending, acted_on = True, None, None
                elif message["type"] == "state":
                    if pending is not None:
                        pending.key, pending.answered_at = state_key(message), at
                        pending, acted_on = None, None
                        tried.clear()
                    latest = message
            if latest is None:
                continue
            deal = int(latest["deal_number"])
            if latest["over"]:
                if deal not in ledger.deals_over:
                    ledger.deals_over.append(deal)
                    self.say(
                        f"  table {ledger.index + 1} ({ledger.code}): deal {deal} over after "
                        f"{ledger.moves_in(deal)} moves"
                    )
                if deal >= plan.total_deals:
                    return
                if creator and deal not in dealt_again:
                    dealt_again.add(deal)
                    if deal == plan.deals:
                        ledger.held = True
                        self.barrier.arrive(ledger.index)
                        await self.barrier.event.wait()
                        ledger.held = False
                    await self.send({"type": "again", "token": self.token})
                continue
            if not latest["started"]:
                if creator and not started and None not in latest["names"]:
                    started = True
                    await self.send({"type": "start", "token": self.token})
                continue
            legal = [m for m in latest.get("legal_moves") or [] if m not in tried]
            if pending is not None or latest is acted_on or not latest.get("legal_moves"):
                continue
            if not legal:
                raise Broken("every legal move was refused")
            if ledger.moves_in(deal) >= MAX_MOVES:
                raise Broken(f"deal {deal} still not over after {MAX_MOVES} moves")
            if plan.phase(deal) == 1 and plan.pace[1] > 0:
                await asyncio.sleep(self.rng.uniform(*plan.pace))
                if not self.queue.empty():
                    continue  # something new came while they thought: look at it first
            text = choose(legal, self.rng)
            tried.add(text)
            pending = Sent(int(latest["seat"]), deal, text)
            ledger.moves.append(pending)
            acted_on = latest
            pending.sent_at = await self.send({"type": "move", "token": self.token, "move": text})

    async def run(self, begin: Callable[[], Any]) -> None:
        """`begin` (open and sit down), then play; an error stops the whole table."""
        try:
            await begin()
            await self.play()
        except Stopped:
            pass
        except Broken as problem:
            self.error(str(problem))
            self.ledger.failed = True
        except Exception as problem:  # counted; the other tables go on
            self.error(f"{type(problem).__name__}: {problem}")
            self.ledger.failed = True
        finally:
            if self.number == 0:
                self.barrier.arrive(self.ledger.index)  # a failed table holds nobody back


async def one_table(
    address: str, ledger: Ledger, people: list[Person], plan: Plan, barrier: Barrier
) -> None:
    """One table: its creator arrives, creates it, the others join with its code, all play."""
    rng = random.Random(f"{plan.seed}:arrivals:{ledger.index}")
    arrival = rng.uniform(0, plan.spread)
    delays = [rng.uniform(0, plan.spread) for _ in people]
    known = asyncio.Event()
    creator = people[0]

    async def create() -> None:
        await asyncio.sleep(arrival)
        try:
            await creator.open(address)
            made = await creator.sit({"type": "create", "players": plan.players, "name": "Seat 1"})
            ledger.code = made["table"]
        finally:
            known.set()

    def joining(person: Person) -> Callable[[], Any]:
        async def join() -> None:
            await known.wait()
            if not ledger.code:
                raise Stopped
            await asyncio.sleep(delays[person.number])
            await person.open(address)
            name = f"Seat {person.number + 1}"
            await person.sit({"type": "join", "table": ledger.code, "name": name})

        return join

    await asyncio.gather(
        creator.run(create), *(person.run(joining(person)) for person in people[1:])
    )


async def sample_memory(process: psutil.Process, played: Played) -> None:
    while True:
        mb = await asyncio.to_thread(memory_mb, process)
        played.memory_peak = max(played.memory_peak, mb)
        await asyncio.sleep(1.0)


async def fetch_landing(site: Server, played: Played) -> None:
    """The site's landing page every `LANDING_EVERY` seconds: the site serves while the tables
    play (a failed fetch is an error)."""
    while True:
        began = time.perf_counter()
        try:
            status, _ = await asyncio.to_thread(site.get, "")
        except OSError as error:
            played.errors.append(f"the landing page: {error}")
        else:
            played.landing.append(time.perf_counter() - began)
            if status >= 400:
                played.errors.append(f"the landing page: HTTP {status}")
        await asyncio.sleep(LANDING_EVERY)


async def progress(played: Played, began: float, say: Say) -> None:
    while True:
        await asyncio.sleep(PROGRESS_EVERY)
        answered = sum(1 for ledger in played.ledgers for s in ledger.moves if s.key)
        say(
            f"  {time.perf_counter() - began:.0f} s: {answered} moves answered, "
            f"{played.deals_ended} deals over, {len(played.errors)} errors"
        )


async def play_tables(
    address: str,
    plan: Plan,
    journal: Path,
    process: psutil.Process | None = None,
    site: Server | None = None,
    say: Say = say_now,
) -> Played:
    """Play `plan` on the table service at `address`, whose journal is the SQLite file
    `journal` and whose process is `process` (its memory and CPU, when given); `site`'s landing
    page is fetched meanwhile when given. What was measured, the echoes and the lost moves
    worked out."""
    ledgers = [Ledger(index, plan.players) for index in range(plan.tables)]
    played = Played(plan, ledgers)
    barrier = Barrier(plan.tables)
    tables = [
        [Person(ledger, number, plan, played, barrier, say) for number in range(plan.players)]
        for ledger in ledgers
    ]
    me = psutil.Process()
    cpu = (cpu_seconds(process) if process else 0.0, cpu_seconds(me))
    if process is not None:
        played.memory_before = played.memory_peak = memory_mb(process)
    helpers = [asyncio.create_task(progress(played, time.perf_counter(), say))]
    if process is not None:
        helpers.append(asyncio.create_task(sample_memory(process, played)))
    if site is not None:
        helpers.append(asyncio.create_task(fetch_landing(site, played)))
    began = time.perf_counter()
    try:
        await asyncio.gather(
            *(
                one_table(address, ledger, people, plan, barrier)
                for ledger, people in zip(ledgers, tables, strict=True)
            )
        )
        ended = time.perf_counter()
        opened = barrier.opened_at or ended
        played.phase_seconds = [opened - began, ended - opened]
        if process is not None:
            played.memory_live = memory_mb(process)
            played.memory_peak = max(played.memory_peak, played.memory_live)
            server, people = cpu_seconds(process) - cpu[0], cpu_seconds(me) - cpu[1]
            played.cpu = f"service {server:.1f} s, people {people:.1f} s"
    finally:
        for helper in helpers:
            helper.cancel()
        await asyncio.gather(*helpers, return_exceptions=True)
        await asyncio.gather(
            *(person.close() for people in tables for person in people), return_exceptions=True
        )
    work_out(played, journal_moves(journal, [ledger.code for ledger in ledgers if ledger.code]))
    return played


def journal_moves(path: Path, codes: list[str]) -> dict[str, list[tuple[int, str]]]:
    """The moves the journal holds for each table of `codes` (deal, move), in order; the dealing
    of a next deal is left out."""
    found: dict[str, list[tuple[int, str]]] = {code: [] for code in codes}
    db = sqlite3.connect(path, timeout=30)
    try:
        for code, deal, move in db.execute("SELECT code, deal, move FROM moves ORDER BY code, n"):
            if code in found and move:
                found[code].append((deal, move))
    finally:
        db.close()
    return found


def work_out(played: Played, journal: dict[str, list[tuple[int, str]]]) -> None:
    """The echoes, the answers and the lost moves of `played`, from its ledgers and `journal`."""
    plan = played.plan
    for ledger in played.ledgers:
        if ledger.code and len(ledger.deals_over) < plan.total_deals and not ledger.failed:
            played.errors.append(f"table {ledger.index + 1} ({ledger.code}): its deals stopped")
        heard: list[tuple[int, str]] = []
        for sent in ledger.moves:
            if sent.refused:
                continue
            if sent.key is None or sent.answered_at is None:
                played.errors.append(
                    f"table {ledger.index + 1} ({ledger.code}): {sent.text!r} never answered"
                )
                continue
            heard.append((sent.deal, sent.text))
            played.answers.append(sent.answered_at - sent.sent_at)
            got = ledger.receipts.get(sent.key, {})
            others = [got.get(seat) for seat in range(ledger.players) if seat != sent.seat]
            times = [at for at in others if at is not None]
            played.echo_pairs += len(times)
            played.missing_echoes += len(others) - len(times)
            if len(times) == len(others) and times:
                played.echoes[plan.phase(sent.deal)].append(max(times) - sent.sent_at)
        played.answered += len(heard)
        kept = journal.get(ledger.code, [])
        played.lost += sum((Counter(heard) - Counter(kept)).values())
        played.unheard += sum((Counter(kept) - Counter(heard)).values())
        if Counter(heard) == Counter(kept) and heard != kept:
            played.errors.append(
                f"table {ledger.index + 1} ({ledger.code}): the journal holds its moves in "
                "another order"
            )
    if played.missing_echoes:
        played.errors.append(f"{played.missing_echoes} echoes never arrived")
    if played.unheard:
        played.errors.append(f"{played.unheard} moves in the journal that nobody heard answered")


def journal_of(server: Server) -> Path:
    """The journal of a site's table service: the file its server was told (start_site gives
    each server one of its own, in `PENANG_TABLES_JOURNAL`)."""
    return Path(psutil.Process(server.process.pid).environ()["PENANG_TABLES_JOURNAL"])


def serve_alone(journal: Path) -> tuple[Server, str]:
    """`python -m penang_lib.site.tables_service` on a free port, with bots that do not pause
    (none plays here) and `journal`; the server and its address, once it answers."""
    port = free_port()
    command = [sys.executable, "-m", "penang_lib.site.tables_service", "--port", str(port)]
    command += ["--journal", str(journal), "--bot-pause", "0"]
    env = {key: value for key, value in os.environ.items() if key != "JUPYTERHUB_SERVICE_PREFIX"}
    server = start(command, port, env=env)
    try:
        return server, tables_address(server)
    except RuntimeError:
        server.stop()
        raise


def on_site(plan: Plan, say: Say = say_now) -> Played:
    """`plan` on the site's own table service, the site serving meanwhile."""
    began = time.perf_counter()
    server = start_site(pool=1, extra=["--bot-pause", "0"])
    try:
        wait_ready(server, {lesson["file"] for lesson in catalogue()}, timeout=600)
        address = tables_address(server)
        say(f"  site ready in {time.perf_counter() - began:.0f} s; {address}")
        process = psutil.Process(server.process.pid)
        return asyncio.run(play_tables(address, plan, journal_of(server), process, server, say))
    finally:
        server.stop()


def alone(plan: Plan, say: Say = say_now) -> Played:
    """`plan` on the table service on its own (the hub's deployment)."""
    with tempfile.TemporaryDirectory(prefix="penang-tables-") as folder:
        server, address = serve_alone(Path(folder) / "tables.sqlite")
        try:
            say(f"  service ready; {address}")
            process = psutil.Process(server.process.pid)
            return asyncio.run(
                play_tables(address, plan, Path(folder) / "tables.sqlite", process, None, say)
            )
        finally:
            server.stop()


def figures(played: Played, where: str) -> Figures:
    """The figures of `played` by the keys of `GOALS`, and the lines around them."""
    plan = played.plan
    out = Figures()
    for phase, key in ((1, "echo_reader"), (2, "echo_fast")):
        if played.echoes[phase]:
            out.values[key] = percentile(played.echoes[phase], 0.95)
    if played.joins:
        out.values["join"] = percentile(played.joins, 0.95)
    out.values["errors"] = len(played.errors)
    out.values["lost"] = played.lost
    out.values["memory"] = played.memory_live
    seats = plan.tables * plan.players
    low, high = plan.pace
    out.details += [
        f"errors: {len(played.errors)}" + "".join(f"\n    {e}" for e in played.errors[:10]),
        f"tables: {plan.tables} of {plan.players}; deals over {played.deals_ended} of "
        f"{plan.tables * plan.total_deals}",
        f"connecting: {summary(played.connects, 1000, 'ms', 0)}",
        f"joining (create or join, to joined): {summary(played.joins, 1000, 'ms', 0)}; "
        f"answered {len(played.joins)} of {seats}",
        f"phase 1, thinking {low:g}-{high:g} s, {played.phase_seconds[0]:.1f} s: echo "
        + summary(played.echoes[1], 1000, "ms", 0)
        if played.phase_seconds
        else "phase 1: not played",
        f"phase 2, as fast as they can, {played.phase_seconds[1]:.1f} s: echo "
        + summary(played.echoes[2], 1000, "ms", 0)
        if played.phase_seconds
        else "phase 2: not played",
        f"a move's answer to its own mover: {summary(played.answers, 1000, 'ms', 0)}",
        f"echoes measured: {played.echo_pairs} (move, other seat) pairs, "
        f"{played.missing_echoes} missing",
        f"moves answered {played.answered}, in the journal {played.answered - played.lost}, "
        f"lost {played.lost}; pauses to stay under the flood limit: {played.flood_waits}",
        f"memory of {where} (USS): before the tables {played.memory_before:.0f} MB, with them "
        f"{played.memory_live:.0f} MB (peak {played.memory_peak:.0f} MB): the tables added "
        f"{played.memory_live - played.memory_before:.0f} MB",
    ]
    if played.cpu:
        out.details.append(f"CPU time while the tables played: {played.cpu}")
    if played.landing:
        out.details.append(
            "the site's landing page meanwhile: " + summary(played.landing, 1000, "ms", 0)
        )
    return out


def verdict(goal: Goal, value: float | None) -> str:
    if value is None:
        return "-"
    return f"{shown(goal, value)} ({goal.verdict(value)})"


def table(columns: dict[str, Figures]) -> list[str]:
    rows = [["goal", "limit", *columns]]
    for key, goal in GOALS.items():
        cells = [verdict(goal, column.values.get(key)) for column in columns.values()]
        rows.append([goal.name, shown(goal, goal.limit), *cells])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]


SERVICES: dict[str, tuple[str, str, Callable[[Plan, Say], Played]]] = {
    "site": ("site", "the site's server (Voila with the service)", on_site),
    "alone": ("alone", "the service on its own", alone),
}


def parser() -> argparse.ArgumentParser:
    made = argparse.ArgumentParser(
        prog="python -m benchmarks.tables_load",
        description="Tables of people playing together (issue 32), against its goals.",
    )
    made.add_argument("--tables", type=int, default=15, help=f"tables (1 to {MOST_TABLES})")
    made.add_argument("--players", type=int, default=4, help="people per table (2 to 5)")
    made.add_argument("--deals", type=int, default=1, help="deals per table in each phase")
    made.add_argument(
        "--pace",
        type=float,
        nargs=2,
        default=list(READER),
        metavar=("LOW", "HIGH"),
        help="seconds a person thinks before a move in phase 1 (default 1 3)",
    )
    made.add_argument("--seed", type=int, default=0, help="the people's choices and arrivals")
    made.add_argument("--spread", type=float, default=2.0, help="arrivals within S seconds")
    made.add_argument("--timeout", type=float, default=60.0, help="seconds of silence at most")
    made.add_argument(
        "--service",
        choices=["both", "site", "alone"],
        default="both",
        help="the site's own service, the service on its own, or both (default)",
    )
    return made


def main(argv: Sequence[str] | None = None) -> int:
    options = parser()
    args = options.parse_args(argv)
    if not 1 <= args.tables <= MOST_TABLES:
        options.error(f"--tables is a number from 1 to {MOST_TABLES}")
    if not 2 <= args.players <= 5:
        options.error("--players is a number from 2 to 5")
    if args.deals < 1:
        options.error("--deals is at least 1")
    low, high = args.pace
    if not 0 <= low <= high:
        options.error("--pace is LOW HIGH with 0 <= LOW <= HIGH")
    if args.spread < 0 or args.timeout <= 0:
        options.error("--spread is 0 or more, --timeout more than 0")
    plan = Plan(
        args.tables, args.players, args.deals, (low, high), args.seed, args.spread, args.timeout
    )
    chosen = ["site", "alone"] if args.service == "both" else [args.service]
    columns: dict[str, Figures] = {}
    lines: list[str] = []
    failed = False
    for name in chosen:
        title, where, scenario = SERVICES[name]
        say_now(f"== {plan.tables} tables of {plan.players}, {where} ...")
        played = scenario(plan, say_now)
        failed = failed or bool(played.errors) or played.lost > 0
        columns[title] = figures(played, where)
        lines.append(f"-- {where}")
        lines += [f"  {line}" for line in columns[title].details]
    print("\n".join(lines))
    print()
    print("\n".join(table(columns)))
    return 1 if failed else 0  # errors or lost moves; a missed goal is not a failure


if __name__ == "__main__":
    raise SystemExit(main())
