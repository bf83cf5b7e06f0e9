"""Moves a player can make, as small frozen values with a text form.

`MeldMove` (rule `meld`), `LayOff` (`lay-off`), `Swap` (`swap`), `EndTurn` (`turn`),
`DeclareDead` (`dead`) and `DeclareGame` (`game`). Table melds are named by their index in
`Deal.table`, in the order they were laid.

Text form (used by the CLI, records and tests): `meld 5H 6H JK@7H`, `lay_off 2 8H`, `swap 0 7H`,
`end_turn`, `dead`, `game`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from penang_lib.cards import Card, CardParseError, cards_symbols, cards_text, parse_cards


class IllegalMove(ValueError):
    """A move the rules forbid. `rule` is the rule id, the message one sentence for a learner.

    `options` are the legal moves the player may have meant: for a plain joker with several
    readings (rule `joker`), the same move with the joker noted each way it can stand.
    """

    def __init__(self, rule: str, reason: str, options: tuple[Move, ...] = ()) -> None:
        self.rule = rule
        self.reason = reason
        self.options = options
        super().__init__(reason)


@dataclass(frozen=True)
class MeldMove:
    """Lay a meld from the hand. Card order does not matter; jokers may carry their notes."""

    cards: tuple[Card, ...]
    type: ClassVar[str] = "meld"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards, key=Card.sort_key)))

    @staticmethod
    def of(text: str) -> MeldMove:
        return MeldMove(tuple(parse_cards(text)))

    def __str__(self) -> str:
        return f"meld {cards_text(self.cards)}"

    def label(self) -> str:
        """The meld as it would lie on the table (Q♦ K♦ A♦, not A♦ Q♦ K♦) when the cards can
        be read only one way; otherwise the cards as given."""
        from penang_lib.melds import run_readings, set_readings

        readings = {m.cards: m for m in (*set_readings(self.cards), *run_readings(self.cards))}
        shown = next(iter(readings)) if len(readings) == 1 else self.cards
        return f"meld {cards_symbols(shown)}"


@dataclass(frozen=True)
class LayOff:
    """Lay `card` from the hand off on table meld number `target`."""

    target: int
    card: Card
    type: ClassVar[str] = "lay_off"

    def __str__(self) -> str:
        return f"lay_off {self.target} {self.card}"

    def label(self) -> str:
        return f"lay off {self.card.symbol} on meld {self.target}"


@dataclass(frozen=True)
class Swap:
    """Give natural `card` from the hand for a joker in table meld number `target`."""

    target: int
    card: Card
    type: ClassVar[str] = "swap"

    def __str__(self) -> str:
        return f"swap {self.target} {self.card}"

    def label(self) -> str:
        return f"swap {self.card.symbol} for the joker in meld {self.target}"


@dataclass(frozen=True)
class EndTurn:
    """End the turn (allowed once the turn has had a meld or lay-off)."""

    type: ClassVar[str] = "end_turn"

    def __str__(self) -> str:
        return "end_turn"

    def label(self) -> str:
        return "end the turn"


@dataclass(frozen=True)
class DeclareDead:
    """Declare Dead: allowed, and required, only when no meld or lay-off is possible."""

    type: ClassVar[str] = "dead"

    def __str__(self) -> str:
        return "dead"

    def label(self) -> str:
        return "declare Dead"


@dataclass(frozen=True)
class DeclareGame:
    """Declare Game: the hand is empty and the deal is won."""

    type: ClassVar[str] = "game"

    def __str__(self) -> str:
        return "game"

    def label(self) -> str:
        return "declare Game"


Move = MeldMove | LayOff | Swap | EndTurn | DeclareDead | DeclareGame
MOVE_TYPES = ("meld", "lay_off", "swap", "end_turn", "dead", "game")


def _target(text: str, whole: str) -> int:
    if not text.isdigit():
        raise CardParseError(whole, f"{text!r} should be the number of a meld on the table")
    return int(text)


def parse_move(text: str) -> Move:
    """A move from its text form; a bad one raises `CardParseError` naming what is wrong."""
    words = text.strip().split(None, 1)
    if not words:
        raise CardParseError(text, "a move starts with meld, lay_off, swap, end_turn, dead or game")
    kind = words[0].lower().replace("-", "_")
    rest = words[1] if len(words) > 1 else ""
    if kind == "meld":
        return MeldMove(tuple(parse_cards(rest)))
    if kind in ("lay_off", "swap"):
        parts = rest.split(None, 1)
        if len(parts) != 2:
            raise CardParseError(text, f"write {kind} <meld number> <card>")
        cards = parse_cards(parts[1])
        if len(cards) != 1:
            raise CardParseError(text, f"{kind} takes exactly one card")
        target = _target(parts[0], text)
        return LayOff(target, cards[0]) if kind == "lay_off" else Swap(target, cards[0])
    simple: dict[str, Move] = {"end_turn": EndTurn(), "dead": DeclareDead(), "game": DeclareGame()}
    if kind in simple and not rest:
        return simple[kind]
    raise CardParseError(text, "a move starts with meld, lay_off, swap, end_turn, dead or game")


def move_to_dict(move: Move) -> dict[str, Any]:
    """A JSON-ready description of a move (`type` plus its cards and target)."""
    out: dict[str, Any] = {"type": move.type}
    if isinstance(move, MeldMove):
        out["cards"] = cards_text(move.cards)
    elif isinstance(move, LayOff | Swap):
        out["meld"] = move.target
        out["card"] = str(move.card)
    return out


def move_from_dict(data: dict[str, Any]) -> Move:
    """The inverse of `move_to_dict`; raises `CardParseError` or `KeyError` on bad data."""
    kind = data.get("type")
    if kind == "meld":
        return MeldMove(tuple(parse_cards(str(data["cards"]))))
    if kind in ("lay_off", "swap"):
        target = data["meld"]
        if not isinstance(target, int) or isinstance(target, bool) or target < 0:
            raise CardParseError(str(target), "a meld number is a whole number from 0")
        text = f"{kind} {target} {data['card']}"
        return parse_move(text)
    if kind in ("end_turn", "dead", "game"):
        return parse_move(str(kind))
    raise CardParseError(str(kind), f"a move type is one of {', '.join(MOVE_TYPES)}")
