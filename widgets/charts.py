"""The strategy lab's charts (lesson 10), drawn from the lab's data (`penang_lib.data.lab.build`, as
cached in `notebooks/lessons/data/10_strategy_lab.json`); they simulate nothing.

Each function takes the lab data and returns a `Chart`: its panels (`penang_lib.widgets.svg.Panel`,
which
hold every bar, line and word drawn), its title, and a text alternative that says in words what
the chart shows (for screen readers). A `Chart` shows itself in a notebook as inline SVG with its
title as caption. Every title, axis and bar label comes from the data, so the tests can check
them against it (tests/widgets/test_charts.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from penang_lib.widgets.render import esc
from penang_lib.widgets.svg import Bars, Line, Panel, chart_html

GREEN, RED, GREY, SLATE, PURPLE = "#1e7d32", "#c0392b", "#7f8c8d", "#34495e", "#8e44ad"
LINE_COLOURS = {"careful": GREEN, "greedy": RED, "random": GREY}
PERCENT = (0.0, 100.0)
"""The limits of every percent axis: a share never runs past 100%."""
ROOM = 1.25
"""A value axis without fixed limits runs this far past its highest bar, to leave room for the
bar's text above it."""


@dataclass(frozen=True)
class Chart:
    """A chart of the lab: its `panels` (one or two, side by side), its `title` (what it shows
    and how many deals it comes from) and `alt`, the same facts in words."""

    panels: tuple[Panel, ...]
    title: str
    alt: str

    def svg(self) -> str:
        """The panels as inline SVG, one image for a screen reader, named by `alt`."""
        return chart_html(self.panels, self.alt)

    def _repr_html_(self) -> str:
        return (
            f'<figure style="margin:0.5em 0">{self.svg()}'
            '<figcaption style="font-size:0.9em;color:#4a5560">'
            f"{esc(self.title)}</figcaption></figure>"
        )


def percent(share: float) -> float:
    """A share (0 to 1) as a percent."""
    return 100 * share


def bar_panel(
    title: str,
    labels: Sequence[str],
    values: Sequence[float],
    texts: Sequence[str],
    colour: str,
    limits: tuple[float, float] | None = None,
    ylabel: str = "",
    xlabel: str = "",
    width: int = 400,
) -> Panel:
    """A panel of bars with a text on each; `limits` fixes the value axis (percent: 0 to 100),
    and then a bar taller than 80% of it carries its text inside its top, so that it stays
    under the title; otherwise the axis leaves room above the highest bar for its text."""
    if limits is None:
        limits, inside = (0.0, max([*values, 1.0]) * ROOM), None
    else:
        inside = limits[0] + 0.8 * (limits[1] - limits[0])
    bars = Bars(tuple(labels), tuple(values), tuple(texts), colour, inside_over=inside)
    return Panel(title, limits, ylabel, xlabel, bars=bars, width=width)


def _deals(count: int) -> str:
    return f"{count:,} deal{'s' if count != 1 else ''}"


def passport_chart(lab: Mapping[str, Any]) -> Chart:
    """Hands dead at the passport (rule `dead.passport`) per 10,000 hands, one bar per table
    size; each bar's label says how many deals it pools."""
    p = lab["passport"]
    sizes = list(p)
    rate = [p[n]["failures"] / p[n]["hands"] * 10_000 if p[n]["hands"] else 0.0 for n in sizes]
    labels = [f"{n} players\n{_deals(p[n]['deals'])}" for n in sizes]
    texts = [f"{p[n]['failures']} of {p[n]['hands']:,}" for n in sizes]
    title = f"Hands dead at the passport, {sizes[0]} to {sizes[-1]} players"
    panel = bar_panel(title, labels, rate, texts, SLATE, ylabel="per 10,000 hands", width=440)
    facts = "; ".join(
        f"{n} players: {p[n]['failures']} of {p[n]['hands']:,} hands ({_deals(p[n]['deals'])})"
        for n in sizes
    )
    return Chart((panel,), title, f"Bar chart of the hands dead at the passport. {facts}.")


NOBODY_OUT_TITLES = {"by_bots": "4 players, by bots", "by_players": "careful bots, by players"}


