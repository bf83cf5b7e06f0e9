"""The course as a whole: the published lessons, their order, links, data and quizzes.

Each notebook is also executed top to bottom by tests/lessons/test_notebooks.py, and loaded in a
real browser by tests/site/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from penang_lib import play_deal
from penang_lib.engine.rules import RULE_BOOK
from penang_lib.engine.showcase import shown_by
from penang_lib.site.serve import LESSONS, catalogue
from penang_lib.widgets import render
from penang_lib.widgets.lessons import data_path, lesson_data, position_deal
from penang_lib.widgets.quiz import Quiz

COURSE = catalogue()
FILES = [lesson["file"] for lesson in COURSE]
LINK = re.compile(r"\]\(([^)\s]+)\)")
ALL_LESSONS = "README.md"
"""What each lesson's "All lessons" link names: the list next to the lessons."""
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
        assert ALL_LESSONS in links, f"{lesson['file']}: no link to all the lessons"
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
            if page:
                assert (LESSONS / page).is_file(), f"{file} links to a missing page {target}"


def test_all_lessons_is_the_list_of_the_lessons_in_their_order() -> None:
    """Every lesson's "All lessons" link names the list next to the lessons, which JupyterLab
    opens (the site answers its address with the landing page, penang_lib/site/app.py): it
    lists every published lesson, in order, by its title, linked."""
    text = (LESSONS / ALL_LESSONS).read_text(encoding="utf-8")
    listed = re.findall(r"^(\d+)\. \[(.+)\]\(([^)]+)\)$", text, re.MULTILINE)
    assert listed == [(str(c["order"]), c["title"], c["file"]) for c in COURSE]


@pytest.mark.parametrize("file", FILES)
def test_house_rules_are_called_house_rules(file: str) -> None:
    for text in markdown(file):
        if HOUSE_RULE_FACTS.search(text):
            assert "house rule" in text.lower(), f"{file}: a house rule not marked:\n{text}"


def is_puzzle_page(file: str) -> bool:
    """The puzzle page builds a PuzzleBoard: its positions are the shipped puzzle set
    (data/puzzles.json, each puzzle proved by the engine) and every puzzle is a check of its
    own, so it has no data file of its own and no quiz."""
    return any("PuzzleBoard(" in source for source in code(file))


def is_table_page(file: str) -> bool:
    """The "Play together" page seats the learner at a table of people (issue 32): the deal
    comes from the table service, so it has no positions of its own, and its check is the
    game itself, played with others, not a quiz."""
    return any("PlayTogether(" in source for source in code(file))


QUIZZED = [file for file in FILES if not is_puzzle_page(file) and not is_table_page(file)]


@pytest.mark.parametrize("file", FILES)
def test_a_lesson_keeps_its_positions_in_its_data_file_and_ends_with_a_quiz(file: str) -> None:
    stem = Path(file).stem
    if is_puzzle_page(file):
        assert [f for f in FILES if is_puzzle_page(f)] == [file], "one puzzle page, no more"
        assert (LESSONS / "data" / "puzzles.json").is_file(), f"{file}: no puzzles.json"
        assert not any("Quiz(" in source for source in code(file))
        assert all(len(source.splitlines()) <= 8 for source in code(file))
        return
    if is_table_page(file):
        assert [f for f in FILES if is_table_page(f)] == [file], "one table page, no more"
        assert not any("Quiz(" in source for source in code(file))
        assert all(len(source.splitlines()) <= 8 for source in code(file))
        return
    assert data_path(stem).is_file(), f"{file} has no data file"
    data = lesson_data(stem)
    assert any("Quiz(" in source for source in code(file)), f"{file} has no quiz"
    quiz = Quiz(data["quiz"])  # every author answer is checked against the engine here
    assert len(quiz.questions) >= 2
    for source in code(file):
        assert len(source.splitlines()) <= 8, f"{file}: a code cell of more than 8 lines"


@pytest.mark.parametrize("file", QUIZZED)
def test_every_quiz_answer_explains_itself(file: str) -> None:
    """Issue 19, item 14: right or wrong, the feedback says why in a sentence: the author's
    `why`, and for a refused move also the engine's reason."""
    data = lesson_data(Path(file).stem)
    quiz = Quiz(data["quiz"], explained=True)  # a question without a why is refused here
    for question in quiz.questions:
        assert question.why == question.data["why"].strip()
        assert len(question.why.split()) >= 5, f"{file} question {question.number}: too short"
        for chosen, feedback in enumerate(question.feedback):
            assert render.symbols(question.why) in feedback, (file, question.number, chosen)
            if question.verdict is not None:
                truth = question.labels[0 if question.verdict.ok else 1]
                assert f"The answer is {render.esc(truth)}. " in feedback
                verdict = question.verdict
                assert render.sentence_html(verdict.rule, verdict.reason, verdict.ok) in feedback
            if question.fact is not None:
                truth = question.right_labels[0]
                assert f"The answer is {render.esc(truth)}. " in feedback
                assert render.sentence_html(*question.fact, ok=True) in feedback
        if question.form == "position":
            deal = position_deal(question.data["position"])
            for move, right, feedback in zip(
                question.moves, question.right, question.feedback, strict=True
            ):
                refusal = deal.explain_illegal(move)
                assert (refusal is None) is right
                if refusal is not None:
                    assert render.sentence_html(refusal.rule, refusal.reason, False) in feedback


