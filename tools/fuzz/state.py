"""The fuzz's view of a deal: its state field by field (`DealState`, `snapshot`) and the
rule variant each deal is played under (`Variant`, `variant_for`)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Final

from penang_lib import (
    BOT_NAMES,
    Deal,
    DealerSystem,
    EndCondition,
    Event,
    Meld,
    Phase,
    Rules,
    Status,
)
from penang_lib.data.simulate import deal_seed
from penang_lib.engine.cards import Counts
from penang_lib.engine.moves import Move

DEFAULT_RULES: Final = Rules()


# -- the state of a deal, field by field ---------------------------------------------------------
@dataclass(frozen=True)
class DealState:
    """Everything a `Deal` exposes about itself, frozen, so that two states compare exactly.

    The only thing left out is the memo of what each ply allows (`_action_cache`): filling it is
    not a change of state. `undo` is the length of the deal's undo stack.
    """

    players: int
    seed: object
    dealer: int
    rules: Rules
    names: tuple[str, ...]
    custom: bool
    copies: int
    initial_hands: tuple[Counts, ...]
    stock: Counts
    start_events: tuple[Event, ...]
    hands: tuple[Counts, ...]
    table: tuple[Meld, ...]
    owners: tuple[int, ...]
    passport: tuple[bool, ...]
    status: tuple[Status, ...]
    turns: tuple[int, ...]
    turn: int
    actions: int
    phase: Phase
    move_stack: tuple[Move, ...]
    movers: tuple[int, ...]
    event_stack: tuple[tuple[Event, ...], ...]
    undo: int


def snapshot(deal: Deal) -> DealState:
    """The full state of `deal` now (copies of every list, so later moves do not change it)."""
    return DealState(
        players=deal.players,
        seed=deal.seed,
        dealer=deal.dealer,
        rules=deal.rules,
        names=tuple(deal.names),
        custom=deal.custom,
        copies=deal.copies,
        initial_hands=tuple(deal.initial_hands),
        stock=tuple(deal.stock),
        start_events=tuple(deal.start_events),
        hands=tuple(tuple(h) for h in deal.hands),
        table=tuple(deal.table),
        owners=tuple(deal.owners),
        passport=tuple(deal.passport),
        status=tuple(deal.status),
        turns=tuple(deal.turns),
        turn=deal.turn,
        actions=deal.actions,
        phase=deal.phase,
        move_stack=tuple(deal.move_stack),
        movers=tuple(deal.movers),
        event_stack=tuple(tuple(group) for group in deal.event_stack),
        undo=len(getattr(deal, "_undo", ())),
    )


def state_diff(a: DealState, b: DealState) -> list[str]:
    """The names of the fields in which two states differ."""
    return [f.name for f in fields(DealState) if getattr(a, f.name) != getattr(b, f.name)]


# -- variants ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """The set-up of one fuzzed deal: player count, rules, dealer (None: drawn) and bots."""

    seed: int
    index: int
    deal_seed: int
    players: int
    rules: Rules
    dealer: int | None
    bots: tuple[str, ...]

    def features(self) -> list[str]:
        """Short tags for the figures: which settings this deal varies."""
        r, d = self.rules, DEFAULT_RULES
        tags = [f"jokers={r.jokers}"]
        packs = r.packs_for(self.players)
        if packs != d.packs_for(self.players):
            tags.append(f"packs={packs}")
        if r.hand_size(self.players) != d.hand_size(self.players):
            tags.append("hand size changed")
        if r.values != d.values:
            tags.append("values changed")
        if r.all_joker_melds:
            tags.append("all-joker melds")
        tags.append(f"end={r.end_condition.value}")
        tags.append(f"dealer_system={r.dealer_system.value}")
        tags.append("dealer given" if self.dealer is not None else "dealer drawn")
        return tags

    def describe(self) -> str:
        """One line: players, the settings that differ from the default, dealer and bots."""
        default = DEFAULT_RULES.as_dict()
        settings = [
            f"{k}={v}" for k, v in self.rules.as_dict().items() if k != "values" and v != default[k]
        ]
        if self.rules.values != DEFAULT_RULES.values:
            settings.append("values=" + ",".join(f"{k}:{v}" for k, v in self.rules.values.items()))
        dealer = "drawn" if self.dealer is None else str(self.dealer)
        return (
            f"{self.players} players, rules({', '.join(settings) or 'default'}), "
            f"dealer {dealer}, bots {','.join(self.bots)}"
        )


def variant_for(seed: int, index: int) -> Variant:
    """The variant of deal number `index` of a run seeded `seed` (the same on every call)."""
    rng = random.Random(f"penang-fuzz/{seed}/{index}/variant")
    players = 2 + index % 4
    jokers = rng.choice((6, 6, 6, 8, 8, 8, 0, 1, 3, 12))
    packs = rng.choice((2, 2, 2, 2, 2, 2, 1, 3))
    packs_five = rng.choice((3, 3, 3, 3, 2, 4))
    # Each hand size fits the deck of every player count it is used for.
    deck, deck_five = 52 * packs + jokers, 52 * packs_five + jokers
    limits = {
        "hand_size_two_players": deck // 2,
        "hand_size_small": deck // 3,
        "hand_size_large": min(deck // 4, deck_five // 5),
    }
    sizes = {"hand_size_two_players": 25, "hand_size_small": 25, "hand_size_large": 20}
    changed = rng.random() < 0.3
    for name, limit in limits.items():
        if changed or sizes[name] > limit:
            sizes[name] = rng.randint(3, min(limit, 30))
    values = dict(DEFAULT_RULES.values)
    if rng.random() < 0.3:
        values = {rank: rng.randint(1, 30) for rank in values}
    rules = Rules(
        packs=packs,
        jokers=jokers,
        packs_five_players=packs_five,
        values=values,
        all_joker_melds=rng.random() < 0.3,
        end_condition=rng.choice(list(EndCondition)),
        dealer_system=rng.choice(list(DealerSystem)),
        **sizes,
    )
    dealer = rng.randrange(players) if rng.random() < 0.5 else None
    bots = tuple(rng.choice(BOT_NAMES) for _ in range(players))
    return Variant(seed, index, deal_seed(seed, index), players, rules, dealer, bots)


def new_deal(variant: Variant) -> Deal:
    """A fresh deal of this variant."""
    return Deal(
        players=variant.players, seed=variant.deal_seed, rules=variant.rules, dealer=variant.dealer
    )


def replay(variant: Variant, moves: Iterable[Move]) -> Deal:
    """A fresh deal of this variant with `moves` pushed again."""
    deal = new_deal(variant)
    for move in moves:
        deal.push(move)
    return deal
