"""penang_lib: the rules engine of Penang Rummy (Si Rummy).

The rule-check API of the rule book (`parse_cards`, `check_meld`, `check_lay_off`, `check_swap`,
`can_play`, `deadwood_points`) and the `Deal` state machine with python-chess manners.
"""

from penang_lib.cards import JOKER, Card, CardParseError, full_deck, parse_cards
from penang_lib.checks import (
    Verdict,
    can_play,
    check_lay_off,
    check_meld,
    check_swap,
    deadwood_points,
)
from penang_lib.deal import Deal, Phase, Status
from penang_lib.events import Event
from penang_lib.explain import explain
from penang_lib.match import Match, next_dealer
from penang_lib.melds import Kind, Meld
from penang_lib.moves import (
    DeclareDead,
    DeclareGame,
    EndTurn,
    IllegalMove,
    LayOff,
    MeldMove,
    Move,
    Swap,
    parse_move,
)
from penang_lib.record import RecordError, dumps, from_record, loads, to_record
from penang_lib.rules import RULE_BOOK, DealerSystem, EndCondition, Rules

__version__ = "0.1.0"

__all__ = [
    "JOKER",
    "RULE_BOOK",
    "Card",
    "CardParseError",
    "Deal",
    "DealerSystem",
    "DeclareDead",
    "DeclareGame",
    "EndCondition",
    "EndTurn",
    "Event",
    "IllegalMove",
    "Kind",
    "LayOff",
    "Match",
    "Meld",
    "MeldMove",
    "Move",
    "Phase",
    "RecordError",
    "Rules",
    "Status",
    "Swap",
    "Verdict",
    "can_play",
    "check_lay_off",
    "check_meld",
    "check_swap",
    "deadwood_points",
    "dumps",
    "explain",
    "from_record",
    "full_deck",
    "loads",
    "next_dealer",
    "parse_cards",
    "parse_move",
    "to_record",
]
