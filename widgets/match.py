"""`MatchSheet`: a match of several deals between bots, scored as the rule book says.

The sheet is `penang_lib.data.frames.match_frame`: who deals next and why (rule `dealer`, under the
dealer system chosen) and, by that system (rule `scoring`):

- points recorded: the running totals and a bar chart of them; the lowest total after the agreed
  number of deals wins the match;
- no points recorded: each deal's counts and winners, no total, no chart and no match winner,
  since each deal is won on its own (`Match.points_recorded`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import ipywidgets as widgets

from penang_lib.data.frames import match_frame, match_names, scores_frame
from penang_lib.engine.bots import bot_names
from penang_lib.engine.explain import join_names
from penang_lib.engine.match import Match
from penang_lib.engine.rules import DealerSystem, Rules
from penang_lib.widgets.base import KitWidget, guarded
from penang_lib.widgets.render import esc, frame_html, scores_html
from penang_lib.widgets.shared import part, show
from penang_lib.widgets.svg import Bars, Panel, chart_html

SYSTEM_LABELS = {
    DealerSystem.WINNER: "points recorded: the winner deals",
    DealerSystem.WORST_LOSER: "no points recorded: the worst loser deals",
}


def totals_chart(names: Sequence[str], totals: Sequence[int], title: str) -> Panel:
    """A bar chart of the running totals, one bar per player in seat order, top to bottom (the
    lowest total in green: it leads)."""
    best = min(totals) if totals else 0
    colours = tuple("#1e7d32" if t == best else "#34495e" for t in totals)
    bars = Bars(
        tuple(names), tuple(float(t) for t in totals), tuple(str(t) for t in totals), colours, True
    )
    # Points are whole numbers: before any deal, an axis of 0 to 5 rather than of fractions.
    limits = (0.0, max([*totals, 5]) * 1.18)
    return Panel(
        title, limits, xlabel="total points (lowest wins)", bars=bars, width=440, height=250
    )


class MatchSheet(KitWidget):
    """A match of `deals` deals between bots: play it deal by deal and watch the totals.

    `bots` are cycled to the seats as in `simulate`; the bots of each deal are seeded from the
    deal's seed, so the same `seed` gives the same match. Public: `match` (the engine's `Match`),
    `sheet` (the score sheet HTML), `chart` (the bar chart: an image with its figures
    as text for screen readers), `buttons`.
    """

    def __init__(
        self,
        players: int = 4,
        deals: int = 4,
        bots: str | Sequence[str] = "careful",
        seed: int | None = None,
        rules: Rules | None = None,
        names: Sequence[str] | None = None,
        four_colour: bool = False,
    ) -> None:
        super().__init__(four_colour)
        self.players = players
        self.length = deals
        self.bots = bot_names(bots, players)
        self.seed = seed
        self.names = names
        self.match = Match(players=players, deals=deals, seed=seed, rules=rules, names=names)
        self.system = part(
            widgets.Dropdown,
            options=[(label, system) for system, label in SYSTEM_LABELS.items()],
            value=self.match.rules.dealer_system,
            description="Next dealer",
            tooltip="Who deals the next deal (rule dealer); changing it starts a new match",
            style={"description_width": "initial"},
            layout={"width": "auto", "max_width": "100%"},
        )
        self.buttons = {
            label: part(widgets.Button, description=label, tooltip=tip, layout={"width": "auto"})
            for label, tip in (
                ("Play next deal", "The bots play the next deal of the match"),
                ("Play the rest", "The bots play every deal left in the match"),
                ("New match", "Start again with new deals"),
            )
        }
        self.status = part(widgets.HTML)
        self.last_deal = part(widgets.HTML)
        self.sheet = part(widgets.HTML)
        self.chart = part(widgets.HTML, layout={"max_width": "100%"})
        self.chart.add_class("penang-chart")
        self.buttons["Play next deal"].on_click(self._on_next)
        self.buttons["Play the rest"].on_click(self._on_rest)
        self.buttons["New match"].on_click(self._on_new)
        self.system.observe(self._on_system, names="value")
        controls = part(
            widgets.HBox, [*self.buttons.values(), self.system], layout={"flex_flow": "row wrap"}
        )
        self._finish(
            [controls, self.status, self.sheet, self.chart, self.last_deal], "penang-match"
        )
        self._render()

    # -- playing -----------------------------------------------------------------------------
    def play_next(self) -> None:
        """The bots play the next deal to its end (nothing happens once the match is over)."""
        if self.match.play_next(self.bots) is not None:
            self._render()

    def restart(self, rules: Rules | None = None) -> None:
        """A new match with the same players and bots (new deals unless a seed was given)."""
        self.match = Match(
            players=self.players,
            deals=self.length,
            seed=self.seed,
            rules=rules or self.match.rules,
            names=self.names,
        )
        self._render()

    @guarded
    def _on_next(self, _: Any) -> None:
        self.play_next()

    @guarded
    def _on_rest(self, _: Any) -> None:
        self.match.play_rest(self.bots)
        self._render()

    @guarded
    def _on_new(self, _: Any) -> None:
        self.restart()

    @guarded
    def _on_system(self, change: dict[str, Any]) -> None:
        system = DealerSystem(change["new"])
        if system is not self.match.rules.dealer_system:
            self.restart(replace(self.match.rules, dealer_system=system))

    # -- showing -------------------------------------------------------------------------------
    def _render(self) -> None:
        match = self.match
        names = match_names(match)
        frame = match_frame(match)
        played = len([d for d in match.deals if d.is_over])
        recorded = match.points_recorded
        if match.is_over and not recorded:
            status = (
                f"All {match.length} deals are played. With no points recorded nothing adds up: "
                "each deal was won on its own (the Won column), and there is no match winner."
            )
        elif match.is_over:
            winners = join_names([names[w] for w in match.winners])
            verb = "share the match" if len(match.winners) > 1 else "wins the match"
            status = (
                f"All {match.length} deals are played: {winners} {verb} with the lowest "
                f"total ({min(match.totals)})."
            )
        elif played:
            status = (
                f"{played} of {match.length} deals played. {esc(frame['next_dealer'].iloc[-1])} "
                f"deals next: {esc(frame['why'].iloc[-1])}"
            )
        elif recorded:
            status = (
                f"A match of {match.length} deals. {names[match.dealer]} was drawn to deal "
                "first; after each deal the counts add up, and the lowest total wins."
            )
        else:
            status = (
                f"{match.length} deals. {names[match.dealer]} was drawn to deal first. No points "
                "are recorded: each deal is won on its own by its lowest count, the highest "
                "count deals next, and nothing adds up to a match winner."
            )
        if recorded:
            columns = ["deal", "dealer", *(f"{n} total" for n in names), "winners", "next_dealer"]
            caption, label = "Running totals after each deal (lowest wins):", "match totals"
        else:
            columns = ["deal", "dealer", *names, "winners", "next_dealer"]
            caption = "Each deal's counts, won on its own (no points recorded, no totals):"
            label = "counts of each deal"
        headers = ["Deal", "Dealer", *names, "Won", "Next"]
        sheet = (
            f'<p class="penang-summary">{caption}</p>'
            + frame_html(frame, columns, headers, label=label)
            if not frame.empty
            else '<p class="penang-summary">No deal played yet.</p>'
        )
        last = ""
        if played:
            deal = match.deals[-1]
            last = f"<p><b>Deal {played}</b> in detail:</p>" + scores_html(scores_frame(deal))
        with self.root.hold_sync():
            self.status.value = f"<p>{status}</p>"
            self.sheet.value = sheet
            self.last_deal.value = last
            self.buttons["Play next deal"].disabled = match.is_over
            self.buttons["Play the rest"].disabled = match.is_over
        show(self.chart, recorded)
        if not recorded:  # no totals: nothing to chart
            self.chart.value = ""
            return
        title = f"Totals after {played} of {match.length} deals"
        spoken = ", ".join(f"{n} {t}" for n, t in zip(names, match.totals, strict=True))
        chart = totals_chart(names, match.totals, title)
        self.chart.value = chart_html([chart], f"{title}: {spoken}")
