"""HTML for the widgets: the kit's one stylesheet, and cards, hands, melds and frames rendered
from what `penang_lib` says: the words and the cards come from the engine.

Cards are the engine's own spans (`penang_lib.engine.cards.card_html`) written without inline style,
so the stylesheet below decides their look; a four-colour deck is one class on a widget's root. A
region (a hand, the table, the log) is one HTML string, set as the value of one `HTML` widget.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from typing import Any
from urllib.parse import quote

import pandas as pd

from penang_lib.data.frames import Changes
from penang_lib.engine.cards import JOKER_DRAWN, Card, card_html, joker_svg, symbols_html
from penang_lib.engine.events import Event
from penang_lib.engine.explain import explain
from penang_lib.engine.rules import RULE_BOOK
from penang_lib.i18n import N_, _

FOUR_COLOUR = "penang-four-colour"
"""The class that turns a widget's cards into a four-colour deck (blue diamonds, green clubs)."""

STYLESHEET = """
.penang-kit { font-size: 15px; line-height: 1.4; max-width: 100%; }
.penang-kit .widget-html-content, .penang-kit .widget-html { line-height: 1.45; height: auto; }
.penang-kit .widget-dropdown { max-width: 100%; }
.penang-kit .widget-dropdown select { min-width: 0; max-width: 100%; text-overflow: ellipsis; }
.penang-kit .penang-card, .penang-kit .penang-hand-card {
  display: inline-block; min-width: 2.3em; padding: 0.15em 0.3em; margin: 0.1em;
  border: 1px solid #8a8a8a; border-radius: 0.35em; background: #fff; color: #1a1a1a;
  font-weight: 600; text-align: center; box-shadow: 0 1px 1px rgba(0,0,0,0.15);
}
.penang-kit .penang-hidden { display: none !important; }
/* The stepper's Play widget has no Stop (its second button): ipywidgets' Stop sets the step back
   to 0, while Play turns into Pause, which keeps the step. */
.penang-kit .penang-autoplay > button:nth-of-type(2) { display: none; }
.penang-kit .penang-red { color: #c0392b; }
/* JupyterLab's green button (white on #388e3c, 4.1:1) is below the 4.5:1 that text needs: a darker
   green for Call Game and a right quiz answer. */
.penang-kit .jupyter-button.mod-success { background-color: #2e7d32; }
.penang-kit .penang-joker { background: #fbf3ff; color: #6c3483; }
.penang-kit .penang-joker.penang-red { color: #c0392b; }
.penang-kit.penang-four-colour .penang-suit-d { color: #1f5fbf; }
.penang-kit.penang-four-colour .penang-suit-c { color: #1e7d32; }
.penang-kit .penang-back {
  background: repeating-linear-gradient(45deg, #2e4a7d, #2e4a7d 4px, #3d5f9c 4px, #3d5f9c 8px);
  color: transparent; min-width: 1.4em;
}
/* A selected card (a pressed toggle of the play table or of the checker's picker), one style:
   raised, shaded, ringed, underlined and ticked in its corner, so colour is never the only sign.
   The card keeps its own text colour (red suits, jokers). */
.penang-kit .jupyter-button.penang-card, .penang-kit .jupyter-button.penang-hand-card {
  position: relative;
}
.penang-kit .jupyter-button.penang-card.mod-active,
.penang-kit .jupyter-button.penang-hand-card.mod-active {
  overflow: visible; background: #ffe38a; border-color: #1f5fbf; transform: translateY(-4px);
  box-shadow: 0 0 0 3px #1f5fbf, 0 6px 10px rgba(0,0,0,0.35);
  text-decoration: underline; text-decoration-thickness: 0.14em; text-underline-offset: 0.18em;
}
.penang-kit .jupyter-button.penang-card.mod-active::before,
.penang-kit .jupyter-button.penang-hand-card.mod-active::before {
  content: ""; position: absolute; top: -7px; right: -7px; width: 16px; height: 16px;
  border-radius: 50%; background: #1f5fbf; box-shadow: 0 0 0 2px #fff;
}
.penang-kit .jupyter-button.penang-card.mod-active::after,
.penang-kit .jupyter-button.penang-hand-card.mod-active::after {
  content: ""; position: absolute; top: -4px; right: -1px; width: 4px; height: 8px;
  border: solid #fff; border-width: 0 2px 2px 0; transform: rotate(45deg);
}
/* The keyboard's focus: a thick dark ring a little outside every control (card, button, menu,
   link), drawn for the keyboard only (:focus-visible, also when the table moves the focus after
   a key press), and unlike a selected card's blue ring. */
.penang-kit .jupyter-button:focus-visible, .penang-kit select:focus-visible,
.penang-kit input:focus-visible, .penang-kit textarea:focus-visible,
.penang-kit a:focus-visible, .penang-kit [tabindex]:focus-visible {
  outline: 3px solid #1a1a1a !important; outline-offset: 2px !important;
}
/* A box clips what overflows it (ipywidgets' boxes scroll): while a control inside has the
   keyboard's focus, its boxes let the ring show whole. */
.penang-kit.widget-box:has(:focus-visible), .penang-kit .widget-box:has(:focus-visible),
.penang-kit .widget-dropdown:has(:focus-visible) {
  overflow: visible;
}
.penang-kit .penang-hand { overflow: visible; padding-top: 8px; }
.penang-kit .penang-selection .penang-card { font-size: 0.9em; }
.penang-kit .penang-moved { outline: 3px solid #e67e22; outline-offset: 1px; }
.penang-kit .penang-taken { outline: 3px solid #8e44ad; outline-offset: 1px; }
.penang-kit .penang-left { opacity: 0.55; text-decoration: line-through; }
.penang-kit table.penang-frame { border-collapse: collapse; margin: 0.3em 0; width: 100%; }
.penang-kit table.penang-frame th, .penang-kit table.penang-frame td {
  border-bottom: 1px solid #ddd; padding: 0.25em 0.4em; text-align: left; vertical-align: top;
}
.penang-kit table.penang-frame tr.penang-row-changed td { background: #fff4e0; }
.penang-kit table.penang-frame tr.penang-row-dead td { color: #5a5a5a; }
.penang-kit table.penang-frame tr.penang-row-dead.penang-row-changed td { background: #fde2e2; }
.penang-kit table.penang-frame tr.penang-row-turn td:first-child { font-weight: 700; }
.penang-kit .penang-badge {
  display: inline-block; padding: 0 0.45em; margin-right: 0.4em; border-radius: 0.8em;
  background: #34495e; color: #fff; font-size: 0.8em; font-family: monospace;
  white-space: nowrap;
}
.penang-kit .penang-badge.penang-bad { background: #c0392b; }
.penang-kit .penang-badge.penang-good { background: #1e7d32; }
.penang-kit .penang-explain, .penang-kit .penang-message, .penang-kit .penang-verdict,
.penang-kit .penang-trouble {
  border-left: 4px solid #34495e; background: #f6f8fa; padding: 0.4em 0.6em; margin: 0.3em 0;
}
.penang-kit .penang-explain p, .penang-kit .penang-message p, .penang-kit .penang-verdict p {
  margin: 0.2em 0;
}
.penang-kit .penang-ok { border-left-color: #1e7d32; }
.penang-kit .penang-no { border-left-color: #c0392b; }
.penang-kit .penang-log { max-height: 16em; overflow: auto; }
.penang-kit .penang-summary { color: #555; font-size: 0.9em; }
.penang-kit a { color: #1f5fbf; text-decoration: underline; }
.penang-kit .penang-scroll { overflow-x: auto; max-width: 100%; }
@media (max-width: 600px) {
  .penang-kit { font-size: 14px; }
  .penang-kit .penang-card { min-width: 2em; padding: 0.1em 0.2em; }
  /* On a phone each hand gets a line of its own under its player's five figures (player,
     status, cards, points, passport), which share the width in small headers. */
  .penang-kit table.penang-hands tr { display: flex; flex-wrap: wrap; }
  .penang-kit table.penang-hands th, .penang-kit table.penang-hands td {
    flex: 0 0 14%; box-sizing: border-box; border-bottom: none; padding: 0.25em 0.2em;
    overflow-wrap: anywhere;
  }
  .penang-kit table.penang-hands th { font-size: 0.8em; }
  .penang-kit table.penang-hands th:first-child,
  .penang-kit table.penang-hands td:first-child { flex-basis: 25%; }
  .penang-kit table.penang-hands th:nth-child(2),
  .penang-kit table.penang-hands td:nth-child(2) { flex-basis: 27%; }
  .penang-kit table.penang-hands th:nth-child(5),
  .penang-kit table.penang-hands td:nth-child(5) { flex-basis: 20%; }
  .penang-kit table.penang-hands td:last-child {
    flex-basis: 100%; border-bottom: 1px solid #ddd;
  }
  .penang-kit table.penang-hands th:last-child { display: none; }
}
"""  # not for learners: the stylesheet

