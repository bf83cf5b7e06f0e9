"""Each fact of lessons 7 and 9 is said once: the seed, the steps and the counts live in the
lesson's JSON (or come from the engine), the page's links and its table of rules are made from
that data (`penang_lib.widgets.course_text`), and whatever the markdown still says of them is
checked here
against the data."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from penang_lib import RULE_BOOK, Rules, parse_move, play_deal
from penang_lib.engine.cards import rank_text
from penang_lib.site.serve import LESSONS
from penang_lib.widgets.course_text import first_steps, moments, moments_of, rule_table
from penang_lib.widgets.lessons import lesson_data, position_deal
from penang_lib.widgets.links import read_link

LESSON_7, LESSON_9 = "07_whole_deal", "09_match"
HREF = re.compile(r'href="([^"]+)"')
NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def cells(stem: str, kind: str) -> list[str]:
    notebook = json.loads((LESSONS / f"{stem}.ipynb").read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == kind]


def words(stem: str) -> str:
    return "\n".join(cells(stem, "markdown"))


READ_BY = {"moments(data": {"deal", "steps", "moments"}, "rule_table(data": {"deal", "steps"}}
"""What of a lesson's data the course text helpers read (see `penang_lib.widgets.course_text`)."""


def read_keys(stem: str) -> set[str]:
    """The keys of the lesson's data that its code cells read (`data["key"]`, or a helper)."""
    code = "\n".join(cells(stem, "code"))
    keys = set(re.findall(r'data\["([\w-]+)"\]', code))
    return keys.union(*(read for call, read in READ_BY.items() if call in code))


@pytest.mark.parametrize("stem", [LESSON_7, LESSON_9])
def test_every_key_of_the_lessons_data_is_read_by_the_lesson(stem: str) -> None:
    assert set(lesson_data(stem)) == read_keys(stem)


def test_lesson_7_writes_no_seed_and_no_step_link_into_its_markdown() -> None:
    seed = str(lesson_data(LESSON_7)["deal"]["seed"])
    text = words(LESSON_7)
    assert seed not in text and "seed=" not in text and "| rule |" not in text


def test_lesson_7_names_in_its_markdown_only_steps_its_data_lists() -> None:
    data = lesson_data(LESSON_7)
    listed = {moment.step for moment in moments_of(data)}
    named = [int(k) for k in re.findall(r"\bstep (\d+)", words(LESSON_7), re.IGNORECASE)]
    assert named, "the lesson no longer names a step (then this test can go)"
    assert set(named) <= listed, sorted(set(named) - listed)


def test_lesson_7_says_which_bots_play_as_its_data_does() -> None:
    deal = lesson_data(LESSON_7)["deal"]
    found = re.search(r"(\w+) (\w+) bots play one whole deal", words(LESSON_7))
    assert found is not None
    assert NUMBERS[found.group(1).lower()] == deal["players"] and found.group(2) == deal["bots"]


def test_lesson_7s_links_open_its_deal_at_the_steps_of_its_data() -> None:
    data = lesson_data(LESSON_7)
    shown = moments(data, f"{LESSON_7}.ipynb")._repr_html_()
    links = [h.replace("&amp;", "&") for h in HREF.findall(shown)]
    assert len(links) == len(data["moments"])
    for link, moment in zip(links, moments_of(data), strict=True):
        page, query = link.split("?")
        assert (LESSONS / page).is_file()
        read = read_link(query)
        assert (read.seed, read.step, read.ignored) == (data["deal"]["seed"], moment.step, ())
        assert f">Step {moment.step}</a>" in shown


def test_lesson_7s_rule_table_is_the_rule_book_with_the_datas_first_steps() -> None:
    data = lesson_data(LESSON_7)
    table = rule_table(data, f"{LESSON_7}.ipynb")._repr_html_()
    rows = re.findall(
        r"<tr><td[^>]*><code>([\w.-]+)</code></td><td[^>]*>(.*?)</td><td[^>]*>(.*?)</td></tr>",
        table,
    )
    assert [rule for rule, _, _ in rows] == list(RULE_BOOK)  # every rule, in teaching order
    for rule, link, summary in rows:
        step = data["steps"][rule]
        assert f'seed={data["deal"]["seed"]}&amp;step={step}">Step {step}</a>' in link
        assert summary == RULE_BOOK[rule].replace("'", "&#x27;")


