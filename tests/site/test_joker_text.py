"""A lesson's own text draws the joker as its cards do (issue 19, item 12): the joker sign is
missing from many fonts (Debian's Chromium shows a boxed star), so the template puts the kit's
drawing, named "joker" for screen readers, in place of every 🃏 of the markdown."""

from __future__ import annotations

import json

from playwright.sync_api import BrowserContext

from penang_lib.site.serve import LESSONS
from tests.site.conftest import lesson_url, open_page
from tools.site_runner import Server

LESSON = "05_swaps.ipynb"


def jokers_in_text(file: str) -> int:
    """How many joker signs the lesson's markdown cells hold."""
    cells = json.loads((LESSONS / file).read_text(encoding="utf-8"))["cells"]
    return sum("".join(c["source"]).count("🃏") for c in cells if c["cell_type"] == "markdown")


def test_the_lessons_text_draws_every_joker_and_names_it(
    site: Server, context: BrowserContext
) -> None:
    expected = jokers_in_text(LESSON)
    assert expected >= 5, "the swap lesson writes jokers in its text"
    page = open_page(context, lesson_url(site, LESSON)).page
    text = page.locator(".jp-RenderedMarkdown")
    assert "🃏" not in "".join(text.all_inner_texts())
    marks = text.locator(".penang-joker-mark")
    assert marks.count() == expected
    first = marks.first
    assert first.get_attribute("role") == "img" and first.get_attribute("aria-label") == "joker"
    assert first.locator("svg").count() == 1
    box = first.bounding_box()
    assert box is not None and box["width"] > 8 and box["height"] > 8, "the drawing is visible"
