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
from dataclasses import dataclass, replace
from typing import Any

from penang_lib.i18n import N_, _, ngettext
from penang_lib.widgets.render import esc
from penang_lib.widgets.svg import Bars, Line, Panel, chart_html

GREEN, RED, GREY, SLATE, PURPLE = "#1e7d32", "#c0392b", "#7f8c8d", "#34495e", "#8e44ad"
LINE_COLOURS = {"careful": GREEN, "greedy": RED, "random": GREY}
EXPERT_NAME = "expert"
"""The expert bot's name in the tournaments' reports."""
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
    """How many deals, as a phrase that fills a placeholder ("1,000 deals")."""
    return ngettext("{count:,} deal", "{count:,} deals", count).format(count=count)


def _players(count: int | str) -> str:
    """How many players, as a phrase that fills a placeholder ("4 players")."""
    n = int(count)
    return ngettext("{count} player", "{count} players", n).format(count=n)


def passport_chart(lab: Mapping[str, Any]) -> Chart:
    """Hands dead at the passport (rule `dead.passport`) per 10,000 hands, one bar per table
    size; each bar's label says how many deals it pools."""
    p = lab["passport"]
    sizes = list(p)
    rate = [p[n]["failures"] / p[n]["hands"] * 10_000 if p[n]["hands"] else 0.0 for n in sizes]
    labels = [f"{_players(n)}\n{_deals(p[n]['deals'])}" for n in sizes]
    texts = [
        _("{failures} of {hands:,}").format(failures=p[n]["failures"], hands=p[n]["hands"])
        for n in sizes
    ]
    title = _("Hands dead at the passport, {fewest} to {most} players").format(
        fewest=sizes[0], most=sizes[-1]
    )
    panel = bar_panel(title, labels, rate, texts, SLATE, ylabel=_("per 10,000 hands"), width=440)
    facts = "; ".join(
        _("{players}: {failures} of {hands} ({deals})").format(
            players=_players(n),
            failures=p[n]["failures"],
            hands=ngettext("{count:,} hand", "{count:,} hands", p[n]["hands"]).format(
                count=p[n]["hands"]
            ),
            deals=_deals(p[n]["deals"]),
        )
        for n in sizes
    )
    alt = _("Bar chart of the hands dead at the passport. {facts}.").format(facts=facts)
    return Chart((panel,), title, alt)


NOBODY_OUT_TITLES = {
    "by_bots": N_("4 players, by bots"),
    "by_players": N_("careful bots, by players"),
}


def _nobody_out_fact(key: str, k: str, rate: float) -> str:
    """One bar of the nobody-out charts in words: its table ("careful", or a table size) and
    its rate."""
    if key == "by_players":
        return ngettext(
            "{count} player: {percent:.0f}%", "{count} players: {percent:.0f}%", int(k)
        ).format(count=int(k), percent=percent(rate))
    return f"{k}: {percent(rate):.0f}%"


def nobody_out_chart(lab: Mapping[str, Any]) -> Chart:
    """The share of deals that nobody went out of (rules `end` and `game`): four-player tables
    by bots on the left, careful tables by size on the right."""
    n = lab["nobody_out"]
    panels: list[Panel] = []
    for key in NOBODY_OUT_TITLES:
        group = n[key]
        rates = [percent(v["rate"]) for v in group.values()]
        deals = {v["deals"] for v in group.values()}
        if len(deals) == 1:
            count = deals.pop()
            each = ngettext("{count:,} deal a bar", "{count:,} deals a bar", count).format(
                count=count
            )
        else:
            each = _("deals per bar vary")
        panel = bar_panel(
            f"{_(NOBODY_OUT_TITLES[key])} ({each})",
            list(group),
            rates,
            [f"{r:.0f}%" for r in rates],
            PURPLE,
            PERCENT,
            ylabel="" if panels else _("deals nobody went out of (%)"),
            xlabel=_("players at the table") if key == "by_players" else _("the bots at the table"),
        )
        panels.append(panel)
    title = _("How often nobody goes out")
    facts = "; ".join(
        f"{_(NOBODY_OUT_TITLES[key])}: "
        + ", ".join(_nobody_out_fact(key, k, v["rate"]) for k, v in n[key].items())
        for key in NOBODY_OUT_TITLES
    )
    alt = _("Two bar charts of the share of deals nobody went out of. {facts}.").format(facts=facts)
    return Chart(tuple(panels), title, alt)


def bots_chart(lab: Mapping[str, Any]) -> Chart:
    """Bot against bot at one table (`lab["bots"]`): the share of its seats each bot won, and
    its mean count at the end of a deal (rule `scoring`: lower is better)."""
    bots = lab["bots"]
    b = bots["by_bot"]
    wins = [percent(b[k]["win_rate"]) for k in b]
    counts = [b[k]["mean_count"] for k in b]
    left = bar_panel(
        ngettext(
            "deals won, per seat ({count:,} deal)",
            "deals won, per seat ({count:,} deals)",
            bots["deals"],
        ).format(count=bots["deals"]),
        list(b),
        wins,
        [f"{w:.0f}%" for w in wins],
        GREEN,
        PERCENT,
        ylabel=_("seats that won the deal (%)"),
    )
    right = bar_panel(
        _("mean count (lower is better)"),
        list(b),
        counts,
        [f"{c:.0f}" for c in counts],
        RED,
        ylabel=_("mean count at the end"),
    )
    lineup = ", ".join(bots["lineup"])
    title = _("Bot against bot at one table: {lineup}").format(lineup=lineup)
    facts = "; ".join(
        _("{bot} wins {percent:.0f}% of its seats, mean count {count:.0f}").format(
            bot=k, percent=w, count=c
        )
        for k, w, c in zip(b, wins, counts, strict=True)
    )
    alt = _("Two bar charts, bot against bot ({lineup}). {facts}.").format(
        lineup=lineup, facts=facts
    )
    return Chart((left, right), title, alt)


