"""Bots: players that pick the next move from what one player can see, and say why.

A bot never gets the `Deal`. It gets a `PlayerView` (`PlayerView.of(deal)`, in `view`): the hand
of the player to move and the public state, with the legal moves worked out from that alone
(rules `turn`, `passport`, `lay-off`, `swap`, `dead`, `game`), so a bot cannot peek at another
hand even by accident.

Three bots (`make_bot(name, seed)`):

- `random`: a uniformly random legal move; the turn ends at random once it may.
- `greedy`: plays as many points as it can each turn: its biggest melds, every lay-off, and the
  swaps that let it shed more, before it ends the turn.
- `careful`: plays as little as keeps it alive (one action per turn), lays off before melding,
  keeps its jokers (swaps them out when it can, lays one off only when nothing else is left),
  melds what gives the others the fewest cards to lay off on it, and, when death is near (4
  cards or fewer, no meld, no joker, at most two cards that fit on the table), sheds the highest
  cards it can lay off, a second one in the same turn too.

Each choice is a `Choice`: the move and a one-line `why` in plain words for the stepper.
`play_move(deal, bot)` lets a bot move in a deal, `play_until(deal, bots, seat)` lets the bots
of the other seats (`bots_around(deal, seat, names)`) play up to one player's turn, and
`forced_move(deal, seat)` is that player's only move when Dead or Game is due;
`play_deal(seed, players, bots)` lets bots play a whole deal (pure Python: `simulate` builds its
frames on top of it); `clear_caches()` empties the memo tables of this module, `view` and
`meld_count`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from penang_lib.engine.cards import JOKER_INDEX, NATURALS, SUITS, Card, Counts
from penang_lib.engine.deal import Deal, Phase
from penang_lib.engine.fast.meld_count import SET_JOKER, index_at, run_mask, run_meld
from penang_lib.engine.fast.meld_count import clear_caches as _clear_meld_caches
from penang_lib.engine.melds import MAX_RUN, SET, Meld, position_rank
from penang_lib.engine.moves import DeclareGame, EndTurn, LayOff, MeldMove, Move, Swap
from penang_lib.engine.rules import MAX_PLAYERS, Rules
from penang_lib.engine.sampling import sample_deal
from penang_lib.engine.turn_search import SearchTooLarge, TurnSearch
from penang_lib.engine.validate import (
    MAX_SEED,
    ArgumentTypeError,
    cut,
    require_instance,
    require_optional_whole,
    require_whole,
    shown,
)
from penang_lib.engine.view import Option, PlayerView
from penang_lib.engine.view import clear_caches as _clear_view_caches
from penang_lib.i18n import N_, _

__all__ = [
    "BOT_NAMES",
    "Bot",
    "CarefulBot",
    "Choice",
    "GreedyBot",
    "PlayerView",
    "RandomBot",
    "WatchfulBot",
    "bot_names",
    "bots_around",
    "clear_caches",
    "forced_move",
    "going_out",
    "make_bot",
    "play_deal",
    "play_deal_explained",
    "play_move",
    "play_until",
    "seat_bots",
]

BOT_NAMES = ("random", "greedy", "careful")
"""The fast bots, whose moves are rules of thumb: a deal plays in about a millisecond."""
EXPERT: Final = "expert"
"""The bot that looks ahead (`penang_lib.engine.expert`): about a second of thought a turn."""
ALL_BOT_NAMES = (*BOT_NAMES, EXPERT)
"""The names `make_bot` knows."""


# -- choices ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Choice:
    """A bot's move and, in one line of plain words, why it chose it."""

    move: Move
    why: str


class Bot(Protocol):
    """Anything that picks a move from a `PlayerView`."""

    name: str

    def choose(self, view: PlayerView) -> Choice: ...


# -- the reasons, whole sentences with named placeholders (a gettext catalog can take them) -------
FORCED_GAME: Final = N_("My hand is empty, so I call Game and win the deal.")
FORCED_DEAD: Final = N_(
    "I can make no meld, no lay-off and no swap that leads to one, so I must declare Dead."
)
FORCED_DEAD_PASSPORT: Final = N_("I can make no meld for my passport, so I am dead at once.")
RANDOM_PICK: Final = N_("Random: I play a move chosen at random among {total} legal moves.")

GREEDY_MELD: Final = N_(
    "Greedy: meld {meld}, the meld in my hand worth the most points ({points})."
)
GREEDY_LAY_OFF: Final = N_("Greedy: lay off {card}, my highest card that fits on the table.")
GREEDY_SWAP: Final = N_("Greedy: swap {card} for the joker, so that I can lay the joker off too.")
GREEDY_JOKER: Final = N_(
    "Greedy: lay off the joker, which counts {points} points while it stays in my hand."
)
GREEDY_END: Final = N_("Greedy: nothing more can be played this turn, so I end it.")

