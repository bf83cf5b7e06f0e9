"""Events into sentences: `explain(event, names)` says in one plain sentence what happened and
which rule made it so. The CLI transcript, the widgets and the lessons all show these sentences.

A play table's standing sentences are here too, for the learner at one seat: `turn_status` (whose
turn, or who won), `seat_status` (the learner's hand, count and passport), `next_step` (what to do
now: the engine's reason when Dead or Game is due), and the lines of the bots' moves
(`bot_move_line`, `bots_played`, `earlier_bot_moves`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from penang_lib.engine.bots import forced_move
from penang_lib.engine.cards import Card, a_rank, cards_symbols, rank_name
from penang_lib.engine.deal import DEFAULT_NAMES, Deal, Status
from penang_lib.engine.events import Event
from penang_lib.engine.melds import Kind, Meld, position_card
from penang_lib.engine.moves import DeclareDead, DeclareGame, EndTurn, Move
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


_LAID_OFF: Final = {
    "run": "{who} lays off {card} on the run {before}, which now runs from {first} to {last}. "
    "{who} has {left} in hand.",
    "set": "{who} lays off {card} on the set {before}, which now holds {size} {rank}. "
    "{who} has {left} in hand.",
    "meld": "{who} lays off {card}. {who} has {left} in hand.",
}
"""A lay-off, naming the meld as it was before the card and as it is after it (its new ends,
or how many cards of its rank it now holds)."""


def _cards_before(meld: Meld, placed: Card) -> tuple[Card, ...]:
    """The cards of a table meld before `placed` was laid off on it (`meld` is the meld after:
    a run grew at one of its ends, a set anywhere)."""
    cards = list(meld.cards)
    if meld.kind is Kind.SET:
        cards.remove(placed)
        return tuple(cards)
    return tuple(cards[1:] if cards[0] == placed else cards[:-1])


def _lay_off(e: Event, names: Sequence[str]) -> str:
    card = e.cards[0]
    words = {
        "who": _who(e.player, names),
        "card": _joker_text(card) if card.is_joker else card.symbol,
        "left": _cards_word(e.after),
    }
    meld = e.meld
    if meld is None:
        return _LAID_OFF["meld"].format(**words)
    before = cards_symbols(_cards_before(meld, card))
    if meld.kind is Kind.SET:
        rank = rank_name(meld.low, plural=True)
        return _LAID_OFF["set"].format(**words, before=before, size=len(meld.cards), rank=rank)
    first = position_card(meld.suit, meld.low).symbol
    last = position_card(meld.suit, meld.high).symbol
    return _LAID_OFF["run"].format(**words, before=before, first=first, last=last)


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


# -- a play table's standing sentences ----------------------------------------------------------
STATUS_WORDS = {
    Status.ALIVE: "alive",
    Status.DEAD: "dead",
    Status.DEAD_PASSPORT: "dead (no passport)",
    Status.OUT: "went out",
}
"""A player's status in the words a learner reads."""


@dataclass(frozen=True, slots=True)
class Said:
    """One line for the learner: plain words, or, with `rule`, the engine's reason under that
    rule id, `ok` telling whether the rule allows (True) or refuses (False) what it is about."""

    text: str
    rule: str = ""
    ok: bool | None = None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _seat(deal: Deal, seat: int) -> int:
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"a play table's sentences need a Deal, not {shown(deal)}")
    if seat.__class__ is not int or not 0 <= seat < deal.players:
        raise ValueError(f"the seat should be from 0 to {deal.players - 1}, not {shown(seat)}")
    return seat


_YOUR_TURN: Final = "Your turn {own} ({name}), turn {number} of the deal."
"""The learner's turn: `own` counts the learner's own turns in this deal, this one included (as
the review numbers them), `number` everyone's."""
_BOT_TURN: Final = "{name}'s turn ({bot} bot), turn {number} of the deal."
_THEIR_TURN: Final = "{name}'s turn, turn {number} of the deal."
"""Another player's turn: `number` counts every player's turns in this deal, this one included."""


def turn_status(deal: Deal, seat: int, bots: Mapping[int, str] | None = None) -> str:
    """The head line of a play table for the learner at `seat`: who won once the deal is over,
    else whose turn it is. The learner's own turn is numbered among their own turns ("Your turn
    1" on their first, as the review numbers them), then among the deal's turns, everyone's
    (a bot's seat says which bot, from `bots`: seat -> bot name)."""
    seat = _seat(deal, seat)
    if deal.is_over:
        winners = join_names([deal.names[w] for w in deal.winners])
        return f"The deal is over after {_plural(deal.turn_number, 'turn')}. Won by {winners}."
    if deal.turn == seat:
        own = deal.turns[seat]
        return _YOUR_TURN.format(own=own, name=deal.names[seat], number=deal.turn_number)
    bot = (bots or {}).get(deal.turn)
    words = {"name": deal.names[deal.turn], "bot": bot, "number": deal.turn_number}
    return (_BOT_TURN if bot else _THEIR_TURN).format(**words)


def seat_status(deal: Deal, seat: int) -> str:
    """The learner's own standing: their status, how many cards they hold, what those count and
    whether they have made the passport."""
    seat = _seat(deal, seat)
    standing = STATUS_WORDS[deal.status[seat]]
    passport = "made" if deal.passport[seat] else "not yet"
    return (
        f"You are {deal.names[seat]} ({standing}): {_plural(deal.hand_size(seat), 'card')} "
        f"counting {deal.count(seat)} points; passport {passport}."
    )


def next_step(deal: Deal, seat: int, forced: Move | None = None) -> tuple[Said, ...]:
    """What the learner at `seat` can do now, in a play table's words. When Dead or Game is due
    (`forced`, else `forced_move(deal, seat)`), the engine's reason under its rule id comes with
    it: rule `dead` or `dead.passport` (refused: no meld or lay-off can be made), or `game`."""
    seat = _seat(deal, seat)
    if deal.is_over:
        return (Said("The deal is over: every hand is shown. Click New deal to play another."),)
    forced = forced if forced is not None else forced_move(deal, seat)
    if forced == DeclareDead():
        verdict = deal.can_play()
        return (
            Said("Dead is due:"),
            Said(verdict.reason, verdict.rule, ok=False),
            Said("Click Declare Dead."),
        )
    if forced == DeclareGame():
        err = deal.explain_illegal(EndTurn())
        return (
            Said(err.reason if err is not None else "", "game", ok=True),
            Said("Click Call Game."),
        )
    if deal.turn == seat:
        if deal.actions:
            return (Said("Your turn: play more, or click End turn."),)
        return (
            Said(
                "Your turn: select cards and click Meld, or choose a meld on the table and "
                "Lay off or Swap one card."
            ),
        )
    if deal.status[seat] is not Status.ALIVE:
        return (Said("You are out of this deal: Bots to my turn plays it to the end."),)
    return (
        Said(
            f"It is {deal.names[deal.turn]}'s turn: click Bot move to see the next move, or "
            "Bots to my turn."
        ),
    )


def bot_move_line(names: Sequence[str], seat: int, bot: str, move: Move, why: str = "") -> str:
    """One bot's move: who played it, which bot it is, the move, and, given, the bot's reason."""
    tail = f" Why: {why}" if why else ""
    return f"{_who(seat, names)} ({bot} bot): {move.label()}.{tail}"


def bots_played(count: int) -> str:
    """The line above the moves the bots played in a row."""
    return f"The bots played {_plural(count, 'move')}:"


def earlier_bot_moves(count: int) -> str:
    """Said when only the last of the bots' moves are listed: how many came before them."""
    return f"… and {count} earlier bot moves (see the move log)."
