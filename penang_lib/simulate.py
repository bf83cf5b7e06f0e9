"""Many deals played by bots, as a pandas DataFrame: what the rule book only asserts, in numbers.

`simulate(1000)` plays 1,000 seeded deals and returns one row per player per deal; `summary(frame)`
boils it down (passport failures, deals nobody went out of, turns, each bot's wins and counts).
`play_deal(seed, players, bots)` plays one deal: `penang-rummy deal --seed S` shows the same deal
as row `seed` of `simulate(..., seed=0)` with the same bots.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, Final

from penang_lib.bots import (
    bot_names,
    play_deal,
)
from penang_lib.deal import Deal, Status
from penang_lib.rules import Rules
from penang_lib.validate import MAX_SEED, ArgumentTypeError, shown, whole

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

MAX_DEALS: Final = 10_000_000
"""The most deals one `simulate` run plays (about nine hours on one core)."""
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
    return whole(seed, "seed", 0) * SEED_STEP + whole(index, "index", 0)


def deal_rows(deal: Deal, index: int, names: Sequence[str]) -> list[tuple[Any, ...]]:
    """The rows of one finished deal, in `COLUMNS` order."""
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"deal_rows takes a Deal, not {shown(deal)}")
    if isinstance(names, str) or len(names) != deal.players:
        raise ValueError(f"names should be a list of {deal.players} bot names, one per seat")
    winners = set(deal.winners())
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


def _play_range(
    job: tuple[int, int, int, int, tuple[str, ...], Rules | None],
) -> list[tuple[Any, ...]]:
    """Play deals `start` to `stop` - 1 of a run (runs in a worker process)."""
    start, stop, seed, players, names, rules = job
    rows: list[tuple[Any, ...]] = []
    for index in range(start, stop):
        deal = play_deal(deal_seed(seed, index), players, names, rules)
        rows.extend(deal_rows(deal, index, names))
    return rows


def _chunks(deals: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, deals, size):
        yield start, min(deals, start + size)


def simulate(
    deals: int,
    players: int = 4,
    bots: str | Iterable[str] | None = None,
    seed: int = 0,
    rules: Rules | None = None,
    jobs: int = 1,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Play `deals` deals with bots and return one row per player per deal.

    `bots` names one bot per seat ("careful", "greedy", "random"; a list or comma-separated text,
    cycled to the seats; default all careful). Deal number i is dealt with
    `deal_seed(seed, i)`, so the same arguments give the same frame, whatever `jobs` is.
    `jobs` > 1 plays in that many worker processes, at most one per core of this machine
    (`os.cpu_count()`: a larger `jobs` is bounded to it, which changes no result). `progress`
    shows a tqdm bar (a widget in a notebook); by default only for runs of 200 deals or more.

    `deals` is at most `MAX_DEALS`, and `seed` at most `max_run_seed(deals)`, so that every deal's
    own seed stays within 0 to 2**63 - 1.

    Columns: `seed` (the deal's own seed), `deal` (its number), `seat`, `bot`, `passport_ok`,
    `turns` (turns started, a turn ending in Dead included), `turns_alive` (turns that made an
    action), `cards_left`, `count` (rule `scoring`), `outcome` ("game", "dead", "passport-dead" or
    "alive"), `won` (a shared win counts for each winner).
    """
    deals = whole(deals, "deals")
    if deals < 0:
        raise ValueError(f"the number of deals cannot be negative ({deals})")
    if deals > MAX_DEALS:
        raise ValueError(f"a run plays at most {MAX_DEALS:,} deals, not {deals:,}")
    if whole(jobs, "jobs") < 1:
        raise ValueError(f"jobs must be at least 1 ({jobs})")
    jobs = usable_jobs(jobs)
    seed = whole(seed, "seed")
    top = max_run_seed(deals)
    if not 0 <= seed <= top:
        raise ValueError(
            f"the run's seed should be from 0 to {top:,}: deal i is dealt with seed x "
            f"{SEED_STEP:,} + i, and a deal's seed is at most 2**63 - 1, not {shown(seed)}"
        )
    if progress is not None and not isinstance(progress, bool):
        raise ArgumentTypeError(f"progress should be True, False or None, not {shown(progress)}")
    players = whole(players, "players")
    Rules.of(rules).check_deal(players)
    names = bot_names(bots, players)
    show = deals >= _PROGRESS_FROM if progress is None else progress
    bar = _progress_bar(deals) if show else None
    rows: list[tuple[Any, ...]] = []
    try:
        if jobs == 1 or deals < 2:
            for start, stop in _chunks(deals, 1):
                rows.extend(_play_range((start, stop, seed, players, names, rules)))
                if bar is not None:
                    bar.update(1)
        else:
            size = max(1, min(50, deals // (jobs * 4)))
            work = [(a, b, seed, players, names, rules) for a, b in _chunks(deals, size)]
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for (start, stop, *_), chunk in zip(work, pool.map(_play_range, work), strict=True):
                    rows.extend(chunk)
                    if bar is not None:
                        bar.update(stop - start)
    finally:
        if bar is not None:
            bar.close()
    return _frame(rows)


def _frame(rows: list[tuple[Any, ...]]) -> pd.DataFrame:
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
