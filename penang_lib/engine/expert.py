"""The expert bot: it looks ahead on deals that agree with what it can see, and plays the move
that ends best on average.

Like every bot it gets a `PlayerView` only. When its hand can be emptied this turn
(`bots.going_out`) it plays that line, which wins the deal. At each other choice that is not
forced it:
1. lists a few candidate moves (`candidates`): what the watchful, the careful and the greedy
   bot would play, ending the turn, every swap and natural lay-off, and the best few melds of
   its hand;
2. draws deals that agree with its view (`inference.draw_deal`: the cards it cannot see shared
   at random among the other hands and the cards put aside, keeping to what the moves so far
   tell of them: the cards a dead seat cannot hold and the points it announced, the jokers a
   seat took by swaps, the cards a seat with the careful bot's habits showed it lacked), the
   same deals for every candidate, so that the candidates are compared on the same cards
   (common random numbers);
3. on each drawn deal plays each candidate, then plays the deal to its end (a *playout*): its
   own seat by the watchful bot (`WatchfulBot`: the careful bot that first lays off the cards
   another seat could take the place of, makes the meld that keeps the most cards of its hand
   to lay off later, and goes out when a short search finds a way with a small hand), every
   other seat by the careful bot; it notes its own count, whether it won and how many turns
   it stayed alive; every `DROP_EVERY` deals it stops playing the moves clearly worse than the
   best so far, so that the rest of the budget goes to the moves still in the running;
4. plays the candidate with the best mean outcome (`WIN_POINTS` for a win, shared on a tie,
   less the count it ends with), when it beats the watchful bot's move by more than
   `CONFIDENCE` standard errors on the same deals; else the watchful bot's move.

Its reason says it in numbers: how many deals it drew, the count it expects and how often it
wins, beside the next best candidate. It is deterministic for a given seed: the time budget is
turned into an amount of work (`WORK_PER_SECOND`: playout moves, and the searches for a way out
counted as the moves they cost), not read off the clock, so a faster or busier machine plays the
same moves. Only a hard stop (`HARD_STOP` budgets of wall time, at
least `HARD_STOP_FLOOR`, after at least `MIN_SAMPLES` deals) reads the clock, so that no move
ever takes far longer.
Method and measured strength: docs/CHOICES.md.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

from penang_lib.engine.bots import (
    CarefulBot,
    Choice,
    GreedyBot,
    WatchfulBot,
    bot_seed,
    forced_choice,
    going_out,
)
from penang_lib.engine.deal import Deal, Phase, Status
from penang_lib.engine.explain import move_words
from penang_lib.engine.inference import Clues, draw_deal
from penang_lib.engine.moves import EndTurn, LayOff, MeldMove, Move, Swap
from penang_lib.engine.sampling import sample_deal
from penang_lib.engine.validate import (
    ArgumentTypeError,
    require_flag,
    require_instance,
    require_whole,
    shown,
)
from penang_lib.engine.view import PlayerView
from penang_lib.i18n import N_, _

__all__ = [
    "DEFAULT_BUDGET",
    "ExpertBot",
    "Outcome",
    "Settings",
    "candidates",
    "judge",
    "playout_bot",
]

DEFAULT_BUDGET: Final = 0.25
"""Seconds of thought per move, at most (on one core of the development machine)."""
WORK_PER_SECOND: Final = 80_000
"""The work a second of budget buys, counted in playout moves (`Outcome.play`) and in what
costs as much time: each deal drawn (`DRAW_WORK`), each playout started (`PLAYOUT_WORK`), and
each look of the own seat's watchful bot for a way out (`LOOK_WORK`) and each position its turn
search visits (`SEARCH_WORK`). Counting those too keeps the time of a move near its budget
whether the playouts are long, short or full of searches (docs/CHOICES.md).

