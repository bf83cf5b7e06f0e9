"""The rule sheet and glossary (issue 19): one page, with no kernel, reachable by one link
from every lesson's chrome and from the landing page; it names every rule id of the rule book,
marks the house rules, explains the glossary's words, fetches nothing from outside and passes
the accessibility audit, on a laptop and on a phone."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext

from penang_lib.engine.bots import CarefulBot
from penang_lib.engine.rules import RULE_BOOK
from penang_lib.site.serve import (
    GLOSSARY,
    HOUSE_RULES,
    LESSONS,
    RULES_PAGE,
    catalogue,
    rule_sheet,
)
from tests.checkout import REPO
from tests.helpers.browser import axe_violations
from tests.site.conftest import lesson_url, open_page
from tools.site_runner import Server

TERMS = ("passport", "lay-off", "swap", "Dead", "Game", "deadwood", "count")
"""The words issue 19's newcomer asked about."""
MORE_TERMS = (
    "run",
    "set",
    "joker",
    "action",
    "house rule",
    "turning the corner",
    "natural",
    "death is near",
)
"""The words issue 29's newcomer missed (and "natural" and "death is near", which the bots'
reasons use)."""
SHOTS = Path("/tmp/shots")


def test_a_lesson_links_to_the_rule_sheet_which_has_the_glossary(
    site: Server, context: BrowserContext
) -> None:
    lesson = catalogue()[4]["file"]
    visit = open_page(context, lesson_url(site, lesson))
    page = visit.page
    link = page.get_by_role("link", name="Rule sheet and glossary")
    assert link.count() == 1, "a lesson's chrome has one link to the rule sheet"
    link.click()
    page.wait_for_url(f"**/{RULES_PAGE}")
    assert page.title() == "Penang Rummy: rule sheet and glossary"

    glossary = page.locator("dl.glossary")
    terms = glossary.locator("dt").all_inner_texts()
    assert set(TERMS) <= set(terms) and terms == [term for term, _, _ in GLOSSARY]
    for i, (term, rule, text) in enumerate(GLOSSARY):
        meaning = glossary.locator("dd").nth(i)
        assert text in meaning.inner_text(), term
        target = f"#rule-{rule}" if rule else "#rules"
        assert meaning.locator(f"a[href='{target}']").count() == 1, term

    rules = page.locator("ol.rules > li")
    assert [rules.nth(i).get_attribute("id") for i in range(rules.count())] == [
        f"rule-{rule}" for rule in RULE_BOOK
    ]
    for rule, sentence in RULE_BOOK.items():
        assert sentence in page.locator(f"[id='rule-{rule}']").inner_text(), rule
    for house in HOUSE_RULES:
        entry = page.locator(f"[id='rule-{house['rule']}'] .house", has_text=house["text"])
        assert entry.count() == 1 and entry.inner_text().startswith("House rule")
    # Issue 29: the default of `end` (a lone player plays on) was labelled the house rule.
    end = page.locator("#rule-end").inner_text()
    variant = page.locator("#rule-end .house").inner_text()
    assert "plays on" in end.replace(variant, "") and "plays on" not in variant
    assert variant.startswith("House rule, off unless switched on:")
    assert "as soon as only one player is alive" in variant
    never = page.locator("#rule-meld .house").inner_text()
    assert "never rearranged, split or taken back" in never

    assert visit.outside == [] and visit.errors == []
    assert axe_violations(page) == [], json.dumps(axe_violations(page))
    # Each rule links to the lesson that teaches it (issue 29: `dealer` said lesson 1).
    for rule, lesson in teaching_lessons().items():
        back = page.locator(f"[id='rule-{rule}'] a.taught")
        assert back.get_attribute("href") == f"/voila/render/{lesson['file']}", rule
        assert f"Taught in lesson {lesson['order']}, {lesson['title']}" in " ".join(
            back.inner_text().split()
        )
    assert "Taught in lesson 9, A match" in " ".join(
        page.locator("#rule-dealer").inner_text().split()
    )


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_landing_page_links_to_the_sheet_and_it_fits_the_screen(
    site: Server, browser: Browser, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        visit = open_page(context, site.url, widgets=False)
        page = visit.page
        page.get_by_role("link", name="rule sheet and glossary").click()
        page.wait_for_url(f"**/{RULES_PAGE}")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"rule_sheet_{width}.png"))
        page.screenshot(path=str(SHOTS / f"rule_sheet_{width}_full.png"), full_page=True)
        page.locator("#glossary").scroll_into_view_if_needed()
        # Nothing is wider than the screen: no sideways scrolling on a phone.
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        assert visit.outside == [] and visit.errors == []
        assert axe_violations(page) == [], json.dumps(axe_violations(page))
    finally:
        context.close()


