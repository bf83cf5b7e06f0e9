"""Events into sentences: `explain(event, names)` says in one plain sentence what happened and
which rule made it so. The CLI transcript, the widgets and the lessons all show these sentences.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from penang_lib.engine.cards import Card, a_rank, cards_symbols
from penang_lib.engine.deal import DEFAULT_NAMES
from penang_lib.engine.events import Event
from penang_lib.engine.melds import Kind
from penang_lib.engine.validate import ArgumentTypeError, shown
from penang_lib.engine.validate import (
    join_names as join_names,  # the engine's refusals join names too
)


def _who(player: int | None, names: Sequence[str]) -> str:
    if player is None:
        return "The table"
    return names[player] if 0 <= player < len(names) else f"Player {player + 1}"


def _cards_word(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _joker_text(card: Card) -> str:
    if card.as_rank is None:
        return "a joker"
    if card.as_suit is None:
        return f"a joker standing for {a_rank(card.as_rank)}"
    return f"a joker standing for {Card(card.as_rank, card.as_suit).symbol}"


def _players(e: Event, names: Sequence[str]) -> str:
    n = int(e.detail)
    extra = " the classic table" if n == 4 else ""
    return f"{n} players sit down:{extra or ' Penang Rummy takes 2 to 5'}."


def _deck(e: Event, names: Sequence[str]) -> str:
    packs, jokers, total = (int(x) for x in e.detail.split(","))
    return f"The deck is {packs} packs of 52 and {jokers} jokers: {total} cards."


def _dealer(e: Event, names: Sequence[str]) -> str:
    return f"{_who(e.player, names)} deals."


def _deal(e: Event, names: Sequence[str]) -> str:
    return (
        f"Cards go out one at a time, starting with {_who(e.player, names)} on the dealer's left, "
        f"until each hand holds {e.after}; the other {e.detail} are put aside, face down, unused."
    )


def _turn_order(e: Event, names: Sequence[str]) -> str:
    who = _who(e.player, names)
    if e.detail:
        skipped = [_who(int(s), names) for s in e.detail.split(",")]
        are = "is dead and is" if len(skipped) == 1 else "are dead and are"
        return f"{who} plays next, going clockwise: {join_names(skipped)} {are} skipped."
    return f"{who} plays next (play goes clockwise from the dealer's left)."


def _passport(e: Event, names: Sequence[str]) -> str:
    return (
        f"{_who(e.player, names)} lays a first meld from the hand: that is the passport, and from "
        "now on lay-offs and joker swaps are allowed too."
    )


def _meld_text(e: Event) -> str:
    """What the event's meld is, in words (its cards when the event carries no meld)."""
    return e.meld.description if e.meld is not None else f"the meld {cards_symbols(e.cards)}"


def _meld(e: Event, names: Sequence[str]) -> str:
    if e.meld is None:
        return f"{_who(e.player, names)} melds {cards_symbols(e.cards)}."
    why = "one suit, ranks in a row" if e.meld.kind is Kind.RUN else "one rank, suits may repeat"
    return (
        f"{_who(e.player, names)} melds {e.meld.symbols}, {e.meld.description} ({why}), "
        f"and has {_cards_word(e.after)} left."
    )


def _joker(e: Event, names: Sequence[str]) -> str:
    stands = ", ".join(_joker_text(c) for c in e.cards)
    return (
        f"In {_who(e.player, names)}'s meld there is {stands}: once played, a joker keeps "
        "that identity until someone swaps it out."
    )


def _lay_off(e: Event, names: Sequence[str]) -> str:
    card = e.cards[0]
    shown = _joker_text(card) if card.is_joker else card.symbol
    return (
        f"{_who(e.player, names)} lays off {shown} on {_meld_text(e)}, "
        f"leaving {_cards_word(e.after)} in hand."
    )


def _swap(e: Event, names: Sequence[str]) -> str:
    card, stood = e.cards[0], e.cards[1]
    return (
        f"{_who(e.player, names)} puts {card.symbol} in place of {_joker_text(stood)} in "
        f"{_meld_text(e)} and takes the joker: a swap is not an action, so it does not count "
        "as the turn's meld or lay-off."
    )


