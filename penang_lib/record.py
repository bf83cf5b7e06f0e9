"""Deal records: a deal saved as JSON and loaded again by replaying its moves through `push`.

A record holds what makes a deal reproducible (rules, seed, players, dealer, and the hands when the
position was prepared rather than shuffled) plus the moves, each with the seat that made it. For
readers it also carries `initial_hands`, `table`, `final_hands` and `scores` in card notation;
loading checks those against the replay, so a tampered record is refused, never half-loaded.
"""

from __future__ import annotations

import json
from typing import Any

from penang_lib.cards import CardParseError, cards_text, from_counts
from penang_lib.deal import Deal
from penang_lib.moves import IllegalMove, move_from_dict, move_to_dict
from penang_lib.rules import Rules

FORMAT = "penang-rummy/deal"
VERSION = 1


class RecordError(ValueError):
    """A record that does not describe a legal deal; the message names the first problem."""


def to_record(deal: Deal) -> dict[str, Any]:
    """The JSON-ready record of a deal (moves replayed from the start give the same deal)."""
    moves = []
    for move, seat in zip(deal.move_stack, deal.movers, strict=True):
        moves.append({"player": seat, **move_to_dict(move)})
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": deal.rules.as_dict(),
        "seed": deal.seed,
        "players": deal.players,
        "names": list(deal.names),
        "dealer": deal.dealer,
        "prepared": deal.custom,
        "moves": moves,
        "initial_hands": [cards_text(from_counts(h)) for h in deal.initial_hands],
        "table": [
            {"owner": deal.owners[i], "cards": str(meld), "kind": meld.kind.value}
            for i, meld in enumerate(deal.table)
        ],
        "final_hands": [cards_text(deal.hand(p)) for p in range(deal.players)],
        "scores": deal.scores(),
        "winners": deal.winners(),
        "over": deal.is_over,
    }


def dumps(deal: Deal, indent: int | None = 2) -> str:
    """The record of a deal as JSON text."""
    return json.dumps(to_record(deal), indent=indent, ensure_ascii=False)


def from_record(data: dict[str, Any] | str) -> Deal:
    """Rebuild a deal from its record (a dict or JSON text) by replaying every move.

    Raises `RecordError` naming the first bad move and why, or the first field that disagrees.
    """
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as error:
            raise RecordError(f"the record is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    players = _whole(data, "players")
    dealer = _whole(data, "dealer")
    names = data.get("names")
    if names is not None and (
        not isinstance(names, list) or not all(isinstance(n, str) for n in names)
    ):
        raise RecordError("'names' should be a list with one name per player")
    settings = data.get("rules", {})
    if not isinstance(settings, dict):
        raise RecordError("'rules' should be an object of rule settings")
    try:
        rules = Rules.from_dict(dict(settings))
        if data.get("prepared"):
            hands = data.get("initial_hands")
            if not isinstance(hands, list):
                raise RecordError("a prepared deal needs its 'initial_hands' (one text per seat)")
            seed = data.get("seed")
            deal = Deal(
                rules=rules,
                seed=seed if isinstance(seed, int) else None,
                dealer=dealer,
                hands=[str(h) for h in hands],
                names=names,
            )
        else:
            deal = Deal(
                players=players,
                seed=_whole(data, "seed"),
                rules=rules,
                dealer=dealer,
                names=names,
            )
    except (TypeError, ValueError) as error:
        if isinstance(error, RecordError):
            raise
        raise RecordError(f"the record's set-up is not usable: {error}") from None
    if deal.players != players:
        raise RecordError(f"the record says {players} players but holds {deal.players} hands")
    initial = data.get("initial_hands")
    if initial is not None:
        dealt = [cards_text(from_counts(h)) for h in deal.initial_hands]
        if [str(h).upper() for h in initial] != [h.upper() for h in dealt]:
            seat = next(i for i, (a, b) in enumerate(zip(initial, dealt, strict=False)) if a != b)
            raise RecordError(
                f"initial_hands does not match the deal made from the seed (seat {seat} differs)"
            )
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("'moves' should be a list of moves")
    for number, entry in enumerate(moves, start=1):
        if not isinstance(entry, dict):
            raise RecordError(f"move {number} should be an object with a 'type'")
        try:
            move = move_from_dict(entry)
        except KeyError as error:
            raise RecordError(f"move {number} has no {error.args[0]!r}") from None
        except (CardParseError, TypeError) as error:
            raise RecordError(f"move {number} cannot be read: {error}") from None
        mover = entry.get("player")
        if mover is not None and (not isinstance(mover, int) or not 0 <= mover < deal.players):
            raise RecordError(f"move {number} has a player that is not a seat number")
        try:
            deal.push(move, player=mover)
        except IllegalMove as error:
            raise RecordError(
                f"move {number} ({move}) is illegal: {error.reason} (rule {error.rule})"
            ) from None
    for key, now in (
        ("final_hands", [cards_text(deal.hand(p)) for p in range(deal.players)]),
        ("scores", deal.scores()),
        ("table", [str(m) for m in deal.table]),
    ):
        stated = data.get(key)
        if stated is None:
            continue
        if key == "table":
            stated = [str(t.get("cards", "")) if isinstance(t, dict) else str(t) for t in stated]
        if key != "scores":
            stated = [str(s).upper() for s in stated]
            now = [str(s).upper() for s in now]
        if stated != now:
            raise RecordError(f"{key} in the record does not match the replayed moves")
    return deal


def _whole(data: dict[str, Any], key: str) -> int:
    """A whole-number field of the record, or a `RecordError` saying what is wrong with it."""
    if key not in data:
        raise RecordError(f"the record has no {key!r}")
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{key!r} should be a whole number, not {value!r}")
    return value


def loads(text: str) -> Deal:
    """`from_record` on JSON text."""
    return from_record(text)
