"""Events into sentences: `explain(event, names)` says in one plain sentence what happened and
which rule made it so. The CLI transcript, the widgets and the lessons all show these sentences.

A play table's standing sentences are here too, for the learner at one seat: `turn_status` (whose
turn, or who won), `seat_status` (the learner's hand, count and passport), `due` (the move that is
due, Dead or Game, and the engine's reason under its rule id), and the lines of the bots' moves
(`bot_move_line`, `bots_played`, `earlier_bot_moves`). The engine says what happened and why; it
names no control of a widget (what to click is the view's business, `penang_lib.widgets`).

Every sentence is marked for the message catalog (`penang_lib.i18n`): a whole sentence with
named placeholders, plurals through `ngettext`.
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
from penang_lib.engine.moves import DeclareDead, DeclareGame, EndTurn, LayOff, Move, Swap
from penang_lib.engine.validate import ArgumentTypeError, shown
from penang_lib.engine.validate import (
    join_names as join_names,  # the engine's refusals join names too
)
from penang_lib.i18n import N_, _, ngettext


def meld_words(
    table: Sequence[Meld], owners: Sequence[int], names: Sequence[str], index: int
) -> str:
    """Table meld `index` named by its owner, kind and cards, as a learner reads it: "West's run
    5♥ 6♥ 7♥", "North's set J♠ J♠ J♥" (a joker as 🃏=7♥). Code keys a meld by its index, never
    by this name."""
    meld = table[index]
    owner = _who(owners[index], names)
    if meld.kind is Kind.RUN:
        return _("{owner}'s run {cards}").format(owner=owner, cards=meld.symbols)
    return _("{owner}'s set {cards}").format(owner=owner, cards=meld.symbols)


def move_words(
    move: Move, table: Sequence[Meld], owners: Sequence[int], names: Sequence[str]
) -> str:
    """`move.label()` with a table meld named by its owner and cards instead of its number:
    "lay off 8♥ on West's run 5♥ 6♥ 7♥", "swap 7♥ for the joker in East's set 7♠ 7♦ 🃏=7♥"."""
    if isinstance(move, LayOff | Swap) and 0 <= move.target < len(table):
        meld = meld_words(table, owners, names, move.target)
        if isinstance(move, LayOff):
            return _("lay off {card} on {meld}").format(card=move.card.symbol, meld=meld)
        return _("swap {card} for the joker in {meld}").format(card=move.card.symbol, meld=meld)
    return move.label()


def _who(player: int | None, names: Sequence[str]) -> str:
    if player is None:
        return _("The table")
    if 0 <= player < len(names):
        return names[player]
    return _("Player {number}").format(number=player + 1)


def _cards_word(n: int) -> str:
    return ngettext("{count} card", "{count} cards", n).format(count=n)


def _joker_text(card: Card) -> str:
    if card.as_rank is None:
        return _("a joker")
    if card.as_suit is None:
        return _("a joker standing for {rank}").format(rank=a_rank(card.as_rank))
    return _("a joker standing for {card}").format(card=Card(card.as_rank, card.as_suit).symbol)


def _players(e: Event, names: Sequence[str]) -> str:
    n = int(e.detail)
    if n == 4:
        return ngettext(
            "{count} player sits down: the classic table.",
            "{count} players sit down: the classic table.",
            n,
        ).format(count=n)
    return ngettext(
        "{count} player sits down: Penang Rummy takes 2 to 5.",
        "{count} players sit down: Penang Rummy takes 2 to 5.",
        n,
    ).format(count=n)


def _deck(e: Event, names: Sequence[str]) -> str:
    packs, jokers, total = (int(x) for x in e.detail.split(","))
    # Two numbers in one sentence: a house rule's single pack still reads "1 packs" (as before).
    return _("The deck is {packs} packs of 52 and {jokers} jokers: {total} cards.").format(
        packs=packs, jokers=jokers, total=total
    )


def _dealer(e: Event, names: Sequence[str]) -> str:
    return _("{player} deals.").format(player=_who(e.player, names))


def _deal(e: Event, names: Sequence[str]) -> str:
    return _(
        "Cards go out one at a time, starting with {player} on the dealer's left, until each "
        "hand holds {size}; the other {rest} are put aside, face down, unused."
    ).format(player=_who(e.player, names), size=e.after, rest=e.detail)


def _turn_order(e: Event, names: Sequence[str]) -> str:
    who = _who(e.player, names)
    if e.detail:
        skipped = [_who(int(s), names) for s in e.detail.split(",")]
        return ngettext(
            "{player} plays next, going clockwise: {skipped} is dead and is skipped.",
            "{player} plays next, going clockwise: {skipped} are dead and are skipped.",
            len(skipped),
        ).format(player=who, skipped=join_names(skipped))
    return _("{player} plays next (play goes clockwise from the dealer's left).").format(player=who)


def _passport(e: Event, names: Sequence[str]) -> str:
    return _(
        "{player} lays a first meld from the hand: that is the passport, and from now on "
        "lay-offs and joker swaps are allowed too."
    ).format(player=_who(e.player, names))


def _meld_text(e: Event) -> str:
    """What the event's meld is, in words (its cards when the event carries no meld)."""
    if e.meld is not None:
        return e.meld.description
    return _("the meld {cards}").format(cards=cards_symbols(e.cards))


