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
from penang_lib.i18n import N_, _, ngettext, pgettext
from penang_lib.widgets.base import KitWidget, guarded
from penang_lib.widgets.controls import Control, label, tooltip
from penang_lib.widgets.render import esc, frame_html, scores_html
from penang_lib.widgets.shared import ROW_WRAP, part, show
from penang_lib.widgets.svg import Bars, Panel, chart_html

SYSTEM_LABELS = {
    DealerSystem.WINNER: N_("points recorded: the winner deals"),
    DealerSystem.WORST_LOSER: N_("no points recorded: the worst loser deals"),
}
"""The choices of the "Next dealer" menu, one per dealer system."""

BUTTONS = (Control.PLAY_NEXT_DEAL, Control.PLAY_THE_REST, Control.NEW_MATCH)
"""The sheet's buttons, in order (label and tooltip: `controls.WORDS`)."""


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
        title, limits, xlabel=_("total points (lowest wins)"), bars=bars, width=440, height=250
    )


class MatchSheet(KitWidget):
    """A match of `deals` deals between bots: play it deal by deal and watch the totals.

    `bots` are cycled to the seats as in `simulate`; the bots of each deal are seeded from the
    deal's seed, so the same `seed` gives the same match. Public: `match` (the engine's `Match`),
    `sheet` (the score sheet HTML), `chart` (the bar chart: an image with its figures
    as text for screen readers), `buttons` (by `Control`) and `system` (the dealer system menu).
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
            options=[(_(words), system) for system, words in SYSTEM_LABELS.items()],
            value=self.match.rules.dealer_system,
            description=label(Control.DEALER_SYSTEM),
            tooltip=tooltip(Control.DEALER_SYSTEM),
            style={"description_width": "initial"},
            layout={"width": "auto", "max_width": "100%"},
        )
        self.buttons: dict[Control, widgets.Button] = {
            control: part(
                widgets.Button,
                description=label(control),
                tooltip=tooltip(control),
                layout={"width": "auto"},
            )
            for control in BUTTONS
        }
        self.status = part(widgets.HTML)
        self.last_deal = part(widgets.HTML)
        self.sheet = part(widgets.HTML)
        self.chart = part(widgets.HTML, layout={"max_width": "100%"})
        self.chart.add_class("penang-chart")
        self.buttons[Control.PLAY_NEXT_DEAL].on_click(self._on_next)
        self.buttons[Control.PLAY_THE_REST].on_click(self._on_rest)
        self.buttons[Control.NEW_MATCH].on_click(self._on_new)
        self.system.observe(self._on_system, names="value")
        controls = part(
            widgets.HBox, [*self.buttons.values(), self.system], layout={"flex_flow": ROW_WRAP}
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
    def _on_next(self, _button: Any) -> None:
        self.play_next()

    @guarded
    def _on_rest(self, _button: Any) -> None:
        self.match.play_rest(self.bots)
        self._render()

    @guarded
    def _on_new(self, _button: Any) -> None:
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
        length = match.length
        if match.is_over and not recorded:
            status = ngettext(
                "The {count} deal is played. With no points recorded nothing adds up: the deal "
                "was won on its own (the Won column), and there is no match winner.",
                "All {count} deals are played. With no points recorded nothing adds up: each "
                "deal was won on its own (the Won column), and there is no match winner.",
                length,
            ).format(count=length)
        elif match.is_over:
            # The deals are counted in words ("All 4 deals"), the winners by the verb.
            status = ngettext(
                "All {count} deals are played: {players} wins the match with the lowest total "
                "({total}).",
                "All {count} deals are played: {players} share the match with the lowest total "
                "({total}).",
                len(match.winners),
            ).format(
                count=length,
                players=join_names([names[w] for w in match.winners]),
                total=min(match.totals),
            )
        elif played:
            status = ngettext(
                "{played} of {count} deal played. {dealer} deals next: {why}",
                "{played} of {count} deals played. {dealer} deals next: {why}",
                length,
            ).format(
                played=played,
                count=length,
                dealer=esc(frame["next_dealer"].iloc[-1]),
                why=esc(frame["why"].iloc[-1]),
            )
        elif recorded:
            status = ngettext(
                "A match of {count} deal. {dealer} was drawn to deal first; after each deal the "
                "counts add up, and the lowest total wins.",
                "A match of {count} deals. {dealer} was drawn to deal first; after each deal the "
                "counts add up, and the lowest total wins.",
                length,
            ).format(count=length, dealer=names[match.dealer])
        else:
            status = ngettext(
                "{count} deal. {dealer} was drawn to deal first. No points are recorded: each "
                "deal is won on its own by its lowest count, the highest count deals next, and "
                "nothing adds up to a match winner.",
                "{count} deals. {dealer} was drawn to deal first. No points are recorded: each "
                "deal is won on its own by its lowest count, the highest count deals next, and "
                "nothing adds up to a match winner.",
                length,
            ).format(count=length, dealer=names[match.dealer])
        if recorded:
            columns = ["deal", "dealer", *(f"{n} total" for n in names), "winners", "next_dealer"]
            caption = _("Running totals after each deal (lowest wins):")
            spoken = _("match totals")
        else:
            columns = ["deal", "dealer", *names, "winners", "next_dealer"]
            caption = _("Each deal's counts, won on its own (no points recorded, no totals):")
            spoken = _("counts of each deal")
        # The sheet's column headers. "Next" (who deals next) is not the stepper's Next: the
        # catalog holds it under that context.
        upcoming = pgettext("who deals next", "Next")
        headers = [_("Deal"), _("Dealer"), *names, _("Won"), upcoming]
        nothing_yet = _("No deal played yet.")
        sheet = (
            f'<p class="penang-summary">{caption}</p>'
            + frame_html(frame, columns, headers, label=spoken)
            if not frame.empty
            else f'<p class="penang-summary">{nothing_yet}</p>'
        )
        last = ""
        if played:
            deal = match.deals[-1]
            detail = _("<b>Deal {number}</b> in detail:").format(number=played)
            last = f"<p>{detail}</p>" + scores_html(scores_frame(deal))
        with self.root.hold_sync():
            self.status.value = f"<p>{status}</p>"
            self.sheet.value = sheet
            self.last_deal.value = last
            self.buttons[Control.PLAY_NEXT_DEAL].disabled = match.is_over
            self.buttons[Control.PLAY_THE_REST].disabled = match.is_over
        show(self.chart, recorded)
        if not recorded:  # no totals: nothing to chart
            self.chart.value = ""
            return
        title = ngettext(
            "Totals after {played} of {count} deal",
            "Totals after {played} of {count} deals",
            length,
        ).format(played=played, count=length)
        totals = ", ".join(f"{n} {t}" for n, t in zip(names, match.totals, strict=True))
        chart = totals_chart(names, match.totals, title)
        self.chart.value = chart_html(
            [chart], _("{title}: {totals}").format(title=title, totals=totals)
        )