CAREFUL_END: Final = N_("Careful: one action is enough to stay alive; end the turn.")
CAREFUL_LAY_OFF: Final = N_("Careful: lay off just {card}; one card keeps me alive.")
CAREFUL_SWAP: Final = N_(
    "Careful: swap {card} for the joker and keep it: a joker can be laid off on most melds, "
    "so it is one more turn alive later."
)
WATCHFUL_LAY_OFF: Final = N_(
    "Watchful: lay off {card} now: a copy of {card} that I have not seen could be laid off "
    "here first, and then mine would no longer fit on this run."
)
WATCHFUL_GO_OUT: Final = N_(
    "Watchful: every card of my hand can be played this turn, so I play them all and go out, "
    "starting with {cards}."
)
CAREFUL_JOKER: Final = N_("Careful: lay off the joker: no other card in my hand can be played.")
CAREFUL_ONLY_MOVE: Final = N_("Careful: this is the only move left.")
CAREFUL_ONLY_PASSPORT: Final = N_("Careful: this is the only passport I can make.")
CAREFUL_ONLY_MELD: Final = N_("Careful: this is the only meld I can make.")
PASSPORT_FEEDS_NONE: Final = N_(
    "Careful: make the passport {meld}: the others hold none of the cards that could be laid "
    "off on it."
)
PASSPORT_FEEDS_ONE: Final = N_(
    "Careful: make the passport {meld}: of the melds in my hand, it gives the others the "
    "fewest cards to lay off on it (only one that is not in my hand or on the table)."
)
PASSPORT_FEEDS: Final = N_(
    "Careful: make the passport {meld}: of the melds in my hand, it gives the others the "
    "fewest cards to lay off on it ({feeds} that are not in my hand or on the table)."
)
MELD_FEEDS_NONE: Final = N_(
    "Careful: meld {meld}: the others hold none of the cards that could be laid off on it."
)
MELD_FEEDS_ONE: Final = N_(
    "Careful: meld {meld}: of the melds in my hand, it gives the others the fewest cards to lay "
    "off on it (only one that is not in my hand or on the table)."
)
MELD_FEEDS: Final = N_(
    "Careful: meld {meld}: of the melds in my hand, it gives the others the fewest cards to lay "
    "off on it ({feeds} that are not in my hand or on the table)."
)
WATCHFUL_PASSPORT_KEEPS_NONE: Final = N_(
    "Watchful: make the passport {meld}: no meld in my hand leaves me a card to lay off on it "
    "later, so I make the one that sheds the most points ({points})."
)
WATCHFUL_PASSPORT_KEEPS_ONE: Final = N_(
    "Watchful: make the passport {meld}: it leaves me a card to lay off on it later (no meld "
    "in my hand leaves more), and of such melds it sheds the most points ({points})."
)
WATCHFUL_PASSPORT_KEEPS: Final = N_(
    "Watchful: make the passport {meld}: it leaves me {keeps} cards to lay off on it later (no "
    "meld in my hand leaves more), and of such melds it sheds the most points ({points})."
)
WATCHFUL_MELD_KEEPS_NONE: Final = N_(
    "Watchful: meld {meld}: no meld in my hand leaves me a card to lay off on it later, so I "
    "make the one that sheds the most points ({points})."
)
WATCHFUL_MELD_KEEPS_ONE: Final = N_(
    "Watchful: meld {meld}: it leaves me a card to lay off on it later (no meld in my hand "
    "leaves more), and of such melds it sheds the most points ({points})."
)
WATCHFUL_MELD_KEEPS: Final = N_(
    "Watchful: meld {meld}: it leaves me {keeps} cards to lay off on it later (no meld in my "
    "hand leaves more), and of such melds it sheds the most points ({points})."
)
CAREFUL_LAST: Final = N_("Careful: lay off {card}, the last card in my hand, and go out.")
DEATH_NEAR_ONE: Final = N_(
    "Careful: death is near: my {size} cards hold no meld and no joker, and only one of them "
    "fits on the table, so unless the others make new melds I stay alive only one more turn."
)
DEATH_NEAR: Final = N_(
    "Careful: death is near: my {size} cards hold no meld and no joker, and only {fit} of them "
    "fit on the table, so unless the others make new melds I stay alive only {fit} more turns."
)
SHED_HIGHEST: Final = N_(
    "So I lay off {card}, my highest card ({points} points), to be caught holding fewer points."
)
SHED_FITS: Final = N_(
    "So I lay off {card}, the highest card that fits ({points} points); my higher cards fit "
    "nowhere."
)
SHED_ONLY: Final = N_("So I lay off {card}, the only card that fits; my higher cards fit nowhere.")
SHED_HIGHEST_TOO: Final = N_(
    "So I lay off {card} too, a second action this turn: it is my highest card ({points} "
    "points), and the fewer points I hold, the less I count when I am caught."
)
SHED_FITS_TOO: Final = N_(
    "So I lay off {card} too, a second action this turn: it is the highest card that fits "
    "({points} points), and the fewer points I hold, the less I count when I am caught."
)
SHED_ONLY_TOO: Final = N_(
    "So I lay off {card} too, a second action this turn: it is the only card that fits, and "
    "the fewer points I hold, the less I count when I am caught."
)
"""When the careful bot sheds a second card (`SHED_*_TOO`) it leaves its one-action habit: the
sentence before it (`DEATH_NEAR*`) says why."""


def bot_seed(seed: object) -> int | None:
    """A bot's seed, checked: None or a whole number (every bot, the expert's too, reads it so)."""
    return require_optional_whole(seed, "a bot's seed")


def _view(view: object) -> PlayerView:
    """`view` when it is a `PlayerView`: a bot sees only that (`PlayerView.of(deal)`)."""
    if view.__class__ is not PlayerView and not isinstance(view, PlayerView):
        raise ArgumentTypeError(
            f"a bot chooses from a PlayerView (PlayerView.of(deal)), not {shown(view)}"
        )
    return view


def forced_choice(view: PlayerView) -> Choice | None:
    """The choice when the move is forced (Game on an empty hand, Dead with nothing to play),
    with its reason; None when the bot has a choice to make."""
    if view.__class__ is not PlayerView:
        _view(view)
    if view.over:
        raise ValueError("the deal is over: there is no move to choose")
    move = view.forced()
    if move is None:
        return None
    if isinstance(move, DeclareGame):
        return Choice(move, _(FORCED_GAME))
    if view.passport:
        return Choice(move, _(FORCED_DEAD))
    return Choice(move, _(FORCED_DEAD_PASSPORT))


