"""The rule book as data: every rule id of RULES.md, and `Rules`, the switchable house rules."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, Final

from penang_lib.cards import rank_text


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
    "deck": "Two packs of 52 plus 6 jokers; no meld may need more copies of a card than that.",
    "players": "Two to five players; four is the classic table.",
    "deal": "Cards are dealt one at a time from the dealer's left until each hand is full.",
    "dealer": "The winner deals the next deal (or the worst loser, when no points are kept).",
    "turn-order": "Play starts on the dealer's left and goes clockwise, skipping dead players.",
    "turn": "Each turn needs at least one meld or lay-off; there is no passing.",
    "meld": "A meld is three or more cards laid from the hand, forming a run or a set.",
    "run": "A run is three or more cards of one suit in a row; the ace is low or high.",
    "set": "A set is three or more cards of one rank; suits may repeat.",
    "joker": "A joker stands for any card in a meld, but a meld needs at least one real card.",
    "lay-off": "A card from the hand may extend any meld on the table.",
    "passport": "A player's first action in a deal must be a meld from their own hand.",
    "dead.passport": "A player who cannot meld on their first turn is dead at once.",
    "swap": "After the passport, a joker on the table may be taken in exchange for its card.",
    "dead": "A player who can neither meld nor lay off when their turn comes is dead.",
    "game": "A player who empties their hand calls Game and wins the deal.",
    "end": "The deal ends when someone goes out or when every player is dead.",
    "scoring": "Cards left in hand count against you; the lowest count wins the deal.",
}
"""Every rule id, in teaching order, with a one-line summary in our own words."""

HOUSE_RULE_FIELDS: Final = (
    "jokers",
    "packs_five_players",
    "hand_size_two_players",
    "all_joker_melds",
    "end_condition",
)
"""The `Rules` fields whose defaults are our own choice rather than the sources' (house rules)."""


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
            if f.type == "int" and (not isinstance(value, int) or isinstance(value, bool)):
                raise ValueError(f"the setting {f.name} should be a whole number, not {value!r}")
            if f.type == "bool" and not isinstance(value, bool):
                raise ValueError(f"the setting {f.name} should be true or false, not {value!r}")
        if not isinstance(self.values, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in self.values.values()
        ):
            raise ValueError("the card values should map each rank to a whole number of points")
        if self.packs < 1 or self.packs_five_players < 1:
            raise ValueError("the deck needs at least one pack (rule deck)")
        if self.jokers < 0:
            raise ValueError("the number of jokers cannot be negative (rule deck)")
        for size in (self.hand_size_small, self.hand_size_large, self.hand_size_two_players):
            if size < 3:
                raise ValueError("a hand needs at least three cards to make a passport (rule deal)")
        missing = set(_default_values()) - set(self.values)
        if missing:
            raise ValueError(f"card values are missing for {', '.join(sorted(missing))}")
        object.__setattr__(self, "values", dict(self.values))  # the caller's dict stays theirs
        object.__setattr__(self, "end_condition", EndCondition(self.end_condition))
        object.__setattr__(self, "dealer_system", DealerSystem(self.dealer_system))
        by_rank = [self.values["JK"]] + [self.values[rank_text(r)] for r in range(1, 14)]
        object.__setattr__(self, "_value_by_rank", tuple(by_rank))

    def __hash__(self) -> int:
        return hash(repr(sorted(self.as_dict().items())))

    def packs_for(self, players: int) -> int:
        """How many packs a deal of `players` uses."""
        return self.packs_five_players if players == 5 else self.packs

    def hand_size(self, players: int) -> int:
        """How many cards each player is dealt (rule `deal`)."""
        self.check_players(players)
        if players == 2:
            return self.hand_size_two_players
        return self.hand_size_small if players == 3 else self.hand_size_large

    def check_players(self, players: int) -> None:
        """Raise a `ValueError` naming rule `players` unless this many may play."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"Penang Rummy is played by {self.min_players} to {self.max_players} players, "
                f"not {players} (rule players)"
            )

    def card_value(self, rank: int) -> int:
        """Points a card of this rank counts in hand (0 is the joker)."""
        value: int = self._value_by_rank[rank]  # type: ignore[attr-defined]
        return value

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
        known = {f.name for f in fields(Rules)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rule settings: {', '.join(sorted(unknown))}")
        return Rules(**data)

    def house_rules_in_use(self) -> list[str]:
        """The house-rule fields that differ from the default."""
        default = Rules()
        return [name for name in HOUSE_RULE_FIELDS if getattr(self, name) != getattr(default, name)]
