"""Deep links (`?seed=S&step=K&players=P&bots=...`) and the lessons' data helpers."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from penang_lib import Deal, parse_move, play_deal
from penang_lib.course.review import encode
from penang_lib.engine.bots import bot_names
from penang_lib.widgets import DealStepper, links
from penang_lib.widgets.controls import Control
from penang_lib.widgets.course_text import moments, rule_table
from penang_lib.widgets.lessons import Cards, lesson_data, position_deal
from penang_lib.widgets.links import (
    MAX_SEED,
    apply_link,
    read_link,
    step_address,
)
from penang_lib.widgets.review import open_review_link
from penang_lib.widgets.shared import is_shown


def test_a_good_link_is_read_whole() -> None:
    link = read_link("seed=7&step=3&players=3&bots=careful,greedy")
    assert (link.seed, link.step, link.players) == (7, 3, 3)
    assert link.bots == bot_names("careful,greedy", 3)
    assert link.ignored == ()


@pytest.mark.parametrize(
    ("query", "word"),
    [
        ("seed=abc", "seed"),
        (f"seed={MAX_SEED + 1}", "seed"),
        ("seed=" + "9" * 400, "seed"),
        ("seed=-4", "seed"),
        ("seed=٣", "seed"),  # an Arabic-Indic three: not plain digits
        ("players=7", "players"),
        ("players=two", "players"),
        ("bots=wizard", "bots"),
        ("step=x", "step"),
        ("colour=red", "colour"),
        ("seed=3&seed=4", "second seed"),
    ],
)
def test_a_bad_part_of_a_link_is_ignored_and_named(query: str, word: str) -> None:
    link = read_link(query)
    assert len(link.ignored) == 1 and word in link.ignored[0]
    default = read_link("")
    assert (link.players, link.bots) == (default.players, default.bots)


def test_a_step_address_reads_back_to_its_seed_and_step() -> None:
    address = step_address("07_whole_deal.ipynb", 11159, 22)
    assert address == "07_whole_deal.ipynb?seed=11159&step=22"
    link = read_link(address.split("?")[1])
    assert (link.seed, link.step, link.ignored) == (11159, 22, ())


@pytest.mark.parametrize(
    ("page", "seed", "step", "word"),
    [
        ("../secret.ipynb", 1, 0, "file name"),
        ("lesson.py", 1, 0, "file name"),
        ("lesson.ipynb", -1, 0, "seed"),
        ("lesson.ipynb", MAX_SEED + 1, 0, "seed"),
        ("lesson.ipynb", 1, -2, "step"),
    ],
)
def test_a_step_address_refuses_what_no_link_could_open(
    page: str, seed: int, step: int, word: str
) -> None:
    with pytest.raises(ValueError, match=word):
        step_address(page, seed, step)


def stepper_from_link(
    query: str | None = None,
    page: str = "07_whole_deal.ipynb",
    seed: int = 5,
    players: int = 4,
    bots: str = "careful",
) -> DealStepper:
    """What lesson 7 does: a stepper on the page's default deal, then the page's link applied
    (`query` None: read from Voila) in its last cell."""
    stepper = DealStepper.from_seed(seed, players, bots, page=page)
    apply_link(stepper, query, page, seed, players, bots)
    return stepper


def test_the_stepper_opens_the_linked_deal_at_the_linked_step() -> None:
    stepper = stepper_from_link("seed=7&step=3&bots=careful,greedy", page="lesson.ipynb")
    expected = play_deal(7, 4, "careful,greedy")
    assert stepper.step == 3
    assert stepper.deal.move_stack == expected.move_stack[:3]
    # Play holds the step too: its link in the browser copies Play onto the slider when it draws.
    assert stepper.play.value == 3
    assert not is_shown(stepper.note)
    # The status line offers the link of the current step, which reads back to the same deal.
    assert (
        "lesson.ipynb?seed=7&amp;players=4&amp;bots=careful,greedy,careful,greedy&amp;step=3"
        in (stepper.status.value)
    )
    stepper.buttons[Control.NEXT].click()
    assert "step=4" in stepper.status.value and stepper.play.value == 4
    again = read_link("seed=7&players=4&bots=careful,greedy,careful,greedy&step=4")
    assert again.bots == bot_names("careful,greedy", 4) and again.ignored == ()


def test_a_step_past_the_end_opens_the_deal_at_the_start_and_says_so() -> None:
    stepper = stepper_from_link("seed=7&step=100000")
    assert stepper.step == 0
    assert "step 100000" in stepper.note.value and is_shown(stepper.note)


def test_a_bad_link_opens_the_default_deal_with_one_sentence() -> None:
    stepper = stepper_from_link("seed=abc&step=-1", seed=5)
    default = play_deal(5, 4, "careful")
    assert stepper.deal.move_stack == [] and stepper._moves == default.move_stack
    assert stepper.note.value.count("<p>") == 1
    assert "seed" in stepper.note.value and "step" in stepper.note.value


def test_outside_voila_there_is_no_query_string() -> None:
    stepper = stepper_from_link(seed=6)
    assert stepper.deal.seed == 6 and not is_shown(stepper.note)


def test_a_position_is_dealt_and_its_moves_played_through_the_engine() -> None:
    deal = position_deal({"hands": ["5H 6H 7H 9C", "2C 3C 4C 8D"], "moves": ["meld 5H 6H 7H"]})
    expected = Deal(hands=["5H 6H 7H 9C", "2C 3C 4C 8D"], dealer=1)
    expected.push(parse_move("meld 5H 6H 7H"))
    assert deal.state_key() == expected.state_key()


@pytest.mark.parametrize(
    ("position", "word"),
    [
        ({"hands": ["5H 6H 7H", "2C 3C 4C"], "moves": ["lay_off 0 8H"]}, "illegal"),
        ({"hands": ["5H 6H 7X", "2C 3C 4C"]}, "hands"),
        ({"hands": "5H 6H 7H"}, "list"),
        ({"cards": ["5H"]}, "unknown key"),
        ({"hands": ["5H 6H 7H", "2C 3C 4C"], "dealer": "north"}, "dealer"),
        ({"hands": ["5H 6H 7H", "2C 3C 4C"], "dealer": 5}, "dealer"),
    ],
)
def test_a_bad_position_says_what_is_wrong(position: dict[str, object], word: str) -> None:
    with pytest.raises(ValueError, match=word):
        position_deal(position)


def test_lesson_data_is_read_from_the_lessons_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "99_test.json").write_text(json.dumps({"quiz": []}))
    monkeypatch.chdir(tmp_path)
    assert lesson_data("99_test") == {"quiz": []}
    with pytest.raises(ValueError, match="no data file"):
        lesson_data("98_missing")


def test_cards_show_as_the_engine_draws_them() -> None:
    shown = Cards("7H 7H 7C")
    assert shown._repr_html_().count("7♥") == 2 and "seven of clubs" in shown._repr_html_()
    assert repr(shown) == "7♥ 7♥ 7♣"


def test_a_link_applied_later_changes_the_deal_in_the_same_widgets() -> None:
    stepper = DealStepper.from_seed(5, page="lesson.ipynb")
    tree = {id(w) for w in stepper.walk()}
    apply_link(stepper, "seed=8&step=2", page="lesson.ipynb", seed=5)
    assert stepper.deal.move_stack == play_deal(8).move_stack[:2]
    assert stepper.slider.max == stepper.play.max == len(play_deal(8).move_stack)
    assert "seed=8" in stepper.status.value
    assert {id(w) for w in stepper.walk()} == tree
    with pytest.raises(ValueError):
        stepper.show_deal(play_deal(9), step=10**6)
    assert stepper.deal.move_stack == play_deal(8).move_stack[:2]  # unchanged


# -- the query string of a preheated kernel --------------------------------------------------------
PREHEATED = r"""
import asyncio, json, os, sys, threading
from websockets.asyncio.server import serve