class RandomBot:
    """Picks uniformly at random among the distinct legal moves (ending the turn is one of them).

    The moves are counted by kind and only the chosen one is built, so a hand with jokers (which
    can make thousands of melds) costs no more than any other.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = bot_seed(seed)
        self.rng = random.Random(self.seed)

    def choose(self, view: PlayerView) -> Choice:
        if view.__class__ is not PlayerView:
            _view(view)
        if view.over:
            raise ValueError("the deal is over: there is no move to choose")
        if not view.hand_sizes[view.seat]:
            return Choice(DeclareGame(), _(FORCED_GAME))
        total = view.count_melds() + len(view.lay_off_options()) + len(view.swap_options())
        total += view.actions > 0
        if total == 0:
            forced = forced_choice(view)
            assert forced is not None
            return forced
        move = view.nth_move(self.rng.randrange(total))
        return Choice(move, _(RANDOM_PICK).format(total=total))


def _set_meld(counts: Counts, rank: int, naturals: int, jokers: int) -> Meld:
    """A set of `rank` with `naturals` of the hand's cards of that rank and `jokers` jokers."""
    cards: list[Card] = []
    for s in range(4):
        index = s * 13 + rank - 1
        take = min(counts[index], naturals - len(cards))
        cards.extend([NATURALS[index]] * take)
    return Meld(SET, (*cards, *([SET_JOKER[rank]] * jokers)), rank)


def _meld_points(meld: Meld, rules: Rules) -> int:
    return sum(rules.card_value(c.rank) for c in meld.physical)


def _best_meld(view: PlayerView) -> Meld | None:
    """The meld that sheds the most points now (every joker it can use, the longest runs)."""
    counts = view.counts
    rules = view.rules
    masks, ranks = view.shape()
    jokers = counts[JOKER_INDEX]
    joker_value = rules.card_value(0)
    best: tuple[int, int, Meld | None] = (-1, 0, None)
    for rank in range(1, 14):
        n = ranks[rank]
        if n and n + jokers >= 3:
            points = n * rules.card_value(rank) + jokers * joker_value
            if points > best[0]:
                best = (points, n + jokers, _set_meld(counts, rank, n, jokers))
    for s in range(4):
        mask = run_mask(masks[s])
        if not mask:
            continue
        two_aces = counts[s * 13] >= 2
        for low in range(1, MAX_RUN - 1):
            missing = 0
            high = low - 1
            naturals: list[int] = []
            # Widen the window as far as the jokers allow: every card added sheds points.
            while high < MAX_RUN:
                p = high + 1
                real = bool(mask >> (p - 1) & 1)
                if real and p == MAX_RUN and low == 1 and not two_aces:
                    real = False  # the one ace already stands at the low end
                if not real and missing == jokers:
                    break
                high = p
                if real:
                    naturals.append(p)
                else:
                    missing += 1
            if high - low < 2 or not naturals:
                continue
            points = sum(rules.card_value(position_rank(p)) for p in naturals)
            points += missing * joker_value
            if points > best[0] or (points == best[0] and high - low + 1 > best[1]):
                best = (points, high - low + 1, run_meld(s, low, high, naturals))
    if best[2] is None and rules.all_joker_melds and jokers >= 3:
        return next(view.melds(), None)
    return best[2]


class GreedyBot:
    """Sheds as many points as it can each turn: its biggest meld first (jokers and all), then
    every lay-off, highest card first, then the swaps that free a joker to lay off; it ends the
    turn only when nothing is left to play."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = bot_seed(seed)

    def choose(self, view: PlayerView) -> Choice:
        forced = forced_choice(view)
        if forced is not None:
            return forced
        rules = view.rules
        meld = _best_meld(view)
        if meld is not None:
            points = _meld_points(meld, rules)
            return Choice(
                MeldMove.of_meld(meld),
                _(GREEDY_MELD).format(meld=meld.symbols, points=points),
            )
        lay = view.lay_off_options()
        naturals = view.natural_lay_off_options()
        if naturals:
            target, card = max(naturals, key=lambda o: rules.card_value(o[1].rank))
            return Choice(LayOff(target, card), _(GREEDY_LAY_OFF).format(card=card.symbol))
        swaps = view.swap_options()
        if swaps:
            target, card = swaps[0]
            return Choice(Swap(target, card), _(GREEDY_SWAP).format(card=card.symbol))
        if lay:
            return Choice(LayOff(*lay[0]), _(GREEDY_JOKER).format(points=rules.card_value(0)))
        return Choice(EndTurn(), _(GREEDY_END))


def _fitting(naturals: list[Option], view: PlayerView) -> int:
    """How many cards of the hand fit on the table (copies counted, each card once however many
    melds it fits)."""
    counts = view.counts
    return sum(counts[index] for index in {card.index for _target, card in naturals})


def _shed_reason(view: PlayerView, naturals: list[Option], card: Card, also: bool = False) -> str:
    """Why the careful bot, with death near, lays off `card`: the card worth the most points
    among those it can lay off now, which is the highest in hand only when nothing higher is
    stuck there. `also`: it has made an action this turn already (a second action: the one time
    it plays more than it must)."""
    rules = view.rules
    value = rules.card_value(card.rank)
    size = view.hand_sizes[view.seat]
    if size == 1:
        return _(CAREFUL_LAST).format(card=card.symbol)
    fit = _fitting(naturals, view)
    near = _(DEATH_NEAR_ONE if fit == 1 else DEATH_NEAR).format(size=size, fit=fit)
    playable = {c.index for _target, c in naturals}
    if all(rules.card_value(c.rank) <= value for c in view.cards):
        which = SHED_HIGHEST_TOO if also else SHED_HIGHEST
    elif len(playable) == 1:
        which = SHED_ONLY_TOO if also else SHED_ONLY
    else:
        which = SHED_FITS_TOO if also else SHED_FITS
    shed = _(which).format(card=card.symbol, points=value)
    return _("{near} {shed}").format(near=near, shed=shed)


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A meld a bot could make: how many unseen cards it would let the others lay off
    (`feeds`), how many cards of the hand could be laid off on it later (`keeps`), and the
    points it sheds."""

    meld: Meld
    feeds: int
    keeps: int
    points: int