JOKER_INK = "#6c3483"
"""The colour of a plain joker's drawing (a noted joker takes the colour of its suit)."""


def joker_button_css() -> str:
    """A joker's toggle button shows the drawing of its cards (`joker_svg`) as its background:
    a button's label is plain text, and the emoji there (🃏) is a boxed star where no emoji font
    is installed. The label stays, transparent, for screen readers. Written after the selected
    card's rules, whose `background` would otherwise remove the drawing."""
    # Only what a data URI must escape is escaped (`#`, and `"` written as `'`): percent codes
    # such as %3C would read like card notation to a test that looks for hidden cards.
    svg = joker_svg(JOKER_INK).replace('"', "'")
    uri = "data:image/svg+xml," + quote(svg, safe=" <>'=:/,;.-")
    # The cards and sentences of a widget carry an empty span (`JOKER_DRAWN`), painted here in
    # the colour of its text through the drawing as a mask. The drawing is written once, as the
    # custom property `--penang-joker`.
    return f"""
.penang-kit {{ --penang-joker: url("{uri}"); }}
.penang-kit .penang-joker-mark {{ color: {JOKER_INK}; }}
.penang-kit .{JOKER_DRAWN} {{
  display: inline-block; width: 1.15em; height: 1.15em; vertical-align: -0.2em;
  background-color: currentColor;
  -webkit-mask: var(--penang-joker) center / contain no-repeat;
  mask: var(--penang-joker) center / contain no-repeat;
}}
.penang-kit .jupyter-button.penang-joker, .penang-kit .jupyter-button.penang-joker.mod-active {{
  background-image: var(--penang-joker); background-repeat: no-repeat;
  background-position: center; background-size: 1.3em 1.3em; color: transparent;
}}
"""  # not for learners: the stylesheet