The costs and this 80,000 were measured: fitted to the time of the expert's own moves, then
compared choice by choice with counting the playout moves alone at 40,000 a second. Counted this
way, a move draws about 1.6 times the deals at the median choice, with a lower p95 and max time,
and it wins more deals (docs/CHOICES.md, "The expert's budget counts what its moves cost")."""
DRAW_WORK: Final = 12
"""Playout moves one deal drawn to agree with the view costs as much time as..."""
PLAYOUT_WORK: Final = 2
"""...one playout's start (a copy of the drawn deal)..."""
LOOK_WORK: Final = 2
"""...one look for a way out (the quick count of `bots.going_out`)..."""
SEARCH_WORK: Final = 14
"""...and one position of its turn search (fitted to the time of 636 moves of the expert on
the development machine, pure Python: a playout move about 15 microseconds, a drawn deal 12
moves' worth, a playout's start 2, a look 2, a position 14)."""
HARD_STOP: Final = 3.0
"""A move stops drawing deals after this many budgets of wall time, whatever remains."""
HARD_STOP_FLOOR: Final = 0.25
"""...and never before this many seconds: a tiny budget on a busy machine would otherwise
stop at a different deal from one run to the next, and the same seed would play differently."""
MIN_SAMPLES: Final = 4
"""Deals drawn at least, whatever the budget: fewer say nothing."""
MAX_SAMPLES: Final = 400
"""Deals drawn at most: beyond this, more deals hardly change the choice."""
JUDGE_SAMPLES: Final = 100
"""Deals drawn by `judge` unless told otherwise."""
MAX_MELDS: Final = 4
"""Melds of the hand among the candidates, at most (the best by points)."""
MELDS_LOOKED_AT: Final = 120
"""Melds of the hand read to find those, at most (a hand with jokers can make thousands)."""
DROP_EVERY: Final = 8
"""Every this many drawn deals, the moves clearly worse than the best so far are dropped, so
that the rest of the budget goes to the moves still in the running."""
DROP_CONFIDENCE: Final = 2.5
"""Standard errors of the paired difference by which a move must trail the best to be dropped."""
CONFIDENCE: Final = 2.0
"""Standard errors by which a move must beat the watchful bot's on the drawn deals to be played
instead of it."""
WIN_POINTS: Final = 200
"""What a win is worth against the count: a playout scores this for a win (shared on a tie)
less the count the expert ends with. The tournament's goal is the wins; the count still breaks
near ties between moves (docs/CHOICES.md: 60 and 400 were measured too)."""


@dataclass(frozen=True)
class Settings:
    """How an `ExpertBot` weighs its candidates: each field's default is the module constant of
    its name in capitals (`WORK_PER_SECOND`, ...), where its meaning is told. A benchmark
    compares other settings choice by choice (`benchmarks.bench_choices`)."""

    work_per_second: int = WORK_PER_SECOND
    draw_work: int = DRAW_WORK
    playout_work: int = PLAYOUT_WORK
    look_work: int = LOOK_WORK
    search_work: int = SEARCH_WORK
    max_samples: int = MAX_SAMPLES
    drop_every: int = DROP_EVERY
    drop_confidence: float = DROP_CONFIDENCE
    confidence: float = CONFIDENCE

    def __post_init__(self) -> None:
        for name in ("work_per_second", "draw_work", "playout_work", "look_work", "search_work"):
            require_whole(getattr(self, name), name, 0, 10**9)
        require_whole(self.max_samples, "max_samples", MIN_SAMPLES, 10**6)
        require_whole(self.drop_every, "drop_every", 1, 10**6)
        for name in ("drop_confidence", "confidence"):
            value = getattr(self, name)
            if value.__class__ not in (int, float):
                raise ArgumentTypeError(
                    f"{name} should be a number of standard errors, not {shown(value)}"
                )
            if not 0 <= value <= 100:
                raise ValueError(f"{name} should be from 0 to 100 standard errors, not {value}")


EXPERT_COMPARED: Final = N_(
    "Expert: {move}. In {samples} sampled deals this keeps you alive for {turns} more turns on "
    "average, ends with {count} points and wins {wins}% of them; {other} would keep you alive "
    "for {other_turns} turns, end with {other_count} points and win {other_wins}%."
)
EXPERT_KEPT: Final = N_(
    "Expert: {move}, the move its rule of thumb picks. In {samples} sampled deals this keeps "
    "you alive for {turns} more turns on average, ends with {count} points and wins {wins}% of "
    "them; {other} would keep you alive for {other_turns} turns, end with {other_count} points "
    "and win {other_wins}%, which is not clearly better on so few deals."
)
EXPERT_ONLY: Final = N_("Expert: {move}: no other move here is worth weighing.")
EXPERT_GO_OUT: Final = N_(
    "Expert: {move}: every card of your hand can be played this turn, so play them all, go out "
    "and win the deal."
)
PLAYOUT_GO_OUT: Final = 20
"""The positions the watchful bot of the playouts (and of the expert's default move) may search
at each of its choices for a way to empty its hand in one turn (`WatchfulBot.go_out`; 0: it
never looks)..."""
PLAYOUT_GO_OUT_HAND: Final = 6
"""...with a hand of at most this many cards. A longer search, or one in bigger hands, makes
the watchful bot a little stronger but the playouts far slower (docs/CHOICES.md)."""