_END_TURNS: dict[str, Choice] = {}
"""The careful bot's end of turn, one per language's reason: a choice is an immutable value,
made once (ending a turn is a third of its moves). Mutable only as a memo."""


def _end_turn() -> Choice:
    """The careful bot ends its turn (the reason in the learner's language of the moment)."""
    why = _(CAREFUL_END)
    choice = _END_TURNS.get(why)
    if choice is None:
        choice = _END_TURNS[why] = Choice(EndTurn(), why)
    return choice


MeldOrder = Callable[[int, int, int], tuple[int, ...]]
"""How a bot ranks the three-card melds it could make: from a meld's `feeds` (unseen cards the
others could lay off on it), `keeps` (cards of the hand that could be laid off on it later) and
`points`, a key; the meld with the lowest key is made."""


def careful_meld_order(feeds: int, keeps: int, points: int) -> tuple[int, ...]:
    """The careful bot's order: the meld that feeds the others least, then the one that keeps
    more of the hand to lay off on it later, then the most points."""
    return (feeds, -keeps, -points)


def watchful_meld_order(feeds: int, keeps: int, points: int) -> tuple[int, ...]:
    """The watchful bot's order: the meld that keeps the most cards of the hand to lay off on
    it later, then the one that sheds the most points, then the one that feeds the others
    least."""
    return (-keeps, -points, feeds)


class CarefulBot:
    """Plays as little as keeps it alive, the way players describe it (RULES.md, `dead`).

    - One action per turn: a meld or a lay-off, then it ends the turn.
    - Lays off before it melds; prefers a card that is in no meld of its own hand, a set as the
      target (a run grows and opens a new end to the others), then the highest card.
    - Keeps jokers: swaps them out of the table whenever it can, and lays one off only when that
      is the only action left; melds with jokers only when no natural meld is possible.
    - Holds back melds that would feed the others: of the three-card melds it could make, it
      picks the one whose open ends take the fewest cards it cannot see.
    - When death is near (at most `small_hand` cards in hand, none of them a joker, no meld
      among them, and at most `near_death` of them that fit on the table: unless the others make
      new melds it stays alive only that many more turns) it sheds every card it can lay off,
      highest first, so that it is caught holding few points (the higher cards that fit nowhere
      stay in hand). With a bigger hand it keeps to one action a turn: measured in duplicate
      deals (`benchmarks.bench_careful`, docs/CHOICES.md), shedding early only loses points.
    """

    name = "careful"
    meld_order: MeldOrder = staticmethod(careful_meld_order)
    """How it picks the meld it makes (`careful_meld_order`)."""

    def __init__(self, seed: int | None = None, near_death: int = 2, small_hand: int = 4) -> None:
        self.seed = bot_seed(seed)
        self.near_death = require_whole(near_death, "near_death", 0, 1000)
        self.small_hand = require_whole(small_hand, "small_hand", 0, 1000)

    def choose(self, view: PlayerView) -> Choice:
        forced = forced_choice(view)
        if forced is not None:
            return forced
        if not view.passport:
            return self._meld(view, passport=True)
        rules = view.rules
        if view.actions:
            if view.jokers or view.has_meld():
                return _end_turn()
            naturals = view.natural_lay_off_options()
            if naturals and self._death_near(view, naturals):
                target, card = max(naturals, key=lambda o: rules.card_value(o[1].rank))
                return Choice(LayOff(target, card), _shed_reason(view, naturals, card, also=True))
            return _end_turn()
        swaps = view.swap_options()
        if swaps:
            target, card = swaps[0]
            return Choice(Swap(target, card), _(CAREFUL_SWAP).format(card=card.symbol))
        naturals = view.natural_lay_off_options()
        if naturals:
            if self._death_near(view, naturals):
                target, card = max(naturals, key=lambda o: rules.card_value(o[1].rank))
                why = _shed_reason(view, naturals, card)
            else:
                target, card = self._best_lay_off(view, naturals)
                why = self._lay_off_reason(view, (target, card))
            return Choice(LayOff(target, card), why)
        if view.has_meld():
            return self._meld(view, passport=False)
        lay = view.lay_off_options()
        if lay:
            target, card = min(lay, key=lambda o: view.table[o[0]].kind is not SET)
            return Choice(LayOff(target, card), _(CAREFUL_JOKER))
        # Unreachable: with no meld, no lay-off and no swap the move was forced (Dead).
        return Choice(next(iter(view.legal_moves)), _(CAREFUL_ONLY_MOVE))

    # -- helpers -----------------------------------------------------------------------------
    def _meld(self, view: PlayerView, passport: bool) -> Choice:
        order = self.meld_order
        candidate = _pick_meld(view, False, order) or _pick_meld(view, True, order)
        if candidate is None:  # only a meld of jokers alone (a house rule) is possible
            why = CAREFUL_ONLY_PASSPORT if passport else CAREFUL_ONLY_MELD
            return Choice(next(iter(view.legal_moves)), _(why))
        return Choice(MeldMove.of_meld(candidate.meld), self._meld_reason(candidate, passport))

    @staticmethod
    def _meld_reason(candidate: _Candidate, passport: bool) -> str:
        feeds = candidate.feeds
        if passport:
            template = (PASSPORT_FEEDS_NONE, PASSPORT_FEEDS_ONE, PASSPORT_FEEDS)[min(feeds, 2)]
        else:
            template = (MELD_FEEDS_NONE, MELD_FEEDS_ONE, MELD_FEEDS)[min(feeds, 2)]
        return _(template).format(meld=candidate.meld.symbols, feeds=feeds)

    def _death_near(self, view: PlayerView, naturals: list[Option]) -> bool:
        """Death is near: a small hand (at most `small_hand` cards) with no joker, no meld, and
        at most `near_death` cards that fit on the table, so that, unless the others make new
        melds, the bot stays alive only that many more turns."""
        if view.jokers or view.hand_sizes[view.seat] > self.small_hand:
            return False
        if _fitting(naturals, view) > self.near_death:
            return False
        return not view.has_meld()

    @staticmethod
    def _lay_off_reason(view: PlayerView, option: Option) -> str:
        return _(CAREFUL_LAY_OFF).format(card=option[1].symbol)

    def _best_lay_off(self, view: PlayerView, naturals: list[Option]) -> Option:
        """The lay-off that comes first by `_lay_off_key`."""
        return max(naturals, key=self._lay_off_key(view))

    @staticmethod
    def _lay_off_key(view: PlayerView) -> Callable[[Option], tuple[bool, bool, int]]:
        """The order of its lay-offs, highest first: a card in no three-card meld of the hand,
        then a set as the target, then the card's points."""
        rules = view.rules
        useful = _meld_cards(view)
        table = view.table

        def key(option: Option) -> tuple[bool, bool, int]:
            target, card = option
            return (
                not useful >> card.index & 1,
                table[target].kind is SET,
                rules.card_value(card.rank),
            )

        return key