def test_each_first_step_of_lesson_7_is_the_first_that_shows_its_rule() -> None:
    from penang_lib.engine.showcase import shown_by

    data = lesson_data(LESSON_7)
    spec = data["deal"]
    deal = play_deal(spec["seed"], spec["players"], spec["bots"])
    events = [deal.start_events, *deal.event_stack]
    for rule, step in first_steps(data).items():
        seen = [k for k, happened in enumerate(events) if rule in shown_by(happened)]
        assert seen and seen[0] == step, (rule, step, seen[:3])


def test_lesson_7s_quiz_positions_are_its_deal_at_the_step_they_name() -> None:
    data = lesson_data(LESSON_7)
    spec = data["deal"]
    deal = play_deal(spec["seed"], spec["players"], spec["bots"])
    asked = 0
    for question in data["quiz"]:
        found = re.match(r"Step (\d+)\b", question["ask"])
        if not found:
            continue
        asked += 1
        position = question["position"]
        moves = [parse_move(text) for text in position["moves"]]
        assert len(moves) == int(found.group(1)) - 1  # the step asked is the next move
        assert moves == deal.move_stack[: len(moves)]
        at = deal.copy()
        while len(at.move_stack) > len(moves):
            at.pop()
        assert position_deal(position).state_key() == at.state_key()
    assert asked >= 2


def test_lesson_9_says_how_many_bots_play_how_many_deals_as_its_data_does() -> None:
    match = lesson_data(LESSON_9)["match"]
    found = re.search(r"(\w+) (\w+) bots play a match of (\w+) deals", words(LESSON_9))
    assert found is not None
    players, bots, deals = found.groups()
    assert (NUMBERS[players.lower()], bots, NUMBERS[deals]) == (
        match["players"],
        match["bots"],
        match["deals"],
    )


def test_lesson_9_counts_cards_as_the_rules_do() -> None:
    values: dict[str, Any] = Rules().values
    found = re.search(
        r"A joker counts (\d+), an ace (\d+), J, Q and K (\d+) each, the rest their number",
        words(LESSON_9),
    )
    assert found is not None
    assert [int(n) for n in found.groups()] == [values["JK"], values["A"], values["J"]]
    assert values["Q"] == values["K"] == values["J"]
    assert all(values[rank_text(r)] == r for r in range(2, 11))


def test_lesson_9_shows_the_end_of_the_deal_of_lesson_7() -> None:
    code = "\n".join(cells(LESSON_9, "code"))
    assert 'lesson_data("07_whole_deal")' in code and "11159" not in code
    assert "the deal from lesson 7" in words(LESSON_9)


@pytest.mark.parametrize(
    ("change", "word"),
    [
        ({"moments": []}, "list of moments"),
        ({"moments": [{"says": "x"}]}, "either its step"),
        ({"moments": [{"step": 1, "first": "deck", "says": "x"}]}, "either its step"),
        ({"moments": [{"first": "wizard", "says": "x"}]}, "wizard"),
        ({"moments": [{"step": 99, "says": "x"}]}, "moment 1"),
        ({"moments": [{"step": 2, "says": "x"}, {"step": 1, "says": "y"}]}, "order"),
        ({"moments": [{"step": 2, "says": " "}]}, "says"),
        ({"steps": {"wizard": 1}}, "not a rule id"),
        ({"deal": {"seed": 5}}, "number of steps"),
    ],
)
def test_bad_course_data_says_what_is_wrong(change: dict[str, Any], word: str) -> None:
    data = {**lesson_data(LESSON_7), **change}
    with pytest.raises(ValueError, match=word):
        moments(data, f"{LESSON_7}.ipynb")


def test_a_moments_words_are_escaped_and_its_rule_ids_shown_as_code() -> None:
    data = {
        "deal": {"seed": 5, "steps": 3},
        "steps": {"deck": 0},
        "moments": [{"first": "deck", "says": "<b>two</b> packs & 🃏 (`deck`)"}],
    }
    shown = moments(data, "x.ipynb")
    assert "&lt;b&gt;two&lt;/b&gt; packs &amp; " in shown.html and "<code>deck</code>" in shown.html
    assert 'aria-label="joker"' in shown.html
    assert repr(shown) == "- Step 0: <b>two</b> packs & 🃏 (`deck`)"
    with pytest.raises(ValueError, match="file name"):
        moments(data, "../x.ipynb")