def playout_bot() -> WatchfulBot:
    """The bot that plays the expert's own seat in its playouts (and the learner's in `judge`)."""
    return WatchfulBot(go_out=PLAYOUT_GO_OUT, go_out_hand=PLAYOUT_GO_OUT_HAND)


@dataclass
class Outcome:
    """What one candidate move led to over the drawn deals (one entry per deal)."""

    move: Move
    counts: list[int] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    alive: list[int] = field(default_factory=list)
    """The count it ended with, its share of the win and the turns it played after this one
    (a turn in which it declared Dead not counted)."""
    then: tuple[Move, ...] = ()
    """The moves played after `move` on each drawn deal before the playout (the rest of a turn
    that `judge` weighs)."""
    survived: list[bool] = field(default_factory=list)
    """Whether it was still alive after its next turn (or the deal ended first)."""

    @property
    def value(self) -> float:
        """The mean of `WIN_POINTS` x the win share less the count: higher is better."""
        return WIN_POINTS * statistics.fmean(self.wins) - statistics.fmean(self.counts)

    def utilities(self) -> list[float]:
        """Each drawn deal's score: `WIN_POINTS` x the win share less the count."""
        return [WIN_POINTS * w - c for w, c in zip(self.wins, self.counts, strict=True)]

    def gain_over(self, other: Outcome) -> tuple[float, float]:
        """How much better this move scored than `other` on the drawn deals both were played
        on (the first ones: a move dropped early was played on fewer): the mean of the paired
        differences, and its standard error."""
        diffs = [a - b for a, b in zip(self.utilities(), other.utilities(), strict=False)]
        if len(diffs) < 2:
            return statistics.fmean(diffs), float("inf")
        return statistics.fmean(diffs), statistics.stdev(diffs) / len(diffs) ** 0.5

    @property
    def mean_count(self) -> float:
        return statistics.fmean(self.counts)

    @property
    def win_rate(self) -> float:
        return statistics.fmean(self.wins)

    @property
    def mean_alive(self) -> float:
        return statistics.fmean(self.alive)

    @property
    def survival_rate(self) -> float:
        """The share of drawn deals in which it was still alive after its next turn."""
        return statistics.fmean(self.survived)

    def play(self, world: Deal, seat: int, own: CarefulBot, others: CarefulBot) -> int:
        """Play this outcome's moves on a copy of `world`, then the deal to its end (`seat` by
        the bot `own`, every other seat by `others`), and note how it ended for `seat`; the
        number of moves played."""
        deal = world.copy()
        before = deal.turns[seat]
        deal.push(self.move)
        for move in self.then:
            deal.push(move)
        _playout(deal, seat, own, others)
        winners = deal.winners
        died = deal.status[seat] in _DEAD
        started = deal.turns[seat] - before
        self.counts.append(deal.scores[seat])
        self.wins.append(1 / len(winners) if seat in winners else 0.0)
        self.alive.append(max(started - died, 0))
        self.survived.append(not died or started > 1)
        return len(deal.move_stack)


_DEAD: Final = (Status.DEAD, Status.DEAD_PASSPORT)


