"""A selected card is unmistakable, in a real browser, on every play table of the course and in
lesson 2's picker, at a desktop width and a phone width: raised, coloured, and marked in a way
that is not colour alone; the "Selected:" line under the hand names the selection.

Each play table is also photographed with two cards selected, one PNG per table and width, so
that a person can look at them: in `tmp_path`, or in the folder named by PENANG_SCREENSHOTS.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Locator, Page

from tests.site.conftest import lesson_url, open_page
from tools.site_runner import Server

PLAY_LESSONS = (
    "03_turns_and_passport.ipynb",
    "04_lay_offs.ipynb",
    "05_swaps.ipynb",
    "06_dead_game_scoring.ipynb",
    "08_play.ipynb",
)
WIDTHS = {"desktop": (1280, 800), "phone": (390, 844)}

STYLE = """(el) => {
  const s = getComputedStyle(el), a = getComputedStyle(el, '::after');
  return {transform: s.transform, shadow: s.boxShadow, background: s.backgroundColor,
          decoration: s.textDecorationLine, after: a.content, color: s.color,
          right: el.getBoundingClientRect().right};
}"""


def style(card: Locator) -> dict[str, Any]:
    value: dict[str, Any] = card.evaluate(STYLE)
    return value


def wait_pressed(page: Page, card: Locator) -> None:
    card.evaluate("(el) => el.setAttribute('data-probe', '1')")
    page.wait_for_function(
        "() => document.querySelector('[data-probe]').classList.contains('mod-active')",
        timeout=30_000,
    )
    card.evaluate("(el) => el.removeAttribute('data-probe')")


def selected_apart(on: dict[str, Any], off: dict[str, Any]) -> None:
    """A selected card differs from an unselected one in more than colour."""
    assert on["transform"] not in ("none", off["transform"]), (on, off)  # raised
    assert on["shadow"] != off["shadow"]  # ringed and shaded
    assert on["background"] != off["background"]  # coloured
    assert "underline" in on["decoration"] and "underline" not in off["decoration"]
    assert on["after"] not in ("none", "normal") and off["after"] in ("none", "normal")  # ticked


@pytest.mark.parametrize("width", list(WIDTHS), ids=list(WIDTHS))
def test_a_selected_card_is_unmistakable_on_every_play_table(
    site: Server, context: BrowserContext, width: str, tmp_path: Path
) -> None:
    w, h = WIDTHS[width]
    folder = Path(os.environ.get("PENANG_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    shots = []
    for file in PLAY_LESSONS:
        page = open_page(context, lesson_url(site, file)).page
        page.set_viewport_size({"width": w, "height": h})
        tables = page.locator(".penang-play")
        assert tables.count() >= 1, file
        for n in range(tables.count()):
            table = tables.nth(n)
            cards = table.locator("button.penang-card:visible:enabled")
            count = cards.count()
            if count < 2:
                continue  # a hand of one card: nothing to compare it with
            table.scroll_into_view_if_needed()
            picked = [cards.nth(i) for i in range(2 if count >= 3 else 1)]
            names = [card.inner_text().strip() for card in picked]
            for card in picked:
                card.click()
            wait_pressed(page, picked[-1])
            second, third = picked[-1], cards.nth(count - 1)
            line = table.locator(".penang-selection")
            page.wait_for_function(
                "([el, want]) => want.every(n => el.innerText.includes(n))",
                arg=[line.element_handle(), names],
                timeout=30_000,
            )
            assert line.inner_text().split()[:1] == ["Selected:"]
            assert line.is_visible()
            on, off = style(second), style(third)
            selected_apart(on, off)
            assert on["right"] <= w  # the raised card stays on the screen
            shot = folder / f"{Path(file).stem}-{n}-{width}.png"
            table.locator(".penang-play-mine").screenshot(path=str(shot))
            shots.append(shot)
        page.close()
    assert len(shots) >= 10  # lesson 3: 2 tables, 4: 1, 5: 4, 6: 2, 8: 1
    print(f"\nscreenshots in {folder}")


def test_the_picker_of_lesson_2_selects_with_the_same_style(
    site: Server, context: BrowserContext
) -> None:
    page = open_page(context, lesson_url(site, "08_play.ipynb")).page
    cards = page.locator(".penang-play button.penang-card:visible:enabled")
    cards.nth(0).click()
    wait_pressed(page, cards.nth(0))
    table_card = style(cards.nth(0))
    page.close()

    page = open_page(context, lesson_url(site, "02_melds.ipynb")).page
    picks = page.locator("button.penang-hand-card:visible")
    assert picks.count() >= 2
    picks.nth(0).scroll_into_view_if_needed()
    picks.nth(0).click()
    wait_pressed(page, picks.nth(0))
    on, off = style(picks.nth(0)), style(picks.nth(1))
    selected_apart(on, off)
    for key in ("transform", "shadow", "background", "decoration", "after"):
        assert on[key] == table_card[key], key


COLUMN_BOXES = """(table) => {
  const head = [...table.querySelectorAll('thead th')].map(th => {
    const r = th.getBoundingClientRect(), s = getComputedStyle(th);
    return {text: th.innerText.trim(), left: r.left, right: r.right, width: r.width,
            shown: s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0};
  });
  const passports = [...table.querySelectorAll('tbody tr')].map(tr => {
    const td = tr.children[4], r = td.getBoundingClientRect();
    return {text: td.innerText.trim(), width: r.width, right: r.right,
            shown: getComputedStyle(td).display !== 'none' && r.width > 0,
            fits: td.scrollWidth <= td.clientWidth + 1};
  });
  return {head, passports, overflow: table.scrollWidth - table.parentElement.clientWidth};
}"""


@pytest.mark.parametrize("width", list(WIDTHS), ids=list(WIDTHS))
def test_the_players_table_shows_the_passport_column_at_every_width(
    site: Server, context: BrowserContext, width: str, tmp_path: Path
) -> None:
    """Issue 29, item 9: on a phone (390 px) the players table hid its Passport column."""
    w, h = WIDTHS[width]
    page = open_page(context, lesson_url(site, "08_play.ipynb")).page
    page.set_viewport_size({"width": w, "height": h})
    hands = page.locator(".penang-play table.penang-hands").first
    hands.scroll_into_view_if_needed()
    boxes: dict[str, Any] = hands.evaluate(COLUMN_BOXES)
    head = {cell["text"]: cell for cell in boxes["head"]}
    for name in ("Player", "Status", "Cards", "Points", "Passport"):
        assert head[name]["shown"] and head[name]["right"] <= w, (name, boxes)
    assert len(boxes["passports"]) == 4
    for cell in boxes["passports"]:
        assert cell["shown"] and cell["right"] <= w and cell["fits"], boxes
        assert cell["text"] in ("yes", "not yet"), cell
    assert boxes["overflow"] <= 0, boxes  # no sideways scrolling of the players table
    folder = Path(os.environ.get("PENANG_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    hands.screenshot(path=str(folder / f"08_play-players-{width}.png"))
