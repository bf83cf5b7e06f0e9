"""Puzzles: a position from a real deal with one right answer, proved by the engine.

A puzzle is a deal record, the number of moves played (`ply`) and the seat to move there (the
learner's). Its `kind` says what makes the answer the only one:

- `passport`: a first turn on which exactly one meld can be made. The answers are that meld's
  moves: when a joker can stand for more than one card, every reading of the same cards counts.
- `dead.passport`: a first turn on which no meld can be made, though the hand holds pairs,
  two cards of a run or a joker: the answer is to declare Dead.
- `lay-off`: after the passport, no meld is left in the hand, no swap helps and exactly one
  card fits exactly one table meld: that lay-off is the only action (rule `turn`).
- `swap`: after the passport, no meld and no lay-off can be made as the hand stands, but a swap
  brings a joker that can be played: the answers are the swaps that leave an action.
- `dead`: after the passport, nothing can be played even counting swaps, though some cards
  look as if they could (a card of a table run's suit, a joker on the table, a pair): the answer
  is to declare Dead.
- `game`: the hand (at most `MAX_GAME_HAND` cards) can be emptied this turn, but only when the
  turn starts with one of a few moves; most legal first moves leave it impossible. The answers
  are the first moves from which some order of melds, lay-offs and swaps empties the hand.

Every position is one at the start of a turn (no action made yet). `solve(deal, kind)` is the
proof: it searches every legal move (for `game`, every order of this turn's moves, remembering
positions already searched) and returns the answers, or a sentence saying why the position is no
puzzle of that kind. `prove(puzzle)` runs it again from the puzzle's record. `judge` says
whether a move is right, in the engine's own sentences. A puzzle's difficulty, 1 to 5, grows
with the tempting wrong moves (legal first moves that fail, pairs that are no meld, cards of a
table run's suit that do not fit it) and with the share of legal moves that fail. The shipped
set lives in notebooks/lessons/data/puzzles.json, made by `penang-rummy puzzles` (see `mining`).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Any, Final

from penang_lib.engine.analysis import iter_lay_offs
from penang_lib.engine.cards import Card, cards_symbols, cards_text
from penang_lib.engine.deal import Deal
from penang_lib.engine.events import Event
from penang_lib.engine.explain import explain
from penang_lib.engine.melds import Kind, Meld
from penang_lib.engine.moves import (
    DeclareDead,
    LayOff,
    MeldMove,
    Move,
    Swap,
    move_from_dict,
    move_to_dict,
    require_move,
)
from penang_lib.engine.record import RecordError, from_record, to_record
from penang_lib.engine.rules import RULE_BOOK
from penang_lib.engine.validate import ArgumentTypeError, cut, join_names, shown

__all__ = [
    "DEAD_REFUSED",
    "FORMAT",
    "KIND_QUESTIONS",
    "MAX_GAME_HAND",
    "PUZZLE_KINDS",
    "SEARCH_BUDGET",
    "Judgement",
    "Puzzle",
    "PuzzleError",
    "Solution",
    "answer_sentence",
    "find_puzzle",
    "judge",
    "prove",
    "puzzle_at",
    "puzzles_from_json",
    "puzzles_to_json",
    "shipped_puzzles",
    "solve",
]

PUZZLE_KINDS: Final[tuple[str, ...]] = (
    "passport",
    "dead.passport",
    "lay-off",
    "swap",
    "dead",
    "game",
    "deadwood",
)
"""The kinds of puzzle, in the order the rules are taught."""

KIND_QUESTIONS: Final[dict[str, str]] = {
    "passport": "Your first turn: which is the only meld you can make as your passport?",
    "dead.passport": "Your first turn: make your passport if you can. What do you play?",
    "lay-off": "No meld is left in your hand. Which move keeps you alive this turn?",
    "swap": "You cannot meld or lay off as your hand stands. How do you stay alive this turn?",
    "dead": "Your turn: find a move that keeps you alive, or declare Dead if there is none.",
    "game": "You can go out this turn. Which move must come first?",
    "deadwood": "You cannot go out this turn. Which move starts the turn that leaves you the "
    "fewest points in hand?",
}
"""The question each kind asks the learner (one sentence)."""

KIND_RULES: Final[dict[str, str]] = {
    "passport": "passport",
    "dead.passport": "dead.passport",
    "lay-off": "lay-off",
    "swap": "swap",
    "dead": "dead",
    "game": "game",
    "deadwood": "scoring",
}
"""The rule id a kind is about (the rule of a verdict on a legal move)."""

FORMAT: Final = "penang-rummy/puzzles"
VERSION: Final = 1
MAX_GAME_HAND: Final = 10
"""The `game` search is tried only on hands of at most this many cards (larger hands make far
too many orders of moves to search)."""
SEARCH_BUDGET: Final = 2000
"""How many positions one turn search may visit before it gives up (the position is then not
proved, so it is no puzzle)."""
MAX_DEADWOOD_HAND: Final = 8
"""The `deadwood` search (every way of playing the turn out) is tried only on hands of at most
this many cards."""
MAX_GAME_ANSWERS: Final = 3
"""A `game` puzzle has at most this many right first moves (joker readings of one move count
once)."""
ID_SHAPE: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789.-")
MAX_ID: Final = 40
READER_FIELDS: Final = ("table", "final_hands", "scores", "winners", "over")
"""The fields of a deal record that describe its last position (left out when a record is
replayed only up to a puzzle's position)."""
PUZZLE_FIELDS: Final = (
    "id",
    "kind",
    "ply",
    "seat",
    "question",
    "answers",
    "rules",
    "difficulty",
    "legal",
    "record",
)


class PuzzleError(ValueError):
    """Puzzle data that cannot be used, or a puzzle that is not in a set (one sentence)."""


class _TooLarge(Exception):
    """A turn search visited more positions than its budget allows."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position after the first `ply` moves of `record`, with `seat` to move,
    the `question` asked, every right move (`answers`), the rule ids it is about, how hard it
    is (1 to 5) and how many legal moves the position has."""

    id: str
    kind: str
    record: dict[str, Any]
    ply: int
    seat: int
    question: str
    answers: tuple[Move, ...]
    rules: tuple[str, ...]
    difficulty: int
    legal: int

    def __hash__(self) -> int:
        return hash((self.id, self.kind, self.ply, self.seat, self.answers))

    def position(self) -> Deal:
        """A fresh deal at the puzzle's position (the record's moves replayed by the rules)."""
        return self._deal().copy()

    def _deal(self) -> Deal:
        """The position, replayed once and kept (only ever copied, never changed)."""
        cached = self.__dict__.get("_position")
        if cached is None:
            cached = _replay(self.record, self.ply)
            object.__setattr__(self, "_position", cached)
        deal: Deal = cached
        return deal

    def _answer_effects(self) -> frozenset[tuple[object, ...]]:
        """What each answer does to the table (so a move written another way, e.g. a joker
        without its note, is judged by what it does)."""
        cached = self.__dict__.get("_effects")
        if cached is None:
            deal = self._deal()
            cached = frozenset(_effect(deal.copy(), move)[0] for move in self.answers)
            object.__setattr__(self, "_effects", cached)
        effects: frozenset[tuple[object, ...]] = cached
        return effects


@dataclass(frozen=True)
class Judgement:
    """The engine's verdict on a move played in a puzzle: whether it is right, whether the
    rules allow it at all, the rule id the verdict is about, and its sentence."""

    right: bool
    legal: bool
    rule: str
    sentence: str


@dataclass(frozen=True)
class Solution:
    """What the proof found at a position: the right moves, the rule ids involved, how many
    legal moves there are, how many tempting wrong moves (legal moves that fail, and near
    misses such as a pair that is not a meld), and a sentence saying why the answer is right."""

    kind: str
    answers: tuple[Move, ...]
    rules: tuple[str, ...]
    legal: int
    tempting: int
    why: str

    @property
    def difficulty(self) -> int:
        """1 to 5: one step for each of 2, 5, 10 and 20 tempting wrong moves reached, and one
        more when at least four legal moves in five fail (at most 5)."""
        steps = sum(self.tempting >= n for n in (2, 5, 10, 20))
        failing = self.legal - len(self.answers)
        if self.legal >= 5 and failing * 5 >= self.legal * 4:
            steps += 1
        return min(5, 1 + steps)


# -- replaying -----------------------------------------------------------------------------------
def _replay(record: dict[str, Any], ply: int) -> Deal:
    """The deal after the first `ply` moves of `record`, or a `PuzzleError` saying why not."""
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise PuzzleError("a puzzle's record should hold its list of moves")
    if ply > len(moves):
        raise PuzzleError(
            f"the puzzle's position is after move {ply}, but its record holds only "
            f"{len(moves)} moves"
        )
    data = dict(record)
    if ply < len(moves):
        for key in READER_FIELDS:
            data.pop(key, None)
        data["moves"] = moves[:ply]
    try:
        return from_record(data)
    except (RecordError, ArgumentTypeError) as error:
        raise PuzzleError(f"the puzzle's record cannot be replayed: {error}") from None


def _effect(deal: Deal, move: Move) -> tuple[tuple[object, ...], tuple[Event, ...]]:
    """Play `move` on `deal` (a copy the caller gives up) and say what it did: its type and
    the table meld it made or changed, with the move's events."""
    events = deal.push(move)
    if isinstance(move, MeldMove):
        return ("meld", deal.table[-1]), events
    if isinstance(move, LayOff | Swap):
        return (move.type, move.target, deal.table[move.target]), events
    return (move.type,), events


def _shape(move: Move) -> tuple[object, ...]:
    """A move with its jokers' notes left out: two readings of the same cards look the same."""
    if isinstance(move, MeldMove):
        return ("meld", tuple(sorted((c.rank, c.suit) for c in move.cards)))
    if isinstance(move, LayOff | Swap):
        return (move.type, move.target, move.card.rank, move.card.suit)
    return (move.type,)


# -- what looks playable but is not ------------------------------------------------------------
def _near_melds(hand: Sequence[Card]) -> list[str]:
    """The pairs and the two cards of a run in `hand` that are no meld (a meld needs three), and
    a lone joker, as short phrases."""
    naturals = [c for c in hand if not c.is_joker]
    phrases: list[str] = []
    by_rank: dict[int, list[Card]] = {}
    for card in naturals:
        by_rank.setdefault(card.rank, []).append(card)
    for cards in by_rank.values():
        if len(cards) == 2:
            phrases.append(f"the pair {cards_symbols(cards)}")
    by_suit: dict[str, set[int]] = {}
    for card in naturals:
        by_suit.setdefault(card.suit, set()).add(card.rank)
    for suit, ranks in by_suit.items():
        for rank in sorted(ranks):
            if rank + 1 in ranks and rank - 1 not in ranks and rank + 2 not in ranks:
                phrases.append(f"{cards_symbols([Card(rank, suit), Card(rank + 1, suit)])}")
    if any(c.is_joker for c in hand):
        phrases.append("a joker")
    return phrases


def _table_misses(deal: Deal) -> list[str]:
    """The engine's refusals for cards that look as if they belong on the table: a card of a
    table run's suit that does not fit it, a natural offered for a table joker it is not."""
    hand = [c for c in deal.hand() if not c.is_joker]
    misses: list[str] = []
    for target, meld in enumerate(deal.table):
        for card in hand:
            if meld.kind is Kind.RUN and card.suit == meld.suit:
                error = deal.explain_illegal(LayOff(target, card))
                if error is not None:
                    misses.append(error.reason)
                    break
        if meld.jokers:
            tries = [c for c in hand if meld.kind is Kind.SET or c.suit == meld.suit]
            error = deal.explain_illegal(Swap(target, tries[0])) if tries else None
            if error is not None:
                misses.append(error.reason)
            elif not tries:
                misses.append(
                    f"The joker in meld {target} ({meld.symbols}) could be swapped only for a card "
                    "you do not hold."
                )
    return misses


def _meld_rules(meld: Meld) -> list[str]:
    rules = ["run" if meld.kind is Kind.RUN else "set"]
    if meld.jokers:
        rules.append("joker")
    return rules


# -- the proof ----------------------------------------------------------------------------------
def _positions(rank: int) -> tuple[int, ...]:
    """The run positions a card of `rank` may take (an ace is low, 1, or high, 14)."""
    return (1, 14) if rank == 1 else (rank,)


def _stuck_card(hand: Sequence[Card], table: Sequence[Meld]) -> Card | None:
    """A natural card of `hand` that no order of moves this turn can get out of the hand, or
    None when every card might still go (a quick test that never calls a playable card stuck).

    A card might go when a table set has its rank; a table joker stands for it (a swap); it
    lies beyond the end of a table run of its suit with every card in between in the hand or
    replaceable by a joker; or it can make a meld from the hand with two more cards of its
    rank or two neighbours in its suit, jokers filling in. The jokers counted are those in the
    hand and every joker on the table (a swap may bring any of them in), each counted for every
    card, so the test only ever says too little."""
    jokers = sum(c.is_joker for c in hand) + sum(m.jokers for m in table)
    ranks: Counter[int] = Counter()
    held: dict[str, set[int]] = {}
    for card in hand:
        if not card.is_joker:
            ranks[card.rank] += 1
            held.setdefault(card.suit, set()).update(_positions(card.rank))
    set_ranks = {m.low for m in table if m.kind is Kind.SET}
    stood_for: set[tuple[int, str]] = set()
    for meld in table:
        for card in meld.cards:
            if card.is_joker and card.as_rank is not None:
                stood_for.add((card.as_rank, card.as_suit or ""))
    runs = [m for m in table if m.kind is Kind.RUN]
    for card in hand:
        if card.is_joker or card.rank in set_ranks:
            continue
        if ranks[card.rank] - 1 + jokers >= 2 or (card.rank, "") in stood_for:
            continue
        if (card.rank, card.suit) in stood_for:
            continue
        mine = held.get(card.suit, set())
        if _fits_somewhere(card, mine, jokers, runs):
            continue
        return card
    return None


def _fits_somewhere(card: Card, mine: set[int], jokers: int, runs: Sequence[Meld]) -> bool:
    """Whether `card` could join a run: one of the table's runs of its suit, reached through
    cards of the hand (`mine`: the positions held in that suit) or jokers, or a run of three
    made from the hand."""
    for p in _positions(card.rank):
        for meld in runs:
            if meld.suit != card.suit:
                continue
            if p > meld.high:
                gap = range(meld.high + 1, p)
            elif p < meld.low:
                gap = range(p + 1, meld.low)
            else:
                continue
            if sum(q not in mine for q in gap) <= jokers:
                return True
        for low in range(max(1, p - 2), min(p, 12) + 1):
            others = [q for q in range(low, low + 3) if q != p]
            if sum(q not in mine for q in others) <= jokers:
                return True
    return False


_NEVER: Final = 10**9
"""More points than any hand holds: a turn that cannot end yet."""
_PHASES: Final[dict[type, int]] = {Swap: 0, MeldMove: 1, LayOff: 2}
"""The order the turn search plays moves in: swaps, then melds, then lay-offs."""


class _TurnSearch:
    """Every way of playing out one player's turn, remembering each position searched:
    `empties(deal)` says whether the hand can be emptied before the turn ends.

    Only one order of each set of moves is tried: swaps first, then melds, then lay-offs. That
    loses nothing: a swap needs only the natural card in hand and a joker already on the
    table, a meld only cards in hand (lay-offs take cards away, never add them), while a
    lay-off may need a meld made first (to lie on) or another lay-off (to reach its place in
    a run). A joker the player puts on the table and swaps back at once changes nothing."""

    def __init__(self, budget: int = SEARCH_BUDGET) -> None:
        self.budget = budget
        self.visited = 0
        self.memo: dict[tuple[object, ...], bool] = {}
        self.points: dict[tuple[object, ...], int] = {}

    def _moves(self, deal: Deal, phase: int) -> list[Move]:
        """The moves the search may play next, from `phase` on (0 swaps, 1 melds, 2 lay-offs)."""
        if phase < 2:
            return [m for m in deal.legal_moves if _PHASES.get(m.__class__, -1) >= phase]
        moves: list[Move] = []
        for option in iter_lay_offs(deal.hands[deal.turn], deal.table):
            move = LayOff(option.target, option.card)
            if move not in moves:
                moves.append(move)
        return moves

    def empties(self, deal: Deal, phase: int = 0) -> bool:
        if deal.hand_size(deal.turn) == 0:
            return True
        key = (deal.hands[deal.turn], tuple(deal.table), phase)
        known = self.memo.get(key)
        if known is not None:
            return known
        if _stuck_card(deal.hand(), deal.table) is not None:
            self.memo[key] = False
            return False
        self.visited += 1
        if self.visited > self.budget:
            raise _TooLarge
        found = False
        for move in self._moves(deal, phase):
            deal.push(move)
            try:
                found = self.empties(deal, _PHASES[move.__class__])
            finally:
                deal.pop()
            if found:
                break
        self.memo[key] = found
        return found

    def least(self, deal: Deal, phase: int = 0) -> int:
        """The fewest points the player can hold when this turn ends (0 when the hand can be
        emptied): the turn may end once it has had an action."""
        me = deal.turn
        if deal.hand_size(me) == 0:
            return 0
        key = (deal.hands[me], tuple(deal.table), phase, deal.actions > 0)
        known = self.points.get(key)
        if known is not None:
            return known
        self.visited += 1
        if self.visited > self.budget:
            raise _TooLarge
        best = deal.count(me) if deal.actions else _NEVER
        for move in self._moves(deal, phase):
            deal.push(move)
            try:
                best = min(best, self.least(deal, _PHASES[move.__class__]))
            finally:
                deal.pop()
            if best == 0:
                break
        self.points[key] = best
        return best

    def line(self, deal: Deal, phase: int = 0) -> list[Move]:
        """One order of moves that empties the hand from `deal` (empty when there is none)."""
        if deal.hand_size(deal.turn) == 0 or not self.empties(deal, phase):
            return []
        for move in self._moves(deal, phase):
            deal.push(move)
            try:
                after = _PHASES[move.__class__]
                if self.empties(deal, after):
                    return [move, *self.line(deal, after)]
            finally:
                deal.pop()
        return []  # pragma: no cover - empties() said a move leads there


def _start_problem(deal: Deal, passport: bool | None) -> str | None:
    """Why `deal` is not the start of a turn of the kind asked (None when it is)."""
    if deal.is_over:
        return "The deal is over: there is no move to find."
    if deal.actions:
        return "The player has already played this turn; a puzzle starts a turn."
    if passport is not None and deal.passport[deal.turn] != passport:
        return (
            "The player has no passport yet, so this is a first turn."
            if passport
            else "The player already has a passport, so this is not a first turn."
        )
    return None


def _solve_passport(deal: Deal) -> Solution | str:
    melds: list[MeldMove] = []
    shapes: set[tuple[object, ...]] = set()
    for move in deal.legal_moves:  # stop at the second different meld
        if isinstance(move, MeldMove):
            shapes.add(_shape(move))
            if len(shapes) > 1:
                return "At least 2 different melds can be made: the passport is not the only one."
            melds.append(move)
    if not melds:
        return "No meld can be made from this hand, so there is no passport to find."
    first = deal.copy()
    first.push(melds[0])
    meld = first.table[-1]
    tempting = len(_near_melds(deal.hand()))
    why = "It is the only meld in the hand, so it has to be the passport."
    return Solution(
        "passport",
        tuple(melds),
        ("passport", "meld", *_meld_rules(meld)),
        len(melds),
        tempting,
        why,
    )


def _solve_dead_passport(deal: Deal) -> Solution | str:
    if next(iter(deal.legal_moves)) != DeclareDead():
        return "A meld can be made, so the player has a passport and is not dead."
    near = _near_melds(deal.hand())
    if not near:
        return "Nothing in the hand looks like a meld, so the answer is too plain to ask."
    why = (
        f"{deal.can_play().reason} {join_names(near[:3]).capitalize()} may look promising, but "
        "a meld needs three cards."
    )
    return Solution(
        "dead.passport", (DeclareDead(),), ("dead.passport", "passport", "meld"), 1, len(near), why
    )


def _without_melds(deal: Deal) -> list[Move] | None:
    """The legal moves, or None as soon as a meld is among them (melds are listed first)."""
    moves: list[Move] = []
    for move in deal.legal_moves:
        if isinstance(move, MeldMove):
            return None
        moves.append(move)
    return moves


def _solve_lay_off(deal: Deal) -> Solution | str:
    moves = _without_melds(deal)
    if moves is None:
        return "A meld can still be made from the hand, so a lay-off is not the only action."
    if any(isinstance(m, Swap) for m in moves):
        return "A swap also leads to an action, so the lay-off is not the only way to play."
    lay_offs = [m for m in moves if isinstance(m, LayOff)]
    if not lay_offs:
        return "No card can be laid off, so there is no lay-off to find."
    shapes = {_shape(m) for m in lay_offs}
    if len(shapes) > 1:
        return f"{len(shapes)} different lay-offs can be made: none is the only one."
    if deal.hand_size(deal.turn) < 2:
        return "The last card in hand is the only card to play: too plain to ask."
    kind = deal.table[lay_offs[0].target].kind
    misses = _table_misses(deal)
    why = (
        "No meld is left in the hand and no other card fits any table meld, so this lay-off "
        "is the only action that keeps the player alive."
    )
    rules = ("lay-off", "run" if kind is Kind.RUN else "set", "turn", "dead")
    return Solution("lay-off", tuple(lay_offs), rules, len(moves), len(misses), why)


def _solve_swap(deal: Deal) -> Solution | str:
    moves = _without_melds(deal)
    if moves is None or any(isinstance(m, LayOff) for m in moves):
        return "A meld or a lay-off can be made without a swap."
    swaps = [m for m in moves if isinstance(m, Swap)]
    if not swaps:
        return "No swap leads to an action here."
    misses = _table_misses(deal)
    why = (
        "As the hand stands nothing can be melded or laid off; the swap brings a joker into the "
        "hand, and the joker can then be played, so the player stays alive."
    )
    rules = ("swap", "joker", "dead", "lay-off")
    return Solution("swap", tuple(swaps), rules, len(moves), len(misses), why)


def _solve_dead(deal: Deal) -> Solution | str:
    if next(iter(deal.legal_moves)) != DeclareDead():
        return "The player can still play, so declaring Dead is not allowed."
    misses = _table_misses(deal)
    near = _near_melds(deal.hand())
    if not misses and not near:
        return "Nothing in the hand looks playable, so the answer is too plain to ask."
    hint = misses[0] if misses else f"{join_names(near[:3]).capitalize()} make no meld."
    why = f"{deal.can_play().reason} For instance: {hint}"
    rules = (
        ("dead", "lay-off", "swap") if any(m.jokers for m in deal.table) else ("dead", "lay-off")
    )
    return Solution("dead", (DeclareDead(),), rules, 1, len(misses) + len(near), why)


def _solve_game(deal: Deal, budget: int = SEARCH_BUDGET) -> Solution | str:
    size = deal.hand_size(deal.turn)
    if size > MAX_GAME_HAND:
        return f"The hand holds {size} cards, more than the {MAX_GAME_HAND} the search tries."
    stuck = _stuck_card(deal.hand(), deal.table)
    if stuck is not None:
        return f"No order of moves empties the hand this turn: {stuck.symbol} cannot be played."
    moves = list(deal.legal_moves)
    firsts = [m for m in moves if isinstance(m, MeldMove | LayOff | Swap)]
    search = _TurnSearch(budget)
    work = deal.copy()
    right: list[Move] = []
    rules: set[str] = {"game"}
    try:
        for move in firsts:
            work.push(move)
            try:
                if search.empties(work):
                    right.append(move)
            finally:
                work.pop()
            if len({_shape(m) for m in right}) > MAX_GAME_ANSWERS:
                return "Too many first moves lead to Game for one of them to be the answer."
            if len(right) * 2 >= len(moves):
                return "Most first moves lead to Game: the answer is not hard enough to find."
    except _TooLarge:
        return "The turn has too many orders of moves to search them all."
    if not right:
        return "No order of moves empties the hand this turn."
    if len({_shape(m) for m in right}) > MAX_GAME_ANSWERS:
        return "Too many first moves lead to Game for one of them to be the answer."
    if (len(moves) - len(right)) * 2 <= len(moves):
        return "Most first moves lead to Game: the answer is not hard enough to find."
    work.push(right[0])
    line: list[Move] = [right[0], *search.line(work)]
    work.pop()
    for step in line:  # the rules one winning order of moves applies
        rules.update(event.rule for event in work.push(step) if event.rule in RULE_BOOK)
    order = ("game", *sorted(rules - {"game"}, key=list(RULE_BOOK).index))
    why = "Every card can then be played this turn; every other first move leaves a card stuck."
    failing = len(moves) - len(right)
    return Solution("game", tuple(right), order, len(moves), failing, why)


_MOVE_RULES: Final = {"meld": "meld", "lay_off": "lay-off", "swap": "swap"}


def _solve_deadwood(deal: Deal, budget: int = SEARCH_BUDGET) -> Solution | str:
    size = deal.hand_size(deal.turn)
    if size > MAX_DEADWOOD_HAND:
        return f"The hand holds {size} cards, more than the {MAX_DEADWOOD_HAND} the search tries."
    moves = list(deal.legal_moves)
    firsts = [m for m in moves if isinstance(m, MeldMove | LayOff | Swap)]
    if len(firsts) < 3:
        return "Fewer than three first moves can be made: the choice is too plain to ask."
    search = _TurnSearch(budget)
    work = deal.copy()
    values: list[int] = []
    try:
        for move in firsts:
            work.push(move)
            try:
                values.append(search.least(work))
            finally:
                work.pop()
    except _TooLarge:
        return "The turn has too many ways of being played to search them all."
    best = min(values)
    if best == 0:
        return "The hand can be emptied this turn: that is a game puzzle, not a deadwood one."
    right = [m for m, v in zip(firsts, values, strict=True) if v == best]
    if len({_shape(m) for m in right}) > MAX_GAME_ANSWERS:
        return "Too many first moves lead to the fewest points for one of them to be the answer."
    if (len(moves) - len(right)) * 2 <= len(moves):
        return "Most first moves lead to the fewest points: the answer is too easy to find."
    why = (
        f"Started this way, the turn can end with {best} points in hand, the fewest possible; "
        "any other start keeps more."
    )
    played = {_MOVE_RULES[m.type] for m in right}
    rules = ("scoring", "turn", *(r for r in RULE_BOOK if r in played))
    return Solution("deadwood", tuple(right), rules, len(moves), len(moves) - len(right), why)


_SOLVERS: Final = {
    "passport": (_solve_passport, False),
    "dead.passport": (_solve_dead_passport, False),
    "lay-off": (_solve_lay_off, True),
    "swap": (_solve_swap, True),
    "dead": (_solve_dead, True),
    "game": (_solve_game, None),
    "deadwood": (_solve_deadwood, True),
}
"""Each kind's proof, and whether it needs the passport made (None: either)."""


def _require_kind(kind: object) -> str:
    if not isinstance(kind, str):
        raise ArgumentTypeError(
            f"a puzzle kind is text ({', '.join(PUZZLE_KINDS)}), not {shown(kind)}"
        )
    if kind not in _SOLVERS:
        raise PuzzleError(
            f"there is no puzzle kind {shown(kind)}: the kinds are {', '.join(PUZZLE_KINDS)}"
        )
    return kind


def solve(deal: Deal, kind: str, budget: int = SEARCH_BUDGET) -> Solution | str:
    """The proof at `deal`'s position (the player to move is the learner): the `Solution` when
    the position is a puzzle of `kind`, else one sentence saying why it is not. The deal is left
    as it was. `budget` bounds the `game` search (positions visited); a smaller one gives up
    sooner, and whatever it proves a larger one proves too (the search goes the same way)."""
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"solve takes a Deal, not {shown(deal)}")
    solver, passport = _SOLVERS[_require_kind(kind)]
    problem = _start_problem(deal, passport)
    if problem is not None:
        return problem
    if solver is _solve_game or solver is _solve_deadwood:
        return solver(deal.copy(), budget)
    return solver(deal.copy())