def test_the_sheets_house_rules_are_the_engines_settings() -> None:
    """Each house rule on the sheet names the `Rules` setting that switches it, and every house
    rule setting of the engine is on the sheet; the one with no setting is the move the kit
    does not have (rearranging or splitting melds on the table)."""
    from dataclasses import fields

    from penang_lib.engine.rules import HOUSE_RULE_FIELDS, Rules

    settings = [house["setting"] for house in HOUSE_RULES]
    assert sorted(s for s in settings if s) == sorted(HOUSE_RULE_FIELDS)
    assert set(HOUSE_RULE_FIELDS) <= {f.name for f in fields(Rules)}
    (never,) = [house for house in HOUSE_RULES if house["setting"] is None]
    assert never["rule"] in RULE_BOOK and "never rearranged" in never["text"]
    sheet = rule_sheet()
    assert [rule["id"] for rule in sheet["rules"]] == list(RULE_BOOK)
    assert all(rule["lesson"] for rule in sheet["rules"]), "a rule no lesson teaches"
    assert sheet["numbers"]["hands"] == {n: Rules().hand_size(n) for n in range(2, 6)}


# -- the sheet against the rule book and the lessons (issue 29) ----------------------------------
def notebook_text(file: str) -> str:
    cells = json.loads((LESSONS / file).read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def teaching_lessons() -> dict[str, dict[str, object]]:
    """For each rule id, the lesson that teaches it, read from the notebooks: the first lesson
    whose metadata lists the rule, leaving out the lessons that list every rule (a whole deal,
    a game against the bots) and those whose text sends the learner to a later lesson for it."""
    course = catalogue()
    found = {}
    for rule in RULE_BOOK:
        for lesson in course:
            if rule not in lesson["rules"] or set(RULE_BOOK) <= set(lesson["rules"]):
                continue
            later = [
                int(n) for n in re.findall(r"is for lesson (\d+)", notebook_text(lesson["file"]))
            ]
            assert all(n > lesson["order"] for n in later)
            found[rule] = lesson
            break
    return found


def test_each_rule_names_the_lesson_that_teaches_it() -> None:
    """The `dealer` card said "taught in lesson 1": lesson 1 only draws the first dealer and
    says that who deals next "is for lesson 9", whose heading names the rule."""
    sheet = {rule["id"]: rule for rule in rule_sheet()["rules"]}
    taught = teaching_lessons()
    assert set(taught) == set(RULE_BOOK), sorted(set(RULE_BOOK) - set(taught))
    for rule, lesson in taught.items():
        assert sheet[rule]["lesson"] == {k: lesson[k] for k in ("file", "order", "title")}, rule
    course = catalogue()
    first = notebook_text(course[0]["file"])
    assert "Who deals the deals after that is for lesson 9" in first
    assert "dealer" not in course[0]["rules"]
    assert sheet["dealer"]["lesson"]["order"] == 9
    assert "## Who deals next (rule `dealer`)" in notebook_text(course[8]["file"])


def rule_book_house_rules() -> set[str]:
    """The rule ids whose entry in docs/RULES.md names a house rule."""
    text = (REPO / "docs" / "RULES.md").read_text(encoding="utf-8")
    found = set()
    for entry in re.split(r"\n- (?=`)", text):
        match = re.match(r"`([a-z.-]+)`:", entry)
        if match and re.search(r"house rule", entry.split("\n\n")[0], re.IGNORECASE):
            found.add(match.group(1))
    return found


def test_house_rules_are_marked_exactly_where_the_rule_book_has_them() -> None:
    """Every house rule the kit can switch belongs to a rule whose entry in RULES.md names a
    house rule, and each of those has one; the one with no setting is docs/CHOICES.md's. Each
    says whether the kit uses it: the default `Rules` decide."""
    from penang_lib.engine.rules import EndCondition, Rules

    switched = {house["rule"] for house in HOUSE_RULES if house["setting"]}
    assert switched == rule_book_house_rules() == {"deck", "deal", "joker", "end"}
    choices = (REPO / "docs" / "CHOICES.md").read_text(encoding="utf-8")
    assert "never rearranged, split or taken back** (our house rule)" in choices
    sheet = {rule["id"]: rule for rule in rule_sheet()["rules"]}
    marked = {rule: [h["on"] for h in entry["house"]] for rule, entry in sheet.items()}
    assert marked == {
        **{rule: [] for rule in RULE_BOOK},
        "deck": [True, False],  # a third pack for five: used; 8 jokers: off
        "deal": [True],  # 25 cards each for two players
        "meld": [True],  # melds are never rearranged: the kit has no such move
        "joker": [False],  # melds of jokers only
        "end": [False],  # the deal ends when one player is left alive
    }
    assert Rules().end_condition is EndCondition.ALL_DEAD and not Rules().all_joker_melds
    (end,) = sheet["end"]["house"]
    assert "as soon as only one player is alive" in end["text"]
    assert "a lone player still alive plays on" in sheet["end"]["text"]
    (joker,) = sheet["joker"]["house"]
    assert "jokers only" in joker["text"] and "not allowed" not in joker["text"]


def test_the_sheet_gives_the_facts_the_lessons_teach() -> None:
    """K-A-2 is not a run (turning the corner, lesson 2); a tie shares the win (lesson 6); the
    dealer's tie-break (lesson 9)."""
    sheet = {rule["id"]: rule["text"] for rule in rule_sheet()["rules"]}
    assert "K-A-2 is not a run" in sheet["run"] and "turns the corner" in sheet["run"]
    assert "a tie shares the win" in sheet["scoring"]
    assert "the tied player nearest clockwise from the last dealer's left" in sheet["dealer"]
    assert "drawn at random" in sheet["dealer"]
    lessons = {lesson["order"]: notebook_text(lesson["file"]) for lesson in catalogue()}
    assert "So K-A-2 is not a run; players call this *turning the corner*" in lessons[2]
    assert "a tie shares the win" in lessons[6]
    assert "the tied player nearest clockwise, counting from the left of the player" in lessons[9]


def test_the_glossary_explains_every_word_the_lessons_and_bots_lean_on() -> None:
    glossary = {entry["term"]: entry for entry in rule_sheet()["glossary"]}
    for term in (*TERMS, *MORE_TERMS):
        assert term in glossary, term
        assert glossary[term]["rule"] is None or glossary[term]["rule"] in RULE_BOOK
    assert "K-A-2 is not a run" in glossary["turning the corner"]["text"]
    assert "a swap is not an action" in glossary["action"]["text"]
    near = glossary["death is near"]["text"]
    bot = CarefulBot()
    assert f"{bot.small_hand} cards or fewer" in near and "at most two fit" in near
    assert bot.near_death == 2
    slugs = [entry["slug"] for entry in glossary.values()]
    assert len(set(slugs)) == len(slugs) and all(re.fullmatch(r"[a-z0-9-]+", s) for s in slugs)
