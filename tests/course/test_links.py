"""The one reader of a lesson page's query string (`penang_lib.course.links`): every key the pages
read (seed, step, players, bots, review, puzzle), its bounds, and junk."""

from __future__ import annotations

import pytest

from penang_lib import Deal, play_deal
from penang_lib.course import links
from penang_lib.course.links import (
    MAX_QUERY,
    MAX_REVIEW_QUERY,
    MAX_SEED,
    DealLink,
    linked_puzzle_id,
    parse_query,
    read_link,
    review_code,
    review_step,
    usable_step,
    whole,
)
from penang_lib.engine import validate
from penang_lib.engine.bots import bot_names
from penang_lib.widgets import links as widget_links


def test_there_is_one_seed_bound_and_it_is_the_engines() -> None:
    assert MAX_SEED == validate.MAX_SEED == 2**63 - 1
    assert widget_links.MAX_SEED == MAX_SEED
    # The widgets' names are the course's, not copies.
    assert widget_links.read_link is read_link and widget_links.DealLink is DealLink


def test_a_link_may_name_any_seed_the_engine_deals() -> None:
    for seed in (0, 2**32 - 1, 2**32, MAX_SEED):
        link = read_link(f"seed={seed}")
        assert link.seed == seed and link.ignored == ()
        assert Deal(players=link.players, seed=link.seed).seed == seed
    (said,) = read_link(f"seed={MAX_SEED + 1}").ignored
    assert said == f"the seed '{MAX_SEED + 1}' (a whole number up to {MAX_SEED})"


def test_the_query_is_split_in_order_with_blanks_and_a_leading_question_mark() -> None:
    assert parse_query("?seed=5&step=&bots=careful%2Cgreedy") == [
        ("seed", "5"),
        ("step", ""),
        ("bots", "careful,greedy"),
    ]
    assert parse_query("") == [] and parse_query("&&") == []
    with pytest.raises(TypeError, match="query"):
        parse_query(None)  # type: ignore[arg-type]


def test_the_query_is_read_only_to_its_limit() -> None:
    long = "seed=5&" + "x" * MAX_QUERY + "&step=3"
    assert parse_query(long) == [("seed", "5"), ("x" * (MAX_QUERY - 7), "")]
    assert ("step", "3") in parse_query(long, MAX_REVIEW_QUERY)
    link = read_link(long)
    assert link.seed == 5 and link.step is None
    assert link.ignored[0] == f"everything after the first {MAX_QUERY} characters"


@pytest.mark.parametrize(
    ("text", "number"),
    [("0", 0), ("12", 12), ("0012", 12), ("9" * 20, int("9" * 20))],
)
def test_a_whole_number_is_plain_digits(text: str, number: int) -> None:
    assert whole(text) == number


@pytest.mark.parametrize(
    "text", ["", "-1", "+1", "1.0", "1e3", " 1", "\u0663", "\uff11", "9" * 21, "abc"]
)
def test_anything_else_is_no_number(text: str) -> None:
    assert whole(text) is None


def test_each_key_of_a_deal_link_is_read() -> None:
    link = read_link("seed=7&step=3&players=3&bots=careful,greedy")
    assert link == DealLink(7, 3, bot_names("careful,greedy", 3), 3, ())
    assert read_link("players=2").bots == bot_names("careful", 2)
    assert read_link("", seed=9, players=5, bots="greedy") == DealLink(
        9, 5, bot_names("greedy", 5), None, ()
    )


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("players=1", "players='1' (Penang Rummy takes 2 to 5)"),
        ("players=6", "players='6' (Penang Rummy takes 2 to 5)"),
        ("step=-1", "the step '-1' (a whole number from 0)"),
        ("review=abc", "the unknown setting 'review'"),
        ("puzzle=dead-0005", "the unknown setting 'puzzle'"),
        ("seed=1&seed=2", "a second seed"),
    ],
)
def test_a_deal_link_names_what_it_ignores(query: str, said: str) -> None:
    assert read_link(query).ignored == (said,)


def test_a_step_past_the_end_of_the_deal_is_ignored_and_said() -> None:
    steps = len(play_deal(5).move_stack)
    assert usable_step(read_link(f"step={steps}"), steps) == (steps, [])
    assert usable_step(read_link(f"step={steps + 1}"), steps) == (
        None,
        [f"step {steps + 1} (this deal has steps 0 to {steps})"],
    )
    assert usable_step(read_link("colour=red"), steps) == (None, ["the unknown setting 'colour'"])


def test_the_ignored_note_is_one_sentence_naming_the_first_few() -> None:
    parts = [f"part {i}" for i in range(links.MAX_NOTED + 2)]
    note = links.ignored_note([*parts, "part 0"])
    assert note.startswith("From the link, these were ignored and the defaults used instead: ")
    assert note.endswith("; and 2 more.") and note.count("part 0") == 1


def test_a_review_link_gives_its_code_and_step() -> None:
    assert review_code("review=abc_-1&step=12") == "abc_-1"
    assert review_code("?seed=4") is None and review_code("") is None
    assert review_code("review=") == "" and review_code("review=a&review=b") == ""
    code = "A" * 9000  # too long to be a code: read whole, so that decode says so
    assert review_code(f"review={code}") == code
    assert review_step("review=abc&step=12") == 12
    for query in ("review=abc", "step=-1", "step=x", "step=1&step=2", "step=٣"):
        assert review_step(query) is None, query


def test_a_puzzle_link_gives_its_first_id() -> None:
    assert linked_puzzle_id("?puzzle=swap-0003&other=1") == "swap-0003"
    assert linked_puzzle_id("puzzle=a&puzzle=b") == "a" and linked_puzzle_id("puzzle=") == ""
    assert linked_puzzle_id("seed=5") is None and linked_puzzle_id("") is None
    assert linked_puzzle_id("x=" + "y" * MAX_QUERY + "&puzzle=a") is None  # past the limit
