"""Prepared positions: a lesson writes a position as data (card notation), never as code.

A position is an object with `hands` (one card text per seat, required), `dealer` (default the
last seat, so seat 0 plays first), `moves` (move texts, as `parse_move` reads them, played first)
and `names` (the seats' names). The engine deals the hands and plays the moves, so a position
can never be illegal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from penang_lib.engine.cards import CardParseError
from penang_lib.engine.deal import Deal
from penang_lib.engine.moves import IllegalMove, parse_move
from penang_lib.engine.rules import Rules
from penang_lib.engine.validate import shown
from penang_lib.i18n import _

POSITION_KEYS = frozenset({"hands", "dealer", "moves", "names"})
"""What a prepared position may say: `hands` (one card text per seat, required), `dealer`
(default the last seat, so seat 0 plays first), `moves` (move texts played first), `names`."""


def _texts(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(
            _("{what} should be a list of texts, not {value}").format(what=what, value=shown(value))
        )
    return list(value)


def position_deal(position: Mapping[str, Any], rules: Rules | None = None) -> Deal:
    """The deal of a prepared position: the hands dealt, then its moves played through the
        engine (so a position can never be illegal). Bad data raises `ValueError` saying what, in
    words marked for the catalog (a lesson's quiz shows them to its author)."""
    if not isinstance(position, Mapping):
        raise ValueError(
            _("a position is an object with hands, dealer, moves: {value}").format(
                value=shown(position)
            )
        )
    unknown = sorted(set(position) - POSITION_KEYS)
    if unknown:
        allowed = ", ".join(sorted(POSITION_KEYS))
        raise ValueError(
            _("unknown key {key} in position (use {allowed})").format(
                key=shown(unknown[0]), allowed=allowed
            )
        )
    if "hands" not in position:
        raise ValueError(_("position needs hands (one card text per seat)"))
    hands = _texts(position["hands"], "position's hands")
    dealer = position.get("dealer", len(hands) - 1)
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise ValueError(
            _("position's dealer should be a seat number, not {value}").format(value=shown(dealer))
        )
    names = _texts(position["names"], "position's names") if "names" in position else None
    try:
        deal = Deal(hands=hands, dealer=dealer, names=names, rules=rules)
    except CardParseError as error:
        raise ValueError(_("position's hands: {error}").format(error=error)) from error
    except ValueError as error:
        raise ValueError(_("position: {error}").format(error=error)) from error
    for step, text in enumerate(_texts(position.get("moves", []), "position's moves"), 1):
        try:
            deal.push(parse_move(text))
        except IllegalMove as error:
            raise ValueError(
                _("move {step} of the position ({move}) is illegal: {reason}").format(
                    step=step, move=shown(text), reason=error.reason
                )
            ) from error
        except CardParseError as error:
            raise ValueError(
                _("move {step} of the position: {error}").format(step=step, error=error)
            ) from error
    return deal
