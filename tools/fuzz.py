"""Engine fuzzing: many seeded bot deals with illegal and garbage moves tried in between.

Run with `python -m tools.fuzz [--deals N] [--seed S] [--jobs J]` from the repository root.
Deal number i of a run seeded S is the same whatever `--jobs` is, so `--deal i` plays just that
one again. The command prints the figures and every finding (grouped, with a short reproducer)
and exits 1 when there are findings, 0 otherwise.

Each deal gets its own player count (2 to 5, in turn) and rule variant picked from the seed:
jokers, packs, hand sizes, card values, the all-joker and end-condition house rules, the dealer
system, a given or drawn dealer, and a bot per seat. Before most bot moves a few tries are pushed:

- illegal but well-formed moves: random melds from the hand, melds and lay-offs of cards the
  player does not hold (another seat's, say), too few cards, melds of jokers only, lay-offs and
  swaps on random or non-existent meld numbers, jokers with random notes, a joker offered in a
  swap, `end_turn` before any action, `game` with cards in hand, `dead` when a play exists, the
  bot's own move for another seat, and moves after the deal is over;
- garbage: values that are not moves, melds holding `None`, text or numbers instead of cards,
  lay-offs and swaps on text, float, bool, `None`, negative or huge meld numbers, the player
  argument as text, float, bool or an unknown seat, and move text for `parse_move` (digits of
  other scripts, signs, decimals, unknown cards, missing or extra parts);
- now and then an entry of `legal_moves`, which must be accepted.

The contract for malformed input (the shared brief of issue 8) is what a try is judged by: a
well-formed move the rules forbid is refused with `IllegalMove` naming a rule of the rule book;
a value of the wrong type with a `TypeError` that the engine raises itself (not one from deep
inside, such as a failed comparison); text that cannot be read with `CardParseError`; and the
deal is unchanged, compared field by field (`snapshot`). A well-formed try that turns out legal
is pushed, checked and taken back.

At the end of each deal: every card dealt is in a hand or on the table, every table meld is
legal (checked by hand here and by the engine's own reading), the statuses, the way the deal
ended, the scores and the winners agree with the hands and the rule book, the record replays to
the same state (`loads(dumps(deal))`: `to_record` as JSON, replayed by `from_record`), and
`pop()` walks back to the start, matching the state recorded at every ply and then a fresh deal
with the same seed.
"""

from __future__ import annotations

import argparse
import json
import linecache
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, fields
from itertools import islice
from typing import Any, Final

from penang_lib import (
    BOT_NAMES,
    JOKER,
    RULE_BOOK,
    Card,
    CardParseError,
    Deal,
    DealerSystem,
    DeclareDead,
    DeclareGame,
    EndCondition,
    EndTurn,
    Event,
    IllegalMove,
    Kind,
    LayOff,
    Meld,
    MeldMove,
    Phase,
    PlayerView,
    Rules,
    Status,
    Swap,
    dumps,
    full_deck,
    loads,
    make_bot,
    parse_move,
    to_record,
)
from penang_lib.data.simulate import deal_seed
from penang_lib.engine.bots import Bot
from penang_lib.engine.cards import JOKER_INDEX, SUITS, Counts, rank_text, to_counts
from penang_lib.engine.checks import table_readings
from penang_lib.engine.moves import Move

MAX_MOVES: Final = 20_000
"""A deal longer than this is a finding (the same bound as `simulate`)."""
TRY_RATE: Final = 0.6
"""Share of the bot moves that get tries pushed before them."""
MAX_TRIES: Final = 3
"""At most this many tries before one bot move."""
LISTED_RATE: Final = 0.2
"""Share of those moves that also get one entry of `legal_moves` pushed and taken back."""
LISTED_SAMPLE: Final = 40
"""How many entries of `legal_moves` to choose from (a hand with jokers has thousands)."""
GARBAGE_SHARE: Final = 0.4
"""Share of the tries that are garbage (the rest are illegal but well-formed moves)."""
EXAMPLES: Final = 3
"""Findings kept per signature (all of them are counted)."""
CHUNK: Final = 25
"""Deals per job handed to a worker process."""
REPRODUCE_BUDGET: Final = 20_000
"""Pushes the reproducer search may spend per finding looking for a shorter move prefix."""

DEFAULT_RULES: Final = Rules()

ALLOWED_ERRORS: Final = (IllegalMove, TypeError, CardParseError)
"""What a refused push may raise (the shared contract); anything else is a finding."""


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


# -- garbage helpers -----------------------------------------------------------------------------
class FakeMove:
    """Looks like a move (a `type` and some cards) but is not one of the engine's moves."""

    type = "end_turn"
    cards: tuple[Card, ...] = ()
    target = 0
    card = JOKER

    def __repr__(self) -> str:
        return "FakeMove()"


def raw_move(cls: type, **values: object) -> object:
    """An instance of move class `cls` with the given fields, built without running its
    constructor (so a check there cannot stop the garbage before it reaches `push`)."""
    move: object = object.__new__(cls)
    for name, value in values.items():
        object.__setattr__(move, name, value)
    return move


