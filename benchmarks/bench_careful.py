"""The careful bot's "death is near" rule, measured: variants of it in duplicate deals.

Run with `python -m benchmarks.bench_careful` from the repository root (`--deals 1000`).

Each variant is a `CarefulBot` whose test for "death is near" (when it sheds a second card in a
turn, and lays off its highest card rather than its best one) is replaced. For every seed and
every seat, the variant sits at that seat among three bots of one kind (the careful bot with its
old rule, `careful`; the greedy bot, `greedy`; or the careful bot as it is now, `new`) and plays
the deal; the same deal with the careful bot's old rule at that seat (same seed, same seat, same
bots around it) is the baseline. So each (seed, seat) pair is a duplicate:
the cards are the same, only the bot at the seat differs.

Reported per variant and per field: the mean of (variant's count - baseline's count) over all
pairs, with a 95% interval from the per-seed means (the four seats of one seed share a deal, so
the seed is the unit), the share of deals won (a tie counts as a share of the win), and how often
the bot sheds a second card in a turn. A negative difference means the variant dies holding
fewer points: it is stronger.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from penang_lib.engine.bots import Bot, CarefulBot, GreedyBot
from penang_lib.engine.deal import Deal, Phase
from penang_lib.engine.moves import LayOff
from penang_lib.engine.view import Option, PlayerView

Rule = Callable[[CarefulBot, PlayerView, list[Option]], bool]


def _death_near_today(bot: CarefulBot, view: PlayerView, naturals: list[Option]) -> bool:
    """The rule of the careful bot before issue 29: no joker, no meld in hand and at most
    two cards it can lay off (copies counted)."""
    if view.jokers:
        return False
    if sum(view.counts[card.index] for _, card in naturals) > 2:
        return False
    return not view.has_meld()


def _others_small(view: PlayerView, most: int) -> bool:
    """Some other player still alive holds at most `most` cards."""
    return any(
        p != view.seat and view.status[p].name == "ALIVE" and view.hand_sizes[p] <= most
        for p in range(view.players)
    )


VARIANTS: dict[str, Rule] = {
    "today": _death_near_today,
    "adopted": lambda bot, view, naturals: CarefulBot._death_near(bot, view, naturals),
    "never": lambda bot, view, naturals: False,
    "hand<=6": lambda bot, view, naturals: (
        view.hand_sizes[view.seat] <= 6 and _death_near_today(bot, view, naturals)
    ),
    "hand<=10": lambda bot, view, naturals: (
        view.hand_sizes[view.seat] <= 10 and _death_near_today(bot, view, naturals)
    ),
    "others<=5": lambda bot, view, naturals: (
        _others_small(view, 5) and _death_near_today(bot, view, naturals)
    ),
    "not-turn1-3": lambda bot, view, naturals: (
        view.turn_number > 3 * view.players and _death_near_today(bot, view, naturals)
    ),
    "hand<=3": lambda bot, view, naturals: (
        view.hand_sizes[view.seat] <= 3 and _death_near_today(bot, view, naturals)
    ),
    "hand<=4": lambda bot, view, naturals: (
        view.hand_sizes[view.seat] <= 4 and _death_near_today(bot, view, naturals)
    ),
    "others<=2": lambda bot, view, naturals: (
        _others_small(view, 2) and _death_near_today(bot, view, naturals)
    ),
    "others<=3": lambda bot, view, naturals: (
        _others_small(view, 3) and _death_near_today(bot, view, naturals)
    ),
    "hand<=6|others<=3": lambda bot, view, naturals: (
        (view.hand_sizes[view.seat] <= 6 or _others_small(view, 3))
        and _death_near_today(bot, view, naturals)
    ),
}
"""The rules tried. `today` is the careful bot's rule before issue 29 (the baseline and the
field), `adopted` the rule `CarefulBot` has now."""


class Variant(CarefulBot):
    """The careful bot with another "death is near" rule, counting its second sheds."""

    def __init__(self, rule: Rule) -> None:
        super().__init__()
        self.rule = rule
        self.sheds = 0

    def _death_near(self, view: PlayerView, naturals: list[Option]) -> bool:
        return self.rule(self, view, naturals)

    def choose(self, view: PlayerView):  # type: ignore[no-untyped-def]
        choice = super().choose(view)
        if view.actions and isinstance(choice.move, LayOff):
            self.sheds += 1
        return choice


def play(seed: int, bots: Sequence[Bot]) -> Deal:
    deal = Deal(players=len(bots), seed=seed)
    over = Phase.OVER
    while deal.phase is not over:
        deal.push(bots[deal.turn].choose(PlayerView.of(deal)).move)
    return deal


def share(deal: Deal, seat: int) -> float:
    winners = deal.winners
    return 1 / len(winners) if seat in winners else 0.0


@dataclass
class Line:
    variant: str
    field: str
    diffs: list[float]  # per seed: mean over seats of variant - baseline count
    wins: float
    base_wins: float
    pairs: int
    sheds: int

    def row(self) -> str:
        mean = statistics.fmean(self.diffs)
        half = 1.96 * statistics.stdev(self.diffs) / math.sqrt(len(self.diffs))
        return (
            f"| {self.variant} | {self.field} | {mean:+.2f} | [{mean - half:+.2f}, "
            f"{mean + half:+.2f}] | {self.wins / self.pairs:.3f} | "
            f"{self.base_wins / self.pairs:.3f} | {self.sheds / self.pairs:.2f} |"
        )


def measure(variant: str, field: str, deals: int, seed: int, players: int = 4) -> Line:
    rule = VARIANTS[variant]

    def make_other() -> Bot:
        if field == "careful":
            return Variant(_death_near_today)
        return CarefulBot() if field == "new" else GreedyBot()

    diffs: list[float] = []
    wins = base_wins = 0.0
    sheds = 0
    for s in range(seed, seed + deals):
        per_seat = []
        for seat in range(players):
            bot = Variant(rule)
            base: list[Bot] = [make_other() for _ in range(players)]
            base[seat] = Variant(_death_near_today)
            mine = list(base)
            mine[seat] = bot
            a, b = play(s, mine), play(s, base)
            per_seat.append(a.count(seat) - b.count(seat))
            wins += share(a, seat)
            base_wins += share(b, seat)
            sheds += bot.sheds
        diffs.append(statistics.fmean(per_seat))
    return Line(variant, field, diffs, wins, base_wins, deals * players, sheds)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="seeds per variant (1000)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (0)")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="variants to measure")
    parser.add_argument(
        "--fields",
        default="careful,greedy",
        help="bots around it: careful (the old rule), greedy, new (today's CarefulBot)",
    )
    args = parser.parse_args(argv)
    print(
        f"{args.deals} seeds x 4 seats, 4 players; count difference = variant - the old careful "
        "rule at the same seat of the same deal (negative: the variant dies holding fewer points)"
    )
    print(
        "| variant | others | mean diff | 95% interval | win share | old rule's | 2nd sheds/deal |"
    )
    print("|---|---|---|---|---|---|---|")
    for field in args.fields.split(","):
        for variant in args.variants.split(","):
            print(measure(variant, field, args.deals, args.seed).row(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