def _meld(e: Event, names: Sequence[str]) -> str:
    who = _who(e.player, names)
    if e.meld is None:
        return _("{player} melds {cards}.").format(player=who, cards=cards_symbols(e.cards))
    words = {
        "player": who,
        "cards": e.meld.symbols,
        "meld": e.meld.description,
        "left": _cards_word(e.after),
    }
    if e.meld.kind is Kind.RUN:
        return _(
            "{player} melds {cards}, {meld} (one suit, ranks in a row), and has {left} left."
        ).format(**words)
    return _(
        "{player} melds {cards}, {meld} (one rank, suits may repeat), and has {left} left."
    ).format(**words)


def _joker(e: Event, names: Sequence[str]) -> str:
    stands = ", ".join(_joker_text(c) for c in e.cards)
    return _(
        "In {player}'s meld there is {jokers}: once played, a joker keeps that identity until "
        "someone swaps it out."
    ).format(player=_who(e.player, names), jokers=stands)


_LAID_OFF: Final = {
    "run": N_(
        "{who} lays off {card} on the run {before}, which now runs from {first} to {last}. "
        "{who} has {left} in hand."
    ),
    "set": N_(
        "{who} lays off {card} on the set {before}, which now holds {size} {rank}. "
        "{who} has {left} in hand."
    ),
    "meld": N_("{who} lays off {card}. {who} has {left} in hand."),
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
        return _(_LAID_OFF["meld"]).format(**words)
    before = cards_symbols(_cards_before(meld, card))
    if meld.kind is Kind.SET:
        rank = rank_name(meld.low, plural=True)
        return _(_LAID_OFF["set"]).format(**words, before=before, size=len(meld.cards), rank=rank)
    first = position_card(meld.suit, meld.low).symbol
    last = position_card(meld.suit, meld.high).symbol
    return _(_LAID_OFF["run"]).format(**words, before=before, first=first, last=last)


def _swap(e: Event, names: Sequence[str]) -> str:
    card, stood = e.cards[0], e.cards[1]
    return _(
        "{player} puts {card} in place of {joker} in {meld} and takes the joker: a swap is not "
        "an action, so it does not count as the turn's meld or lay-off."
    ).format(
        player=_who(e.player, names), card=card.symbol, joker=_joker_text(stood), meld=_meld_text(e)
    )


def _turn(e: Event, names: Sequence[str]) -> str:
    n = int(e.detail or 0)
    return ngettext(
        "{player} ends the turn after {count} action, holding {left}.",
        "{player} ends the turn after {count} actions, holding {left}.",
        n,
    ).format(player=_who(e.player, names), count=n, left=_cards_word(e.after))


def _dead(e: Event, names: Sequence[str]) -> str:
    points = e.counts[0] if e.counts else 0
    return ngettext(
        "{player} can make no meld and no lay-off, even after a swap, and is dead: {count} card "
        "({points} points) stays in hand and counts at the end.",
        "{player} can make no meld and no lay-off, even after a swap, and is dead: {count} cards "
        "({points} points) stay in hand and count at the end.",
        e.after,
    ).format(player=_who(e.player, names), count=e.after, points=points)


def _dead_passport(e: Event, names: Sequence[str]) -> str:
    points = e.counts[0] if e.counts else 0
    return ngettext(
        "{player} cannot make a first meld (the passport) and is dead at once: all {count} card "
        "({points} points) count against them.",
        "{player} cannot make a first meld (the passport) and is dead at once: all {count} cards "
        "({points} points) count against them.",
        e.after,
    ).format(player=_who(e.player, names), count=e.after, points=points)


def _game(e: Event, names: Sequence[str]) -> str:
    return _("{player} has no cards left and calls Game: the deal is won.").format(
        player=_who(e.player, names)
    )


def _end(e: Event, names: Sequence[str]) -> str:
    if e.detail == "game":
        return _("The deal stops at once; everyone else counts the cards still in hand.")
    if e.detail == "one alive":  # not for learners: the event's detail, a key
        return _("Only one player is still alive, and under this house rule the deal ends there.")
    return _("Every player is dead, so the deal is over without anyone going out.")


def _scoring(e: Event, names: Sequence[str]) -> str:
    counts = ", ".join(
        _("{player} {points}").format(player=_who(p, names), points=c)
        for p, c in enumerate(e.counts)
    )
    winners = [_who(int(w), names) for w in e.detail.split(",") if w]
    # One winner (or, never in a deal, none) wins; several share the win.
    return ngettext(
        "Counts (the points of the cards left in each hand): {counts}. {winners} wins.",
        "Counts (the points of the cards left in each hand): {counts}. {winners} share the win.",
        max(len(winners), 1),
    ).format(counts=counts, winners=join_names(winners))


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
            return _("Rule {rule}: {cards}").format(
                rule=event.rule, cards=cards_symbols(event.cards)
            )
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
    Status.ALIVE: N_("alive"),
    Status.DEAD: N_("dead"),
    Status.DEAD_PASSPORT: N_("dead (no passport)"),
    Status.OUT: N_("went out"),
}
"""A player's status in the words a learner reads (marked: show them through `_()`)."""


