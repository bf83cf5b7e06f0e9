"""The rule sheet and glossary (issue 19): one page, with no kernel, reachable by one link
from every lesson's chrome and from the landing page; it names every rule id of the rule book,
marks the house rules, explains the glossary's words, fetches nothing from outside and passes
the accessibility audit, on a laptop and on a phone."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, BrowserContext

from penang_lib.engine.rules import RULE_BOOK
from penang_lib.site.serve import GLOSSARY, HOUSE_RULES, RULES_PAGE, catalogue, rule_sheet
from tests.site.conftest import lesson_url, open_page
from tests.site.test_pages import axe_violations
from tools.site_runner import Server

TERMS = ("passport", "lay-off", "swap", "Dead", "Game", "deadwood", "count")
"""The words issue 19's newcomer asked about."""


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
        assert meaning.locator(f"a[href='#rule-{rule}']").count() == 1, term

    rules = page.locator("ol.rules > li")
    assert [rules.nth(i).get_attribute("id") for i in range(rules.count())] == [
        f"rule-{rule}" for rule in RULE_BOOK
    ]
    for rule, sentence in RULE_BOOK.items():
        assert sentence in page.locator(f"[id='rule-{rule}']").inner_text(), rule
    for house in HOUSE_RULES:
        entry = page.locator(f"[id='rule-{house['rule']}'] .house", has_text=house["text"])
        assert entry.count() == 1 and entry.inner_text().startswith("House rule:")
    never = page.locator("#rule-meld .house").inner_text()
    assert "never rearranged, split or taken back" in never

    assert visit.outside == [] and visit.errors == []
    assert axe_violations(page) == [], json.dumps(axe_violations(page))
    # Each rule links to the lesson that teaches it.
    teaches = next(lesson for lesson in catalogue() if "swap" in lesson["rules"])
    back = page.locator("#rule-swap a.taught")
    assert back.get_attribute("href") == f"/voila/render/{teaches['file']}"


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
