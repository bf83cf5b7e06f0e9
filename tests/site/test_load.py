"""A small class (three learners) on the real site, at the same moment: the load command's own
scenario (tools/load.py) at CI size. The full size (30 learners, with the figures) is
`python -m tools.load --learners 30`. Behaviour only: no time is asserted."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from benchmarks import load
from benchmarks.load import Teacher
from penang_lib.site.serve import catalogue
from tools.learners import run_sync
from tools.load import Outcome, class_arrives, close_pages, kernel_processes, niced
from tools.site_runner import Server, wait_idle

LEARNERS = 3
CLICKS = 3
MOVES = 2


def test_three_learners_step_play_and_leave_no_kernel_behind(site: Server) -> None:
    wait_idle(site)

    async def lesson() -> tuple[list[Outcome], set[str]]:
        visits = await class_arrives(site.url, LEARNERS, 1.0, CLICKS, MOVES, 120)
        running = set(kernel_processes(site))
        await close_pages(visits)
        return [outcome for outcome, _ in visits], running

    outcomes, running = run_sync(lesson())
    assert [o.errors for o in outcomes] == [[]] * LEARNERS
    kernels = {k for o in outcomes for k in o.kernels}
    assert len(kernels) == 2 * LEARNERS  # every page had a kernel of its own
    assert kernels <= running
    for outcome in outcomes:
        assert len(outcome.nexts) == CLICKS  # every Next changed the explanation
        assert outcome.moves  # the hinted moves were answered
        assert outcome.shutdowns == [204, 204]  # both tabs closed
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and kernels & set(kernel_processes(site)):
        time.sleep(0.5)
    assert not kernels & set(kernel_processes(site))  # closed pages' kernels are gone


@pytest.mark.parametrize("niceness", [3, 0])
def test_browser_learners_run_at_the_niceness_asked(tmp_path: Path, niceness: int) -> None:
    """The Chromium learners' wrapper runs the program, with its arguments, at that niceness."""
    program = niced(sys.executable, niceness, tmp_path)
    assert (program == sys.executable) == (niceness == 0)
    shown = subprocess.run(
        [program, "-c", "import os, sys; print(os.nice(0), sys.argv[1:])", "a b", "c"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split(maxsplit=1)
    assert shown == [str(min(19, os.nice(0) + niceness)), "['a b', 'c']\n"]


def test_a_small_class_arrives_presses_next_fast_and_leaves(site: Server, browser: Browser) -> None:
    """Issue 22's first class at CI size: the teacher's tab open first, then learners who fetch
    what the browser fetched, press Next a line's reading apart, and close their tabs."""
    wait_idle(site)
    teacher = Teacher(site, browser)
    try:
        assets = teacher.open(load.FIRST)
        visits = run_sync(
            load.arrive_and_leave(
                site.url, [(load.FIRST, assets)], LEARNERS, 1.0, CLICKS, load.FAST, 120
            )
        )
    finally:
        teacher.close()
    assert any("/labextensions/" in a for a in assets) and any(".css" in a for a in assets)
    for outcome, learner in visits:
        assert outcome.errors == []
        assert len(outcome.nexts) == CLICKS
        assert 0 < learner.asset_bytes < sum(asset_sizes(site, assets))  # sent compressed
        assert outcome.shutdowns == [204]
    closed = {k for o, _ in visits for k in o.kernels}
    assert len(closed) == LEARNERS
    assert load.still_running(site, closed, wait=30) == set()


def test_two_small_classes_on_two_lessons_leave_no_kernel_behind(
    site: Server, browser: Browser
) -> None:
    wait_idle(site)
    teacher = Teacher(site, browser)
    try:
        lessons = [(load.FIRST, teacher.open(load.FIRST)), (load.SECOND, teacher.open(load.SECOND))]
        visits = run_sync(load.arrive_and_leave(site.url, lessons, 2, 1.0, 2, (0.2, 0.5), 120))
    finally:
        teacher.close()
    assert [o.errors for o, _ in visits] == [[]] * 4
    assert sorted(len(o.nexts) for o, _ in visits) == [2] * 4
    closed = {k for o, _ in visits for k in o.kernels}
    assert len(closed) == 4
    assert load.still_running(site, closed, wait=30) == set()


def test_the_memory_of_a_lessons_kernel_is_measured(site: Server) -> None:
    """The benchmark's memory figure, on two lessons (the full run measures every one)."""
    wait_idle(site)
    files = [lesson["file"] for lesson in catalogue()][:2]
    figures = load.lesson_memory(site, 120, files)
    assert sorted(figures) == sorted(file[:2] for file in files)
    assert all(mb > 20 for mb in figures.values())  # a real kernel, found and measured


def asset_sizes(site: Server, assets: list[str]) -> list[int]:
    """Each asset's size as sent to a client that does not accept gzip."""
    sizes = []
    for path in assets:
        with urllib.request.urlopen(site.url + path, timeout=30) as reply:
            sizes.append(len(reply.read()))
    return sizes