@dataclass(frozen=True, slots=True)
class Said:
    """One line for the learner: plain words, or, with `rule`, the engine's reason under that
    rule id, `ok` telling whether the rule allows (True) or refuses (False) what it is about."""

    text: str
    rule: str = ""
    ok: bool | None = None


def _seat(deal: Deal, seat: int) -> int:
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"a play table's sentences need a Deal, not {shown(deal)}")
    if seat.__class__ is not int or not 0 <= seat < deal.players:
        raise ValueError(f"the seat should be from 0 to {deal.players - 1}, not {shown(seat)}")
    return seat


_YOUR_TURN: Final = N_("Your turn {own} ({name}), turn {number} of the deal.")
"""The learner's turn: `own` counts the learner's own turns in this deal, this one included (as
the review numbers them), `number` everyone's."""
_BOT_TURN: Final = N_("{name}'s turn ({bot} bot), turn {number} of the deal.")
_THEIR_TURN: Final = N_("{name}'s turn, turn {number} of the deal.")
"""Another player's turn: `number` counts every player's turns in this deal, this one included."""


def turn_status(deal: Deal, seat: int, bots: Mapping[int, str] | None = None) -> str:
    """The head line of a play table for the learner at `seat`: who won once the deal is over,
    else whose turn it is. The learner's own turn is numbered among their own turns ("Your turn
    1" on their first, as the review numbers them), then among the deal's turns, everyone's
    (a bot's seat says which bot, from `bots`: seat -> bot name)."""
    seat = _seat(deal, seat)
    if deal.is_over:
        winners = join_names([deal.names[w] for w in deal.winners])
        turns = deal.turn_number
        return ngettext(
            "The deal is over after {count} turn. Won by {winners}.",
            "The deal is over after {count} turns. Won by {winners}.",
            turns,
        ).format(count=turns, winners=winners)
    if deal.turn == seat:
        own = deal.turns[seat]
        return _(_YOUR_TURN).format(own=own, name=deal.names[seat], number=deal.turn_number)
    bot = (bots or {}).get(deal.turn)
    words = {"name": deal.names[deal.turn], "bot": bot, "number": deal.turn_number}
    return _(_BOT_TURN if bot else _THEIR_TURN).format(**words)


