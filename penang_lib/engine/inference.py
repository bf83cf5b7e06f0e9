"""What the moves everyone saw tell one seat about the hands it cannot see.

Every move in Penang Rummy is made face up, so a seat that remembers them knows more than the
cards on the table. `Clues.of(view)` reads the view's `history` once and keeps, per other seat:

- `barred`: the naturals that seat cannot hold, as a bit mask over count-vector indices.
  - By the rules (true of every player): a seat that declared Dead after its passport could lay
    off nothing and swap nothing (rule `dead`), so it held none of the naturals that the table
    took then; and no card leaves a hand but to the table, so it holds none now either.
  - By habit (true of the careful bot, and checked against each seat's own moves): a player who
    lays off whenever they can and swaps first, and who starts a turn with a meld, or by laying
    off a joker, could lay off no natural card and swap none then. A seat that later plays a card
    barred this way has shown that it plays otherwise, and its habit bars are dropped.
- `points`: for a dead seat, the points its Dead announced (the kit says them at the table).
- `jokers`: the jokers the seat is known to hold: those it took by swaps and has not played
  since (rule `swap`).

`draw_deal(view, rng, clues)` draws the hidden hands as `sampling.sample_deal` does, but
keeps to the clues: each card goes to a holder that may hold it, the known jokers go to the
seats that took them, and a dead seat's hand is brought to the points it announced, card by card.
The expert draws its deals this way (docs/CHOICES.md: what each clue is worth, measured).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from penang_lib.engine.cards import JOKER_INDEX, Counts
from penang_lib.engine.deal import Deal
from penang_lib.engine.fast.table_index import TableInfo, table_info
from penang_lib.engine.moves import DeclareDead, EndTurn, LayOff, MeldMove, Move, Swap
from penang_lib.engine.sampling import deal_at, unseen
from penang_lib.engine.validate import ArgumentTypeError, shown
from penang_lib.engine.view import PlayerView

__all__ = ["Clues", "draw_deal"]

_SIZE = JOKER_INDEX + 1
FIT_TRIES = 400
"""Card exchanges tried, at most, to bring a dead seat's drawn hand to the points it announced."""


@dataclass(frozen=True)
class Clues:
    """What one seat knows of the others' hands from the moves so far (see the module)."""

    seat: int
    barred_by_rule: tuple[int, ...]
    """Per seat, the naturals the rules say it cannot hold (a bit mask over count-vector
    indices): those the table took when it declared Dead."""
    barred_by_habit: tuple[int, ...]
    """Per seat, the naturals it cannot hold if it plays by the careful habits."""
    points: tuple[int | None, ...]
    """Per seat, the points a Dead announced (None: alive, or out)."""
    jokers: tuple[int, ...]
    """Per seat, the jokers it is known to hold."""
    habits_broken: tuple[bool, ...]
    """Per seat, whether its own moves showed that it does not play by the careful habits."""

    @property
    def barred(self) -> tuple[int, ...]:
        """Per seat, the naturals it cannot hold: by the rules, and by habit unless its moves
        broke the habits."""
        return tuple(
            rule | (0 if broken else habit)
            for rule, habit, broken in zip(
                self.barred_by_rule, self.barred_by_habit, self.habits_broken, strict=True
            )
        )

    @classmethod
    def of(cls, view: PlayerView) -> Clues:
        """The clues of `view`'s seat, read from its history."""
        if not isinstance(view, PlayerView):
            raise ArgumentTypeError(f"clues are read from a PlayerView, not {shown(view)}")
        players = view.players
        by_rule = [0] * players
        by_habit = [0] * players
        broken = [False] * players
        points: list[int | None] = [None] * players
        passport = [False] * players
        infos: list[TableInfo] = []
        previous: Move | None = None
        for seen in view.history:
            seat, move = seen.seat, seen.move
            turn_starts = previous is None or isinstance(previous, EndTurn | DeclareDead)
            if seat != view.seat and passport[seat]:
                if _played(move) & by_habit[seat]:
                    broken[seat] = True
                if turn_starts:
                    fits = 0
                    for info in infos:
                        fits |= info.accept_mask | info.swap_mask
                    if isinstance(move, DeclareDead):
                        by_rule[seat] |= fits
                    elif isinstance(move, MeldMove) or (
                        isinstance(move, LayOff) and move.card.is_joker
                    ):
                        by_habit[seat] |= fits
            if seen.points is not None:
                points[seat] = seen.points
            if isinstance(move, MeldMove):
                passport[seat] = True
            if seen.meld is not None and seen.target is not None:
                if seen.target == len(infos):
                    infos.append(table_info(seen.meld))
                elif 0 <= seen.target < len(infos):
                    infos[seen.target] = table_info(seen.meld)
            previous = move
        jokers = _known_jokers(view)
        return cls(view.seat, tuple(by_rule), tuple(by_habit), tuple(points), jokers, tuple(broken))


