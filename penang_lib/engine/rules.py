"""The rule book as data: every rule id of RULES.md, and `Rules`, the switchable house rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, Final, TypeVar

from penang_lib.engine.cards import MAX_JOKERS, MAX_PACKS, rank_text
from penang_lib.engine.validate import ArgumentTypeError, require_whole, shown
from penang_lib.i18n import N_


class DealerSystem(str, Enum):
    """Who deals the next deal of a match (rule `dealer`)."""

    WINNER = "winner"
    """Points are recorded: the winner of the last deal deals (the default)."""
    WORST_LOSER = "worst_loser"
    """Points are not recorded: the player with the highest count deals."""


class EndCondition(str, Enum):
    """When a deal with nobody out ends (rule `end`)."""

    ALL_DEAD = "all_dead"
    """The default: a lone survivor plays on until they go out or are dead."""
    ONE_ALIVE = "one_alive"
    """House rule (grokipedia): the deal ends as soon as only one player is alive."""


RULE_BOOK: Final[dict[str, str]] = {
    "deck": N_("Two packs of 52 plus 6 jokers; no meld may need more copies of a card than that."),
    "players": N_("Two to five players; four is the classic table."),
    "deal": N_("Cards are dealt one at a time from the dealer's left until each hand is full."),
    "dealer": N_(
        "The first dealer is drawn at random; then the winner of a deal deals the next "
        "(or the worst loser, when no points are kept), and a tie goes to the tied player nearest "
        "clockwise from the last dealer's left."
    ),
    "turn-order": N_("Play starts on the dealer's left and goes clockwise, skipping dead players."),
    "turn": N_("Each turn needs at least one meld or lay-off; there is no passing."),
    "meld": N_("A meld is three or more cards laid from the hand, forming a run or a set."),
    "run": N_(
        "A run is three or more cards of one suit in a row; the ace is low (A-2-3) or high "
        "(Q-K-A), and a run never turns the corner: K-A-2 is not a run."
    ),
    "set": N_("A set is three or more cards of one rank; suits may repeat."),
    "joker": N_("A joker stands for any card in a meld, but a meld needs at least one real card."),
    "lay-off": N_("A card from the hand may extend any meld on the table."),
    "passport": N_("A player's first action in a deal must be a meld from their own hand."),
    "dead.passport": N_("A player who cannot meld on their first turn is dead at once."),
    "swap": N_("After the passport, a joker on the table may be taken in exchange for its card."),
    "dead": N_("A player who can neither meld nor lay off when their turn comes is dead."),
    "game": N_("A player who empties their hand calls Game and wins the deal."),
    "end": N_(
        "The deal ends when someone goes out or when every player is dead; a lone player "
        "still alive plays on."
    ),
    "scoring": N_(
        "Cards left in hand count against you; the lowest count wins the deal, and a tie "
        "shares the win."
    ),
}
"""Every rule id, in teaching order, with a one-line summary in our own words (marked for the
catalog: show a summary through `_()`)."""

HOUSE_RULE_FIELDS: Final = (
    "jokers",
    "packs_five_players",
    "hand_size_two_players",
    "all_joker_melds",
    "end_condition",
)
"""The `Rules` fields whose defaults are our own choice rather than the sources' (house rules)."""


MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
"""Penang Rummy is played by two to five (rule `players`); `Rules` may narrow that range."""
MAX_CARD_VALUE: Final = 1000
"""The most points one card may count (the rule book's highest is a joker's 20)."""
PLAYER_WORDS: Final = {2: "two", 3: "three", 4: "four", 5: "five"}

E = TypeVar("E", bound=Enum)


def _choice(value: object, kind: type[E], name: str) -> E:
    """`value` as a member of the enum `kind` (a member or its text)."""
    if isinstance(value, kind):
        return value
    choices = ", ".join(str(m.value) for m in kind)
    if not isinstance(value, str):
        raise ArgumentTypeError(
            f"the setting {name} should be one of {choices}, not {shown(value)}"
        )
    try:
        return kind(value)
    except ValueError:
        raise ValueError(
            f"the setting {name} should be one of {choices}, not {shown(value)}"
        ) from None


def _default_values() -> dict[str, int]:
    values = {str(rank): rank for rank in range(2, 11)}
    values.update({"A": 15, "J": 10, "Q": 10, "K": 10, "JK": 20})
    return values


