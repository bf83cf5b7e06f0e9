"""Lesson 10's charts (widgets/charts.py) against the lab's data, and the lesson's words about
them: every title names what its bars are, every percent axis stays within 0-100, every bar's
height and label are the data's, and each claim of the text holds in the data."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from penang_lib.data import lab as lab_module
from penang_lib.site.serve import LESSONS
from penang_lib.widgets.charts import (
    CHARTS,
    PERCENT,
    Chart,
    bots_chart,
    expert_chart,
    nobody_out_chart,
    passport_chart,
    turns_chart,
)
from penang_lib.widgets.lessons import lesson_data
from penang_lib.widgets.render import esc
from penang_lib.widgets.svg import Line, Panel
from tests.checkout import REPO

LAB = lesson_data("10_strategy_lab")
NOTEBOOK = LESSONS / "10_strategy_lab.ipynb"


def cells(kind: str) -> list[str]:
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == kind]


def section(number: int) -> str:
    """The markdown of the lesson's section `number` ("## 3. ...") up to the next chart."""
    for text in cells("markdown"):
        if text.startswith(f"## {number}. "):
            return text
    raise AssertionError(f"lesson 10 has no section {number}")


def bar_heights(panel: Panel) -> list[float]:
    return [] if panel.bars is None else [float(v) for v in panel.bars.values]


def bar_texts(panel: Panel) -> list[str]:
    """The text written on each bar (above it or inside its top), in bar order."""
    return [] if panel.bars is None else [t for t in panel.bars.texts if t]


def data(line: Line, axis: str = "y") -> list[float]:
    """A line's points on one axis, as plain numbers."""
    return [float(v) for v in (line.y if axis == "y" else line.x)]


def ticks(panel: Panel) -> list[str]:
    """The labels under the bars, in bar order."""
    return [] if panel.bars is None else list(panel.bars.labels)


def percent_axes(chart: Chart) -> list[Panel]:
    return [panel for panel in chart.panels if "%" in panel.ylabel]


def test_the_lesson_draws_every_chart_with_one_line_each() -> None:
    code = "\n".join(cells("code"))
    for make in CHARTS:
        assert re.search(rf"^{make.__name__}\(lab\)$", code, re.M), make.__name__
    assert "Figure(" not in code and "savefig" not in code and "<svg" not in code


@pytest.mark.parametrize("make", CHARTS, ids=lambda make: make.__name__)
def test_every_chart_has_a_title_axes_labels_and_an_alt_text_with_its_numbers(
    make: Any,
) -> None:
    chart: Chart = make(LAB)
    assert chart.title and chart.alt
    for panel in chart.panels:
        assert panel.title, f"{chart.title}: a panel without a title"
        assert panel.limits[0] == 0, f"{panel.title}: the value axis does not start at 0"
    assert chart.panels[0].ylabel
    for text in (t for panel in chart.panels for t in bar_texts(panel)):
        assert text in chart.alt, f"{text!r} is on the chart but not in its text alternative"
    html = chart._repr_html_()
    # One image for a screen reader, named by the alternative, one drawing per panel, and the
    # chart's title as the caption; every panel's title and bar text is drawn.
    assert html.count('role="img"') == 1 and f'aria-label="{esc(chart.alt)}"' in html
    assert html.count("<svg ") == len(chart.panels)
    assert "<figcaption" in html and f"{esc(chart.title)}</figcaption>" in html
    for panel in chart.panels:
        assert esc(panel.title) in html
        for text in bar_texts(panel):
            assert f">{esc(text)}</text>" in html, text


@pytest.mark.parametrize("make", CHARTS, ids=lambda make: make.__name__)
def test_no_percent_axis_runs_past_100(make: Any) -> None:
    chart: Chart = make(LAB)
    for panel in percent_axes(chart):
        assert panel.limits == PERCENT, panel.title
        assert all(0 <= h <= 100 for h in bar_heights(panel))
        # A bar taller than 80% writes its text inside its top, where the title cannot cover it.
        assert panel.bars is not None
        assert [panel.bars.inside(i) for i in range(len(panel.bars.values))] == [
            h > 80 for h in bar_heights(panel)
        ]


@pytest.mark.parametrize("make", CHARTS, ids=lambda make: make.__name__)
def test_every_value_axis_without_fixed_limits_holds_its_highest_bar_and_room_above(
    make: Any,
) -> None:
    for panel in make(LAB).panels:
        if panel.limits != PERCENT and panel.bars is not None:
            assert panel.limits[1] == pytest.approx(1.25 * max([*bar_heights(panel), 1.0]))
            assert not any(panel.bars.inside(i) for i in range(len(panel.bars.values)))


