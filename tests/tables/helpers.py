"""Shared helpers of the tables' tests: a clock the tests move, and whole deals played."""

from __future__ import annotations

from penang_lib.tables.table import Table


class Clock:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def play_out(table: Table, tokens: dict[int, str], limit: int = 3000) -> int:
    """Play the table's deal to its end: bots by themselves, people by their first legal move
    (from the state the table sends them). The number of moves played."""
    played = 0
    deal = table.deal
    assert deal is not None
    while not deal.is_over:
        assert played < limit, "the deal did not end"
        if table.bot_due() is not None:
            table.play_bot()
        else:
            seat = deal.turn
            state = table.state(seat)
            table.move(tokens[seat], state["legal_moves"][0])
        played += 1
    return played
