"""Judging a move played in a puzzle, in the engine's own sentences, and the answer in words.

`judge(puzzle, move)` is right when the move does what one of the answers does (a joker
written without its note is judged by what it does); an illegal move gets the engine's refusal,
a legal wrong one says what it misses, and no wrong move's sentence names a right one.
`answer_sentence` is the answer shown on request.

A `strategy` puzzle is judged from the numbers it keeps (`Puzzle.weighed`), never by playing a
deal: a start the expert weighed gets its own numbers beside the best start's (which is not
named), a legal move it did not weigh is told so, with the best start's numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from penang_lib.course.puzzles.model import (
    KIND_RULES,
    Puzzle,
    Weighed,
    kept,
    require_puzzle,
    shape,
    shared_position,
    table_effect,
)
from penang_lib.course.puzzles.solvers import Solution, solve
from penang_lib.course.puzzles.weighing import proof_sentence, shown_numbers
from penang_lib.engine.cards import cards_symbols
from penang_lib.engine.deal import Deal
from penang_lib.engine.events import Event
from penang_lib.engine.explain import explain
from penang_lib.engine.moves import DeclareDead, LayOff, MeldMove, Move, Swap, require_move
from penang_lib.engine.turn_search import SearchTooLarge, TurnSearch
from penang_lib.i18n import N_, _, ngettext

__all__ = ["DEAD_REFUSED", "Judgement", "answer_sentence", "judge"]


@dataclass(frozen=True)
class Judgement:
    """The engine's verdict on a move played in a puzzle: whether it is right, whether the
    rules allow it at all, the rule id the verdict is about, and its sentence."""

    right: bool
    legal: bool
    rule: str
    sentence: str


def _effect(deal: Deal, move: Move) -> tuple[tuple[object, ...], tuple[Event, ...]]:
    """Play `move` on `deal` (a copy the caller gives up) and say what it did: its type and
    the table meld it made or changed, with the move's events."""
    events = deal.push(move)
    return table_effect(deal, move), events


def _answer_effects(puzzle: Puzzle) -> frozenset[tuple[object, ...]]:
    """What each answer does to the table (so a move written another way, e.g. a joker without
    its note, is judged by what it does), worked out once per puzzle."""

    def work() -> frozenset[tuple[object, ...]]:
        deal = shared_position(puzzle)
        return frozenset(_effect(deal.copy(), move)[0] for move in puzzle.answers)

    return kept(puzzle, "effects", work)


_WRONG: Final[dict[str, str]] = {
    "passport": N_("That is allowed, but it is not the one meld this hand can make."),
    "dead.passport": N_("That is allowed, but it does not make the passport."),
    "lay-off": N_("That is allowed, but it is not the one lay-off that keeps you alive."),
    "swap": N_("That is allowed, but it is not a swap that lets you play."),
    "dead": N_("That is allowed, but it is not what the rules ask for here."),
    "game": N_(
        "That is allowed, but after it no order of melds, lay-offs and swaps empties your hand "
        "this turn."
    ),
    "deadwood": N_(
        "That is allowed, but another start leaves fewer points in hand when the turn ends."
    ),
    "strategy": N_("That is allowed, but another start ends the deal better on average."),
}
"""What a legal move that is not an answer misses, in the kind's words (marked: shown through
`_()`)."""


STRATEGY_WORSE: Final = N_(
    "That is allowed, but it is not the best start. In the same {samples} drawn deals it ends "
    "with {count} points in hand on average and wins {wins}% of the deals; the best start ends "
    "with {best_count} points and wins {best_wins}%."
)
"""A `strategy` puzzle's verdict on a start the expert weighed that is not the best (marked:
shown through `_()`). The best start's numbers are given, never its move."""

STRATEGY_UNWEIGHED: Final = N_(
    "That is allowed, but it is not the best start, and it was not among the {starts} starts "
    "the expert weighed. Over {samples} drawn deals the best of them ends with {best_count} "
    "points in hand on average and wins {best_wins}% of the deals."
)
"""A `strategy` puzzle's verdict on a legal move the expert did not weigh (marked: shown
through `_()`): the page plays no deal, so all it can say is the best start's numbers."""