def position_id(deal: Deal, kind: str) -> str:
    """A stable, URL-safe id for a puzzle of `kind` at `deal`'s position: the kind and a digest
    of what the learner sees (the hand, the table, the passport)."""
    seen = "|".join(
        [
            kind,
            cards_text(deal.hand()),
            ";".join(str(meld) for meld in deal.table),
            str(deal.passport[deal.turn]),
        ]
    )
    return f"{kind}-{hashlib.sha256(seen.encode()).hexdigest()[:8]}"


def puzzle_at(
    deal: Deal, kind: str, puzzle_id: str | None = None, found: Solution | None = None
) -> Puzzle:
    """The puzzle of `kind` at `deal`'s position, proved by `solve` (or given its `found`
    solution); a `PuzzleError` with the proof's sentence when the position is not one. The id
    defaults to `position_id`."""
    if found is None:
        solved = solve(deal, kind)
        if isinstance(solved, str):
            raise PuzzleError(solved)
        found = solved
    return Puzzle(
        id=position_id(deal, kind) if puzzle_id is None else _require_id(puzzle_id),
        kind=kind,
        record=to_record(deal),
        ply=deal.ply(),
        seat=deal.turn,
        question=KIND_QUESTIONS[kind],
        answers=found.answers,
        rules=found.rules,
        difficulty=found.difficulty,
        legal=found.legal,
    )


