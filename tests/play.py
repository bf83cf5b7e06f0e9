"""Random legal play for tests: finishes a deal with moves drawn from `legal_moves`."""

from __future__ import annotations

import itertools
import random

from penang_lib import Deal, EndTurn

MOVE_SAMPLE = 60
"""Moves looked at per step: a hand with jokers can make thousands of melds."""


def play_randomly(deal: Deal, seed: int, max_moves: int = 2000) -> Deal:
    """Play `deal` to its end with random legal moves (ending the turn half the time it may)."""
    rng = random.Random(seed)
    for _ in range(max_moves):
        if deal.is_over:
            return deal
        moves = list(itertools.islice(deal.legal_moves, MOVE_SAMPLE))
        if EndTurn() in moves and rng.random() < 0.5:
            deal.push(EndTurn())
        else:
            deal.push(rng.choice(moves))
    raise AssertionError(f"deal {deal.seed} did not end within {max_moves} moves")
