"""Moves a player can make, as small frozen values with a text form.

`MeldMove` (rule `meld`), `LayOff` (`lay-off`), `Swap` (`swap`), `EndTurn` (`turn`),
`DeclareDead` (`dead`) and `DeclareGame` (`game`). Table melds are named by their index in
`Deal.table`, in the order they were laid.

Text form (used by the CLI, records and tests): `meld 5H 6H JK@7H`, `lay_off 2 8H`, `swap 0 7H`,
`end_turn`, `dead`, `game`. `parse_move` also reads back every label the moves show
(`move.label()`): "meld 5♥ 6♥ 🃏=7♥", "lay off 8♥ on meld 0", "swap 7♥ for the joker in meld 0",
"end the turn", "declare Dead", "declare Game".

`LegalMoves` is the lazy collection behind `Deal.legal_moves` (and a player's view of it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any, ClassVar, Final, NoReturn

from penang_lib.engine.cards import (
    BY_ORDER,
    Card,
    CardParseError,
    cards_symbols,
    cards_text,
    read_cards,
)
from penang_lib.engine.melds import Meld
from penang_lib.engine.validate import ArgumentTypeError, shown
from penang_lib.i18n import N_, _


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
            ordered = tuple(sorted(cards, key=BY_ORDER))  # type: ignore[call-overload]
        except (AttributeError, TypeError):
            raise ArgumentTypeError(_cards_problem(cards)) from None
        object.__setattr__(self, "cards", ordered)

    @staticmethod
    def of_meld(meld: Meld) -> MeldMove:
        """The move that lays `meld` from the hand. It carries the meld as its reading, so that
        `Deal.push` need not search for the ways the cards can be read again; the push still
        checks that the cards are in the hand and that the rules allow the meld."""
        if meld.__class__ is not Meld and not isinstance(meld, Meld):
            raise ArgumentTypeError(f"MeldMove.of_meld takes a Meld, not {shown(meld)}")
        move = MeldMove(meld.cards)
        object.__setattr__(move, "_reading", meld)
        return move

    @staticmethod
    def of(text: str) -> MeldMove:
        """The meld of the cards in `text` (`MeldMove.of("5H 6H JK@7H")`)."""
        return MeldMove(tuple(read_cards(text, "MeldMove.of")))

    def __str__(self) -> str:
        return f"meld {cards_text(self.cards)}"  # not for learners: engine notation

    def label(self) -> str:
        """The meld as it would lie on the table (Q♦ K♦ A♦, not A♦ Q♦ K♦) when the cards can
        be read only one way; otherwise the cards as given."""
        from penang_lib.engine.melds import run_readings, set_readings

        readings = {m.cards: m for m in (*set_readings(self.cards), *run_readings(self.cards))}
        shown = next(iter(readings)) if len(readings) == 1 else self.cards
        return _("meld {cards}").format(cards=cards_symbols(shown))


@dataclass(frozen=True)
class LayOff:
    """Lay `card` from the hand off on table meld number `target`."""

    target: int
    card: Card
    type: ClassVar[str] = "lay_off"

    def __str__(self) -> str:
        return f"lay_off {self.target} {self.card}"  # not for learners: engine notation

    def label(self) -> str:
        return _("lay off {card} on meld {meld}").format(card=self.card.symbol, meld=self.target)


@dataclass(frozen=True)
class Swap:
    """Give natural `card` from the hand for a joker in table meld number `target`."""

    target: int
    card: Card
    type: ClassVar[str] = "swap"

    def __str__(self) -> str:
        return f"swap {self.target} {self.card}"  # not for learners: engine notation

    def label(self) -> str:
        return _("swap {card} for the joker in meld {meld}").format(
            card=self.card.symbol, meld=self.target
        )


@dataclass(frozen=True)
class EndTurn:
    """End the turn (allowed once the turn has had a meld or lay-off)."""

    type: ClassVar[str] = "end_turn"

    def __str__(self) -> str:
        return "end_turn"

    def label(self) -> str:
        return _("end the turn")


@dataclass(frozen=True)
class DeclareDead:
    """Declaring oneself dead: allowed, and required, only when no meld or lay-off is possible."""

    type: ClassVar[str] = "dead"

    def __str__(self) -> str:
        return "dead"

    def label(self) -> str:
        return _("declare Dead")


@dataclass(frozen=True)
class DeclareGame:
    """Declare Game: the hand is empty and the deal is won."""

    type: ClassVar[str] = "game"

    def __str__(self) -> str:
        return "game"

    def label(self) -> str:
        return _("declare Game")


def _cards_problem(cards: object) -> str:
    """Why `cards` are not the Card values of a meld (one sentence)."""
    try:
        items = list(cards)  # type: ignore[call-overload]
    except TypeError:
        items = [cards]
    bad = next((c for c in items if not isinstance(c, Card)), cards)
    return (
        f"a meld's cards should be Card values, not {shown(bad)} (parse_move reads text such "
        "as 'meld 5H 6H 7H')"  # not for learners: the message of an ArgumentTypeError
    )


Move = MeldMove | LayOff | Swap | EndTurn | DeclareDead | DeclareGame
MOVE_TYPES = ("meld", "lay_off", "swap", "end_turn", "dead", "game")
MOVE_CLASSES: Final = (MeldMove, LayOff, Swap, EndTurn, DeclareDead, DeclareGame)
"""The move classes, in the order of `MOVE_TYPES`."""
MAX_TARGET_DIGITS: Final = 18
"""A meld number written with more digits than this cannot be on any table."""


REPR_MOVES: Final = 5
"""How many moves `repr(deal.legal_moves)` names (then "..." if there are more)."""


class LegalMoves(Collection[Move]):
    """The legal moves of a position, as a lazy and live collection (python-chess's
    `board.legal_moves`).

    Nothing is listed up front: each `for move in moves` starts afresh from the position as it is
    now, so one `LegalMoves` kept across pushes follows the deal. `len()` and `count()` say how
    many moves there are, `move in moves` asks whether the rules allow `move` (without listing),
    and `bool(moves)` / `any()` stop at the first move. No move is listed twice.

    It is generic: `iterate` yields the moves of the current position; `contains` (optional)
    judges one move without listing them all; `count` (optional) counts them faster than
    iterating; `name` is what the owner is called in the hint given to `moves()`.
    """

    __slots__ = ("_contains", "_count", "_iterate", "_name")

    def __init__(
        self,
        iterate: Callable[[], Iterator[Move]],
        contains: Callable[[Move], bool] | None = None,
        count: Callable[[], int] | None = None,
        name: str = "deal",
    ) -> None:
        self._iterate = iterate
        self._contains = contains
        self._count = count
        self._name = name

    def __iter__(self) -> Iterator[Move]:
        return self._iterate()

    def __len__(self) -> int:
        if self._count is not None:
            return self._count()
        return sum(1 for _move in self._iterate())

    def count(self) -> int:
        """How many legal moves there are (as `len()`)."""
        return len(self)

    def __contains__(self, move: object) -> bool:
        """Whether the rules allow `move` now. A value that is not a move (text, None) raises
        `ArgumentTypeError` saying what it should be, as `Deal.is_legal` does."""
        if self._contains is not None:
            return self._contains(move)  # type: ignore[arg-type]
        require_move(move)
        return any(listed == move for listed in self._iterate())

    def __bool__(self) -> bool:
        return self.any()

    def any(self) -> bool:
        """Whether there is any legal move (stops at the first one)."""
        return next(iter(self._iterate()), None) is not None

    def __call__(self) -> NoReturn:
        raise TypeError(
            f"legal_moves is a collection now: write {self._name}.legal_moves, not "
            f"{self._name}.legal_moves()"
        )

    def __repr__(self) -> str:
        first = list(islice(self._iterate(), REPR_MOVES + 1))
        shown_moves = ", ".join(move.label() for move in first[:REPR_MOVES])
        if len(first) > REPR_MOVES:
            shown_moves += ", ..."
        return f"<LegalMoves ({shown_moves})>" if first else "<LegalMoves (none)>"


def _target(text: str, whole: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise CardParseError(
            whole,
            _("{text} should be the number of a meld on the table (digits 0-9)").format(
                text=shown(text)
            ),
            _("a move"),
        )
    if len(text) > MAX_TARGET_DIGITS:
        raise CardParseError(
            whole,
            _("{text} is far too long to be a meld number").format(text=shown(text)),
            _("a move"),
        )
    return int(text)


def require_move(move: object, name: str = "move") -> Move:
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


_LAY_OFF_LABEL: Final = re.compile(r"lay\s+off\s+(\S+)\s+on\s+meld\s+(\S+)", re.IGNORECASE)
_SWAP_LABEL: Final = re.compile(
    r"swap\s+(\S+)\s+for\s+the\s+joker\s+in\s+meld\s+(\S+)", re.IGNORECASE
)
_PLAIN_LABELS: Final[dict[str, Move]] = {
    # parse_move reads the labels in English, as the engine writes them
    "end the turn": EndTurn(),  # not for learners: engine notation
    "declare dead": DeclareDead(),  # not for learners: engine notation
    "declare game": DeclareGame(),  # not for learners: engine notation
}
_STARTS: Final = N_(
    "a move starts with meld, lay_off, swap, end_turn, dead or game, or reads like a move's "
    "label such as 'lay off 8H on meld 0'"
)


def _one_card(text: str, whole: str, kind: str) -> Card:
    cards = read_cards(text, "parse_move")
    if len(cards) != 1:
        raise CardParseError(
            whole, _("{kind} takes exactly one card").format(kind=kind), _("a move")
        )
    return cards[0]


def _label_move(text: str) -> Move | None:
    """The move whose label (`move.label()`) is `text`, or None when `text` is not a label."""
    plain = _PLAIN_LABELS.get(" ".join(text.split()).lower())
    if plain is not None:
        return plain
    lay_off = _LAY_OFF_LABEL.fullmatch(text)
    if lay_off is not None:
        card = _one_card(lay_off.group(1), text, _("a lay-off"))
        return LayOff(_target(lay_off.group(2), text), card)
    swap = _SWAP_LABEL.fullmatch(text)
    if swap is not None:
        card = _one_card(swap.group(1), text, _("a swap"))
        return Swap(_target(swap.group(2), text), card)
    words = text.lower().split()
    if words[:2] == ["lay", "off"]:
        raise CardParseError(
            text,
            _("write lay off <card> on meld <number>, e.g. lay off 8H on meld 0"),
            _("a move"),
        )
    if words[:1] == ["swap"] and "for" in words:
        raise CardParseError(
            text,
            _(
                "write swap <card> for the joker in meld <number>, e.g. swap 7H for the joker in "
                "meld 0"
            ),
            _("a move"),
        )
    return None


def parse_move(text: str) -> Move:
    """A move from its text form (`lay_off 0 8H`) or from its label (`lay off 8♥ on meld 0`),
    in any case; a bad one raises `CardParseError` naming what is wrong."""
    if not isinstance(text, str):
        raise ArgumentTypeError(
            f"parse_move reads move text such as 'meld 5H 6H 7H', not {shown(text)}"
        )
    words = text.split(None, 1)
    if not words:
        raise CardParseError(text, _(_STARTS), _("a move"))
    kind = words[0].lower().replace("-", "_")
    rest = words[1] if len(words) > 1 else ""
    if kind == "meld":
        if not rest.strip():
            raise CardParseError(
                text, _("write meld and its cards, e.g. meld 5H 6H 7H"), _("a move")
            )
        return MeldMove(tuple(read_cards(rest, "parse_move")))
    label = _label_move(text.strip())
    if label is not None:
        return label
    if kind in ("lay_off", "swap"):
        parts = rest.split(None, 1)
        if len(parts) != 2:
            raise CardParseError(
                text, _("write {kind} <meld number> <card>").format(kind=kind), _("a move")
            )
        card = _one_card(parts[1], text, kind)
        target = _target(parts[0], text)
        return LayOff(target, card) if kind == "lay_off" else Swap(target, card)
    simple: dict[str, Move] = {"end_turn": EndTurn(), "dead": DeclareDead(), "game": DeclareGame()}
    if kind in simple and not rest:
        return simple[kind]
    raise CardParseError(text, _(_STARTS), _("a move"))


def move_to_dict(move: Move) -> dict[str, Any]:
    """A JSON-ready description of a move (`type` plus its cards and target)."""
    require_move(move)
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
    # Only move_from_dict's ValueError and ArgumentTypeError show these (a programmer's error).
    "cards": "the cards as text, e.g. '5H 6H 7H'",  # not for learners: a programmer's error
    "meld": "the number of a meld on the table, from 0",  # not for learners: a programmer's error
    "card": "one card as text, e.g. '8H'",  # not for learners: a programmer's error
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
            _("a move type is one of {types}").format(types=", ".join(MOVE_TYPES)),
            _("a move type"),
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
                    str(value), _("a meld number is a whole number from 0"), _("a meld number")
                )
        elif not isinstance(value, str):
            raise ArgumentTypeError(f"{key!r} should be {FIELD_WORDS[key]}, not {shown(value)}")
    if kind == "meld":
        return MeldMove(tuple(read_cards(data["cards"], "'cards'")))
    if kind in ("lay_off", "swap"):
        return parse_move(f"{kind} {data['meld']} {data['card']}")
    return parse_move(kind)
