"""Which card to lay off first: orders of the careful bot's lay-off choice, measured.

Run with `python -m benchmarks.bench_watchful` from the repository root (`--deals 2000`).

The careful bot lays off one card a turn. When several fit, it picks by an order of tests
(`CarefulBot._lay_off_key`): a card in no three-card meld of its hand first, then a set as the
target, then the highest card. The watchful bot (`WatchfulBot`, the expert's own policy in its
look-ahead) asks one question before those: could another seat take this card's place first?
A card that extends a run fits only until someone lays off the other copy of it there.

In the first table every bot picks its meld as the careful bot does. The second table keeps the
watchful bot's lay-off order and changes how it picks the meld it makes (`CarefulBot.meld_order`):
from a three-card meld's "fed" (unseen cards the others could lay off on it), "kept" (cards of
the hand that could be laid off on it later) and points. Its first row is the watchful bot
without its last habit. The third table measures that habit, going out (`bots.going_out`):
before each choice the watchful bot searches whether its hand can be emptied this turn, at most
so many positions of the turn search (`WatchfulBot.go_out`, 0: it never looks), in hands of at
most so many cards (`WatchfulBot.go_out_hand`).

Each order below is a bot that sits, in a duplicate tournament (`engine.tournament`: every seed
once per seat), against three careful bots. Reported per order: the share of the deals it won
(an equal share is 25%), its mean count, and its count less the mean of the others' at the same
table with a 95% interval over the seeds. A negative difference means the order is stronger.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from penang_lib.engine.bots import (
    GO_OUT_BUDGET,
    GO_OUT_HAND,
    CarefulBot,
    MeldOrder,
    WatchfulBot,
    _meld_cards,
    _taken_first,
    careful_meld_order,
    watchful_meld_order,
)
from penang_lib.engine.expert import PLAYOUT_GO_OUT, PLAYOUT_GO_OUT_HAND
from penang_lib.engine.melds import SET
from penang_lib.engine.tournament import Standing, tournament
from penang_lib.engine.view import Option, PlayerView

Key = Callable[[PlayerView, Option], tuple[object, ...]]


def _facts(view: PlayerView, option: Option) -> tuple[bool, bool, bool, int]:
    """Of a lay-off: whether another seat could take its place first, whether the card is in no
    meld of the hand, whether the target is a set, and the card's points."""
    target, card = option
    return (
        _taken_first(view, option),
        not _meld_cards(view) >> card.index & 1,
        view.table[target].kind is SET,
        view.rules.card_value(card.rank),
    )


def _order(*picks: int, flip: int | None = None) -> Key:
    def key(view: PlayerView, option: Option) -> tuple[object, ...]:
        facts = _facts(view, option)
        return tuple(-facts[i] if i == flip else facts[i] for i in picks)

    return key


ORDERS: dict[str, Key] = {
    "careful (in no meld, set, points)": _order(1, 2, 3),
    "watchful (taken first, in no meld, points)": _order(0, 1, 3),
    "taken first, in no meld, set, points": _order(0, 1, 2, 3),
    "in no meld, taken first, set, points": _order(1, 0, 2, 3),
    "in no meld, points, set": _order(1, 3, 2),
    "in no meld, run, points": _order(1, 2, 3, flip=2),
    "set, points (melds of the hand not kept)": _order(2, 3),
    "in no meld, set, fewest points": _order(1, 2, 3, flip=3),
}
"""Each order of tests, by its name (the meld chosen as the careful bot does)."""

MELD_ORDERS: dict[str, MeldOrder] = {
    "watchful (most kept, most points, fewest fed)": watchful_meld_order,
    "careful (fewest fed, most kept, most points)": careful_meld_order,
    "most kept, fewest fed, most points": lambda fed, kept, points: (-kept, fed, -points),
    "most points, most kept, fewest fed": lambda fed, kept, points: (-points, -kept, fed),
    "most points, fewest fed": lambda fed, kept, points: (-points, fed),
    "fewest fed, most points": lambda fed, kept, points: (fed, -points),
}
"""Each order of the watchful bot's meld choice, by its name; the first is its own. These rows
never look for a way to go out, so that the first meets the lay-off table's watchful row."""

GO_OUTS: dict[str, tuple[int, int]] = {
    "going out: 300 positions, hands of 12 (its own)": (GO_OUT_BUDGET, GO_OUT_HAND),
    "going out: 60 positions, hands of 12": (60, GO_OUT_HAND),
    "going out: 20 positions, hands of 12": (20, GO_OUT_HAND),
    "going out: 20 positions, hands of 8": (20, 8),
    "going out: 20 positions, hands of 6 (the expert's playouts)": (
        PLAYOUT_GO_OUT,
        PLAYOUT_GO_OUT_HAND,
    ),
    "never looking for a way out": (0, GO_OUT_HAND),
}
"""How far the watchful bot searches for a way to empty its hand in one turn (positions of the
search, and the biggest hand it searches), by its name."""


class Ordered(CarefulBot):
    """The careful bot with another order for its lay-off choice."""

    name = "ordered"

    def __init__(self, key: Key, seed: int | None = None) -> None:
        super().__init__(seed)
        self.key = key

    def _best_lay_off(self, view: PlayerView, naturals: list[Option]) -> Option:
        return max(naturals, key=lambda option: self.key(view, option))


class MeldOrdered(WatchfulBot):
    """The watchful bot with another order for its meld choice."""

    name = "meld-ordered"

    def __init__(self, order: MeldOrder, seed: int | None = None) -> None:
        super().__init__(seed, go_out=0)
        self.meld_order = order


def measure(name: str, deals: int, seed: int, jobs: int = 1) -> Standing:
    """The order `name` (of `ORDERS`, `MELD_ORDERS` or `GO_OUTS`) at one seat against three
    careful bots, over `deals` seeds."""
    if name in GO_OUTS:
        positions, hand = GO_OUTS[name]

        def make(s: int | None) -> CarefulBot:
            return WatchfulBot(s, go_out=positions, go_out_hand=hand)

    elif name in MELD_ORDERS:
        order = MELD_ORDERS[name]

        def make(s: int | None) -> CarefulBot:
            return MeldOrdered(order, s)

    else:
        key = ORDERS[name]

        def make(s: int | None) -> CarefulBot:
            return Ordered(key, s)

    result = tournament(
        ["order", "careful", "careful", "careful"], deals, seed, bots={"order": make}, jobs=jobs
    )
    return result.standings["order"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_watchful", description=__doc__
    )
    parser.add_argument("--deals", type=int, default=2000, help="seeds per order (2000)")
    parser.add_argument("--seed", type=int, default=2000, help="first seed (2000)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    args = parser.parse_args(argv)
    print(f"Against three careful bots, {args.deals:,} seeds from {args.seed}, each in every seat:")
    for title, names in (
        ("order of the lay-off tests", list(ORDERS)),
        ("watchful, with the meld chosen by", list(MELD_ORDERS)),
        ("watchful, searching for a way out", list(GO_OUTS)),
    ):
        print(f"{title:45} {'wins':>7} {'count':>6}  difference [95%]")
        for name in names:
            s = measure(name, args.deals, args.seed, args.jobs)
            interval = s.interval
            low, high = interval if interval is not None else (float("nan"), float("nan"))
            print(
                f"{name:45} {100 * s.win_rate:6.1f}% {s.mean_count:6.2f}  "
                f"{s.mean_difference:+.2f} [{low:+.2f}, {high:+.2f}]"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
