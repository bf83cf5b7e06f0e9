"""penang_lib: the rules engine of Penang Rummy (Si Rummy).

The rule-check API of the rule book (`parse_cards`, `check_meld`, `check_lay_off`, `check_swap`,
`can_play`, `deadwood_points`) and the `Deal` state machine with python-chess manners. Every
public function checks what it is given: a wrong type is an `ArgumentTypeError` (a `TypeError`
that is also a `ValueError`) naming the argument, a value out of range a `ValueError`. Bots that
play from one player's view (`PlayerView`, `make_bot`), `simulate` for many bot deals and
`find_deal` for a deal that shows given rules.

The engine's hottest modules are compiled with mypyc in a wheel built with `PENANG_COMPILE=1`,
and pure Python in every other install: `penang_lib.engine.compiled.engine_runs()` says which.

The package's folders are its layers, each importing only those below it: `engine` (the rules,
with its bit-mask internals in `engine.fast`), `course` (lesson positions, quizzes, puzzles,
reviews, progress and links to a lesson page, judged by the engine, no Jupyter), `data` (pandas
frames), `widgets` (the Jupyter widgets the lessons show; the repository's top folder
`widgets/`), `cli` (the command) and `site` (what Voila serves); `notebooks` is the lessons,
shipped as package data.
"""

from penang_lib.data.simulate import simulate, summary
from penang_lib.engine.bots import (
    BOT_NAMES,
    Bot,
    CarefulBot,
    Choice,
    GreedyBot,
    RandomBot,
    make_bot,
    play_deal,
)
from penang_lib.engine.cards import JOKER, Card, CardParseError, full_deck, parse_cards
from penang_lib.engine.checks import (
    Verdict,
    can_play,
    check_lay_off,
    check_meld,
    check_swap,
    deadwood_points,
)
from penang_lib.engine.deadwood import DeadwoodResult, least_deadwood
from penang_lib.engine.deal import Deal, Outcome, Phase, Status, Termination
from penang_lib.engine.events import Event
from penang_lib.engine.explain import explain
from penang_lib.engine.match import Match, next_dealer
from penang_lib.engine.melds import Kind, Meld
from penang_lib.engine.moves import (
    DeclareDead,
    DeclareGame,
    EndTurn,
    IllegalMove,
    LayOff,
    LegalMoves,
    MeldMove,
    Move,
    Swap,
    parse_move,
)
from penang_lib.engine.record import RecordError, dumps, from_record, loads, to_record
from penang_lib.engine.rules import RULE_BOOK, DealerSystem, EndCondition, Rules
from penang_lib.engine.showcase import find_deal
from penang_lib.engine.validate import MAX_SEED, ArgumentTypeError
from penang_lib.engine.view import PlayerView

__version__ = "0.1.0"

__all__ = [
    "BOT_NAMES",
    "JOKER",
    "MAX_SEED",
    "RULE_BOOK",
    "ArgumentTypeError",
    "Bot",
    "Card",
    "CardParseError",
    "CarefulBot",
    "Choice",
    "DeadwoodResult",
    "Deal",
    "DealerSystem",
    "DeclareDead",
    "DeclareGame",
    "EndCondition",
    "EndTurn",
    "Event",
    "GreedyBot",
    "IllegalMove",
    "Kind",
    "LayOff",
    "LegalMoves",
    "Match",
    "Meld",
    "MeldMove",
    "Move",
    "Outcome",
    "Phase",
    "PlayerView",
    "RandomBot",
    "RecordError",
    "Rules",
    "Status",
    "Swap",
    "Termination",
    "Verdict",
    "can_play",
    "check_lay_off",
    "check_meld",
    "check_swap",
    "deadwood_points",
    "dumps",
    "explain",
    "find_deal",
    "from_record",
    "full_deck",
    "least_deadwood",
    "loads",
    "make_bot",
    "next_dealer",
    "parse_cards",
    "parse_move",
    "play_deal",
    "simulate",
    "summary",
    "to_record",
]
