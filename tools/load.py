"""Many learners on one tutorial site: `python -m tools.load --learners 30`.

Starts `penang-rummy serve --class N` on a free port of 127.0.0.1, waits until its kernels are
ready, then lets N learners (widget-protocol clients, `tools.learners.Learner`) arrive
within `--spread` seconds, and `--browsers` more in headless Chromium (at a lower CPU priority,
`--browser-nice`: in a class each browser has a device of its own). Each learner:

1. opens the stepping lesson (07) and waits for its widgets' states: the arrival time;
2. clicks Next `--clicks` times, reading each step for `--think` seconds (1 to 3 at random by
   default), timing each round trip to the new explanation;
3. opens the playing lesson (08) and plays `--moves` moves from the Hint (select the hinted
   cards, press the hinted action; after End turn, Bots to my turn), timing each;
4. closes both pages as a browser tab does (Voila's page-close shutdown).

It prints the errors, the arrival times, the round trips (median, p95), the memory of one
learner's kernel against a bare kernel that has imported ipywidgets and pandas, and whether the
closed pages' kernels were shut down and their memory returned. Exit status 1 when a learner
met an error. Figures only: the goals are judged by a reader (see the issue), and the test
(tests/site/test_load.py) runs a small class and checks the behaviour, never a time.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shlex
import statistics
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]

from penang_lib.site.serve import catalogue
from penang_lib.widgets.controls import Control, label
from tools.learners import Learner, Model, PageError
from tools.site_runner import Server, start_site, wait_ready

STEP_LESSON = "07_whole_deal.ipynb"
PLAY_LESSON = "08_play.ipynb"
NEXT = label(Control.NEXT)
"""The stepper's Next button, by its label."""
HINT_ACTIONS = (
    ("Hint: meld", Control.MELD),
    ("Hint: lay off", Control.LAY_OFF),
    ("Hint: swap", Control.SWAP),
    ("Hint: end the turn", Control.END_TURN),
    ("Hint: declare Dead", Control.DEAD),
    ("Hint: declare Game", Control.GAME),
)
"""The start of a hint's sentence, and the button that plays the hinted move."""


Think = Callable[[], Awaitable[None]]
"""A learner reading what a click showed before the next click."""


@dataclass
class Outcome:
    """What one learner saw."""

    arrival: float = 0.0
    nexts: list[float] = field(default_factory=list)
    next_starts: list[float] = field(default_factory=list)
    arrived_at: float = 0.0
    moves: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    kernels: list[str] = field(default_factory=list)
    shutdowns: list[int] = field(default_factory=list)


def percentile(values: list[float], share: float) -> float:
    """The `share` quantile (0.95 = p95), nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def _stepper_parts(learner: Learner) -> tuple[Model, Model]:
    stepper = learner.find(cls="penang-stepper")
    if not stepper:
        raise PageError("the stepping lesson shows no stepper")
    inside = learner.inside(stepper[0])
    nexts = [m for m in inside if m.name == "ButtonModel" and m.state.get("description") == NEXT]
    explain = [m for m in inside if "penang-explain" in m.classes]
    if not nexts or not explain:
        raise PageError("the stepper has no Next button or explanation")
    return nexts[0], explain[0]


def _play_parts(learner: Learner) -> tuple[dict[str, Model], Model]:
    """The play table's buttons, by their labels (what the page shows), and its message."""
    tables = learner.find(cls="penang-play")
    if not tables:
        raise PageError("the playing lesson shows no play table")
    inside = learner.inside(tables[0])
    buttons = {
        str(m.state.get("description")): m
        for m in inside
        if m.name == "ButtonModel" and m.state.get("description")
    }
    message = [m for m in inside if "penang-message" in m.classes]
    if not message:
        raise PageError("the play table has no message line")
    return buttons, message[0]


async def step_through(learner: Learner, clicks: int, outcome: Outcome, think: Think) -> None:
    button, explanation = _stepper_parts(learner)
    for _ in range(clicks):
        if button.state.get("disabled"):
            break
        outcome.next_starts.append(time.perf_counter())
        outcome.nexts.append(await learner.click(button, explanation))
        await think()