def test_the_passport_chart_says_each_bars_table_size_and_deals() -> None:
    chart = passport_chart(LAB)
    (ax,) = chart.panels
    p = LAB["passport"]
    # Its title must not name one table size while its bars are several.
    assert chart.title == ax.title
    assert not re.search(r"\b\d players\b", chart.title.replace(f"{min(p)} to {max(p)}", ""))
    assert f"{min(p)} to {max(p)} players" in chart.title
    for label, (n, row) in zip(ticks(ax), p.items(), strict=True):
        assert label == f"{n} players\n{row['deals']:,} deals"
    assert bar_heights(ax) == pytest.approx(
        [row["failures"] / row["hands"] * 10_000 for row in p.values()]
    )
    assert bar_texts(ax) == [f"{row['failures']} of {row['hands']:,}" for row in p.values()]


def test_the_nobody_out_charts_show_the_rates_of_the_data() -> None:
    chart = nobody_out_chart(LAB)
    groups = LAB["nobody_out"]
    assert len(chart.panels) == len(groups)
    for ax, group in zip(chart.panels, groups.values(), strict=True):
        assert ticks(ax) == list(group)
        rates = [100 * row["rate"] for row in group.values()]
        assert bar_heights(ax) == pytest.approx(rates)
        assert sorted(bar_texts(ax)) == sorted(f"{r:.0f}%" for r in rates)
        (deals,) = {row["deals"] for row in group.values()}
        assert f"({deals:,} deals a bar)" in ax.title


def test_the_bots_charts_show_wins_and_counts_of_the_data() -> None:
    chart = bots_chart(LAB)
    by_bot = LAB["bots"]["by_bot"]
    wins, counts = chart.panels
    assert ticks(wins) == ticks(counts) == list(by_bot)
    assert bar_heights(wins) == pytest.approx([100 * b["win_rate"] for b in by_bot.values()])
    assert bar_heights(counts) == pytest.approx([b["mean_count"] for b in by_bot.values()])
    assert bar_texts(counts) == [f"{b['mean_count']:.0f}" for b in by_bot.values()]
    assert f"({LAB['bots']['deals']:,} deals)" in wins.title
    assert "lower is better" in counts.title


def test_the_turns_charts_draw_each_tables_mean_count() -> None:
    chart = turns_chart(LAB)
    left, right = chart.panels
    turns = LAB["turns"]
    assert [line.label for line in left.lines] == [f"{name} bots" for name in turns]
    for line, row in zip(left.lines, turns.values(), strict=True):
        assert data(line, "x") == row["turn"]
        assert data(line) == pytest.approx(row["mean"])
    assert f"{len(turns)} tables" in left.title
    careful = turns["careful"]
    assert [data(line) for line in right.lines] == [
        careful["winners"],
        careful["others"],
    ]
    # One count axis for both, from 0, holding every point; each panel names its lines.
    assert left.limits == right.limits and left.limits[0] == 0
    assert all(y <= left.limits[1] for panel in (left, right) for ln in panel.lines for y in ln.y)
    assert left.legend and right.legend


# -- the lesson's words, against the data ----------------------------------------------------
def test_the_passport_section_says_how_rare_a_failure_is() -> None:
    text = section(1)
    p = LAB["passport"]
    assert "one hand in two thousand with 20 cards" in text
    for n in ("4", "5"):
        assert 1500 <= p[n]["hands"] / p[n]["failures"] <= 2500, n
    assert "none at all in these deals with the 25 cards" in text
    assert p["2"]["failures"] == p["3"]["failures"] == 0


def test_the_nobody_out_section_says_what_the_bars_show() -> None:
    text = section(2)
    by_bots = LAB["nobody_out"]["by_bots"]
    by_players = LAB["nobody_out"]["by_players"]
    assert "a table of careful bots sees someone go out more often" in text
    assert by_bots["careful"]["rate"] == min(by_bots[k]["rate"] for k in by_bots)
    assert "the more players" in text and "the more often someone empties their hand" in text
    rates = [by_players[n]["rate"] for n in sorted(by_players, key=int)]
    assert rates == sorted(rates, reverse=True)


def test_the_bots_section_names_its_table_and_gives_the_datas_numbers() -> None:
    """Issue 19: "careful play ends with far lower counts" was true of the mixed table only
    (alone, four greedy bots end lower than four careful ones): the text says which table."""
    text = section(3)
    bots = LAB["bots"]
    by_bot = bots["by_bot"]
    assert sorted(bots["lineup"]) == ["careful", "careful", "greedy", "random"]
    assert "Two careful bots, a greedy one and a random one at the same table" in text
    assert "At this mixed table" in text
    wins = re.search(r"win far more often \((\d+)% .*?, against (\d+)% .*? and (\d+)% ", text)
    counts = re.search(r"far lower counts \((\d+) on average, against (\d+) and (\d+)\)", text)
    assert wins and counts, text
    order = ("careful", "greedy", "random")
    assert [int(n) for n in wins.groups()] == [round(100 * by_bot[b]["win_rate"]) for b in order]
    assert [int(n) for n in counts.groups()] == [round(by_bot[b]["mean_count"]) for b in order]


