"""What the browser tests share: a page's error outputs and accessibility violations, a button
found by its words, and the landing page's progress as a learner's browser keeps it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Locator, Page

from penang_lib.course.progress import STORAGE_KEY
from penang_lib.widgets.base import OOPS
from tests.site.conftest import AXE, Visit, open_page
from tools.site_runner import Server

SHOTS = Path("/tmp/shots")
WAIT_MS = 30_000


def error_outputs(page: Page) -> list[str]:
    """Error and stderr outputs of the page's cells, and any traceback text."""
    found: list[str] = page.eval_on_selector_all(
        "[data-mime-type*='error'], [data-mime-type*='stderr']", "els => els.map(e => e.innerText)"
    )
    text = page.inner_text("body")
    for marker in ("Traceback", OOPS):
        if marker in text:
            found.append(marker)
    return found


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Serious and critical accessibility violations that axe-core finds on the page."""
    assert AXE.exists(), f"axe-core is missing at {AXE}: `make test` installs it with npm"
    page.add_script_tag(path=str(AXE))
    result: dict[str, Any] = page.evaluate("async () => await axe.run(document)")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"][:3]]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def button(scope: Locator, name: str) -> Locator:
    return scope.locator("button").filter(has_text=re.compile(rf"^\s*{re.escape(name)}\s*$"))


def wait_stored(page: Page, condition: str) -> None:
    """Wait until the stored progress `p` meets the JavaScript `condition`."""
    page.wait_for_function(
        f"""() => {{ const t = window.localStorage.getItem({json.dumps(STORAGE_KEY)});
                   if (!t) return false; const p = JSON.parse(t); return {condition}; }}""",
        timeout=WAIT_MS,
    )


def landing(site: Server, context: BrowserContext) -> Visit:
    return open_page(context, site.url, widgets=False)


def mark(page: Page, file: str) -> str:
    """What the landing page says beside a lesson ("" while hidden)."""
    found = page.locator(f'.done[data-file="{file}"]')
    return found.inner_text() if found.is_visible() else ""