def prove(puzzle: Puzzle) -> str | None:
    """None when the engine still proves the puzzle (its answers are exactly the right moves,
    unique in the sense its kind states); otherwise one sentence saying what broke."""
    if not isinstance(puzzle, Puzzle):
        raise ArgumentTypeError(f"prove takes a Puzzle, not {shown(puzzle)}")
    try:
        deal = _replay(puzzle.record, puzzle.ply)
    except PuzzleError as error:
        return str(error)
    if deal.turn != puzzle.seat:
        return f"At the puzzle's position seat {deal.turn} is to move, not seat {puzzle.seat}."
    found = solve(deal, puzzle.kind)
    if isinstance(found, str):
        return found
    if set(found.answers) != set(puzzle.answers):
        engine = "; ".join(m.label() for m in found.answers)
        return f"The engine's answers are now {engine}, not the puzzle's."
    if found.legal != puzzle.legal:
        return f"The position has {found.legal} legal moves, not {puzzle.legal}."
    return None


# -- judging ------------------------------------------------------------------------------------
def _require_puzzle(puzzle: object) -> Puzzle:
    if not isinstance(puzzle, Puzzle):
        raise ArgumentTypeError(
            f"a puzzle should be a Puzzle (shipped_puzzles()), not {shown(puzzle)}"
        )
    return puzzle


