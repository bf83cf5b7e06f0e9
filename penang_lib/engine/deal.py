"""`Deal`: one deal of Penang Rummy as a state machine, in the manner of python-chess.

`legal_moves` is what the player to move may do (a lazy collection), `is_legal(move)` and
`explain_illegal(move)` judge a move, `push(move)` plays it (raising `IllegalMove`, and changing
nothing, when the rules forbid it), `pop()` takes it back, `copy()` clones and `root()` starts
again. `outcome()` says how a finished deal ended. Every push records `Event`s naming rule ids.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import partial
from typing import ClassVar, Final, NamedTuple

from penang_lib.engine import analysis
from penang_lib.engine.cards import (
    BY_ORDER,
    JOKER_INDEX,
    Card,
    Counts,
    cards_html,
    cards_of,
    cards_symbols,
    full_deck,
    noted_joker,
    or_words,
    read_cards,
    to_counts,
)
from penang_lib.engine.checks import (
    Verdict,
    copies_problem,
    lay_off_verdict,
    meld_verdict,
    swap_verdict,
    unchecked_action_verdict,
    unchecked_counts_points,
)
from penang_lib.engine.events import Event
from penang_lib.engine.fast.meld_count import HandFacts, has_meld
from penang_lib.engine.fast.table_index import TableInfo, table_info, takes_a_joker
from penang_lib.engine.melds import SET, Meld, is_search_reading, run_readings, set_readings
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
    require_move,
)
from penang_lib.engine.rules import MAX_PLAYERS, EndCondition, Rules
from penang_lib.engine.validate import (
    ArgumentTypeError,
    join_names,
    require_seed,
    require_whole,
    shown,
)
from penang_lib.i18n import N_, _, ngettext


class Phase(str, Enum):
    """Where a deal stands."""

    PLAYING = "playing"
    OVER = "over"


class Status(str, Enum):
    """A player's standing in the deal."""

    ALIVE = "alive"
    DEAD = "dead"
    DEAD_PASSPORT = "dead.passport"
    OUT = "game"


# The members the hot paths read, as module names (a member looked up on its enum class goes
# through the enum's metaclass, many times slower than a global).
_ALIVE: Final = Status.ALIVE
_OVER: Final = Phase.OVER
_ONE_ALIVE: Final = EndCondition.ONE_ALIVE


class Termination(str, Enum):
    """How a deal ended (rule `end`): someone went out, every player is dead, or (under the
    one-alive house rule) a single player was left alive."""

    GAME = "game"
    ALL_DEAD = "all dead"  # not for learners: engine notation (an event's detail)
    ONE_ALIVE = "one alive"  # not for learners: engine notation (an event's detail)


def _seats(seats: Sequence[int], names: Sequence[str] | None) -> str:
    """Seats in words: "seat 2", "seats 0 and 3" (or the players' names when given)."""
    words = [names[s] for s in seats] if names is not None else [str(s) for s in seats]
    joined = join_names(words)
    if names is not None:
        return joined
    return ngettext("seat {seats}", "seats {seats}", len(words)).format(seats=joined)


_ENDS: Final = {
    # (how the deal ended, whether several players share the win)
    (Termination.GAME, False): N_("Game: {winners} went out and wins the deal."),
    (Termination.GAME, True): N_("Game: {winners} went out and share the deal."),
    (Termination.ALL_DEAD, False): N_(
        "Every player is dead: {winners} wins with the lowest count, {count}."
    ),
    (Termination.ALL_DEAD, True): N_(
        "Every player is dead: {winners} share the win with the lowest count, {count}."
    ),
    (Termination.ONE_ALIVE, False): N_(
        "Only one player is left alive (the one-alive house rule): {winners} wins with the "
        "lowest count, {count}."
    ),
    (Termination.ONE_ALIVE, True): N_(
        "Only one player is left alive (the one-alive house rule): {winners} share the win "
        "with the lowest count, {count}."
    ),
}
"""How a deal ended, in one sentence, by its termination and whether the win is shared."""

_MISSING: Final = {
    # (the cards are a meld, the player holds the card once: "another")
    (False, False): N_("{player} does not hold {card}."),
    (False, True): N_("{player} does not hold another {card}."),
    (True, False): N_("{player} does not hold {card}, so it cannot be melded."),
    (True, True): N_("{player} does not hold another {card}, so it cannot be melded."),
}
"""Why the player to move cannot play a card they do not hold (or hold too few of)."""


@dataclass(frozen=True)
class Outcome:
    """How a finished deal ended: `termination`, who won (`winners`, seats; a tie shares the win)
    and every player's count (`scores`, by seat; 0 for a player who went out)."""

    termination: Termination
    winners: tuple[int, ...]
    scores: tuple[int, ...]

    def describe(self, names: Sequence[str] | None = None) -> str:
        """The outcome in plain words, naming seats by number or, given `names` (one per seat),
        by name."""
        names = require_names(names, len(self.scores))
        head = _(_ENDS[self.termination, len(self.winners) > 1]).format(
            winners=_seats(self.winners, names), count=self.scores[self.winners[0]]
        )
        seat = (
            [_("seat {seat}").format(seat=p) for p in range(len(self.scores))]
            if names is None
            else names
        )
        counts = ", ".join(
            _("{player} has {count}").format(player=seat[p], count=n)
            for p, n in enumerate(self.scores)
        )
        return _("{outcome} Counts: {counts}.").format(outcome=head, counts=counts)

    def __str__(self) -> str:
        return self.describe()


