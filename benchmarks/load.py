"""Two classes on one small machine, against the goals of issue 22: `python -m benchmarks.load`.

Each scenario runs twice in one run, in turns: on the site as it was before issue 22 ("before",
the revision `BEFORE`, served from a git worktree of this checkout) and on this checkout
("now"), with the same learners, so the two columns of the report differ only by the site.

- **one class**: `serve --class N --lesson 01`. The teacher opens the lesson in headless
  Chromium first and keeps the tab open (that records what a browser fetches for the page, and
  takes a kernel of the class's reserve, as a teacher checking the page does). Then N learners
  arrive within `--spread` seconds: each fetches the page, every script, style and font the
  browser fetched (over 6 connections kept open, accepting gzip), opens the kernel's websocket
  (in the page's own v1 protocol), asks for its kernel info and every widget's state (the page
  with its widgets), then presses Next as fast as a learner reads a line (0.1 to 0.3 s after
  each answer).
- **two classes**: `serve --class N --lesson 01 --lesson 07`. The teacher opens both lessons;
  N learners on each arrive within `--spread` seconds and press Next at a reader's pace (1 to
  3 s), then close their tabs; every closed page's kernel must be gone.
- **memory**: after the first class has left, one learner opens each lesson in turn; the
  memory of each page's kernel (USS).

The "before" site draws lessons 9 and 10 with matplotlib, which is in the `bench` extra
(`make bench` installs it), not in the kit's own dependencies any more.

Figures only, each beside its goal; nothing here asserts a time. `tests/site/test_load.py`
runs both classes at 3 to 5 learners in `make test`, checking the behaviour.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]

from penang_lib.site.serve import catalogue
from tools.learners import Learner, run_sync
from tools.load import (
    Outcome,
    Think,
    close_pages,
    cpu_seconds,
    kernel_processes,
    memory_mb,
    percentile,
    step_through,
)
from tools.site_runner import ROOT, Server, start_site, wait_ready

BEFORE = "8410d73"
"""The site before issue 22's changes: the last commit of issue 21."""
FIRST = "01_deck_and_deal.ipynb"
SECOND = "07_whole_deal.ipynb"
FAST = (0.1, 0.3)
"""Seconds between an answer and the next press, for a learner who reads one line."""
READER = (1.0, 3.0)
"""Seconds between an answer and the next press, for a learner who reads the step."""


@dataclass
class Goal:
    """One goal of the issue: what is measured, its limit and its unit."""

    name: str
    limit: float
    unit: str

    def verdict(self, value: float | None) -> str:
        if value is None:
            return "not measured"
        return "met" if value <= self.limit else "missed"


GOALS = {
    "arrive": Goal("one class arriving at once: page with its widgets, p95", 3.0, "s"),
    "fast": Goal("one class pressing Next as fast as it reads a line: p95", 0.300, "s"),
    "two_arrive": Goal("two classes arriving: page with its widgets, p95", 5.0, "s"),
    "two_next": Goal("two classes pressing Next at a reader's pace: p95", 0.300, "s"),
    "errors": Goal("two classes: errors", 0, ""),
    "left": Goal("two classes: closed pages' kernels still running 10 s later", 0, ""),
    "memory": Goal("one learner's kernel, the heaviest lesson", 100, "MB"),
}


@dataclass
class Figures:
    """What one site measured, by the keys of `GOALS`, with the details around them."""

    values: dict[str, float] = field(default_factory=dict)
    details: list[str] = field(default_factory=list)


@dataclass
class Teacher:
    """The teacher's browser: opens the class's lessons before the class arrives and keeps the
    tabs open; what it fetched for each page is what every learner fetches."""

    server: Server
    browser: Any = None
    """A Playwright browser to open the tabs in (default: one of its own, closed with it)."""
    playwright: Any = None
    pages: list[Any] = field(default_factory=list)

    def open(self, lesson: str) -> list[str]:
        """Open `lesson`; the paths (under the site) of the scripts, styles and fonts the
        browser fetched for it."""
        from playwright.sync_api import sync_playwright

        from tools.site_runner import CHROMIUM_ARGS, NO_CHROMIUM, chromium_path

        if self.browser is None:
            path = chromium_path()
            if path is None:
                raise SystemExit(NO_CHROMIUM)
            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(
                executable_path=path, args=list(CHROMIUM_ARGS)
            )
        page = self.browser.new_context().new_page()
        fetched: list[str] = []
        kinds = ("script", "stylesheet", "font")
        page.on(
            "request",
            lambda r: fetched.append(r.url) if r.resource_type in kinds else None,
        )
        page.goto(f"{self.server.url}voila/render/{lesson}")
        page.wait_for_selector(".penang-kit", state="visible", timeout=300_000)
        page.wait_for_timeout(1000)
        self.pages.append(page)
        base = self.server.url
        return [url[len(base) :] for url in dict.fromkeys(fetched) if url.startswith(base)]

    def close(self) -> None:
        for page in self.pages:
            page.close(run_before_unload=True)
            page.context.close()
        self.pages = []
        if self.playwright is not None:  # the browser is its own
            time.sleep(1)
            self.browser.close()
            self.playwright.stop()
            self.browser = self.playwright = None