GO_OUT_HAND: Final = 12
"""`going_out` searches hands of at most this many cards (a bigger hand hardly ever empties in
one turn, and its search costs the most)."""
GO_OUT_BUDGET: Final = 300
"""Positions `going_out` visits at most before it gives up (`TurnSearch`)."""


class WatchfulBot(CarefulBot):
    """The careful bot with one habit more: of the cards it can lay off, it first plays one that
    someone else could take the place of. A card that extends a run fits only while nobody lays
    off the other copy of it there; when that copy is not in its hand or on the table, the next
    player may take the place first. A set takes every copy of its rank, so a lay-off on a set
    can wait. Among such cards, or when there is none, it keeps the careful bot's order (a card
    that is in no meld of its hand, then the highest).

    It also picks the meld it makes otherwise (`watchful_meld_order`): the one that leaves the
    most cards of its hand to lay off on it later (each one more turn alive), then the one that
    sheds the most points; starving the others of lay-offs comes last.

    And before each choice, with a hand of at most `go_out_hand` cards, it looks for a way to
    empty its hand this turn (`going_out`, at most `go_out` positions of the turn search; 0: it
    never looks), where the careful bot would play one card and wait: going out wins the deal at
    once.

    Measured in duplicate deals against three careful bots (docs/CHOICES.md): 30.5% of the wins
    (29.5% without looking for a way out) where the careful bot wins its equal share, 25%. It
    is the expert's own policy in its look-ahead (there with a shorter search, in small hands
    only, which costs less time: `expert.PLAYOUT_GO_OUT`), not a bot of the menus (`make_bot`
    does not know it)."""

    name = "watchful"
    meld_order: MeldOrder = staticmethod(watchful_meld_order)

    def __init__(
        self,
        seed: int | None = None,
        near_death: int = 2,
        small_hand: int = 4,
        go_out: int = GO_OUT_BUDGET,
        go_out_hand: int = GO_OUT_HAND,
    ) -> None:
        super().__init__(seed, near_death, small_hand)
        self.go_out = require_whole(go_out, "go_out", 0, 10**6)
        """The positions `going_out` may visit at each choice (0: never look for Game)."""
        self.go_out_hand = require_whole(go_out_hand, "go_out_hand", 0, 10**3)
        """The biggest hand it looks for Game with (`going_out`'s `hand`)."""
        self.looks = 0
        """How many times it has looked for a way out (the quick count at least) so far..."""
        self.searched = 0
        """...and the positions its turn searches have visited: the work of its choices beyond
        the careful bot's, which the expert counts to keep its playouts within their time."""

    def choose(self, view: PlayerView) -> Choice:
        # Without the search (a bigger hand, or go_out 0) this is the careful bot's choice with
        # the watchful orders: the forced move is asked for once, there.
        small = view.hand_sizes[view.seat] <= self.go_out_hand
        if self.go_out and small and forced_choice(view) is None:
            self.looks += 1
            line, visited = _search_out(view, self.go_out, self.go_out_hand)
            self.searched += visited
            if line:
                return Choice(line[0], _(WATCHFUL_GO_OUT).format(cards=_played_symbols(line[0])))
        return super().choose(view)

    @staticmethod
    def _meld_reason(candidate: _Candidate, passport: bool) -> str:
        keeps = candidate.keeps
        if passport:
            templates = (
                WATCHFUL_PASSPORT_KEEPS_NONE,
                WATCHFUL_PASSPORT_KEEPS_ONE,
                WATCHFUL_PASSPORT_KEEPS,
            )
        else:
            templates = (WATCHFUL_MELD_KEEPS_NONE, WATCHFUL_MELD_KEEPS_ONE, WATCHFUL_MELD_KEEPS)
        return _(templates[min(keeps, 2)]).format(
            meld=candidate.meld.symbols, keeps=keeps, points=candidate.points
        )

    @staticmethod
    def _lay_off_reason(view: PlayerView, option: Option) -> str:
        if _taken_first(view, option):
            return _(WATCHFUL_LAY_OFF).format(card=option[1].symbol)
        return _(CAREFUL_LAY_OFF).format(card=option[1].symbol)

    @staticmethod
    def _lay_off_key(view: PlayerView) -> Callable[[Option], tuple[bool, bool, int]]:
        """A card another seat could take the place of first, then one in no three-card meld
        of the hand, then the card's points."""
        rules = view.rules
        useful = _meld_cards(view)
        seen = view.table_naturals()

        def key(option: Option) -> tuple[bool, bool, int]:
            card = option[1]
            return (
                _taken_first(view, option, seen),
                not useful >> card.index & 1,
                rules.card_value(card.rank),
            )

        return key


