"""DealStepper: step through a deal move by move and see each rule as it applies.

The stepper works on its own copy of the deal, taken back to the start with `pop` (exact undo),
and keeps the list of moves to replay: a step forward pushes the next move through the engine, a
step back pops it. Nothing is ever re-dealt, and the caller's deal is never touched.

The slider is the one source of truth for the step: the buttons set its value, an `ipywidgets.Play`
linked to it in the browser (`jsdlink`) moves it on its own, and one observer on its value moves the
engine there and rewrites each region (one `HTML` widget per region, its value replaced whole). A
button sends the explanation of the step it goes to before anything else, and moves the slider
only `DRAW_DELAY_S` later, so the sentence a learner reads after a click arrives first and is
drawn while the kernel is idle. The stepper's own `step` trait follows: it changes once the engine
is there, and setting it from Python moves the slider.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as widgets
import traitlets

from penang_lib.data import frames
from penang_lib.data.frames import Changes
from penang_lib.engine.bots import bot_names, play_deal_explained
from penang_lib.engine.deal import Deal
from penang_lib.engine.explain import join_names
from penang_lib.engine.rules import Rules
from penang_lib.engine.showcase import SHOWCASE_BOTS, find_deal, first_step, require_rule_ids
from penang_lib.engine.validate import ArgumentTypeError, require_text, require_texts, shown
from penang_lib.i18n import _, ngettext
from penang_lib.widgets import render
from penang_lib.widgets.base import KitWidget, guarded, later, send_now
from penang_lib.widgets.controls import Control, label, tooltip
from penang_lib.widgets.links import page_link
from penang_lib.widgets.render import esc
from penang_lib.widgets.shared import ROW_WRAP, part, show

PLAY_INTERVAL_MS = 1200
"""How long the Play button waits between two steps, in milliseconds."""

DRAW_DELAY_S = 0.03
"""After a button has sent the explanation of the step it goes to, how long the kernel waits
before it moves there and draws the rest (seconds). Meanwhile the browser shows the explanation,
which drawing the table, the hands and the log at the same time would delay."""

BUTTONS: tuple[tuple[Control, str], ...] = (
    (Control.FIRST, "fast-backward"),
    (Control.BACK, "step-backward"),
    (Control.NEXT, "step-forward"),
    (Control.LAST, "fast-forward"),
)
"""The stepper's buttons, in order, each with its icon (label and tooltip: `controls.WORDS`)."""

AUTOPLAY_CLASS = "penang-autoplay"
"""The class of the stepper's `Play` widget. The `Play` widget's own Stop button (■, its second
button) sets its value to the minimum, so that Stop would send a learner back to step 0: the
kit's stylesheet hides it for this class. Play turns into Pause while the deal runs, which stops
it where it is."""


def _flex(basis: str, min_width: str) -> dict[str, str]:
    """A box child that shares a wrapping row: side by side when there is room, stacked on a
    narrow screen (it then grows to the whole width)."""
    return {"flex": f"1 1 {basis}", "min_width": min_width, "max_width": "100%"}


def seeded_deal(
    seed: int,
    players: int = 4,
    bots: str | Iterable[str] | None = None,
    rules: Rules | None = None,
    page: str | None = None,
) -> tuple[Deal, list[str], str | None]:
    """The deal of `seed` played by `bots`, each bot's reason per move, and (with `page`) the
    address that opens it: `page?seed=S&players=P&bots=...`."""
    if page is not None:
        require_text(page, "page")
    deal, choices = play_deal_explained(seed, players, bots, rules)
    link = None
    if page is not None:
        seats = bot_names(bots, players)
        names = seats[0] if len(set(seats)) == 1 else ",".join(seats)
        link = f"{page}?seed={seed}&players={players}&bots={names}"
    return deal, [c.why for c in choices], link


class StepTrait(traitlets.Int[int, int]):
    """The stepper's `step`: an `Int` trait whose value the stepper checks itself (its
    `@traitlets.validate("step")` refuses a bad step with one sentence, a `ValueError`, as the
    stepper's other arguments are refused), and which, read or set, first lands a move that a
    button started (so the step read is always the step the engine is at)."""

    def validate(self, obj: Any, value: Any) -> Any:
        return value

    def get(self, obj: traitlets.HasTraits, cls: type[Any] | None = None) -> int | None:
        if isinstance(obj, DealStepper):
            obj._arrive()
        return super().get(obj, cls)

    def set(self, obj: traitlets.HasTraits, value: Any) -> None:
        if isinstance(obj, DealStepper):
            obj._arrive()
        super().set(obj, value)