@dataclass
class CpuClock:
    """CPU seconds spent from now on by the server's process, its running kernels, and this
    program (the learners' side), to tell which one a figure waits on."""

    server: Server
    start: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def __post_init__(self) -> None:
        self.start = self._now()

    def _now(self) -> tuple[float, float, float]:
        server = psutil.Process(self.server.process.pid)
        kernels = sum(cpu_seconds(p) for p in kernel_processes(self.server).values())
        return cpu_seconds(server), kernels, cpu_seconds(psutil.Process())

    def spent(self) -> str:
        now = self._now()
        server, kernels, learners = (b - a for a, b in zip(self.start, now, strict=True))
        return f"server {server:.1f} s, kernels {kernels:.1f} s, learners {learners:.1f} s"


def reader(number: int, pace: tuple[float, float]) -> Think:
    rng = random.Random(number)

    async def think() -> None:
        await asyncio.sleep(rng.uniform(*pace))

    return think


async def visit(
    base: str,
    lesson: str,
    assets: list[str],
    delay: float,
    clicks: int,
    think: Think,
    timeout: float,
) -> tuple[Outcome, Learner]:
    """One learner: arrives after `delay` seconds, opens `lesson` with its assets, presses Next
    `clicks` times; the page stays open (see `close_pages`)."""
    outcome = Outcome()
    learner = Learner(base, timeout=timeout)
    await asyncio.sleep(delay)
    try:
        await learner.open(f"voila/render/{lesson}", assets)
        outcome.arrival = learner.load_seconds
        outcome.arrived_at = time.perf_counter()
        outcome.kernels.append(learner.kernel_id)
        await step_through(learner, clicks, outcome, think)
    except Exception as error:  # counted; the other learners go on
        outcome.errors.append(f"{type(error).__name__}: {error}")
    return outcome, learner


def summary(values: list[float], scale: float = 1.0, unit: str = "s", digits: int = 2) -> str:
    if not values:
        return "none"
    return (
        f"median {statistics.median(values) * scale:.{digits}f} {unit}, "
        f"p95 {percentile(values, 0.95) * scale:.{digits}f} {unit}, "
        f"max {max(values) * scale:.{digits}f} {unit} over {len(values)}"
    )


async def arrive_and_leave(
    base: str,
    lessons: list[tuple[str, list[str]]],
    learners: int,
    spread: float,
    clicks: int,
    pace: tuple[float, float],
    timeout: float,
    between: Callable[[], object] | None = None,
) -> list[tuple[Outcome, Learner]]:
    """`learners` on each of `lessons` (file, assets) arrive at random moments within
    `spread` seconds (seeded: the same each run) and step through them; then `between` is
    called, and every learner closes their tab (the page-close shutdown of its kernel), on the
    same event loop as their sockets."""
    rng = random.Random(0)
    plan = [(lesson, assets) for lesson, assets in lessons for _ in range(learners)]
    delays = [rng.uniform(0, spread) for _ in plan]
    visits = list(
        await asyncio.gather(
            *(
                visit(base, lesson, assets, delay, clicks, reader(n, pace), timeout)
                for n, ((lesson, assets), delay) in enumerate(zip(plan, delays, strict=True))
            )
        )
    )
    if between is not None:
        between()
    await close_pages([(outcome, [learner]) for outcome, learner in visits])
    return visits


