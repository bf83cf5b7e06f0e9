"""What the player to move sees, and the legal moves worked out from that alone.

`PlayerView.of(deal)` holds the hand of the player to move, the table, who owns each meld, the
passports made, the actions made this turn, how many cards each player holds and whether they are
alive, and the rules; never another player's hand. From that it lists, counts and picks by
number the legal moves (rules `turn`, `passport`, `lay-off`, `swap`, `dead`, `dead.passport`,
`game`), so a bot that only gets a view cannot peek at another hand even by accident. Its
`history` is every move made so far as the whole table saw it (`Seen`: who, what, the table
meld it made or changed, and the points a Dead announced; never a hand's cards). What each
table meld takes (lay-offs, swaps) is worked out once per meld, when it is laid or changed
(`table_index`), and read from the deal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, NamedTuple, TypeVar, cast

from penang_lib.engine import analysis
from penang_lib.engine.analysis import require_table
from penang_lib.engine.cards import (
    JOKER_INDEX,
    MAX_PACKS,
    NATURALS,
    Card,
    Counts,
    cards_of,
    require_counts,
)
from penang_lib.engine.deal import Deal, Phase, Status
from penang_lib.engine.events import Event
from penang_lib.engine.fast.meld_count import (
    HandFacts,
    Shape,
    count_melds,
    hand_shape,
    has_meld,
    nth_meld,
)
from penang_lib.engine.fast.table_index import clear_caches as _clear_table_caches
from penang_lib.engine.fast.table_index import table_info, takes_a_joker
from penang_lib.engine.melds import Meld
from penang_lib.engine.moves import (
    DeclareDead,
    DeclareGame,
    EndTurn,
    LayOff,
    LegalMoves,
    MeldMove,
    Move,
    Swap,
)
from penang_lib.engine.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from penang_lib.engine.validate import (
    ArgumentTypeError,
    require_flag,
    require_instance,
    require_whole,
    shown,
)

T = TypeVar("T")
_OVER: Final = Phase.OVER  # read once: a member looked up on its enum class is slow
_END_TURN: Final = EndTurn()
_DEAD: Final = DeclareDead()
_GAME: Final = DeclareGame()
"""The moves without fields, made once (they are frozen values)."""


# -- the view ------------------------------------------------------------------------------------
class Seen(NamedTuple):
    """One move as everyone at the table saw it: the `seat` that made it, the `move`, the table
    meld it made or changed as it stood after the move (`meld`, at `target`; None for the end of
    a turn, a Dead or a Game), and for a Dead the `points` it announced (the cards stay face
    down until the deal is over)."""

    seat: int
    move: Move
    meld: Meld | None = None
    target: int | None = None
    points: int | None = None


_SEEN_RULES: Final = frozenset(("dead", "dead.passport"))


def _seen(seat: int, move: Move, events: Sequence[Event]) -> Seen:
    meld: Meld | None = None
    target: int | None = None
    points: int | None = None
    for event in events:
        if meld is None and event.meld is not None:
            meld, target = event.meld, event.target
        if event.rule in _SEEN_RULES and event.counts:
            points = event.counts[0]
    return Seen(seat, move, meld, target, points)


Option = tuple[int, Card]
"""A lay-off or swap before it is made a move: (table meld number, card)."""


class PlayerView:
    """What the player to move sees: their own hand and the public state, nothing else.

    Build it with `PlayerView.of(deal)`. Attributes: `seat`, `players`, `names`, `rules`,
    `copies` (packs in the deck), `counts` (the hand as a count vector) and `cards`, `table` and
    `owners`, `passport` (this player's) and `passports` (everyone's: a meld on the table shows
    it), `actions` (melds and lay-offs made this turn), `hand_sizes`, `status` and `turns` (the
    turns each has started) of every player, `turn_number` and `over`; `history`, the moves
    made so far as everyone saw them (`Seen`).
    """

    __slots__ = (
        "_facts",
        "_history",
        "_infos",
        "_lay",
        "_log",
        "_melds",
        "_natural",
        "_shape",
        "_swap",
        "actions",
        "copies",
        "counts",
        "hand_sizes",
        "names",
        "over",
        "owners",
        "passport",
        "passports",
        "players",
        "rules",
        "seat",
        "status",
        "table",
        "turn_number",
        "turns",
    )

    seat: int
    players: int
    names: tuple[str, ...]
    rules: Rules
    copies: int
    counts: Counts
    table: tuple[Meld, ...]
    owners: tuple[int, ...]
    passport: bool
    passports: tuple[bool, ...]
    actions: int
    hand_sizes: tuple[int, ...]
    status: tuple[Status, ...]
    turn_number: int
    turns: tuple[int, ...]
    over: bool

    def __init__(
        self,
        *,
        seat: int,
        players: int,
        names: Sequence[str],
        rules: Rules,
        copies: int,
        counts: Counts,
        table: Sequence[Meld],
        owners: Sequence[int],
        passports: Sequence[bool],
        actions: int,
        hand_sizes: Sequence[int],
        status: Sequence[Status],
        turn_number: int,
        over: bool = False,
        turns: Sequence[int] | None = None,
        history: Sequence[Seen] = (),
    ) -> None:
        players = require_whole(players, "players", MIN_PLAYERS, MAX_PLAYERS)
        self.seat = require_whole(seat, "seat", 0, players - 1)
        self.players = players
        self.names = tuple(_per_seat(names, "names", players, str, "a name"))
        self.rules = require_instance(rules, Rules, "rules", "a Rules")
        self.copies = require_whole(copies, "copies (packs in the deck)", 1, MAX_PACKS)
        self.counts = require_counts(counts)
        self.table = tuple(require_table(table))
        self._infos = tuple(table_info(meld) for meld in self.table)
        if isinstance(owners, str | bytes) or not isinstance(owners, Sequence):
            raise ArgumentTypeError(
                f"owners should be a list of seats, one per table meld, not {shown(owners)}"
            )
        self.owners = tuple(require_whole(o, "an owner in owners", 0, players - 1) for o in owners)
        if len(self.owners) != len(self.table):
            raise ValueError("owners should name one seat per table meld")
        self.passports = tuple(
            require_flag(p, "a passport in passports")
            for p in _per_seat(
                passports,
                "passports",
                players,
                bool,
                "True or False",  # not for learners: a name in an ArgumentTypeError
            )
        )
        self.passport = self.passports[self.seat]
        self.actions = require_whole(actions, "actions", 0)
        self.hand_sizes = tuple(
            require_whole(n, "a hand size", 0)
            for n in _per_seat(
                hand_sizes,
                "hand_sizes",
                players,
                int,
                "a whole number",  # not for learners: a name in an ArgumentTypeError
            )
        )
        if self.hand_sizes[self.seat] != sum(self.counts):
            raise ValueError(
                f"hand_sizes gives seat {self.seat} {self.hand_sizes[self.seat]} cards, but its "
                f"hand (counts) holds {sum(self.counts)}"
            )
        self.status = tuple(_per_seat(status, "status", players, Status, "a Status"))
        self.turn_number = require_whole(turn_number, "turn_number", 1)
        self.over = require_flag(over, "over")
        if turns is None:  # spread the deal's turns over the seats, the seat to move's included
            turns = [turn_number // players] * players
            turns[self.seat] = max(1, turns[self.seat])
        self.turns = tuple(
            require_whole(n, "a seat's turns in turns", 0)
            for n in _per_seat(
                turns,
                "turns",
                players,
                int,
                "a whole number",  # not for learners: a name in an ArgumentTypeError
            )
        )
        if isinstance(history, str | bytes) or not isinstance(history, Sequence):
            raise ArgumentTypeError(f"history should be a list of Seen moves, not {shown(history)}")
        for seen in history:
            if not isinstance(seen, Seen):
                raise ArgumentTypeError(f"a move in history should be a Seen, not {shown(seen)}")
        self._history: tuple[Seen, ...] | None = tuple(history)
        self._log: tuple[list[int], list[Move], list[tuple[Event, ...]], int] | None = None
        self._facts: HandFacts | None = None
        self._shape: Shape | None = None
        self._melds: int | None = None
        self._lay: list[Option] | None = None
        self._natural: list[Option] | None = None
        self._swap: list[Option] | None = None

    @classmethod
    def of(cls, deal: Deal) -> PlayerView:
        """The view of the player to move in `deal` (only public facts and their own hand)."""
        if deal.__class__ is not Deal and not isinstance(deal, Deal):
            raise ArgumentTypeError(f"PlayerView.of takes a Deal, not {shown(deal)}")
        # Filled in directly (the same values `__init__` would make): this runs every move.
        view = cls.__new__(cls)
        seat = deal.turn
        view.seat = seat
        view.players = deal.players
        names = deal.names
        view.names = names if names.__class__ is tuple else tuple(names)
        view.rules = deal.rules
        view.copies = deal.copies
        facts = deal._facts[seat]
        view._facts = facts
        view.counts = facts.counts
        view.table = tuple(deal.table)
        view._infos = tuple(deal.table_infos)
        view.owners = tuple(deal.owners)
        view.passports = tuple(deal.passport)
        view.passport = view.passports[seat]
        view.actions = deal.actions
        view.hand_sizes = tuple(deal._sizes)  # sizes only: no other hand is kept
        view.status = tuple(deal.status)
        view.turn_number = deal.turn_number
        view.turns = tuple(deal.turns)
        view.over = deal.phase is _OVER
        view._shape = facts.shape
        # The deal's own lists and how far they reach now, read by `history` only if asked (a
        # bot's playouts never ask): the events are read for what the table saw, no more.
        view._log = (deal.movers, deal.move_stack, deal.event_stack, len(deal.move_stack))
        view._history = None
        view._melds = None
        view._lay = None
        view._natural = None
        view._swap = None
        return view

    @property
    def history(self) -> tuple[Seen, ...]:
        """Every move made so far in the deal, in order, as everyone at the table saw it."""
        if self._history is None:
            log = self._log
            assert log is not None
            movers, moves, events, length = log
            self._history = tuple(
                _seen(movers[k], moves[k], events[k]) for k in range(min(length, len(moves)))
            )
        return self._history

    def __repr__(self) -> str:
        return (
            f"<PlayerView seat={self.seat} cards={sum(self.counts)} table={len(self.table)} "
            f"passport={self.passport} actions={self.actions}>"
        )

    # -- reading -------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.names[self.seat]

    @property
    def cards(self) -> list[Card]:
        """The player's own cards, in display order."""
        return cards_of(self.counts)

    @property
    def jokers(self) -> int:
        return self.counts[JOKER_INDEX]

    def shape(self) -> Shape:
        """Per suit a bit mask of the ranks held (bit r-1); per rank 1..13 how many are held."""
        if self._shape is None:
            self._shape = hand_shape(self.counts)
        return self._shape

    def held(self) -> int:
        """The naturals held, as a bit mask over count-vector indices (bit `card.index`)."""
        facts = self._facts
        if facts is not None:
            return facts.held
        masks = self.shape()[0]
        return masks[0] | masks[1] << 13 | masks[2] << 26 | masks[3] << 39

    def table_naturals(self) -> list[int]:
        """How many of each natural lie on the table (a count vector; jokers not counted)."""
        seen = [0] * 53
        for meld in self.table:
            for card in meld.cards:
                seen[card.index] += 1
        seen[JOKER_INDEX] = 0
        return seen

    # -- what can be played ----------------------------------------------------------------------
    def has_meld(self) -> bool:
        """Whether the hand can make any meld (with jokers too)."""
        if self._melds is not None:
            return self._melds > 0
        return has_meld(self.counts, self.rules, self.shape())

    def count_melds(self) -> int:
        """How many distinct melds the hand can make."""
        if self._melds is None:
            facts = self._facts
            if facts is not None:  # a view of a deal: the deal's facts count from the last hand
                self._melds = facts.melds()
            else:  # the shape is only worked out when the memo does not know the hand
                self._melds = count_melds(self.counts, self.rules, self._shape)
        return self._melds

    def melds(self) -> Iterator[Meld]:
        """Every meld the hand can make, each once, lazily."""
        for k in range(self.count_melds()):
            yield nth_meld(self.counts, self.rules, k, self.shape())

    def _scan(self) -> None:
        """One pass over the table: the lay-offs and the swaps this hand has (after the
        passport; jokers laid off carry the card they become)."""
        lay: list[Option] = []
        natural: list[Option] = []
        swap: list[Option] = []
        if self.passport:
            hand = self.counts
            jokers = hand[JOKER_INDEX]
            held = self.held()
            for target, info in enumerate(self._infos):
                if info.accept_mask & held:
                    for index in info.accepts:
                        if hand[index]:
                            option = (target, NATURALS[index])
                            lay.append(option)
                            natural.append(option)
                if jokers:
                    for card in info.joker_cards:
                        lay.append((target, card))
                if info.swap_mask & held:
                    for index in info.swaps:
                        if hand[index]:
                            swap.append((target, NATURALS[index]))
            if swap and not self.actions and not takes_a_joker(self._infos):
                swap = [o for o in swap if self._swap_leaves_action(o)]
        self._lay = lay
        self._natural = natural
        self._swap = swap

    def lay_off_options(self) -> list[Option]:
        """Every distinct lay-off as (meld number, card)."""
        if self._lay is None:
            self._scan()
        assert self._lay is not None
        return self._lay

    def natural_lay_off_options(self) -> list[Option]:
        """The lay-offs of natural cards (no joker), as (meld number, card)."""
        if self._natural is None:
            self._scan()
        assert self._natural is not None
        return self._natural

    def swap_options(self) -> list[Option]:
        """Every legal swap as (meld number, card): at the start of a turn only those after which
        a meld or lay-off is still possible, since a swap is not an action (rule `swap`)."""
        if self._swap is None:
            self._scan()
        assert self._swap is not None
        return self._swap

    def lay_offs(self) -> list[LayOff]:
        """Every distinct legal lay-off (none before the passport)."""
        return [LayOff(t, c) for t, c in self.lay_off_options()]

    def swaps(self) -> list[Swap]:
        """Every distinct legal swap (none before the passport)."""
        return [Swap(t, c) for t, c in self.swap_options()]

    def _swap_leaves_action(self, option: Option) -> bool:
        target, card = option
        after = analysis.TableOption(target, card, self.table[target].swap_results(card)[0])
        return analysis.unchecked_swap_leaves_action(self.counts, self.table, after, self.rules)

    def can_act(self) -> bool:
        """Whether a meld or lay-off can be made this turn, swaps included (rules `dead`,
        `dead.passport`)."""
        if self.has_meld():
            return True
        return bool(self.passport and (self.lay_off_options() or self.swap_options()))

    def forced(self) -> Move | None:
        """The only legal move when there is one: Game with an empty hand, Dead when nothing can
        be played at the start of the turn; else None."""
        if self.over:
            return None
        if not self.hand_sizes[self.seat]:
            return _GAME
        if self.actions == 0 and not self.can_act():
            return _DEAD
        return None

    def count_moves(self) -> int:
        """How many distinct legal moves there are."""
        if self.over:
            return 0
        if self.forced() is not None:
            return 1
        lay, swap = self.lay_off_options(), self.swap_options()
        return self.count_melds() + len(lay) + len(swap) + (self.actions > 0)

    def nth_move(self, k: int) -> Move:
        """Legal move number `k` (from 0) in the order of `legal_moves`. A number past the
        last move raises `IndexError`, as a list does."""
        if k.__class__ is not int:
            k = require_whole(k, "the move number")
        if k < 0:
            raise IndexError(f"legal moves are numbered from 0, not {shown(k)}")
        forced = self.forced()
        if forced is not None:
            if k != 0:
                raise IndexError(f"there is only one legal move (number 0), not number {shown(k)}")
            return forced
        melds = self.count_melds()
        if k < melds:
            return MeldMove.of_meld(nth_meld(self.counts, self.rules, k, self.shape()))
        k -= melds
        lay = self.lay_off_options()
        if k < len(lay):
            return LayOff(*lay[k])
        k -= len(lay)
        swap = self.swap_options()
        if k < len(swap):
            return Swap(*swap[k])
        if k == len(swap) and self.actions:
            return _END_TURN
        raise IndexError(
            f"there are {self.count_moves()} legal moves (numbered from 0), not number "
            f"{shown(k + melds + len(lay))}"
        )

    @property
    def legal_moves(self) -> LegalMoves:
        """Every distinct legal move from this view, as a lazy, live collection (`len`, `in`,
        `any()`, iterating more than once), like `Deal.legal_moves`."""
        return LegalMoves(self._iter_legal_moves, None, self.count_moves, name="view")

    def _iter_legal_moves(self) -> Iterator[Move]:
        """Every distinct legal move, worked out from this view alone, lazily."""
        if self.over:
            return
        forced = self.forced()
        if forced is not None:
            yield forced
            return
        for meld in self.melds():
            yield MeldMove.of_meld(meld)
        yield from self.lay_offs()
        yield from self.swaps()
        if self.actions:
            yield EndTurn()


def _per_seat(value: object, name: str, players: int, kind: type[T], what: str) -> list[T]:
    """One value per seat, each a `kind`."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise ArgumentTypeError(
            f"{name} should be a list with one value per seat, not {shown(value)}"
        )
    items = list(value)
    if len(items) != players:
        raise ValueError(f"{name} should hold {players} values, one per seat, not {len(items)}")
    for item in items:
        if not isinstance(item, kind) or (kind is int and isinstance(item, bool)):
            raise ArgumentTypeError(f"{name} should hold {what} per seat, not {shown(item)}")
    return cast(list[T], items)


def clear_caches() -> None:
    """Forget the memo table kept per table meld (what each table meld takes)."""
    _clear_table_caches()
