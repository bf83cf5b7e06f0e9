"""The proof: one solver for each of the eight kinds, and `solve`, which picks the kind's.

Every position is one at the start of a turn (no action made yet). For the seven exact kinds
`solve(deal, kind)` searches every legal move (for `game` and `deadwood`, every order of this
turn's moves, with the turn search of `search`); for `strategy` the expert bot weighs the starts
of the turn (`weighing`). It returns a `Solution` holding the answers, or a sentence saying why
the position is no puzzle of that kind. The first-turn kinds (`passport`, `dead.passport`) ask
for a player with no passport yet; `game` takes either; the others ask for the passport made.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from penang_lib.course.puzzles.difficulty import (
    near_melds,
    rating,
    strategy_rating,
    table_misses,
)
from penang_lib.course.puzzles.model import PUZZLE_KINDS, PuzzleError, Weighed, effect, shape
from penang_lib.course.puzzles.weighing import STRATEGY_SAMPLES, proof_sentence, weigh_starts
from penang_lib.engine.deal import Deal
from penang_lib.engine.melds import Kind, Meld
from penang_lib.engine.moves import DeclareDead, LayOff, MeldMove, Move, Swap
from penang_lib.engine.rules import RULE_BOOK
from penang_lib.engine.turn_search import SEARCH_BUDGET, SearchTooLarge, TurnSearch, stuck_card
from penang_lib.engine.validate import ArgumentTypeError, join_names, shown
from penang_lib.i18n import _, ngettext

__all__ = ["MAX_DEADWOOD_HAND", "MAX_GAME_ANSWERS", "MAX_GAME_HAND", "Solution", "solve"]

MAX_GAME_HAND: Final = 10
"""The `game` search is tried only on hands of at most this many cards (larger hands make far
too many orders of moves to search)."""
MAX_DEADWOOD_HAND: Final = 8
"""The `deadwood` search (every way of playing the turn out) is tried only on hands of at most
this many cards."""
MAX_GAME_ANSWERS: Final = 3
"""A `game` puzzle has at most this many right first moves (joker readings of one move count
once)."""


@dataclass(frozen=True)
class Solution:
    """What the proof found at a position: the right moves, the rule ids involved, how many
    legal moves there are, how many tempting wrong moves (legal moves that fail, and near
    misses such as a pair that is not a meld), a sentence saying why the answer is right, and
    for `strategy` the starts the expert weighed, the best first."""

    kind: str
    answers: tuple[Move, ...]
    rules: tuple[str, ...]
    legal: int
    tempting: int
    why: str
    weighed: tuple[Weighed, ...] = ()

    @property
    def difficulty(self) -> int:
        """1 to 5. For the exact kinds: one step for each of 2, 5, 10 and 20 tempting wrong moves
        reached, and one more when at least four legal moves in five fail (at most 5;
        `difficulty.rating`). For `strategy`: from the best start's lead and the number of
        starts weighed (`difficulty.strategy_rating`)."""
        if self.weighed:
            return strategy_rating(self.weighed)
        return rating(self.tempting, self.legal, len(self.answers))


def _meld_rules(meld: Meld) -> list[str]:
    rules = ["run" if meld.kind is Kind.RUN else "set"]
    if meld.jokers:
        rules.append("joker")
    return rules


def _start_problem(deal: Deal, passport: bool | None) -> str | None:
    """Why `deal` is not the start of a turn of the kind asked (None when it is)."""
    if deal.is_over:
        return _("The deal is over: there is no move to find.")
    if deal.actions:
        return _("The player has already played this turn; a puzzle starts a turn.")
    if passport is not None and deal.passport[deal.turn] != passport:
        return (
            _("The player has no passport yet, so this is a first turn.")
            if passport
            else _("The player already has a passport, so this is not a first turn.")
        )
    return None


def _solve_passport(deal: Deal) -> Solution | str:
    melds: list[MeldMove] = []
    shapes: set[tuple[object, ...]] = set()
    for move in deal.legal_moves:  # stop at the second different meld
        if isinstance(move, MeldMove):
            shapes.add(shape(move))
            if len(shapes) > 1:
                return _(
                    "At least 2 different melds can be made: the passport is not the only one."
                )
            melds.append(move)
    if not melds:
        return _("No meld can be made from this hand, so there is no passport to find.")
    first = deal.copy()
    first.push(melds[0])
    meld = first.table[-1]
    tempting = len(near_melds(deal.hand()))
    why = _("It is the only meld in the hand, so it has to be the passport.")
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
        return _("A meld can be made, so the player has a passport and is not dead.")
    near = near_melds(deal.hand())
    if not near:
        return _("Nothing in the hand looks like a meld, so the answer is too plain to ask.")
    why = _("{reason} {near} may look promising, but a meld needs three cards.").format(
        reason=deal.can_play().reason, near=join_names(near[:3]).capitalize()
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
        return _("A meld can still be made from the hand, so a lay-off is not the only action.")
    if any(isinstance(m, Swap) for m in moves):
        return _("A swap also leads to an action, so the lay-off is not the only way to play.")
    lay_offs = [m for m in moves if isinstance(m, LayOff)]
    if not lay_offs:
        return _("No card can be laid off, so there is no lay-off to find.")
    shapes = {shape(m) for m in lay_offs}
    if len(shapes) > 1:
        return ngettext(
            "{count} different lay-off can be made: none is the only one.",
            "{count} different lay-offs can be made: none is the only one.",
            len(shapes),
        ).format(count=len(shapes))
    if deal.hand_size(deal.turn) < 2:
        return _("The last card in hand is the only card to play: too plain to ask.")
    kind = deal.table[lay_offs[0].target].kind
    misses = table_misses(deal)
    why = _(
        "No meld is left in the hand and no other card fits any table meld, so this "
        "lay-off is the only action that keeps the player alive."
    )
    rules = ("lay-off", "run" if kind is Kind.RUN else "set", "turn", "dead")
    return Solution("lay-off", tuple(lay_offs), rules, len(moves), len(misses), why)


def _solve_swap(deal: Deal) -> Solution | str:
    moves = _without_melds(deal)
    if moves is None or any(isinstance(m, LayOff) for m in moves):
        return _("A meld or a lay-off can be made without a swap.")
    swaps = [m for m in moves if isinstance(m, Swap)]
    if not swaps:
        return _("No swap leads to an action here.")
    misses = table_misses(deal)
    why = _(
        "As the hand stands nothing can be melded or laid off; the swap brings a joker into "
        "the hand, and the joker can then be played, so the player stays alive."
    )
    rules = ("swap", "joker", "dead", "lay-off")
    return Solution("swap", tuple(swaps), rules, len(moves), len(misses), why)


def _solve_dead(deal: Deal) -> Solution | str:
    if next(iter(deal.legal_moves)) != DeclareDead():
        return _("The player can still play, so declaring Dead is not allowed.")
    misses = table_misses(deal)
    near = near_melds(deal.hand())
    if not misses and not near:
        return _("Nothing in the hand looks playable, so the answer is too plain to ask.")
    if misses:
        hint = misses[0]
    else:
        hint = _("{cards} make no meld.").format(cards=join_names(near[:3]).capitalize())
    why = _("{reason} For instance: {hint}").format(reason=deal.can_play().reason, hint=hint)
    rules = (
        ("dead", "lay-off", "swap") if any(m.jokers for m in deal.table) else ("dead", "lay-off")
    )
    return Solution("dead", (DeclareDead(),), rules, 1, len(misses) + len(near), why)


def _too_large(size: int, most: int) -> str:
    return ngettext(
        "The hand holds {size} card, more than the {most} the search tries.",
        "The hand holds {size} cards, more than the {most} the search tries.",
        size,
    ).format(size=size, most=most)


def _solve_game(deal: Deal, budget: int = SEARCH_BUDGET) -> Solution | str:
    size = deal.hand_size(deal.turn)
    if size > MAX_GAME_HAND:
        return _too_large(size, MAX_GAME_HAND)
    stuck = stuck_card(deal.hand(), deal.table)
    if stuck is not None:
        return _("No order of moves empties the hand this turn: {card} cannot be played.").format(
            card=stuck.symbol
        )
    moves = list(deal.legal_moves)
    firsts = [m for m in moves if isinstance(m, MeldMove | LayOff | Swap)]
    search = TurnSearch(budget)
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
            if len({shape(m) for m in right}) > MAX_GAME_ANSWERS:
                return _("Too many first moves lead to Game for one of them to be the answer.")
            if len(right) * 2 >= len(moves):
                return _("Most first moves lead to Game: the answer is not hard enough to find.")
    except SearchTooLarge:
        return _("The turn has too many orders of moves to search them all.")
    if not right:
        return _("No order of moves empties the hand this turn.")
    if len({shape(m) for m in right}) > MAX_GAME_ANSWERS:
        return _("Too many first moves lead to Game for one of them to be the answer.")
    if (len(moves) - len(right)) * 2 <= len(moves):
        return _("Most first moves lead to Game: the answer is not hard enough to find.")
    work.push(right[0])
    line: list[Move] = [right[0], *search.line(work)]
    work.pop()
    for step in line:  # the rules one winning order of moves applies
        rules.update(event.rule for event in work.push(step) if event.rule in RULE_BOOK)
    order = ("game", *sorted(rules - {"game"}, key=list(RULE_BOOK).index))
    why = _("Every card can then be played this turn; every other first move leaves a card stuck.")
    failing = len(moves) - len(right)
    return Solution("game", tuple(right), order, len(moves), failing, why)


_MOVE_RULES: Final = {"meld": "meld", "lay_off": "lay-off", "swap": "swap"}


def _solve_deadwood(deal: Deal, budget: int = SEARCH_BUDGET) -> Solution | str:
    size = deal.hand_size(deal.turn)
    if size > MAX_DEADWOOD_HAND:
        return _too_large(size, MAX_DEADWOOD_HAND)
    moves = list(deal.legal_moves)
    firsts = [m for m in moves if isinstance(m, MeldMove | LayOff | Swap)]
    if len(firsts) < 3:
        return _("Fewer than three first moves can be made: the choice is too plain to ask.")
    search = TurnSearch(budget)
    work = deal.copy()
    values: list[int] = []
    try:
        for move in firsts:
            work.push(move)
            try:
                values.append(search.least(work))
            finally:
                work.pop()
    except SearchTooLarge:
        return _("The turn has too many ways of being played to search them all.")
    best = min(values)
    if best == 0:
        return _("The hand can be emptied this turn: that is a game puzzle, not a deadwood one.")
    right = [m for m, v in zip(firsts, values, strict=True) if v == best]
    if len({shape(m) for m in right}) > MAX_GAME_ANSWERS:
        return _("Too many first moves lead to the fewest points for one of them to be the answer.")
    if (len(moves) - len(right)) * 2 <= len(moves):
        return _("Most first moves lead to the fewest points: the answer is too easy to find.")
    why = _(
        "Started this way, the turn can end with {points} points in hand, the fewest "
        "possible; any other start keeps more."
    ).format(points=best)
    played = {_MOVE_RULES[m.type] for m in right}
    rules = ("scoring", "turn", *(r for r in RULE_BOOK if r in played))
    return Solution("deadwood", tuple(right), rules, len(moves), len(moves) - len(right), why)


def _solve_strategy(deal: Deal, samples: int = STRATEGY_SAMPLES) -> Solution | str:
    size = deal.hand_size(deal.turn)
    if size <= MAX_GAME_HAND and stuck_card(deal.hand(), deal.table) is None:
        try:
            if TurnSearch().empties(deal.copy()):
                return _(
                    "The hand can be emptied this turn: that is a game puzzle, not a strategy one."
                )
        except SearchTooLarge:
            pass  # too many orders to settle here; the weighing still compares the starts
    weighed = weigh_starts(deal, samples)
    if isinstance(weighed, str):
        return weighed
    best = weighed[0].move
    done = effect(deal, best)
    # The best start, and every other way of writing the same move (it does the same).
    right = tuple(
        m for m in deal.legal_moves if shape(m) == shape(best) and effect(deal, m) == done
    )
    rules = ("scoring", "turn", _MOVE_RULES[best.type])
    why = proof_sentence(deal, weighed)
    legal = len(deal.legal_moves)
    return Solution("strategy", right, rules, legal, len(weighed) - 1, why, weighed)


_SOLVERS: Final = {
    "passport": (_solve_passport, False),
    "dead.passport": (_solve_dead_passport, False),
    "lay-off": (_solve_lay_off, True),
    "swap": (_solve_swap, True),
    "dead": (_solve_dead, True),
    "game": (_solve_game, None),
    "deadwood": (_solve_deadwood, True),
    "strategy": (_solve_strategy, True),
}
"""Each kind's proof, and whether it needs the passport made (None: either)."""


