"""`MeldChecker`: type cards (or pick them from a hand) and read the engine's verdict at once.

The learner writes cards in the notation (`5H 6H JK`); as they type, the verdict box says whether
the cards make a run or a set, or exactly why not (rules `meld`, `run`, `set`, `joker`, `deck`),
and lists every reading, jokers showing what they stand for. Against a table meld chosen in the
"Against" menu, each typed card is checked for a lay-off (rule `lay-off`) and a swap (rule `swap`);
a plain joker that fits more than one place (either end of a run) lists each of them, since the
player chooses. The hand to pick from is shown in the engine's display order, as at the play table.

Every answer is a `Verdict` of `penang_lib.check_meld`, `check_lay_off` or `check_swap`, shown
with its own sentence and rule id (a plain joker's places are listed by the engine,
`penang_lib.engine.checks.joker_lay_offs`).

What is typed is the checker's `value` trait (linked to the text box both ways), and the
engine's verdict on it as a meld is its read-only `verdict` trait, so a Python user may link
and observe them as on any ipywidget.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
import traitlets

from penang_lib import (
    Card,
    CardParseError,
    Meld,
    Rules,
    Verdict,
    check_lay_off,
    check_meld,
    check_swap,
    parse_cards,
)
from penang_lib.engine.cards import card_classes, cards_symbols, read_cards, sort_cards
from penang_lib.engine.checks import joker_lay_offs
from penang_lib.engine.validate import ArgumentTypeError, require_text, require_whole, shown
from penang_lib.i18n import N_, _, ngettext
from penang_lib.widgets import render
from penang_lib.widgets.base import KitWidget, guarded
from penang_lib.widgets.controls import Control, label, tooltip
from penang_lib.widgets.shared import ROW_WRAP, part

PLACEHOLDER = N_("type cards, e.g. 5H 6H JK")
"""The text box's placeholder (the outside hook looks for `5H 6H JK` in it)."""

NEW_MELD = N_("a new meld")
"""The "Against" choice (value -1) that checks the typed cards as a meld of their own."""

KINDS: dict[tuple[str, ...], str] = {
    ("run",): N_("a run"),
    ("set",): N_("a set"),
    ("run", "set"): N_("a run or a set"),
    ("set", "run"): N_("a set or a run"),
}
"""What a meld is, by the kinds of its readings in the order the engine lists them."""

TableMeld = Meld | str
"""A table meld as the checker keeps it: a read `Meld`, or text whose jokers have several
readings (the rule checks then try each)."""


def read_table_meld(item: str | Meld) -> TableMeld:
    """A table meld given as text becomes the engine's one reading of it; text with several
    readings (or none) stays text, so the rule checks judge it themselves."""
    if isinstance(item, Meld):
        return item
    if not isinstance(item, str):
        raise ArgumentTypeError(
            f"a table meld should be card text such as '5H 6H JK@7H' or a Meld, not {shown(item)}"
        )
    # Unreadable text is refused here, not on every check.
    read_cards(item, "a table meld")  # not for learners: an argument's name in a TypeError
    verdict = check_meld(item)
    if verdict.ok and len(verdict.readings) == 1 and verdict.reading is not None:
        return verdict.reading
    return item


def meld_cards(meld: TableMeld) -> list[Card]:
    """The cards of a table meld as they lie (noted jokers for a read meld)."""
    return list(meld.cards) if isinstance(meld, Meld) else parse_cards(meld)


def meld_label(number: int, meld: TableMeld) -> str:
    """The menu label of table meld `number`: its cards with suit symbols and what it is."""
    if isinstance(meld, Meld):
        said = _("meld {number}: {cards} ({description})").format(
            number=number, cards=meld.symbols, description=meld.description
        )
    else:
        said = _("meld {number}: {cards}").format(
            number=number, cards=cards_symbols(parse_cards(meld))
        )
    return render.plain(said)


def _reading_label(reading: Meld) -> str:
    """What a screen reader says of one reading's cards: what it is, then its cards."""
    return _("{description}: {cards}").format(
        description=reading.description, cards=reading.symbols
    )


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,]+", text.strip()) if t]


