"""Clicking through the lessons as a learner would, in a real browser on the real site."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page

from penang_lib import play_deal
from penang_lib.widgets.controls import Control, label
from penang_lib.widgets.lessons import lesson_data
from tests.helpers.browser import button
from tests.site.conftest import lesson_url, open_page
from tools.site_runner import Server

STEPPER = "07_whole_deal.ipynb"
PLAY = "08_play.ipynb"
CHECKER = "02_melds.ipynb"


def changed(page: Page, selector: str, before: str) -> None:
    page.wait_for_function(
        "([sel, old]) => document.querySelector(sel).innerText !== old",
        arg=[selector, before],
        timeout=30_000,
    )


def test_next_changes_the_explanation_and_back_restores_it(
    site: Server, context: BrowserContext
) -> None:
    page = open_page(context, lesson_url(site, STEPPER)).page
    stepper = page.locator(".penang-stepper").first
    explain = ".penang-stepper .penang-explain"
    before = page.inner_text(explain)
    button(stepper, label(Control.NEXT)).click()
    changed(page, explain, before)
    after = page.inner_text(explain)
    assert "Step 1" in after and after != before
    button(stepper, label(Control.BACK)).click()
    changed(page, explain, after)
    assert page.inner_text(explain) == before


def test_play_steps_through_the_deal_on_its_own_and_pauses(
    site: Server, context: BrowserContext
) -> None:
    page = open_page(context, lesson_url(site, STEPPER)).page
    status = ".penang-stepper .penang-status"
    before = page.inner_text(status)
    assert "Step 0 of" in before
    play = page.locator(".penang-stepper button[aria-label=Play]").first
    play.click()
    page.wait_for_function(
        "(sel) => /Step [2-9]\\d* of/.test(document.querySelector(sel).innerText)",
        arg=status,
        timeout=30_000,
    )
    page.locator(".penang-stepper button[aria-label=Pause]").first.click()
    paused = page.inner_text(status)
    page.wait_for_timeout(2500)  # two intervals of the timer: nothing moves while paused
    assert page.inner_text(status) == paused
    explain = page.inner_text(".penang-stepper .penang-explain")
    step = re.search(r"Step (\d+) of", paused)
    assert step is not None and f"Step {step.group(1)}," in explain
    # No Stop button (ipywidgets' Stop sent the deal back to step 0): Pause keeps the step.
    stop = page.locator(".penang-stepper .penang-autoplay button").nth(1)
    assert stop.count() == 1 and not stop.is_visible()
    assert page.locator(".penang-stepper button[aria-label=Stop]:visible").count() == 0


def test_a_deep_link_opens_its_step(site: Server, context: BrowserContext) -> None:
    spec = lesson_data("07_whole_deal")["deal"]
    step = lesson_data("07_whole_deal")["steps"]["swap"]
    query = f"?seed={spec['seed']}&step={step}"
    page = open_page(context, lesson_url(site, STEPPER, query)).page
    status = page.locator(".penang-stepper .penang-status").first
    status.wait_for()
    page.wait_for_timeout(1000)  # Play's link in the browser must not move it back
    assert f"Step {step} of {spec['steps']}" in status.inner_text()
    explain = page.inner_text(".penang-stepper .penang-explain")
    assert "swap" in explain
    link = status.locator("a").get_attribute("href") or ""
    assert f"seed={spec['seed']}" in link and f"step={step}" in link


def test_a_bad_deep_link_opens_the_default_deal_and_says_what_was_ignored(
    site: Server, context: BrowserContext
) -> None:
    page = open_page(context, lesson_url(site, STEPPER, "?seed=abc&step=99999")).page
    note = page.locator(".penang-stepper .penang-message").first
    note.wait_for()
    assert "ignored" in note.inner_text() and "seed" in note.inner_text()
    spec = lesson_data("07_whole_deal")["deal"]
    steps = len(play_deal(spec["seed"], spec["players"], spec["bots"]).move_stack)
    status = page.inner_text(".penang-stepper .penang-status")
    assert f"Step 0 of {steps}" in status


def test_the_play_page_refuses_an_illegal_meld_and_accepts_a_legal_one(
    site: Server, context: BrowserContext
) -> None:
    page = open_page(context, lesson_url(site, PLAY)).page
    table = page.locator(".penang-play").first
    message = ".penang-play .penang-message"
    assert "Your turn" in page.inner_text(".penang-play .penang-status")
    cards = table.locator("button.penang-card:visible")
    cards.nth(0).click()
    cards.nth(1).click()
    before = page.inner_text(message)
    button(table, label(Control.MELD)).click()
    changed(page, message, before)
    refused = table.locator(".penang-message .penang-badge.penang-bad")
    assert refused.first.inner_text() == "meld"
    # The expert's hint selects a legal meld; Meld then plays it.
    before = page.inner_text(message)
    button(table, label(Control.HINT)).click()
    changed(page, message, before)
    assert "Hint:" in page.inner_text(message)
    count = cards.count()
    before = page.inner_text(message)
    button(table, label(Control.MELD)).click()
    changed(page, message, before)
    assert table.locator(".penang-message .penang-badge", has_text="passport").count() == 1
    page.wait_for_function(
        "([n]) => document.querySelectorAll('.penang-play button.penang-card').length > 0 && "
        "[...document.querySelectorAll('.penang-play button.penang-card')]"
        ".filter(b => b.offsetParent !== null).length < n",
        arg=[count],
    )


def test_the_checker_names_the_corner(site: Server, context: BrowserContext) -> None:
    page = open_page(context, lesson_url(site, CHECKER)).page
    box = page.locator(".penang-checker input[placeholder*='5H 6H JK']").first
    verdict = page.locator(".penang-checker .penang-verdict").first
    before = verdict.inner_text()
    box.fill("KH AH 2H")
    page.wait_for_function(
        "([old]) => document.querySelector('.penang-checker .penang-verdict').innerText !== old",
        arg=[before],
    )
    text = verdict.inner_text()
    assert "corner" in text and "run" in text
