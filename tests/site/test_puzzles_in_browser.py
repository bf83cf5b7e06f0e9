"""The puzzle page in a real browser, as a learner uses it: a link opens a given puzzle, clicking
its cards and its move solves it (and the landing page then counts it, after a reload too, until
the learner forgets their progress; the puzzle page itself marks it and opens at the first
unsolved one, and any puzzle can be picked from its list), a wrong try says the rule it breaks
but not the answer and the puzzle then does not count, the question and the move buttons stay
together on a phone, and a bad link says so. The page stays offline and passes the
accessibility audit in each of those states."""

from __future__ import annotations

import json
import re

from playwright.sync_api import BrowserContext, Locator, Page

from penang_lib.course.puzzles import Puzzle, PuzzleError, find_puzzle, judge, shipped_puzzles
from penang_lib.engine.moves import DeclareDead, LayOff, MeldMove, Move, Swap
from penang_lib.widgets.controls import Control, label, naming
from penang_lib.widgets.puzzle import COUNTED, MISSED, SOLVED
from tests.helpers.browser import SHOTS, axe_violations, error_outputs, landing, mark, wait_stored
from tests.site.conftest import lesson_url, open_page
from tools.site_runner import Server

PAGE = "11_puzzles.ipynb"


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


def click_cards(page: Page, board: Locator, move: Move) -> None:
    """Select the cards of `move` (and choose its meld on the table), as a learner clicks."""
    if isinstance(move, LayOff | Swap):
        target(board).select_option(index=move.target)
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


def target(board: Locator) -> Locator:
    """The "Meld on table" menu."""
    return (
        board.locator(".widget-dropdown").filter(has_text=label(Control.TARGET)).locator("select")
    )


def picker(board: Locator) -> Locator:
    """The "Go to puzzle" menu."""
    return board.locator(".penang-puzzle-picker select")


def head_says(page: Page, text: str) -> None:
    page.wait_for_function(
        "(t) => document.querySelector('.penang-puzzle .penang-puzzle-head').innerText.includes(t)",
        arg=text,
        timeout=30_000,
    )


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

    # Solve it at the first try, as a learner would: the meld on the table, the cards, the move.
    click_cards(page, board, move)
    before = page.inner_text(message)
    button(board, label(Control(move.type))).click()
    right = said_after(page, before)
    verdict = judge(puzzle, move)
    assert verdict.right
    assert words(verdict.sentence) in words(right) and naming(SOLVED) in words(right)
    assert board.locator(".penang-message .penang-badge.penang-good").count() == 1
    head_says(page, "solved 1")
    assert axe_violations(page) == []
    assert error_outputs(page) == []
    assert visit.outside == [] and visit.errors == []

    # The page remembers (issue 29, item 6): after a reload, with no link, it is marked and the
    # page opens at the first puzzle not solved.
    wait_stored(page, f"p.puzzles.includes({json.dumps(puzzle.id)})")
    page.goto(lesson_url(site, PAGE), wait_until="load")
    page.wait_for_selector(".penang-puzzle .penang-puzzle-head")
    head_says(page, "solved 1")
    first = next(p for p in shipped_puzzles() if p.id != puzzle.id)
    head_says(page, f"Puzzle {shipped_puzzles().index(first) + 1} of {total}")
    board = page.locator(".penang-puzzle").first
    # (ipywidgets writes a menu's spaces as no-break spaces.)
    labels = [t.replace("\xa0", " ") for t in picker(board).locator("option").all_inner_texts()]
    assert len(labels) == total and labels[place].endswith("✓ solved")
    assert sum("✓" in label for label in labels) == 1
    assert "first puzzle you have not solved" in page.inner_text(message)
    # Any puzzle from the list: puzzle 40 in one choice, not 39 clicks.
    forty = shipped_puzzles()[39]
    assert labels[39] == f"Puzzle 40 · difficulty {forty.difficulty}"
    picker(board).select_option(index=39)
    head_says(page, f"Puzzle 40 of {total}")
    page.wait_for_function(
        "(q) => document.querySelector('.penang-puzzle .penang-explain').innerText.includes(q)",
        arg=forty.question.split(":")[0],
        timeout=30_000,
    )
    assert axe_violations(page) == []

    # The browser keeps it: the landing page counts it, after a reload too, until forgotten.
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