@pytest.mark.parametrize("file", QUIZZED)
def test_a_quiz_asks_nothing_a_later_lesson_teaches(file: str) -> None:
    """Issue 29: lesson 1's quiz asked whether 7♥ 7♥ 7♣ and 10♥ J♥ Q♥ are melds before lesson 2
    teaches runs and sets. A yes/no question is judged by one rule of the engine: that rule is
    taught in this lesson or an earlier one (the rule ids the lessons' metadata list)."""
    order = FILES.index(file)
    taught = {rule for lesson in COURSE[: order + 1] for rule in lesson["rules"]}
    quiz = Quiz(lesson_data(Path(file).stem)["quiz"])
    for question in quiz.questions:
        if question.verdict is not None:
            assert question.verdict.rule in taught, (file, question.number, question.ask)
        if question.fact is not None:
            assert question.fact[0] in taught, (file, question.number, question.ask)


def test_lesson_ones_quiz_asks_about_the_deck_and_the_deal_only() -> None:
    """Lesson 1 teaches the deck, the players and the deal, not melds: its questions say
    nothing of melds, runs or sets, and each is the engine's `deck` or `deal` rule at work."""
    data = lesson_data("01_deck_and_deal")
    quiz = Quiz(data["quiz"], explained=True)
    for question in quiz.questions:
        words = f"{question.ask} {question.why}"
        assert not re.search(r"\b(melds?|runs?|sets?|passport|dead)\b", words, re.I), words
        judged = question.verdict.rule if question.verdict is not None else None
        if question.fact is not None:
            judged = question.fact[0]
        assert judged in ("deck", "deal"), (question.number, judged)
    # The right answer is not always the same button.
    assert len({question.right.index(True) for question in quiz.questions}) > 1


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


def test_lesson_one_describes_the_joker_and_the_hands_as_the_page_draws_them() -> None:
    """Issue 19: lesson 1 said a joker "is drawn as 🃏", which Debian's Chromium shows as a
    boxed star; the kit draws its own joker, and the lesson says so. Its hands are shown
    sorted as the lesson says: by suit (♠ ♥ ♦ ♣), then rank, jokers last."""
    from penang_lib.engine.cards import JOKER_MARK, SUITS, joker_svg
    from penang_lib.widgets import DealStepper
    from penang_lib.widgets.lessons import Cards

    file = "01_deck_and_deal.ipynb"
    text = "\n".join(markdown(file))
    assert "drawn as 🃏" not in text and "jester's cap with three bells" in text
    # Menus and buttons hold plain text: the lesson writes a joker there as the widgets do.
    from penang_lib.widgets.render import plain

    assert f"as `{plain('🃏=7♥')}`" in text and f"a joker `{plain('🃏')}`" in text
    # Not taught before issue 19: whether melds on the table may be rearranged or split.
    never = next(t for t in markdown(file) if "nobody may rearrange it, split it" in t)
    assert "**house rule**" in never
    shown = re.search(r'^Cards\("([^"]*)"\)$', "\n".join(code(file)), re.M)
    assert shown is not None
    html = Cards(shown.group(1))._repr_html_()
    assert "JK" in shown.group(1).split() and "JK@7H" in shown.group(1).split()
    assert JOKER_MARK not in html and html.count(joker_svg()) == 2 and "</svg>=7♥" in html
    assert "sorted by suit (♠ ♥ ♦ ♣), then by rank from ace to king, with jokers last" in text
    data = lesson_data("01_deck_and_deal")
    names = {
        f"{name} of {suit}": (SUITS.index(suit[0].upper()), rank)
        for suit in ("spades", "hearts", "diamonds", "clubs")
        for rank, name in enumerate(
            (
                "ace",
                "two",
                "three",
                "four",
                "five",
                "six",
                "seven",
                "eight",
                "nine",
                "ten",
                "jack",
                "queen",
                "king",
            ),
            start=1,
        )
    }
    names["joker"] = (4, 0)
    for key in ("deal", "deal_three", "deal_five"):
        stepper = DealStepper.from_seed(**data[key])
        hands = re.findall(
            r'role="group" aria-label="[^"]*hand">(.*?)</span></td>', stepper.hands.value
        )
        assert len(hands) == data[key]["players"], key
        for hand in hands:
            order = [names[n] for n in re.findall(r'aria-label="([^"]+)"', hand)]
            assert len(order) >= 20 and order == sorted(order), key