def _played(move: Move) -> int:
    """The naturals `move` takes from the hand, as a bit mask."""
    if isinstance(move, MeldMove):
        mask = 0
        for card in move.cards:
            if not card.is_joker:
                mask |= 1 << card.index
        return mask
    if isinstance(move, LayOff | Swap) and not move.card.is_joker:
        return 1 << move.card.index
    return 0


def _known_jokers(view: PlayerView) -> tuple[int, ...]:
    """Per seat, the jokers it must hold now: for every stretch of moves up to now, the jokers
    it took by swaps in it less those it played in it (it may hold more: jokers dealt to it)."""
    known = [0] * view.players
    net = [0] * view.players
    for seen in reversed(view.history):
        move = seen.move
        if isinstance(move, Swap):
            net[seen.seat] += 1
        elif isinstance(move, MeldMove):
            net[seen.seat] -= sum(1 for card in move.cards if card.is_joker)
        elif isinstance(move, LayOff) and move.card.is_joker:
            net[seen.seat] -= 1
        known[seen.seat] = max(known[seen.seat], net[seen.seat])
    known[view.seat] = 0
    return tuple(known)


def draw_deal(view: PlayerView, rng: random.Random, clues: Clues | None = None) -> Deal:
    """A deal in the view's position whose hidden cards (the other hands and the cards put
    aside) are drawn at random among those that keep to `clues` (read from the view when not
    given): each card goes to a holder allowed to hold it, with a chance in proportion to the
    room left in each; then a dead seat's hand is brought to the points it announced by
    exchanging cards with the other holders. Where the clues cannot all be kept (a player who
    broke the careful habits in a way no bar caught), a card goes where there is room."""
    if clues is None:
        clues = Clues.of(view)
    players = view.players
    me = view.seat
    stock = players  # the holder number of the cards put aside
    pool = [i for i, n in enumerate(unseen(view)) for _copy in range(n)]
    rng.shuffle(pool)
    room = [0 if s == me else view.hand_sizes[s] for s in range(players)]
    room.append(len(pool) - sum(room))
    barred = [*clues.barred, 0]
    barred[me] = 0
    holders = [s for s in range(players + 1) if s != me]
    held: list[list[int]] = [[] for _ in range(players + 1)]
    # The known jokers first, then the cards that fewer holders may take.
    for s in holders[:-1]:
        for _joker in range(min(clues.jokers[s], room[s])):
            if JOKER_INDEX in pool:
                pool.remove(JOKER_INDEX)
                held[s].append(JOKER_INDEX)
                room[s] -= 1
    pool.sort(key=lambda i: sum(barred[s] >> i & 1 for s in holders))
    pool.reverse()
    for index in pool:
        allowed = [s for s in holders if room[s] and not barred[s] >> index & 1]
        if not allowed:
            allowed = [s for s in holders if room[s]]
        pick = rng.random() * sum(room[s] for s in allowed)
        for s in allowed:
            pick -= room[s]
            if pick < 0:
                break
        held[s].append(index)
        room[s] -= 1
    _fit_points(view, clues, held, holders, barred, rng)
    hands: list[Counts] = []
    for s in range(players):
        hands.append(view.counts if s == me else _counts(held[s]))
    return deal_at(view, hands, _counts(held[stock]))


def _fit_points(
    view: PlayerView,
    clues: Clues,
    held: list[list[int]],
    holders: list[int],
    barred: list[int],
    rng: random.Random,
) -> None:
    """Bring each dead seat's drawn hand to the points its Dead announced (as near as
    `FIT_TRIES` exchanges get it), exchanging single cards with the other holders; a known
    joker stays where it is."""
    values = [view.rules.card_value(i % 13 + 1) for i in range(JOKER_INDEX)]
    values.append(view.rules.card_value(0))
    for dead, target in enumerate(clues.points):
        if target is None or dead == view.seat or not held[dead]:
            continue
        hand = held[dead]
        total = sum(values[i] for i in hand)
        others = [s for s in holders if s != dead and held[s]]
        for _try in range(FIT_TRIES):
            if total == target or not others:
                break
            a = rng.randrange(len(hand))
            other = rng.choice(others)
            b = rng.randrange(len(held[other]))
            mine, theirs = hand[a], held[other][b]
            if mine == JOKER_INDEX or theirs == JOKER_INDEX:
                continue
            if barred[dead] >> theirs & 1 or barred[other] >> mine & 1:
                continue
            after = total - values[mine] + values[theirs]
            if abs(after - target) <= abs(total - target):
                hand[a], held[other][b] = theirs, mine
                total = after


def _counts(indices: list[int]) -> Counts:
    counts = [0] * _SIZE
    for i in indices:
        counts[i] += 1
    return tuple(counts)