class DealStepper(KitWidget):
    """Step through the moves of `deal` (finished or not, e.g. `DealStepper(loads(text))`).

    `seat` shows only that seat's cards while the deal is being played (the other hands face
    down, from their sizes alone); `whys` gives one bot reason per move; `step` is where to
    start (0 is the deal as dealt, `steps` is after the last move).

    Public: the trait `step` (set it to go there; `stepper.observe(f, "step")` sees every step
    the stepper takes, `ipywidgets.link((stepper, "step"), (slider, "value"))` keeps another
    widget in step both ways), `steps`, `deal` (the working deal at the current step, not the
    caller's), `seat`, `whys`, and the widgets `buttons` (by `Control`), `slider`, `play`,
    `status`, `explanation`, `table`, `hands`, `scores`, `log` and `root`.
    """

    step = StepTrait(0)
    """How many moves have been played at the current step (0 = the deal as dealt)."""
    _heading: int | None = None
    """The step a button is on its way to (see `_move_to`), or None."""
    _pending: asyncio.TimerHandle | None = None

    def __init__(
        self,
        deal: Deal,
        seat: int | None = None,
        whys: Sequence[str] | None = None,
        step: int = 0,
        four_colour: bool = False,
        note: str = "",
        link: str | None = None,
    ) -> None:
        super().__init__(four_colour)
        self._require_deal(deal)
        self._require_seat(seat, deal)
        self._require_step(step, len(deal.move_stack))
        self.seat = seat
        self._note = require_text(note, "note")
        self._take(deal, whys, link)
        self._build(step)
        self._go(step)
        self._render()
        self.step = step
        self.observe(self._on_step, names="step")
        self.slider.observe(self._on_slider, names="value")

    def _take(self, deal: Deal, whys: Sequence[str] | None, link: str | None) -> None:
        """Make `deal` (its moves, with `whys`) the one this stepper shows, from step 0."""
        if self._pending is not None:  # a step of the deal shown before
            self._heading = None
            self._arrive()
        steps = len(deal.move_stack)
        if whys is not None:
            require_texts(whys, "whys")
            if len(whys) != steps:
                raise ValueError(
                    f"give one reason per move: this deal has {steps}, not {len(whys)}"
                )
        if link is not None:
            require_text(link, "link")
        self.whys: tuple[str, ...] | None = tuple(whys) if whys is not None else None
        self.link = link
        """A page address that opens this deal (e.g. `07_whole_deal.ipynb?seed=5`): the status
        line then offers the link of the current step (`&step=K` added) for sharing."""
        self._full = deal.copy()  # our own: later changes to the caller's deal change nothing
        self._moves = list(deal.move_stack)
        self._turns = frames.move_turns(self._full)
        self._log = render.log_rows(frames.log_frame(self._full))  # once; step k shows k rows
        self._working = deal.copy()
        while self._working.move_stack:
            self._working.pop()

    def show_deal(
        self,
        deal: Deal,
        whys: Sequence[str] | None = None,
        step: int = 0,
        link: str | None = None,
    ) -> None:
        """Step through another deal in the same widgets (the tree stays as it is), at `step`.
        Bad arguments raise `ValueError` and change nothing."""
        self._require_deal(deal)
        self._require_seat(self.seat, deal)
        if whys is not None:
            require_texts(whys, "whys")
        if link is not None:
            require_text(link, "link")
        self._require_step(step, len(deal.move_stack))
        self._take(deal, whys, link)
        with self.slider.hold_sync(), self.play.hold_sync():
            self.slider.max = self.play.max = self.steps
        if self.slider.value == step:
            self._on_slider({"new": step})
        else:
            self.slider.value = step

    @staticmethod
    def _require_deal(deal: object) -> None:
        if not isinstance(deal, Deal):
            raise ArgumentTypeError(
                f"a stepper steps through a Deal (e.g. play_deal(5)), not {shown(deal)}"
            )

    @staticmethod
    def _require_seat(seat: int | None, deal: Deal) -> None:
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < deal.players
        ):
            raise ValueError(f"seat must be a seat number from 0 to {deal.players - 1}")

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def from_seed(
        cls,
        seed: int,
        players: int = 4,
        bots: str | Iterable[str] | None = None,
        rules: Rules | None = None,
        seat: int | None = None,
        step: int = 0,
        four_colour: bool = False,
        note: str = "",
        page: str | None = None,
    ) -> DealStepper:
        """A deal dealt with `seed` and played by `bots`, each move with the bot's reason.

        With `page` (the lesson's file name) the stepper shows a link to its current step,
        `page?seed=S&players=P&bots=...&step=K`, that opens the same deal at the same step.
        """
        deal, whys, link = seeded_deal(seed, players, bots, rules, page)
        return cls(deal, seat, whys, step, four_colour, note, link)

    @classmethod
    def showing(
        cls,
        rule_ids: str | Iterable[str],
        players: int = 4,
        bots: str | Iterable[str] | None = SHOWCASE_BOTS,
        start_seed: int = 0,
        limit: int = 2000,
        rules: Rules | None = None,
        seat: int | None = None,
        four_colour: bool = False,
    ) -> DealStepper:
        """A bot deal whose events show every rule in `rule_ids` (`find_deal`), opened at the
        first step that shows the first of them. Raises `ValueError` for an unknown rule id, or
        when none of the `limit` seeds from `start_seed` on shows them all."""
        ids = require_rule_ids([rule_ids] if isinstance(rule_ids, str) else rule_ids)
        found = find_deal(ids, players, bots, start_seed, limit, rules)
        if found is None:
            raise ValueError(
                f"None of the {limit} deals from seed {start_seed} on shows "
                f"{join_names(ids)}; try a larger limit or another start seed."
            )
        deal, choices = play_deal_explained(found.seed, players, bots, rules)
        whys: list[str] | None = [c.why for c in choices]
        if deal.move_stack != found.move_stack:  # cannot happen with the same bots and seed
            deal, whys = found, None
        start = first_step(deal, ids[0])
        return cls(deal, seat, whys, start or 0, four_colour)

    def _build(self, step: int) -> None:
        self.buttons: dict[Control, widgets.Button] = {}
        for control, icon in BUTTONS:
            button = part(
                widgets.Button,
                description=label(control),
                icon=icon,
                tooltip=tooltip(control),
                layout={"width": "auto", "min_width": "6em"},
            )
            self.buttons[control] = button
        self.buttons[Control.FIRST].on_click(self._on_first)
        self.buttons[Control.BACK].on_click(self._on_back)
        self.buttons[Control.NEXT].on_click(self._on_next)
        self.buttons[Control.LAST].on_click(self._on_last)
        self.slider = part(
            widgets.IntSlider,
            value=step,
            min=0,
            max=self.steps,
            step=1,
            description=label(Control.STEP),
            tooltip=tooltip(Control.STEP),
            continuous_update=False,
            # The status line says "Step k of N". The slider's own readout would say k a second
            # time, and it costs every page load a forced layout of the whole lesson (ipywidgets
            # measures whether the number overflows its box once the slider is shown).
            readout=False,
            layout={"flex": "1 1 20em", "min_width": "14em", "max_width": "100%"},
        )
        self.play = part(
            widgets.Play,
            value=step,
            min=0,
            max=self.steps,
            step=1,
            interval=PLAY_INTERVAL_MS,
            description=label(Control.AUTOPLAY),
            tooltip=tooltip(Control.AUTOPLAY),
            show_repeat=False,
        )
        self.play.add_class(AUTOPLAY_CLASS)
        # Play moves the slider in the browser. The link goes one way: a two-way link would send
        # every step made from Python back to the kernel, in the middle of the click's updates.
        self._link = widgets.jsdlink((self.play, "value"), (self.slider, "value"))

        self.note = part(widgets.HTML, "", layout={"width": "100%"})
        self.note.add_class("penang-message")
        self.show_note(self._note)
        self.status = part(widgets.HTML, "", layout={"width": "100%"})
        self.status.add_class("penang-status")
        self.explanation = part(widgets.HTML, "", layout=_flex("36%", "260px"))
        self.explanation.add_class("penang-explain")
        self.table = part(widgets.HTML, "", layout=_flex("56%", "300px"))
        self.hands = part(widgets.HTML, "", layout={"width": "100%"})
        self.scores = part(widgets.HTML, "", layout={"width": "100%"})
        show(self.scores, False)
        self.log = part(widgets.HTML, "", layout={"width": "100%"})

        wrap = {"flex_flow": ROW_WRAP, "align_items": "center", "width": "100%"}
        controls = part(widgets.HBox, [*self.buttons.values(), self.play, self.slider], layout=wrap)
        main = part(
            widgets.HBox,
            [self.explanation, self.table],
            layout={"flex_flow": ROW_WRAP, "align_items": "flex-start", "width": "100%"},
        )
        self._finish(
            [self.note, self.status, controls, main, self.scores, self.hands, self.log],
            "penang-stepper",
        )

    def show_note(self, sentence: str) -> None:
        """Show one sentence above the stepper (e.g. what of a link was ignored); "" hides it."""
        sentence = require_text(sentence, "the note")
        with self.note.hold_sync():
            self.note.value = f"<p>{esc(sentence)}</p>" if sentence else ""
            show(self.note, bool(sentence))

    # -- the step ------------------------------------------------------------------------------
    @property
    def steps(self) -> int:
        """How many moves the deal has: the steps go from 0 to this."""
        return len(self._moves)

    @property
    def deal(self) -> Deal:
        """The working deal at the current step (the stepper's own; do not push to it)."""
        self._arrive()
        return self._working

    @traitlets.validate("step")
    def _valid_step(self, proposal: Any) -> int:
        value = proposal["value"]
        self._require_step(value, self.steps)
        return int(value)

    def _on_step(self, change: dict[str, Any]) -> None:
        """A step set from Python moves the slider (whose observer moves the engine and draws)."""
        self.slider.value = change["new"]

    @staticmethod
    def _require_step(value: object, steps: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= steps:
            raise ValueError(f"the step must be a whole number from 0 to {steps}, not {value!r}")

    def _go(self, target: int) -> None:
        """Push or pop the engine's moves one by one until `target` moves are played."""
        working = self._working
        while len(working.move_stack) > target:
            working.pop()
        while len(working.move_stack) < target:
            working.push(self._moves[len(working.move_stack)])

    # -- callbacks -------------------------------------------------------------------------------
    def _move_to(self, target: int) -> None:
        """Go to step `target`: its explanation is sent first; `DRAW_DELAY_S` later the slider
        moves (and its observer moves the engine and draws the rest). Anything that reads the
        step before then finishes the move first (`_arrive`)."""
        self.explanation.value = self._explanation_html(target)
        self._heading = target
        self._pending = later(DRAW_DELAY_S, self._arrive_later)

    def _arrive(self) -> None:
        """Finish the move a button started, if it is still on its way."""
        heading, self._heading = self._heading, None
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if heading is not None:
            self.slider.value = heading

    @guarded
    def _arrive_later(self) -> None:
        self._pending = None
        self._arrive()

    @guarded
    def _on_slider(self, change: dict[str, Any]) -> None:
        value = int(change["new"])
        if self._heading is not None and value != self._heading:  # dragged meanwhile: it wins
            self._heading = None
            self._arrive()
        if self.play.value != value:  # Play starts from the step on screen
            self.play.value = value
        self._go(value)
        try:
            self._render()
        finally:
            self.step = value

    @guarded
    def _on_first(self, _button: Any) -> None:
        self._move_to(0)

    @guarded
    def _on_back(self, _button: Any) -> None:
        self._move_to(max(0, self.step - 1))

    @guarded
    def _on_next(self, _button: Any) -> None:
        self._move_to(min(self.steps, self.step + 1))

    @guarded
    def _on_last(self, _button: Any) -> None:
        self._move_to(self.steps)

    # -- showing ---------------------------------------------------------------------------------
    def _render(self) -> None:
        k = len(self._working.move_stack)
        working = self._working
        over = working.is_over
        change = frames.step_changes(self._full, k)
        open_hands = None if self.seat is None or over else [self.seat]
        # The explanation and the status go first, on their way before the rest is drawn: they
        # are what the learner reads after a click, and drawing the hands and the table takes
        # most of the click's time. (Should drawing them fail, `guarded` says so.) A button has
        # sent the explanation already; setting the same text again sends nothing.
        self.explanation.value = self._explanation_html(k, change)
        self.status.value = self._status_html(k)
        send_now()
        table = render.table_html(frames.table_frame(working), change)
        hands = render.hands_html(frames.hands_frame(working, show=open_hands), change)
        log = render.log_table(self._log[:k])
        scores = render.scores_html(frames.scores_frame(working)) if over else ""
        self.table.value = table
        self.hands.value = hands
        self.log.value = log
        with self.scores.hold_sync():
            self.scores.value = scores
            show(self.scores, over)
        self.buttons[Control.FIRST].disabled = k == 0
        self.buttons[Control.BACK].disabled = k == 0
        self.buttons[Control.NEXT].disabled = k == self.steps
        self.buttons[Control.LAST].disabled = k == self.steps
        self.report("")

    def _status_html(self, k: int) -> str:
        working = self._working
        names = working.names
        where = _("Step {step} of {steps}").format(step=k, steps=self.steps)
        parts = [f"<strong>{where}</strong>"]
        if k == 0:
            parts.append(_("the deal as dealt"))
        if working.is_over:
            winners = [names[w] for w in working.winners]
            parts.append(_("the deal is over"))
            parts.append(
                ngettext("{players} wins", "{players} share the win", len(winners)).format(
                    players=esc(join_names(winners))
                )
            )
        else:
            parts.append(
                _("next: turn {turn}, {player} to move").format(
                    turn=working.turn_number, player=esc(names[working.turn])
                )
            )
            if k == self.steps and k:
                parts.append(_("the record stops here"))
        if self.link is not None:
            # No target: a click loads the page again in this tab, at this step (lesson 7
            # says so); the link is there to be copied. Outside the site, no link (page_link).
            parts.append(
                page_link(
                    f"{self.link}&step={k}",
                    _("link to this step"),
                    _("Copy this link to send someone to this step; a click opens it here"),
                )
            )
        return f'<p role="status" aria-live="polite">{" · ".join(parts)}</p>'

    def _explanation_html(self, k: int, change: Changes | None = None) -> str:
        """What step `k` did and why (it depends on the whole deal alone, not the working one)."""
        full = self._full
        if change is None:
            change = frames.step_changes(full, k)
        names = full.names
        if k == 0:
            dealt = _("<strong>The deal as dealt</strong>, before any move.")
            return f"<p>{dealt}</p>" + render.events_html(full.start_events, names)
        mover = full.movers[k - 1]
        who = esc(names[mover])
        head = _("<strong>Step {step}, played in turn {turn}:</strong> {player}: {move}.").format(
            step=k, turn=self._turns[k - 1], player=who, move=esc(self._moves[k - 1].label())
        )
        parts = [f"<p>{head}</p>", render.events_html(full.event_stack[k - 1], names)]
        if self.whys is not None and self.whys[k - 1]:
            reason = _("<strong>{player}'s reason:</strong> <em>{reason}</em>").format(
                player=who, reason=esc(self.whys[k - 1])
            )
            parts.append(f'<p class="penang-why">{reason}</p>')
        parts.append(self._changes_html(change, names))
        return "".join(parts)

    @staticmethod
    def _changes_html(change: Changes, names: Sequence[str]) -> str:
        name = names[change.seat] if change.seat is not None else _("The table")
        who = esc(name)
        said: list[str] = []
        if change.left_hand:
            spoken = _("cards that left {player}'s hand").format(player=name)
            row = render.card_row(change.left_hand, spoken, marked=change.left_hand)
            said.append(_("Left {player}'s hand: {cards}").format(player=who, cards=row))
        if change.taken:
            row = render.card_row(
                change.taken, _("joker taken"), marked=change.taken, mark="penang-taken"
            )
            said.append(
                _("{player} takes the joker into the hand: {cards}").format(player=who, cards=row)
            )
        for seat in change.died:
            said.append(
                _("{player} is dead: the cards left in hand will count.").format(
                    player=esc(names[seat])
                )
            )
        if change.went_out is not None:
            said.append(
                _("{player} has gone out: no card left.").format(player=esc(names[change.went_out]))
            )
        if not said:
            said.append(_("No card moved in this step."))
        body = "".join(f"<p>{line}</p>" for line in said)
        heading = _("What changed")
        return f'<div class="penang-changes"><p><strong>{heading}</strong></p>{body}</div>'