def _wrong_reason(puzzle: Puzzle) -> str:
    """What a legal move that is not an answer misses, in the kind's words."""
    return {
        "passport": "it is not the one meld this hand can make.",
        "dead.passport": "it does not make the passport.",
        "lay-off": "it is not the one lay-off that keeps you alive.",
        "swap": "it is not a swap that lets you play.",
        "dead": "it is not what the rules ask for here.",
        "game": "after it no order of melds, lay-offs and swaps empties your hand this turn.",
        "deadwood": "another start leaves fewer points in hand when the turn ends.",
    }[puzzle.kind]


def _why(puzzle: Puzzle) -> str:
    """Why the answer is right, in the proof's words (worked out once per puzzle)."""
    cached = puzzle.__dict__.get("_why")
    if cached is None:
        if puzzle.kind == "game":
            count = len({_shape(m) for m in puzzle.answers})
            cached = (
                "No other first move lets every card be played this turn."
                if count == 1
                else f"Only {count} first moves let every card be played this turn, and this "
                "is one of them."
            )
        elif puzzle.kind == "deadwood":
            cached = (
                f"Started this way, the turn can end with {_least_after(puzzle)} points in hand, "
                "the fewest possible; any other start keeps more."
            )
        else:
            found = solve(puzzle._deal(), puzzle.kind)
            cached = found.why if isinstance(found, Solution) else ""
        object.__setattr__(puzzle, "_why", cached)
    why: str = cached
    return why


