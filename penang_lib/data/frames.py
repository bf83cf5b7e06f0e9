"""A deal as pandas frames: the hands, the table, the move log and the scores (and a match's).

These frames are what every widget and lesson shows; the widgets render them and build no table
of their own. Cards stay `Card` values (a tuple per row), so a frame holds exactly what the engine
says and a renderer decides how cards look. Hidden hands are left out, not masked later: with
`show=[seat]` the other rows carry no cards and no points, only how many cards they hold.

Pure pandas: nothing here imports Jupyter.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from penang_lib.engine.cards import Card
from penang_lib.engine.deal import DEFAULT_NAMES, Deal
from penang_lib.engine.events import Event
from penang_lib.engine.explain import STATUS_WORDS, explain
from penang_lib.engine.match import Match, next_dealer
from penang_lib.engine.rules import DealerSystem
from penang_lib.engine.validate import (
    ArgumentTypeError,
    require_optional_whole,
    require_seats,
    require_whole,
    shown,
)
from penang_lib.i18n import _

if TYPE_CHECKING:
    import pandas as pd

HAND_COLUMNS = ("seat", "name", "status", "to_move", "cards", "card_count", "points", "passport")
TABLE_COLUMNS = ("meld", "owner_seat", "owner", "kind", "cards", "jokers", "description")
LOG_COLUMNS = ("step", "turn", "seat", "player", "move", "rule", "rules", "sentence")
SCORE_COLUMNS = ("seat", "name", "status", "cards_left", "count", "winner")


def _deal(deal: object) -> Deal:
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"deal should be a Deal, not {shown(deal)}")
    return deal


def _match(match: object) -> Match:
    if not isinstance(match, Match):
        raise ArgumentTypeError(f"match should be a Match, not {shown(match)}")
    return match


def _frame(rows: list[dict[str, Any]], columns: Sequence[str]) -> pd.DataFrame:
    import pandas as pd

    frame: pd.DataFrame = pd.DataFrame(rows, columns=list(columns))
    return frame


def hands_frame(deal: Deal, show: Iterable[int] | None = None) -> pd.DataFrame:
    """One row per seat: `seat`, `name`, `status`, `to_move`, `cards` (a tuple of `Card`, in
    display order), `card_count`, `points` (rule `scoring`) and `passport` (made yet?).

    `show` lists the seats whose cards may be seen (default: every seat). For the others
    `cards` is None and `points` is missing: only `card_count` tells how big the hand is.
    """
    _deal(deal)
    seen = (
        set(range(deal.players)) if show is None else set(require_seats(show, "show", deal.players))
    )
    rows = []
    for seat in range(deal.players):
        visible = seat in seen
        rows.append(
            {
                "seat": seat,
                "name": deal.names[seat],
                "status": STATUS_WORDS[deal.status[seat]],
                "to_move": seat == deal.turn and not deal.is_over,
                "cards": tuple(deal.hand(seat)) if visible else None,
                "card_count": deal.hand_size(seat),
                "points": deal.count(seat) if visible else None,
                "passport": deal.passport[seat],
            }
        )
    frame = _frame(rows, HAND_COLUMNS)
    frame["points"] = frame["points"].astype("Int64")
    return frame


def table_frame(deal: Deal) -> pd.DataFrame:
    """One row per meld on the table, in the order laid: `meld` (its number, from 0),
    `owner_seat`, `owner`, `kind` ("run" or "set"), `cards` (jokers carry what they stand for),
    `jokers` (how many) and `description` in words."""
    _deal(deal)
    rows = [
        {
            "meld": i,
            "owner_seat": deal.owners[i],
            "owner": deal.names[deal.owners[i]],
            "kind": meld.kind.value,
            "cards": meld.cards,
            "jokers": meld.jokers,
            "description": meld.description,
        }
        for i, meld in enumerate(deal.table)
    ]
    return _frame(rows, TABLE_COLUMNS)


def move_turns(deal: Deal) -> list[int]:
    """The turn number (from 1) in which each move of `deal.move_stack` was made."""
    _deal(deal)
    turns = []
    turn = 1
    for events in deal.event_stack:
        turns.append(turn)
        if any(e.rule == "turn-order" for e in events):
            turn += 1
    return turns


def log_frame(deal: Deal, steps: int | None = None) -> pd.DataFrame:
    """The move log: one row per move (the first `steps` moves, default all): `step` (from 1),
    `turn`, `seat`, `player`, `move` (its label with suit symbols), `rule` (the id
    of the move's first event), `rules` (every event's id) and `sentence` (what `explain` says of
    its events)."""
    _deal(deal)
    steps = require_optional_whole(steps, "steps", 0)
    count = len(deal.move_stack) if steps is None else min(steps, len(deal.move_stack))
    turns = move_turns(deal)
    rows = []
    for i in range(count):
        events = deal.event_stack[i]
        seat = deal.movers[i]
        rows.append(
            {
                "step": i + 1,
                "turn": turns[i],
                "seat": seat,
                "player": deal.names[seat],
                "move": deal.move_stack[i].label(),
                "rule": events[0].rule if events else "",
                "rules": tuple(e.rule for e in events),
                "sentence": " ".join(explain(e, deal.names) for e in events),
            }
        )
    return _frame(rows, LOG_COLUMNS)


def scores_frame(deal: Deal) -> pd.DataFrame:
    """Each seat's count now: `seat`, `name`, `status`, `cards_left`, `count` (rule `scoring`)
    and `winner` (always False while the deal is being played)."""
    winners = set(_deal(deal).winners)
    rows = [
        {
            "seat": seat,
            "name": deal.names[seat],
            "status": STATUS_WORDS[deal.status[seat]],
            "cards_left": deal.hand_size(seat),
            "count": deal.count(seat),
            "winner": seat in winners,
        }
        for seat in range(deal.players)
    ]
    return _frame(rows, SCORE_COLUMNS)


def match_frame(match: Match) -> pd.DataFrame:
    """A match's score sheet: one row per finished deal with `deal` (from 1), `dealer`, each
    player's count under their name, the `winners`, every player's running total under
    "<name> total" (only with points recorded: otherwise nothing adds up), and `next_dealer`
    with `why` (rule `dealer`, by the match's dealer system)."""
    names = list(match_names(_match(match)))
    recorded = match.points_recorded
    totals = [0] * match.players
    rows: list[dict[str, Any]] = []
    finished = [d for d in match.deals if d.is_over]
    for number, deal in enumerate(finished, start=1):
        scores = deal.scores
        winners = deal.winners
        row: dict[str, Any] = {"deal": number, "dealer": names[deal.dealer]}
        for p, score in enumerate(scores):
            row[names[p]] = score
            totals[p] += score
        row["winners"] = ", ".join(names[w] for w in winners)
        if recorded:
            for p in range(match.players):
                row[f"{names[p]} total"] = totals[p]
        if number < match.length:
            nxt = next_dealer(deal.dealer, scores, winners, match.rules.dealer_system)
            row["next_dealer"] = names[nxt]
            row["why"] = dealer_reason(match, deal, nxt)
        else:
            row["next_dealer"] = ""
            row["why"] = _("The match is over.")
        rows.append(row)
    columns = [
        "deal",
        "dealer",
        *names,
        "winners",
        *(f"{n} total" for n in names if recorded),
        "next_dealer",
        "why",
    ]
    return _frame(rows, columns)


def match_names(match: Match) -> tuple[str, ...]:
    """The players' names in a match (the deals' default names when none were given)."""
    names = _match(match).names
    if names:
        return tuple(names)
    if match.deals:
        return match.deals[0].names
    return DEFAULT_NAMES[: match.players]


def dealer_reason(match: Match, deal: Deal, chosen: int) -> str:
    """Why `chosen` deals after `deal` (rule `dealer`), in one sentence."""
    names = match_names(match)
    if _deal(deal).players != match.players:
        raise ValueError(f"this deal has {deal.players} players, the match {match.players}")
    chosen = require_whole(chosen, "chosen (the next dealer's seat)", 0, match.players - 1)
    who = names[chosen]
    scores = deal.scores
    if match.rules.dealer_system is DealerSystem.WINNER:
        if len(deal.winners) > 1:
            sentence = _(
                "{player} won the last deal, and with points recorded the winner deals; the tie "
                "goes to the tied player nearest clockwise from the last dealer's left."
            )
        else:
            sentence = _("{player} won the last deal, and with points recorded the winner deals.")
    elif scores.count(max(scores)) > 1:
        sentence = _(
            "{player} had the highest count ({count}), and with no points recorded the worst "
            "loser deals; the tie goes to the tied player nearest clockwise from the last "
            "dealer's left."
        )
    else:
        sentence = _(
            "{player} had the highest count ({count}), and with no points recorded the worst "
            "loser deals."
        )
    return sentence.format(player=who, count=scores[chosen])


@dataclass(frozen=True)
class Changes:
    """What one step changed, for a view to highlight (read off the step's events).

    `seat` made the move (None at the deal's start); `left_hand` are the cards that left that
    hand; `taken` the jokers that came into it by a swap; `melds` the table melds laid or
    changed (their numbers); `died` the seats that just became dead; `went_out` the seat that
    called Game, if any; `rules` every rule id the step shows.
    """

    seat: int | None = None
    left_hand: tuple[Card, ...] = ()
    taken: tuple[Card, ...] = ()
    melds: tuple[int, ...] = ()
    died: tuple[int, ...] = ()
    went_out: int | None = None
    rules: tuple[str, ...] = ()


def changes(events: Sequence[Event], seat: int | None = None) -> Changes:
    """The `Changes` of one step from its events (`seat`: who moved)."""
    if isinstance(events, str | bytes) or not isinstance(events, Sequence):
        raise ArgumentTypeError(f"events should be a list of Event values, not {shown(events)}")
    for event in events:
        if not isinstance(event, Event):
            raise ArgumentTypeError(f"events should hold only Event values, not {shown(event)}")
    seat = require_optional_whole(seat, "seat", 0)
    left: list[Card] = []
    taken: list[Card] = []
    melds: list[int] = []
    died: list[int] = []
    went_out = None
    for e in events:
        if e.rule in ("run", "set", "lay-off"):
            left.extend(e.cards)
        elif e.rule == "swap":
            left.append(e.cards[0])
            taken.append(e.cards[1])
        elif e.rule in ("dead", "dead.passport") and e.player is not None:
            died.append(e.player)
        elif e.rule == "game":
            went_out = e.player
        if e.target is not None and e.target not in melds:
            melds.append(e.target)
    return Changes(
        seat=seat,
        left_hand=tuple(left),
        taken=tuple(taken),
        melds=tuple(melds),
        died=tuple(died),
        went_out=went_out,
        rules=tuple(dict.fromkeys(e.rule for e in events)),
    )


def step_changes(deal: Deal, step: int) -> Changes:
    """The `Changes` of move number `step` (from 1) of `deal`; step 0 is the deal itself. A step
    past the last move raises `IndexError`, as a list does."""
    _deal(deal)
    step = require_whole(step, "step")
    if step == 0:
        return changes(deal.start_events)
    if not 1 <= step <= len(deal.move_stack):
        raise IndexError(f"this deal has steps 0 to {len(deal.move_stack)}, not {shown(step)}")
    return changes(deal.event_stack[step - 1], deal.movers[step - 1])