STYLESHEET += joker_button_css()


def esc(value: object) -> str:
    return html.escape(str(value))


def symbols(text: str) -> str:
    """Text with card symbols as a widget's HTML: escaped, each joker drawn by the stylesheet
    (`symbols_html` without `inline`)."""
    return symbols_html(text, inline=False)


def plain(text: str) -> str:
    """Text for a place that holds plain text only (a menu's options, a button's label or
    tooltip): the joker sign is written `JK`, the kit's own notation, as many computers' fonts
    have no 🃏 (Debian's Chromium shows a boxed star). HTML draws the joker instead
    (`symbols_html`)."""
    return text.replace("\ufe0f", "").replace("🃏", "JK")


# -- cards --------------------------------------------------------------------------------------
def card_row(
    cards: Iterable[Card], label: str, marked: Sequence[Card] = (), mark: str = "penang-moved"
) -> str:
    """A row of cards (the engine's spans); the cards in `marked` (each copy once) get `mark`."""
    pending = list(marked)
    inner = []
    for card in cards:
        extra = ""
        if card in pending:
            pending.remove(card)
            extra = mark
        inner.append(card_html(card, inline=False, extra=extra))
    return (
        f'<span class="penang-cards" role="group" aria-label="{esc(label)}">{"".join(inner)}</span>'
    )