def expert_chart(expert: Mapping[str, Any], opponent: str = "careful", players: int = 4) -> Chart:
    """The expert's tournament against `opponent` bots at a table of `players`
    (`expert["tournaments"]`, as `penang_lib.data.expert_lab` keeps them): the share of its
    seats each bot won, beside the fair share (one in `players`), and each bot's mean count."""
    found = [
        t for t in expert["tournaments"] if t["opponent"] == opponent and t["players"] == players
    ]
    if not found:
        raise ValueError(f"no tournament of the expert against {players - 1} {opponent} bots")
    t = found[0]
    names = [EXPERT_NAME, opponent]
    b = t["bots"]
    wins = [percent(b[k]["win_rate"]) for k in names]
    counts = [b[k]["mean_count"] for k in names]
    fair = 100 / players
    colours = (PURPLE, colour(opponent))
    left = bar_panel(
        _("deals won, per seat (a fair share is {fair:.0f}%)").format(fair=fair),
        names,
        wins,
        [f"{w:.0f}%" for w in wins],
        PURPLE,
        PERCENT,
        ylabel=_("seats that won the deal (%)"),
    )
    left = replace(left, bars=replace(left.bars, colour=colours)) if left.bars else left
    right = bar_panel(
        _("mean count (lower is better)"),
        names,
        counts,
        [f"{c:.0f}" for c in counts],
        RED,
        ylabel=_("mean count at the end"),
    )
    right = replace(right, bars=replace(right.bars, colour=colours)) if right.bars else right
    title = _(
        "The expert against {others} {opponent} bots: {games}, the cards of {seeds:,} deals "
        "each played {players} times so that every bot sits in every seat"
    ).format(
        others=players - 1,
        opponent=opponent,
        games=_deals(t["games"]),
        seeds=t["deals"],
        players=players,
    )
    alt = _(
        "Two bar charts. The expert wins {expert_wins:.0f}% of its seats against {others} "
        "{opponent} bots, which win {opponent_wins:.0f}% of theirs; a fair share is "
        "{fair:.0f}%. The expert's mean count is {expert_count:.0f}, theirs {opponent_count:.0f}."
    ).format(
        expert_wins=wins[0],
        others=players - 1,
        opponent=opponent,
        opponent_wins=wins[1],
        fair=fair,
        expert_count=counts[0],
        opponent_count=counts[1],
    )
    return Chart((left, right), title, alt)


def colour(name: str) -> str:
    """The colour of a table of one kind of bot in every chart of the lab."""
    return LINE_COLOURS.get(name, SLATE)


def turns_chart(lab: Mapping[str, Any]) -> Chart:
    """The mean count of a hand after each of its player's turns: one line per table of one
    kind of bot (left), and at the careful table the winners against the others (right)."""
    t = lab["turns"]
    tables = tuple(
        Line(
            _("{bot} bots").format(bot=name),
            tuple(t[name]["turn"]),
            tuple(t[name]["mean"]),
            colour(name),
        )
        for name in t
    )
    c = t["careful"]
    careful_lines = (
        Line(_("the winner"), tuple(c["turn"]), tuple(c["winners"]), GREEN, marker=False),
        Line(_("the others"), tuple(c["turn"]), tuple(c["others"]), SLATE, marker=False),
    )
    # Both panels share one count axis, from 0 to a little past the highest count.
    highest = max(y for line in (*tables, *careful_lines) for y in line.y)
    limits = (0.0, max(highest, 1.0) * 1.05)
    deals = {v["deals"] for v in t.values()}
    if len(deals) == 1:
        count = deals.pop()
        each = ngettext("{count:,} deal each", "{count:,} deals each", count).format(count=count)
    else:
        each = _("deals vary")
    xlabel = _("the player's own turns")
    left = Panel(
        ngettext("{count} table ({each})", "{count} tables ({each})", len(t)).format(
            count=len(t), each=each
        ),
        limits,
        _("mean count"),
        xlabel,
        lines=tables,
        legend=True,
    )
    right = Panel(
        ngettext(
            "careful bots ({count:,} deal)", "careful bots ({count:,} deals)", c["deals"]
        ).format(count=c["deals"]),
        limits,
        "",
        xlabel,
        lines=careful_lines,
        legend=True,
    )
    title = _("How counts fall, turn by turn")
    facts = "; ".join(
        ngettext(
            "{bot} bots: from {first:.0f} to {last:.0f} in {turns} turn",
            "{bot} bots: from {first:.0f} to {last:.0f} in {turns} turns",
            v["turn"][-1],
        ).format(bot=k, first=v["mean"][0], last=v["mean"][-1], turns=v["turn"][-1])
        for k, v in t.items()
    )
    careful = _("careful winners end at {winners:.0f}, the others at {others:.0f}").format(
        winners=c["winners"][-1], others=c["others"][-1]
    )
    alt = _("Line charts of the mean count after each turn. {facts}; {careful}.").format(
        facts=facts, careful=careful
    )
    return Chart((left, right), title, alt)


CHARTS = (passport_chart, nobody_out_chart, bots_chart, turns_chart)
"""Every chart of the lab, in the lesson's order."""