def _require_kind(kind: object) -> str:
    if not isinstance(kind, str):
        raise ArgumentTypeError(
            f"a puzzle kind is text ({', '.join(PUZZLE_KINDS)}), not {shown(kind)}"
        )
    if kind not in _SOLVERS:
        raise PuzzleError(
            _("there is no puzzle kind {kind}: the kinds are {kinds}").format(
                kind=shown(kind), kinds=", ".join(PUZZLE_KINDS)
            )
        )
    return kind


def solve(
    deal: Deal, kind: str, budget: int = SEARCH_BUDGET, samples: int = STRATEGY_SAMPLES
) -> Solution | str:
    """The proof at `deal`'s position (the player to move is the learner): the `Solution` when
    the position is a puzzle of `kind`, else one sentence saying why it is not. The deal is left
    as it was. `budget` bounds the `game` search (positions visited); a smaller one gives up
    sooner, and whatever it proves a larger one proves too (the search goes the same way).
    `samples` is the number of deals drawn to weigh the starts of a `strategy` puzzle."""
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"solve takes a Deal, not {shown(deal)}")
    solver, passport = _SOLVERS[_require_kind(kind)]
    problem = _start_problem(deal, passport)
    if problem is not None:
        return problem
    if solver is _solve_game or solver is _solve_deadwood:
        return solver(deal.copy(), budget)
    if solver is _solve_strategy:
        return _solve_strategy(deal.copy(), samples)
    return solver(deal.copy())