async def play_moves(learner: Learner, moves: int, outcome: Outcome, think: Think) -> None:
    buttons, message = _play_parts(learner)
    for _ in range(moves):
        outcome.moves.append(await learner.click(buttons[label(Control.HINT)], message))
        await think()
        said = str(message.state.get("value", ""))
        action = next((name for prefix, name in HINT_ACTIONS if prefix in said), None)
        if action is None:  # not the learner's turn, or the deal is over
            if buttons[label(Control.BOTS_TO_ME)].state.get("disabled"):
                return
            await learner.click(buttons[label(Control.BOTS_TO_ME)], message)
            await think()
            continue
        outcome.moves.append(await learner.click(buttons[label(action)], message))
        await think()
        if action in (Control.END_TURN, Control.DEAD):
            await learner.click(buttons[label(Control.BOTS_TO_ME)], message)
            await think()


async def one_learner(
    base: str, delay: float, clicks: int, moves: int, timeout: float, think: Think
) -> tuple[Outcome, list[Learner]]:
    """One learner's visit; the pages stay open (see `close_pages`)."""
    outcome = Outcome()
    await asyncio.sleep(delay)
    pages: list[Learner] = []
    try:
        step = Learner(base, timeout=timeout)
        pages.append(step)
        await step.open(f"voila/render/{STEP_LESSON}")
        outcome.arrival = step.load_seconds
        outcome.arrived_at = time.perf_counter()
        outcome.kernels.append(step.kernel_id)
        await step_through(step, clicks, outcome, think)
        if moves:
            play = Learner(base, timeout=timeout, cookies=dict(step.cookies))
            pages.append(play)
            await play.open(f"voila/render/{PLAY_LESSON}")
            outcome.kernels.append(play.kernel_id)
            await play_moves(play, moves, outcome, think)
    except Exception as error:  # every learner's trouble is counted, none stops the others
        outcome.errors.append(f"{type(error).__name__}: {error}")
    return outcome, pages


async def class_arrives(
    base: str,
    learners: int,
    spread: float,
    clicks: int,
    moves: int,
    timeout: float,
    reading: tuple[float, float] = (0.05, 0.05),
) -> list[tuple[Outcome, list[Learner]]]:
    """`learners` arrive at random moments within `spread` seconds, and read for a random time
    within `reading` seconds after each click (all seeded: the same each run)."""
    rng = random.Random(0)
    delays = sorted(rng.uniform(0, spread) for _ in range(learners))

    def reader(number: int) -> Think:
        pace = random.Random(number)

        async def think() -> None:
            await asyncio.sleep(pace.uniform(*reading))

        return think

    return list(
        await asyncio.gather(
            *(one_learner(base, d, clicks, moves, timeout, reader(n)) for n, d in enumerate(delays))
        )
    )


async def close_pages(visits: list[tuple[Outcome, list[Learner]]]) -> None:
    """Every learner closes its tabs: the page-close shutdown of each kernel."""

    async def close(outcome: Outcome, page: Learner) -> None:
        try:
            outcome.shutdowns.append(await page.shutdown())
        except Exception as error:
            outcome.errors.append(f"closing the page: {error}")

    await asyncio.gather(
        *(close(outcome, page) for outcome, pages in visits for page in pages if page.kernel_id)
    )


def kernel_processes(server: Server) -> dict[str, psutil.Process]:
    """The server's kernels by kernel id (read from each kernel's connection file name)."""
    out = {}
    try:
        children = psutil.Process(server.process.pid).children(recursive=True)
    except psutil.Error:
        return {}
    for child in children:
        try:
            for arg in child.cmdline():
                if "kernel-" in arg and arg.endswith(".json"):
                    out[arg.rsplit("kernel-", 1)[1].removesuffix(".json")] = child
        except psutil.Error:
            continue
    return out


def cpu_seconds(process: psutil.Process) -> float:
    """The CPU time (user and system) `process` has spent, 0 once it is gone."""
    try:
        times = process.cpu_times()
        return float(times.user + times.system)
    except psutil.Error:
        return 0.0


def memory_mb(process: psutil.Process) -> float:
    """A process's own memory (USS where the system gives it, else RSS), in MB."""
    try:
        info = process.memory_full_info()
        return float(getattr(info, "uss", info.rss)) / 2**20
    except psutil.Error:
        return 0.0


