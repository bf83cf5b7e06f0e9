"""The review of a deal on lesson 8's page, in a real browser: a deal played to its end with the
hints and the bots' buttons, then Review this deal; a review link that opens a finished deal with
its review; and a broken link, which says so in one sentence and leaves the lesson's table."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page

from penang_lib import Deal
from penang_lib.course.review import Review, encode, turn_lines
from penang_lib.engine.bots import bots_around, make_bot, play_move
from penang_lib.widgets.controls import Control, label
from penang_lib.widgets.lessons import lesson_data
from penang_lib.widgets.play_parts import MOVE_BUTTONS
from tests.helpers.browser import axe_violations, button
from tests.site.conftest import lesson_url, open_page
from tools.site_runner import Server

PLAY = "08_play.ipynb"
MESSAGE = ".penang-play .penang-message"
MOVE_LABELS = "|".join(re.escape(label(c)) for c in MOVE_BUTTONS)
"""The labels of the buttons a hint may name, as a regular expression's alternatives."""
PANEL = ".penang-review .penang-review-turn"
MOST_CLICKS = 300
"""More clicks than following the hints through lesson 8's deal takes (about 70)."""


def lesson_deal(learner: str) -> Deal:
    """Lesson 8's deal played to its end: `learner` (a bot) at the learner's seat, careful bots
    around it as the page seats them."""
    data = lesson_data("08_play")
    deal = Deal(players=4, seed=data["seed"], dealer=data["dealer"])
    bots = dict(bots_around(deal, data["seat"], "careful"))
    bots[data["seat"]] = make_bot(learner, 1)
    while not deal.is_over:
        play_move(deal, bots[deal.turn])
    return deal


def click_and_wait(page: Page, name: str) -> None:
    """Click the table's button `name` and wait until the message has changed."""
    table = page.locator(".penang-play").first
    before = page.inner_text(MESSAGE)
    button(table, name).click()
    page.wait_for_function(
        "([sel, old]) => document.querySelector(sel).innerText !== old",
        arg=[MESSAGE, before],
        timeout=30_000,
    )


def follow_the_hints(page: Page) -> None:
    """Play lesson 8's table to the end of its deal: the hinted moves and Bots to my turn."""
    table = page.locator(".penang-play").first
    review_button = button(table, label(Control.REVIEW))
    for _ in range(MOST_CLICKS):
        if review_button.is_visible():
            break
        if button(table, label(Control.BOTS_TO_ME)).is_enabled():
            click_and_wait(page, label(Control.BOTS_TO_ME))
            continue
        click_and_wait(page, label(Control.HINT))
        named = re.search(rf"press ({MOVE_LABELS})\.", page.inner_text(MESSAGE))
        assert named is not None, page.inner_text(MESSAGE)
        click_and_wait(page, named.group(1))
    assert "The deal is over" in page.inner_text(".penang-play .penang-status")


def test_a_deal_followed_by_the_hints_to_its_end_is_reviewed(
    site: Server, context: BrowserContext
) -> None:
    page = open_page(context, lesson_url(site, PLAY)).page
    table = page.locator(".penang-play").first
    review_button = button(table, label(Control.REVIEW))
    assert not review_button.is_visible()
    follow_the_hints(page)
    assert not page.locator(".penang-play-review").is_visible()
    review_button.click()
    panel = page.locator(PANEL).first
    panel.wait_for(state="visible", timeout=30_000)
    text = panel.inner_text()
    # The expert's hinted passport is the careful bot's too; the hints win the deal (lesson 8's
    # promise), the learner dying last with the lowest count.
    assert "Your turn 1" in text and "You played what the careful bot would have played" in text
    assert "Won by North" in page.inner_text(".penang-play .penang-status")
    summary = page.inner_text(".penang-review .penang-review-summary")
    assert "You died in your turn" in summary
    # Issue 29, item 2: a deal played by the hints is never faulted for playing more.
    assert "You never played more than you had to" in summary
    link = page.locator(".penang-review .penang-review-link a").first
    first_link = link.get_attribute("href") or ""
    assert first_link.startswith(f"{PLAY}?review=")

    # Issue 29, item 4: the second deal's review said "Something went wrong on our side".
    click_and_wait(page, label(Control.NEW_DEAL))
    assert not page.locator(".penang-play-review").is_visible()
    follow_the_hints(page)
    review_button.click()
    page.wait_for_function(
        "([sel, old]) => { const a = document.querySelector(sel); "
        "return a && a.offsetParent !== null && a.getAttribute('href') !== old; }",
        arg=[".penang-review .penang-review-link a", first_link],
        timeout=30_000,
    )
    assert "Your turn 1" in panel.inner_text()
    assert not page.locator(".penang-trouble").filter(has_text="went wrong").is_visible()
    assert "went wrong" not in page.inner_text(".penang-play")


def test_a_review_link_opens_the_finished_deal_with_its_review(
    site: Server, context: BrowserContext
) -> None:
    deal = lesson_deal("greedy")
    seat = lesson_data("08_play")["seat"]
    expected = turn_lines(Review(deal, seat).turn(0))[0]
    url = lesson_url(site, PLAY, f"?review={encode(deal, seat)}")
    visit = open_page(context, url)
    page = visit.page
    panel = page.locator(PANEL).first
    panel.wait_for(state="visible", timeout=30_000)
    assert visit.errors == [] and visit.outside == []
    assert axe_violations(page) == []
    assert "Your turn 1" in panel.inner_text()
    assert expected.split(":")[0] in panel.inner_text()  # the bot would have played otherwise
    assert "The deal is over" in page.inner_text(".penang-play .penang-status")
    assert button(page.locator(".penang-play").first, label(Control.REVIEW)).is_visible()
    # Go to your turn takes the stepper to the second turn, and the panel follows it.
    before = panel.inner_text()
    page.locator(".penang-review select").first.select_option(index=2)
    page.wait_for_function(
        "([sel, old]) => document.querySelector(sel).innerText !== old",
        arg=[PANEL, before],
        timeout=30_000,
    )
    assert "Your turn 2" in panel.inner_text()
    status = page.inner_text(".penang-review .penang-stepper .penang-status")
    assert f"Step {Review(deal, seat).spans[1].start} of {len(deal.move_stack)}" in status


def test_a_broken_review_link_says_so_and_leaves_the_lessons_table(
    site: Server, context: BrowserContext
) -> None:
    code = encode(lesson_deal("greedy"), lesson_data("08_play")["seat"])
    page = open_page(context, lesson_url(site, PLAY, f"?review={code[:-15]}")).page
    message = page.inner_text(MESSAGE)
    assert "This review link cannot be opened" in message
    assert "Your turn" in page.inner_text(".penang-play .penang-status")
    assert not page.locator(".penang-play-review").is_visible()
