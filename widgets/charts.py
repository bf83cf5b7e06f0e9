"""The strategy lab's charts (lesson 10), drawn from the lab's data (`penang_lib.data.lab.build`, as
cached in `notebooks/lessons/data/10_strategy_lab.json`); they simulate nothing.

Each function takes the lab data and returns a `Chart`: the matplotlib figure, its title, and a
text alternative that says in words what the chart shows (for screen readers). A `Chart` shows
itself in a notebook as an image. Every title, axis and bar label comes from the data, so the
tests can check them against it (tests/widgets/test_charts.py).
"""

from __future__ import annotations

from base64 import b64encode
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from io import BytesIO
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from widgets.render import esc

GREEN, RED, GREY, SLATE, PURPLE = "#1e7d32", "#c0392b", "#7f8c8d", "#34495e", "#8e44ad"
LINE_COLOURS = {"careful": GREEN, "greedy": RED, "random": GREY}
PERCENT = (0.0, 100.0)
"""The limits of every percent axis: a share never runs past 100%."""


@dataclass(frozen=True)
class Chart:
    """A chart of the lab: `figure`, its `title` (what it shows and how many deals it comes
    from) and `alt`, the same facts in words."""

    figure: Figure
    title: str
    alt: str

    def png(self) -> bytes:
        out = BytesIO()
        self.figure.savefig(out, format="png", dpi=100, bbox_inches="tight")
        return out.getvalue()

    def _repr_html_(self) -> str:
        src = f"data:image/png;base64,{b64encode(self.png()).decode()}"
        return (
            f'<figure style="margin:0.5em 0"><img src="{src}" alt="{esc(self.alt)}" '
            f'style="max-width:100%"><figcaption style="font-size:0.9em;color:#4a5560">'
            f"{esc(self.title)}</figcaption></figure>"
        )


def percent(share: float) -> float:
    """A share (0 to 1) as a percent."""
    return 100 * share


def _bars(
    ax: Axes,
    labels: Sequence[str],
    values: Sequence[float],
    texts: Sequence[str],
    colour: str,
    limits: tuple[float, float] | None = None,
) -> None:
    """A bar chart with a text on each bar; `limits` fixes the value axis (percent: 0 to 100),
    and then a tall bar carries its text inside its top, so that it stays under the title;
    otherwise the axis leaves room above the highest bar for its text."""
    bars = ax.bar(list(labels), list(values), color=colour)
    if limits is None:
        ax.bar_label(bars, list(texts), padding=2)
        ax.set_ylim(0.0, max([*values, 1.0]) * 1.25)
    else:
        tall = [v > limits[0] + 0.8 * (limits[1] - limits[0]) for v in values]
        inside = [t if high else "" for t, high in zip(texts, tall, strict=True)]
        above = ["" if high else t for t, high in zip(texts, tall, strict=True)]
        ax.bar_label(bars, above, padding=2)
        ax.bar_label(bars, inside, padding=-14, color="white", fontweight="bold")
        ax.set_ylim(*limits)
    ax.spines[["top", "right"]].set_visible(False)


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
    ax = (fig := Figure(figsize=(6.4, 3.4))).subplots()
    ax.set_title(title, fontsize=10)
    ax.set_ylabel("per 10,000 hands")
    _bars(ax, labels, rate, texts, SLATE)
    facts = "; ".join(
        f"{n} players: {p[n]['failures']} of {p[n]['hands']:,} hands ({_deals(p[n]['deals'])})"
        for n in sizes
    )
    return Chart(fig, title, f"Bar chart of the hands dead at the passport. {facts}.")


NOBODY_OUT_TITLES = {"by_bots": "4 players, by bots", "by_players": "careful bots, by players"}


