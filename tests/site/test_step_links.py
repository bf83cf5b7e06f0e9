"""Lesson 7's step links do what its text says (issue 29: the text said they reload the page,
and they open a new tab): a link of "What to watch for" opens the page at its step in a new tab
and leaves this one as it is; the stepper's own "link to this step" loads the page again in
this tab, at that step."""

from __future__ import annotations

import json

from playwright.sync_api import BrowserContext

from penang_lib.site.serve import LESSONS
from tests.site.conftest import lesson_url, open_page
from tools.site_runner import Server

LESSON_7 = "07_whole_deal.ipynb"


def said(cell_id: str) -> str:
    cells = json.loads((LESSONS / LESSON_7).read_text(encoding="utf-8"))["cells"]
    (cell,) = [c for c in cells if c.get("id") == cell_id]
    return " ".join("".join(cell["source"]).split())


def test_lesson_7s_step_links_open_where_its_text_says(
    site: Server, context: BrowserContext
) -> None:
    watch = said("53625b79")
    assert "each link opens this page at that step in a new tab" in watch
    assert "reload" not in watch
    chrome = said("51ab41ae")
    assert "The line ends with a **link to this step**" in chrome
    assert "Clicking it loads this page again, in this tab, at that step" in chrome

    visit = open_page(context, lesson_url(site, LESSON_7))
    page = visit.page
    here = page.url
    moment = page.locator("a", has_text="Step 7").first
    with context.expect_page() as opened:
        moment.click()
    tab = opened.value
    tab.wait_for_url("**step=7**")
    assert page.url == here and len(context.pages) == 2
    tab.close()

    link = page.get_by_role("link", name="link to this step")
    assert link.count() == 1
    link.click()
    page.wait_for_url("**&step=0")
    assert len(context.pages) == 1, "the stepper's link opened another tab"
    assert visit.errors == []