def going_out(view: PlayerView, budget: int = GO_OUT_BUDGET, hand: int = GO_OUT_HAND) -> list[Move]:
    """The moves that empty the hand this turn (rule `game`), in an order that plays, or an
    empty list when the hand cannot be emptied, holds more than `hand` cards, has no passport
    yet, or the search gives up after `budget` positions (`TurnSearch`). A quick count
    (`_may_go_out`) keeps the search for hands where every card could find a place."""
    require_instance(view, PlayerView, "view", "a PlayerView")
    budget = require_whole(budget, "budget", 0, 10**6)
    hand = require_whole(hand, "hand", 0, 10**3)
    return _search_out(view, budget, hand)[0]


def _search_out(view: PlayerView, budget: int, hand: int) -> tuple[list[Move], int]:
    """`going_out`'s line, and the positions its turn search visited (0 when it did not
    search)."""
    if not view.passport or view.over or view.hand_sizes[view.seat] > hand:
        return [], 0
    if not _may_go_out(view):
        return [], 0
    # Only the hand and the table decide the seat's own moves this turn: any deal that agrees
    # with the view will do, so the hidden cards are drawn with a fixed seed.
    world = sample_deal(view, random.Random(0))
    search = TurnSearch(budget, _hopeless)
    try:
        return search.line(world), search.visited
    except SearchTooLarge:
        return [], search.visited


def _hopeless(deal: Deal) -> bool:
    """Whether the hand to play in `deal` surely cannot be emptied this turn (`_may_go_out`)."""
    return not _may_go_out(PlayerView.of(deal))


def _may_go_out(view: PlayerView) -> bool:
    """A quick test meant never to say no to a hand that can be emptied this turn (a test checks
    it against the turn search). Every natural card needs a place: a table set of its rank, a
    table run it extends through cards of the hand, a joker of the table it could take by a
    swap, or a natural three-card meld of the hand. The cards without one need no more jokers
    than the hand holds or can take by a swap (a table joker whose card is in the hand): a card
    with a partner (one of its rank, or of its suit at most two ranks away) half a joker, a card
    alone two, or one when a single card lies between it and the end of a table run of its
    suit (a lower bound each time)."""
    counts = view.counts
    held = view.held()
    placed = _meld_cards(view)
    near = 0
    wild = counts[JOKER_INDEX]
    for meld in view.table:
        if meld.kind is SET:  # takes every card of its rank, by a lay-off or a swap
            rank_bits = _RANK_BITS[meld.rank]
            placed |= rank_bits
            if held & rank_bits:
                wild += meld.jokers  # each swapped out for a card of the rank
            continue
        s = _SUIT_NUMBER[meld.suit]
        if not held & _SUIT_BITS[s]:  # nothing of the hand can go on it or take its jokers
            continue
        for p in (meld.low - 2, meld.high + 2):  # one joker between it and the run
            if 1 <= p <= MAX_RUN:
                near |= 1 << index_at(s, p)
        p = meld.high + 1
        while p <= MAX_RUN and counts[index_at(s, p)]:
            placed |= 1 << index_at(s, p)
            p += 1
        p = meld.low - 1
        while p >= 1 and counts[index_at(s, p)]:
            placed |= 1 << index_at(s, p)
            p -= 1
        for card in meld.cards:
            if card.is_joker and card.as_rank is not None:  # a swap takes the card it stands for
                index = s * 13 + card.as_rank - 1
                placed |= 1 << index
                wild += counts[index] > 0
    need = 0.0
    rest = held & ~placed  # the naturals of the hand without a place, lowest index first
    while rest:
        bit = rest & -rest
        rest ^= bit
        index = bit.bit_length() - 1
        if _has_partner(counts, index):
            need += counts[index] * 0.5
        else:
            need += counts[index] * (1 if near >> index & 1 else 2)
        if need > wild:
            return False
    return True


def _has_partner(counts: Counts, index: int) -> bool:
    """Whether the hand holds another card that could make a meld with this one and a joker:
    one of its rank, or one of its suit at most two ranks away."""
    suit, rank0 = divmod(index, 13)
    if counts[index] > 1 or any(counts[q * 13 + rank0] for q in range(4) if q != suit):
        return True
    positions = (1, 14) if rank0 == 0 else (rank0 + 1,)
    for p in positions:
        for q in (p - 2, p - 1, p + 1, p + 2):
            if 1 <= q <= MAX_RUN and q not in positions and counts[index_at(suit, q)]:
                return True
    return False


def _played_symbols(move: Move) -> str:
    """The cards of the hand a meld, lay-off or swap plays, in symbols."""
    if isinstance(move, MeldMove):
        return " ".join(card.symbol for card in move.cards)
    if isinstance(move, LayOff | Swap):
        return move.card.symbol
    return ""


def _taken_first(view: PlayerView, option: Option, seen: list[int] | None = None) -> bool:
    """Whether another seat could take this lay-off's place first: it extends a run, and a copy
    of the card is neither in the hand nor on the table (`seen`: the table's naturals, when
    already counted)."""
    target, card = option
    if view.table[target].kind is SET:
        return False
    index = card.index
    on_table = (view.table_naturals() if seen is None else seen)[index]
    return view.copies - view.counts[index] - on_table > 0


_POPCOUNT3 = (0, 1, 1, 2, 1, 2, 2, 3)