ALIVE = "swap-5b4b4938"
"""Puzzle 19 of the issue: "Swap 9♦ for the joker ..., then meld 2♠ 2♥ =2" was Dead's answer."""


def test_a_wrong_try_says_the_rule_it_breaks_not_the_answer_and_the_puzzle_does_not_count(
    site: Server, context: BrowserContext
) -> None:
    puzzle = find_puzzle(shipped_puzzles(), ALIVE)
    move = next(m for m in puzzle.answers if isinstance(m, Swap))
    visit = open_page(context, lesson_url(site, PAGE, f"?puzzle={ALIVE}"))
    page = visit.page
    board = page.locator(".penang-puzzle").first
    message = ".penang-puzzle .penang-message"
    before = page.inner_text(message)
    button(board, label(Control.DEAD)).click()
    refused = words(said_after(page, before))
    dead = judge(puzzle, DeclareDead())
    assert not dead.legal and dead.rule == "dead"
    assert words(dead.sentence) in refused and "Dead is not allowed" in refused
    assert board.locator(".penang-message .penang-badge.penang-bad").inner_text() == "dead"
    for answer in puzzle.answers:
        assert answer.label() not in refused.lower()
    assert f"Swap {move.card.symbol}" not in refused and "then meld" not in refused
    button(board, label(Control.SHOW_ANSWER)).wait_for(state="visible")
    # Found after the wrong try: right, and said not to count.
    click_cards(page, board, move)
    before = page.inner_text(message)
    button(board, label(Control.SWAP)).click()
    right = words(said_after(page, before))
    assert words(judge(puzzle, move).sentence) in right
    assert naming(MISSED) in right and naming(COUNTED) in right
    assert "solved 0" in page.inner_text(".penang-puzzle .penang-puzzle-head")
    assert axe_violations(page) == []
    assert visit.outside == [] and visit.errors == [] and error_outputs(page) == []


def largest_hand() -> Puzzle:
    """The shipped puzzle whose hand is largest (a first turn: 20 cards)."""
    return max(shipped_puzzles(), key=lambda p: len(p.position().hand(p.seat)))


def gap(page: Page) -> dict[str, float]:
    """Where the question, the move buttons and the table are (px, all measured at once)."""
    found: dict[str, float] = page.evaluate(
        """([meld, game]) => {
          const box = (e) => e.getBoundingClientRect();
          const q = box(document.querySelector('.penang-puzzle .penang-explain'));
          const named = (n) => box([...document.querySelectorAll('.penang-puzzle button')]
            .find((b) => b.innerText.trim() === n));
          const table = box(document.querySelector('.penang-puzzle .penang-table'));
          return {question: q.top, question_end: q.bottom, meld: named(meld).top,
                  buttons_end: named(game).bottom, table: table.top};
        }""",
        [label(Control.MELD), label(Control.GAME)],
    )
    return found


def test_on_a_phone_the_question_hand_and_buttons_stay_together(
    site: Server, context: BrowserContext
) -> None:
    """Issue 29, item 9: at 390 px the question and the move buttons were about 1,050 px apart,
    with the table's melds between them. Now the hand and the buttons follow the question and
    the table comes after them: question and buttons fit on one phone screen together, even
    with a first turn's 20 cards or a table of nine melds."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = context.new_page()
    for width, height in ((390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        for puzzle in (largest_hand(), find_puzzle(shipped_puzzles(), ALIVE)):
            page.goto(lesson_url(site, PAGE, f"?puzzle={puzzle.id}"), wait_until="load")
            page.wait_for_selector(".penang-puzzle .penang-puzzle-head", timeout=60_000)
            head_says(page, f"difficulty {puzzle.difficulty}")
            at = gap(page)
            assert at["meld"] - at["question_end"] < 400, (width, puzzle.id, at)
            assert at["buttons_end"] - at["question"] < height - 200, (width, puzzle.id, at)
            assert at["table"] > at["buttons_end"], (width, puzzle.id, at)
            width_now = page.evaluate("() => document.documentElement.scrollWidth")
            assert width_now <= width, f"the page is {width_now} px wide on a {width} px screen"
            page.locator(".penang-puzzle .penang-puzzle-head").evaluate(
                "e => e.scrollIntoView({block: 'start'})"
            )
            page.screenshot(path=str(SHOTS / f"puzzles_{puzzle.id}_{width}.png"))
    page.close()


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
