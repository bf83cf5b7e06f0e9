"""The puzzle page in a real browser, as a learner uses it: a link opens a given puzzle, clicking
its cards and its move solves it (and the landing page then counts it, after a reload too, until
the learner forgets their progress), a wrong try offers the answer, and a bad link says so. The
page stays offline and passes the accessibility audit in each of those states."""

from __future__ import annotations

import json
import re

from playwright.sync_api import BrowserContext, Locator, Page

from penang_lib.course.puzzles import Puzzle, PuzzleError, find_puzzle, judge, shipped_puzzles
from penang_lib.engine.moves import EndTurn, LayOff, MeldMove, Move, Swap
from tests.site.conftest import lesson_url, open_page
from tests.site.test_pages import axe_violations, error_outputs
from tests.site.test_progress_in_browser import landing, mark, wait_stored
from tools.site_runner import Server

PAGE = "11_puzzles.ipynb"
BUTTONS = {"meld": "Meld", "lay_off": "Lay off", "swap": "Swap"}


def clickable() -> tuple[int, Puzzle, Move]:
    """The first shipped puzzle with an answer played by clicking natural cards (no joker, whose
    button shows a drawing rather than text), its place in the set and that answer."""
    for place, puzzle in enumerate(shipped_puzzles()):
        for move in puzzle.answers:
            if isinstance(move, MeldMove) and not any(c.is_joker for c in move.cards):
                return place, puzzle, move
            if isinstance(move, LayOff | Swap) and not move.card.is_joker:
                return place, puzzle, move
    raise AssertionError("no shipped puzzle is answered with natural cards")


def button(scope: Locator, name: str) -> Locator:
    return scope.locator("button").filter(has_text=re.compile(rf"^\s*{re.escape(name)}\s*$"))


def words(text: str) -> str:
    return " ".join(text.split())


def said_after(page: Page, before: str) -> str:
    """The message once it has changed from `before`."""
    selector = ".penang-puzzle .penang-message"
    page.wait_for_function(
        "([sel, old]) => document.querySelector(sel).innerText !== old",
        arg=[selector, before],
        timeout=30_000,
    )
    return page.inner_text(selector)


def test_a_linked_puzzle_is_solved_by_clicking_its_cards_and_its_move(
    site: Server, context: BrowserContext
) -> None:
    place, puzzle, move = clickable()
    visit = open_page(context, lesson_url(site, PAGE, f"?puzzle={puzzle.id}"))
    page = visit.page
    board = page.locator(".penang-puzzle").first
    total = len(shipped_puzzles())
    head = page.inner_text(".penang-puzzle .penang-puzzle-head")
    assert f"Puzzle {place + 1} of {total} · difficulty {puzzle.difficulty} · solved 0" in head
    message = ".penang-puzzle .penang-message"

    # A wrong try first (a puzzle starts a turn, so ending it is refused): Show answer.
    ended = judge(puzzle, EndTurn())
    assert not ended.right
    before = page.inner_text(message)
    button(board, "End turn").click()
    refused = said_after(page, before)
    assert words(ended.sentence) in words(refused)
    assert board.locator(".penang-message .penang-badge.penang-bad").count() == 1
    assert "Try again, or press Show answer." in refused
    answer = button(board, "Show answer")
    answer.wait_for(state="visible")
    assert axe_violations(page) == []

    # Solve it as a learner would: the meld on the table, the cards, the move.
    if isinstance(move, LayOff | Swap):
        board.locator("select").first.select_option(index=move.target)
        cards = [move.card]
    else:
        assert isinstance(move, MeldMove)
        cards = list(move.cards)
    for card in cards:
        toggle = board.locator("button.penang-card:not(.mod-active)").filter(
            has_text=re.compile(rf"^\s*{re.escape(card.symbol)}\s*$")
        )
        toggle.first.click()
    page.wait_for_function(
        "(n) => document.querySelectorAll('.penang-puzzle button.penang-card.mod-active')"
        ".length === n",
        arg=len(cards),
        timeout=30_000,
    )
    before = page.inner_text(message)
    button(board, BUTTONS[move.type]).click()
    right = said_after(page, before)
    verdict = judge(puzzle, move)
    assert verdict.right
    assert words(verdict.sentence) in words(right)
    assert board.locator(".penang-message .penang-badge.penang-good").count() == 1
    page.wait_for_function(
        "() => document.querySelector('.penang-puzzle .penang-puzzle-head').innerText"
        ".includes('solved 1')",
        timeout=30_000,
    )
    assert axe_violations(page) == []
    assert error_outputs(page) == []
    assert visit.outside == [] and visit.errors == []

    # The browser keeps it: the landing page counts it, after a reload too, until forgotten.
    wait_stored(page, f"p.puzzles.includes({json.dumps(puzzle.id)})")
    home = landing(site, context).page
    solved = f"Puzzles solved: 1 of {total}"
    assert home.locator(".progress .puzzles").inner_text() == solved
    assert mark(home, PAGE).startswith("✓ Opened")
    home.reload(wait_until="load")
    assert home.locator(".progress .puzzles").inner_text() == solved
    home.get_by_role("button", name="Forget my progress").click()
    home.get_by_role("button", name="Yes, forget it").click()
    assert home.locator(".progress .puzzles").inner_text() == f"Puzzles solved: 0 of {total}"
    home.reload(wait_until="load")
    assert home.locator(".progress .puzzles").inner_text() == f"Puzzles solved: 0 of {total}"
    assert mark(home, PAGE) == ""


def test_a_bad_link_says_there_is_no_such_puzzle_and_shows_the_first(
    site: Server, context: BrowserContext
) -> None:
    visit = open_page(context, lesson_url(site, PAGE, "?puzzle=no-such-puzzle"))
    page = visit.page
    try:
        find_puzzle(shipped_puzzles(), "no-such-puzzle")
    except PuzzleError as error:
        expected = str(error)
    else:
        raise AssertionError("the shipped set has a puzzle called no-such-puzzle")
    assert expected.startswith("There is no puzzle")
    assert expected in page.inner_text(".penang-puzzle .penang-message")
    head = page.inner_text(".penang-puzzle .penang-puzzle-head")
    assert f"Puzzle 1 of {len(shipped_puzzles())}" in head
    assert error_outputs(page) == []
    assert visit.outside == [] and visit.errors == []
    assert axe_violations(page) == []