def _pick_meld(
    view: PlayerView, with_jokers: bool, order: MeldOrder = careful_meld_order
) -> _Candidate | None:
    """The three-card meld that comes first in `order` (by default the careful bot's: the one
    that feeds the others least): naturals only, or else with the fewest jokers (two naturals
    and a joker before one natural and two jokers)."""
    counts = view.counts
    masks, ranks = view.shape()
    jokers = counts[JOKER_INDEX]
    levels = ((2, 1), (1, 2)) if with_jokers else ((3, 0),)
    options: list[tuple[int, int, int]] = []  # (suit or -1 for a set, rank or low, jokers)
    for need, use in levels:
        if use > jokers:
            break
        for rank in range(1, 14):
            if ranks[rank] >= need:
                options.append((-1, rank, use))
        for s in range(4):
            mask = run_mask(masks[s])
            if not mask:
                continue
            if need == 3:
                starts = mask & (mask >> 1) & (mask >> 2) & 0xFFF
                while starts:
                    bit = starts & -starts
                    options.append((s, bit.bit_length(), 0))
                    starts ^= bit
                continue
            for low in range(1, MAX_RUN - 1):
                if _POPCOUNT3[mask >> (low - 1) & 7] == need:
                    options.append((s, low, use))
        if options:
            break
    if not options:
        return None
    seen = view.table_naturals()
    copies = view.copies
    rules = view.rules
    best: tuple[int, ...] | None = None
    choice: tuple[int, int, int, int, int, int] | None = None
    for s, at, use in options:
        if s < 0:
            idx = [q * 13 + at - 1 for q in range(4)]
            left = ranks[at] - (3 - use)  # of this rank, still in hand after the meld
            feeds = max(0, 4 * copies - left - sum(seen[i] for i in idx))
            keeps = left
            points = (3 - use) * rules.card_value(at) + use * rules.card_value(0)
        else:
            ends = [p for p in (at - 1, at + 3) if 1 <= p <= MAX_RUN]
            idx = [index_at(s, p) for p in ends]
            feeds = sum(max(0, copies - counts[i] - seen[i]) for i in idx)
            keeps = sum(counts[i] for i in idx)
            mask = run_mask(masks[s])
            points = use * rules.card_value(0) + sum(
                rules.card_value(position_rank(p)) for p in range(at, at + 3) if mask >> (p - 1) & 1
            )
        key = order(feeds, keeps, points)
        if best is None or key < best:
            best, choice = key, (s, at, use, feeds, keeps, points)
    assert best is not None and choice is not None
    s, at, use, fed, kept, shed = choice
    if s < 0:
        meld = _set_meld(counts, at, 3 - use, use)
    else:
        mask = run_mask(masks[s])
        meld = run_meld(s, at, at + 2, [p for p in range(at, at + 3) if mask >> (p - 1) & 1])
    return _Candidate(meld, fed, kept, shed)


def _meld_cards(view: PlayerView) -> int:
    """The naturals that belong to some natural three-card meld of the hand, as a bit mask over
    count-vector indices."""
    masks, ranks = view.shape()
    out = 0
    for rank in range(1, 14):
        if ranks[rank] >= 3:
            out |= _RANK_BITS[rank]
    for s in range(4):
        m = run_mask(masks[s])
        starts = m & (m >> 1) & (m >> 2)
        if starts:
            covered = starts | starts << 1 | starts << 2
            out |= ((covered | covered >> 13) & 0x1FFF) << (13 * s)
    return out


_SUIT_BITS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(len(SUITS)))
"""Per suit number, the bits of its 13 naturals in a count-vector mask."""
_SUIT_NUMBER: dict[str, int] = {suit: s for s, suit in enumerate(SUITS)}
_RANK_BITS: tuple[int, ...] = tuple(
    sum(1 << (q * 13 + rank - 1) for q in range(4)) if rank else 0 for rank in range(14)
)


_FACTORIES: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "careful": CarefulBot,
}


def clear_caches() -> None:
    """Forget the memo tables kept per hand and per table meld (hand shapes and sizes, meld
    counts, what each table meld takes). They only ever save time; benchmarks clear them so that
    playing the same deals again is not faster than playing new ones."""
    _clear_meld_caches()
    _clear_view_caches()


def make_bot(name: str, seed: int | None = None, budget: float | None = None) -> Bot:
    """A bot by name ("random", "greedy", "careful" or "expert"); `seed` drives the random one
    and the expert's draws; `budget` is the expert's seconds of thought per move (default
    `expert.DEFAULT_BUDGET`), and no other bot takes one."""
    if not isinstance(name, str):
        raise ArgumentTypeError(
            f"a bot's name should be text ({', '.join(ALL_BOT_NAMES)}), not {shown(name)}"
        )
    key = name.strip().lower()
    if key == EXPERT:
        # Loaded when asked for: the expert module builds on this one.
        from penang_lib.engine.expert import DEFAULT_BUDGET, ExpertBot

        return ExpertBot(seed, DEFAULT_BUDGET if budget is None else budget)
    factory = _FACTORIES.get(key)
    if factory is None:
        raise ValueError(f"unknown bot {shown(name)}: choose from {', '.join(ALL_BOT_NAMES)}")
    if budget is not None:
        raise ValueError(f"only the expert bot takes a budget, not the {key} bot")
    return factory(seed)


def play_move(deal: Deal, bot: Bot) -> Choice:
    """Let `bot` choose the next move of `deal` from the player's view, and push it."""
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"play_move takes a Deal, not {shown(deal)}")
    if not callable(getattr(bot, "choose", None)):
        raise ArgumentTypeError(
            f"bot should be a bot with a choose(view) method (make_bot('careful')), not "
            f"{shown(bot)}"
        )
    if deal.is_over:
        raise ValueError("the deal is over: there is no move to choose")
    choice = bot.choose(PlayerView.of(deal))
    if not isinstance(choice, Choice):
        raise ArgumentTypeError(f"a bot's choose() should return a Choice, not {shown(choice)}")
    deal.push(choice.move)
    return choice


DEFAULT_BOTS: tuple[str, ...] = ("careful",)
"""The bots `play_deal` and `simulate` seat when none are named (cycled to every seat)."""

MAX_MOVES = 20_000
"""A deal that runs longer than this is a bug in a bot or the engine, not a long deal."""


