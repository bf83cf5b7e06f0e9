"""Which bot plays Penang Rummy best, measured in duplicate deals.

`tournament(["expert", "careful", "careful", "careful"], deals=2000, seed=0)` deals each seed
once per rotation of the lineup over the seats: with four bots a seed is played four times, and
every bot meets the same cards in every seat. Luck of the deal then weighs on every bot alike,
and far fewer deals tell two bots apart than with fresh cards each time (bridge's duplicate).

For each bot name of the lineup, `Standing` says: the deals won (a tie shares the win), the mean
count it ends with, its mean count difference against the field (its count minus the mean count
of the other players at the same table) with a 95% confidence interval, how often it failed the
passport (dead without a meld) or died at all, and how long it took to choose a move.

The interval treats each seed as one observation: the rotations of one seed share their cards,
so they are not independent, while two seeds are. Its half-width is 1.96 standard errors of the
per-seed mean (a normal approximation, sound for the hundreds of seeds a comparison needs);
with fewer than two seeds there is no interval.

Pure Python, no Jupyter: the command line (`penang-rummy tournament`) adds the progress bar and
the JSON, through `progress` and `Result.as_dict()`.
"""

from __future__ import annotations

import math
import multiprocessing
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from penang_lib.engine.bots import EXPERT, MAX_MOVES, Bot, make_bot
from penang_lib.engine.deal import Deal, Phase, Status
from penang_lib.engine.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from penang_lib.engine.validate import (
    ArgumentTypeError,
    require_seed,
    require_whole,
    shown,
)
from penang_lib.engine.view import PlayerView

__all__ = ["Factory", "Result", "Standing", "play_seating", "tournament"]

Factory = Callable[[int], Bot]
"""Makes a bot from a seed (`make_bot(name, seed)` for the kit's bots)."""

MAX_JOBS = 64
"""Worker processes at most."""

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""


