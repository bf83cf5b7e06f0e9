"""Speed of the tutorial site in a real browser, against a bare Voila page served the stock way.

Both are measured in one run on this machine, in headless Chromium through Playwright:
- the bare page: a notebook with one button, `voila bare.ipynb` with no settings of ours (no
  preheated kernel); the time from asking for the page to its button showing, and a click's
  round trip (click to the button's new label, measured in the page);
- every lesson of the site (`penang-rummy serve`, one preheated kernel per lesson): the time to
  its first widget, each load waiting for the site to be ready first (a learner who arrives
  alone); and the stepper lesson's Next round trip (click to a new explanation).

Both servers run for the whole benchmark and are timed in turns (a bare load, then each lesson;
a bare click, then a Next click), so that whatever else the machine does weighs on both alike.

Each page is timed in two ways, the same for both servers, because the browser's cache and
compiled-code cache of Voila's scripts change the figure by a second here: "first", a fresh
browser opening the page directly; and "next", a browser that has just shown another page of
the same server (the bare page itself for the stock server, the lesson before for the site).

Goals of issue 7: the median lesson within 0.8x the bare page's time to its first widget, no
lesson over 1.0x, and a Next round trip within 1.3x of the bare page's click.

Run with `python -m benchmarks.bench_site` (not part of `python -m benchmarks`: it takes
minutes). Figures only: nothing here asserts a time.

`--before PYTHON` compares two versions of the site instead: the site served by PYTHON (a
virtual environment where an older revision is installed) and this one run side by side, and
each lesson is loaded on one and then on the other, in turns (the order swapped every round),
so that whatever else the machine does weighs on both alike. It prints per lesson both medians
and the paired differences' median with a 95% interval (bootstrap over the rounds).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from penang_lib.site.serve import catalogue
from penang_lib.widgets import controls
from tools.site_runner import (
    CHROMIUM_ARGS,
    NO_CHROMIUM,
    ROOT,
    chromium_path,
    free_port,
    start,
    start_site,
    wait_idle,
    wait_ready,
)

BARE_CODE = """import ipywidgets as widgets

button = widgets.Button(description="Click me")
clicks = 0


def clicked(_):
    global clicks
    clicks += 1
    button.description = f"Clicked {clicks}"


button.on_click(clicked)
button"""

ROUND_TRIP_JS = """([button, watched]) => new Promise((resolve) => {
  const target = document.querySelector(watched);
  const before = target.textContent;
  const start = performance.now();
  const observer = new MutationObserver(() => {
    if (target.textContent !== before) {
      observer.disconnect();
      resolve(performance.now() - start);
    }
  });
  observer.observe(target, { subtree: true, childList: true, characterData: true });
  document.querySelector(button).click();
})"""

STEPPER_LESSON = "07_whole_deal.ipynb"
MAX_CLICKS = 55
"""Next clicks on one page at most: the stepper lesson's deal has 60 steps."""
NEXT_BUTTON_JS = """() => {
  const buttons = [...document.querySelectorAll('.penang-stepper button')];
  const next = buttons.find((b) => b.textContent.trim() === LABEL && !b.disabled);
  next.setAttribute('data-bench', 'next');
}""".replace("LABEL", json.dumps(controls.label(controls.Control.NEXT)))
"""Marks the stepper's Next button (found by its label) for `round_trip`."""