def _turn(e: Event, names: Sequence[str]) -> str:
    n = int(e.detail or 0)
    return (
        f"{_who(e.player, names)} ends the turn after {n} action{'s' if n != 1 else ''}, "
        f"holding {_cards_word(e.after)}."
    )


def _dead(e: Event, names: Sequence[str]) -> str:
    count = e.counts[0] if e.counts else 0
    return (
        f"{_who(e.player, names)} can make no meld and no lay-off, even after a swap, and is "
        f"dead: {_cards_word(e.after)} ({count} points) "
        f"{'stays' if e.after == 1 else 'stay'} in hand and count{'s' if e.after == 1 else ''} "
        "at the end."
    )


def _dead_passport(e: Event, names: Sequence[str]) -> str:
    count = e.counts[0] if e.counts else 0
    return (
        f"{_who(e.player, names)} cannot make a first meld (the passport) and is dead at once: "
        f"all {_cards_word(e.after)} ({count} points) count against them."
    )


def _game(e: Event, names: Sequence[str]) -> str:
    return f"{_who(e.player, names)} has no cards left and calls Game: the deal is won."


def _end(e: Event, names: Sequence[str]) -> str:
    if e.detail == "game":
        return "The deal stops at once; everyone else counts the cards still in hand."
    if e.detail == "one alive":
        return "Only one player is still alive, and under this house rule the deal ends there."
    return "Every player is dead, so the deal is over without anyone going out."


def _scoring(e: Event, names: Sequence[str]) -> str:
    counts = ", ".join(f"{_who(p, names)} {c}" for p, c in enumerate(e.counts))
    winners = [_who(int(w), names) for w in e.detail.split(",") if w]
    won = join_names(winners)
    verb = "share the win" if len(winners) > 1 else "wins"
    return f"Counts (the points of the cards left in each hand): {counts}. {won} {verb}."


_EXPLAINERS: dict[str, Callable[[Event, Sequence[str]], str]] = {
    "players": _players,
    "deck": _deck,
    "dealer": _dealer,
    "deal": _deal,
    "turn-order": _turn_order,
    "passport": _passport,
    "run": _meld,
    "set": _meld,
    "joker": _joker,
    "lay-off": _lay_off,
    "swap": _swap,
    "turn": _turn,
    "dead": _dead,
    "dead.passport": _dead_passport,
    "game": _game,
    "end": _end,
    "scoring": _scoring,
}


def explain(event: Event, names: Sequence[str] | None = None) -> str:
    """One plain sentence (or two) saying what `event` was and which rule made it so.

    `names` are the players' names by seat (the default names when None). An event the engine
    could not have made (a detail it never writes, a seat that is not a number) raises
    `ValueError`; a value that is not an `Event` raises `ArgumentTypeError`."""
    if not isinstance(event, Event):
        raise ArgumentTypeError(f"explain takes an Event (from deal.events), not {shown(event)}")
    if names is not None and (
        isinstance(names, str)
        or not isinstance(names, Sequence)
        or not all(isinstance(n, str) for n in names)
    ):
        raise ArgumentTypeError(f"names should be a list of the players' names, not {shown(names)}")
    if not isinstance(event.rule, str):
        raise ArgumentTypeError(f"an event's rule should be a rule id, not {shown(event.rule)}")
    if event.player is not None and (event.player.__class__ is not int or event.player < 0):
        raise ValueError(f"an event's player should be a seat number, not {shown(event.player)}")
    explainer = _EXPLAINERS.get(event.rule)
    try:
        if explainer is None:
            return f"Rule {event.rule}: {cards_symbols(event.cards)}"
        return explainer(event, names or DEFAULT_NAMES)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        raise ValueError(
            f"this {shown(event.rule)} event does not hold the facts the engine writes for it, "
            "so it cannot be explained"
        ) from None


EXPLAINED_RULES = frozenset(_EXPLAINERS)
"""The rule ids `explain` has a sentence for."""