@dataclass
class Standing:
    """One bot name's results over a tournament (all the seats it held)."""

    name: str
    seats: int = 0
    """Seats held: deals played by this bot, counting each seat of a deal."""
    wins: float = 0.0
    """Deals won, a tie counting as a share of the win."""
    counts: list[int] = field(default_factory=list)
    """The count it ended each seat with (0 when it went out)."""
    by_seed: dict[int, list[float]] = field(default_factory=dict)
    """For each seed, its count minus the mean of the others' counts, once per seat it held."""
    passport_failures: int = 0
    deaths: int = 0
    """Seats that ended dead at the passport, and dead at all (the passport's deaths included)."""
    move_seconds: list[float] = field(default_factory=list)
    """The time each of its moves took to choose."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    @property
    def mean_count(self) -> float:
        return statistics.fmean(self.counts) if self.counts else 0.0

    @property
    def seed_differences(self) -> list[float]:
        """Its mean count difference against the field, one per seed (the interval's data)."""
        return [statistics.fmean(d) for d in self.by_seed.values()]

    @property
    def mean_difference(self) -> float:
        diffs = self.seed_differences
        return statistics.fmean(diffs) if diffs else 0.0

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% confidence interval of the mean difference; None with fewer than 2 seeds."""
        diffs = self.seed_differences
        if len(diffs) < 2:
            return None
        mean = statistics.fmean(diffs)
        half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        return (mean - half, mean + half)

    def time_percentile(self, share: float) -> float:
        """The time per move below which `share` of its moves were chosen (nearest rank)."""
        if not self.move_seconds:
            return 0.0
        ordered = sorted(self.move_seconds)
        rank = max(1, math.ceil(share * len(ordered)))
        return ordered[rank - 1]

    def as_dict(self) -> dict[str, Any]:
        interval = self.interval
        return {
            "bot": self.name,
            "seats": self.seats,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "mean_count": self.mean_count,
            "mean_difference": self.mean_difference,
            "interval_95": list(interval) if interval else None,
            "passport_failure_rate": self.passport_failures / self.seats if self.seats else 0.0,
            "death_rate": self.deaths / self.seats if self.seats else 0.0,
            "moves": len(self.move_seconds),
            "seconds_per_move": {
                "median": self.time_percentile(0.5),
                "p95": self.time_percentile(0.95),
                "max": max(self.move_seconds, default=0.0),
            },
        }


@dataclass
class Result:
    """A whole tournament: the lineup, the seeds played and each bot name's `Standing`."""

    lineup: tuple[str, ...]
    seed: int
    deals: int
    standings: dict[str, Standing]
    """By bot name, in the lineup's order of first appearance."""

    @property
    def games(self) -> int:
        """Deals played: each seed once per rotation."""
        return self.deals * len(self.lineup)

    def as_dict(self) -> dict[str, Any]:
        return {
            "lineup": list(self.lineup),
            "players": len(self.lineup),
            "seed": self.seed,
            "deals": self.deals,
            "games": self.games,
            "bots": [s.as_dict() for s in self.standings.values()],
        }


def _factories(
    lineup: Sequence[str], bots: Mapping[str, Factory] | None, budget: float | None = None
) -> dict[str, Factory]:
    made: dict[str, Factory] = {}
    for name in lineup:
        if bots is not None and name in bots:
            made[name] = bots[name]
            continue
        # An unknown name, or a budget for a bot that takes none, is refused here, before any
        # deal is played.
        take = budget if name == EXPERT else None
        make_bot(name, budget=take)
        made[name] = partial(make_bot, name, budget=take)
    return made


def _lineup(lineup: object) -> tuple[str, ...]:
    if isinstance(lineup, str):
        lineup = [n.strip() for n in lineup.split(",")]
    if not isinstance(lineup, Sequence) or not all(isinstance(n, str) for n in lineup):
        raise ArgumentTypeError(f"the lineup should be a list of bot names, not {shown(lineup)}")
    names = tuple(n.strip().lower() for n in lineup)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS or not all(names):
        raise ValueError(
            f"a lineup names one bot per seat, {MIN_PLAYERS} to {MAX_PLAYERS} of them, "
            f"not {shown(lineup)}"
        )
    return names


def play_seating(
    seed: int, seating: Sequence[str], factories: Mapping[str, Factory], rules: Rules
) -> tuple[Deal, list[list[float]]]:
    """Play the deal of `seed` with the bot named `seating[p]` at seat p; the deal at its end and
    the time each seat took for each of its moves. Each bot is seeded from the deal's seed and
    its seat, as `seat_bots` seeds them."""
    deal = Deal(players=len(seating), seed=seed, rules=rules)
    seats = [factories[name](seed * 10 + p) for p, name in enumerate(seating)]
    times: list[list[float]] = [[] for _ in seating]
    over = Phase.OVER
    clock = time.perf_counter
    for _step in range(MAX_MOVES):
        if deal.phase is over:
            return deal, times
        turn = deal.turn
        view = PlayerView.of(deal)
        start = clock()
        choice = seats[turn].choose(view)
        times[turn].append(clock() - start)
        deal.push(choice.move)
    raise RuntimeError(f"deal {seed} did not end within {MAX_MOVES} moves")


@dataclass(frozen=True)
class _Played:
    """What one seed's deals left, in rotation order: per deal the counts, the winners, each
    seat's status and each seat's times per move (what a worker process sends back)."""

    seed: int
    deals: list[tuple[list[int], frozenset[int], list[Status], list[list[float]]]]


@dataclass(frozen=True)
class _Job:
    names: tuple[str, ...]
    factories: Mapping[str, Factory]
    rules: Rules


_JOB: _Job | None = None
"""The tournament a worker process plays: set before the worker pool forks, so that the
factories (often closures, which cannot be pickled) reach the workers by the fork itself."""


def _play_seed(seed: int, job: _Job | None = None) -> _Played:
    job = job or _JOB
    assert job is not None, "a worker started without its tournament"
    players = len(job.names)
    played = []
    for rotation in range(players):
        seating = [job.names[(p - rotation) % players] for p in range(players)]
        deal, times = play_seating(seed, seating, job.factories, job.rules)
        played.append((deal.scores, frozenset(deal.winners), list(deal.status), times))
    return _Played(seed, played)


def _run(job: _Job, seeds: range, jobs: int) -> Iterator[_Played]:
    """Each seed's deals, in the order of `seeds`, played by `jobs` worker processes (forked,
    where the system can fork; else in this process)."""
    if jobs == 1 or "fork" not in multiprocessing.get_all_start_methods():
        for s in seeds:
            yield _play_seed(s, job)
        return
    global _JOB
    _JOB = job
    try:
        context = multiprocessing.get_context("fork")
        with context.Pool(jobs) as pool:
            yield from pool.imap(_play_seed, seeds)
    finally:
        _JOB = None


def tournament(
    lineup: str | Sequence[str],
    deals: int,
    seed: int = 0,
    rules: Rules | None = None,
    bots: Mapping[str, Factory] | None = None,
    progress: Callable[[int], None] | None = None,
    budget: float | None = None,
    jobs: int = 1,
) -> Result:
    """Play `deals` seeds (`seed`, `seed + 1`, ...) in duplicate: each seed once per rotation of
    `lineup` (one bot name per seat, 2 to 5) over the seats. `bots` may name factories of bots
    of one's own (name -> seed -> bot), beside the kit's (`make_bot`); `budget` is the expert's
    seconds per move (its default when None). `jobs` worker processes play seeds side by side
    (the results are the same for any number: each deal and bot is seeded). `progress` is called
    with the number of deals just played (1) after each deal."""
    names = _lineup(lineup)
    deals = require_whole(deals, "deals", 1)
    jobs = require_whole(jobs, "jobs", 1, MAX_JOBS)
    first = require_seed(seed)
    first = 0 if first is None else first
    rules = Rules.of(rules)
    rules.require_deal(len(names))
    factories = _factories(names, bots, budget)
    standings = {name: Standing(name) for name in dict.fromkeys(names)}
    players = len(names)
    job = _Job(names, factories, rules)
    for played in _run(job, range(first, first + deals), jobs):
        s = played.seed
        for rotation, (counts, winners, status, times) in enumerate(played.deals):
            seating = [names[(p - rotation) % players] for p in range(players)]
            total = sum(counts)
            for p, name in enumerate(seating):
                standing = standings[name]
                standing.seats += 1
                standing.counts.append(counts[p])
                if p in winners:
                    standing.wins += 1 / len(winners)
                others = (total - counts[p]) / (players - 1)
                standing.by_seed.setdefault(s, []).append(counts[p] - others)
                standing.passport_failures += status[p] is Status.DEAD_PASSPORT
                standing.deaths += status[p] in (Status.DEAD, Status.DEAD_PASSPORT)
                standing.move_seconds.extend(times[p])
            if progress is not None:
                progress(1)
    return Result(names, first, deals, standings)