def still_running(server: Server, kernels: set[str], wait: float = 10.0) -> set[str]:
    """The kernels of `kernels` still running `wait` seconds from now (or once all are gone)."""
    deadline = time.monotonic() + wait
    left = kernels & set(kernel_processes(server))
    while left and time.monotonic() < deadline:
        time.sleep(0.5)
        left = kernels & set(kernel_processes(server))
    return left


def started(root: Path, extra: list[str]) -> Server:
    server = start_site(1, extra=extra, root=root)
    wait_ready(server, {lesson["file"] for lesson in catalogue()}, timeout=1200)
    return server


def one_class(root: Path, learners: int, spread: float, clicks: int, timeout: float) -> Figures:
    figures = Figures()
    began = time.perf_counter()
    server = started(root, ["--class", str(learners), "--lesson", FIRST])
    teacher = Teacher(server)
    try:
        figures.details.append(f"site ready in {time.perf_counter() - began:.0f} s")
        assets = teacher.open(FIRST)
        clock = CpuClock(server)
        spent: list[str] = []
        visits = run_sync(
            arrive_and_leave(
                server.url,
                [(FIRST, assets)],
                learners,
                spread,
                clicks,
                FAST,
                timeout,
                between=lambda: spent.append(clock.spent()),
            )
        )
        outcomes = [outcome for outcome, _ in visits]
        pages = [learner for _, learner in visits if learner.kernel_id]
        arrivals = [o.arrival for o in outcomes if o.arrival]
        nexts = [t for o in outcomes for t in o.nexts]
        figures.values["arrive"] = percentile(arrivals, 0.95) if arrivals else float("inf")
        figures.values["fast"] = percentile(nexts, 0.95) if nexts else float("inf")
        weight = statistics.median([p.asset_bytes for p in pages]) / 2**20 if pages else 0.0
        figures.details += [
            f"errors: {sum(len(o.errors) for o in outcomes)}"
            + "".join(f"\n    {e}" for o in outcomes for e in o.errors[:1]),
            f"page with its widgets: {summary(arrivals)}",
            f"  of which the {len(assets)} assets ({weight:.2f} MB on the wire): "
            + summary([p.asset_seconds for p in pages]),
            "  of which the websocket, kernel info and widget states: "
            + summary([p.socket_seconds for p in pages]),
            f"Next, {FAST[0]}-{FAST[1]} s between presses: {summary(nexts, 1000, 'ms', 0)}",
            f"CPU time while the class came and pressed Next: {spent[0]}",
        ]
        teacher.close()
        memory = lesson_memory(server, timeout)
        figures.values["memory"] = max(memory.values())
        each = ", ".join(f"{lesson} {mb:.0f}" for lesson, mb in memory.items())
        figures.details.append(f"kernel memory per lesson (MB): {each}")
    finally:
        teacher.close()
        server.stop()
    return figures


def lesson_memory(
    server: Server, timeout: float, files: Sequence[str] | None = None
) -> dict[str, float]:
    """One learner opens each lesson in turn (or each of `files`): its kernel's memory (MB), by
    lesson number."""
    lessons = [lesson for lesson in catalogue() if files is None or lesson["file"] in files]

    async def each() -> dict[str, float]:
        found = {}
        for lesson in lessons:
            learner = Learner(server.url, timeout=timeout)
            await learner.open(f"voila/render/{lesson['file']}")
            await learner.settle(1.0)
            process = kernel_processes(server).get(learner.kernel_id)
            found[lesson["file"][:2]] = memory_mb(process) if process else 0.0
            await learner.shutdown()
        return found

    return run_sync(each())


def two_classes(root: Path, learners: int, spread: float, clicks: int, timeout: float) -> Figures:
    figures = Figures()
    began = time.perf_counter()
    server = started(root, ["--class", str(learners), "--lesson", FIRST, "--lesson", SECOND])
    teacher = Teacher(server)
    try:
        figures.details.append(f"site ready in {time.perf_counter() - began:.0f} s")
        lessons = [(FIRST, teacher.open(FIRST)), (SECOND, teacher.open(SECOND))]
        visits = run_sync(
            arrive_and_leave(server.url, lessons, learners, spread, clicks, READER, timeout)
        )
        outcomes = [outcome for outcome, _ in visits]
        arrivals = [o.arrival for o in outcomes if o.arrival]
        nexts = [t for o in outcomes for t in o.nexts]
        errors = [e for o in outcomes for e in o.errors]
        closed = {k for o in outcomes for k in o.kernels}
        left = still_running(server, closed)
        figures.values.update(
            two_arrive=percentile(arrivals, 0.95) if arrivals else float("inf"),
            two_next=percentile(nexts, 0.95) if nexts else float("inf"),
            errors=len(errors),
            left=len(left),
        )
        figures.details += [
            f"errors: {len(errors)}" + "".join(f"\n    {e}" for e in errors[:3]),
            f"page with its widgets: {summary(arrivals)}",
            f"Next, {READER[0]:.0f}-{READER[1]:.0f} s between presses: "
            + summary(nexts, 1000, "ms", 0),
            f"closed pages: {len(closed)} kernels, {len(left)} still running",
        ]
    finally:
        teacher.close()
        server.stop()
    return figures


