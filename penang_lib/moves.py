"""Moves a player can make, as small frozen values with a text form.

`MeldMove` (rule `meld`), `LayOff` (`lay-off`), `Swap` (`swap`), `EndTurn` (`turn`),
`DeclareDead` (`dead`) and `DeclareGame` (`game`). Table melds are named by their index in
`Deal.table`, in the order they were laid.

Text form (used by the CLI, records and tests): `meld 5H 6H JK@7H`, `lay_off 2 8H`, `swap 0 7H`,
`end_turn`, `dead`, `game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from penang_lib.cards import Card, CardParseError, cards_symbols, cards_text, read_cards
from penang_lib.validate import ArgumentTypeError, shown


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
        cards: object = self.cards
        if cards.__class__ is not tuple and isinstance(cards, Mapping):
            raise ArgumentTypeError(_cards_problem(cards))
        if cards.__class__ is str:
            raise ArgumentTypeError(
                f"MeldMove takes Card values, not the text {shown(cards)}: write "
                "MeldMove.of('5H 6H 7H') or parse_move('meld 5H 6H 7H')"
            )
        try:
            ordered = tuple(sorted(cards, key=Card.sort_key))  # type: ignore[call-overload]
        except (AttributeError, TypeError):
            raise ArgumentTypeError(_cards_problem(cards)) from None
        object.__setattr__(self, "cards", ordered)

    @staticmethod
    def of(text: str) -> MeldMove:
        """The meld of the cards in `text` (`MeldMove.of("5H 6H JK@7H")`)."""
        return MeldMove(tuple(read_cards(text, "MeldMove.of")))

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


def _cards_problem(cards: object) -> str:
    """Why `cards` are not the Card values of a meld (one sentence)."""
    try:
        items = list(cards)  # type: ignore[call-overload]
    except TypeError:
        items = [cards]
    bad = next((c for c in items if not isinstance(c, Card)), cards)
    return (
        f"a meld's cards should be Card values, not {shown(bad)} (parse_move reads text such "
        "as 'meld 5H 6H 7H')"
    )


Move = MeldMove | LayOff | Swap | EndTurn | DeclareDead | DeclareGame
MOVE_TYPES = ("meld", "lay_off", "swap", "end_turn", "dead", "game")
MOVE_CLASSES: Final = (MeldMove, LayOff, Swap, EndTurn, DeclareDead, DeclareGame)
"""The move classes, in the order of `MOVE_TYPES`."""
MAX_TARGET_DIGITS: Final = 18
"""A meld number written with more digits than this cannot be on any table."""


def _target(text: str, whole: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise CardParseError(
            whole,
            f"{shown(text)} should be the number of a meld on the table (digits 0-9)",
            "a move",
        )
    if len(text) > MAX_TARGET_DIGITS:
        raise CardParseError(whole, f"{shown(text)} is far too long to be a meld number", "a move")
    return int(text)


def check_move(move: object, name: str = "move") -> Move:
    """`move` when it is a move value; an `ArgumentTypeError` saying what it should be (text
    is read by `parse_move`)."""
    if move.__class__ in MOVE_CLASSES:
        return move
    if isinstance(move, str):
        raise ArgumentTypeError(
            f"{name} should be a move value, not the text {shown(move)}: read it with "
            "parse_move(text) (or use Deal.push_text)"
        )
    if isinstance(move, type) and move in MOVE_CLASSES:
        raise ArgumentTypeError(
            f"{name} should be a move value such as {move.__name__}(), "
            f"not the class {move.__name__}"
        )
    raise ArgumentTypeError(
        f"{name} should be a move (MeldMove, LayOff, Swap, EndTurn, DeclareDead or DeclareGame), "
        f"not {shown(move)}"
    )


def parse_move(text: str) -> Move:
    """A move from its text form; a bad one raises `CardParseError` naming what is wrong."""
    if not isinstance(text, str):
        raise ArgumentTypeError(
            f"parse_move reads move text such as 'meld 5H 6H 7H', not {shown(text)}"
        )
    words = text.strip().split(None, 1)
    if not words:
        raise CardParseError(
            text, "a move starts with meld, lay_off, swap, end_turn, dead or game", "a move"
        )
    kind = words[0].lower().replace("-", "_")
    rest = words[1] if len(words) > 1 else ""
    if kind == "meld":
        if not rest.strip():
            raise CardParseError(text, "write meld and its cards, e.g. meld 5H 6H 7H", "a move")
        return MeldMove(tuple(read_cards(rest, "parse_move")))
    if kind in ("lay_off", "swap"):
        parts = rest.split(None, 1)
        if len(parts) != 2:
            raise CardParseError(text, f"write {kind} <meld number> <card>", "a move")
        cards = read_cards(parts[1], "parse_move")
        if len(cards) != 1:
            raise CardParseError(text, f"{kind} takes exactly one card", "a move")
        target = _target(parts[0], text)
        return LayOff(target, cards[0]) if kind == "lay_off" else Swap(target, cards[0])
    simple: dict[str, Move] = {"end_turn": EndTurn(), "dead": DeclareDead(), "game": DeclareGame()}
    if kind in simple and not rest:
        return simple[kind]
    raise CardParseError(
        text, "a move starts with meld, lay_off, swap, end_turn, dead or game", "a move"
    )


def move_to_dict(move: Move) -> dict[str, Any]:
    """A JSON-ready description of a move (`type` plus its cards and target)."""
    check_move(move)
    out: dict[str, Any] = {"type": move.type}
    if isinstance(move, MeldMove):
        out["cards"] = cards_text(move.cards)
    elif isinstance(move, LayOff | Swap):
        out["meld"] = move.target
        out["card"] = str(move.card)
    return out


MOVE_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "meld": ("cards",),
    "lay_off": ("meld", "card"),
    "swap": ("meld", "card"),
    "end_turn": (),
    "dead": (),
    "game": (),
}
"""The fields each move type carries besides `type` (see `move_to_dict`)."""
FIELD_WORDS: Final = {
    "cards": "the cards as text, e.g. '5H 6H 7H'",
    "meld": "the number of a meld on the table, from 0",
    "card": "one card as text, e.g. '8H'",
}


def move_from_dict(data: dict[str, Any]) -> Move:
    """The inverse of `move_to_dict`. Unreadable cards or an unknown `type` raise
    `CardParseError`; a missing or unknown field a `ValueError`, a field of the wrong type an
    `ArgumentTypeError`, each naming the field."""
    if not isinstance(data, Mapping):
        raise ArgumentTypeError(f"a move should be an object with a 'type', not {shown(data)}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MOVE_FIELDS:
        raise CardParseError(
            shown(kind) if not isinstance(kind, str) else kind,
            f"a move type is one of {', '.join(MOVE_TYPES)}",
            "a move type",
        )
    wanted = MOVE_FIELDS[kind]
    unknown = [key for key in data if key != "type" and key not in wanted]
    if unknown:
        fields = ", ".join(repr(f) for f in ("type", *wanted))
        raise ValueError(f"a {kind} move has no field {shown(unknown[0])} (only {fields})")
    for key in wanted:
        if key not in data:
            raise ValueError(f"a {kind} move needs {key!r}: {FIELD_WORDS[key]}")
        value = data[key]
        if key == "meld":
            if value.__class__ is not int:
                raise ArgumentTypeError(f"'meld' should be {FIELD_WORDS[key]}, not {shown(value)}")
            if value < 0:
                raise CardParseError(
                    str(value), "a meld number is a whole number from 0", "a meld number"
                )
        elif not isinstance(value, str):
            raise ArgumentTypeError(f"{key!r} should be {FIELD_WORDS[key]}, not {shown(value)}")
    if kind == "meld":
        return MeldMove(tuple(read_cards(data["cards"], "'cards'")))
    if kind in ("lay_off", "swap"):
        return parse_move(f"{kind} {data['meld']} {data['card']}")
    return parse_move(kind)