def bare_kernel_mb() -> float:
    """The memory of a bare kernel that has imported ipywidgets and pandas."""
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        client.execute_interactive("import ipywidgets, pandas", timeout=60)
        time.sleep(0.5)
        pid = manager.provisioner.process.pid  # type: ignore[union-attr]
        return memory_mb(psutil.Process(pid))
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def start_class_site(learners: int, pool: int = 1) -> Server:
    """The site as a teacher starts it for this class: `serve --class N` for both lessons."""
    lessons = ["--lesson", STEP_LESSON, "--lesson", PLAY_LESSON]
    return start_site(pool, extra=["--class", str(learners), *lessons])


def niced(executable: str, niceness: int, folder: Path) -> str:
    """A script in `folder` that runs `executable` with its arguments at CPU priority
    `niceness` (0: `executable` itself). Every process the program starts inherits it."""
    if niceness <= 0:
        return executable
    script = folder / f"niced-{Path(executable).name}"
    script.write_text(f'#!/bin/sh\nexec nice -n {niceness} {shlex.quote(executable)} "$@"\n')
    script.chmod(0o755)
    return str(script)


@dataclass
class Browsers:
    """Headless Chromium for the learners who come with a real browser (launched before the
    class arrives, as their machines would be).

    In a class each browser runs on the learner's own device. Here they share the server's two
    cores, so they run at a lower CPU priority (`niceness`, 0 for the same as the server): the
    server's figures are then not the browsers' page work, and the browsers' own times to the
    first widget are an upper bound."""

    count: int
    niceness: int = 10
    playwright: Any = None
    browser: Any = None
    pages: list[Any] = field(default_factory=list)
    folder: tempfile.TemporaryDirectory[str] | None = None

    def __post_init__(self) -> None:
        from tools.site_runner import CHROMIUM_ARGS, chromium_path

        path = chromium_path()
        if self.count <= 0 or path is None:
            self.count = 0
            return
        from playwright.sync_api import sync_playwright

        self.folder = tempfile.TemporaryDirectory()
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(
            executable_path=niced(path, self.niceness, Path(self.folder.name)),
            args=list(CHROMIUM_ARGS),
        )

    def arrive(self, server: Server, spread: float) -> list[float]:
        """Open the stepping lesson at random moments within `spread` seconds; the times to
        the first widget."""
        rng = random.Random(1)
        start_time = time.perf_counter()
        times = []
        for delay in sorted(rng.uniform(0, spread) for _ in range(self.count)):
            time.sleep(max(0.0, delay - (time.perf_counter() - start_time)))
            page = self.browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            began = time.perf_counter()
            page.goto(f"{server.url}voila/render/{STEP_LESSON}", wait_until="commit")
            page.wait_for_selector(".penang-kit", state="visible", timeout=300_000)
            times.append(time.perf_counter() - began)
            self.pages.append(page)
        return times

    def close(self) -> None:
        for page in self.pages:
            page.close(run_before_unload=True)
        if self.browser is not None:
            time.sleep(1)
            self.browser.close()
            self.playwright.stop()
        if self.folder is not None:
            self.folder.cleanup()