def test_the_turns_section_says_where_the_one_kind_tables_end() -> None:
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    texts = ["".join(c["source"]) for c in notebook["cells"]]
    after = texts[texts.index("turns_chart(lab)") + 1]
    turns = LAB["turns"]
    found = re.search(
        r"four careful bots ends with a mean count of (\d+), a table of four greedy bots with "
        r"(\d+), about the same",
        after,
    )
    assert found, after
    careful, greedy = (round(turns[k]["mean"][-1]) for k in ("careful", "greedy"))
    assert [int(n) for n in found.groups()] == [careful, greedy]
    assert abs(careful - greedy) <= 2  # "about the same"
    assert "The greedy bot sheds most of its hand at once" in section(4)
    greedy_turns, careful_turns = (len(turns[k]["turn"]) for k in ("greedy", "careful"))
    assert greedy_turns < careful_turns


def test_the_careful_bot_is_described_as_it_plays() -> None:
    text = "\n".join(cells("markdown"))
    assert "when death is near it lays off the highest cards it can" in text
    assert "highest cards shed" not in text


def test_the_lesson_ends_with_its_quiz_and_the_teachers_command_is_in_the_readme() -> None:
    text = "\n".join(cells("markdown"))
    assert "For teachers" not in text and "python -m" not in text
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert lab_module.COMMAND in readme
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    # The quiz is the last widget; only the progress line (issue 29) is shown after it.
    assert "Quiz(" in "".join(code[-2]["source"])
    assert code[-1].get("id") == "progress-line" and "".join(code[-1]["source"]) == "progress"
    assert notebook["cells"][-1]["cell_type"] == "markdown"


# -- the expert (issue 31): its tournaments, from notebooks/lessons/data/10_expert.json ----------
EXPERT = lesson_data("10_expert")


def _tournament(opponent: str, players: int) -> dict[str, Any]:
    return next(
        t for t in EXPERT["tournaments"] if t["opponent"] == opponent and t["players"] == players
    )


@pytest.mark.parametrize(("opponent", "players"), [("careful", 4), ("greedy", 4), ("careful", 2)])
def test_the_expert_chart_draws_the_tournaments_numbers(opponent: str, players: int) -> None:
    chart = expert_chart(EXPERT, opponent, players)
    t = _tournament(opponent, players)
    wins, counts = chart.panels
    assert wins.limits == PERCENT and counts.limits[0] == 0
    assert wins.bars is not None and counts.bars is not None
    assert list(wins.bars.labels) == ["expert", opponent] == list(counts.bars.labels)
    assert bar_heights(wins) == [100 * t["bots"][b]["win_rate"] for b in ("expert", opponent)]
    assert bar_heights(counts) == [t["bots"][b]["mean_count"] for b in ("expert", opponent)]
    assert f"{100 / players:.0f}%" in wins.title  # the fair share is said
    for text in bar_texts(wins) + bar_texts(counts):
        assert text in chart.alt
    assert (
        f"{t['games']:,} deals" in chart.title and f"{players - 1} {opponent} bots" in chart.title
    )
    html = chart._repr_html_()
    assert html.count('role="img"') == 1 and f'aria-label="{esc(chart.alt)}"' in html


def test_the_expert_chart_refuses_a_table_that_was_not_played() -> None:
    with pytest.raises(ValueError, match="no tournament of the expert against 4 random bots"):
        expert_chart(EXPERT, "random", 5)


def test_the_expert_section_gives_the_tournaments_numbers() -> None:
    text = section(5)
    c4, g4, c2 = _tournament("careful", 4), _tournament("greedy", 4), _tournament("careful", 2)
    found = re.search(
        r"Against three careful bots the expert won (\d+)% of its deals, where an equal share is "
        r"25%, and ended with (\d+) points on average against (\d+) for the careful bots",
        text,
    )
    assert found, text
    expert, careful = c4["bots"]["expert"], c4["bots"]["careful"]
    assert [int(n) for n in found.groups()] == [
        round(100 * expert["win_rate"]),
        round(expert["mean_count"]),
        round(careful["mean_count"]),
    ]
    assert f"each deal's cards were played {c4['players']} times" in text
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    texts = ["".join(c["source"]) for c in notebook["cells"]]
    after = texts[texts.index(next(t for t in texts if t.endswith("expert_chart(expert)"))) + 1]
    others = re.search(
        r"Against three greedy bots the expert won (\d+)% of its deals \(an equal share is 25%\), "
        r"and alone against one careful bot (\d+)% \(an equal share is 50%\)",
        after,
    )
    assert others, after
    assert [int(n) for n in others.groups()] == [
        round(100 * g4["bots"]["expert"]["win_rate"]),
        round(100 * c2["bots"]["expert"]["win_rate"]),
    ]