def face_down(count: int, label: str) -> str:
    """`count` face-down cards, drawn from the number alone (no card is known here)."""
    back = '<span class="penang-card penang-back" aria-hidden="true">?</span>'
    shown = min(count, 25)
    # The number and the word stay as they were read before ("1 cards"): one message.
    said = _("{hand}: {count} cards, face down").format(hand=label, count=count)
    return (
        f'<span class="penang-cards" role="img" aria-label="{esc(said)}">{back * shown}</span> '
        f'<span class="penang-summary">{count}</span>'
    )


def badge(rule: str, tone: str = "") -> str:
    """A rule id as a badge; its tooltip is the rule book's one-line summary."""
    summary = RULE_BOOK.get(rule, "")
    cls = f"penang-badge {tone}".strip()  # not for learners: CSS classes
    return f'<span class="{cls}" title="{esc(summary)}">{esc(rule)}</span>'


# -- frames -------------------------------------------------------------------------------------
def frame_html(
    frame: pd.DataFrame,
    columns: Sequence[str],
    headers: Sequence[str],
    cell: Callable[[str, Any, dict[str, Any]], str | None] | None = None,
    row_class: Callable[[dict[str, Any]], str] | None = None,
    label: str = "",
    kind: str = "",
    scroll: bool = True,
) -> str:
    """A frame as an HTML table: `cell(column, value, row)` renders a cell (escaped text, with
    jokers drawn, by default), `row_class(row)` gives a row its classes; `kind` adds a class to
    the table (`penang-hands`, ...) for the stylesheet; `scroll` wraps it in a region that
    scrolls sideways when the screen is narrow (off when the caller scrolls it already)."""
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in headers)
    body = []
    for record in frame.to_dict("records"):
        row = {str(k): v for k, v in record.items()}
        cells = []
        for column in columns:
            value = row[column]
            text = cell(column, value, row) if cell else None
            cells.append(f"<td>{symbols(str(value)) if text is None else text}</td>")
        cls = row_class(row) if row_class else ""
        attr = f' class="{cls}"' if cls else ""
        body.append(f"<tr{attr}>{''.join(cells)}</tr>")
    name = esc(label or _("table"))
    table_class = f"penang-frame {kind}".strip()  # not for learners: CSS classes
    table = (
        f'<table class="{table_class}" aria-label="{name}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )
    if not scroll:
        return table
    # A region that may scroll sideways on a phone must be reachable by keyboard.
    return (
        f'<div class="penang-scroll" tabindex="0" role="region" aria-label="{name}">{table}</div>'
    )


def hands_html(frame: pd.DataFrame, change: Changes | None = None) -> str:
    """The hands frame (`penang_lib.data.frames.hands_frame`): hidden hands drawn face down, the
    joker just taken in a swap marked, the mover's and a just-dead player's rows highlighted."""
    change = change or Changes()

    def cell(column: str, value: Any, row: dict[str, Any]) -> str | None:
        if column == "name":
            return ("▶ " if row["to_move"] else "") + esc(value)
        if column == "cards":
            label = _("{player}'s hand").format(player=row["name"])
            if value is None:
                return face_down(row["card_count"], label)
            # A joker taken in a swap lies in the hand as a plain joker.
            marked = [c.plain for c in change.taken] if row["seat"] == change.seat else []
            return card_row(value, label, marked, "penang-taken")
        if column == "points":
            return "?" if value is None or value is pd.NA else esc(value)
        if column == "passport":
            return esc(_("yes")) if value else esc(_("not yet"))
        return None

    def row_class(row: dict[str, Any]) -> str:
        classes = []
        if row["seat"] == change.seat or row["seat"] in change.died:
            classes.append("penang-row-changed")
        if row["status"].startswith("dead"):
            classes.append("penang-row-dead")
        if row["to_move"]:
            classes.append("penang-row-turn")
        return " ".join(classes)

    return frame_html(
        frame,
        ["name", "status", "card_count", "points", "passport", "cards"],
        [_("Player"), _("Status"), _("Cards"), _("Points"), _("Passport"), _("Hand")],
        cell,
        row_class,
        label=_("hands"),
        kind="penang-hands",
    )


def table_html(frame: pd.DataFrame, change: Changes | None = None) -> str:
    """The table frame (`penang_lib.data.frames.table_frame`): each meld with its owner, the melds
    this step laid or changed highlighted, the cards just placed marked."""
    change = change or Changes()
    if frame.empty:
        return '<p class="penang-summary">{}</p>'.format(esc(_("No meld on the table yet.")))

    def cell(column: str, value: Any, row: dict[str, Any]) -> str | None:
        if column == "cards":
            marked = change.left_hand if row["meld"] in change.melds else ()
            words = _("meld {number}: {meld}").format(number=row["meld"], meld=row["description"])
            return card_row(value, words, marked)
        return None

    def row_class(row: dict[str, Any]) -> str:
        return "penang-row-changed" if row["meld"] in change.melds else ""

    return frame_html(
        frame,
        ["meld", "owner", "cards", "description"],
        [_("Meld"), _("Owner"), _("Cards"), _("What it is")],
        cell,
        row_class,
        label=_("table"),
    )


LOG_COLUMNS = ("step", "turn", "player", "move", "rule")
LOG_HEADERS = (N_("Step"), N_("Turn"), N_("Player"), N_("Move"), N_("Rule"))
"""The move log's column headers (marked: shown through `_()`)."""


def log_rows(frame: pd.DataFrame) -> list[str]:
    """The rows of the move log frame (`penang_lib.data.frames.log_frame`) as HTML, oldest first,
    each with its rule badge: a stepper renders them once and shows the first k at step k."""
    rows = []
    for record in frame.to_dict("records"):
        cells = "".join(
            f"<td>{badge(record[c]) if c == 'rule' else symbols(str(record[c]))}</td>"
            for c in LOG_COLUMNS
        )
        rows.append(f"<tr>{cells}</tr>")
    return rows


def log_table(rows: Sequence[str], latest_first: bool = True) -> str:
    """A move log from rows made by `log_rows`, newest first, in a box of its own height that
    scrolls (and can be reached by keyboard to scroll it)."""
    if not rows:
        return '<p class="penang-summary">{}</p>'.format(esc(_("No move yet.")))
    head = "".join(f'<th scope="col">{esc(_(h))}</th>' for h in LOG_HEADERS)
    body = "".join(reversed(rows)) if latest_first else "".join(rows)
    name = esc(_("move log"))
    table = (
        f'<table class="penang-frame" aria-label="{name}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )
    return f'<div class="penang-log" tabindex="0" role="region" aria-label="{name}">{table}</div>'


def log_html(frame: pd.DataFrame, latest_first: bool = True) -> str:
    """The move log frame (`penang_lib.data.frames.log_frame`) with rule badges, newest first, in a
    box of its own height that scrolls (and can be reached by keyboard to scroll it)."""
    return log_table(log_rows(frame), latest_first)


def scores_html(frame: pd.DataFrame) -> str:
    """The scores frame (`penang_lib.data.frames.scores_frame`), winners marked."""

    def cell(column: str, value: Any, row: dict[str, Any]) -> str | None:
        if column == "winner":
            # Words only: a trophy emoji shows as an empty box where no emoji font is installed
            # (Debian's Chromium without fonts-noto-color-emoji, some school machines).
            return "<strong>{}</strong>".format(esc(_("wins"))) if value else ""
        return None

    def row_class(row: dict[str, Any]) -> str:
        return "penang-row-changed" if row["winner"] else ""

    return frame_html(
        frame,
        ["name", "status", "cards_left", "count", "winner"],
        [_("Player"), _("Status"), _("Cards left"), _("Count"), ""],
        cell,
        row_class,
        label=_("scores"),
    )


def events_html(events: Sequence[Event], names: Sequence[str]) -> str:
    """Each event's sentence (the engine's `explain`) after its rule id badge; a joker in it is
    drawn as on the cards (`symbols`)."""
    return "".join(f"<p>{badge(e.rule)}{symbols(explain(e, names))}</p>" for e in events)


def sentence_html(rule: str, sentence: str, ok: bool | None = None) -> str:
    """One engine sentence with its rule badge, green when allowed and red when refused; a
    joker in it is drawn as on the cards (`symbols`)."""
    tone = "" if ok is None else ("penang-good" if ok else "penang-bad")
    return f"<p>{badge(rule, tone)}{symbols(sentence)}</p>"
