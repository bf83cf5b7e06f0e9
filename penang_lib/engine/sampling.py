"""Deals that agree with what one seat knows: the other hands drawn at random from the unseen cards.

A bot that searches (the expert) cannot look at the real deal: it gets a `PlayerView`. To look
ahead it plays on *determinizations*: deals in which its own hand, the table, every hand's size,
the passports, who is dead or out, whose turn it is and the actions made this turn are exactly
as the view says, and the cards it cannot see (the deck less its hand and the table) are shared
at random among the other hands and the cards put aside.

`unseen(view)` counts those cards; `sample_deal(view, rng)` draws one such deal;
`deal_at(view, hands, stock)` builds the deal for given hidden hands (the real ones give back the
real position: tests/engine/test_sampling.py checks it with `==`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from penang_lib.engine.cards import JOKER_INDEX, Counts
from penang_lib.engine.deal import Deal, Phase
from penang_lib.engine.fast.meld_count import HandFacts
from penang_lib.engine.fast.table_index import table_info
from penang_lib.engine.validate import ArgumentTypeError, shown
from penang_lib.engine.view import PlayerView

__all__ = ["deal_at", "sample_deal", "unseen"]

_SIZE = JOKER_INDEX + 1


def unseen(view: PlayerView) -> Counts:
    """The cards the view's seat cannot see, as a count vector: the deck less its own hand and
    the table's cards (a joker on the table counts as a joker, whatever it stands for)."""
    counts = [view.copies] * JOKER_INDEX + [view.rules.jokers]
    for i, n in enumerate(view.counts):
        counts[i] -= n
    for meld in view.table:
        for card in meld.cards:
            counts[card.index] -= 1
    if min(counts) < 0:  # cannot happen for a view of a real deal
        raise ValueError("the view holds more copies of a card than the deck has")
    return tuple(counts)


def _require_view(view: object) -> PlayerView:
    if not isinstance(view, PlayerView):
        raise ArgumentTypeError(f"a deal is sampled from a PlayerView, not {shown(view)}")
    if view.over:
        raise ValueError("the deal is over: there is nothing left to sample")
    return view


def deal_at(view: PlayerView, hands: Sequence[Counts], stock: Counts) -> Deal:
    """The deal in the view's position with `hands` (a count vector per seat; the view's own
    seat must hold the view's hand) and `stock` (the cards put aside). It has no history: its
    `move_stack` starts here, and `root()` is this position."""
    view = _require_view(view)
    players = view.players
    if len(hands) != players or any(len(h) != _SIZE for h in hands) or len(stock) != _SIZE:
        raise ValueError("give one count vector of 53 numbers per seat, and one for the stock")
    if tuple(hands[view.seat]) != view.counts:
        raise ValueError("the view's own seat must hold the view's own hand")
    if any(sum(h) != size for h, size in zip(hands, view.hand_sizes, strict=True)):
        raise ValueError("each hand must hold as many cards as the view says")
    rules = view.rules
    deal = Deal.__new__(Deal)
    deal.rules = rules
    deal.players = players
    deal.seed = 0
    deal.copies = view.copies
    deal.dealer = (view.seat - 1) % players  # unknown to the seat, and no rule of play reads it
    deal.custom = True
    deal.names = view.names
    deal.initial_hands = tuple(tuple(h) for h in hands)
    deal.stock = tuple(stock)
    deal.hands = list(deal.initial_hands)
    deal._sizes = [sum(h) for h in deal.hands]
    deal._facts = [HandFacts(h, rules.all_joker_melds) for h in deal.hands]
    deal.table = list(view.table)
    deal.table_infos = [table_info(meld) for meld in view.table]
    deal.owners = list(view.owners)
    deal.passport = list(view.passports)
    deal.status = list(view.status)
    deal.turns = list(view.turns)
    deal.turn = view.seat
    deal.actions = view.actions
    deal.phase = Phase.PLAYING
    deal.move_stack = []
    deal.movers = []
    deal.event_stack = []
    deal._undo = []
    deal._action_cache = {}
    deal._turn_number = view.turn_number
    deal.start_events = ()
    return deal


def sample_deal(view: PlayerView, rng: random.Random) -> Deal:
    """A deal in the view's position whose hidden cards (the other hands and the stock) are a
    uniformly random share of `unseen(view)`, drawn with `rng`."""
    view = _require_view(view)
    if not isinstance(rng, random.Random):
        raise ArgumentTypeError(f"rng should be a random.Random, not {shown(rng)}")
    pool = [i for i, n in enumerate(unseen(view)) for _copy in range(n)]
    rng.shuffle(pool)
    hands: list[Counts] = []
    start = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(view.counts)
            continue
        counts = [0] * _SIZE
        for i in pool[start : start + size]:
            counts[i] += 1
        start += size
        hands.append(tuple(counts))
    stock = [0] * _SIZE
    for i in pool[start:]:
        stock[i] += 1
    return deal_at(view, hands, tuple(stock))