def nobody_out_chart(lab: Mapping[str, Any]) -> Chart:
    """The share of deals that nobody went out of (rules `end` and `game`): four-player tables
    by bots on the left, careful tables by size on the right."""
    n = lab["nobody_out"]
    fig = Figure(figsize=(7.6, 3.4))
    for ax, key in zip(fig.subplots(1, 2), NOBODY_OUT_TITLES, strict=True):
        group = n[key]
        rates = [percent(v["rate"]) for v in group.values()]
        _bars(ax, list(group), rates, [f"{r:.0f}%" for r in rates], PURPLE, PERCENT)
        ax.set_xlabel("players at the table" if key == "by_players" else "the bots at the table")
        deals = {v["deals"] for v in group.values()}
        each = _deals(deals.pop()) + " a bar" if len(deals) == 1 else "deals per bar vary"
        ax.set_title(f"{NOBODY_OUT_TITLES[key]} ({each})", fontsize=10)
    fig.axes[0].set_ylabel("deals nobody went out of (%)")
    title = "How often nobody goes out"
    facts = "; ".join(
        f"{NOBODY_OUT_TITLES[key]}: "
        + ", ".join(
            f"{k}{' players' if key == 'by_players' else ''}: {percent(v['rate']):.0f}%"
            for k, v in n[key].items()
        )
        for key in NOBODY_OUT_TITLES
    )
    return Chart(fig, title, f"Two bar charts of the share of deals nobody went out of. {facts}.")


def bots_chart(lab: Mapping[str, Any]) -> Chart:
    """Bot against bot at one table (`lab["bots"]`): the share of its seats each bot won, and
    its mean count at the end of a deal (rule `scoring`: lower is better)."""
    bots = lab["bots"]
    b = bots["by_bot"]
    wins = [percent(b[k]["win_rate"]) for k in b]
    counts = [b[k]["mean_count"] for k in b]
    left, right = (fig := Figure(figsize=(7.6, 3.4))).subplots(1, 2)
    _bars(left, list(b), wins, [f"{w:.0f}%" for w in wins], GREEN, PERCENT)
    _bars(right, list(b), counts, [f"{c:.0f}" for c in counts], RED)
    left.set_ylabel("seats that won the deal (%)")
    right.set_ylabel("mean count at the end")
    left.set_title(f"deals won, per seat ({_deals(bots['deals'])})", fontsize=10)
    right.set_title("mean count (lower is better)", fontsize=10)
    lineup = ", ".join(bots["lineup"])
    title = f"Bot against bot at one table: {lineup}"
    facts = "; ".join(
        f"{k} wins {w:.0f}% of its seats, mean count {c:.0f}"
        for k, w, c in zip(b, wins, counts, strict=True)
    )
    return Chart(fig, title, f"Two bar charts, bot against bot ({lineup}). {facts}.")


def turns_chart(lab: Mapping[str, Any]) -> Chart:
    """The mean count of a hand after each of its player's turns: one line per table of one
    kind of bot (left), and at the careful table the winners against the others (right)."""
    t = lab["turns"]
    left, right = (fig := Figure(figsize=(7.6, 3.4))).subplots(1, 2, sharey=True)
    for name in t:
        colour = LINE_COLOURS.get(name, SLATE)
        left.plot(t[name]["turn"], t[name]["mean"], marker=".", color=colour, label=f"{name} bots")
    c = t["careful"]
    right.plot(c["turn"], c["winners"], color=GREEN, label="the winner")
    right.plot(c["turn"], c["others"], color=SLATE, label="the others")
    left.set_ylabel("mean count")
    deals = {v["deals"] for v in t.values()}
    each = _deals(deals.pop()) + " each" if len(deals) == 1 else "deals vary"
    for ax, name in ((left, f"{len(t)} tables"), (right, "careful bots")):
        ax.set_title(f"{name} ({each if ax is left else _deals(c['deals'])})", fontsize=10)
        ax.set_xlabel("the player's own turns")
        ax.set_ylim(bottom=0)
        ax.legend()
        ax.spines[["top", "right"]].set_visible(False)
    title = "How counts fall, turn by turn"
    facts = "; ".join(
        f"{k} bots: from {v['mean'][0]:.0f} to {v['mean'][-1]:.0f} in {v['turn'][-1]} turns"
        for k, v in t.items()
    )
    careful = f"careful winners end at {c['winners'][-1]:.0f}, the others at {c['others'][-1]:.0f}"
    return Chart(fig, title, f"Line charts of the mean count after each turn. {facts}; {careful}.")


CHARTS = (passport_chart, nobody_out_chart, bots_chart, turns_chart)
"""Every chart of the lab, in the lesson's order."""