def bare_notebook(folder: Path) -> Path:
    """A notebook of one cell, one button (nbformat 4, written as plain JSON)."""
    cell: dict[str, object] = {
        "cell_type": "code",
        "execution_count": None,
        "id": "bare",
        "metadata": {},
        "outputs": [],
        "source": BARE_CODE,
    }
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = {
        "cells": [cell],
        "metadata": {"kernelspec": kernel},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = folder / "bare.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    return path


def first_widget(browser: Browser, before: str | None, url: str, selector: str) -> float:
    """Seconds from asking for `url` to `selector` showing, in a fresh browser context that
    has shown the page `before` first (None: nothing)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        if before is not None:
            page.goto(before, wait_until="load")
            page.wait_for_selector(selector, state="visible", timeout=120_000)
        start_time = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_selector(selector, state="visible", timeout=120_000)
        return time.perf_counter() - start_time
    finally:
        context.close()


def click_page(browser: Browser, url: str, watched: str) -> tuple[BrowserContext, Page]:
    """A page at `url` in a fresh browser context, once `watched` shows (and a moment more)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(url, wait_until="load")
    page.wait_for_selector(watched, state="visible", timeout=120_000)
    page.wait_for_timeout(500)
    return context, page


def round_trip(page: Page, prepare: str | None, button: str, watched: str) -> float:
    """Milliseconds from a click on `button` to the watched element's new text."""
    if prepare:
        page.evaluate(prepare)
    took = float(page.evaluate(ROUND_TRIP_JS, [button, watched]))
    page.wait_for_timeout(100)
    return took


def ratios(label: str, bare: list[float], lessons: dict[str, list[float]]) -> None:
    """Print one way of timing: the bare page, each lesson, and the goals' ratios."""
    bare_median = statistics.median(bare)
    print(f"[{label}] bare stock page, first widget: median {bare_median:.2f} s over {len(bare)}")
    medians = {lesson: statistics.median(times) for lesson, times in lessons.items()}
    for lesson, median in medians.items():
        print(f"  {lesson:<32} first widget: median {median:.2f} s ({median / bare_median:.2f}x)")
    overall = statistics.median(medians.values())
    slowest = max(medians.values())
    print(
        f"[{label}] lessons, first widget: median {overall:.2f} s = "
        f"{overall / bare_median:.2f}x the bare page (goal <= 0.8x); slowest {slowest:.2f} s = "
        f"{slowest / bare_median:.2f}x (goal <= 1.0x)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Site speed against a stock bare Voila page.")
    parser.add_argument("--loads", type=int, default=3, help="loads per page (default 3)")
    parser.add_argument(
        "--clicks",
        type=int,
        default=25,
        help=f"clicks per round-trip figure (default 25, at most {MAX_CLICKS})",
    )
    parser.add_argument(
        "--part",
        choices=("all", "loads", "clicks"),
        default="all",
        help="time page loads, click round trips, or both (default: both)",
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=ROOT,
        help="the checkout whose site is measured (default this one; e.g. a git worktree of an "
        "older revision, to compare before and after)",
    )
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="the interpreter whose `penang-rummy serve` is measured (default this one; e.g. a "
        "virtual environment where an older revision is installed, to compare before and after)",
    )
    parser.add_argument(
        "--before",
        metavar="PYTHON",
        help="compare the site served by this interpreter (an older revision's environment) "
        "with this one, lesson by lesson, loads in turns (only --loads and --root are read)",
    )
    args = parser.parse_args(argv)
    if args.before:
        return compare(args.before, args.loads)
    loads = args.loads if args.part != "clicks" else 0
    clicks = min(args.clicks, MAX_CLICKS) if args.part != "loads" else 0
    path = chromium_path()
    if path is None:
        print(NO_CHROMIUM, file=sys.stderr)
        return 2
    lessons = [lesson["file"] for lesson in catalogue()]
    bare_times: dict[str, list[float]] = {"first": [], "next": []}
    lesson_times: dict[str, dict[str, list[float]]] = {"first": {}, "next": {}}
    bare_clicks: list[float] = []
    next_clicks: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS))
        folder = Path(tmp)
        bare = bare_notebook(folder)
        port = free_port()
        # Both servers run from the start, and their figures are taken in turns, so that what
        # else the machine does at any moment weighs on both alike.
        stock = start(
            [
                sys.executable,
                "-m",
                "voila",
                str(bare),
                "--no-browser",
                f"--port={port}",
                "--Voila.port_retries=0",
                "--Voila.ip=127.0.0.1",
                f"--Voila.config_file_paths={folder}",
            ],
            port,
            cwd=folder,
        )
        site = start_site(pool=1, root=args.root, python=args.python)
        try:
            wait_ready(stock, set())
            wait_ready(site, set(lessons))
            for _ in range(loads):
                for way in ("first", "next"):
                    wait_idle(site)
                    before = stock.url if way == "next" else None
                    bare_times[way].append(
                        first_widget(browser, before, stock.url, ".widget-button")
                    )
                    for number, lesson in enumerate(lessons):
                        url = f"{site.url}voila/render/{lesson}"
                        other = lessons[number - 1] if number else lessons[-1]
                        before = f"{site.url}voila/render/{other}" if way == "next" else None
                        wait_idle(site)
                        lesson_times[way].setdefault(lesson, []).append(
                            first_widget(browser, before, url, ".penang-kit")
                        )
            if clicks and STEPPER_LESSON in lessons:
                wait_idle(site)
                pages = [
                    click_page(browser, stock.url, ".widget-button"),
                    click_page(browser, f"{site.url}voila/render/{STEPPER_LESSON}", ".penang-kit"),
                ]
                for _ in range(clicks):
                    bare_clicks.append(
                        round_trip(pages[0][1], None, ".widget-button", ".widget-button")
                    )
                    next_clicks.append(
                        round_trip(
                            pages[1][1],
                            NEXT_BUTTON_JS,
                            "[data-bench=next]",
                            ".penang-stepper .penang-explain",
                        )
                    )
                for context, _page in pages:
                    context.close()
        finally:
            stock.stop()
            site.stop()
        browser.close()

    if loads:
        for way in ("first", "next"):
            ratios(way, bare_times[way], lesson_times[way])
    if not next_clicks:
        return 0
    click = statistics.median(bare_clicks)
    step = statistics.median(next_clicks)
    print(f"bare page click round trip: median {click:.1f} ms over {len(bare_clicks)} clicks")
    print(
        f"stepper Next round trip: median {step:.1f} ms = {step / click:.2f}x the bare click "
        "(goal <= 1.3x)"
    )
    return 0


