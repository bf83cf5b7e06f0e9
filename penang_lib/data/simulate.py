"""Many deals played by bots, as a pandas DataFrame: what the rule book only asserts, in numbers.

`simulate(1000)` plays 1,000 seeded deals and returns one row per player per deal; `summary(frame)`
boils it down (passport failures, deals nobody went out of, turns, each bot's wins and counts).
The deals themselves are played by `penang_lib.engine.bots.play_deal` (no pandas there):
`penang-rummy deal --seed S` shows the same deal as row `seed` of `simulate(..., seed=0)` with the
same bots. `simulate(..., executor=...)` plays the deals on any `concurrent.futures.Executor`: a
process pool on this machine, or a Dask cluster through `client.get_executor()`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, as_completed
from typing import TYPE_CHECKING, Any, Final

from penang_lib.engine.bots import (
    bot_names,
    play_deal,
)
from penang_lib.engine.deal import Deal, Status
from penang_lib.engine.rules import Rules
from penang_lib.engine.validate import MAX_SEED, ArgumentTypeError, require_whole, shown

if TYPE_CHECKING:  # pandas loads when a frame is made: playing a deal does not need it
    import pandas as pd

COLUMNS = (
    "seed",
    "deal",
    "seat",
    "bot",
    "passport_ok",
    "turns",
    "turns_alive",
    "cards_left",
    "count",
    "outcome",
    "won",
)
"""The columns of `simulate`'s frame, in order."""

OUTCOMES = {
    Status.OUT: "game",
    Status.DEAD: "dead",
    Status.DEAD_PASSPORT: "passport-dead",
    Status.ALIVE: "alive",
}
"""How each player's deal ended: went out, died, died at the passport, or still alive when it
ended (someone else went out, or the one-alive house rule stopped the deal)."""

_PROGRESS_FROM = 200
"""With `progress=None`, runs of at least this many deals show a progress bar."""

_CHUNK_MOST = 50
"""The most deals one chunk of a parallel run holds (one task handed to the executor)."""
_CHUNKS_PER_WORKER = 4
"""A parallel run is cut into at least this many chunks per worker (while chunks hold more than
one deal), so that a slow chunk does not leave the other workers idle at the end."""
_WORKERS_GUESSED = 16
"""How many workers an executor handed to `simulate` is taken to have when cutting the run into
chunks (an `Executor` does not say). Only the chunk size depends on it, never a result."""

MAX_DEALS: Final = 10_000_000
"""The most deals one `simulate` run plays."""
SEED_STEP: Final = 1_000_003
"""Deal number i of a run seeded s is dealt with seed s * SEED_STEP + i (`deal_seed`)."""


def max_run_seed(deals: int) -> int:
    """The largest run seed whose `deals` deals all have seeds from 0 to `MAX_SEED`."""
    return (MAX_SEED - max(deals - 1, 0)) // SEED_STEP


def usable_jobs(jobs: int) -> int:
    """`jobs` bounded by this machine: at most one worker process per core."""
    return max(1, min(jobs, os.cpu_count() or 1))


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal number `index` (from 0) of a run seeded `seed`: with seed 0, deal i has
    seed i, so `penang-rummy deal --seed i` replays it."""
    return require_whole(seed, "seed", 0) * SEED_STEP + require_whole(index, "index", 0)


def deal_rows(deal: Deal, index: int, names: Sequence[str]) -> list[tuple[Any, ...]]:
    """The rows of one finished deal, in `COLUMNS` order."""
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"deal_rows takes a Deal, not {shown(deal)}")
    if isinstance(names, str) or len(names) != deal.players:
        raise ValueError(f"names should be a list of {deal.players} bot names, one per seat")
    winners = set(deal.winners)
    rows = []
    for seat in range(deal.players):
        status = deal.status[seat]
        turns = deal.turns[seat]
        dead = status in (Status.DEAD, Status.DEAD_PASSPORT)
        rows.append(
            (
                deal.seed,
                index,
                seat,
                names[seat],
                deal.passport[seat],
                turns,
                turns - 1 if dead else turns,
                deal.hand_size(seat),
                deal.count(seat),
                OUTCOMES[status],
                seat in winners,
            )
        )
    return rows


_Job = tuple[int, int, int, int, tuple[str, ...], Rules | None]
"""One chunk of a run: deals `start` to `stop` - 1, the run's seed, players, bot names and rules."""
_Rows = list[tuple[Any, ...]]


