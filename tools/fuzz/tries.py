"""The moves tried in between the legal ones: garbage helpers (`FakeMove`, `raw_move`,
`render`), what counts as well-formed, and `TryMaker`, which builds illegal, garbage and
listed tries for the position a deal is in."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Final

from penang_lib import (
    JOKER,
    Card,
    Deal,
    DeclareDead,
    DeclareGame,
    EndTurn,
    LayOff,
    MeldMove,
    Swap,
    parse_move,
)
from penang_lib.engine.cards import JOKER_INDEX, SUITS
from penang_lib.engine.moves import Move

LISTED_SAMPLE: Final = 40
"""How many entries of `legal_moves` to choose from (a hand with jokers has thousands)."""


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


class TryMaker:
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