DEFAULT_RULES = Rules()
DEFAULT_NAMES = ("North", "East", "South", "West", "Centre")
MAX_NAME = 40
"""The longest name a player may have (names show in every sentence and on the table)."""
_PLAIN_MOVES = (EndTurn, DeclareDead, DeclareGame)


def require_names(names: object, players: int) -> tuple[str, ...] | None:
    """The players' names, one per seat, each 1 to `MAX_NAME` characters and all different;
    None (or an empty list) for the default names."""
    if names is None:
        return None
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise ArgumentTypeError(
            f"names should be a list of names, one per player, not {shown(names)}"
        )
    if not names:
        return None
    for name in names:
        if not isinstance(name, str):
            raise ArgumentTypeError(f"a player's name should be text, not {shown(name)}")
        if not name.strip() or len(name) > MAX_NAME:
            raise ValueError(
                f"a player's name should be 1 to {MAX_NAME} characters, not {shown(name)}"
            )
    if len(names) != players:
        raise ValueError(f"give one name per player ({players}), not {len(names)}")
    if len(set(names)) != len(names):
        twice = next(n for n in names if list(names).count(n) > 1)
        raise ValueError(f"two players cannot share the name {shown(twice)}")
    return tuple(names)


class _Snapshot(NamedTuple):
    """The position, declared once: these attributes of a `Deal`, as tuples where the deal keeps
    lists. `_snapshot()`, `==` and `state_key()` are made from this list of fields."""

    hands: tuple[Counts, ...]
    table: tuple[Meld, ...]
    owners: tuple[int, ...]
    passport: tuple[bool, ...]
    status: tuple[Status, ...]
    turns: tuple[int, ...]
    turn: int
    actions: int
    phase: Phase


class _Undo(NamedTuple):
    """What `pop` needs to take a move back: all that a move can change, as it was before."""

    seat: int
    """The mover's seat (only the mover's hand, passport and status change)."""
    hand: Counts
    facts: HandFacts
    size: int
    """The mover's hand, its facts and its size."""
    length: int
    """How many melds the table had (a meld move adds one)."""
    changed: int
    meld: Meld | None
    info: TableInfo | None
    """For a lay-off or a swap, the meld number changed, with the meld and table index it had
    (else -1, None, None)."""
    passport: bool
    actions: int
    status: Status
    """The mover's passport, the actions made this turn and the mover's status."""
    turn_number: int
    phase: Phase
    """The number of turns started, and the phase."""


_new_undo: Final[Callable[[tuple[object, ...]], _Undo]] = partial(tuple.__new__, _Undo)
"""An `_Undo` from its fields in their declared order, as one tuple: no Python call, as cheap as
the tuple itself (`push` makes one for every move)."""

_TURN_ORDER: Final = tuple(Event("turn-order", seat) for seat in range(MAX_PLAYERS))
"""The event of a turn passing to the next seat with none skipped, made once per seat (an event
is immutable, so the deals share them)."""

_SETUP: Final = ("players", "dealer", "names", "rules", "stock")
"""What `==` compares besides the position (`_Snapshot`): fixed when the deal is dealt."""


def _sig(meld: Meld) -> tuple[Card, ...]:
    """What a meld means regardless of card order (two readings with one signature are one)."""
    return tuple(sorted(meld.cards, key=BY_ORDER))


def _distinct(melds: Sequence[Meld]) -> list[Meld]:
    """The melds that mean different things, in order (one per signature)."""
    seen: dict[tuple[Card, ...], Meld] = {}
    for meld in melds:
        seen.setdefault(_sig(meld), meld)
    return list(seen.values())