def _weighed_effects(puzzle: Puzzle) -> dict[tuple[object, ...], Weighed]:
    """Each start a `strategy` puzzle weighed, by what it does (worked out once per puzzle)."""

    def work() -> dict[tuple[object, ...], Weighed]:
        deal = shared_position(puzzle)
        return {_effect(deal.copy(), w.move)[0]: w for w in puzzle.weighed}

    return kept(puzzle, "weighed_effects", work)


def _strategy_wrong(puzzle: Puzzle, effect: tuple[object, ...]) -> str:
    """The verdict on a legal start that is not the best one: its numbers, if it was weighed,
    beside the best start's."""
    best = puzzle.weighed[0]
    mine = shown_numbers(best)
    weighed = _weighed_effects(puzzle).get(effect)
    if weighed is None:
        return _(STRATEGY_UNWEIGHED).format(
            starts=len(puzzle.weighed),
            samples=best.samples,
            best_count=mine["count"],
            best_wins=mine["wins"],
        )
    return _(STRATEGY_WORSE).format(
        samples=weighed.samples,
        **shown_numbers(weighed),
        best_count=mine["count"],
        best_wins=mine["wins"],
    )


def _why(puzzle: Puzzle) -> str:
    """Why the answer is right, in the proof's words (worked out once per puzzle)."""
    return kept(puzzle, "why", lambda: _work_out_why(puzzle))


def _work_out_why(puzzle: Puzzle) -> str:
    if puzzle.kind == "game":
        count = len({shape(m) for m in puzzle.answers})
        if count == 1:
            return _("No other first move lets every card be played this turn.")
        return ngettext(
            "Only {count} first move lets every card be played this turn, and this is one of them.",
            "Only {count} first moves let every card be played this turn, and this is one of them.",
            count,
        ).format(count=count)
    if puzzle.kind == "deadwood":
        return _(
            "Started this way, the turn can end with {points} points in hand, the fewest "
            "possible; any other start keeps more."
        ).format(points=_least_after(puzzle))
    if puzzle.kind == "strategy":
        return proof_sentence(shared_position(puzzle), puzzle.weighed)
    found = solve(shared_position(puzzle), puzzle.kind)
    return found.why if isinstance(found, Solution) else ""


def _least_after(puzzle: Puzzle, move: Move | None = None) -> int | None:
    """The fewest points the turn can end with after `move` (by default the first answer, worked
    out once); None when the search is too large."""
    if move is None:
        return kept(puzzle, "least", lambda: _least_from(puzzle, puzzle.answers[0]))
    return _least_from(puzzle, move)


def _least_from(puzzle: Puzzle, move: Move) -> int | None:
    after = shared_position(puzzle).copy()
    after.push(move)
    try:
        return TurnSearch().least(after)
    except SearchTooLarge:  # pragma: no cover - a proved puzzle's search fits the budget
        return None


def _sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


def _game_line(deal: Deal) -> str:
    """After the right first move: one order of moves that empties the hand, in words ("meld
    ..., then lay off ..."); "" when there is none to say."""
    search = TurnSearch()
    try:
        line = search.line(deal)
    except SearchTooLarge:  # pragma: no cover - a proved puzzle's search fits the budget
        return ""
    steps = ""
    for move in line:
        label = move.label()
        steps = _("{moves}, then {move}").format(moves=steps, move=label) if steps else label
    return steps


def _either(choices: list[str]) -> str:
    """Alternatives as a sentence says them: "a or b or c"."""
    text = choices[0]
    for choice in choices[1:]:
        text = _("{choices} or {choice}").format(choices=text, choice=choice)
    return text


DEAD_REFUSED: Final = N_(
    "{player} can still play this turn, so Dead is not allowed: only a player who can make no "
    "meld and no lay-off, swaps included, may declare Dead."
)
"""A puzzle's verdict on Declare Dead when the player can still play. The engine's own refusal
goes on to name a move that can be played, which would give the puzzle away (marked: shown
through `_()`)."""