def _token_card(token: str) -> Card | None:
    """The card a single typed token names, or None when it is not one card."""
    try:
        cards = parse_cards(token)
    except CardParseError:
        return None
    return cards[0] if len(cards) == 1 else None


def _kinds(verdict: Verdict) -> str:
    """ "a run", "a set", or "a set or a run" for a meld that reads both ways."""
    kinds: list[str] = []
    for reading in verdict.readings:
        if reading.kind.value not in kinds:
            kinds.append(reading.kind.value)
    if not kinds and verdict.kind:
        kinds.append(verdict.kind)
    return _(KINDS[tuple(kinds)])


class MeldChecker(KitWidget):
    """Check typed (or picked) cards as a meld, and against a table meld for lay-off and swap.

    `table`: melds on the table (text such as `"5H 6H JK@7H"` or `Meld` values) to check against;
    `hand`: cards the learner may pick with toggle buttons; `rules`: the rule set (default
    `Rules()`); `value`: the text to start with; `four_colour`: a four-colour deck; `against`:
    the table meld chosen at the start (its number; default: check a new meld).

    Public traits: `value` (the cards typed, as text; linked both ways to the text box, so
    setting it types them) and `verdict` (read-only: the engine's `Verdict` on `value` as a
    meld, `check_meld`, or None while nothing is typed or the text is not cards). Public
    widgets: `entry` (the `Text` box), `feedback` (the `HTML` verdict box, class
    `penang-verdict`), `target` (the "Against" `Dropdown`, or None without a table), `toggles`
    (one `ToggleButton` per card of the hand); and `hand` (its cards, in display order: by
    suit, then rank, jokers last) and `table` (the melds as read).
    """

    value = traitlets.Unicode("")
    """The cards typed, as text (the text box shows it; either one changes the other)."""
    verdict = traitlets.Instance(Verdict, allow_none=True, read_only=True)
    """The engine's verdict on `value` as a meld, or None while nothing is typed or the text is
    not cards (changed by the checker alone, whenever `value` changes)."""

    def __init__(
        self,
        table: Sequence[str | Meld] | None = None,
        hand: str | Sequence[Card] | None = None,
        rules: Rules | None = None,
        value: str = "",
        four_colour: bool = False,
        against: int | None = None,
    ) -> None:
        super().__init__(four_colour)
        self.rules = Rules.of(rules)
        if table is not None and (isinstance(table, str) or not isinstance(table, Sequence)):
            raise ArgumentTypeError(
                f"table should be a list of table melds, e.g. ['5H 6H JK@7H'], not {shown(table)}"
            )
        self.table: list[TableMeld] = [read_table_meld(m) for m in (table or ())]
        # In display order (suit, then rank, jokers last), as the play table shows a hand.
        self.hand: list[Card] = [] if hand is None else sort_cards(read_cards(hand, "hand"))
        value = require_text(value, "value")
        if against is not None:
            against = require_whole(against, "against")
        self._syncing = False
        self.value = value

        self.entry = part(
            widgets.Text,
            value=value,
            description=label(Control.CARDS),
            placeholder=_(PLACEHOLDER),
            tooltip=tooltip(Control.CARDS),
            continuous_update=True,
            layout={"width": "auto", "min_width": "18em"},
        )
        self.entry.add_class("penang-entry")

        self.target: Any = None
        if self.table:
            # Values are meld numbers, -1 for a new meld (a None value would show a blank menu).
            options = [
                (_(NEW_MELD), -1),
                *((meld_label(i, m), i) for i, m in enumerate(self.table)),
            ]
            self.target = part(
                widgets.Dropdown,
                options=options,
                value=-1,
                description=label(Control.AGAINST),
                tooltip=tooltip(Control.AGAINST),
                layout={"width": "auto"},
            )
            if against is not None:
                if not 0 <= against < len(self.table):
                    raise ValueError(
                        f"against names a table meld from 0 to {len(self.table) - 1}, not {against}"
                    )
                self.target.value = against
            self.target.observe(self._on_target, names="value")
        elif against is not None:
            raise ValueError("against names a table meld, but this checker has no table")

        self.toggles: list[Any] = []
        for card in self.hand:
            toggle = part(
                widgets.ToggleButton,
                value=False,
                description=card.symbol,
                tooltip=card.name,
                layout={"width": "auto", "min_width": "3.2em"},
            )
            toggle.add_class("penang-hand-card")
            # The shared stylesheet colours these classes (red suits, four-colour deck).
            for cls in card_classes(card).split():
                if cls != "penang-card":
                    toggle.add_class(cls)
            toggle.observe(self._on_toggle, names="value")
            self.toggles.append(toggle)

        self.feedback = part(widgets.HTML, "")
        self.feedback.add_class("penang-verdict")

        children: list[Any] = [self.entry]
        if self.target is not None:
            children.append(self.target)
        if self.toggles:
            row = part(widgets.HBox, self.toggles, layout={"flex_flow": ROW_WRAP})
            row.add_class("penang-hand")
            children.append(row)
        children.append(self.feedback)

        self._entry_link = traitlets.link((self, "value"), (self.entry, "value"))
        self.observe(self._on_value, names="value")
        self._show()
        self._sync_toggles()
        self._finish(children, "penang-checker")

    # -- callbacks ----------------------------------------------------------------------------
    @guarded
    def _on_value(self, change: dict[str, Any]) -> None:
        self._show()
        self._sync_toggles()

    @guarded
    def _on_target(self, change: dict[str, Any]) -> None:
        self._show()

    @guarded
    def _on_toggle(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        owner = change["owner"]
        card = next(self.hand[i] for i, t in enumerate(self.toggles) if t is owner)
        tokens = _tokens(self.value)
        if change["new"]:
            tokens.append(str(card))
        else:
            for i, token in enumerate(tokens):
                typed = _token_card(token)
                if typed is not None and typed.plain == card:
                    del tokens[i]
                    break
        self.value = " ".join(tokens)

    def _sync_toggles(self) -> None:
        """Press exactly the hand's cards that are typed (each copy once), keeping pressed the
        toggles that already are, so typing and clicking agree."""
        if not self.toggles:
            return
        wanted = Counter(c.plain for c in map(_token_card, _tokens(self.value)) if c is not None)
        states = [False] * len(self.toggles)
        for keep_pressed in (True, False):
            for i, (card, toggle) in enumerate(zip(self.hand, self.toggles, strict=True)):
                if states[i] or bool(toggle.value) is not keep_pressed:
                    continue
                if wanted[card] > 0:
                    wanted[card] -= 1
                    states[i] = True
        self._syncing = True
        try:
            for toggle, state in zip(self.toggles, states, strict=True):
                toggle.value = state
        finally:
            self._syncing = False

    # -- the verdict -------------------------------------------------------------------------
    def _show(self) -> None:
        """Judge `value`: the verdict box shows it, then the `verdict` trait changes."""
        text = self.value
        meld = self._judge(text)
        body, tone = self._verdict_html(text, meld)
        with self.feedback.hold_sync():
            self.feedback.value = body
            for cls in ("penang-ok", "penang-no"):
                if cls != tone:
                    self.feedback.remove_class(cls)
            if tone:
                self.feedback.add_class(tone)
        self.set_trait("verdict", meld)

    def _judge(self, text: str) -> Verdict | None:
        """The engine's verdict on `text` as a meld; None for no text or text that is not cards."""
        if not text.strip():
            return None
        try:
            cards = parse_cards(text)
        except CardParseError:
            return None
        return check_meld(cards, self.rules)

    def verdict_html(self, text: str) -> tuple[str, str]:
        """What the verdict box shows for `text`, and its tone class ("" when nothing typed)."""
        return self._verdict_html(text, self._judge(text))

    def _verdict_html(self, text: str, meld: Verdict | None) -> tuple[str, str]:
        if not text.strip():
            if self.toggles:
                ask = _(
                    "Type some cards to check them, or pick them from the hand: for example "
                    "5H 6H JK."
                )
            else:
                ask = _("Type some cards to check them: for example 5H 6H JK.")
            return f"<p>{ask}</p>", ""
        try:
            cards = parse_cards(text)
        except CardParseError as error:
            said = _("<strong>That is not a card.</strong> {reason}").format(
                reason=render.esc(error)
            )
            return f"<p>{said}</p>", "penang-no"
        against = self.target.value if self.target is not None else -1
        parts: list[str] = []
        ok = True
        if against >= 0:
            against_html, against_ok = self._against_html(cards, against)
            parts.append(against_html)
            ok = against_ok
        assert meld is not None  # `_judge` read these cards too
        if against >= 0:
            as_new = _("As a new meld:")
            parts.append(f"<p><strong>{as_new}</strong></p>")
        else:
            ok = meld.ok
        parts.append(self._meld_html(meld))
        return "".join(parts), "penang-ok" if ok else "penang-no"

    def _meld_html(self, verdict: Verdict) -> str:
        if verdict.ok:
            yes = _("Yes: {kind}.").format(kind=render.esc(_kinds(verdict)))
            head = f"<p><strong>{yes}</strong></p>"
        else:
            no = _("Not a meld.")
            head = f"<p><strong>{no}</strong></p>"
        parts = [head, render.sentence_html(verdict.rule, verdict.reason, ok=verdict.ok)]
        if verdict.readings:
            many = len(verdict.readings) > 1
            title = _("Readings (the player chooses one):") if many else _("Reading:")
            items = "".join(
                f"<li>{render.card_row(r.cards, _reading_label(r))} "
                f'<span class="penang-summary">{render.esc(r.description)}</span></li>'
                for r in verdict.readings
            )
            parts.append(
                f'<p class="penang-summary">{title}</p><ul class="penang-readings">{items}</ul>'
            )
        return "".join(parts)

    def _against_html(self, cards: Sequence[Card], number: int) -> tuple[str, bool]:
        """Each typed card against table meld `number`: lay-off and swap, in the engine's words;
        and whether any card may be laid off or swapped in."""
        meld = self.table[number]
        shown = meld_cards(meld)
        spoken = _("meld {number}: {cards}").format(number=number, cards=cards_symbols(shown))
        against = _("<strong>Against meld {number}:</strong> {cards}").format(
            number=number, cards=render.card_row(shown, spoken)
        )
        parts = [f"<p>{against}</p>"]
        if not cards:
            return "".join(parts), False
        any_ok = False
        seen: list[Card] = []
        for card in cards:
            if card in seen:
                continue
            seen.append(card)
            lay = check_lay_off(meld, card, self.rules)
            swap = check_swap(meld, card, self.rules)
            any_ok = any_ok or lay.ok or swap.ok
            placings = self.joker_lay_offs(number, card) if lay.ok and card.is_joker else []
            if len(placings) > 1:
                # A plain joker fits more than one place: the player chooses, as at the table.
                items = "".join(
                    f"<li>{render.sentence_html(v.rule, v.reason, ok=True)}</li>" for v in placings
                )
                ways = ngettext(
                    "May be laid off in {count} way (the player chooses one):",
                    "May be laid off in {count} ways (the player chooses one):",
                    len(placings),
                ).format(count=len(placings))
                lay_html = f'<p><strong>{ways}</strong></p><ul class="penang-readings">{items}</ul>'
            else:
                lay_text = (
                    _("May be laid off: {reason}").format(reason=lay.reason)
                    if lay.ok
                    else lay.reason
                )
                lay_html = render.sentence_html(lay.rule, lay_text, ok=lay.ok)
            swap_text = (
                _("May replace a joker: {reason}").format(reason=swap.reason)
                if swap.ok
                else swap.reason
            )
            parts.append(
                '<div class="penang-against">'
                f"<p>{render.card_row([card], card.name)}</p>"
                f"{lay_html}"
                f"{render.sentence_html(swap.rule, swap_text, ok=swap.ok)}"
                "</div>"
            )
        return "".join(parts), any_ok

    def joker_lay_offs(self, number: int, card: Card) -> list[Verdict]:
        """Every way a plain joker may be laid off on table meld `number`, as the engine lists
        them (`penang_lib.engine.checks.joker_lay_offs`); empty for any other card."""
        return joker_lay_offs(self.table[number], card, self.rules)
