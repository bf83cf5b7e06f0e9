"""The turn search: every way of playing out one player's turn, for the `game` and `deadwood`
puzzle solvers, for the sentences that show a winning order of moves, and for the bots' search
for a way to go out (`bots.going_out`).

`stuck_card` is the quick test that cuts the search short: a card no order of moves can get out
of the hand. `TurnSearch` remembers each position it has searched and gives up, raising
`SearchTooLarge`, after visiting more positions than its budget (`SEARCH_BUDGET` by default).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Final

from penang_lib.engine.analysis import iter_lay_offs
from penang_lib.engine.cards import Card
from penang_lib.engine.deal import Deal
from penang_lib.engine.melds import Kind, Meld
from penang_lib.engine.moves import LayOff, MeldMove, Move, Swap

__all__ = ["SEARCH_BUDGET", "SearchTooLarge", "TurnSearch", "stuck_card"]

SEARCH_BUDGET: Final = 2000
"""How many positions one turn search may visit before it gives up (the position is then not
proved, so it is no puzzle)."""


class SearchTooLarge(Exception):
    """A turn search visited more positions than its budget allows."""


def _positions(rank: int) -> tuple[int, ...]:
    """The run positions a card of `rank` may take (an ace is low, 1, or high, 14)."""
    return (1, 14) if rank == 1 else (rank,)


def stuck_card(hand: Sequence[Card], table: Sequence[Meld]) -> Card | None:
    """A natural card of `hand` that no order of moves this turn can get out of the hand, or
    None when every card might still go (a quick test that never calls a playable card stuck).

    A card might go when a table set has its rank; a table joker stands for it (a swap); it
    lies beyond the end of a table run of its suit with every card in between in the hand or
    replaceable by a joker; or it can make a meld from the hand with two more cards of its
    rank or two neighbours in its suit, jokers filling in. The jokers counted are those in the
    hand and every joker on the table (a swap may bring any of them in), each counted for every
    card, so the test only ever says too little."""
    jokers = sum(c.is_joker for c in hand) + sum(m.jokers for m in table)
    ranks: Counter[int] = Counter()
    held: dict[str, set[int]] = {}
    for card in hand:
        if not card.is_joker:
            ranks[card.rank] += 1
            held.setdefault(card.suit, set()).update(_positions(card.rank))
    set_ranks = {m.low for m in table if m.kind is Kind.SET}
    stood_for: set[tuple[int, str]] = set()
    for meld in table:
        for card in meld.cards:
            if card.is_joker and card.as_rank is not None:
                stood_for.add((card.as_rank, card.as_suit or ""))
    runs = [m for m in table if m.kind is Kind.RUN]
    for card in hand:
        if card.is_joker or card.rank in set_ranks:
            continue
        if ranks[card.rank] - 1 + jokers >= 2 or (card.rank, "") in stood_for:
            continue
        if (card.rank, card.suit) in stood_for:
            continue
        mine = held.get(card.suit, set())
        if _fits_somewhere(card, mine, jokers, runs):
            continue
        return card
    return None


def _fits_somewhere(card: Card, mine: set[int], jokers: int, runs: Sequence[Meld]) -> bool:
    """Whether `card` could join a run: one of the table's runs of its suit, reached through
    cards of the hand (`mine`: the positions held in that suit) or jokers, or a run of three
    made from the hand."""
    for p in _positions(card.rank):
        for meld in runs:
            if meld.suit != card.suit:
                continue
            if p > meld.high:
                gap = range(meld.high + 1, p)
            elif p < meld.low:
                gap = range(p + 1, meld.low)
            else:
                continue
            if sum(q not in mine for q in gap) <= jokers:
                return True
        for low in range(max(1, p - 2), min(p, 12) + 1):
            others = [q for q in range(low, low + 3) if q != p]
            if sum(q not in mine for q in others) <= jokers:
                return True
    return False


_NEVER: Final = 10**9
"""More points than any hand holds: a turn that cannot end yet."""
_PHASES: Final[dict[type, int]] = {Swap: 0, MeldMove: 1, LayOff: 2}
"""The order the turn search plays moves in: swaps, then melds, then lay-offs."""


class TurnSearch:
    """Every way of playing out one player's turn, remembering each position searched:
    `empties(deal)` says whether the hand can be emptied before the turn ends.

    Only one order of each set of moves is tried: swaps first, then melds, then lay-offs. That
    loses nothing: a swap needs only the natural card in hand and a joker already on the
    table, a meld only cards in hand (lay-offs take cards away, never add them), while a
    lay-off may need a meld made first (to lie on) or another lay-off (to reach its place in
    a run). A joker the player puts on the table and swaps back at once changes nothing."""

    def __init__(
        self, budget: int = SEARCH_BUDGET, hopeless: Callable[[Deal], bool] | None = None
    ) -> None:
        self.budget = budget
        self.hopeless = hopeless
        """A quicker test than `stuck_card` that a position's hand cannot be emptied this turn
        (it must never call a hand hopeless that can be emptied); `empties` asks it first."""
        self.visited = 0
        self.memo: dict[tuple[object, ...], bool] = {}
        self.points: dict[tuple[object, ...], int] = {}

    def _moves(self, deal: Deal, phase: int) -> list[Move]:
        """The moves the search may play next, from `phase` on (0 swaps, 1 melds, 2 lay-offs)."""
        if phase < 2:
            return [m for m in deal.legal_moves if _PHASES.get(m.__class__, -1) >= phase]
        moves: list[Move] = []
        for option in iter_lay_offs(deal.hands[deal.turn], deal.table):
            move = LayOff(option.target, option.card)
            if move not in moves:
                moves.append(move)
        return moves

    def empties(self, deal: Deal, phase: int = 0) -> bool:
        if deal.hand_size(deal.turn) == 0:
            return True
        key = (deal.hands[deal.turn], tuple(deal.table), phase)
        known = self.memo.get(key)
        if known is not None:
            return known
        if (self.hopeless is not None and self.hopeless(deal)) or stuck_card(
            deal.hand(), deal.table
        ) is not None:
            self.memo[key] = False
            return False
        self.visited += 1
        if self.visited > self.budget:
            raise SearchTooLarge
        found = False
        for move in self._moves(deal, phase):
            deal.push(move)
            try:
                found = self.empties(deal, _PHASES[move.__class__])
            finally:
                deal.pop()
            if found:
                break
        self.memo[key] = found
        return found

    def least(self, deal: Deal, phase: int = 0) -> int:
        """The fewest points the player can hold when this turn ends (0 when the hand can be
        emptied): the turn may end once it has had an action."""
        me = deal.turn
        if deal.hand_size(me) == 0:
            return 0
        key = (deal.hands[me], tuple(deal.table), phase, deal.actions > 0)
        known = self.points.get(key)
        if known is not None:
            return known
        self.visited += 1
        if self.visited > self.budget:
            raise SearchTooLarge
        best = deal.count(me) if deal.actions else _NEVER
        for move in self._moves(deal, phase):
            deal.push(move)
            try:
                best = min(best, self.least(deal, _PHASES[move.__class__]))
            finally:
                deal.pop()
            if best == 0:
                break
        self.points[key] = best
        return best

    def line(self, deal: Deal, phase: int = 0) -> list[Move]:
        """One order of moves that empties the hand from `deal` (empty when there is none)."""
        if deal.hand_size(deal.turn) == 0 or not self.empties(deal, phase):
            return []
        for move in self._moves(deal, phase):
            deal.push(move)
            try:
                after = _PHASES[move.__class__]
                if self.empties(deal, after):
                    return [move, *self.line(deal, after)]
            finally:
                deal.pop()
        return []  # pragma: no cover - empties() said a move leads there
