"""Playing deals: one deal by its bots with tries in between (`play`, `fuzz_deal`), and
many deals, in worker processes when asked (`fuzz`)."""

from __future__ import annotations

import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Final

from penang_lib import (
    DeclareDead,
    DeclareGame,
    EndTurn,
    PlayerView,
    make_bot,
)
from penang_lib.data.simulate import deal_seed
from penang_lib.engine.bots import Bot
from tools.fuzz.oracles import end_checks, ply_checks, record_checks, run_try, walk_back
from tools.fuzz.report import Finding, FuzzReport, FuzzRun
from tools.fuzz.state import DealState, snapshot, state_diff, variant_for
from tools.fuzz.tries import TryMaker, well_formed_try

MAX_MOVES: Final = 20_000
"""A deal longer than this is a finding (the same bound as `simulate`)."""
TRY_RATE: Final = 0.6
"""Share of the bot moves that get tries pushed before them."""
MAX_TRIES: Final = 3
"""At most this many tries before one bot move."""
LISTED_RATE: Final = 0.2
"""Share of those moves that also get one entry of `legal_moves` pushed and taken back."""
GARBAGE_SHARE: Final = 0.4
"""Share of the tries that are garbage (the rest are illegal but well-formed moves)."""
CHUNK: Final = 25
"""Deals per job handed to a worker process."""


def _after_end_tries(run: FuzzRun, rng: random.Random) -> None:
    deal = run.deal
    before = snapshot(deal)
    last = run.moves[-1] if run.moves else EndTurn()
    for move in rng.sample([EndTurn(), DeclareGame(), DeclareDead(), last], 2):
        if not run_try(run, well_formed_try("a move after the deal is over", move, True), before):
            return


def play(run: FuzzRun, rng: random.Random, tries: bool = True) -> list[DealState] | None:
    """Let the variant's bots play the deal to its end, with tries pushed before most moves
    (none when `tries` is false), checking every move. Returns the state after each ply (the
    start first), or None when the deal broke off (the finding says why)."""
    variant = run.variant
    bots: list[Bot] = [
        make_bot(name, variant.deal_seed * 10 + seat) for seat, name in enumerate(variant.bots)
    ]
    history = [snapshot(run.deal)]
    for _ in range(MAX_MOVES):
        deal = run.deal
        if deal.is_over:
            return history
        before = history[-1]
        try:
            choice = bots[deal.turn].choose(PlayerView.of(deal))
        except Exception as error:
            name = variant.bots[deal.turn]
            run.finding("bot", "choose", f"{name} raised {error!r}", type(error).__name__)
            return None
        if tries and rng.random() < TRY_RATE:
            now = snapshot(deal)
            if now != before:
                run.finding("ply", "view", f"making a view changed {state_diff(now, before)}")
                return None
            maker = TryMaker(deal, rng, choice.move)
            attempts = [
                maker.garbage() if rng.random() < GARBAGE_SHARE else maker.illegal()
                for _ in range(rng.randint(1, MAX_TRIES))
            ]
            if rng.random() < LISTED_RATE:
                attempts.append(maker.listed())
            for attempt in attempts:
                if not run_try(run, attempt, before):
                    return None
            deal = run.deal
        try:
            deal.push(choice.move)
        except Exception as error:
            detail = f"the bot's move {choice.move} was refused: {error!r}"
            run.finding("bot", "push", detail, type(error).__name__)
            return None
        run.moves.append(choice.move)
        run.report.legal_moves += 1
        after = snapshot(deal)
        ply_checks(run, before, after, choice.move)
        history.append(after)
    run.finding("endless", "deal", f"no end after {MAX_MOVES} moves")
    return None