def judge(
    view: PlayerView,
    plays: Sequence[Sequence[Move]],
    samples: int = JUDGE_SAMPLES,
    seed: int | None = None,
) -> list[Outcome]:
    """How each of `plays` (moves of the view's seat from the view's position, such as the
    whole turn a learner played and the one the expert would play) ends, on the same `samples`
    deals drawn to agree with the view, played on after it as the expert plays its own (the
    view's seat by the watchful bot, the others by the careful bot): the outcomes,
    in the order of `plays`. A play that is not legal from the view's position is refused
    (`IllegalMove`, the engine's sentence) before any deal is weighed: whether the seat's moves
    are legal depends only on its own hand and the table, which every drawn deal shares."""
    view = _view(view)
    samples = require_whole(samples, "samples", 1, MAX_SAMPLES)
    outcomes = []
    clues = Clues.of(view)
    for play in plays:
        moves = tuple(play)
        if not moves:
            raise ValueError("a play holds at least one move")
        world = draw_deal(view, random.Random(0), clues)
        for move in moves:
            if world.turn != view.seat and not world.is_over:
                raise ValueError("a play holds the moves of the view's seat only, in one turn")
            world.push(move)
        outcomes.append(Outcome(moves[0], then=moves[1:]))
    rng = random.Random(bot_seed(seed))
    own, others = playout_bot(), CarefulBot()
    for _sample in range(samples):
        world = draw_deal(view, rng, clues)
        for outcome in outcomes:
            outcome.play(world, view.seat, own, others)
    return outcomes


def _view(view: object) -> PlayerView:
    if not isinstance(view, PlayerView):
        raise ArgumentTypeError(f"the expert weighs a PlayerView, not {shown(view)}")
    return view


def _melds(view: PlayerView) -> Iterator[MeldMove]:
    for k, meld in enumerate(view.melds()):
        if k >= MELDS_LOOKED_AT:
            return
        yield MeldMove(meld.cards)


def candidates(view: PlayerView) -> list[Move]:
    """The moves worth weighing in `view` (no forced move here): the watchful, the careful and
    the greedy bot's choices, ending the turn, every swap and natural lay-off, and the
    `MAX_MELDS` melds worth the most points, each once, in that order. The first, the watchful
    bot's, is the expert's default."""
    found: dict[Move, None] = {}
    found[playout_bot().choose(view).move] = None
    found[CarefulBot().choose(view).move] = None
    found[GreedyBot().choose(view).move] = None
    if view.actions:
        found[EndTurn()] = None
    if view.passport:
        for target, card in view.swap_options():
            found[Swap(target, card)] = None
        for target, card in view.natural_lay_off_options():
            found[LayOff(target, card)] = None
    rules = view.rules
    melds = sorted(
        _melds(view),
        key=lambda m: -sum(rules.card_value(c.rank) for c in m.cards),
    )
    for meld in melds[:MAX_MELDS]:
        found[meld] = None
    return list(found)


def _playout(deal: Deal, seat: int, own: CarefulBot, others: CarefulBot) -> None:
    """Play `deal` to its end: `seat` by the bot `own`, every other seat by `others`."""
    over = Phase.OVER
    push = deal.push
    of = PlayerView.of
    while deal.phase is not over:
        push((own if deal.turn == seat else others).choose(of(deal)).move)


def _still_running(running: list[Outcome], margin: float = DROP_CONFIDENCE) -> list[Outcome]:
    """The moves of `running` (all played on the same drawn deals) not clearly worse than the
    best so far: each trails it by less than `margin` standard errors of the paired
    difference. The first (the watchful bot's move, the default) always stays."""
    best = max(running, key=lambda o: o.value)
    kept = [running[0]]
    for outcome in running[1:]:
        gain, error = outcome.gain_over(best)
        if outcome is best or gain > -margin * error:
            kept.append(outcome)
    return kept