def judge(puzzle: Puzzle, move: Move) -> Judgement:
    """The engine's verdict on playing `move` in `puzzle` (the puzzle is never changed).

    Right: what the move does (the engine's sentences of its events) and why it is the answer.
    Illegal: the engine's own refusal, under its rule id, except that Declare Dead refused
    because the player can still play says only that (`DEAD_REFUSED`), not which move plays.
    Legal but not an answer: "That is allowed, but ..." and what it misses. A wrong move's
    sentence never names a right one. Arguments of the wrong type raise `ArgumentTypeError`."""
    puzzle = require_puzzle(puzzle)
    require_move(move)
    base = shared_position(puzzle)
    refusal = base.explain_illegal(move)
    if refusal is not None:
        reason = refusal.reason
        if isinstance(move, DeclareDead) and refusal.rule == "dead" and not base.actions:
            reason = _(DEAD_REFUSED).format(player=base.names[base.turn])
        return Judgement(False, False, refusal.rule, reason)
    after = base.copy()
    effect, events = _effect(after, move)
    rule = KIND_RULES[puzzle.kind]
    if effect not in _answer_effects(puzzle):
        sentence = _(_WRONG[puzzle.kind])
        if puzzle.kind == "deadwood":
            points, best = _least_after(puzzle, move), _least_after(puzzle)
            if points is not None and best is not None:
                sentence = _(
                    "That is allowed, but after it the turn ends with {points} points in hand at "
                    "the fewest, and the best start leaves {best}."
                ).format(points=points, best=best)
        elif puzzle.kind == "strategy" and puzzle.weighed:
            sentence = _strategy_wrong(puzzle, effect)
        return Judgement(False, True, rule, sentence)
    said = " ".join(
        explain(event, base.names)
        for event in events
        if event.rule not in ("turn-order", "end", "scoring")
    )
    steps = _game_line(after) if puzzle.kind == "game" else ""
    if steps:
        sentence = _("Right. {said} Then {steps}, and declare Game. {why}").format(
            said=said, steps=steps, why=_why(puzzle)
        )
    else:
        sentence = _("Right. {said} {why}").format(said=said, why=_why(puzzle))
    return Judgement(True, True, rule, sentence)


def _answer_words(puzzle: Puzzle) -> str:
    deal = shared_position(puzzle)
    groups: dict[tuple[object, ...], list[Move]] = {}
    for move in puzzle.answers:
        groups.setdefault(shape(move), []).append(move)
    words: list[str] = []
    for moves in groups.values():
        move = moves[0]
        if isinstance(move, MeldMove):
            if len(moves) == 1:
                words.append(_sentence_case(move.label()))
            else:
                plain = [c for c in move.cards if not c.is_joker]
                jokers = sum(c.is_joker for c in move.cards)
                readings = _either([cards_symbols(m.cards) for m in moves])  # type: ignore[union-attr]
                words.append(
                    ngettext(
                        "Meld {cards} with the joker ({readings})",
                        "Meld {cards} with the jokers ({readings})",
                        jokers,
                    ).format(cards=cards_symbols(plain), readings=readings)
                )
        elif isinstance(move, LayOff | Swap):
            meld = deal.table[move.target]
            if move.card.is_joker and len(moves) > 1:
                cards = _either([m.card.symbol for m in moves])  # type: ignore[union-attr]
                words.append(
                    _("Lay off the joker (as {cards}) on meld {number} ({meld})").format(
                        cards=cards, number=move.target, meld=meld.symbols
                    )
                )
            else:
                words.append(f"{_sentence_case(move.label())} ({meld.symbols})")
        else:
            words.append(_sentence_case(move.label()))
    return _either(words)


def answer_sentence(puzzle: Puzzle) -> str:
    """The answer, shown on request: the right move (or moves) and, for Dead, why."""
    puzzle = require_puzzle(puzzle)
    words = _answer_words(puzzle)
    if puzzle.kind in ("dead", "dead.passport"):
        return _("{answer}: {reason}").format(
            answer=words, reason=shared_position(puzzle).can_play().reason
        )
    if puzzle.kind == "game":
        after = shared_position(puzzle).copy()
        after.push(puzzle.answers[0])
        steps = _game_line(after)
        if steps:
            return _("{answer}. Then {steps}, and declare Game.").format(answer=words, steps=steps)
    if puzzle.kind == "deadwood":
        return _("{answer}. The turn can then end with {points} points in hand.").format(
            answer=words, points=_least_after(puzzle)
        )
    if puzzle.kind == "strategy":
        return _("{answer}. {why}").format(answer=words, why=_why(puzzle))
    return _("{answer}.").format(answer=words)
