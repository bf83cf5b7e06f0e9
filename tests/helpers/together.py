"""What the browser tests of the Play together page share: a page's own hand, and the steps of
a second person joining a table and its starter pressing Start."""

from __future__ import annotations

from playwright.sync_api import Page

WAIT_MS = 60_000
"""How long a page may take to show what the service sent it."""


def hand(page: Page) -> list[str]:
    """The cards of the page's own hand (its card toggles), as the page names them, sorted."""
    toggles = page.locator(".penang-together .penang-hand button")
    return sorted(toggles.nth(i).inner_text() for i in range(toggles.count()))


def join_and_start(starter: Page, joiner: Page, code: str, name: str = "Bo") -> None:
    """`joiner`, on the page opened by the table's link (its code filled in), types `name` and
    joins; `starter`, who started the table, sees them seated and presses Start (bots take the
    empty seats); both wait until their hands are dealt, which must differ."""
    field = joiner.get_by_label("Table code")
    field.wait_for(timeout=WAIT_MS)
    assert field.input_value() == code
    joiner.get_by_label("Your name").fill(name, timeout=WAIT_MS)
    joiner.get_by_role("button", name="Join").click()
    joiner.locator(".penang-seats", has_text="you, here").wait_for(timeout=WAIT_MS)
    starter.locator(".penang-seats", has_text=name).wait_for(timeout=WAIT_MS)
    starter.get_by_role("button", name="Start", exact=True).click()
    for page in (starter, joiner):
        page.locator(".penang-together .penang-hand button").first.wait_for(timeout=WAIT_MS)
    mine, theirs = hand(starter), hand(joiner)
    assert len(mine) == len(theirs) == 20 and mine != theirs
