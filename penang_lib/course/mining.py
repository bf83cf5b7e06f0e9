"""The miner: puzzles found in bot deals and proved by the engine (`puzzles.solve`).

`mine(count, seed)` lets bots play seeded deals and looks at every position where a turn starts:
for the player to move it asks each exact kind of puzzle whether the position is one (a first
turn for `passport` and `dead.passport`; after the passport for `lay-off`, `swap`, `dead`,
`game` (with at most `MAX_GAME_HAND` cards in hand) and `deadwood` (at most
`MAX_DEADWOOD_HAND`). A position is kept only when the proof holds, and only once (its id is a
digest of the hand, the table and the passport). Each kind gets an equal share of `count`; when
a kind is short after `max_deals` deals, the others fill in (each is mined up to twice its
share).

`strategy` puzzles are asked for apart, by number (`mine(..., strategy=N)`), and mined in a pass
of their own over the same deals after the exact kinds, so that asking for them changes none of
the exact puzzles. Weighing a position costs about a second (`STRATEGY_SAMPLES` playouts for
each start), so in each deal only every `STRATEGY_EVERY`-th turn start after the passport is
weighed, and at most `STRATEGY_PER_DEAL` of them.

Deal i is dealt with seed `seed` x 1,000,003 + i, and, unless `bots` names them, its seats are
played by the bot mix `MIXES[i % len(MIXES)]` (careful, greedy and random bots in turn, so that
the positions differ: careful bots keep big hands, greedy ones empty them fast).

The shipped set, notebooks/lessons/data/puzzles.json, was made in two steps. Its 60 exact
puzzles by:

    penang-rummy puzzles --mine 60 --seed 1 --out notebooks/lessons/data/puzzles.json

with the bots of that day (they have changed since, so the command now finds other positions).
Its 8 strategy puzzles are those of:

    penang-rummy puzzles --mine 60 --seed 1 --strategy 8 --out strategy.json

added to the set (`puzzles_from_json`, then `puzzles_to_json` of both, sorted by difficulty then
id): the strategy pass does not depend on the exact one, so this command still finds them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from penang_lib.course.puzzles import (
    EXACT_KINDS,
    MAX_DEADWOOD_HAND,
    MAX_GAME_HAND,
    PUZZLE_KINDS,
    STRATEGY_SAMPLES,
    Puzzle,
    Solution,
    position_id,
    puzzle_at,
    solve,
)
from penang_lib.engine.bots import bot_names, seat_bots
from penang_lib.engine.deal import Deal
from penang_lib.engine.expert import MAX_SAMPLES
from penang_lib.engine.rules import Rules
from penang_lib.engine.validate import MAX_SEED, ArgumentTypeError, require_whole, shown

__all__ = [
    "MAX_COUNT",
    "MINING_BUDGET",
    "MIXES",
    "SEED_STEP",
    "STRATEGY_EVERY",
    "STRATEGY_PER_DEAL",
    "coverage",
    "mine",
]

MIXES: Final[tuple[tuple[str, ...], ...]] = (
    ("careful",),
    ("greedy",),
    ("careful", "greedy", "random"),
    ("greedy", "random"),
    ("random", "careful", "greedy", "careful"),
)
"""The bot mixes the deals cycle through (names cycled to the seats)."""
SEED_STEP: Final = 1_000_003
MINING_BUDGET: Final = 500
"""The `game` search budget while mining (smaller than the proof's: what it proves, the proof
proves too, and positions too large to settle quickly are passed over sooner)."""
MAX_COUNT: Final = 1000
"""The most puzzles one run mines."""
DEALS_PER_PUZZLE: Final = 60
"""By default a run plays at most this many deals per puzzle asked for before it stops."""
FIRST_TURN: Final[tuple[str, ...]] = ("passport", "dead.passport")
LATER_TURN: Final[tuple[str, ...]] = ("lay-off", "swap", "dead", "game", "deadwood")
STRATEGY_PER_DEAL: Final = 2
"""Positions of one deal weighed for `strategy`, at most (each costs about a second)."""
STRATEGY_EVERY: Final = 3
"""In a deal, only every this-many-th turn start after a passport is weighed for `strategy`
(the first, the fourth, ...), so that the positions weighed spread over the deal."""


def _kinds(kinds: object) -> tuple[str, ...]:
    if isinstance(kinds, str) or not isinstance(kinds, Iterable):
        raise ArgumentTypeError(f"kinds should be a list of puzzle kinds, not {shown(kinds)}")
    chosen = tuple(kinds)
    if "strategy" in chosen:
        raise ValueError("strategy puzzles are asked for by number (strategy=N), not as a kind")
    unknown = [k for k in chosen if k not in PUZZLE_KINDS]
    if unknown or not chosen:
        raise ValueError(
            f"name puzzle kinds among {', '.join(EXACT_KINDS)}"
            + (f", not {shown(unknown[0])}" if unknown else "")
        )
    return chosen


def _progress_bar(total: int) -> Any:
    from tqdm.auto import tqdm  # type: ignore[import-untyped]

    return tqdm(total=total, desc="puzzles", unit="puzzle")


def _candidates(deal: Deal, wanted: set[str]) -> list[str]:
    """The kinds worth asking about at this position (a turn's start, for the player to move)."""
    if deal.actions or deal.is_over:
        return []
    me = deal.turn
    if not deal.passport[me]:
        return [k for k in FIRST_TURN if k in wanted]
    later = [k for k in LATER_TURN if k in wanted]
    size = deal.hand_size(me)
    if size > MAX_GAME_HAND:
        later = [k for k in later if k != "game"]
    if size > MAX_DEADWOOD_HAND:
        later = [k for k in later if k != "deadwood"]
    return later


def _select(found: dict[str, list[Puzzle]], count: int, share: int) -> list[Puzzle]:
    """Each kind's first `share` puzzles, then the rest in turn, kind by kind, up to `count`."""
    chosen = [p for kind in found for p in found[kind][:share]]
    spare = [found[kind][share:] for kind in found]
    depth = 0
    while len(chosen) < count and any(depth < len(s) for s in spare):
        for extra in spare:
            if depth < len(extra) and len(chosen) < count:
                chosen.append(extra[depth])
        depth += 1
    return sorted(chosen[:count], key=lambda p: (p.difficulty, p.id))


def mine(
    count: int,
    seed: int,
    players: int = 4,
    bots: str | Sequence[str] | None = None,
    progress: bool = True,
    kinds: Sequence[str] = EXACT_KINDS,
    max_deals: int | None = None,
    rules: Rules | None = None,
    strategy: int = 0,
    samples: int = STRATEGY_SAMPLES,
) -> list[Puzzle]:
    """`count` puzzles of the exact kinds mined from seeded bot deals, and `strategy` more of
    the `strategy` kind, each proved, sorted by difficulty then id.

    `kinds` (exact kinds) share the count equally; `bots` (names cycled to the seats) replaces
    the cycle of `MIXES`; `max_deals` (default `DEALS_PER_PUZZLE` x the puzzles asked for, in
    each pass) bounds the deals played, so a run may return fewer puzzles than asked when the
    positions are rare. `progress` shows a tqdm bar of the puzzles kept. `samples` is the number
    of deals drawn to weigh the starts of a `strategy` position (fewer are quicker and prove
    fewer positions; each puzzle keeps its number, so `prove` weighs it the same way)."""
    count = require_whole(count, "count", 1, MAX_COUNT)
    seed = require_whole(seed, "seed", 0)
    strategy = require_whole(strategy, "strategy", 0, MAX_COUNT)
    samples = require_whole(samples, "samples", 2, MAX_SAMPLES)
    limit = (
        DEALS_PER_PUZZLE * count if max_deals is None else require_whole(max_deals, "max_deals", 1)
    )
    weighed_deals = DEALS_PER_PUZZLE * strategy if max_deals is None else limit
    if seed * SEED_STEP + max(limit, weighed_deals) > MAX_SEED:
        raise ValueError(
            f"the seed {seed} is too large: deal i is dealt with seed x {SEED_STEP:,} + i, which "
            "must stay below 2**63"
        )
    if not isinstance(progress, bool):
        raise ArgumentTypeError(f"progress should be True or False, not {shown(progress)}")
    chosen = _kinds(kinds)
    rules = Rules.of(rules)
    rules.require_deal(require_whole(players, "players"))
    mixes = (
        [bot_names(bots, players)] if bots is not None else [bot_names(m, players) for m in MIXES]
    )
    share = max(1, count // len(chosen))
    found: dict[str, list[Puzzle]] = {kind: [] for kind in chosen}
    seen: set[str] = set()
    bar = _progress_bar(count + strategy) if progress else None
    shown_count = 0
    weighed: list[Puzzle] = []
    try:
        for number in range(limit):
            short = [k for k in chosen if len(found[k]) < share]
            if not short and sum(len(v) for v in found.values()) >= count:
                break
            # Every kind is mined up to twice its share, so that others can fill in for a kind
            # that stays short.
            wanted = {k for k in chosen if len(found[k]) < 2 * share}
            deal_seed = seed * SEED_STEP + number
            deal = Deal(players, deal_seed, rules)
            seats = seat_bots(mixes[number % len(mixes)], deal_seed)
            _mine_deal(deal, seats, wanted, found, seen)
            if bar is not None:
                now = min(count, sum(min(len(v), share) for v in found.values()))
                bar.update(now - shown_count)
                shown_count = now
                bar.set_postfix(deals=number + 1, refresh=False)
        for number in range(weighed_deals if strategy else 0):
            if len(weighed) >= strategy:
                break
            deal_seed = seed * SEED_STEP + number
            deal = Deal(players, deal_seed, rules)
            seats = seat_bots(mixes[number % len(mixes)], deal_seed)
            kept = len(weighed)
            _weigh_deal(deal, seats, weighed, seen, samples)
            if bar is not None:
                bar.update(min(len(weighed), strategy) - min(kept, strategy))
                bar.set_postfix(weighed_deals=number + 1, refresh=False)
    finally:
        if bar is not None:
            bar.close()
    exact = _select(found, count, share)
    return sorted([*exact, *weighed[:strategy]], key=lambda p: (p.difficulty, p.id))


def _mine_deal(
    deal: Deal,
    seats: Sequence[Any],
    wanted: set[str],
    found: dict[str, list[Puzzle]],
    seen: set[str],
) -> None:
    """Play one deal with its bots, keeping every proved puzzle of the `wanted` kinds."""
    from penang_lib.engine.bots import play_move

    while not deal.is_over:
        for kind in _candidates(deal, wanted):
            solved = solve(deal, kind, budget=MINING_BUDGET)
            if not isinstance(solved, Solution):
                continue
            puzzle_id = position_id(deal, kind)
            if puzzle_id in seen:
                continue
            seen.add(puzzle_id)
            found[kind].append(puzzle_at(deal, kind, puzzle_id, solved))
        play_move(deal, seats[deal.turn])


def _weigh_deal(
    deal: Deal, seats: Sequence[Any], found: list[Puzzle], seen: set[str], samples: int
) -> None:
    """Play one deal with its bots, weighing every `STRATEGY_EVERY`-th turn start after a
    passport (at most `STRATEGY_PER_DEAL` of them) and keeping each proved `strategy` puzzle."""
    from penang_lib.engine.bots import play_move

    starts = weighed = 0
    while not deal.is_over and weighed < STRATEGY_PER_DEAL:
        if not deal.actions and deal.passport[deal.turn]:
            if starts % STRATEGY_EVERY == 0:
                weighed += 1
                _keep_strategy(deal, found, seen, samples)
            starts += 1
        play_move(deal, seats[deal.turn])


def _keep_strategy(deal: Deal, found: list[Puzzle], seen: set[str], samples: int) -> None:
    puzzle_id = position_id(deal, "strategy")
    if puzzle_id in seen:
        return
    solved = solve(deal, "strategy", samples=samples)
    if isinstance(solved, Solution):
        seen.add(puzzle_id)
        found.append(puzzle_at(deal, "strategy", puzzle_id, solved))


def coverage(puzzles: Iterable[Puzzle]) -> dict[str, int]:
    """How many puzzles there are of each kind, in the order of `PUZZLE_KINDS` (every kind
    listed, 0 when absent)."""
    counts = dict.fromkeys(PUZZLE_KINDS, 0)
    for puzzle in puzzles:
        counts[puzzle.kind] += 1
    return counts
