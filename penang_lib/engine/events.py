"""What happened: every pushed move produces `Event`s, each naming the rule id it applies."""

from __future__ import annotations

from typing import NamedTuple

from penang_lib.engine.cards import Card
from penang_lib.engine.melds import Meld


class Event(NamedTuple):
    """One thing that happened in a deal, tied to the rule that made it happen.

    `player` is the seat it concerns (None for the whole table), `cards` the cards involved,
    `meld` the table meld after the event and `target` its index, `before` / `after` the
    number of cards in the player's hand around the move. `counts` holds per-seat numbers where
    the rule needs them (the scores for `scoring`), and `detail` a short fact to explain with
    (the joker's card for `swap`, the skipped seats for `turn-order`, ...).

    An immutable named tuple (every move makes one or more, so they are cheap to build): made
    with its fields named (`Event("turn", 2, detail="1")`) and read by name; a field left out
    keeps its default.
    """

    rule: str
    player: int | None = None
    cards: tuple[Card, ...] = ()
    meld: Meld | None = None
    target: int | None = None
    before: int = 0
    after: int = 0
    counts: tuple[int, ...] = ()
    detail: str = ""
