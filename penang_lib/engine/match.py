"""A match: several deals played one after another (rules `dealer` and `scoring`).

The first dealer is drawn at random. After each deal the next dealer is, by `Rules.dealer_system`,
the winner of the last deal (points recorded, the default) or its worst loser (the highest count).
A tie goes to the tied player nearest clockwise from the previous dealer's left.

How the match is decided follows the same choice. With points recorded each deal's counts are
written down and add up, and the lowest total after the agreed number of deals wins the match.
With no points recorded nothing is written down: each deal is won on its own (the lowest count
of that deal), a count only decides who deals next (the worst loser), and there is no total and
no match winner (`totals` and `winners` are empty; `deal_winners` says who won each deal).

Bots play a match with `play_next(bots)` (the next deal, to its end) or `play_rest(bots)` (every
deal left); the bots of each deal are seeded from the deal's seed, so one seed gives one match.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final

from penang_lib.engine.bots import bot_names, play_move, seat_bots
from penang_lib.engine.deal import Deal, require_names
from penang_lib.engine.rules import MAX_PLAYERS, MIN_PLAYERS, DealerSystem, Rules
from penang_lib.engine.validate import (
    ArgumentTypeError,
    require_seats,
    require_seed,
    require_whole,
    shown,
)

MAX_DEALS: Final = 1000
"""The longest match that may be agreed."""


def next_dealer(
    previous: int, scores: Sequence[int], winners: Sequence[int], system: DealerSystem
) -> int:
    """Who deals next (rule `dealer`), given the last deal's dealer, counts and winners."""
    if isinstance(scores, str | bytes) or not isinstance(scores, Sequence):
        raise ArgumentTypeError(
            f"scores should be a list of counts, one per player, not {shown(scores)}"
        )
    players = require_whole(len(scores), "the number of scores", MIN_PLAYERS, MAX_PLAYERS)
    for score in scores:
        require_whole(score, "a score", 0)
    previous = require_whole(previous, "previous (the last dealer's seat)", 0, players - 1)
    chosen = require_seats(winners, "winners", players)
    if not isinstance(system, DealerSystem):
        raise ArgumentTypeError(f"system should be a DealerSystem, not {shown(system)}")
    if system is DealerSystem.WINNER and not chosen:
        raise ValueError("with points recorded the winner deals next: name at least one winner")
    winners = chosen
    if system is DealerSystem.WINNER:
        candidates = set(winners)
    else:
        worst = max(scores)
        candidates = {p for p in range(players) if scores[p] == worst}
    for step in range(1, players + 1):
        seat = (previous + step) % players
        if seat in candidates:
            return seat
    raise ValueError("no player qualifies to deal next")


class Match:
    """Deals played one after another. With points recorded `totals` add up each player's
    counts and the lowest total wins; with no points recorded each deal is won on its own."""

    def __init__(
        self,
        players: int = 4,
        deals: int = 4,
        seed: int | None = None,
        rules: Rules | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        self.rules = Rules.of(rules)
        players = require_whole(players, "players")
        self.rules.require_deal(players)
        deals = require_whole(deals, "deals")
        if deals < 1:
            raise ValueError("a match has at least one deal")
        if deals > MAX_DEALS:
            raise ValueError(f"a match has at most {MAX_DEALS} deals, not {deals}")
        self.players = players
        self.length = deals
        chosen = require_seed(seed)
        self.seed: int = random.randrange(2**32) if chosen is None else chosen
        self._rng = random.Random(self.seed)
        named = require_names(names, players)
        self.names: Sequence[str] | None = list(named) if named is not None else None
        self.deals: list[Deal] = []
        self.dealer = self._rng.randrange(players)

    def new_deal(self) -> Deal:
        """Start the next deal (the previous one must be over), dealt by the right dealer."""
        if self.deals:
            last = self.deals[-1]
            if not last.is_over:
                raise ValueError("the current deal is not over yet")
            if len(self.deals) >= self.length:
                raise ValueError(f"the match was agreed at {self.length} deals")
            self.dealer = next_dealer(
                last.dealer, last.scores, last.winners, self.rules.dealer_system
            )
        deal = Deal(
            players=self.players,
            seed=self._rng.randrange(2**32),
            rules=self.rules,
            dealer=self.dealer,
            names=self.names,
        )
        self.deals.append(deal)
        return deal

    def play_next(self, bots: str | Iterable[str] | None = None) -> Deal | None:
        """Bots play the next deal to its end, and return it (None once the match is over).

        `bots` (a comma-separated text or a list, cycled to the seats as `bot_names` reads them;
        the default bots when None) sit one per seat, each seeded from the deal's seed and its
        seat (`seat_bots`), so the same match seed gives the same deals and the same play.
        """
        names = bot_names(bots, self.players)
        if self.is_over:
            return None
        deal = self.new_deal()
        seats = seat_bots(names, deal.seed)
        while not deal.is_over:
            play_move(deal, seats[deal.turn])
        return deal

    def play_rest(self, bots: str | Iterable[str] | None = None) -> list[Deal]:
        """Bots play every deal left in the match (see `play_next`); returns the deals played."""
        names = bot_names(bots, self.players)
        played = []
        while (deal := self.play_next(names)) is not None:
            played.append(deal)
        return played

    @property
    def points_recorded(self) -> bool:
        """Whether the counts are written down and add up (the dealer system `WINNER`); with
        no points recorded (`WORST_LOSER`) there are no totals and no match winner."""
        return self.rules.dealer_system is DealerSystem.WINNER

    @property
    def deal_winners(self) -> list[list[int]]:
        """Who won each finished deal (the lowest count of that deal; a tie shares it)."""
        return [list(deal.winners) for deal in self.deals if deal.is_over]

    @property
    def totals(self) -> list[int]:
        """Each player's counts added over the finished deals, when points are recorded; empty
        when they are not (nothing is written down, so there is no total to keep)."""
        if not self.points_recorded:
            return []
        totals = [0] * self.players
        for deal in self.deals:
            if deal.is_over:
                for p, score in enumerate(deal.scores):
                    totals[p] += score
        return totals

    @property
    def is_over(self) -> bool:
        return len(self.deals) == self.length and self.deals[-1].is_over

    @property
    def winners(self) -> list[int]:
        """The lowest total after the agreed number of deals (empty until then). With no points
        recorded there is no match winner, so this stays empty: see `deal_winners`."""
        if not self.is_over or not self.points_recorded:
            return []
        totals = self.totals
        best = min(totals)
        return [p for p in range(self.players) if totals[p] == best]