BOOTSTRAP = 2000
"""Resamples of the rounds for the interval of the median difference."""


def median_interval(diffs: list[float], seed: int = 0) -> tuple[float, float]:
    """The 95% interval of the median of `diffs` (percentile bootstrap over the rounds)."""
    rng = random.Random(seed)
    medians = sorted(statistics.median(rng.choices(diffs, k=len(diffs))) for _ in range(BOOTSTRAP))
    return medians[int(0.025 * BOOTSTRAP)], medians[int(0.975 * BOOTSTRAP) - 1]


def compare(before_python: str, loads: int) -> int:
    """Each lesson loaded on the site served by `before_python` and on this one, in turns:
    per lesson the medians and the paired differences (after - before)."""
    path = chromium_path()
    if path is None:
        print(NO_CHROMIUM, file=sys.stderr)
        return 2
    lessons = [lesson["file"] for lesson in catalogue()]
    times: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS))
        sites = {
            "before": start_site(pool=1, python=before_python),
            "after": start_site(pool=1),
        }
        try:
            for site in sites.values():
                wait_ready(site, set(lessons))
            for round_number in range(loads):
                order = ["before", "after"] if round_number % 2 == 0 else ["after", "before"]
                for lesson in lessons:
                    for version in order:
                        for site in sites.values():
                            wait_idle(site)
                        url = f"{sites[version].url}voila/render/{lesson}"
                        times[version].setdefault(lesson, []).append(
                            first_widget(browser, None, url, ".penang-kit")
                        )
                print(f"round {round_number + 1} of {loads} done", file=sys.stderr, flush=True)
        finally:
            for site in sites.values():
                site.stop()
        browser.close()
    print(f"first widget, fresh browser, {loads} loads per lesson and version (seconds)")
    print(f"  {'lesson':<32} {'before':>7} {'after':>7} {'after-before [95% interval]':>30}")
    for lesson in lessons:
        before, after = times["before"][lesson], times["after"][lesson]
        diffs = [a - b for a, b in zip(after, before, strict=True)]
        low, high = median_interval(diffs)
        print(
            f"  {lesson:<32} {statistics.median(before):7.2f} {statistics.median(after):7.2f} "
            f"{statistics.median(diffs):+8.2f} [{low:+.2f}, {high:+.2f}]"
        )
    every_before = [t for ts in times["before"].values() for t in ts]
    every_after = [t for ts in times["after"].values() for t in ts]
    every_diff = [a - b for a, b in zip(every_after, every_before, strict=True)]
    low, high = median_interval(every_diff)
    print(
        f"all lessons: median {statistics.median(every_before):.2f} s before, "
        f"{statistics.median(every_after):.2f} s after; paired difference "
        f"{statistics.median(every_diff):+.2f} s [{low:+.2f}, {high:+.2f}]"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
