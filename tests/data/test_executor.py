"""`simulate(..., executor=...)`: the same frame on a process pool, a thread pool or a Dask
cluster as when the deals are played one after another, and the executor stays the caller's."""

from __future__ import annotations

import concurrent.futures
import importlib
import multiprocessing
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, ClassVar

import pandas as pd
import pytest
from distributed import Client, LocalCluster

from penang_lib import ArgumentTypeError, Deal, Rules
from penang_lib.data.simulate import COLUMNS, deal_seed, simulate
from penang_lib.engine.bots import play_deal

DEALS = 24
SIMULATE = importlib.import_module("penang_lib.data.simulate")
"""The module (the package's attribute `penang_lib.data.simulate` is the function)."""
MIXED = {3: "careful,random,greedy", 4: "random,careful,greedy,random"}
"""Mixed bots per player count, so that every bot plays in every run."""


def serial(players: int, seed: int = 5) -> pd.DataFrame:
    return simulate(DEALS, players=players, bots=MIXED[players], seed=seed)


def still_open(executor: Executor) -> bool:
    """True when `executor` still takes work (a shut-down executor refuses `submit`)."""
    return bool(executor.submit(pow, 2, 10).result(timeout=60) == 1024)


class LostInTransit(Rules):
    """The rule book's rules here, but text once pickled: a worker process receives the string
    and `play_deal` refuses it there, so the error is raised in the worker and nowhere else."""

    def __reduce__(self) -> tuple[Callable[..., str], tuple[str]]:
        return (str, ("rules lost in transit",))


LOST = r"^rules should be a Rules .*'rules lost in transit'"
"""What `play_deal` says in a worker that received `LostInTransit()`."""


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    # Spawned workers start from nothing and import penang_lib, as on another machine; they are
    # also safe next to the threads a Dask client runs in this process.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as executor:
        yield executor


@pytest.mark.parametrize("players", [3, 4])
def test_a_process_pool_gives_the_serial_frame(pool: ProcessPoolExecutor, players: int) -> None:
    frame = simulate(DEALS, players=players, bots=MIXED[players], seed=5, executor=pool)
    pd.testing.assert_frame_equal(frame, serial(players))
    assert list(frame["deal"]) == [d for d in range(DEALS) for _ in range(players)]
    assert still_open(pool)


def test_a_thread_pool_gives_the_serial_frame() -> None:
    with ThreadPoolExecutor(max_workers=2) as threads:
        frame = simulate(DEALS, players=4, bots=MIXED[4], seed=5, executor=threads)
        assert still_open(threads)
    pd.testing.assert_frame_equal(frame, serial(4))


def test_no_deals_on_an_executor() -> None:
    with ThreadPoolExecutor(max_workers=2) as threads:
        frame = simulate(0, executor=threads)
    assert list(frame.columns) == list(COLUMNS) and len(frame) == 0
    pd.testing.assert_frame_equal(frame, simulate(0))


def test_the_bar_counts_every_deal_on_an_executor(capsys: pytest.CaptureFixture[str]) -> None:
    with ThreadPoolExecutor(max_workers=2) as threads:
        simulate(DEALS, players=3, executor=threads, progress=True)
    assert f"{DEALS}/{DEALS}" in capsys.readouterr().err


class RecordingPool(ProcessPoolExecutor):
    """A process pool that notes how it was made and whether it was shut down."""

    made: ClassVar[list[RecordingPool]] = []

    def __init__(self, max_workers: int | None = None, **options: Any) -> None:
        super().__init__(max_workers=max_workers, **options)
        self.max_workers = max_workers
        self.shut = False
        RecordingPool.made.append(self)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shut = True
        super().shutdown(wait=wait, cancel_futures=cancel_futures)


def test_jobs_make_and_shut_down_a_pool_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    # Four cores, whatever this machine has, so that jobs=3 really asks for three workers.
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", RecordingPool)
    RecordingPool.made.clear()
    before = set(multiprocessing.active_children())
    frame = simulate(DEALS, players=4, bots=MIXED[4], seed=5, jobs=3)
    pd.testing.assert_frame_equal(frame, serial(4))
    assert [(p.max_workers, p.shut) for p in RecordingPool.made] == [(3, True)]
    assert set(multiprocessing.active_children()) <= before  # its workers have ended


def test_an_executor_and_jobs_together_are_refused(pool: ProcessPoolExecutor) -> None:
    with pytest.raises(ValueError, match="executor or jobs=2, not both"):
        simulate(DEALS, executor=pool, jobs=2)
    assert still_open(pool)
    # jobs=1 (the default) with an executor is no conflict.
    pd.testing.assert_frame_equal(
        simulate(DEALS, players=3, bots=MIXED[3], seed=5, jobs=1, executor=pool), serial(3)
    )


@pytest.mark.parametrize(
    "value", ["processes", 2, True, object(), ProcessPoolExecutor, {"max_workers": 2}]
)
def test_a_value_that_is_not_an_executor_is_refused(value: object) -> None:
    with pytest.raises(
        ArgumentTypeError, match=r"^executor should be a concurrent\.futures\.Executor"
    ):
        simulate(3, executor=value)  # type: ignore[arg-type]


def test_a_worker_process_error_reaches_the_caller(pool: ProcessPoolExecutor) -> None:
    lost = LostInTransit()
    # Played here the rules are fine: only a worker, which gets them pickled, fails.
    assert len(simulate(2, players=3, rules=lost)) == 6
    with pytest.raises(ArgumentTypeError, match=LOST):
        simulate(DEALS, players=3, rules=lost, executor=pool)
    assert still_open(pool)


class Boom(Exception):
    """The error one deal raises in a worker thread."""


def test_a_worker_thread_error_reaches_the_caller_as_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert SIMULATE.play_deal is play_deal  # the function simulate's chunks call
    failing_seed = deal_seed(5, 7)
    raised: list[Boom] = []

    def play_or_fail(seed: int, *args: Any) -> Deal:
        if seed == failing_seed:
            raised.append(Boom(f"deal {seed} failed"))
            raise raised[-1]
        return play_deal(seed, *args)

    monkeypatch.setattr(SIMULATE, "play_deal", play_or_fail)
    with ThreadPoolExecutor(max_workers=2) as threads:
        with pytest.raises(Boom) as caught:
            simulate(DEALS, players=4, seed=5, executor=threads)
        assert still_open(threads)
    assert len(raised) == 1 and caught.value is raised[0]


# -- a Dask cluster: last in this file, so that the process pools above start before its
# threads run in this process ----------------------------------------------------------------
@pytest.fixture(scope="module")
def dask_client() -> Iterator[Client]:
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


@pytest.mark.parametrize("players", [3, 4])
def test_a_dask_cluster_gives_the_serial_frame(dask_client: Client, players: int) -> None:
    executor = dask_client.get_executor()
    frame = simulate(DEALS, players=players, bots=MIXED[players], seed=5, executor=executor)
    pd.testing.assert_frame_equal(frame, serial(players))
    assert still_open(executor)


def test_a_dask_worker_error_reaches_the_caller(dask_client: Client) -> None:
    executor = dask_client.get_executor()
    with pytest.raises(ArgumentTypeError, match=LOST):
        simulate(DEALS, players=3, rules=LostInTransit(), executor=executor)
    assert still_open(executor)