def fuzz_deal(
    seed: int, index: int, pop_walk: bool = True, report: FuzzReport | None = None
) -> FuzzReport:
    """Fuzz deal number `index` of a run seeded `seed`; its figures and findings are added to
    `report` (a new one by default), which is returned."""
    report = FuzzReport(seed=seed) if report is None else report
    report.deals += 1
    try:
        variant = variant_for(seed, index)
    except ValueError as error:  # the rules refused a setting the fuzz picked
        report.add(
            Finding(
                kind="end",
                label="set-up",
                detail=f"the rules of the variant were refused: {error}",
                signature="end | set-up | rules",
                seed=seed,
                index=index,
                deal_seed=deal_seed(seed, index),
                players=2 + index % 4,
                dealer=-1,
                rules={},
                variant="?",
            )
        )
        return report
    report.players[variant.players] += 1
    report.features.update(variant.features())
    report.bots.update(variant.bots)
    rng = random.Random(f"penang-fuzz/{seed}/{index}/tries")
    try:
        run = FuzzRun(variant, report)
    except Exception as error:
        report.add(
            Finding(
                kind="end",
                label="set-up",
                detail=f"the deal could not be made: {error!r}",
                signature=f"end | set-up | {type(error).__name__}",
                seed=seed,
                index=index,
                deal_seed=variant.deal_seed,
                players=variant.players,
                dealer=-1 if variant.dealer is None else variant.dealer,
                rules=variant.rules.as_dict(),
                variant=variant.describe(),
            )
        )
        return report
    history = play(run, rng)
    if history is None:
        return report
    _after_end_tries(run, rng)
    end_checks(run, history)
    record_checks(run)
    if pop_walk:
        walk_back(run, history)
    return report


# -- many deals ------------------------------------------------------------------------------------
def _fuzz_range(job: tuple[int, int, int, int]) -> FuzzReport:
    """Deals `start` to `stop` - 1 of a run (runs in a worker process)."""
    seed, start, stop, pop_every = job
    report = FuzzReport(seed=seed)
    for index in range(start, stop):
        fuzz_deal(seed, index, pop_walk=index % pop_every == 0, report=report)
    return report


class _Bar:
    """A progress bar on stderr: tqdm when it is installed, else a line of our own."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.start = time.perf_counter()
        self.bar: Any = None
        try:
            from tqdm import tqdm  # type: ignore[import-untyped]
        except ImportError:
            return
        self.bar = tqdm(total=total, desc="fuzz", unit="deal", file=sys.stderr)

    def update(self, n: int, findings: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.set_postfix(findings=findings, refresh=False)
            self.bar.update(n)
            return
        rate = self.done / max(time.perf_counter() - self.start, 1e-9)
        width = 30
        filled = width * self.done // max(self.total, 1)
        sys.stderr.write(
            f"\rfuzz [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
            f"{rate:.0f} deals/s, {findings} findings"
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        else:
            sys.stderr.write("\n")


def fuzz(
    deals: int,
    seed: int = 0,
    jobs: int = 1,
    progress: bool = False,
    pop_every: int = 1,
) -> FuzzReport:
    """Fuzz `deals` deals of a run seeded `seed` and return the figures and findings.

    `jobs` > 1 plays in that many worker processes (at most one per CPU). The full `pop()` walk
    runs on every `pop_every`-th deal (all of them by default); every other check runs on every
    deal. The same arguments give the same report whatever `jobs` is (times aside).
    """
    if deals < 0:
        raise ValueError(f"the number of deals cannot be negative ({deals})")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1 ({jobs})")
    if pop_every < 1:
        raise ValueError(f"pop_every must be at least 1 ({pop_every})")
    jobs = min(jobs, os.cpu_count() or 1)
    report = FuzzReport(seed=seed, jobs=jobs)
    work = [(seed, start, min(deals, start + CHUNK), pop_every) for start in range(0, deals, CHUNK)]
    bar = _Bar(deals) if progress else None
    clock = time.perf_counter()
    try:
        if jobs == 1 or len(work) < 2:
            for job in work:
                report.merge(_fuzz_range(job))
                if bar is not None:
                    bar.update(job[2] - job[1], report.total_findings)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = {pool.submit(_fuzz_range, job): job for job in work}
                for future in as_completed(futures):
                    job = futures[future]
                    report.merge(future.result())
                    if bar is not None:
                        bar.update(job[2] - job[1], report.total_findings)
    finally:
        if bar is not None:
            bar.close()
    report.seconds = time.perf_counter() - clock
    return report