def _play_range(job: _Job) -> _Rows:
    """Play deals `start` to `stop` - 1 of a run and return their rows (runs in a worker)."""
    start, stop, seed, players, names, rules = job
    rows: _Rows = []
    for index in range(start, stop):
        deal = play_deal(deal_seed(seed, index), players, names, rules)
        rows.extend(deal_rows(deal, index, names))
    return rows


def _chunks(deals: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, deals, size):
        yield start, min(deals, start + size)


def _chunk_size(deals: int, workers: int) -> int:
    """How many deals each chunk of a parallel run holds, for an executor of `workers` workers."""
    return max(1, min(_CHUNK_MOST, deals // (workers * _CHUNKS_PER_WORKER)))


def _play_on(executor: Executor, work: list[_Job], bar: Any) -> _Rows:
    """Hand every chunk of `work` to `executor` and return all their rows in deal order.

    The bar advances as chunks come back, in whatever order they finish; the rows are then put
    back in chunk order. A chunk that raised raises its own exception here, and the chunks not yet
    started are cancelled. The executor itself is left as it was (never shut down here).
    """
    futures: dict[Future[_Rows], int] = {}
    done: list[_Rows] = [[] for _ in work]
    try:
        for number, job in enumerate(work):
            futures[executor.submit(_play_range, job)] = number
        for future in as_completed(futures):
            number = futures[future]
            done[number] = future.result()
            if bar is not None:
                start, stop = work[number][:2]
                bar.update(stop - start)
    finally:
        for future in futures:
            future.cancel()  # does nothing to a chunk that has finished or is running
    return [row for chunk in done for row in chunk]


def simulate(
    deals: int,
    players: int = 4,
    bots: str | Iterable[str] | None = None,
    seed: int = 0,
    rules: Rules | None = None,
    jobs: int = 1,
    progress: bool | None = None,
    executor: Executor | None = None,
) -> pd.DataFrame:
    """Play `deals` deals with bots and return one row per player per deal.

    `bots` names one bot per seat ("careful", "greedy", "random"; a list or comma-separated text,
    cycled to the seats; default all careful). Deal number i is dealt with
    `deal_seed(seed, i)`, so the same arguments give the same frame, however the deals are
    played: one after another, or in parallel as below.

    Parallel runs cut the deals into chunks and gather the chunks' rows back in deal order:
    - `jobs` > 1 plays in that many worker processes of this machine (a `ProcessPoolExecutor`
      made and shut down here), at most one per core (`os.cpu_count()`: a larger `jobs` is
      bounded to it, which changes no result).
    - `executor` plays on any `concurrent.futures.Executor` you made: a `ProcessPoolExecutor` or
      `ThreadPoolExecutor`, or `client.get_executor()` of a Dask distributed `Client` for a
      cluster (every worker needs penang_lib installed). It is yours: `simulate` never shuts it
      down. Give either `executor` or `jobs` > 1, not both.
    An exception raised while a worker plays a deal is raised here as itself.

    `progress` shows a tqdm bar (a widget in a notebook), advancing as deals or chunks finish;
    by default only for runs of 200 deals or more.

    `deals` is at most `MAX_DEALS`, and `seed` at most `max_run_seed(deals)`, so that every deal's
    own seed stays within 0 to 2**63 - 1.

    Columns: `seed` (the deal's own seed), `deal` (its number), `seat`, `bot`, `passport_ok`,
    `turns` (turns started, a turn ending in Dead included), `turns_alive` (turns that made an
    action), `cards_left`, `count` (rule `scoring`), `outcome` ("game", "dead", "passport-dead" or
    "alive"), `won` (a shared win counts for each winner).
    """
    deals = require_whole(deals, "deals")
    if deals < 0:
        raise ValueError(f"the number of deals cannot be negative ({deals})")
    if deals > MAX_DEALS:
        raise ValueError(f"a run plays at most {MAX_DEALS:,} deals, not {deals:,}")
    if require_whole(jobs, "jobs") < 1:
        raise ValueError(f"jobs must be at least 1 ({jobs})")
    if executor is not None:
        if not isinstance(executor, Executor):
            raise ArgumentTypeError(
                "executor should be a concurrent.futures.Executor (a ProcessPoolExecutor, or a "
                f"Dask client's get_executor()), not {shown(executor)}"
            )
        if jobs > 1:
            raise ValueError(
                f"choose one way to play in parallel: executor or jobs={jobs}, not both "
                "(leave jobs at 1 when you give an executor)"
            )
    jobs = usable_jobs(jobs)
    seed = require_whole(seed, "seed")
    top = max_run_seed(deals)
    if not 0 <= seed <= top:
        raise ValueError(
            f"the run's seed should be from 0 to {top:,}: deal i is dealt with seed x "
            f"{SEED_STEP:,} + i, and a deal's seed is at most 2**63 - 1, not {shown(seed)}"
        )
    if progress is not None and not isinstance(progress, bool):
        raise ArgumentTypeError(f"progress should be True, False or None, not {shown(progress)}")
    players = require_whole(players, "players")
    Rules.of(rules).require_deal(players)
    names = bot_names(bots, players)
    show = deals >= _PROGRESS_FROM if progress is None else progress
    bar = _progress_bar(deals) if show else None

    def work(workers: int) -> list[_Job]:
        size = _chunk_size(deals, workers)
        return [(a, b, seed, players, names, rules) for a, b in _chunks(deals, size)]

    rows: _Rows = []
    try:
        if executor is not None:
            rows = _play_on(executor, work(_WORKERS_GUESSED), bar)
        elif jobs > 1 and deals >= 2:
            from concurrent.futures import ProcessPoolExecutor  # loads multiprocessing

            with ProcessPoolExecutor(max_workers=jobs) as pool:
                rows = _play_on(pool, work(jobs), bar)
        else:
            for start, stop in _chunks(deals, 1):
                rows.extend(_play_range((start, stop, seed, players, names, rules)))
                if bar is not None:
                    bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return _frame(rows)


def _frame(rows: _Rows) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame.from_records(rows, columns=list(COLUMNS))
    types = {
        "seed": "int64",
        "deal": "int64",
        "seat": "int64",
        "bot": "object",
        "passport_ok": "bool",
        "turns": "int64",
        "turns_alive": "int64",
        "cards_left": "int64",
        "count": "int64",
        "outcome": "object",
        "won": "bool",
    }
    typed: pd.DataFrame = frame.astype(types)
    return typed


def _progress_bar(total: int) -> Any:
    from tqdm.auto import tqdm  # type: ignore[import-untyped]

    return tqdm(total=total, desc="deals", unit="deal")


def summary(frame: pd.DataFrame) -> dict[str, Any]:
    """The numbers the strategy lesson quotes, from a `simulate` frame.

    `deals`; `passport_failure_rate` (share of players dead at the passport);
    `nobody_out_rate` (share of deals nobody went out of); `mean_turns` (turns per deal, every
    player's counted); and per bot name in `bots`: `seats` (player rows), `win_rate` (share of
    those rows that won, a shared win counting for each) and `mean_count`.
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise ArgumentTypeError(f"summary takes the frame simulate() returns, not {shown(frame)}")
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(
            f"summary needs the columns simulate() makes; this frame has no {missing[0]!r}"
        )
    deals = int(frame["deal"].nunique()) if len(frame) else 0
    if deals == 0:
        return {
            "deals": 0,
            "passport_failure_rate": 0.0,
            "nobody_out_rate": 0.0,
            "mean_turns": 0.0,
            "bots": {},
        }
    by_deal = frame.groupby("deal")
    went_out = by_deal["outcome"].agg(lambda o: bool((o == "game").any()))
    bots: dict[str, dict[str, float | int]] = {}
    for name, rows in frame.groupby("bot", sort=True):
        bots[str(name)] = {
            "seats": len(rows),
            "win_rate": float(rows["won"].mean()),
            "mean_count": float(rows["count"].mean()),
        }
    return {
        "deals": deals,
        "passport_failure_rate": float((frame["outcome"] == "passport-dead").mean()),
        "nobody_out_rate": float(1.0 - went_out.mean()),
        "mean_turns": float(by_deal["turns"].sum().mean()),
        "bots": bots,
    }