class Deal:
    """One deal: the hands, the table, whose turn it is, and the moves played so far.

    `Deal(players=4, seed=7)` shuffles with `random.Random(seed)`, picks the first dealer at random
    (unless `dealer` is given) and deals one card at a time from the dealer's left. `hands` (card
    text or lists, one per seat) replaces the shuffle with a prepared position; the rest of the
    deck is put aside as usual.

    A seed is a whole number from 0 to 2**63 - 1 (`MAX_SEED`), or None to draw one; names are 1 to
    40 characters, all different. Arguments of the wrong type raise `ArgumentTypeError` (a
    `TypeError`), values out of range `ValueError`, and a deck too small for the hands says so.

    One rule for what is a property and what is a method: a plain fact of the position that
    takes no argument is a property (`is_over`, `turn_number`, `alive`, `scores`, `winners`,
    `events`, and `legal_moves`, a lazy collection as in python-chess); whatever takes an
    argument (`hand(p)`, `count(p)`, `is_legal(move)`) or builds a new value (`outcome()`,
    `copy()`, `root()`, `can_play()`, `state_key()`) is a method, and so are `peek()` and
    `ply()`, which read the move history, under python-chess's names.

    Two deals are equal (`==`) when their positions are: the same rules, players, names and
    dealer, the same cards in each hand and put aside, the same table melds in the same order
    and owners, passports, statuses, turns started, player to move, actions this turn and phase.
    How the position was reached (the moves, the seed) does not count. A deal is mutable, so it
    has no hash.

    Attributes a user may read (never assign: `push` and `pop` keep them in step):
    `players`, `names` (one per seat), `seed`, `rules`, `dealer`, `copies` (packs in the deck),
    `custom` (dealt from given `hands`), `initial_hands` and `stock` (count vectors of the cards
    dealt and put aside), `hands` (a count vector per seat; `hand(p)` gives the cards), `table`
    (the melds, by number), `owners` (who laid down each), `passport`, `status` and `turns`
    (per seat), `turn` (the seat to move), `actions` (melds and lay-offs made this turn),
    `phase`, `move_stack` (the moves so far, as in python-chess), `movers` (who made each),
    `event_stack` (each move's events) and `start_events`.

    Everything whose name starts with an underscore is internal and may change in any release:
    the caches kept in step with the hands and the table (`_sizes`, `_facts`, `table_infos`,
    which the engine's own `PlayerView` reads), the undo records (`_undo`), `_turn_number` and
    the memo `_action_cache`. The position's fields are declared once, in `_Snapshot`: `==`,
    `state_key()` and `_snapshot()` follow that declaration, and `copy()` copies every list.

    >>> deal = Deal(players=2, seed=7)
    >>> deal
    <Deal players=2 seed=7 phase=playing turn=North moves=0>
    >>> deal.hand(0)[:3]
    [Card('AS'), Card('AS'), Card('2S')]
    >>> deal.count(0), deal.hand_size(0), deal.turn
    (230, 25, 0)
    >>> deal == Deal(players=2, seed=7)
    True
    """

    __hash__: ClassVar[None] = None  # type: ignore[assignment]

    def __init__(
        self,
        players: int = 4,
        seed: int | None = None,
        rules: Rules | None = None,
        dealer: int | None = None,
        hands: Sequence[str | Sequence[Card]] | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        self.rules = Rules.of(rules)
        if hands is not None:
            if isinstance(hands, str) or not isinstance(hands, Sequence):
                raise ArgumentTypeError(
                    f"hands should be a list with one hand (card text) per player, not "
                    f"{shown(hands)}"
                )
            players = len(hands)
            self.rules.require_players(players)
        else:
            players = require_whole(players, "players")
            self.rules.require_deal(players)
        self.players = players
        chosen = require_seed(seed)
        self.seed: int = random.randrange(2**32) if chosen is None else chosen
        rng = random.Random(self.seed)
        self.copies = self.rules.packs_for(players)
        deck = full_deck(self.copies, self.rules.jokers)
        drawn = rng.randrange(players)  # always drawn, so a given dealer keeps the same shuffle
        if dealer is None:
            dealer = drawn
        dealer = require_whole(dealer, "dealer")
        if not 0 <= dealer < players:
            raise ValueError(f"the dealer must be a seat from 0 to {players - 1} (rule dealer)")
        self.dealer = dealer
        self.custom = hands is not None
        if hands is None:
            rng.shuffle(deck)
            size = self.rules.hand_size(players)
            # One card at a time from the dealer's left: seat (dealer + 1 + i) % players gets the
            # i-th card, so the player `offset` seats after that one gets every players-th card.
            dealt: list[list[Card]] = [[] for _seat in range(players)]
            for offset in range(players):
                dealt[(dealer + 1 + offset) % players] = deck[offset : size * players : players]
            stock = deck[size * players :]
        else:
            dealt = [
                read_cards(h, f"hand {i} of hands")  # not for learners: a name in a TypeError
                for i, h in enumerate(hands)
            ]
            if any(c.as_rank is not None for h in dealt for c in h):
                raise ValueError("cards in a hand are plain: only jokers on the table carry notes")
            problem = copies_problem([c for h in dealt for c in h], self.copies, self.rules.jokers)
            if problem:
                raise ValueError(f"these hands cannot come from one deck: {problem} (rule deck)")
            stock = list(deck)
            for hand in dealt:
                for card in hand:
                    stock.remove(card)
        self.names = require_names(names, players) or DEFAULT_NAMES[:players]
        self.initial_hands: tuple[Counts, ...] = tuple(to_counts(h) for h in dealt)
        self.stock: Counts = to_counts(stock)
        self.hands: list[Counts] = list(self.initial_hands)
        self._sizes = [sum(hand) for hand in self.hands]
        """How many cards each hand holds, kept up to date with `hands`."""
        self._facts = [HandFacts(hand, self.rules.all_joker_melds) for hand in self.hands]
        """What the meld search reads from each hand, kept up to date with `hands`."""
        self.table: list[Meld] = []
        self.table_infos: list[TableInfo] = []
        """What each table meld takes (lay-offs, swaps), kept up to date with `table`."""
        self.owners: list[int] = []
        self.passport = [False] * players
        self.status = [Status.ALIVE] * players
        self.turns = [0] * players
        """How many turns each player has started (a turn ending in Dead counts too)."""
        self.turn = (dealer + 1) % players
        self.actions = 0
        """Melds and lay-offs made so far in the current turn."""
        self.phase = Phase.PLAYING
        self.move_stack: list[Move] = []
        self.movers: list[int] = []
        """The seat that made each move of `move_stack`."""
        self.event_stack: list[tuple[Event, ...]] = []
        self._undo: list[_Undo] = []
        self._action_cache: dict[int, analysis.Action | None] = {}
        self.turns[self.turn] = 1
        self._turn_number = 1
        self.start_events: tuple[Event, ...] = self._start_events()

    # -- reading the state -----------------------------------------------------------------------
    def _seat(self, player: object, name: str = "player") -> int:
        """`player` as a seat of this deal, or a sentence saying why it is not one."""
        if player.__class__ is int and 0 <= player < self.players:
            return player
        return require_whole(player, name, 0, self.players - 1)

    def hand(self, player: int | None = None) -> list[Card]:
        """The cards in a player's hand (the player to move by default), in display order."""
        return cards_of(self.hands[self.turn if player is None else self._seat(player)])

    def hand_size(self, player: int) -> int:
        return self._sizes[self._seat(player)]

    def count(self, player: int) -> int:
        """A player's count: the points of the cards in their hand (rule `scoring`)."""
        return unchecked_counts_points(self.hands[self._seat(player)], self.rules)

    @property
    def turn_number(self) -> int:
        """How many turns have started in this deal (the current one included)."""
        return self._turn_number

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended (someone went out, or the rule `end` stopped it)."""
        return self.phase is _OVER

    @property
    def alive(self) -> list[int]:
        """The seats still taking turns (status alive), in seat order."""
        return [p for p in range(self.players) if self.status[p] is Status.ALIVE]

    @property
    def scores(self) -> list[int]:
        """Each player's count now (0 for a player who went out)."""
        rules = self.rules
        return [unchecked_counts_points(hand, rules) for hand in self.hands]

    @property
    def winners(self) -> list[int]:
        """Who won the deal (rule `scoring`): the player who went out, else the lowest count
        among the dead (under the one-alive house rule a survivor does not count).

        Empty while the deal is still being played; a tie shares the win.
        """
        if not self.is_over:
            return []
        return self._winners(self.scores)

    def _winners(self, scores: Sequence[int]) -> list[int]:
        """`winners` of a finished deal whose `scores` are known."""
        out = [p for p in range(self.players) if self.status[p] is Status.OUT]
        if out:
            return out
        dead = [p for p in range(self.players) if self.status[p] is not Status.ALIVE]
        best = min(scores[p] for p in dead)
        return [p for p in dead if scores[p] == best]

    def outcome(self) -> Outcome | None:
        """How the deal ended (an `Outcome`: termination, winners, scores), or None while it is
        still being played."""
        if not self.is_over:
            return None
        status = self.status
        if Status.OUT in status:
            termination = Termination.GAME
        elif Status.ALIVE in status:
            termination = Termination.ONE_ALIVE
        else:
            termination = Termination.ALL_DEAD
        return Outcome(termination, tuple(self.winners), tuple(self.scores))

    def peek(self) -> Move:
        """The last move played (`IndexError` when none has been)."""
        if not self.move_stack:
            raise IndexError("no move played yet")
        return self.move_stack[-1]

    def ply(self) -> int:
        """How many moves have been played (pushed and not taken back)."""
        return len(self.move_stack)

    def root(self) -> Deal:
        """A new deal at the start of this one: the same players, seed, rules, dealer, names
        and (for a deal made from prepared hands) hands, with no move played."""
        if self.custom:
            return Deal(
                seed=self.seed,
                rules=self.rules,
                dealer=self.dealer,
                hands=[cards_of(hand) for hand in self.initial_hands],
                names=self.names,
            )
        return Deal(self.players, self.seed, self.rules, self.dealer, names=self.names)

    @property
    def events(self) -> list[Event]:
        """Every event so far, the deal's start included, in order."""
        return [*self.start_events, *(e for group in self.event_stack for e in group)]

    def counts_dealt(self) -> Counts:
        """Every card of the deck: the hands dealt plus the cards put aside."""
        return tuple(
            sum(h[i] for h in self.initial_hands) + self.stock[i] for i in range(JOKER_INDEX + 1)
        )

    def counts_now(self) -> Counts:
        """Every card where it is now: hands, table and the cards put aside."""
        total = list(self.stock)
        for hand in self.hands:
            for i, n in enumerate(hand):
                total[i] += n
        for meld in self.table:
            for card in meld.physical:
                total[card.index] += 1
        return tuple(total)

    # -- legality --------------------------------------------------------------------------------
    def _action(self) -> analysis.Action | None:
        """What the player to move could still do (memoised per position)."""
        key = len(self.move_stack)
        if key not in self._action_cache:
            self._action_cache[key] = analysis.unchecked_find_action(
                self.hands[self.turn], self.table, self.passport[self.turn], self.rules
            )
        return self._action_cache[key]

    def _can_act(self) -> bool:
        """Whether the player to move can still meld or lay off, swaps included: the same answer
        as `_action() is not None`, from bit masks of the hand and the table index, with the
        whole search only when a swap might be needed first (rules `dead`, `dead.passport`)."""
        me = self.turn
        facts = self._facts[me]
        hand = facts.counts
        if has_meld(hand, self.rules, facts.shape):
            return True
        if not self.passport[me]:
            return False
        held = facts.held
        jokers = hand[JOKER_INDEX]
        swap = False
        for info in self.table_infos:
            if info.accept_mask & held or (jokers and info.joker_cards):
                return True
            if info.swap_mask & held:
                swap = True
        return swap and self._action() is not None

    def can_play(self) -> Verdict:
        """Can the player to move meld or lay off, swaps included? (rules `dead`, `passport`)"""
        return unchecked_action_verdict(
            self.hands[self.turn], self.table, self.passport[self.turn], self.rules
        )

    def explain_illegal(self, move: Move, player: int | None = None) -> IllegalMove | None:
        """Why `move` is illegal now (an `IllegalMove` with rule and reason), or None if legal."""
        try:
            self._resolve(move, player)
        except IllegalMove as error:
            return error
        return None

    def is_legal(self, move: Move, player: int | None = None) -> bool:
        return self.explain_illegal(move, player) is None

    def _require_move(self, move: object, player: object) -> None:
        """A move value whose fields have the right types, and a seat (or None) for `player`;
        otherwise an `ArgumentTypeError` naming what is wrong, or an `IllegalMove` (rule
        `turn-order`) for a seat number that is not at this table."""
        cls = move.__class__
        if cls is LayOff or cls is Swap:
            target = move.target  # type: ignore[attr-defined]
            if target.__class__ is not int:
                raise ArgumentTypeError(
                    f"the meld number of a {cls.__name__} should be a whole number (the meld's "
                    f"place on the table, from 0), not {shown(target)}"
                )
            card = move.card  # type: ignore[attr-defined]
            if card.__class__ is not Card and not isinstance(card, Card):
                raise ArgumentTypeError(
                    f"the card of a {cls.__name__} should be a Card, not {shown(card)} "
                    "(parse_move reads text such as 'lay_off 0 8H')"
                )
        elif cls is MeldMove:
            for card in move.cards:  # type: ignore[attr-defined]
                if card.__class__ is not Card and not isinstance(card, Card):
                    raise ArgumentTypeError(
                        f"a meld's cards should be Card values, not {shown(card)} "
                        "(parse_move reads text such as 'meld 5H 6H 7H')"
                    )
        elif cls not in _PLAIN_MOVES:
            require_move(move)
        if player is not None and not (player.__class__ is int and 0 <= player < self.players):
            player = require_whole(player, "player")  # a seat number, or an ArgumentTypeError
            raise IllegalMove(
                "turn-order",
                _("There is no seat {seat} at this table: its seats are 0 to {last}.").format(
                    seat=player, last=self.players - 1
                ),
            )

    def _resolve(self, move: Move, player: int | None = None) -> Meld | None:
        """Check `move` and return the table meld it creates or changes (None for the rest)."""
        # The types first, without a call when they are right (every engine-made move is).
        cls = move.__class__
        if cls is LayOff or cls is Swap:
            if move.target.__class__ is not int or move.card.__class__ is not Card:  # type: ignore[union-attr]
                self._require_move(move, player)
        elif cls is MeldMove:
            for card in move.cards:  # type: ignore[union-attr]
                if card.__class__ is not Card:
                    self._require_move(move, player)
                    break
        elif cls not in _PLAIN_MOVES:
            self._require_move(move, player)
        if player is not None and not (player.__class__ is int and 0 <= player < self.players):
            self._require_move(move, player)
        me = self.turn
        name = self.names[me]
        if self.phase is _OVER:
            raise IllegalMove("end", _("The deal is over: no more moves can be made."))
        if player is not None and player != me:
            raise IllegalMove(
                "turn-order",
                _("It is {player}'s turn, not {other}'s.").format(
                    player=name, other=self.names[player]
                ),
            )
        hand = self.hands[me]
        size = self._sizes[me]
        if size == 0 and not isinstance(move, DeclareGame):
            raise IllegalMove(
                "game",
                _("{player}'s hand is empty: the only move is to declare Game.").format(
                    player=name
                ),
            )
        if isinstance(move, DeclareGame):
            if size:
                raise IllegalMove(
                    "game",
                    ngettext(
                        "Game is declared with an empty hand; {player} still holds {count} card.",
                        "Game is declared with an empty hand; {player} still holds {count} cards.",
                        size,
                    ).format(player=name, count=size),
                )
            return None
        if isinstance(move, DeclareDead):
            if self.actions:
                raise IllegalMove(
                    "dead",
                    _(
                        "{player} has already played this turn: end the turn instead of dying."
                    ).format(player=name),
                )
            if self._can_act():
                raise IllegalMove(
                    "dead",
                    _(
                        "{player} can still play, and a player who can act may not declare Dead. "
                        "{reason}"
                    ).format(player=name, reason=self.can_play().reason),
                )
            return None
        if isinstance(move, EndTurn):
            if self.actions == 0:
                raise IllegalMove(
                    "turn",
                    _(
                        "A turn needs at least one meld or lay-off before it ends: "
                        "passing is not allowed."
                    ),
                )
            return None
        if isinstance(move, MeldMove):
            return self._resolve_meld(move, hand)
        return self._resolve_table_move(move, hand)

    def _missing(self, hand: Counts, cards: Sequence[Card], melded: bool) -> str | None:
        """Why the player to move cannot play `cards` (they do not hold them all), or None;
        `melded`: the cards are a meld, and the sentence says it cannot be melded."""
        need: dict[int, int] = {}
        for card in cards:
            need[card.index] = need.get(card.index, 0) + 1
        for i, n in need.items():
            if n > hand[i]:
                message = _MISSING[melded, bool(hand[i])]
                card = Card.from_index(i)
                return _(message).format(player=self.names[self.turn], card=card.symbol)
        return None

    def _resolve_meld(self, move: MeldMove, hand: Counts) -> Meld:
        missing = self._missing(hand, move.cards, melded=True)
        if missing:
            raise IllegalMove("meld", missing)
        # The cards are in the hand, so the deck can supply them: only the shape is in question.
        allow = self.rules.all_joker_melds
        reading = move.__dict__.get("_reading")
        if (
            reading is not None
            and is_search_reading(reading, allow)
            and tuple(sorted(reading.cards, key=BY_ORDER)) == move.cards
        ):
            return reading  # type: ignore[no-any-return]
        readings = [*set_readings(move.cards, allow), *run_readings(move.cards, allow)]
        if not readings:
            verdict = meld_verdict(move.cards, self.rules, self.copies)
            raise IllegalMove(verdict.rule, verdict.reason)
        distinct = _distinct(readings)
        if len(distinct) > 1:
            raise IllegalMove(
                "joker",
                _(
                    "{cards} can be read more than one way: say which card each joker stands for "
                    "({options})."
                ).format(
                    cards=cards_symbols(move.cards), options=or_words([str(m) for m in distinct])
                ),
                tuple(MeldMove(m.cards) for m in distinct),
            )
        return readings[0]

    def _resolve_table_move(self, move: LayOff | Swap, hand: Counts) -> Meld:
        me = self.turn
        rule = "lay-off" if isinstance(move, LayOff) else "swap"
        if not self.passport[me]:
            if rule == "lay-off":
                message = _(
                    "{player} has no passport yet: the first action must be a meld from the "
                    "hand before they may lay off a card."
                )
            else:
                message = _(
                    "{player} has no passport yet: the first action must be a meld from the "
                    "hand before they may swap a joker."
                )
            raise IllegalMove("passport", message.format(player=self.names[me]))
        if not 0 <= move.target < len(self.table):
            raise IllegalMove(
                rule,
                _(
                    "There is no meld {meld} on the table: its melds are numbered from 0 to {last}."
                ).format(meld=move.target, last=len(self.table) - 1)
                if self.table
                else _("There is no meld on the table yet."),
            )
        missing = None if hand[move.card.index] else self._missing(hand, [move.card], False)
        if missing:
            raise IllegalMove(rule, missing)
        meld = self.table[move.target]
        if isinstance(move, LayOff):
            results = meld.lay_off_results(move.card)
            distinct = _distinct(results) if len(results) > 1 else results
            if len(distinct) > 1:
                placed = [m.cards[0] if m.low < meld.low else m.cards[-1] for m in distinct]
                raise IllegalMove(
                    "joker",
                    _(
                        "The joker could go at either end of {meld}: say which card it stands for "
                        "({options})."
                    ).format(meld=meld.description, options=or_words([str(c) for c in placed])),
                    tuple(LayOff(move.target, card) for card in placed),
                )
            if not results:
                verdict = lay_off_verdict(meld, move.card, self.rules, self.copies)
                raise IllegalMove(verdict.rule, verdict.reason)
            return results[0]
        swapped = meld.swap_results(move.card)
        if not swapped:
            verdict = swap_verdict(meld, move.card, self.rules, self.copies)
            raise IllegalMove(verdict.rule, verdict.reason)
        result = swapped[0]
        if self.actions == 0 and not takes_a_joker(self.table_infos):
            option = analysis.TableOption(move.target, move.card, result)
            if not analysis.unchecked_swap_leaves_action(hand, self.table, option, self.rules):
                raise IllegalMove(
                    "swap",
                    _(
                        "After that swap no meld or lay-off would be left to make this turn, and "
                        "a swap alone is not an action."
                    ),
                )
        return result

    # -- legal moves -------------------------------------------------------------------------------
    @property
    def legal_moves(self) -> LegalMoves:
        """Every legal move for the player to move, as a lazy, live collection (a hand with jokers
        has very many melds): iterate it (afresh each time), `len()` or `.count()` it, ask
        `move in deal.legal_moves` (the rules judge it, nothing is listed) or `.any()`.

        Jokers in melds and lay-offs carry their notes, so each move means exactly one thing, and
        no move is listed twice.

        >>> from penang_lib.engine.moves import MeldMove
        >>> deal = Deal(players=2, seed=7)
        >>> MeldMove.of("AS 2S 3S") in deal.legal_moves
        True
        >>> len(deal.legal_moves)
        231
        >>> str(next(iter(deal.legal_moves)))
        'meld AC JK@A JK@A'
        """
        return LegalMoves(self._iter_legal_moves, self.is_legal)

    def _iter_legal_moves(self) -> Iterator[Move]:
        if self.is_over:
            return
        me = self.turn
        hand = self.hands[me]
        if self._sizes[me] == 0:
            yield DeclareGame()
            return
        if self.actions == 0 and not self._can_act():
            yield DeclareDead()
            return
        # The search lists each meld move once (a run from ace to ace, where a joker could
        # stand for either ace, included: see analysis._iter_runs).
        for meld in analysis.unchecked_iter_melds(hand, self.rules):
            yield MeldMove.of_meld(meld)
        if not self.passport[me]:
            return
        # Lay-offs found on the hand's own cards are legal as they stand (the passport is made,
        # jokers come noted); only the duplicates of an ace fitting both ends are dropped.
        seen: set[Move] = set()
        for option in analysis.unchecked_iter_lay_offs(hand, self.table):
            lay_off: Move = LayOff(option.target, option.card)
            if lay_off not in seen:
                seen.add(lay_off)
                yield lay_off
        for option in analysis.unchecked_iter_swaps(hand, self.table):
            swap = Swap(option.target, option.card)
            if swap in seen:
                continue
            seen.add(swap)
            if self.actions == 0 and not analysis.unchecked_swap_leaves_action(
                hand, self.table, option, self.rules
            ):
                continue
            yield swap
        if self.actions:
            yield EndTurn()

    # -- playing -----------------------------------------------------------------------------------
    def push(self, move: Move, player: int | None = None) -> tuple[Event, ...]:
        """Play `move` for the player to move (checking that it is `player`'s turn).

        Returns the move's events. Raises `IllegalMove` naming the rule and why; the deal is then
        unchanged. A value that is not a move (text, None, a meld number that is not a number)
        raises `ArgumentTypeError`, a `TypeError`, and changes nothing either: text is read with
        `parse_move`, or pushed at once with `push_text`.

        >>> from penang_lib.engine.moves import MeldMove, parse_move
        >>> deal = Deal(players=2, seed=7)
        >>> events = deal.push(parse_move("meld AS 2S 3S"))
        >>> [event.rule for event in events]
        ['passport', 'run']
        >>> deal.table[0].symbols, deal.hand_size(0)
        ('A♠ 2♠ 3♠', 22)
        >>> deal.push(MeldMove.of("5H 6H 7H"))
        Traceback (most recent call last):
        ...
        penang_lib.engine.moves.IllegalMove: North does not hold 5♥, so it cannot be melded.
        >>> deal.pop()
        MeldMove(cards=(Card('AS'), Card('2S'), Card('3S')))
        >>> deal == Deal(players=2, seed=7)
        True
        """
        result = self._resolve(move, player)
        me = self.turn
        before = self._sizes[me]
        # Only the mover's seat, the table, the turn and the phase change: keep what they were.
        cls = move.__class__
        if cls is LayOff or cls is Swap:
            changed: int = move.target  # type: ignore[union-attr]
            old_meld: Meld | None = self.table[changed]
            old_info: TableInfo | None = self.table_infos[changed]
        else:
            changed, old_meld, old_info = -1, None, None
        self._undo.append(
            _new_undo(
                (
                    me,
                    self.hands[me],
                    self._facts[me],
                    before,
                    len(self.table),
                    changed,
                    old_meld,
                    old_info,
                    self.passport[me],
                    self.actions,
                    self.status[me],
                    self._turn_number,
                    self.phase,
                )
            )
        )
        events: list[Event] = []
        if isinstance(move, MeldMove):
            assert result is not None
            self._take(me, [card.index for card in result.cards])
            self.table.append(result)
            self.table_infos.append(table_info(result))
            self.owners.append(me)
            target = len(self.table) - 1
            after = before - len(result)
            if not self.passport[me]:
                self.passport[me] = True
                events.append(Event("passport", me, result.cards, result, target, before, after))
            kind = "set" if result.kind is SET else "run"  # the kind's value, read faster
            events.append(Event(kind, me, result.cards, result, target, before, after))
            if result.jokers:
                jokers = tuple(c for c in result.cards if c.is_joker)
                events.append(Event("joker", me, jokers, result, target, before, after))
            self.actions += 1
        elif isinstance(move, LayOff):
            assert result is not None and old_meld is not None
            placed = move.card
            if not placed.rank:  # a joker: the card it became
                placed = result.cards[0] if result.low < old_meld.low else result.cards[-1]
                if result.kind is SET:
                    placed = noted_joker(result.low)
            self._take(me, [move.card.index])
            self.table[move.target] = result
            self.table_infos[move.target] = table_info(result)
            events.append(Event("lay-off", me, (placed,), result, move.target, before, before - 1))
            self.actions += 1
        elif isinstance(move, Swap):
            assert result is not None and old_meld is not None
            old = old_meld
            self._swap_out(me, move.card.index)
            self.table[move.target] = result
            self.table_infos[move.target] = table_info(result)
            if old.kind is SET:
                stood = noted_joker(old.low)
            else:  # the joker the card took the place of
                stood = next(
                    (
                        c
                        for c, n in zip(old.cards, result.cards, strict=False)
                        if not c.rank and n.rank
                    ),
                    noted_joker(old.low),
                )
            swapped = (move.card, stood)
            events.append(
                Event("swap", me, swapped, result, move.target, before, before, detail=str(stood))
            )
        elif isinstance(move, EndTurn):
            events.append(Event("turn", me, before=before, after=before, detail=str(self.actions)))
            events.extend(self._next_turn())
        elif isinstance(move, DeclareDead):
            rule = "dead" if self.passport[me] else "dead.passport"
            self.status[me] = Status.DEAD if self.passport[me] else Status.DEAD_PASSPORT
            hand = tuple(cards_of(self.hands[me]))
            points = (unchecked_counts_points(self.hands[me], self.rules),)
            events.append(Event(rule, me, cards=hand, before=before, after=before, counts=points))
            events.extend(self._next_turn())
        elif isinstance(move, DeclareGame):
            self.status[me] = Status.OUT
            events.append(Event("game", me))
            events.extend(self._finish("game"))
        self.move_stack.append(move)
        self.movers.append(me)
        done = tuple(events)
        self.event_stack.append(done)
        return done

    def push_text(self, text: str, player: int | None = None) -> tuple[Event, ...]:
        """Read a move in its text form (`parse_move`) and push it: `push_text("meld 5H 6H 7H")`,
        like python-chess's `push_san`. Unreadable text raises `CardParseError`.

        >>> deal = Deal(players=2, seed=7)
        >>> deal.push_text("meld AS 2S 3S")[1].rule
        'run'
        >>> str(deal.peek())
        'meld AS 2S 3S'
        """
        return self.push(parse_move(text), player)

    def pop(self) -> Move:
        """Take back the last move and return it; the deal is exactly as it was before."""
        if not self.move_stack:
            raise IndexError("no move to take back")
        undo = self._undo.pop()
        if self._turn_number != undo.turn_number:  # the move started the next turn
            self.turns[self.turn] -= 1
            self._turn_number = undo.turn_number
        me = self.turn = undo.seat
        self.hands[me] = undo.hand
        self._facts[me] = undo.facts
        self._sizes[me] = undo.size
        length = undo.length
        del self.table[length:], self.table_infos[length:], self.owners[length:]
        if undo.meld is not None and undo.info is not None:
            self.table[undo.changed] = undo.meld
            self.table_infos[undo.changed] = undo.info
        self.passport[me] = undo.passport
        self.status[me] = undo.status
        self.actions = undo.actions
        self.phase = undo.phase
        self.event_stack.pop()
        self.movers.pop()
        self._action_cache.pop(len(self.move_stack), None)
        return self.move_stack.pop()

    def copy(self) -> Deal:
        """An independent deal in the same state, with the same history (so `pop` works)."""
        other = Deal.__new__(Deal)
        # Every list or dict attribute is the deal's own (a new one is copied with no edit here);
        # the rest (numbers, tuples, rules, enums) is immutable and shared.
        other.__dict__.update(
            {
                name: value.copy() if value.__class__ is list or value.__class__ is dict else value
                for name, value in self.__dict__.items()
            }
        )
        return other

    def state_key(self) -> tuple[object, ...]:
        """Everything that defines the position, and the moves that led to it (for comparing)."""
        return (self._snapshot(), tuple(self.move_stack))

    # -- internals -------------------------------------------------------------------------------
    def _snapshot(self) -> _Snapshot:
        state = self.__dict__
        return _Snapshot._make(
            tuple(value) if value.__class__ is list else value
            for value in map(state.__getitem__, _Snapshot._fields)
        )

    def _take(self, player: int, indices: Sequence[int]) -> None:
        """Take the cards at count-vector `indices` from a hand (an index once per card)."""
        hand = list(self.hands[player])
        for i in indices:
            hand[i] -= 1
        counts = tuple(hand)
        self.hands[player] = counts
        self._sizes[player] -= len(indices)
        self._facts[player] = self._facts[player].changed(counts, indices)

    def _swap_out(self, player: int, index: int) -> None:
        """A swap: the natural at `index` leaves the hand and a joker comes in."""
        hand = list(self.hands[player])
        hand[index] -= 1
        hand[JOKER_INDEX] += 1
        counts = tuple(hand)
        self.hands[player] = counts
        self._facts[player] = self._facts[player].changed(counts, (index, JOKER_INDEX))

    def _next_turn(self) -> list[Event]:
        status = self.status
        alive = status.count(_ALIVE)
        if not alive:
            return self._finish(Termination.ALL_DEAD.value)
        if self.rules.end_condition is _ONE_ALIVE and alive == 1 and self.players > 1:
            return self._finish(Termination.ONE_ALIVE.value)
        seat = (self.turn + 1) % self.players
        if status[seat] is _ALIVE:
            detail = ""
        else:
            skipped = []
            while status[seat] is not _ALIVE:
                skipped.append(str(seat))
                seat = (seat + 1) % self.players
            detail = ",".join(skipped)
        self.turn = seat
        self.actions = 0
        self.turns[seat] += 1
        self._turn_number += 1
        if detail:
            return [Event("turn-order", seat, detail=detail)]
        return [_TURN_ORDER[seat]]

    def _finish(self, why: str) -> list[Event]:
        self.phase = Phase.OVER
        scores = tuple(self.scores)
        winners = self._winners(scores)
        return [
            Event("end", None, detail=why),
            Event("scoring", None, counts=scores, detail=",".join(str(w) for w in winners)),
        ]

    def _start_events(self) -> tuple[Event, ...]:
        n = self.players
        size = sum(self.initial_hands[0])
        deck = sum(self._sizes) + sum(self.stock)  # nothing is played yet
        return (
            Event("players", None, detail=str(n)),
            Event("deck", None, detail=f"{self.copies},{self.rules.jokers},{deck}"),
            Event("dealer", self.dealer),
            Event("deal", (self.dealer + 1) % n, after=size, detail=str(sum(self.stock))),
            Event("turn-order", self.turn),
        )

    def __eq__(self, other: object) -> bool:
        """Whether `other` is a deal in the same position (the moves that led there, and the
        seed, do not count)."""
        if not isinstance(other, Deal):
            return NotImplemented
        return self._snapshot() == other._snapshot() and all(
            getattr(self, name) == getattr(other, name) for name in _SETUP
        )

    # -- display -----------------------------------------------------------------------------------
    def __repr__(self) -> str:
        return (
            f"<Deal players={self.players} seed={self.seed} phase={self.phase.value} "
            f"turn={self.names[self.turn]} moves={len(self.move_stack)}>"
        )

    def __str__(self) -> str:
        """The deal as text: the turn (or the result), then per player a mark for the player to
        move, the name, status, count and cards, then the table melds by number."""
        outcome = self.outcome()
        if outcome is None:
            head = _("Turn {turn}: {player} to move.").format(
                turn=self.turn_number, player=self.names[self.turn]
            )
        else:
            # "1 turns" as ever: tests/engine/test_manners.py holds the English.
            head = _("Over after {turns} turns. {outcome}").format(
                turns=self.turn_number, outcome=outcome.describe(self.names)
            )
        width = max(7, *(len(name) for name in self.names))
        lines = [head]
        for p in range(self.players):
            mark = ">" if p == self.turn and outcome is None else " "
            row = _("{player} {status} count {count} {cards}").format(
                player=self.names[p].ljust(width),
                status=self.status[p].value.ljust(13),
                count=str(self.count(p)).ljust(4),
                cards=cards_symbols(self.hand(p)),
            )
            lines.append(f"{mark} {row}".rstrip())
        for i, meld in enumerate(self.table):
            lines.append(f"  [{i}] {self.names[self.owners[i]]}: {meld.symbols}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = []
        for p in range(self.players):
            mark = "▶ " if p == self.turn and not self.is_over else ""
            hand = cards_html(self.hand(p), label=_("{player} hand").format(player=self.names[p]))
            who = mark + self.names[p]
            rows.append(
                f"<tr><th scope='row'>{who}</th><td>{self.status[p].value}</td>"
                f"<td>{self.count(p)}</td><td>{hand}</td></tr>"
            )
        table = "".join(
            f"<li>{self.names[self.owners[i]]}: {m._repr_html_()}</li>"
            for i, m in enumerate(self.table)
        )
        return (
            "<div class='penang-deal'><table><thead><tr><th>{player}</th><th>{status}</th>"
            "<th>{count}</th><th>{hand}</th></tr></thead><tbody>{rows}</tbody></table>"
            "<p>{table}</p><ol start='0'>{melds}</ol></div>"
        ).format(
            player=_("Player"),
            status=_("Status"),
            count=_("Count"),
            hand=_("Hand"),
            rows="".join(rows),
            table=_("Table:"),
            melds=table,
        )