def _least_after(puzzle: Puzzle, move: Move | None = None) -> int | None:
    """The fewest points the turn can end with after `move` (by default the first answer, worked
    out once); None when the search is too large."""
    if move is None and "_least" in puzzle.__dict__:
        least: int | None = puzzle.__dict__["_least"]
        return least
    after = puzzle._deal().copy()
    after.push(puzzle.answers[0] if move is None else move)
    try:
        least = _TurnSearch().least(after)
    except _TooLarge:  # pragma: no cover - a proved puzzle's search fits the budget
        least = None
    if move is None:
        object.__setattr__(puzzle, "_least", least)
    return least


def _sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


def _game_line(deal: Deal) -> str:
    """After the right first move: one order of moves that empties the hand, in words."""
    search = _TurnSearch()
    try:
        line = search.line(deal)
    except _TooLarge:  # pragma: no cover - a proved puzzle's search fits the budget
        return ""
    if not line:
        return ""
    steps = ", then ".join(move.label() for move in line)
    return f" Then {steps}, and declare Game."


DEAD_REFUSED: Final = (
    "{player} can still play this turn, so Dead is not allowed: only a player who can make no "
    "meld and no lay-off, swaps included, may declare Dead."
)
"""A puzzle's verdict on Declare Dead when the player can still play. The engine's own refusal
goes on to name a move that can be played, which would give the puzzle away."""


