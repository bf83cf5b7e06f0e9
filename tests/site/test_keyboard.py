"""Lesson 4's exercise ("Your turn: lay off") played with the keyboard alone, in a real browser:
Tab and Shift+Tab to move, Space to pick a card, Enter to press a button, and the arrow keys in a
menu (an HTML menu is operated by them). No click. After each action the focus must land on the
control the learner needs next, never on the page's body, and show a clearly visible ring.

Issue 29, item 10: after Use this reading, End turn or Bots to my turn the focus fell to the body,
and reaching the hand again took 45-52 Tab presses.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import BrowserContext, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from penang_lib.widgets.controls import Control, label
from tests.site.conftest import lesson_url, open_page
from tools.site_runner import Server

LESSON_4 = "04_lay_offs.ipynb"
MOST_TABS = 400
"""More Tab presses than any walk across lesson 4's page takes (its checkers, the table)."""

FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {where: 'body'};
  const table = el.closest('.penang-play');
  const style = getComputedStyle(el);
  return {
    where: table ? 'table' : 'page',
    tag: el.tagName,
    text: (el.innerText || '').trim(),
    title: el.getAttribute('title') || '',
    card: el.classList.contains('penang-card'),
    first: !!table && el === table.querySelector('.penang-play-hand button.penang-card'),
    readings: !!el.closest('.penang-readings'),
    option: el.tagName === 'SELECT' && el.selectedIndex >= 0
      ? el.options[el.selectedIndex].text.replace(/\u00a0/g, ' ') : '',
    ring: el.matches(':focus-visible') ? style.outlineStyle + ' ' + style.outlineWidth : 'none',
  };
}"""

WAIT_FOCUS = """(want) => {
  const el = document.activeElement;
  const table = el && el.closest('.penang-play');
  if (!table) return false;
  const first = table.querySelector('.penang-play-hand button.penang-card');
  if (want === 'first card') return el === first;
  if (want === 'readings') return el.tagName === 'SELECT' && !!el.closest('.penang-readings');
  return el.tagName === 'BUTTON' && el.innerText.trim() === want;
}"""


def focused(page: Page) -> dict[str, Any]:
    value: dict[str, Any] = page.evaluate(FOCUSED)
    return value


def lands_on(page: Page, want: str) -> dict[str, Any]:
    """Wait until the table's focus is on `want` (a button's name, "first card" or
    "readings"); then it must show the thick focus ring."""
    try:
        page.wait_for_function(WAIT_FOCUS, arg=want, timeout=30_000)
    except PlaywrightTimeout:
        said = page.inner_text(".penang-play .penang-message")
        raise AssertionError(f"the focus never reached {want}: {focused(page)}; {said}") from None
    now = focused(page)
    assert now["ring"] == "solid 3px", now
    return now


def tab_to(page: Page, is_it: Any, back: bool = False) -> int:
    """Press Tab (Shift+Tab with `back`) until the focus `is_it`; return how many presses."""
    for presses in range(MOST_TABS + 1):
        now = focused(page)
        if now["where"] == "table" and is_it(now):
            return presses
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"no Tab press reached the control; the focus is on {focused(page)}")


def card(symbol: str) -> Any:
    return lambda now: now["card"] and (now["text"] == symbol or symbol in now["title"])


def named(name: str) -> Any:
    return lambda now: now["tag"] == "BUTTON" and now["text"] == name


def menu(now: dict[str, Any]) -> bool:
    return now["tag"] == "SELECT" and not now["readings"]


def choose(page: Page, starts: str) -> None:
    """In the focused menu, move with the arrow keys to the option that starts with `starts`,
    and make sure it stays chosen: the kernel may still be refreshing the menu's options after
    the last click (a busy machine), which puts its choice back to the first option."""
    for _attempt in range(5):
        for key in ("ArrowDown", "ArrowUp"):
            for _ in range(8):
                if focused(page)["option"].startswith(starts):
                    break
                page.keyboard.press(key)
            if focused(page)["option"].startswith(starts):
                break
        page.wait_for_timeout(400)  # let a refresh of the options that was on its way arrive
        if focused(page)["option"].startswith(starts):
            return
    raise AssertionError(f"no option starts with {starts!r}: {focused(page)}")


def wait_text(page: Page, selector: str, text: str) -> None:
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel).innerText.includes(text)",
        arg=[selector, text],
        timeout=30_000,
    )


def test_lesson_4_exercise_is_played_with_the_keyboard_alone(
    site: Server, context: BrowserContext
) -> None:
    page = open_page(context, lesson_url(site, LESSON_4)).page
    table = ".penang-play"
    message = f"{table} .penang-message"
    selection = f"{table} .penang-selection"
    assert page.locator(table).count() == 1

    # 1. Select 8♥, keep meld 0 (North's run) in Meld on table, press Lay off.
    tab_to(page, lambda now: now["card"])
    tab_to(page, card("8♥"))
    page.keyboard.press("Space")
    wait_text(page, selection, "8♥")
    tab_to(page, menu)
    assert focused(page)["option"] == "North's run 5♥ 6♥ 7♥ (meld 0)"
    assert tab_to(page, named(label(Control.LAY_OFF))) == 2  # past Meld
    page.keyboard.press("Enter")
    lands_on(page, label(Control.END_TURN))
    assert "lay-off" in page.inner_text(message)

    # 2. A lay-off the rules refuse: 2♦ on meld 2 (Q♦ K♦ A♦). The selection is cleared, and
    #    the focus goes back to the hand.
    tab_to(page, card("2♦"), back=True)
    page.keyboard.press("Space")
    wait_text(page, selection, "2♦")
    tab_to(page, menu)
    choose(page, "South's run Q♦ K♦ A♦")
    tab_to(page, named(label(Control.LAY_OFF)))
    page.keyboard.press("Enter")
    lands_on(page, "first card")
    assert "Your selection was cleared" in page.inner_text(message)

    # 3. The joker on meld 0: the table asks for its reading in the Joker stands for menu.
    tab_to(page, card("🃏"))
    page.keyboard.press("Space")
    page.locator(f"{selection} .penang-joker").wait_for(timeout=30_000)
    tab_to(page, menu)
    choose(page, "North's run 5♥ 6♥ 7♥ 8♥")
    tab_to(page, named(label(Control.LAY_OFF)))
    page.keyboard.press("Enter")
    lands_on(page, "readings")
    choose(page, "JK=9♥")
    assert tab_to(page, named(label(Control.USE_READING))) == 1
    page.keyboard.press("Enter")
    lands_on(page, label(Control.END_TURN))
    tab_to(page, menu, back=True)
    assert focused(page)["option"] == "North's run 5♥ 6♥ 7♥ 8♥ JK=9♥ (meld 0)"
    tab_to(page, named(label(Control.END_TURN)))

    # 4. End turn, then Bots to my turn: the focus follows, and comes back to the hand.
    page.keyboard.press("Enter")
    lands_on(page, label(Control.BOTS_TO_ME))
    page.keyboard.press("Enter")
    now = lands_on(page, "first card")
    assert now["first"]
    assert "Your turn" in page.inner_text(f"{table} .penang-status")
