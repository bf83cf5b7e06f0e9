"""`Position`: the little of a deal that the move controls read.

The move controls (`MoveControls`, its `ActionBar`) make moves in a position, but read only its
public table: the melds on it (to list them in the "Meld on table" menu, to count them, to name
the meld a lay-off would make), who laid each one, and the players' names. A `Deal` has all
three, so lesson 8's table and the puzzles hand over their deal as it is; a seat of a table
played by several people has no deal, only the state the table service sent it, and hands over
a plain value built from that state (`together_view.SeatPosition`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from penang_lib.engine.melds import Meld

__all__ = ["Position"]


class Position(Protocol):
    """What the move controls read of the position the learner moves in (a `Deal` is one)."""

    @property
    def table(self) -> Sequence[Meld]:
        """The melds on the table, in the order the engine numbers them."""
        ...

    @property
    def owners(self) -> Sequence[int]:
        """The seat that laid each meld of `table`."""
        ...

    @property
    def names(self) -> Sequence[str]:
        """Each seat's name."""
        ...
