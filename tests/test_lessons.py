"""The course as a whole: the published lessons, their order, links, data and quizzes.

Each notebook is also executed top to bottom by tests/test_notebooks.py, and loaded in a real
browser by tests/site/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from penang_lib import play_deal
from penang_lib.rules import RULE_BOOK
from penang_lib.serve import LESSONS, catalogue
from penang_lib.showcase import shown_by
from widgets.lessons import data_path, lesson_data
from widgets.quiz import Quiz

COURSE = catalogue()
FILES = [lesson["file"] for lesson in COURSE]
LINK = re.compile(r"\]\(([^)\s]+)\)")
HOUSE_RULE_FACTS = re.compile(
    r"8 jokers|eight jokers|third pack|all-joker|all joker|only one (player|is) left|"
    r"one player (is )?left",
    re.IGNORECASE,
)


def notebook(file: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LESSONS / file).read_text(encoding="utf-8"))
    return data


def markdown(file: str) -> list[str]:
    cells = notebook(file)["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def code(file: str) -> list[str]:
    cells = notebook(file)["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def test_the_course_is_numbered_from_one_without_gaps() -> None:
    assert [lesson["order"] for lesson in COURSE] == list(range(1, len(COURSE) + 1))
    assert len(COURSE) >= 10
    for lesson in COURSE:
        assert lesson["file"].startswith(f"{lesson['order']:02d}_"), lesson["file"]
        assert lesson["summary"], f"{lesson['file']} says nothing after 'In this lesson:'"
        assert 1 <= lesson["minutes"] <= 30


def test_every_rule_of_the_rule_book_is_taught_somewhere() -> None:
    taught = {rule for lesson in COURSE for rule in lesson["rules"]}
    assert set(RULE_BOOK) <= taught, sorted(set(RULE_BOOK) - taught)
    assert taught <= set(RULE_BOOK), sorted(taught - set(RULE_BOOK))


@pytest.mark.parametrize("index", range(len(COURSE)), ids=FILES)
def test_a_lesson_opens_and_closes_with_its_title_and_navigation(index: int) -> None:
    lesson = COURSE[index]
    cells = notebook(lesson["file"])["cells"]
    first = "".join(cells[0]["source"])
    last = "".join(cells[-1]["source"])
    assert cells[0]["cell_type"] == "markdown" and cells[-1]["cell_type"] == "markdown"
    assert first.startswith(f"# {lesson['order']}. {lesson['title']}")
    for where in (first, last):
        links = LINK.findall(where)
        assert "../tree/" in links, f"{lesson['file']}: no link to all the lessons"
        if index > 0:
            assert COURSE[index - 1]["file"] in links, f"{lesson['file']}: no Previous link"
        if index + 1 < len(COURSE):
            assert COURSE[index + 1]["file"] in links, f"{lesson['file']}: no Next link"


@pytest.mark.parametrize("file", FILES)
def test_links_stay_on_the_site_and_lead_to_lessons(file: str) -> None:
    for text in markdown(file):
        assert "$" not in text, f"{file}: a dollar sign would render as maths"
        for target in LINK.findall(text):
            assert not re.match(r"[a-z]+:", target), f"{file} links off the site: {target}"
            page = target.split("?")[0].split("#")[0]
            if page and page != "../tree/":
                assert (LESSONS / page).is_file(), f"{file} links to a missing page {target}"


@pytest.mark.parametrize("file", FILES)
def test_house_rules_are_called_house_rules(file: str) -> None:
    for text in markdown(file):
        if HOUSE_RULE_FACTS.search(text):
            assert "house rule" in text.lower(), f"{file}: a house rule not marked:\n{text}"


@pytest.mark.parametrize("file", FILES)
def test_a_lesson_keeps_its_positions_in_its_data_file_and_ends_with_a_quiz(file: str) -> None:
    stem = Path(file).stem
    assert data_path(stem).is_file(), f"{file} has no data file"
    data = lesson_data(stem)
    assert any("Quiz(" in source for source in code(file)), f"{file} has no quiz"
    quiz = Quiz(data["quiz"])  # every author answer is checked against the engine here
    assert len(quiz.questions) >= 2
    for source in code(file):
        assert len(source.splitlines()) <= 8, f"{file}: a code cell of more than 8 lines"


def test_only_the_lessons_are_published() -> None:
    published = sorted(path.name for path in LESSONS.glob("*.ipynb"))
    assert published == sorted(FILES)
    assert not list(LESSONS.glob("*/*.ipynb")), "notebooks in sub-folders would be served too"


def test_the_whole_deal_lesson_names_the_steps_where_each_rule_happens() -> None:
    """Lesson 07 sends the learner to given steps of a given bot deal: each must still show
    its rule (a change to the bots would otherwise leave the lesson pointing at wrong steps)."""
    data = lesson_data("07_whole_deal")
    spec = data["deal"]
    deal = play_deal(spec["seed"], spec["players"], spec["bots"])
    assert len(deal.move_stack) == spec["steps"]
    for rule, step in data["steps"].items():
        events = deal.start_events if step == 0 else deal.event_stack[step - 1]
        assert rule in shown_by(events), f"step {step} of seed {spec['seed']} shows no {rule}"