asked = []

async def answer(connection):
    asked.append(connection.request.path)
    await connection.send(json.dumps({"QUERY_STRING": "seed=5&step=3", "SCRIPT_NAME": "/x"}))

async def main(ready):
    async with serve(answer, "127.0.0.1", 0) as server:
        os.environ["VOILA_APP_PORT"] = str(server.sockets[0].getsockname()[1])
        ready.set()
        await asyncio.sleep(30)

ready = threading.Event()
threading.Thread(target=lambda: asyncio.run(main(ready)), daemon=True).start()
ready.wait()
os.environ.update({"VOILA_PREHEAT": "True", "VOILA_KERNEL_ID": "k-1", "VOILA_SERVER_URL": "/"})
from penang_lib.widgets.links import query_string
print(json.dumps([query_string(), asked, os.environ["SCRIPT_NAME"], "voila.utils" in sys.modules]))
"""


def test_a_preheated_kernel_waits_for_its_request_without_loading_voila() -> None:
    """The request's details come from Voila's socket for this kernel, as Voila's own helper
    gets them, and the Jupyter server that `voila.utils` would load stays out of the kernel."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", PREHEATED], capture_output=True, text=True, timeout=60, check=True
    )
    query, asked, script, voila_loaded = json.loads(done.stdout.splitlines()[-1])
    assert query == "seed=5&step=3"
    assert asked == ["/voila/query/k-1"]
    assert script == "/x"  # every detail is put in the environment, as Voila does
    assert voila_loaded is False