def judge(puzzle: Puzzle, move: Move) -> Judgement:
    """The engine's verdict on playing `move` in `puzzle` (the puzzle is never changed).

    Right: what the move does (the engine's sentences of its events) and why it is the answer.
    Illegal: the engine's own refusal, under its rule id, except that Declare Dead refused
    because the player can still play says only that (`DEAD_REFUSED`), not which move plays.
    Legal but not an answer: "That is allowed, but ..." and what it misses. A wrong move's
    sentence never names a right one. Arguments of the wrong type raise `ArgumentTypeError`."""
    puzzle = _require_puzzle(puzzle)
    require_move(move)
    base = puzzle._deal()
    refusal = base.explain_illegal(move)
    if refusal is not None:
        reason = refusal.reason
        if isinstance(move, DeclareDead) and refusal.rule == "dead" and not base.actions:
            reason = DEAD_REFUSED.format(player=base.names[base.turn])
        return Judgement(False, False, refusal.rule, reason)
    after = base.copy()
    effect, events = _effect(after, move)
    rule = KIND_RULES[puzzle.kind]
    if effect not in puzzle._answer_effects():
        reason = _wrong_reason(puzzle)
        if puzzle.kind == "deadwood":
            points, best = _least_after(puzzle, move), _least_after(puzzle)
            if points is not None and best is not None:
                reason = (
                    f"after it the turn ends with {points} points in hand at the fewest, and the "
                    f"best start leaves {best}."
                )
        return Judgement(False, True, rule, f"That is allowed, but {reason}")
    said = " ".join(
        explain(event, base.names)
        for event in events
        if event.rule not in ("turn-order", "end", "scoring")
    )
    line = _game_line(after) if puzzle.kind == "game" else ""
    return Judgement(True, True, rule, f"Right. {said}{line} {_why(puzzle)}")