def seat_status(deal: Deal, seat: int) -> str:
    """The learner's own standing: their status, how many cards they hold, what those count and
    whether they have made the passport."""
    seat = _seat(deal, seat)
    size = deal.hand_size(seat)
    words = {
        "name": deal.names[seat],
        "status": _(STATUS_WORDS[deal.status[seat]]),
        "count": size,
        "points": deal.count(seat),
    }
    if deal.passport[seat]:
        return ngettext(
            "You are {name} ({status}): {count} card counting {points} points; passport made.",
            "You are {name} ({status}): {count} cards counting {points} points; passport made.",
            size,
        ).format(**words)
    return ngettext(
        "You are {name} ({status}): {count} card counting {points} points; passport not yet.",
        "You are {name} ({status}): {count} cards counting {points} points; passport not yet.",
        size,
    ).format(**words)


def due(deal: Deal, seat: int, forced: Move | None = None) -> tuple[Move, Said] | None:
    """The move due for the learner at `seat` and the engine's reason for it, when Dead or Game
    is due (`forced`, else `forced_move(deal, seat)`); None when the deal is over or no move is
    forced. The reason is under its rule id: `dead` or `dead.passport` (refused: no meld or
    lay-off can be made) for `DeclareDead`, `game` (allowed: the hand is empty) for `DeclareGame`.
    What to click is the view's business (`penang_lib.widgets.play_parts.next_step`)."""
    seat = _seat(deal, seat)
    if deal.is_over:
        return None
    forced = forced if forced is not None else forced_move(deal, seat)
    if forced == DeclareDead():
        verdict = deal.can_play()
        return forced, Said(verdict.reason, verdict.rule, ok=False)
    if forced == DeclareGame():
        err = deal.explain_illegal(EndTurn())
        return forced, Said(err.reason if err is not None else "", "game", ok=True)
    return None


def bot_move_line(
    names: Sequence[str], seat: int, bot: str, move: Move, why: str = "", said: str = ""
) -> str:
    """One bot's move: who played it, which bot it is, the move, and, given, the bot's reason.
    The move is said as `said` when given (a view may name a table meld by its cards), else
    as `move.label()` ("lay off 5♣ on meld 2")."""
    words = {"player": _who(seat, names), "bot": bot, "move": said or move.label()}
    if why:
        return _("{player} ({bot} bot): {move}. Why: {why}").format(**words, why=why)
    return _("{player} ({bot} bot): {move}.").format(**words)


def bots_played(count: int) -> str:
    """The line above the moves the bots played in a row."""
    played = ngettext("The bots played {count} move:", "The bots played {count} moves:", count)
    return played.format(count=count)


def earlier_bot_moves(count: int) -> str:
    """Said when only the last of the bots' moves are listed: how many came before them (always
    more than one in a play table, which lists twelve)."""
    return _("… and {count} earlier bot moves (see the move log).").format(count=count)