class ExpertBot:
    """Weighs a few candidate moves on deals drawn to agree with its view, and plays the best.

    `budget` is the seconds of thought a move may take (default `DEFAULT_BUDGET`); `seed` makes
    it repeatable. `deadline`: whether a move also stops at `HARD_STOP` budgets of wall time;
    without it a move weighs the deals its budget buys however long that takes, so that the
    same seed plays the same moves on any machine, however busy (a hint a lesson relies on).
    `clues`: whether the deals it draws keep to what the moves so far tell of the hidden hands
    (`inference.Clues`); without, the unseen cards are shared out at random. `settings`: how
    it weighs (`Settings`; the module's constants by default). `last` holds the outcomes of its
    last weighed choice (for Hint and the review), best first.
    """

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        budget: float = DEFAULT_BUDGET,
        deadline: bool = True,
        clues: bool = True,
        settings: Settings | None = None,
    ) -> None:
        self.seed = bot_seed(seed)
        if settings is None:
            settings = Settings()
        self.settings = require_instance(settings, Settings, "settings", "expert.Settings")
        self.deadline = require_flag(deadline, "deadline")
        self.clues = require_flag(clues, "clues")
        if budget.__class__ not in (int, float) or not 0 < budget <= 60:
            raise ArgumentTypeError(
                f"budget should be a number of seconds above 0 and at most 60, not {shown(budget)}"
            )
        self.budget = float(budget)
        self.rng = random.Random(self.seed)
        self.own_bot = playout_bot()
        self.playout_bot = CarefulBot()
        self.last: list[Outcome] = []

    def weigh(self, view: PlayerView, moves: list[Move]) -> list[Outcome]:
        """Play each of `moves` on the same drawn deals, as many as the budget buys; the
        outcomes, in the order of `moves` (`rank` orders them)."""
        seat = view.seat
        outcomes = [Outcome(m) for m in moves]
        settings = self.settings
        work = 0
        allowance = self.budget * settings.work_per_second
        draw_work, playout_work = settings.draw_work, settings.playout_work
        look_work, search_work = settings.look_work, settings.search_work
        wall = max(HARD_STOP * self.budget, HARD_STOP_FLOOR) if self.deadline else float("inf")
        deadline = time.perf_counter() + wall
        own, others = self.own_bot, self.playout_bot
        samples = 0
        running = list(outcomes)
        clues = Clues.of(view) if self.clues else None
        looked = look_work * own.looks + search_work * own.searched
        while samples < settings.max_samples:
            if clues is None:
                world = sample_deal(view, self.rng)
            else:
                world = draw_deal(view, self.rng, clues)
            for outcome in running:
                work += outcome.play(world, seat, own, others) + playout_work
            samples += 1
            # The draw, and what the own seat's searches cost since the last deal, as moves.
            now = look_work * own.looks + search_work * own.searched
            work += draw_work + now - looked
            looked = now
            if samples >= MIN_SAMPLES and (work >= allowance or time.perf_counter() > deadline):
                break
            if samples % settings.drop_every == 0 and len(running) > 2:
                running = _still_running(running, settings.drop_confidence)
        return outcomes

    def rank(self, outcomes: list[Outcome]) -> list[Outcome]:
        """The outcomes best first. The first is the watchful bot's move (`outcomes[0]`) unless
        another beat it on the drawn deals by more than `CONFIDENCE` standard errors of the
        paired difference: with few deals, the best-looking of many moves is often just lucky,
        and the watchful bot's move is a good default."""
        default = outcomes[0]
        margin = self.settings.confidence
        sure = [o for o in outcomes[1:] if (lambda g: g[0] > margin * g[1])(o.gain_over(default))]
        best = max(sure, key=lambda o: o.value, default=default)
        rest = sorted((o for o in outcomes if o is not best), key=lambda o: -o.value)
        return [best, *rest]

    def choose(self, view: PlayerView) -> Choice:
        forced = forced_choice(view)
        if forced is not None:
            return forced
        line = going_out(view)
        if line:  # going out wins the deal: nothing is worth weighing against it
            self.last = []
            words = move_words(line[0], view.table, view.owners, view.names)
            return Choice(line[0], _(EXPERT_GO_OUT).format(move=words))
        moves = candidates(view)
        if len(moves) == 1:
            self.last = []
            words = move_words(moves[0], view.table, view.owners, view.names)
            return Choice(moves[0], _(EXPERT_ONLY).format(move=words))
        ranked = self.rank(self.weigh(view, moves))
        self.last = ranked
        best, other = ranked[0], ranked[1]
        table, owners, names = view.table, view.owners, view.names
        # The watchful bot's move kept though another scored higher: not by enough to trust.
        template = EXPERT_KEPT if other.value > best.value else EXPERT_COMPARED
        why = _(template).format(
            move=move_words(best.move, table, owners, names),
            samples=len(best.counts),
            turns=f"{best.mean_alive:.1f}",
            other_turns=f"{other.mean_alive:.1f}",
            count=round(best.mean_count),
            wins=round(100 * best.win_rate),
            other=move_words(other.move, table, owners, names),
            other_count=round(other.mean_count),
            other_wins=round(100 * other.win_rate),
        )
        return Choice(best.move, why)