def _answer_words(puzzle: Puzzle) -> str:
    deal = puzzle._deal()
    groups: dict[tuple[object, ...], list[Move]] = {}
    for move in puzzle.answers:
        groups.setdefault(_shape(move), []).append(move)
    words: list[str] = []
    for moves in groups.values():
        move = moves[0]
        if isinstance(move, MeldMove):
            if len(moves) == 1:
                words.append(_sentence_case(move.label()))
            else:
                plain = [c for c in move.cards if not c.is_joker]
                jokers = sum(c.is_joker for c in move.cards)
                readings = " or ".join(cards_symbols(m.cards) for m in moves)  # type: ignore[union-attr]
                joker = "the joker" if jokers == 1 else "the jokers"
                words.append(f"Meld {cards_symbols(plain)} with {joker} ({readings})")
        elif isinstance(move, LayOff | Swap):
            meld = deal.table[move.target]
            if move.card.is_joker and len(moves) > 1:
                cards = " or ".join(m.card.symbol for m in moves)  # type: ignore[union-attr]
                words.append(
                    f"Lay off the joker (as {cards}) on meld {move.target} ({meld.symbols})"
                )
            else:
                words.append(f"{_sentence_case(move.label())} ({meld.symbols})")
        else:
            words.append(_sentence_case(move.label()))
    return " or ".join(words)


def answer_sentence(puzzle: Puzzle) -> str:
    """The answer, shown on request: the right move (or moves) and, for Dead, why."""
    puzzle = _require_puzzle(puzzle)
    words = _answer_words(puzzle)
    if puzzle.kind in ("dead", "dead.passport"):
        return f"{words}: {puzzle._deal().can_play().reason}"
    if puzzle.kind == "game":
        after = puzzle._deal().copy()
        after.push(puzzle.answers[0])
        return f"{words}.{_game_line(after)}"
    if puzzle.kind == "deadwood":
        return f"{words}. The turn can then end with {_least_after(puzzle)} points in hand."
    return f"{words}."


# -- JSON ---------------------------------------------------------------------------------------
def _require_id(value: object) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_ID or not set(value) <= ID_SHAPE:
        raise PuzzleError(
            f"a puzzle id is 1 to {MAX_ID} characters a-z, 0-9, '.' or '-', not {shown(value)}"
        )
    return value


def _puzzle_dict(puzzle: Puzzle) -> dict[str, Any]:
    return {
        "id": puzzle.id,
        "kind": puzzle.kind,
        "ply": puzzle.ply,
        "seat": puzzle.seat,
        "question": puzzle.question,
        "answers": [move_to_dict(m) for m in puzzle.answers],
        "rules": list(puzzle.rules),
        "difficulty": puzzle.difficulty,
        "legal": puzzle.legal,
        "record": puzzle.record,
    }


def puzzles_to_json(puzzles: Sequence[Puzzle], note: str = "") -> str:
    """The puzzles as JSON text (`puzzles_from_json` reads it back); `note` is kept as a
    comment, such as the command that made the set."""
    if isinstance(puzzles, Puzzle) or not isinstance(puzzles, Iterable):
        raise ArgumentTypeError(f"puzzles_to_json takes a list of puzzles, not {shown(puzzles)}")
    items = [_puzzle_dict(_require_puzzle(p)) for p in puzzles]
    head: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if note:
        head["note"] = note
    # One puzzle per line: the file stays small and a change shows as the lines it touches.
    lines = [json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in items]
    opening = json.dumps(head, ensure_ascii=False)[:-1]
    return opening + ', "puzzles": [\n' + ",\n".join(lines) + "\n]}\n"