def report(outcomes: list[Outcome], lines: list[str]) -> None:
    arrivals = [o.arrival for o in outcomes if o.arrival]
    nexts = [t for o in outcomes for t in o.nexts]
    moves = [t for o in outcomes for t in o.moves]
    errors = [e for o in outcomes for e in o.errors]
    lines.append(f"learners: {len(outcomes)}, errors: {len(errors)}")
    for error in errors[:10]:
        lines.append(f"  error: {error}")
    everyone = max((o.arrived_at for o in outcomes), default=0.0)
    settled = [
        t for o in outcomes for t, at in zip(o.nexts, o.next_starts, strict=True) if at > everyone
    ]
    for name, values, unit in (
        ("page with its widgets", arrivals, "s"),
        ("Next round trip", nexts, "ms"),
        ("Next round trip once the whole class has its page", settled, "ms"),
        ("play move round trip", moves, "ms"),
    ):
        if values:
            scale, digits = (1000, 0) if unit == "ms" else (1, 2)
            lines.append(
                f"{name}: median {statistics.median(values) * scale:.{digits}f} {unit}, "
                f"p95 {percentile(values, 0.95) * scale:.{digits}f} {unit}, "
                f"max {max(values) * scale:.{digits}f} {unit} over {len(values)}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Many learners on one tutorial site.")
    parser.add_argument("--learners", type=int, default=30, help="how many (1 to 60)")
    parser.add_argument("--spread", type=float, default=3.0, help="arrivals within S seconds")
    parser.add_argument("--clicks", type=int, default=10, help="Next clicks per learner")
    parser.add_argument("--moves", type=int, default=3, help="hinted moves per learner")
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=(1.0, 3.0),
        metavar=("LOW", "HIGH"),
        help="seconds a learner reads after each click, at random between LOW and HIGH "
        "(default 1 3; 0.05 0.05 for learners who click as fast as the page answers)",
    )
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per answer")
    parser.add_argument(
        "--browsers",
        type=int,
        default=2,
        help="more learners, in headless Chromium, arriving with the class: their time to the "
        "first widget includes the browser's own work (default 2; 0 for none)",
    )
    parser.add_argument(
        "--browser-nice",
        type=int,
        default=10,
        help="CPU priority of the Chromium learners (`nice`): in a class each runs on its own "
        "device, here they share the server's cores (default 10; 0 for the server's own)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.learners <= 60:
        parser.error("--learners is a number from 1 to 60")
    if not 0 <= args.browser_nice <= 19:
        parser.error("--browser-nice is a number from 0 (the server's priority) to 19")
    lines: list[str] = []
    outcomes: list[Outcome] = []
    bare = bare_kernel_mb()
    started = time.perf_counter()
    server = start_class_site(args.learners + max(args.browsers, 0))
    try:
        wait_ready(server, {lesson["file"] for lesson in catalogue()}, timeout=900)
        ready = time.perf_counter() - started
        kernels_before = kernel_processes(server)
        plan = next((line for line in server.log if "Preparing for a class" in line), "")
        lines.append(plan)
        lines.append(f"site ready with {len(kernels_before)} kernels in {ready:.0f} s")
        total_before = sum(memory_mb(p) for p in kernels_before.values())
        available_before = psutil.virtual_memory().available / 2**20
        loop = asyncio.new_event_loop()
        arriving = threading.Thread(
            target=lambda: visits.extend(
                loop.run_until_complete(
                    class_arrives(
                        server.url,
                        args.learners,
                        args.spread,
                        args.clicks,
                        args.moves,
                        args.timeout,
                        tuple(args.think),
                    )
                )
            )
        )
        visits: list[tuple[Outcome, list[Learner]]] = []
        browsers = Browsers(args.browsers, args.browser_nice)
        arriving.start()
        browser_times = browsers.arrive(server, args.spread)
        arriving.join()
        outcomes = [outcome for outcome, _ in visits]
        report(outcomes, lines)
        if browser_times:
            shown = ", ".join(f"{t:.1f}" for t in browser_times)
            lines.append(f"learners in Chromium on this machine, first widget: {shown} s")
        used = [k for o in outcomes for k in o.kernels]
        during = kernel_processes(server)
        learner_mb = [memory_mb(p) for k, p in during.items() if k in used]
        if learner_mb:
            one = statistics.median(learner_mb)
            lines.append(
                f"one learner's kernel: median {one:.0f} MB, max {max(learner_mb):.0f} MB; a "
                f"bare kernel with ipywidgets and pandas {bare:.0f} MB: {one / bare:.2f}x "
                "(goal <= 1.3x)"
            )
        available_during = psutil.virtual_memory().available / 2**20
        # The learners' sockets live on `loop`; Playwright keeps a loop of its own running in
        # this thread, so the class leaves from the thread it arrived in.
        leaving = threading.Thread(target=lambda: loop.run_until_complete(close_pages(visits)))
        leaving.start()
        leaving.join()
        loop.close()
        browsers.close()
        time.sleep(5)
        after = kernel_processes(server)
        left = [k for k in used if k in after]
        statuses = sorted({s for o in outcomes for s in o.shutdowns})
        available_after = psutil.virtual_memory().available / 2**20
        lines.append(
            f"closed pages: {len(used)} kernels, {len(left)} still running 5 s later "
            f"(shutdown answers {statuses}); free memory {available_before:.0f} MB before the "
            f"class, {available_during:.0f} MB during, {available_after:.0f} MB after "
            f"(kernels' own memory {total_before:.0f} MB before, "
            f"{sum(memory_mb(p) for p in after.values()):.0f} MB after, refills included)"
        )
    finally:
        server.stop()
    print("\n".join(lines))
    return 1 if any(o.errors for o in outcomes) else 0


if __name__ == "__main__":
    raise SystemExit(main())
