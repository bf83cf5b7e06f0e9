"""What makes a puzzle hard: the moves that tempt and fail, and the 1-to-5 rating they give.

A puzzle's difficulty grows with its tempting wrong moves (legal first moves that fail, pairs
and two cards of a run that are no meld, cards of a table run's suit that do not fit it, a
natural offered for a table joker it is not) and with the share of legal moves that fail. The
solvers count them (`near_melds`, `table_misses`) and also quote them in their sentences.

A `strategy` puzzle is rated by how far its best start leads the next best (a small lead is
harder to see) and by how many starts were weighed (`strategy_rating`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from penang_lib.course.puzzles.model import Weighed
from penang_lib.engine.cards import Card, cards_symbols
from penang_lib.engine.deal import Deal
from penang_lib.engine.melds import Kind
from penang_lib.engine.moves import LayOff, Swap
from penang_lib.i18n import _

__all__ = ["LEAD_STEPS", "MANY_STARTS", "near_melds", "rating", "strategy_rating", "table_misses"]

LEAD_STEPS: Final = (40, 20, 10)
"""A `strategy` puzzle is one step harder for each of these leads (in points of the expert's
score) that its best start stays under: a lead of 40 points or more is plain to see, one under
10 points (the least a puzzle has is `weighing.STRATEGY_MARGIN`) is close."""
MANY_STARTS: Final = 5
"""...and one step harder when at least this many starts were weighed."""


def rating(tempting: int, legal: int, answers: int) -> int:
    """1 to 5: one step for each of 2, 5, 10 and 20 `tempting` wrong moves reached, and one
    more when at least four `legal` moves in five are not among the `answers` (at most 5)."""
    steps = sum(tempting >= n for n in (2, 5, 10, 20))
    failing = legal - answers
    if legal >= 5 and failing * 5 >= legal * 4:
        steps += 1
    return min(5, 1 + steps)


def strategy_rating(weighed: Sequence[Weighed]) -> int:
    """1 to 5 for a `strategy` puzzle whose starts were `weighed` (the best first, at least two):
    1, plus one step for each of `LEAD_STEPS` that the best start's lead over the next best
    stays under, plus one when `MANY_STARTS` or more starts were weighed."""
    best, rest = weighed[0], weighed[1:]
    lead = best.score - max(w.score for w in rest)
    steps = sum(lead < step for step in LEAD_STEPS) + (len(weighed) >= MANY_STARTS)
    return min(5, 1 + steps)


def near_melds(hand: Sequence[Card]) -> list[str]:
    """The pairs and the two cards of a run in `hand` that are no meld (a meld needs three), and
    a lone joker, as short phrases."""
    naturals = [c for c in hand if not c.is_joker]
    phrases: list[str] = []
    by_rank: dict[int, list[Card]] = {}
    for card in naturals:
        by_rank.setdefault(card.rank, []).append(card)
    for cards in by_rank.values():
        if len(cards) == 2:
            phrases.append(_("the pair {cards}").format(cards=cards_symbols(cards)))
    by_suit: dict[str, set[int]] = {}
    for card in naturals:
        by_suit.setdefault(card.suit, set()).add(card.rank)
    for suit, ranks in by_suit.items():
        for rank in sorted(ranks):
            if rank + 1 in ranks and rank - 1 not in ranks and rank + 2 not in ranks:
                phrases.append(f"{cards_symbols([Card(rank, suit), Card(rank + 1, suit)])}")
    if any(c.is_joker for c in hand):
        phrases.append(_("a joker"))
    return phrases


def table_misses(deal: Deal) -> list[str]:
    """The engine's refusals for cards that look as if they belong on the table: a card of a
    table run's suit that does not fit it, a natural offered for a table joker it is not."""
    hand = [c for c in deal.hand() if not c.is_joker]
    misses: list[str] = []
    for target, meld in enumerate(deal.table):
        for card in hand:
            if meld.kind is Kind.RUN and card.suit == meld.suit:
                error = deal.explain_illegal(LayOff(target, card))
                if error is not None:
                    misses.append(error.reason)
                    break
        if meld.jokers:
            tries = [c for c in hand if meld.kind is Kind.SET or c.suit == meld.suit]
            error = deal.explain_illegal(Swap(target, tries[0])) if tries else None
            if error is not None:
                misses.append(error.reason)
            elif not tries:
                misses.append(
                    _(
                        "The joker in meld {number} ({meld}) could be swapped only for a card you "
                        "do not hold."
                    ).format(number=target, meld=meld.symbols)
                )
    return misses