def _whole(entry: dict[str, Any], key: str, low: int, high: int | None = None) -> int:
    value = entry[key]
    if value.__class__ is not int or value < low or (high is not None and value > high):
        top = f" to {high}" if high is not None else " or more"
        raise PuzzleError(f"{key!r} should be a whole number from {low}{top}, not {shown(value)}")
    number: int = value
    return number


def _read_puzzle(entry: object) -> Puzzle:
    if not isinstance(entry, dict):
        raise PuzzleError(f"a puzzle is an object with {', '.join(PUZZLE_FIELDS)}")
    missing = [key for key in PUZZLE_FIELDS if key not in entry]
    if missing:
        raise PuzzleError(f"a puzzle needs {missing[0]!r}")
    unknown = [key for key in entry if key not in PUZZLE_FIELDS]
    if unknown:
        raise PuzzleError(f"a puzzle has no field {shown(unknown[0])}")
    puzzle_id = _require_id(entry["id"])
    kind = entry["kind"]
    if kind not in _SOLVERS:
        raise PuzzleError(
            f"{shown(kind)} is not a puzzle kind: the kinds are {', '.join(PUZZLE_KINDS)}"
        )
    question = entry["question"]
    if not isinstance(question, str) or not question.strip():
        raise PuzzleError("a puzzle's question should be a sentence of text")
    rules = entry["rules"]
    if not isinstance(rules, list) or not rules or any(r not in RULE_BOOK for r in rules):
        raise PuzzleError("a puzzle's rules should be a list of rule ids of the rule book")
    answers = entry["answers"]
    if not isinstance(answers, list) or not answers:
        raise PuzzleError("a puzzle's answers should be a list of at least one move")
    try:
        moves = tuple(move_from_dict(a) for a in answers)
    except (TypeError, ValueError) as error:
        raise PuzzleError(f"an answer cannot be read: {error}") from None
    record = entry["record"]
    if not isinstance(record, dict):
        raise PuzzleError("a puzzle's record should be a deal record (an object)")
    ply = _whole(entry, "ply", 0)
    puzzle = Puzzle(
        id=puzzle_id,
        kind=kind,
        record=record,
        ply=ply,
        seat=_whole(entry, "seat", 0),
        question=question,
        answers=moves,
        rules=tuple(rules),
        difficulty=_whole(entry, "difficulty", 1, 5),
        legal=_whole(entry, "legal", 1),
    )
    deal = puzzle._deal()
    if deal.is_over or deal.turn != puzzle.seat:
        raise PuzzleError(f"at the position it is not seat {puzzle.seat}'s turn")
    for move in moves:
        refusal = deal.explain_illegal(move)
        if refusal is not None:
            raise PuzzleError(f"the answer {move.label()!r} is illegal there: {refusal.reason}")
    return puzzle


def puzzles_from_json(text: str) -> list[Puzzle]:
    """The puzzles of a JSON text made by `puzzles_to_json`, each replayed and checked (its
    answers must be legal at its position); `PuzzleError` with one sentence on bad input."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"puzzles_from_json reads JSON text, not {shown(text)}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise PuzzleError(f"the puzzles are not valid JSON: {error}") from None
    except RecursionError:
        raise PuzzleError("the puzzles are not valid JSON: nested too deeply") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleError(f"this is not a puzzle set: its 'format' should be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise PuzzleError(
            f"version {shown(data.get('version'))} of the puzzle set is not known here"
        )
    entries = data.get("puzzles")
    if not isinstance(entries, list):
        raise PuzzleError("a puzzle set holds its 'puzzles' as a list")
    puzzles: list[Puzzle] = []
    seen: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        name = entry.get("id") if isinstance(entry, dict) else None
        label = f"puzzle {number}" + (f" ({cut(str(name))})" if isinstance(name, str) else "")
        try:
            puzzle = _read_puzzle(entry)
        except PuzzleError as error:
            raise PuzzleError(f"{label}: {error}") from None
        if puzzle.id in seen:
            raise PuzzleError(f"{label}: the id {puzzle.id!r} is used twice")
        seen.add(puzzle.id)
        puzzles.append(puzzle)
    return puzzles


def _ordered(puzzles: Iterable[Puzzle]) -> list[Puzzle]:
    return sorted(puzzles, key=lambda p: (p.difficulty, p.id))


@lru_cache(maxsize=1)
def _shipped() -> tuple[Puzzle, ...]:
    path = files("penang_lib.notebooks") / "lessons" / "data" / "puzzles.json"
    return tuple(_ordered(puzzles_from_json(path.read_text(encoding="utf-8"))))


def shipped_puzzles() -> list[Puzzle]:
    """The puzzles shipped in notebooks/lessons/data/puzzles.json, sorted by difficulty then
    id (read and checked once, then kept)."""
    return list(_shipped())


def find_puzzle(puzzles: Sequence[Puzzle], puzzle_id: str) -> Puzzle:
    """The puzzle with id `puzzle_id`; a `PuzzleError` when the set has none."""
    if not isinstance(puzzle_id, str):
        raise ArgumentTypeError(
            f"a puzzle id is text such as 'lay-off-1a2b3c4d', not {shown(puzzle_id)}"
        )
    for puzzle in puzzles:
        if _require_puzzle(puzzle).id == puzzle_id:
            return puzzle
    raise PuzzleError(f"There is no puzzle {cut(puzzle_id)!r} in this set.")