@contextmanager
def checkout(revision: str) -> Iterator[Path]:
    """This repository at `revision`, in a git worktree removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="penang-before-") as folder:
        where = Path(folder) / "site"
        done = subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), revision],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(
                f"cannot check out {revision} to measure the site before: {done.stderr.strip()} "
                "(run from a git checkout, or pass --before none)"
            )
        try:
            yield where
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)],
                capture_output=True,
                check=False,
            )


@contextmanager
def this_checkout() -> Iterator[Path]:
    yield ROOT


def shown(goal: Goal, value: float | None) -> str:
    if value is None:
        return "-"
    if goal.unit == "s":
        return f"{value:.2f} s" if value >= 1 else f"{value * 1000:.0f} ms"
    return f"{value:.0f} {goal.unit}".strip()


def table(columns: dict[str, Figures]) -> list[str]:
    names = list(columns)
    rows = [["goal", "limit", *names, f"{names[-1]}: goal"]]
    for key, goal in GOALS.items():
        values = [columns[name].values.get(key) for name in names]
        verdict = goal.verdict(values[-1])
        rows.append(
            [goal.name, shown(goal, goal.limit), *(shown(goal, v) for v in values), verdict]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]


Scenario = Callable[[Path, int, float, int, float], Figures]


def main(argv: list[str] | None = None) -> int:
    # `--tables N`: the tables of issue 32 instead of the classes (benchmarks/tables_load.py),
    # with the options it reads.
    tables = argparse.ArgumentParser(add_help=False)
    tables.add_argument("--tables", type=int)
    chosen, rest = tables.parse_known_args(argv)
    if chosen.tables is not None:
        from benchmarks import tables_load

        return tables_load.main(["--tables", str(chosen.tables), *rest])
    parser = argparse.ArgumentParser(description="Two classes on one small machine.")
    parser.add_argument("--learners", type=int, default=30, help="per class (1 to 40)")
    parser.add_argument("--spread", type=float, default=1.0, help="arrivals within S seconds")
    parser.add_argument("--clicks", type=int, default=10, help="Next presses per learner")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per answer")
    parser.add_argument(
        "--before",
        default=BEFORE,
        help=f"the revision measured as 'before' (default {BEFORE}; 'none' for this site only)",
    )
    parser.add_argument(
        "--only",
        choices=["one", "two"],
        help="one scenario only: one class, or two classes (default both)",
    )
    parser.add_argument(
        "--tables",
        type=int,
        metavar="N",
        help="N tables of people playing together instead (issue 32; its options are those of "
        "python -m benchmarks.tables_load: --players, --deals, --pace, --seed, --spread, "
        "--timeout, --service)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.learners <= 40:
        parser.error("--learners is a number from 1 to 40")
    scenarios: list[tuple[str, Scenario]] = [
        ("one class", one_class),
        ("two classes", two_classes),
    ]
    if args.only:
        scenarios = [s for s in scenarios if s[0].startswith(args.only)]
    columns: dict[str, Figures] = {}
    lines: list[str] = []
    with checkout(args.before) if args.before != "none" else this_checkout() as before:
        sites = {"now": ROOT} if args.before == "none" else {"before": before, "now": ROOT}
        for title, scenario in scenarios:
            for name, root in sites.items():
                print(f"== {title}, {name} ...", flush=True)
                figures = scenario(root, args.learners, args.spread, args.clicks, args.timeout)
                merged = columns.setdefault(name, Figures())
                merged.values.update(figures.values)
                lines.append(f"-- {title}, {name} ({args.learners} learners per class)")
                lines += [f"  {line}" for line in figures.details]
    print("\n".join(lines))
    print()
    print("\n".join(table(columns)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