@dataclass(frozen=True)
class Rules:
    """Every setting of a deal. `Rules()` is the rule book's default; each house rule is a field."""

    packs: int = 2
    """Standard 52-card packs in the deck (rule `deck`)."""
    jokers: int = 6
    """Jokers in the deck: 6 by default, 8 is a common house rule (rule `deck`)."""
    packs_five_players: int = 3
    """Packs used when five play (house rule: a third pack is added)."""
    hand_size_small: int = 25
    """Cards dealt to each player when three play (rule `deal`)."""
    hand_size_large: int = 20
    """Cards dealt to each player when four or five play (rule `deal`)."""
    hand_size_two_players: int = 25
    """Cards dealt to each of two players (house rule: no source gives it)."""
    values: dict[str, int] = field(default_factory=_default_values)
    """Points per card left in hand, by rank text (A, 2..10, J, Q, K) and JK (rule `scoring`)."""
    all_joker_melds: bool = False
    """House rule: a meld made only of jokers, each declared as a given card, is allowed."""
    end_condition: EndCondition = EndCondition.ALL_DEAD
    """When a deal without a winner ends (rule `end`)."""
    dealer_system: DealerSystem = DealerSystem.WINNER
    """Who deals the next deal of a match (rule `dealer`)."""
    min_players: int = 2
    max_players: int = 5

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "int" and value.__class__ is not int:
                raise ArgumentTypeError(
                    f"the setting {f.name} should be a whole number, not {shown(value)}"
                )
            if f.type == "bool" and not isinstance(value, bool):
                raise ArgumentTypeError(
                    f"the setting {f.name} should be true or false, not {shown(value)}"
                )
        self._require_numbers()
        values = self._checked_values()
        object.__setattr__(self, "values", values)  # a copy: the caller's dict stays theirs
        end = _choice(self.end_condition, EndCondition, "end_condition")
        object.__setattr__(self, "end_condition", end)
        dealer = _choice(self.dealer_system, DealerSystem, "dealer_system")
        object.__setattr__(self, "dealer_system", dealer)
        by_rank = [values["JK"]] + [values[rank_text(r)] for r in range(1, 14)]
        object.__setattr__(self, "_value_by_rank", tuple(by_rank))
        # The same values by count-vector index (52 naturals suit-major, then the joker), so
        # that a hand's count is one pass over its count vector.
        by_index = (*(by_rank[i % 13 + 1] for i in range(52)), by_rank[0])
        object.__setattr__(self, "_value_by_index", by_index)

    def _require_numbers(self) -> None:
        if not (1 <= self.packs <= MAX_PACKS and 1 <= self.packs_five_players <= MAX_PACKS):
            raise ValueError(
                f"the deck holds from 1 to {MAX_PACKS} packs, not "
                f"{self.packs if not 1 <= self.packs <= MAX_PACKS else self.packs_five_players} "
                "(rule deck)"
            )
        if not 0 <= self.jokers <= MAX_JOKERS:
            raise ValueError(
                f"the deck holds from 0 to {MAX_JOKERS} jokers, not {self.jokers} (rule deck)"
            )
        for size in (self.hand_size_small, self.hand_size_large, self.hand_size_two_players):
            if size < 3:
                raise ValueError("a hand needs at least three cards to make a passport (rule deal)")
        for players, name in (
            (2, "hand_size_two_players"),
            (3, "hand_size_small"),
            (4, "hand_size_large"),
        ):
            size = getattr(self, name)
            deck = 52 * self.packs_for(players) + self.jokers
            if size > deck:
                raise ValueError(
                    f"{name}={size} is more cards than the whole deck holds ({deck}) (rule deal)"
                )
        for name in ("min_players", "max_players"):
            number = getattr(self, name)
            if not MIN_PLAYERS <= number <= MAX_PLAYERS:
                raise ValueError(
                    f"the setting {name} should be from {MIN_PLAYERS} to {MAX_PLAYERS}, not "
                    f"{number}: Penang Rummy is played by two to five (rule players)"
                )
        if self.min_players > self.max_players:
            raise ValueError(
                f"min_players ({self.min_players}) cannot be more than max_players "
                f"({self.max_players}) (rule players)"
            )

    def _checked_values(self) -> dict[str, int]:
        values = self.values
        if not isinstance(values, Mapping):
            raise ArgumentTypeError(
                "the card values should map each rank (A, 2-10, J, Q, K, JK) to its points, "
                f"not {shown(values)}"
            )
        known = _default_values()
        unknown = [k for k in values if k not in known]
        if unknown:
            raise ValueError(
                f"card values are for A, 2-10, J, Q, K and JK, not {shown(unknown[0])}"
            )
        missing = set(known) - set(values)
        if missing:
            raise ValueError(f"card values are missing for {', '.join(sorted(missing))}")
        for rank, points in values.items():
            if points.__class__ is not int:
                raise ArgumentTypeError(
                    f"the card value of {rank} should be a whole number of points, "
                    f"not {shown(points)}"
                )
            if not 0 <= points <= MAX_CARD_VALUE:
                raise ValueError(
                    f"the card value of {rank} should be from 0 to {MAX_CARD_VALUE} points, "
                    f"not {points} (rule scoring)"
                )
        return dict(values)

    def __hash__(self) -> int:
        return hash(repr(sorted(self.as_dict().items())))

    def packs_for(self, players: int) -> int:
        """How many packs a deal of `players` uses."""
        players = require_whole(players, "players", MIN_PLAYERS, MAX_PLAYERS)
        return self.packs_five_players if players == 5 else self.packs

    def hand_size(self, players: int) -> int:
        """How many cards each player is dealt (rule `deal`)."""
        self.require_players(players)
        return self._hand_size(players)

    def _hand_size(self, players: int) -> int:
        if players == 2:
            return self.hand_size_two_players
        return self.hand_size_small if players == 3 else self.hand_size_large

    def require_players(self, players: int) -> None:
        """Raise a `ValueError` naming rule `players` unless this many may play (and an
        `ArgumentTypeError` when `players` is not a whole number)."""
        players = require_whole(players, "players")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"Penang Rummy is played by {self.min_players} to {self.max_players} players, "
                f"not {players} (rule players)"
            )

    def require_deal(self, players: int) -> None:
        """Raise a `ValueError` unless a deal of `players` can be dealt under these rules: the
        player count is allowed (rule `players`) and the deck holds every hand (rule `deal`)."""
        self.require_players(players)
        packs = self.packs_for(players)
        deck = 52 * packs + self.jokers
        size = self._hand_size(players)
        if size * players > deck:
            name = (
                "hand_size_two_players"
                if players == 2
                else "hand_size_small"
                if players == 3
                else "hand_size_large"
            )
            raise ValueError(
                f"the deck is too small: {name}={size} deals {players} x {size} = "
                f"{size * players} cards to {PLAYER_WORDS[players]} players, but {packs} "
                f"pack{'s' if packs != 1 else ''} and {self.jokers} jokers hold only {deck} "
                "(rule deal)"
            )

    def card_value(self, rank: int) -> int:
        """Points a card of this rank counts in hand (0 is the joker)."""
        if rank.__class__ is int and 0 <= rank <= 13:
            value: int = self._value_by_rank[rank]  # type: ignore[attr-defined]
            return value
        require_whole(rank, "rank", 0, 13)
        raise AssertionError("unreachable")  # pragma: no cover

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready settings."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, dict):
                value = dict(value)  # a copy: the settings stay frozen
            out[f.name] = value
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Rules:
        """Settings from `as_dict` output; unknown keys are an error."""
        if not isinstance(data, Mapping):
            raise ArgumentTypeError(
                f"rule settings should be an object of setting names, not {shown(data)}"
            )
        known = {f.name for f in fields(Rules)}
        unknown = [key for key in data if key not in known]
        if unknown:
            names = ", ".join(sorted(shown(k) if not isinstance(k, str) else k for k in unknown))
            raise ValueError(f"unknown rule settings: {names}")
        return Rules(**data)

    @staticmethod
    def of(value: object, name: str = "rules") -> Rules:
        """`value` when it is a `Rules`, the default rules for None; an `ArgumentTypeError`
        naming the argument otherwise."""
        if value is None:
            return DEFAULT
        if not isinstance(value, Rules):
            raise ArgumentTypeError(
                f"{name} should be a Rules (or None for the rule book's), not {shown(value)}"
            )
        return value


DEFAULT: Final = Rules()
"""The rule book's rules (`Rules()`), shared."""
