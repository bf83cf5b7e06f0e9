"""Deal records: a deal saved as JSON and loaded again by replaying its moves through `push`.

A record holds what makes a deal reproducible (rules, seed, players, dealer, and the hands when the
position was prepared rather than shuffled) plus the moves, each with the seat that made it. For
readers it also carries `initial_hands`, `table`, `final_hands` and `scores` in card notation;
loading checks those against the replay, so a tampered record is refused, never half-loaded.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from penang_lib.engine.cards import cards_of, cards_text
from penang_lib.engine.deal import Deal
from penang_lib.engine.moves import IllegalMove, move_from_dict, move_to_dict
from penang_lib.engine.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from penang_lib.engine.validate import MAX_SEED, ArgumentTypeError, require_whole, shown
from penang_lib.i18n import _

FORMAT = "penang-rummy/deal"
VERSION = 1
MAX_INDENT = 16


class RecordError(ValueError):
    """A record that does not describe a legal deal; the message names the first problem."""


def to_record(deal: Deal) -> dict[str, Any]:
    """The JSON-ready record of a deal (moves replayed from the start give the same deal)."""
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"to_record takes a Deal, not {shown(deal)}")
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
        "initial_hands": [cards_text(cards_of(h)) for h in deal.initial_hands],
        "table": [
            {"owner": deal.owners[i], "cards": str(meld), "kind": meld.kind.value}
            for i, meld in enumerate(deal.table)
        ],
        "final_hands": [cards_text(deal.hand(p)) for p in range(deal.players)],
        "scores": deal.scores,
        "winners": deal.winners,
        "over": deal.is_over,
    }


def dumps(deal: Deal, indent: int | None = 2) -> str:
    """The record of a deal as JSON text (`indent`: spaces per level, 0 to 16, or None for one
    line)."""
    record = to_record(deal)
    if indent is not None:
        indent = require_whole(indent, "indent", 0, MAX_INDENT)
    return json.dumps(record, indent=indent, ensure_ascii=False)


KNOWN_VERSIONS = (1,)
"""The record versions this engine reads."""
MOVE_KEYS = ("type", "cards", "meld", "card")
"""The fields of a recorded move that describe it (besides the mover, `player`)."""


def from_record(data: dict[str, Any] | str) -> Deal:
    """Rebuild a deal from its record (a dict or JSON text) by replaying every move.

    Raises `RecordError` naming the first field that is missing, of the wrong type or out of
    range, the first bad move and why, or the first field that disagrees with the replay. Fields
    the record does not know (notes a tool adds, such as `bots`) are left alone.
    """
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as error:
            raise RecordError(
                _("the record is not valid JSON: {error}").format(error=error)
            ) from None
        except RecursionError:
            raise RecordError(_("the record is not valid JSON: it is nested too deeply")) from None
        if not isinstance(data, dict):
            raise RecordError(_("a record is a JSON object"))
    elif not isinstance(data, Mapping):
        raise ArgumentTypeError(
            f"from_record takes a record (a dict or its JSON text), not {shown(data)}"
        )
    _require_kind(data)
    players = _whole(data, "players", MIN_PLAYERS, MAX_PLAYERS)
    dealer = _whole(data, "dealer", 0, players - 1)
    names = data.get("names")
    if names is not None and (
        not isinstance(names, list) or not all(isinstance(n, str) for n in names)
    ):
        raise RecordError(_("'names' should be a list with one name per player"))
    settings = data.get("rules", {})
    if not isinstance(settings, dict):
        raise RecordError(_("'rules' should be an object of rule settings"))
    prepared = data.get("prepared", False)
    if not isinstance(prepared, bool):
        raise RecordError(
            _("'prepared' should be true or false, not {value}").format(value=shown(prepared))
        )
    initial = _texts(data, "initial_hands", players, required=prepared)
    seed: int | None = None
    if "seed" in data or not prepared:
        seed = _whole(data, "seed", 0, MAX_SEED)
    try:
        rules = Rules.from_dict(dict(settings))
        if prepared:
            assert initial is not None
            deal = Deal(rules=rules, seed=seed, dealer=dealer, hands=initial, names=names)
        else:
            deal = Deal(players=players, seed=seed, rules=rules, dealer=dealer, names=names)
    except (TypeError, ValueError) as error:
        raise RecordError(
            _("the record's set-up is not usable: {error}").format(error=error)
        ) from None
    if deal.players != players:
        raise RecordError(
            _("the record says {players} players but holds {hands} hands").format(
                players=players, hands=deal.players
            )
        )
    if initial is not None:
        dealt = [cards_text(cards_of(h)) for h in deal.initial_hands]
        for seat, (stated, made) in enumerate(zip(initial, dealt, strict=True)):
            if not _same_cards(stated, made):
                raise RecordError(
                    _(
                        "initial_hands does not match the deal made from the seed "
                        "(seat {seat} differs)"
                    ).format(seat=seat)
                )
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError(_("'moves' should be a list of moves"))
    for number, entry in enumerate(moves, start=1):
        _replay(deal, number, entry)
    _require_outcome(data, deal)
    return deal


def _require_kind(data: Mapping[str, Any]) -> None:
    """The record says it is a deal record of a version this engine reads."""
    if "format" not in data:
        raise RecordError(
            _("the record has no 'format': a deal record says {format}").format(format=repr(FORMAT))
        )
    if data["format"] != FORMAT:
        raise RecordError(
            _(
                "this is not a Penang Rummy deal record: its 'format' is {given}, not {format}"
            ).format(given=shown(data["format"]), format=repr(FORMAT))
        )
    version = _whole(data, "version")
    if version not in KNOWN_VERSIONS:
        known = ", ".join(str(v) for v in KNOWN_VERSIONS)
        raise RecordError(
            _(
                "version {version} of the deal record is not known here (this engine reads "
                "version {known})"
            ).format(version=version, known=known)
        )


def _replay(deal: Deal, number: int, entry: object) -> None:
    """Push recorded move number `number` (from 1), or say why it cannot be."""
    if not isinstance(entry, dict):
        raise RecordError(
            _("move {number} should be an object with a 'type'").format(number=number)
        )
    try:
        move = move_from_dict({k: v for k, v in entry.items() if k in MOVE_KEYS})
    except (TypeError, ValueError) as error:
        raise RecordError(
            _("move {number} cannot be read: {error}").format(number=number, error=error)
        ) from None
    mover = entry.get("player")
    if mover is not None and (mover.__class__ is not int or not 0 <= mover < deal.players):
        raise RecordError(
            _("move {number} has a player that is not a seat number: {player}").format(
                number=number, player=shown(mover)
            )
        )
    try:
        deal.push(move, player=mover)
    except IllegalMove as error:
        raise RecordError(
            _("move {number} ({move}) is illegal: {reason} (rule {rule})").format(
                number=number, move=move, reason=error.reason, rule=error.rule
            )
        ) from None


def _require_outcome(data: Mapping[str, Any], deal: Deal) -> None:
    """The fields written for readers agree with the replayed deal."""
    players = deal.players
    final = _texts(data, "final_hands", players)
    if final is not None:
        now = [cards_text(deal.hand(p)) for p in range(players)]
        if any(not _same_cards(a, b) for a, b in zip(final, now, strict=True)):
            raise RecordError(_("final_hands in the record does not match the replayed moves"))
    table = data.get("table")
    if table is not None:
        if not isinstance(table, list):
            raise RecordError(_("'table' should be a list of the melds on the table"))
        if len(table) != len(deal.table):
            raise RecordError(_("table in the record does not match the replayed moves"))
        for i, (stated, meld) in enumerate(zip(table, deal.table, strict=True)):
            if not isinstance(stated, dict) or not isinstance(stated.get("cards"), str):
                raise RecordError(
                    _("meld {meld} of 'table' should be an object with its 'cards'").format(meld=i)
                )
            owner = stated.get("owner", deal.owners[i])
            kind = stated.get("kind", meld.kind.value)
            if (
                not _same_cards(stated["cards"], str(meld))
                or owner != deal.owners[i]
                or owner.__class__ is not int
                or kind != meld.kind.value
            ):
                raise RecordError(_("table in the record does not match the replayed moves"))
    for key, now_numbers in (("scores", deal.scores), ("winners", deal.winners)):
        stated = data.get(key)
        if stated is None:
            continue
        if not isinstance(stated, list) or any(n.__class__ is not int for n in stated):
            raise RecordError(
                _("{field} should be a list of whole numbers").format(field=repr(key))
            )
        if stated != now_numbers:
            raise RecordError(
                _("{field} in the record does not match the replayed moves").format(field=key)
            )
    over = data.get("over")
    if over is not None:
        if not isinstance(over, bool):
            raise RecordError(
                _("'over' should be true or false, not {value}").format(value=shown(over))
            )
        if over != deal.is_over:
            raise RecordError(_("over in the record does not match the replayed moves"))


def _same_cards(a: str, b: str) -> bool:
    """Whether two card texts name the same cards (case aside, as they were written)."""
    return a.upper().split() == b.upper().split()


def _texts(
    data: Mapping[str, Any], key: str, players: int, required: bool = False
) -> list[str] | None:
    """A field holding one card text per player (None when absent and not required)."""
    if key not in data or data[key] is None:
        if required:
            raise RecordError(
                _("a prepared deal needs its {field} (one text per seat)").format(field=repr(key))
            )
        return None
    value = data[key]
    if not isinstance(value, list) or not all(isinstance(h, str) for h in value):
        raise RecordError(
            _("{field} should be a list with one card text per seat").format(field=repr(key))
        )
    if len(value) != players:
        raise RecordError(
            _("{field} should hold {players} hands, one per seat, not {count}").format(
                field=repr(key), players=players, count=len(value)
            )
        )
    return value


def _whole(
    data: Mapping[str, Any], key: str, low: int | None = None, high: int | None = None
) -> int:
    """A whole-number field of the record, or a `RecordError` saying what is wrong with it."""
    if key not in data:
        raise RecordError(_("the record has no {field}").format(field=repr(key)))
    value = data[key]
    if value.__class__ is not int:
        raise RecordError(
            _("{field} should be a whole number, not {value}").format(
                field=repr(key), value=shown(value)
            )
        )
    if (low is not None and value < low) or (high is not None and value > high):
        raise RecordError(
            _("{field} should be from {low} to {high}, not {value}").format(
                field=repr(key), low=low, high=high, value=shown(value)
            )
        )
    number: int = value
    return number


def loads(text: str) -> Deal:
    """`from_record` on JSON text."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"loads reads a record's JSON text, not {shown(text)}")
    return from_record(text)