def render(value: object) -> str:
    """Python source that builds `value` again (for reproducers), using penang_lib's names and
    `FakeMove` / `raw_move` from this module."""
    if isinstance(value, Card):
        return f"Card.parse({str(value)!r})"
    if isinstance(value, MeldMove) and isinstance(value.cards, tuple):
        return f"MeldMove({render(value.cards)})"
    if isinstance(value, MeldMove):
        return f"raw_move(MeldMove, cards={render(value.cards)})"
    if isinstance(value, LayOff | Swap):
        return f"{type(value).__name__}({render(value.target)}, {render(value.card)})"
    if isinstance(value, EndTurn | DeclareDead | DeclareGame):
        return f"{type(value).__name__}()"
    if isinstance(value, tuple):
        inner = ", ".join(render(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(render(v) for v in value) + "]"
    if isinstance(value, FakeMove):
        return "FakeMove()"
    if isinstance(value, type):
        return value.__name__
    if value is None or isinstance(value, int | float | str | bytes | dict):
        return repr(value)
    if type(value) is object:
        return "object()"
    raise ValueError(f"no source form for {value!r}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def well_formed(move: object) -> bool:
    """Whether `move` is one of the engine's moves with every field of the right type (its
    legality aside): then a refusal must be `IllegalMove`, else `TypeError`."""
    if isinstance(move, EndTurn | DeclareDead | DeclareGame):
        return True
    if isinstance(move, MeldMove):
        cards = getattr(move, "cards", None)
        return isinstance(cards, tuple) and all(isinstance(c, Card) for c in cards)
    if isinstance(move, LayOff | Swap):
        return _is_int(getattr(move, "target", None)) and isinstance(
            getattr(move, "card", None), Card
        )
    return False


def seat_type_ok(player: object) -> bool:
    """Whether a `player` argument has the right type (None or a whole number, not a bool)."""
    return player is None or _is_int(player)


def _innermost(error: BaseException) -> tuple[str, int]:
    """The file and line where `error` was raised (the innermost frame of its traceback)."""
    tb = error.__traceback__
    if tb is None:
        return "?", 0
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_filename, tb.tb_lineno


def deliberate(error: BaseException) -> bool:
    """Whether the engine raised `error` itself (a `raise` statement), rather than Python raising
    it from deep inside (a comparison of a text with a number, a missing attribute, ...)."""
    if isinstance(error, IllegalMove | CardParseError):
        return True
    filename, line = _innermost(error)
    return linecache.getline(filename, line).lstrip().startswith("raise")


def where(error: BaseException) -> str:
    """The innermost place `error` came from, as `file:line` (for grouping findings)."""
    filename, line = _innermost(error)
    return f"{os.path.basename(filename)}:{line}"


# -- tries ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Try:
    """One move tried in between the legal ones.

    `make` builds the move through the ordinary constructors (it may raise); `raw` builds the
    same garbage without them, and is pushed when a constructor fails the wrong way. `code` and
    `raw_code` are their Python source; `must_refuse` says the rules forbid it for sure (a
    garbage value must always be refused).
    """

    group: str
    label: str
    make: Callable[[], object]
    code: str
    must_refuse: bool = True
    raw: Callable[[], object] | None = None
    raw_code: str = ""
    player: object = None
    with_player: bool = False
    must_accept: bool = False
    """A move `legal_moves` listed: a refusal is a finding."""
    make_must_fail: bool = False
    """Move text that `parse_move` must refuse with `CardParseError`."""


def _const(value: object) -> Callable[[], object]:
    return lambda: value


def well_formed_try(
    label: str, move: object, must: bool, player: object = None, given: bool = False
) -> Try:
    """A try of a well-formed move (`must`: the rules forbid it for sure); `player` is passed
    to `push` when `given`."""
    return Try("illegal", label, _const(move), render(move), must, None, "", player, given)


class _TryMaker:
    """Builds tries for the position a deal is in, with the bot's coming move at hand."""

    def __init__(self, deal: Deal, rng: random.Random, bot_move: Move) -> None:
        self.deal = deal
        self.rng = rng
        self.bot_move = bot_move
        self.me = deal.turn
        self.counts = deal.hands[self.me]
        self.hand = deal.hand()
        self.naturals = [c for c in self.hand if not c.is_joker]
        self.table = len(deal.table)
        self.passport = deal.passport[self.me]

    # -- helpers
    def missing(self) -> Card | None:
        """A natural card the player does not hold (None if they hold one of every card)."""
        absent = [i for i in range(52) if self.counts[i] == 0]
        return Card.from_index(self.rng.choice(absent)) if absent else None

    def sample(self, low: int, high: int) -> list[Card]:
        if not self.hand:
            return []
        k = self.rng.randint(min(low, len(self.hand)), min(high, len(self.hand)))
        return self.rng.sample(self.hand, k)

    def held(self, cards: Sequence[Card]) -> bool:
        return all(n <= self.counts[i] for i, n in Counter(c.index for c in cards).items())

    def target_in(self) -> int:
        return self.rng.randrange(self.table) if self.table else 0

    def target_out(self) -> int:
        return self.rng.choice(
            (
                self.table + self.rng.randint(0, 3),
                -self.rng.randint(1, 5),
                10 ** self.rng.randint(3, 30),
                -(10 ** self.rng.randint(3, 30)),
            )
        )

    def note(self) -> Card:
        rank = self.rng.randint(1, 13)
        return Card.joker(rank, self.rng.choice((*SUITS, None)))

    def any_card(self) -> Card:
        return self.rng.choice(self.hand) if self.hand else Card.from_index(self.rng.randrange(53))

    # -- illegal but well-formed
    def illegal(self) -> Try:
        makers: list[Callable[[], Try | None]] = [
            self.meld_random,
            self.meld_not_held,
            self.meld_short,
            self.meld_other_seat,
            self.meld_changed,
            self.meld_joker_note,
            self.meld_of_jokers,
            self.lay_off_random,
            self.lay_off_far,
            self.lay_off_not_held,
            self.lay_off_joker_note,
            self.swap_random,
            self.swap_far,
            self.swap_joker,
            self.end_turn_early,
            self.game_with_cards,
            self.dead_while_able,
            self.other_seat,
        ]
        while True:
            made = self.rng.choice(makers)()
            if made is not None:
                return made

    def meld_random(self) -> Try | None:
        cards = self.sample(3, 6)
        return well_formed_try("meld of random hand cards", MeldMove(tuple(cards)), False)

    def meld_not_held(self) -> Try | None:
        card = self.missing()
        if card is None:
            return None
        cards = [*self.sample(2, 4), card]
        return well_formed_try("meld with a card not held", MeldMove(tuple(cards)), True)

    def meld_short(self) -> Try | None:
        return well_formed_try(
            "meld of fewer than three cards", MeldMove(tuple(self.sample(0, 2))), True
        )

    def meld_other_seat(self) -> Try | None:
        others = [p for p in range(self.deal.players) if p != self.me and self.deal.hand_size(p)]
        if not others:
            return None
        theirs = self.deal.hand(self.rng.choice(others))
        cards = self.rng.sample(theirs, self.rng.randint(1, min(5, len(theirs))))
        must = not self.held(cards) or len(cards) < 3
        return well_formed_try("meld of another seat's cards", MeldMove(tuple(cards)), must)

    def meld_changed(self) -> Try | None:
        base = list(self.bot_move.cards) if isinstance(self.bot_move, MeldMove) else []
        if not base:
            base = self.sample(3, 4)
        if self.rng.random() < 0.5:
            extra = self.missing() if self.rng.random() < 0.5 else self.any_card()
            if extra is None:
                return None
            cards = [*base, extra]
        else:
            if len(base) < 1:
                return None
            cards = list(base)
            cards.pop(self.rng.randrange(len(cards)))
        must = not self.held([c.plain for c in cards]) or len(cards) < 3
        return well_formed_try(
            "a legal meld with a card added or dropped", MeldMove(tuple(cards)), must
        )

    def meld_joker_note(self) -> Try | None:
        if not self.naturals:
            return None
        first = self.rng.choice(self.naturals)
        same = [c for c in self.naturals if c.suit == first.suit and c is not first]
        second = self.rng.choice(same or self.naturals)
        cards = (first, second, self.note())
        must = not self.held([first, second, JOKER])
        return well_formed_try("meld with a joker noted at random", MeldMove(cards), must)

    def meld_of_jokers(self) -> Try | None:
        jokers = self.counts[JOKER_INDEX]
        if jokers < 3:
            return None
        k = self.rng.randint(3, min(jokers, 6))
        rank, suit = self.rng.randint(1, 13), self.rng.choice(SUITS)
        shape = self.rng.choice(("set", "run", "random", "plain"))
        if shape == "set":
            cards = [Card.joker(rank)] * k
        elif shape == "run":
            low = self.rng.randint(1, 15 - k)
            cards = [Card.joker(1 if p == 14 else p, suit) for p in range(low, low + k)]
        elif shape == "random":
            cards = [self.note() for _ in range(k)]
        else:
            cards = [JOKER] * k
        must = not self.deal.rules.all_joker_melds or shape == "plain"
        return well_formed_try("meld of jokers only", MeldMove(tuple(cards)), must)

    def lay_off_random(self) -> Try | None:
        must = not self.passport or not self.table
        return well_formed_try(
            "lay-off of a hand card", LayOff(self.target_in(), self.any_card()), must
        )

    def lay_off_far(self) -> Try | None:
        move = LayOff(self.target_out(), self.any_card())
        return well_formed_try("lay-off on a meld number not on the table", move, True)

    def lay_off_not_held(self) -> Try | None:
        card = self.missing()
        if card is None:
            return None
        return well_formed_try("lay-off of a card not held", LayOff(self.target_in(), card), True)

    def lay_off_joker_note(self) -> Try | None:
        must = not self.passport or not self.table or not self.counts[JOKER_INDEX]
        move = LayOff(self.target_in(), self.note())
        return well_formed_try("lay-off of a joker noted at random", move, must)

    def swap_random(self) -> Try | None:
        card = self.rng.choice(self.naturals) if self.naturals else self.missing()
        if card is None:
            return None
        must = not self.passport or not self.table or not self.held([card])
        return well_formed_try("swap of a natural card", Swap(self.target_in(), card), must)

    def swap_far(self) -> Try | None:
        card = self.rng.choice(self.naturals) if self.naturals else Card.parse("5H")
        return well_formed_try(
            "swap on a meld number not on the table", Swap(self.target_out(), card), True
        )

    def swap_joker(self) -> Try | None:
        card = self.rng.choice((JOKER, self.note()))
        return well_formed_try("swap offering a joker", Swap(self.target_in(), card), True)

    def end_turn_early(self) -> Try | None:
        if self.deal.actions:
            return None
        return well_formed_try("end_turn before any action", EndTurn(), True)

    def game_with_cards(self) -> Try | None:
        if not self.hand:
            return None
        return well_formed_try("game with cards in hand", DeclareGame(), True)

    def dead_while_able(self) -> Try | None:
        if isinstance(self.bot_move, DeclareDead):
            return None
        return well_formed_try("dead when a play exists", DeclareDead(), True)

    def other_seat(self) -> Try | None:
        others = [p for p in range(self.deal.players) if p != self.me]
        seat = self.rng.choice(others)
        return well_formed_try("the coming move for another seat", self.bot_move, True, seat, True)

    # -- legal
    def listed(self) -> Try:
        """One of the first entries of `legal_moves`, which must be accepted."""
        moves = list(islice(self.deal.legal_moves, LISTED_SAMPLE))
        if not moves:
            return well_formed_try("nothing listed although the deal is on", EndTurn(), False)
        move = self.rng.choice(moves)
        return Try(
            "listed",
            "an entry of legal_moves",
            _const(move),
            render(move),
            False,
            must_accept=True,
        )

    # -- garbage
    def garbage(self) -> Try:
        makers: list[Callable[[], Try | None]] = [
            self.not_a_move,
            self.meld_bad_card,
            self.meld_bad_cards,
            self.lay_off_bad_target,
            self.lay_off_bad_card,
            self.swap_bad_target,
            self.swap_bad_card,
            self.bad_player,
            self.move_text,
        ]
        while True:
            made = self.rng.choice(makers)()
            if made is not None:
                return made

    def not_a_move(self) -> Try | None:
        value = self.rng.choice(
            (
                None,
                str(self.bot_move),
                "end_turn",
                "",
                0,
                3,
                -1,
                2.5,
                True,
                False,
                b"dead",
                [],
                [self.bot_move],
                (self.bot_move,),
                {"type": "end_turn"},
                object(),
                EndTurn,
                MeldMove,
                self.any_card(),
                FakeMove(),
            )
        )
        return Try("garbage", "a value that is not a move", _const(value), render(value))

    def _bad_card(self) -> object:
        card = self.any_card()
        return self.rng.choice(
            (None, str(card), card.rank, float(card.rank), True, (card.rank, card.suit), object())
        )

    def _meld_try(self, label: str, cards: object) -> Try:
        code = f"MeldMove({render(cards)})"
        raw_code = f"raw_move(MeldMove, cards={render(cards)})"

        def make() -> object:
            return MeldMove(cards)  # type: ignore[arg-type]

        def raw() -> object:
            return raw_move(MeldMove, cards=cards)

        return Try("garbage", label, make, code, True, raw, raw_code)

    def meld_bad_card(self) -> Try | None:
        base = list(self.bot_move.cards) if isinstance(self.bot_move, MeldMove) else []
        if not base:
            base = self.sample(3, 4) or [Card.parse("5H"), Card.parse("6H"), Card.parse("7H")]
        cards: list[object] = list(base)
        cards[self.rng.randrange(len(cards))] = self._bad_card()
        return self._meld_try("meld holding a value that is not a card", tuple(cards))

    def meld_bad_cards(self) -> Try | None:
        base = self.sample(3, 4) or [Card.parse("5H"), Card.parse("6H"), Card.parse("7H")]
        text = " ".join(str(c) for c in base)
        cards = self.rng.choice((None, text, 7, True, base[0], 3.0))
        return self._meld_try("meld whose cards are not a list of cards", cards)

    def _table_try(
        self, label: str, cls: type[LayOff] | type[Swap], target: object, card: object
    ) -> Try:
        name = cls.__name__
        code = f"{name}({render(target)}, {render(card)})"
        raw_code = f"raw_move({name}, target={render(target)}, card={render(card)})"

        def make() -> object:
            return cls(target, card)  # type: ignore[arg-type]

        def raw() -> object:
            return raw_move(cls, target=target, card=card)

        return Try("garbage", label, make, code, True, raw, raw_code)

    def _bad_target(self, target: int) -> object:
        return self.rng.choice(
            (
                str(target),
                f" {target}",
                float(target),
                True,
                False,
                None,
                [target],
                -1,
                -(10**20),
                10**20,
                "\u0663",
            )
        )

    def _table_move(self, cls: type[LayOff] | type[Swap]) -> tuple[int, Card]:
        if isinstance(self.bot_move, cls):
            return self.bot_move.target, self.bot_move.card
        card = self.any_card()
        if cls is Swap and self.naturals:
            card = self.rng.choice(self.naturals)
        return self.target_in(), card

    def lay_off_bad_target(self) -> Try | None:
        target, card = self._table_move(LayOff)
        bad = self._bad_target(target)
        return self._table_try("lay-off on a bad meld number", LayOff, bad, card)

    def lay_off_bad_card(self) -> Try | None:
        target, _ = self._table_move(LayOff)
        return self._table_try(
            "lay-off of a value that is not a card", LayOff, target, self._bad_card()
        )

    def swap_bad_target(self) -> Try | None:
        target, card = self._table_move(Swap)
        bad = self._bad_target(target)
        return self._table_try("swap on a bad meld number", Swap, bad, card)

    def swap_bad_card(self) -> Try | None:
        target, _ = self._table_move(Swap)
        return self._table_try("swap of a value that is not a card", Swap, target, self._bad_card())

    def move_text(self) -> Try | None:
        """Move text for `parse_move`: some readable (then pushed), some not (digits of other
        scripts, signs, decimals, unknown cards and words, missing or extra parts)."""
        card, target = self.any_card(), self.target_in()
        readable = [
            str(self.bot_move),
            str(self.bot_move).upper(),
            f"lay-off {target} {card}",
            "meld",  # a meld of no cards: readable, and refused by push
        ]
        numbers = ("\u0663", "\u00b2", "\uff11", "-1", "+1", "1.0", "0x1", "1_0", "1e3")
        unreadable = [f"lay_off {n} {card}" for n in numbers] + [
            f"swap {self.rng.choice(numbers)} {card}",
            f"meld {card} {card} XX",
            f"meld {card} 1H {card}",
            f"swap {target}",
            f"lay_off {target} {card} {card}",
            "end_turn now",
            "pass",
            "",
            "   ",
        ]
        text = self.rng.choice(readable + unreadable)
        return Try(
            "garbage",
            "move text",
            lambda: parse_move(text),
            f"parse_move({text!r})",
            False,
            make_must_fail=text not in readable,
        )

    def bad_player(self) -> Try | None:
        me = self.me
        player = self.rng.choice(
            (str(me), float(me), True, False, [me], 99, -1, self.deal.players, 10**20)
        )
        move = self.bot_move
        group = "illegal" if _is_int(player) else "garbage"
        return Try(
            group,
            "the coming move with a bad player argument",
            _const(move),
            render(move),
            True,
            None,
            "",
            player,
            True,
        )


# -- findings and the report -------------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    """Something the engine got wrong, with what is needed to reproduce it.

    `kind` says what went wrong (see `KINDS`), `label` which try or check, `detail` how, in one
    line. `prefix` holds the moves (text form) pushed before the try; `code` is the try's Python
    source (empty for a check at the end of a deal).
    """

    kind: str
    label: str
    detail: str
    signature: str
    seed: int
    index: int
    deal_seed: int
    players: int
    dealer: int
    rules: dict[str, Any]
    variant: str
    prefix: tuple[str, ...] = ()
    code: str = ""
    player_code: str = ""


KINDS: Final = {
    "escaped": "a refused move raised an error outside the contract (not IllegalMove, TypeError "
    "or CardParseError)",
    "internal": "a TypeError that Python raised from deep inside, not one the engine raised itself",
    "wrong-error": "refused with an error of the contract, but not the one the contract names",
    "message": "an IllegalMove that names no rule of the rule book, or says nothing",
    "changed": "a refused move changed the deal",
    "accepted": "a move that must be refused was accepted",
    "construct": "building a move (a constructor or parse_move) failed with an error outside "
    "the contract",
    "consistency": "is_legal disagrees with push",
    "pop": "pop() did not restore the state",
    "bot": "a bot failed, or its move was refused",
    "ply": "a move changed what it should not have",
    "conservation": "cards were lost or duplicated",
    "table": "an illegal meld lies on the table",
    "end": "the deal ended wrongly, or statuses disagree with the hands",
    "scores": "the scores disagree with the hands",
    "winners": "the winners disagree with the scores",
    "record": "the record does not replay to the same deal",
    "endless": "the deal did not end",
}
"""What each kind of finding means."""


@dataclass
class FuzzReport:
    """The figures of a fuzz run and its findings (the first few of each signature)."""

    deals: int = 0
    players: Counter[int] = field(default_factory=Counter)
    features: Counter[str] = field(default_factory=Counter)
    bots: Counter[str] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)
    legal_moves: int = 0
    illegal_tries: int = 0
    illegal_legal: int = 0
    """Well-formed tries that were legal after all (pushed, checked and taken back)."""
    garbage_tries: int = 0
    listed_tries: int = 0
    """Moves taken from `legal_moves` (not the bot's view), pushed, checked and taken back."""
    refused_at_constructor: int = 0
    """Garbage tries that a move's constructor refused (with TypeError or ValueError)."""
    replays: int = 0
    pop_walks: int = 0
    finding_counts: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    jobs: int = 1
    seed: int = 0

    @property
    def total_findings(self) -> int:
        return sum(self.finding_counts.values())

    @property
    def ok(self) -> bool:
        return self.total_findings == 0

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds else 0.0

    def add(self, finding: Finding) -> None:
        self.finding_counts[finding.signature] += 1
        if self.finding_counts[finding.signature] <= EXAMPLES:
            self.findings.append(finding)

    def merge(self, other: FuzzReport) -> None:
        """Add another report's figures and findings (keeping the first few per signature)."""
        self.deals += other.deals
        self.players.update(other.players)
        self.features.update(other.features)
        self.bots.update(other.bots)
        self.endings.update(other.endings)
        self.legal_moves += other.legal_moves
        self.illegal_tries += other.illegal_tries
        self.illegal_legal += other.illegal_legal
        self.garbage_tries += other.garbage_tries
        self.listed_tries += other.listed_tries
        self.refused_at_constructor += other.refused_at_constructor
        self.replays += other.replays
        self.pop_walks += other.pop_walks
        self.finding_counts.update(other.finding_counts)
        kept: Counter[str] = Counter()
        findings = []
        for finding in sorted([*self.findings, *other.findings], key=lambda f: f.index):
            kept[finding.signature] += 1
            if kept[finding.signature] <= EXAMPLES:
                findings.append(finding)
        self.findings = findings

    def groups(self) -> list[tuple[str, int, Finding]]:
        """Each signature with its count and first example, the most frequent first."""
        first: dict[str, Finding] = {}
        for finding in self.findings:
            first.setdefault(finding.signature, finding)
        return sorted(
            ((sig, n, first[sig]) for sig, n in self.finding_counts.items() if sig in first),
            key=lambda item: (-item[1], item[2].index, item[0]),
        )

    def figures(self) -> str:
        """The figures of the run, a few lines of text."""
        n = max(self.deals, 1)
        players = "  ".join(f"{p}: {c:,}" for p, c in sorted(self.players.items()))
        features = ", ".join(f"{k} {v:,}" for k, v in sorted(self.features.items()))
        bots = ", ".join(f"{k} {v:,}" for k, v in sorted(self.bots.items()))
        endings = ", ".join(f"{k} {v:,}" for k, v in sorted(self.endings.items()))
        lines = [
            f"deals: {self.deals:,} (seed {self.seed}, {self.jobs} job{'s' * (self.jobs != 1)}) "
            f"in {self.seconds:.1f} s: {self.deals_per_second:.1f} deals/s",
            f"players: {players}",
            f"variants (deals): {features}",
            f"bots (seats): {bots}",
            f"deals ended: {endings}",
            f"legal moves: {self.legal_moves:,} ({self.legal_moves / n:.1f} per deal)",
            f"illegal tries: {self.illegal_tries:,} ({self.illegal_legal:,} of them legal after "
            "all: pushed, checked and taken back)",
            f"garbage tries: {self.garbage_tries:,} "
            f"({self.refused_at_constructor:,} refused by a move's constructor)",
            f"legal_moves entries pushed and taken back: {self.listed_tries:,}",
            f"end checks: {self.deals:,} deals, {self.replays:,} records replayed, "
            f"{self.pop_walks:,} pop walks to the start",
            f"findings: {self.total_findings:,} ({len(self.finding_counts)} distinct)",
        ]
        return "\n".join(lines)

    def findings_text(self, reproduce: bool = True) -> str:
        """Every group of findings with its first example and a reproducer."""
        out = []
        for signature, count, example in self.groups():
            out.append(f"[{count:,}x] {example.kind}: {example.label}")
            out.append(f"    {example.detail}")
            out.append(f"    signature: {signature}")
            out.append(
                f"    first in deal {example.index} (deal seed {example.deal_seed}): "
                f"{example.variant}"
            )
            if reproduce:
                for line in reproducer(example).splitlines():
                    out.append(f"    | {line}")
        return "\n".join(out)


# -- one deal ------------------------------------------------------------------------------------
class FuzzRun:
    """One fuzzed deal in progress: the deal, its variant and the report it adds to."""

    def __init__(self, variant: Variant, report: FuzzReport) -> None:
        self.variant = variant
        self.report = report
        self.deal = new_deal(variant)
        self.moves: list[Move] = []

    def finding(
        self,
        kind: str,
        label: str,
        detail: str,
        key: str = "",
        code: str = "",
        player_code: str = "",
    ) -> None:
        """Count a finding; keep it whole only while its signature has few examples."""
        signature = f"{kind} | {label} | {key}" if key else f"{kind} | {label}"
        report = self.report
        report.finding_counts[signature] += 1
        if report.finding_counts[signature] > EXAMPLES:
            return
        v = self.variant
        report.findings.append(
            Finding(
                kind=kind,
                label=label,
                detail=detail[:300],
                signature=signature,
                seed=v.seed,
                index=v.index,
                deal_seed=v.deal_seed,
                players=v.players,
                dealer=self.deal.dealer,
                rules=v.rules.as_dict(),
                variant=v.describe(),
                prefix=tuple(str(m) for m in self.moves) if code else (),
                code=code,
                player_code=player_code,
            )
        )

    def rebuild(self, before: DealState, why: str) -> bool:
        """Replay the deal's moves after a try broke it; False when even that differs."""
        try:
            self.deal = replay(self.variant, self.moves)
        except Exception as error:
            self.finding("pop", "replay after a broken try", f"{why}; replay raised {error!r}")
            return False
        if snapshot(self.deal) != before:
            diff = state_diff(snapshot(self.deal), before)
            self.finding("pop", "replay after a broken try", f"{why}; replay differs in {diff}")
            return False
        return True


def outcome(deal: Deal, move: object, player: object, with_player: bool) -> BaseException | None:
    """Push `move` (with `player` when given); the error it raised, or None when accepted."""
    try:
        if with_player:
            deal.push(move, player=player)  # type: ignore[arg-type]
        else:
            deal.push(move)  # type: ignore[arg-type]
    except Exception as error:
        return error
    return None


def judge_refusal(error: BaseException, garbage: bool) -> tuple[str, str, str] | None:
    """What is wrong with a refusal (kind, detail, grouping key), or None when it keeps the
    contract."""
    name = type(error).__name__
    if not isinstance(error, ALLOWED_ERRORS):
        return "escaped", f"{name}: {error}", f"{name} at {where(error)}"
    if not deliberate(error):
        return "internal", f"{name} from deep inside: {error}", f"{name} at {where(error)}"
    want = TypeError if garbage else IllegalMove
    if not isinstance(error, want):
        got = f"{name}({getattr(error, 'rule', '')})" if isinstance(error, IllegalMove) else name
        return (
            "wrong-error",
            f"expected {want.__name__}, got {got}: {error}",
            f"{name} instead of {want.__name__}",
        )
    if isinstance(error, IllegalMove):
        if error.rule not in RULE_BOOK:
            return "message", f"rule {error.rule!r} is not in the rule book", f"rule {error.rule}"
        if not isinstance(error.reason, str) or not error.reason.strip():
            return "message", "the reason is empty", "empty reason"
    elif not str(error).strip():
        return "message", f"{name} with an empty message", "empty message"
    return None


def run_try(run: FuzzRun, attempt: Try, before: DealState) -> bool:
    """Push one try and judge it; False when the deal could not be put back as it was."""
    report = run.report
    if attempt.group == "garbage":
        report.garbage_tries += 1
    elif attempt.group == "listed":
        report.listed_tries += 1
    else:
        report.illegal_tries += 1
    code = attempt.code
    player_code = render(attempt.player) if attempt.with_player else ""

    def note(kind: str, detail: str, key: str = "") -> None:
        shown = f"push({code}, player={player_code})" if player_code else f"push({code})"
        run.finding(kind, attempt.label, f"{shown}: {detail}", key, code, player_code)

    try:
        move = attempt.make()
    except Exception as error:
        if isinstance(error, TypeError | ValueError) and deliberate(error):
            report.refused_at_constructor += 1
            return True
        name = type(error).__name__
        run.finding(
            "construct",
            attempt.label,
            f"{code} raised {name}: {error}",
            f"{name} at {where(error)}",
            code=code,
        )
        if attempt.raw is None:
            return True
        move, code = attempt.raw(), attempt.raw_code
    else:
        if attempt.make_must_fail:
            run.finding(
                "accepted",
                attempt.label,
                f"{code} read the text as {move!r}, though it is not a move",
                code=code,
            )
            code = render(move)
    deal = run.deal
    garbage = not well_formed(move) or (attempt.with_player and not seat_type_ok(attempt.player))
    must = (attempt.must_refuse and not attempt.make_must_fail) or garbage
    legal: bool | None = None
    if not garbage:
        try:
            if attempt.with_player:
                legal = deal.is_legal(move, player=attempt.player)  # type: ignore[arg-type]
            else:
                legal = deal.is_legal(move)  # type: ignore[arg-type]
        except Exception as error:
            name = type(error).__name__
            note("consistency", f"is_legal raised {name}: {error}", f"is_legal {name}")
    refusal = outcome(deal, move, attempt.player, attempt.with_player)
    if refusal is not None:
        problem = judge_refusal(refusal, garbage)
        if problem is not None:
            note(problem[0], problem[1], problem[2])
        if legal:
            note("consistency", f"is_legal said yes, push refused: {refusal}", "legal, refused")
        if attempt.must_accept:
            note("consistency", f"legal_moves lists it, push refused: {refusal}", "listed")
        after = snapshot(deal)
        if after != before:
            diff = state_diff(after, before)
            note("changed", f"refused ({refusal!r}) but changed {diff}", ",".join(diff))
            return run.rebuild(before, "a refused try changed the deal")
        return True
    if must:
        note("accepted", f"accepted ({'garbage' if garbage else 'the rules forbid it'})")
    elif legal is False:
        note("consistency", "is_legal said no, push accepted", "illegal, accepted")
    else:
        if attempt.group == "illegal":
            report.illegal_legal += 1
        _check_table(run, deal, f"after the legal try {code}")
        problem_text = _conservation_problem(deal)
        if problem_text:
            note("conservation", problem_text)
    try:
        deal.pop()
    except Exception as error:
        note("pop", f"pop after it raised {error!r}")
        return run.rebuild(before, "pop failed")
    diff = state_diff(snapshot(deal), before)
    if diff:
        note("pop", f"pop after it left {diff} changed", ",".join(diff))
        return run.rebuild(before, "pop did not restore")
    return True


def _hand_points(counts: Counts, rules: Rules) -> int:
    """A hand's count from the card values of the rules (rule `scoring`), done here by hand."""
    total = counts[JOKER_INDEX] * rules.values["JK"]
    for index in range(52):
        total += counts[index] * rules.values[rank_text(index % 13 + 1)]
    return total


def meld_problem(meld: Meld, rules: Rules) -> str | None:
    """Why a table meld is not legal (rules `meld`, `run`, `set`, `joker`), checked here by hand
    without the engine's readings; None when it is legal."""
    cards = meld.cards
    if len(cards) < 3:
        return f"{meld} has fewer than three cards"
    naturals = [c for c in cards if not c.is_joker]
    if not naturals and not rules.all_joker_melds:
        return f"{meld} has no natural card"
    if any(c.is_joker and c.as_rank is None for c in cards):
        return f"{meld} has a joker without a note on the table"
    if meld.kind is Kind.SET:
        if any(c.rank != meld.low for c in naturals):
            return f"{meld} mixes ranks in a set of {meld.low}"
        if any(c.as_rank != meld.low or c.as_suit is not None for c in cards if c.is_joker):
            return f"{meld} has a joker noted as another card than the set's rank"
        return None
    if meld.kind is not Kind.RUN:
        return f"{meld} is of unknown kind {meld.kind!r}"
    if meld.suit not in SUITS or len(meld.suit) != 1:
        return f"{meld} is a run without a suit"
    if meld.low < 1 or meld.low + len(cards) - 1 > 14:
        return f"{meld} runs past an ace (low {meld.low}, {len(cards)} cards)"
    for offset, card in enumerate(cards):
        position = meld.low + offset
        rank = 1 if position == 14 else position
        if card.is_joker:
            if card.as_rank != rank or card.as_suit != meld.suit:
                return f"{meld}: the joker at place {position} is noted {card}"
        elif card.rank != rank or card.suit != meld.suit:
            return f"{meld}: {card} does not belong at place {position}"
    return None


def _check_table(run: FuzzRun, deal: Deal, when: str) -> None:
    if len(deal.owners) != len(deal.table):
        run.finding(
            "table", "owners", f"{when}: {len(deal.table)} melds, {len(deal.owners)} owners"
        )
    for i, meld in enumerate(deal.table):
        problem = meld_problem(meld, deal.rules)
        if problem is None:
            verdict = table_readings(meld, deal.rules, deal.copies)
            if not verdict.ok:
                problem = f"the engine's own reading refuses {meld}: {verdict.reason}"
        if problem is not None:
            run.finding("table", "table meld", f"{when}: meld {i}: {problem}")
    for i, owner in enumerate(deal.owners):
        if not 0 <= owner < deal.players or not deal.passport[owner]:
            run.finding("table", "owners", f"{when}: meld {i} has owner {owner} without passport")


def _conservation_problem(deal: Deal) -> str | None:
    """Why the cards in hands and on the table are not the cards dealt, or None."""
    now = [0] * (JOKER_INDEX + 1)
    for hand in deal.hands:
        for i, n in enumerate(hand):
            now[i] += n
    for meld in deal.table:
        for card in meld.cards:
            now[card.index] += 1
    dealt = [sum(h[i] for h in deal.initial_hands) for i in range(JOKER_INDEX + 1)]
    if now != dealt:
        wrong = [
            f"{Card.from_index(i)}: {dealt[i]} dealt, {now[i]} now"
            for i in range(JOKER_INDEX + 1)
            if now[i] != dealt[i]
        ]
        return "; ".join(wrong[:4])
    copies = deal.rules.packs_for(deal.players)
    deck = to_counts(full_deck(copies, deal.rules.jokers))
    stock = tuple(deal.stock)
    if any(dealt[i] + stock[i] != deck[i] for i in range(JOKER_INDEX + 1)):
        return "the hands dealt and the cards put aside are not the deck"
    return None


def ply_checks(run: FuzzRun, before: DealState, after: DealState, move: Move) -> None:
    """What one legal move may change: the mover's hand and standing, the table, the turn."""
    me = before.turn
    label = type(move).__name__
    problems = []
    for seat in range(before.players):
        if seat != me and (
            after.hands[seat] != before.hands[seat]
            or after.status[seat] != before.status[seat]
            or after.passport[seat] != before.passport[seat]
        ):
            problems.append(f"seat {seat} changed on seat {me}'s move")
    had, has = sum(before.hands[me]), sum(after.hands[me])
    grown = len(after.table) - len(before.table)
    if isinstance(move, MeldMove):
        ok = grown == 1 and has == had - len(move.cards) and after.passport[me]
    elif isinstance(move, LayOff):
        ok = grown == 0 and has == had - 1
    elif isinstance(move, Swap):
        ok = (
            grown == 0
            and has == had
            and after.hands[me][JOKER_INDEX] == before.hands[me][JOKER_INDEX] + 1
        )
    elif isinstance(move, DeclareGame):
        ok = had == 0 and after.status[me] is Status.OUT and after.phase is Phase.OVER
    elif isinstance(move, DeclareDead):
        ok = had == has and after.status[me] in (Status.DEAD, Status.DEAD_PASSPORT)
    else:
        ok = had == has and grown == 0
    if not ok:
        problems.append(f"{move} did not do what it says (hand {had} -> {has}, table +{grown})")
    if len(after.event_stack) != len(before.event_stack) + 1:
        problems.append("the move did not add one group of events")
    elif any(e.rule not in RULE_BOOK for e in after.event_stack[-1]):
        problems.append(f"an event names a rule not in the rule book: {after.event_stack[-1]}")
    if after.phase is Phase.PLAYING:
        alive = sum(s is Status.ALIVE for s in after.status)
        if after.status[after.turn] is not Status.ALIVE:
            problems.append(f"seat {after.turn} is to move but is {after.status[after.turn]}")
        if after.rules.end_condition is EndCondition.ONE_ALIVE and alive < 2 and after.players > 1:
            problems.append("the deal goes on with one player alive (one-alive house rule)")
    for problem in problems:
        run.finding("ply", label, f"move {len(after.move_stack)} ({move}): {problem}")


def end_checks(run: FuzzRun, history: Sequence[DealState]) -> None:
    """Cards conserved, table legal, statuses, scores and winners as the rule book says."""
    deal = run.deal
    rules = deal.rules
    problem = _conservation_problem(deal)
    if problem:
        run.finding("conservation", "end of deal", problem)
    size = rules.hand_size(deal.players)
    if any(sum(h) != size for h in deal.initial_hands):
        run.finding("conservation", "hands dealt", f"a hand was not dealt {size} cards")
    _check_table(run, deal, "at the end")
    status = list(deal.status)
    out = [p for p in range(deal.players) if status[p] is Status.OUT]
    alive = [p for p in range(deal.players) if status[p] is Status.ALIVE]
    dead = [p for p in range(deal.players) if status[p] not in (Status.ALIVE, Status.OUT)]
    if not deal.is_over:
        run.finding("end", "phase", "the deal is not over after the last move")
        return
    if len(out) > 1:
        run.finding("end", "game", f"several players went out: {out}")
    if out:
        why = "game"
    elif not alive:
        why = "all dead"
    else:
        why = "one alive"
        if rules.end_condition is not EndCondition.ONE_ALIVE or len(alive) != 1:
            run.finding("end", "end", f"the deal ended with {alive} alive and nobody out")
    run.report.endings[why] += 1
    end_events = [e for e in deal.event_stack[-1] if e.rule == "end"] if deal.event_stack else []
    if [e.detail for e in end_events] != [why]:
        run.finding("end", "end event", f"the end event says {end_events}, the hands say {why}")
    for p in range(deal.players):
        cards = sum(deal.hands[p])
        if status[p] is Status.OUT and cards:
            run.finding("end", "game", f"seat {p} went out holding {cards} cards")
        if status[p] is not Status.OUT and not cards:
            run.finding("end", "game", f"seat {p} has an empty hand but did not declare Game")
        if status[p] is Status.DEAD_PASSPORT and (
            deal.passport[p] or deal.hands[p] != deal.initial_hands[p]
        ):
            run.finding("end", "dead.passport", f"seat {p} died at the passport but played")
        if status[p] in (Status.DEAD, Status.OUT) and not deal.passport[p]:
            run.finding("end", "passport", f"seat {p} is {status[p].value} without a passport")
    for p in dead:
        died = next(
            (s for s in history if s.status[p] is not Status.ALIVE), None
        )  # the first state with seat p dead
        if died is None or died.hands[p] != deal.hands[p]:
            run.finding("end", "dead", f"seat {p}'s hand changed after they were dead")
    scores = [_hand_points(h, rules) for h in deal.hands]
    if deal.scores != scores or [deal.count(p) for p in range(deal.players)] != scores:
        run.finding("scores", "scores", f"the deal says {deal.scores}, the hands say {scores}")
    if out:
        winners = out
    else:
        best = min(scores[p] for p in dead) if dead else None
        winners = [p for p in dead if scores[p] == best]
    if deal.winners != winners:
        run.finding("winners", "winners", f"the deal says {deal.winners}, expected {winners}")
    scoring = [e for e in deal.event_stack[-1] if e.rule == "scoring"] if deal.event_stack else []
    expected_detail = ",".join(str(w) for w in winners)
    if (
        len(scoring) != 1
        or list(scoring[0].counts) != scores
        or scoring[0].detail != (expected_detail)
    ):
        run.finding("scores", "scoring event", f"the scoring event is {scoring}")


def record_checks(run: FuzzRun) -> None:
    """The record, as JSON text, loads (replaying every move) to the same state."""
    deal = run.deal
    want = snapshot(deal)
    run.report.replays += 1
    try:
        text = dumps(deal)
        again = loads(text)
    except Exception as error:
        run.finding(
            "record",
            "replay",
            f"the record did not load: {type(error).__name__}: {error}",
            type(error).__name__,
        )
        return
    diff = state_diff(snapshot(again), want)
    if diff:
        run.finding("record", "replay", f"the replayed deal differs in {diff}", ",".join(diff))
    elif to_record(again) != json.loads(text):
        run.finding("record", "replay", "the replayed deal's record differs")


def walk_back(run: FuzzRun, history: Sequence[DealState]) -> None:
    """`pop()` back to the start, matching each ply's state, then a fresh deal."""
    deal = run.deal
    run.report.pop_walks += 1
    for ply in range(len(run.moves), 0, -1):
        try:
            move = deal.pop()
        except Exception as error:
            run.finding("pop", "walk", f"pop at ply {ply} raised {type(error).__name__}: {error}")
            return
        if move != run.moves[ply - 1]:
            run.finding(
                "pop", "walk", f"pop at ply {ply} returned {move}, not {run.moves[ply - 1]}"
            )
            return
        diff = state_diff(snapshot(deal), history[ply - 1])
        if diff:
            run.finding(
                "pop", "walk", f"after popping back to ply {ply - 1}: {diff} differ", ",".join(diff)
            )
            return
    diff = state_diff(snapshot(deal), snapshot(new_deal(run.variant)))
    if diff:
        run.finding(
            "pop", "walk", f"at the start, differs from a fresh deal in {diff}", ",".join(diff)
        )
    try:
        deal.pop()
    except IndexError:
        pass
    except Exception as error:
        run.finding(
            "pop", "walk", f"pop with no moves raised {type(error).__name__}, not IndexError"
        )
    else:
        run.finding("pop", "walk", "pop with no moves left took something back")


def _after_end_tries(run: FuzzRun, rng: random.Random) -> None:
    deal = run.deal
    before = snapshot(deal)
    last = run.moves[-1] if run.moves else EndTurn()
    for move in rng.sample([EndTurn(), DeclareGame(), DeclareDead(), last], 2):
        if not run_try(run, well_formed_try("a move after the deal is over", move, True), before):
            return


def play(run: FuzzRun, rng: random.Random, tries: bool = True) -> list[DealState] | None:
    """Let the variant's bots play the deal to its end, with tries pushed before most moves
    (none when `tries` is false), checking every move. Returns the state after each ply (the
    start first), or None when the deal broke off (the finding says why)."""
    variant = run.variant
    bots: list[Bot] = [
        make_bot(name, variant.deal_seed * 10 + seat) for seat, name in enumerate(variant.bots)
    ]
    history = [snapshot(run.deal)]
    for _ in range(MAX_MOVES):
        deal = run.deal
        if deal.is_over:
            return history
        before = history[-1]
        try:
            choice = bots[deal.turn].choose(PlayerView.of(deal))
        except Exception as error:
            name = variant.bots[deal.turn]
            run.finding("bot", "choose", f"{name} raised {error!r}", type(error).__name__)
            return None
        if tries and rng.random() < TRY_RATE:
            now = snapshot(deal)
            if now != before:
                run.finding("ply", "view", f"making a view changed {state_diff(now, before)}")
                return None
            maker = _TryMaker(deal, rng, choice.move)
            attempts = [
                maker.garbage() if rng.random() < GARBAGE_SHARE else maker.illegal()
                for _ in range(rng.randint(1, MAX_TRIES))
            ]
            if rng.random() < LISTED_RATE:
                attempts.append(maker.listed())
            for attempt in attempts:
                if not run_try(run, attempt, before):
                    return None
            deal = run.deal
        try:
            deal.push(choice.move)
        except Exception as error:
            detail = f"the bot's move {choice.move} was refused: {error!r}"
            run.finding("bot", "push", detail, type(error).__name__)
            return None
        run.moves.append(choice.move)
        run.report.legal_moves += 1
        after = snapshot(deal)
        ply_checks(run, before, after, choice.move)
        history.append(after)
    run.finding("endless", "deal", f"no end after {MAX_MOVES} moves")
    return None


def fuzz_deal(
    seed: int, index: int, pop_walk: bool = True, report: FuzzReport | None = None
) -> FuzzReport:
    """Fuzz deal number `index` of a run seeded `seed`; its figures and findings are added to
    `report` (a new one by default), which is returned."""
    report = FuzzReport(seed=seed) if report is None else report
    report.deals += 1
    try:
        variant = variant_for(seed, index)
    except ValueError as error:  # the rules refused a setting the fuzz picked
        report.add(
            Finding(
                kind="end",
                label="set-up",
                detail=f"the rules of the variant were refused: {error}",
                signature="end | set-up | rules",
                seed=seed,
                index=index,
                deal_seed=deal_seed(seed, index),
                players=2 + index % 4,
                dealer=-1,
                rules={},
                variant="?",
            )
        )
        return report
    report.players[variant.players] += 1
    report.features.update(variant.features())
    report.bots.update(variant.bots)
    rng = random.Random(f"penang-fuzz/{seed}/{index}/tries")
    try:
        run = FuzzRun(variant, report)
    except Exception as error:
        report.add(
            Finding(
                kind="end",
                label="set-up",
                detail=f"the deal could not be made: {error!r}",
                signature=f"end | set-up | {type(error).__name__}",
                seed=seed,
                index=index,
                deal_seed=variant.deal_seed,
                players=variant.players,
                dealer=-1 if variant.dealer is None else variant.dealer,
                rules=variant.rules.as_dict(),
                variant=variant.describe(),
            )
        )
        return report
    history = play(run, rng)
    if history is None:
        return report
    _after_end_tries(run, rng)
    end_checks(run, history)
    record_checks(run)
    if pop_walk:
        walk_back(run, history)
    return report


# -- reproducers ---------------------------------------------------------------------------------
def _namespace() -> dict[str, Any]:
    import penang_lib

    space: dict[str, Any] = {name: getattr(penang_lib, name) for name in penang_lib.__all__}
    space.update(FakeMove=FakeMove, raw_move=raw_move)
    return space


def _rules_code(settings: dict[str, Any]) -> str:
    default = DEFAULT_RULES.as_dict()
    parts = [f"{k}={v!r}" for k, v in settings.items() if v != default[k]]
    return f"Rules({', '.join(parts)})"


def _at(finding: Finding) -> str:
    """Where a try's finding shows: building the move, `is_legal` or `push`."""
    if finding.kind == "construct" or (
        finding.kind == "accepted" and finding.code.startswith("parse_move(")
    ):
        return "build"
    return "is_legal" if " | is_legal " in finding.signature else "push"


def _classify_again(finding: Finding, prefix: Sequence[str]) -> str | None:
    """Replay `prefix` and the finding's try; the signature it gives now (None: nothing wrong)."""
    space = _namespace()
    rules = Rules.from_dict(dict(finding.rules))
    deal = Deal(players=finding.players, seed=finding.deal_seed, rules=rules, dealer=finding.dealer)
    for text in prefix:
        deal.push(parse_move(text))
    try:
        move = eval(finding.code, space)
    except Exception as error:
        return f"construct | {finding.label} | {type(error).__name__} at {where(error)}"
    if _at(finding) == "build":
        return f"accepted | {finding.label}"
    player = eval(finding.player_code, space) if finding.player_code else None
    if _at(finding) == "is_legal":
        try:
            deal.is_legal(move, player=player)
        except Exception as error:
            return f"consistency | {finding.label} | is_legal {type(error).__name__}"
        return None
    before = snapshot(deal)
    garbage = not well_formed(move) or (bool(finding.player_code) and not seat_type_ok(player))
    refusal = outcome(deal, move, player, bool(finding.player_code))
    if refusal is None:
        return f"accepted | {finding.label}" if finding.kind == "accepted" else "accepted"
    if finding.kind == "changed":
        diff = state_diff(snapshot(deal), before)
        return f"changed | {finding.label} | {','.join(diff)}" if diff else None
    problem = judge_refusal(refusal, garbage)
    return f"{problem[0]} | {finding.label} | {problem[2]}" if problem else None


def reproducer(finding: Finding) -> str:
    """A short Python snippet (or command) that shows the finding again.

    For a try, the shortest prefix of the deal's moves after which the same try gives the same
    kind of finding is looked for (from no moves at all upwards, within `REPRODUCE_BUDGET`
    pushes); for a check at the end of a deal, the command that fuzzes that deal alone.
    """
    command = f"python -m tools.fuzz --seed {finding.seed} --deal {finding.index}"
    if not finding.code:
        return command
    prefix = list(finding.prefix)
    spent = 0
    chosen = len(prefix)
    for k in range(len(prefix) + 1):
        if spent > REPRODUCE_BUDGET:
            break
        spent += k + 1
        try:
            if _classify_again(finding, prefix[:k]) == finding.signature:
                chosen = k
                break
        except Exception:
            continue
    lines = ["from penang_lib import *"]
    if "raw_move" in finding.code or "FakeMove" in finding.code:
        lines.append("from tools.fuzz import FakeMove, raw_move")
    lines.append(
        f"deal = Deal(players={finding.players}, seed={finding.deal_seed}, "
        f"rules={_rules_code(finding.rules)}, dealer={finding.dealer})"
    )
    if chosen:
        lines.append(f"for text in {prefix[:chosen]!r}:")
        lines.append("    deal.push(parse_move(text))")
    player = f", player={finding.player_code}" if finding.player_code else ""
    if _at(finding) == "build":
        lines.append(f"{finding.code}  # {finding.kind}")
    elif _at(finding) == "is_legal":
        lines.append(f"deal.is_legal({finding.code}{player})  # {finding.kind}")
    else:
        lines.append(f"deal.push({finding.code}{player})  # {finding.kind}")
    lines.append(f"# or: {command}")
    return "\n".join(lines)


# -- many deals ------------------------------------------------------------------------------------
def _fuzz_range(job: tuple[int, int, int, int]) -> FuzzReport:
    """Deals `start` to `stop` - 1 of a run (runs in a worker process)."""
    seed, start, stop, pop_every = job
    report = FuzzReport(seed=seed)
    for index in range(start, stop):
        fuzz_deal(seed, index, pop_walk=index % pop_every == 0, report=report)
    return report


class _Bar:
    """A progress bar on stderr: tqdm when it is installed, else a line of our own."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.start = time.perf_counter()
        self.bar: Any = None
        try:
            from tqdm import tqdm  # type: ignore[import-untyped]
        except ImportError:
            return
        self.bar = tqdm(total=total, desc="fuzz", unit="deal", file=sys.stderr)

    def update(self, n: int, findings: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.set_postfix(findings=findings, refresh=False)
            self.bar.update(n)
            return
        rate = self.done / max(time.perf_counter() - self.start, 1e-9)
        width = 30
        filled = width * self.done // max(self.total, 1)
        sys.stderr.write(
            f"\rfuzz [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
            f"{rate:.0f} deals/s, {findings} findings"
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        else:
            sys.stderr.write("\n")


def fuzz(
    deals: int,
    seed: int = 0,
    jobs: int = 1,
    progress: bool = False,
    pop_every: int = 1,
) -> FuzzReport:
    """Fuzz `deals` deals of a run seeded `seed` and return the figures and findings.

    `jobs` > 1 plays in that many worker processes (at most one per CPU). The full `pop()` walk
    runs on every `pop_every`-th deal (all of them by default); every other check runs on every
    deal. The same arguments give the same report whatever `jobs` is (times aside).
    """
    if deals < 0:
        raise ValueError(f"the number of deals cannot be negative ({deals})")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1 ({jobs})")
    if pop_every < 1:
        raise ValueError(f"pop_every must be at least 1 ({pop_every})")
    jobs = min(jobs, os.cpu_count() or 1)
    report = FuzzReport(seed=seed, jobs=jobs)
    work = [(seed, start, min(deals, start + CHUNK), pop_every) for start in range(0, deals, CHUNK)]
    bar = _Bar(deals) if progress else None
    clock = time.perf_counter()
    try:
        if jobs == 1 or len(work) < 2:
            for job in work:
                report.merge(_fuzz_range(job))
                if bar is not None:
                    bar.update(job[2] - job[1], report.total_findings)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = {pool.submit(_fuzz_range, job): job for job in work}
                for future in as_completed(futures):
                    job = futures[future]
                    report.merge(future.result())
                    if bar is not None:
                        bar.update(job[2] - job[1], report.total_findings)
    finally:
        if bar is not None:
            bar.close()
    report.seconds = time.perf_counter() - clock
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """The command: figures on stdout, findings after them; exit 1 when there are findings."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.fuzz",
        description="Fuzz the engine: seeded bot deals with illegal and garbage moves in between.",
    )
    parser.add_argument("--deals", type=int, default=1000, help="deals to play (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--pop-every", type=int, default=1, help="full pop() walk on every N-th deal (default 1)"
    )
    parser.add_argument("--deal", type=int, default=None, help="fuzz only this deal number")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.deals < 0 or args.jobs < 1 or args.pop_every < 1:
        parser.error("--deals must be 0 or more, --jobs and --pop-every 1 or more")
    if args.deal is not None:
        clock = time.perf_counter()
        report = fuzz_deal(args.seed, args.deal)
        report.seconds = time.perf_counter() - clock
        print(variant_for(args.seed, args.deal).describe())
    else:
        report = fuzz(
            args.deals,
            seed=args.seed,
            jobs=args.jobs,
            progress=not args.no_progress and args.deals >= 200,
            pop_every=args.pop_every,
        )
    print(report.figures())
    if report.ok:
        return 0
    print()
    print("Findings (grouped; the first example of each, with a reproducer):")
    print(report.findings_text())
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