# -- playing whole deals -----------------------------------------------------------------------
def bot_names(bots: str | Iterable[str] | None, players: int) -> tuple[str, ...]:
    """One bot name per seat: a comma-separated text or a list, cycled to `players` seats.

    Raises `ValueError` naming an unknown bot or an empty list.
    """
    players = require_whole(players, "players", 1, MAX_PLAYERS)
    if bots is None:
        names: list[str] = list(DEFAULT_BOTS)
    elif isinstance(bots, str):
        names = [b.strip().lower() for b in bots.split(",")]
    elif isinstance(bots, Iterable) and not isinstance(bots, bytes):
        names = []
        for bot in bots:
            if not isinstance(bot, str):
                raise ArgumentTypeError(f"a bot's name should be text, not {shown(bot)}")
            names.append(bot.strip().lower())
    else:
        raise ArgumentTypeError(
            f"bots should be bot names ({', '.join(ALL_BOT_NAMES)}) as text or a list, "
            f"not {shown(bots)}"
        )
    if not names or any(not n for n in names):
        raise ValueError("name at least one bot, e.g. careful or random,greedy")
    unknown = [n for n in names if n not in ALL_BOT_NAMES]
    if unknown:
        raise ValueError(f"unknown bot {cut(unknown[0])!r}: choose from {', '.join(ALL_BOT_NAMES)}")
    return tuple(names[p % len(names)] for p in range(players))


def seat_bots(names: Sequence[str], seed: int) -> list[Bot]:
    """The bots of one deal, each seeded from the deal's seed and its seat."""
    seed = require_whole(seed, "seed", 0)
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise ArgumentTypeError(f"names should be a list of bot names, not {shown(names)}")
    return [make_bot(name, seed * 10 + seat) for seat, name in enumerate(names)]


def bots_around(deal: Deal, seat: int, bots: str | Iterable[str] | None = None) -> dict[int, Bot]:
    """The bots of every seat of `deal` but `seat` (the learner's), by seat: the names (a text or
    a list, as `bot_names` reads them) go clockwise from the seat on `seat`'s left, and each bot is
    `make_bot(name, deal.seed * 10 + its seat)`."""
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"bots_around takes a Deal, not {shown(deal)}")
    seat = require_whole(seat, "seat", 0, deal.players - 1)
    others = [(seat + k) % deal.players for k in range(1, deal.players)]
    names = bot_names(bots, len(others))
    return {p: make_bot(name, deal.seed * 10 + p) for p, name in zip(others, names, strict=True)}


def forced_move(deal: Deal, seat: int) -> Move | None:
    """The only legal move of `seat` when it is that seat's turn and one is forced: `DeclareGame`
    with an empty hand, `DeclareDead` when nothing can be played (rules `game`, `dead`,
    `dead.passport`); else None."""
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"forced_move takes a Deal, not {shown(deal)}")
    seat = require_whole(seat, "seat", 0, deal.players - 1)
    if deal.is_over or deal.turn != seat:
        return None
    return PlayerView.of(deal).forced()


def play_until(
    deal: Deal,
    bots: Mapping[int, Bot],
    seat: int | None = None,
    limit: int = MAX_MOVES,
) -> list[tuple[int, Choice]]:
    """Let the bots (seat -> bot) play `deal` until it is `seat`'s turn, a seat without a bot is
    to move, or the deal is over, and at most `limit` moves; return each move's seat and `Choice`
    (the bot's reason), in order. With `seat` None, they play until no bot is to move.

    A player who is out is never to move, so for a dead `seat` the bots play the deal to its end.
    """
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"play_until takes a Deal, not {shown(deal)}")
    if not isinstance(bots, Mapping) or not all(
        callable(getattr(b, "choose", None)) for b in bots.values()
    ):
        raise ArgumentTypeError(
            f"bots should map seats to bots (bots_around(deal, seat)), not {shown(bots)}"
        )
    if seat is not None:
        seat = require_whole(seat, "seat", 0, deal.players - 1)
    limit = require_whole(limit, "limit", 0)
    played: list[tuple[int, Choice]] = []
    while len(played) < limit and not deal.is_over:
        turn = deal.turn
        bot = bots.get(turn)
        if turn == seat or bot is None:
            break
        played.append((turn, play_move(deal, bot)))
    return played


def _play(
    seed: int,
    players: int,
    bots: str | Iterable[str] | None,
    rules: Rules | None,
    record: Callable[[Choice], None] | None,
) -> Deal:
    rules = Rules.of(rules)
    rules.require_deal(players)
    seed = require_whole(seed, "seed", 0, MAX_SEED)
    names = bot_names(bots, players)
    deal = Deal(players=players, seed=seed, rules=rules)
    seats = seat_bots(names, seed)
    push = deal.push
    over = Phase.OVER  # read once: this loop runs every move (`deal.is_over`, without a call)
    for _step in range(MAX_MOVES):
        if deal.phase is over:
            return deal
        choice = seats[deal.turn].choose(PlayerView.of(deal))
        push(choice.move)
        if record is not None:
            record(choice)
    raise RuntimeError(f"deal {seed} did not end within {MAX_MOVES} moves")


def play_deal(
    seed: int,
    players: int = 4,
    bots: str | Iterable[str] | None = None,
    rules: Rules | None = None,
) -> Deal:
    """Deal with `seed` and let the bots (names cycled to the seats) play it to the end."""
    return _play(seed, players, bots, rules, None)


def play_deal_explained(
    seed: int,
    players: int = 4,
    bots: str | Iterable[str] | None = None,
    rules: Rules | None = None,
) -> tuple[Deal, list[Choice]]:
    """`play_deal`, also returning each move's `Choice` (the bot's reason), in move order."""
    choices: list[Choice] = []
    deal = _play(seed, players, bots, rules, choices.append)
    return deal, choices
