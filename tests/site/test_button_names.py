"""A button's accessible name is its text: its Font Awesome icon (a private-use glyph) is
hidden from assistive technology, so a screen reader says "Next", not "\\uf051 Next"."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext

from penang_lib.site.serve import catalogue
from tests.site.conftest import lesson_url, open_page
from tools.site_runner import Server

PRIVATE_USE = re.compile("[\ue000-\uf8ff]")


def test_buttons_with_icons_are_named_by_their_text_alone(
    site: Server, context: BrowserContext
) -> None:
    file = next(lesson["file"] for lesson in catalogue() if lesson["file"].startswith("01_"))
    page = open_page(context, lesson_url(site, file)).page
    icons = page.locator("button i.fa")
    assert icons.count() > 0, "the lesson has buttons with icons"
    page.wait_for_function(
        "() => [...document.querySelectorAll('button i.fa')]"
        ".every((i) => i.getAttribute('aria-hidden') === 'true')",
        timeout=30_000,
    )
    for n in range(icons.count()):
        button = icons.nth(n).locator("xpath=ancestor::button[1]")
        text = button.inner_text().strip()
        if text:  # named by its exact text, found by that name
            assert page.get_by_role("button", name=text, exact=True).count() >= 1, text
    tree = page.locator("body").aria_snapshot()
    assert "button" in tree
    assert not PRIVATE_USE.search(tree), PRIVATE_USE.findall(tree)