def test_a_preheated_kernel_with_no_request_to_read_uses_the_defaults() -> None:
    import subprocess
    import sys

    code = (
        "import os; os.environ.update({'VOILA_PREHEAT': 'True', 'VOILA_APP_PORT': '9',"
        " 'VOILA_KERNEL_ID': 'k'}); os.environ.pop('QUERY_STRING', None)\n"
        "from penang_lib.widgets.links import query_string; print(repr(query_string()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "''"


# -- links to the site's pages, in the site and outside it (issue 29: JupyterLab) --------------
@pytest.fixture
def in_jupyterlab(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel of JupyterLab: an IPython kernel whose environment has nothing of Voila's."""
    import IPython

    for name in links.SITE_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(IPython, "get_ipython", lambda: SimpleNamespace(kernel=object()))


@pytest.fixture
def in_voila(in_jupyterlab: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel Voila started for the site: the same, with the site's address in its
    environment (a preheated kernel has VOILA_BASE_URL too, `voila_kernel_manager`)."""
    monkeypatch.setenv("VOILA_BASE_URL", "/user/ana/penang/")
    monkeypatch.setenv("VOILA_SERVER_URL", "/user/ana/penang/")


ADDRESS = "07_whole_deal.ipynb?seed=5&players=4&bots=careful&step=0"
"""The stepper's link to its first step (`seeded_deal` names the players and bots)."""


def finished_review_link() -> str:
    from tests.helpers.widgets import lesson_table, play_to_the_end

    table = lesson_table()
    play_to_the_end(table, learner="careful")
    return f"review={encode(table.deal, table.seat)}&step=3"


def site_widgets(review_query: str) -> dict[str, str]:
    """The HTML of every link to a page of the site a lesson's widgets draw: the stepper's
    "link to this step", the review's link (and its stepper's), lesson 7's list and table."""
    from tests.helpers.widgets import lesson_table

    stepper = DealStepper.from_seed(5, 4, "careful", page="07_whole_deal.ipynb")
    table = lesson_table()
    assert open_review_link(table, review_query) == ""
    data = lesson_data("07_whole_deal")
    return {
        "stepper": stepper.status.value,
        "review": table.review.link.value,
        "review stepper": table.review.stepper.status.value,
        "moments": moments(data, "07_whole_deal.ipynb")._repr_html_(),
        "rules": rule_table(data, "07_whole_deal.ipynb")._repr_html_(),
    }


def test_in_jupyterlab_no_widget_links_a_page_of_the_site_and_each_says_where_it_opens(
    in_jupyterlab: None,
) -> None:
    """A click on such a link would load JupyterLab again and wipe every output: the address
    is shown, not linked, with where it opens."""
    assert not links.on_site()
    drawn = site_widgets(finished_review_link())
    for name, value in drawn.items():
        assert "<a " not in value and "href" not in value, name
        assert "penang-rummy serve" in value, name
    said = words(drawn["stepper"])
    assert f"link to this step: {ADDRESS}" in said
    assert links.OFF_SITE in said
    assert "08_play.ipynb?review=" in words(drawn["review"])
    assert "Step 7:" in words(drawn["moments"]) and links.OFF_SITE_NOTE in words(drawn["moments"])


def test_under_voila_the_same_widgets_link_their_pages(in_voila: None) -> None:
    assert links.on_site()
    query = finished_review_link()
    drawn = site_widgets(query)
    for name, value in drawn.items():
        assert "href=" in value and "penang-rummy serve" not in value, name
    hrefs = {name: re.findall(r'href="([^"]+)"', value) for name, value in drawn.items()}
    assert [html.unescape(h) for h in hrefs["stepper"]] == [ADDRESS]
    (review,) = hrefs["review"]
    assert html.unescape(review) == "08_play.ipynb?" + query.split("&")[0]
    assert html.unescape(hrefs["review stepper"][0]).endswith("&step=3")
    assert all(h.startswith("07_whole_deal.ipynb?seed=") for h in hrefs["moments"])


def test_outside_any_kernel_links_are_drawn_as_on_the_site(monkeypatch: pytest.MonkeyPatch) -> None:
    """A script or a test only reads the HTML: it gets the site's."""
    for name in links.SITE_ENV:
        monkeypatch.delenv(name, raising=False)
    assert links.on_site()
    assert (
        links.page_link("08_play.ipynb?review=x")
        == '<a href="08_play.ipynb?review=x">08_play.ipynb?review=x</a>'
    )


def words(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())
