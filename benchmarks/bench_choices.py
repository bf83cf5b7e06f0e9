"""Other settings of the expert against its own, compared choice by choice.

Run with `python -m benchmarks.bench_choices --variant NAME:field=value[,field=value...]` from
the repository root (minutes: not part of `python -m benchmarks`). A field is one of
`expert.Settings` (`--variant more:work_per_second=120000`); `--variant` may be given again.

A 2,000-deal tournament takes an hour or more, and two of them differ by about a point of
percentage of the wins by chance alone: more than most changes of the expert are worth. This
compares a change only where it matters. The expert with its own settings plays `--seeds`
seeds against three careful bots, once in every seat (the tournament's duplicate deals). At each
of its choices that is not forced, each variant chooses too, from the same position and the
same state of the random draws. Where a variant's move differs, both moves are weighed on
`--samples` more deals drawn to agree with the view (`expert.judge`, which plays on as the
expert's playouts do). The game goes on with the expert's own move.

Reported per variant: the choices it changed, the sum over a deal of the gains in the share of
the deal won (the variant's move less the expert's) as points of percentage per deal with their
standard error over the deals, and the mean change of the count at the changed choices. A
positive gain means the variant should win more deals. Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from multiprocessing import get_all_start_methods, get_context

from penang_lib.engine.bots import forced_choice, make_bot
from penang_lib.engine.deal import Deal
from penang_lib.engine.expert import DEFAULT_BUDGET, ExpertBot, Settings, judge
from penang_lib.engine.view import PlayerView

OPPONENT = "careful"
PLAYERS = 4


@dataclass(frozen=True)
class Change:
    """One choice a variant made differently: its move less the expert's, as `judge` weighs
    them on the same drawn deals."""

    wins: float
    count: float


@dataclass
class Played:
    """One deal (a seed, the expert in one seat): its choices and each variant's changes."""

    seed: int
    seat: int
    choices: int = 0
    changes: dict[str, list[Change]] = field(default_factory=dict)


def parse_variant(text: str) -> tuple[str, Settings]:
    """`NAME:field=value,...` as a name and the settings it makes (the rest as the expert's)."""
    name, sep, body = text.partition(":")
    if not sep or not name or not body:
        raise ValueError(f"a variant reads NAME:field=value[,field=value], not {text!r}")
    known = {f.name: f for f in fields(Settings)}
    base = Settings()
    changes: dict[str, float | int] = {}
    for part in body.split(","):
        key, eq, value = part.partition("=")
        if not eq or key not in known:
            raise ValueError(f"{key!r} is not a setting of the expert: one of {', '.join(known)}")
        default = getattr(base, key)
        changes[key] = int(value) if isinstance(default, int) else float(value)
    return name, replace(base, **changes)  # type: ignore[arg-type]


def play_deal(
    seed: int, seat: int, variants: dict[str, Settings], samples: int, budget: float
) -> Played:
    """Play the deal of `seed` with the expert at `seat` and careful bots around it, asking
    each variant at every choice of the expert that is not forced (bots seeded as in the
    tournament)."""
    deal = Deal(players=PLAYERS, seed=seed)
    bots = [make_bot(OPPONENT, seed * 10 + p) for p in range(PLAYERS)]
    # No hard stop on the clock: the same position and draws must give the same choice.
    own = ExpertBot(seed * 10 + seat, budget, deadline=False)
    bots[seat] = own
    others = {
        name: ExpertBot(seed * 10 + seat, budget, deadline=False, settings=s)
        for name, s in variants.items()
    }
    played = Played(seed, seat, changes={name: [] for name in variants})
    while not deal.is_over:
        view = PlayerView.of(deal)
        if deal.turn != seat or forced_choice(view) is not None:
            deal.push(bots[deal.turn].choose(view).move)
            continue
        played.choices += 1
        state = own.rng.getstate()
        move = own.choose(view).move
        after = own.rng.getstate()
        for name, other in others.items():
            other.rng.setstate(state)
            theirs = other.choose(view).move
            if theirs != move:
                judged = (seed * PLAYERS + seat) * 1000 + played.choices
                mine, base = judge(view, [[theirs], [move]], samples, judged)
                played.changes[name].append(
                    Change(mine.win_rate - base.win_rate, mine.mean_count - base.mean_count)
                )
        own.rng.setstate(after)
        deal.push(move)
    return played


_Task = tuple[int, int, dict[str, Settings], int, float]


def _play(task: _Task) -> Played:
    return play_deal(*task)


def compare(
    variants: dict[str, Settings],
    seeds: int,
    seed: int,
    samples: int = 300,
    budget: float = DEFAULT_BUDGET,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[Played]:
    """Every deal of `seeds` seeds from `seed`, the expert once in each seat."""
    tasks: list[_Task] = [
        (s, seat, variants, samples, budget)
        for s in range(seed, seed + seeds)
        for seat in range(PLAYERS)
    ]

    def run() -> Iterator[Played]:
        if jobs == 1 or "fork" not in get_all_start_methods():
            yield from map(_play, tasks)
            return
        with get_context("fork").Pool(jobs) as pool:
            yield from pool.imap_unordered(_play, tasks)

    out = []
    for played in run():
        out.append(played)
        if progress is not None:
            progress(1)
    return out


@dataclass(frozen=True)
class Summary:
    name: str
    changed: int
    choices: int
    gain: float
    """Points of percentage of the wins per deal."""
    error: float
    count: float
    """The mean change of the count at the changed choices (0 when none changed)."""


def summarize(name: str, deals: Sequence[Played]) -> Summary:
    per_deal = [100 * sum(c.wins for c in p.changes[name]) for p in deals]
    changes = [c for p in deals for c in p.changes[name]]
    error = statistics.stdev(per_deal) / len(per_deal) ** 0.5 if len(per_deal) > 1 else 0.0
    count = statistics.fmean(c.count for c in changes) if changes else 0.0
    return Summary(
        name,
        len(changes),
        sum(p.choices for p in deals),
        statistics.fmean(per_deal),
        error,
        count,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The expert's settings, choice by choice.")
    parser.add_argument("--variant", action="append", required=True, help="NAME:field=value,...")
    parser.add_argument("--seeds", type=int, default=25, help="seeds (4 deals each; default 25)")
    parser.add_argument("--seed", type=int, default=9000, help="first seed (default 9000)")
    parser.add_argument("--samples", type=int, default=300, help="deals to judge a change on")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help="seconds a move")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args(argv)
    try:
        variants = dict(parse_variant(text) for text in args.variant)
    except ValueError as error:
        parser.error(str(error))
    from tqdm import tqdm  # type: ignore[import-untyped]

    total = args.seeds * PLAYERS
    with tqdm(total=total, unit="deal", file=sys.stderr, disable=None) as bar:
        deals = compare(
            variants, args.seeds, args.seed, args.samples, args.budget, args.jobs, bar.update
        )
    print(
        f"{total} deals (seeds {args.seed}-{args.seed + args.seeds - 1}, the expert in every "
        f"seat against three careful bots), changes judged on {args.samples} drawn deals"
    )
    for name in variants:
        s = summarize(name, deals)
        print(
            f"{s.name}: {s.changed} of {s.choices} choices changed; wins {s.gain:+.2f} "
            f"± {s.error:.2f} points of percentage a deal; count {s.count:+.1f} at those choices"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
