"""What the "Play together" page draws from a table's state: plain functions, no widgets.

The table service (docs/TABLES.md) sends each seat a `state`, with everything the rules decide
already decided by the engine: each table meld with its reading (`melds`), the seat's forced move
(`forced_move`), the counts of the hands the seat may see (`hand_points`). The functions here turn
that state into what the learner reads: who sits where (`seats_html`), whose turn it is
(`turn_sentence`), what to do now (`next_words`), the last events (`events_html`), the hands and
the table as lesson 8's frames shape them (`hands_frame`, `table_frame`), the counts of a deal
that is over (`scores_html`) and the link to review it (`review_html`), and the links to share the
table or come back to the seat (`links_html`). `PlayTogether` (`together`) shows them.

They read; they decide nothing about the rules, and they add no card that the state does not
hold (before the deal is over, the state holds no other seat's card).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlencode

import pandas as pd

from penang_lib.course.review.codec import encode, link_for
from penang_lib.data.frames import HAND_COLUMNS, SCORE_COLUMNS, TABLE_COLUMNS
from penang_lib.engine.cards import Card, CardParseError, parse_cards
from penang_lib.engine.deal import Status
from penang_lib.engine.explain import STATUS_WORDS
from penang_lib.engine.melds import Meld
from penang_lib.engine.moves import DeclareDead, DeclareGame, Move, parse_move
from penang_lib.engine.record import RecordError, from_record
from penang_lib.i18n import N_, _, ngettext
from penang_lib.tables.address import hub_redirect
from penang_lib.tables.table import meld_of_state
from penang_lib.widgets import render
from penang_lib.widgets.controls import Control, label
from penang_lib.widgets.links import page_link
from penang_lib.widgets.play_parts import paragraph
from penang_lib.widgets.render import esc

__all__ = [
    "BOT_WORDS",
    "PAGE",
    "REVIEW_STAND_IN",
    "SeatPosition",
    "bot_words",
    "events_html",
    "forced_of",
    "hands_frame",
    "links_html",
    "next_words",
    "review_html",
    "scores_html",
    "seat_names",
    "seats_html",
    "table_frame",
    "turn_sentence",
    "who_sits",
]

State = Mapping[str, Any]
"""A `state` message of the table service, as the page received it."""

PAGE: Final = "12_play_together.ipynb"
"""The page the widget lives on: its links (to share, to come back) lead there."""

BOT_WORDS: Final[dict[str, str]] = {
    "careful": N_("careful bot (the default)"),
    "greedy": N_("greedy bot"),
    "random": N_("random bot"),
    "expert": N_("expert bot"),
}
"""The bot menu's choices, by bot name, in the menu's order (the service's default first)."""

REVIEW_STAND_IN: Final = "careful"
"""The bot a review lets play a person's seat when it plays a turn on (the review's bots)."""


@dataclass(frozen=True)
class SeatPosition:
    """The public part of the table a seat's moves are made in, as its state says: the melds
    (the engine's own, rebuilt from their readings), who laid each, and the seats' names. It is
    the `Position` the move controls read; a seat of a shared table has no `Deal` to hand them."""

    table: tuple[Meld, ...] = ()
    owners: tuple[int, ...] = ()
    names: tuple[str, ...] = ()

    @classmethod
    def of(cls, state: State) -> SeatPosition:
        melds = state.get("melds") or []
        return cls(
            tuple(meld_of_state(m) for m in melds),
            tuple(int(m["owner"]) for m in melds),
            tuple(seat_names(state)),
        )


def forced_of(state: State) -> Move | None:
    """The seat's forced move (Dead or Game) when the table says there is one."""
    text = state.get("forced_move")
    if not isinstance(text, str):
        return None
    try:
        return parse_move(text)
    except (CardParseError, ValueError):
        return None


def seat_names(state: State) -> list[str]:
    """Each seat's name; an empty seat is named by its number."""
    return [
        name if isinstance(name, str) else _("seat {number}").format(number=p + 1)
        for p, name in enumerate(state.get("names", []))
    ]


def bot_words(name: object) -> str:
    """A bot's name as the page says it ("greedy bot")."""
    words = BOT_WORDS.get(str(name))
    return _(words) if words is not None and name != "careful" else _("careful bot")


def who_sits(seat: Mapping[str, Any], mine: bool) -> str:
    """Who plays one seat, in words."""
    kind = seat.get("kind")
    if kind == "empty":
        return _("empty: a bot takes it when the table starts")
    if kind == "bot":
        return bot_words(seat.get("bot"))
    name = str(seat.get("name"))
    if seat.get("standing_in"):  # the table's stand-in is always the careful bot
        return _("a careful bot plays for {name} until they come back").format(name=name)
    if not seat.get("connected"):
        return _("waiting for {name}").format(name=name)
    return _("you, here") if mine else _("a person, here")


def seats_html(state: State, seat: int | None) -> str:
    """Who sits where: each seat's number, name and who plays it (names escaped)."""
    rows = []
    for p, s in enumerate(state.get("seats", [])):
        name = s.get("name")
        shown_name = esc(name) if isinstance(name, str) else "—"
        mark = "▶ " if state.get("turn") == p else ""
        who = esc(who_sits(s, p == seat))
        cells = (str(p + 1), mark + shown_name, who)
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in (_("Seat"), _("Name"), _("Who")))
    name = esc(_("seats"))
    return (
        f'<table class="penang-frame" aria-label="{name}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def turn_sentence(state: State, seat: int | None) -> str:
    """Whose turn it is (or what the table waits for)."""
    names = seat_names(state)
    if not state.get("started"):
        if seat == 0:
            return _("Press {start} when everyone is here: a bot takes each empty seat.").format(
                start=label(Control.START_TABLE)
            )
        return _("Waiting for {name} to start the table.").format(name=names[0])
    if state.get("over"):
        return _("The deal is over.")
    turn = state.get("turn")
    if turn == seat:
        return _("▶ It is your turn.")
    if isinstance(turn, int) and 0 <= turn < len(names):
        return _("It is {name}'s turn.").format(name=names[turn])
    return ""


def next_words(state: State, seat: int | None) -> str:
    """What the learner can do now, naming the buttons by their labels."""
    if not state.get("started") or seat is None:
        return ""
    if state.get("over"):
        return _("Every hand is shown. Click {button} to play the next deal.").format(
            button=label(Control.DEAL_AGAIN)
        )
    if state.get("turn") != seat:
        status = state.get("status", [])
        if seat < len(status) and status[seat] != Status.ALIVE.value:
            return _("You are out of this deal: the others play it to the end.")
        return _("The others' moves appear here as they are played.")
    forced = forced_of(state)
    if forced == DeclareDead():
        return _("You can make no meld and no lay-off: click {button}.").format(
            button=label(Control.DEAD)
        )
    if forced == DeclareGame():
        return _("Your hand is empty: click {button}.").format(button=label(Control.GAME))
    if state.get("actions"):
        return _("Your turn: play more, or click {button}.").format(button=label(Control.END_TURN))
    return _(
        "Your turn: select cards and click {meld}, or choose a meld on the table and {lay_off} "
        "or {swap} one card."
    ).format(meld=label(Control.MELD), lay_off=label(Control.LAY_OFF), swap=label(Control.SWAP))


def events_html(events: Sequence[Mapping[str, Any]]) -> str:
    """The last events' sentences (the engine's), each after its rule id, the newest last."""
    return "".join(
        f"<p>{render.badge(str(e.get('rule', '')))}{render.symbols(str(e.get('text', '')))}</p>"
        for e in events
    )


def _status(value: object) -> str:
    try:
        return _(STATUS_WORDS[Status(value)])
    except ValueError:
        return ""


def hands_frame(state: State, seat: int | None) -> pd.DataFrame:
    """The hands as `frames.hands_frame` shapes them: this seat's cards, the others' only as
    sizes until the deal is over (then the state holds every hand); each hand's count as the
    table worked it out (`hand_points`), where the seat may see it."""
    over = bool(state.get("over"))
    names = seat_names(state)
    points = state.get("hand_points") or []
    rows = []
    for p, size in enumerate(state.get("hand_sizes", [])):
        cards: tuple[Card, ...] | None = None
        if over:
            cards = tuple(parse_cards(" ".join(state["hands"][p])))
        elif p == seat:
            cards = tuple(parse_cards(" ".join(state.get("hand", []))))
        rows.append(
            {
                "seat": p,
                "name": names[p],
                "status": _status(state["status"][p]),
                "to_move": state.get("turn") == p,
                "cards": cards,
                "card_count": size,
                "points": points[p] if cards is not None and p < len(points) else None,
                "passport": bool(state["passport"][p]),
            }
        )
    frame: pd.DataFrame = pd.DataFrame(rows, columns=list(HAND_COLUMNS))
    frame["points"] = frame["points"].astype("Int64")
    return frame


def table_frame(position: SeatPosition) -> pd.DataFrame:
    """The table's melds as `frames.table_frame` shapes them."""
    rows = [
        {
            "meld": i,
            "owner_seat": owner,
            "owner": position.names[owner],
            "kind": meld.kind.value,
            "cards": meld.cards,
            "jokers": meld.jokers,
            "description": meld.description,
        }
        for i, (meld, owner) in enumerate(zip(position.table, position.owners, strict=True))
    ]
    frame: pd.DataFrame = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
    return frame


def scores_html(state: State) -> str:
    """The counts of a deal that is over, the winner in a sentence, and the match's totals."""
    names = seat_names(state)
    winners = [int(w) for w in state.get("winners", [])]
    rows = [
        {
            "seat": p,
            "name": names[p],
            "status": _status(state["status"][p]),
            "cards_left": len(state["hands"][p]),
            "count": score,
            "winner": p in winners,
        }
        for p, score in enumerate(state.get("scores", []))
    ]
    counts = render.scores_html(pd.DataFrame(rows, columns=list(SCORE_COLUMNS)))
    who = ", ".join(names[w] for w in winners)
    won = ngettext("{names} wins the deal.", "{names} share the win.", len(winners))
    totals = state.get("totals") or []
    match = ""
    if totals:
        each = ", ".join(
            _("{name}: {total}").format(name=names[p], total=t) for p, t in enumerate(totals)
        )
        match = paragraph(_("The match so far (lowest total wins): {totals}.").format(totals=each))
    return paragraph(won.format(names=who)) + counts + match


def review_html(state: State, seat: int | None) -> str:
    """The link to lesson 8's review of a finished deal from `seat` (a seat's own: a spectator
    gets none), or "" when the state holds no deal that replays. A person's seat counts as the
    careful bot where the review plays a turn on, and is named among the review's `people`, so
    that no bot's reason is put in a person's mouth."""
    record = state.get("record")
    if seat is None or not isinstance(record, dict):
        return ""
    try:
        deal = from_record(record)
    except (RecordError, TypeError, ValueError):
        return ""
    seats = state.get("seats") or []
    bots, people = [], []
    for step in range(1, deal.players):
        place = (seat + step) % deal.players
        other = seats[place] if len(seats) == deal.players else {}
        named = other.get("bot") if other.get("kind") == "bot" else None
        bots.append(str(named) if named in BOT_WORDS else REVIEW_STAND_IN)
        if other.get("kind") == "person":
            people.append(place)
    link = link_for(encode(deal, seat, bots, people))
    if link is None:
        return paragraph(_("This deal is too long for a review link."))
    words = _("Review this deal from your seat")
    return f"<p>{page_link(link, words)}</p>"


def links_html(code: str, token: str) -> str:
    """The table's code and the link to share it, then the learner's own link (with the seat's
    token) to come back; on a JupyterHub both lead through the hub, to the same page of whoever
    opens them."""
    share = f"{PAGE}?{urlencode({'table': code})}"
    own = f"{PAGE}?{urlencode({'table': code, 'token': token})}"
    share, own = (hub_redirect(share) or share), (hub_redirect(own) or own)
    said = _("Table code: {code}. Give it to the others, or this link:").format(code=code)
    keep = _("Your own link (keep it to come back; do not share it):")
    yours = page_link(own, _("your seat"))
    return f"<p>{esc(said)} {page_link(share)}</p><p>{esc(keep)} {yours}</p>"
