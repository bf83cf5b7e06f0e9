"""Shared by the whole suite: `prepared`, a deal set up from card text (positions are data)."""

from __future__ import annotations

from collections.abc import Sequence

from penang_lib import Deal, Rules, parse_move


def prepared(
    *hands: str,
    moves: Sequence[str] = (),
    dealer: int | None = None,
    rules: Rules | None = None,
    names: list[str] | None = None,
) -> Deal:
    """A deal from card text, one hand per seat, with `moves` (move texts) already played. By
    default the last seat deals, so seat 0 (the dealer's left) moves first."""
    deal = Deal(
        hands=list(hands),
        dealer=len(hands) - 1 if dealer is None else dealer,
        rules=rules,
        names=names,
    )
    for text in moves:
        deal.push(parse_move(text))
    return deal