def nobody_out_chart(lab: Mapping[str, Any]) -> Chart:
    """The share of deals that nobody went out of (rules `end` and `game`): four-player tables
    by bots on the left, careful tables by size on the right."""
    n = lab["nobody_out"]
    panels: list[Panel] = []
    for key in NOBODY_OUT_TITLES:
        group = n[key]
        rates = [percent(v["rate"]) for v in group.values()]
        deals = {v["deals"] for v in group.values()}
        each = _deals(deals.pop()) + " a bar" if len(deals) == 1 else "deals per bar vary"
        panel = bar_panel(
            f"{NOBODY_OUT_TITLES[key]} ({each})",
            list(group),
            rates,
            [f"{r:.0f}%" for r in rates],
            PURPLE,
            PERCENT,
            ylabel="" if panels else "deals nobody went out of (%)",
            xlabel="players at the table" if key == "by_players" else "the bots at the table",
        )
        panels.append(panel)
    title = "How often nobody goes out"
    facts = "; ".join(
        f"{NOBODY_OUT_TITLES[key]}: "
        + ", ".join(
            f"{k}{' players' if key == 'by_players' else ''}: {percent(v['rate']):.0f}%"
            for k, v in n[key].items()
        )
        for key in NOBODY_OUT_TITLES
    )
    return Chart(
        tuple(panels), title, f"Two bar charts of the share of deals nobody went out of. {facts}."
    )


def bots_chart(lab: Mapping[str, Any]) -> Chart:
    """Bot against bot at one table (`lab["bots"]`): the share of its seats each bot won, and
    its mean count at the end of a deal (rule `scoring`: lower is better)."""
    bots = lab["bots"]
    b = bots["by_bot"]
    wins = [percent(b[k]["win_rate"]) for k in b]
    counts = [b[k]["mean_count"] for k in b]
    left = bar_panel(
        f"deals won, per seat ({_deals(bots['deals'])})",
        list(b),
        wins,
        [f"{w:.0f}%" for w in wins],
        GREEN,
        PERCENT,
        ylabel="seats that won the deal (%)",
    )
    right = bar_panel(
        "mean count (lower is better)",
        list(b),
        counts,
        [f"{c:.0f}" for c in counts],
        RED,
        ylabel="mean count at the end",
    )
    lineup = ", ".join(bots["lineup"])
    title = f"Bot against bot at one table: {lineup}"
    facts = "; ".join(
        f"{k} wins {w:.0f}% of its seats, mean count {c:.0f}"
        for k, w, c in zip(b, wins, counts, strict=True)
    )
    return Chart((left, right), title, f"Two bar charts, bot against bot ({lineup}). {facts}.")


def colour(name: str) -> str:
    """The colour of a table of one kind of bot in every chart of the lab."""
    return LINE_COLOURS.get(name, SLATE)


def turns_chart(lab: Mapping[str, Any]) -> Chart:
    """The mean count of a hand after each of its player's turns: one line per table of one
    kind of bot (left), and at the careful table the winners against the others (right)."""
    t = lab["turns"]
    tables = tuple(
        Line(f"{name} bots", tuple(t[name]["turn"]), tuple(t[name]["mean"]), colour(name))
        for name in t
    )
    c = t["careful"]
    careful_lines = (
        Line("the winner", tuple(c["turn"]), tuple(c["winners"]), GREEN, marker=False),
        Line("the others", tuple(c["turn"]), tuple(c["others"]), SLATE, marker=False),
    )
    # Both panels share one count axis, from 0 to a little past the highest count.
    highest = max(y for line in (*tables, *careful_lines) for y in line.y)
    limits = (0.0, max(highest, 1.0) * 1.05)
    deals = {v["deals"] for v in t.values()}
    each = _deals(deals.pop()) + " each" if len(deals) == 1 else "deals vary"
    xlabel = "the player's own turns"
    left = Panel(
        f"{len(t)} tables ({each})", limits, "mean count", xlabel, lines=tables, legend=True
    )
    right = Panel(
        f"careful bots ({_deals(c['deals'])})", limits, "", xlabel, lines=careful_lines, legend=True
    )
    title = "How counts fall, turn by turn"
    facts = "; ".join(
        f"{k} bots: from {v['mean'][0]:.0f} to {v['mean'][-1]:.0f} in {v['turn'][-1]} turns"
        for k, v in t.items()
    )
    careful = f"careful winners end at {c['winners'][-1]:.0f}, the others at {c['others'][-1]:.0f}"
    return Chart(
        (left, right), title, f"Line charts of the mean count after each turn. {facts}; {careful}."
    )


CHARTS = (passport_chart, nobody_out_chart, bots_chart, turns_chart)
"""Every chart of the lab, in the lesson's order."""
