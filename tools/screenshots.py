"""Screenshots of every page of the site, the way a learner sees it, to look at before calling a
page done: the landing page and each lesson, at a laptop's size (1280x800) and a phone's
(390x844), one PNG per screenful as the page is scrolled down.

Run with `python -m tools.screenshots --out screenshots/` (starts its own site on a free
port; needs the system Chromium, like the browser tests).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from penang_lib.site.serve import catalogue
from tools.site_runner import CHROMIUM_ARGS, NO_CHROMIUM, chromium_path, start_site, wait_ready

SIZES = ((1280, 800), (390, 844))
SCROLLER = "#rendered_cells"
"""The element that scrolls on a lesson page (Voila's lab template keeps the body still)."""


def screenfuls(page: Page, stem: Path, limit: int) -> list[Path]:
    """Screenshot the page one screenful at a time, scrolling its scroller (or the window)."""
    shots = []
    height = page.viewport_size["height"] if page.viewport_size else 800
    total = page.evaluate(
        f"() => (document.querySelector('{SCROLLER}') || document.scrollingElement).scrollHeight"
    )
    for k in range(min(limit, max(1, -(-int(total) // height)))):
        page.evaluate(
            f"""(y) => {{ const el = document.querySelector('{SCROLLER}');
                 if (el) {{ el.scrollTop = y; }} else {{ window.scrollTo(0, y); }} }}""",
            k * height,
        )
        page.wait_for_timeout(200)
        path = stem.with_name(f"{stem.name}-{k + 1:02d}.png")
        page.screenshot(path=str(path))
        shots.append(path)
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Screenshots of every page of the site.")
    parser.add_argument("--out", type=Path, default=Path("screenshots"))
    parser.add_argument("--limit", type=int, default=15, help="screenfuls per page at most")
    args = parser.parse_args(argv)
    path = chromium_path()
    if path is None:
        print(NO_CHROMIUM, file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    lessons = [lesson["file"] for lesson in catalogue()]
    site = start_site(pool=1)
    try:
        wait_ready(site, set(lessons))
        pages = [("00_landing", site.url, "main")] + [
            (Path(f).stem, f"{site.url}voila/render/{f}", ".penang-kit") for f in lessons
        ]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS))
            for width, height in SIZES:
                for name, url, ready in pages:
                    context = browser.new_context(viewport={"width": width, "height": height})
                    page = context.new_page()
                    page.goto(url, wait_until="load", timeout=120_000)
                    page.wait_for_selector(ready, state="visible", timeout=120_000)
                    page.wait_for_timeout(1000)
                    shots = screenfuls(page, args.out / f"{name}-{width}x{height}", args.limit)
                    print(f"{name} at {width}x{height}: {len(shots)} screenshots")
                    context.close()
            browser.close()
    finally:
        site.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
