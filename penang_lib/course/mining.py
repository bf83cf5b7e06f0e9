"""The miner: puzzles found in bot deals and proved by the engine (`puzzles.solve`).

`mine(count, seed)` lets bots play seeded deals and looks at every position where a turn starts:
for the player to move it asks each kind of puzzle whether the position is one (a first turn
for `passport` and `dead.passport`; after the passport for `lay-off`, `swap`, `dead`, `game`
(with at most `MAX_GAME_HAND` cards in hand) and `deadwood` (at most `MAX_DEADWOOD_HAND`). A
position is kept only when the proof holds, and only once (its id is a digest of the hand, the
table and the passport). Each kind gets an equal share of `count`; when a kind is short after
`max_deals` deals, the others fill in (each is mined up to twice its share).

Deal i is dealt with seed `seed` x 1,000,003 + i, and, unless `bots` names them, its seats are
played by the bot mix `MIXES[i % len(MIXES)]` (careful, greedy and random bots in turn, so that
the positions differ: careful bots keep big hands, greedy ones empty them fast).

The shipped set, notebooks/lessons/data/puzzles.json, was made by:

    penang-rummy puzzles --mine 60 --seed 1 --out notebooks/lessons/data/puzzles.json
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from penang_lib.course.puzzles import (
    MAX_DEADWOOD_HAND,
    MAX_GAME_HAND,
    PUZZLE_KINDS,
    Puzzle,
    Solution,
    position_id,
    puzzle_at,
    solve,
)
from penang_lib.engine.bots import bot_names, seat_bots
from penang_lib.engine.deal import Deal
from penang_lib.engine.rules import Rules
from penang_lib.engine.validate import MAX_SEED, ArgumentTypeError, require_whole, shown

__all__ = ["MAX_COUNT", "MINING_BUDGET", "MIXES", "SEED_STEP", "coverage", "mine"]

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


def _kinds(kinds: object) -> tuple[str, ...]:
    if isinstance(kinds, str) or not isinstance(kinds, Iterable):
        raise ArgumentTypeError(f"kinds should be a list of puzzle kinds, not {shown(kinds)}")
    chosen = tuple(kinds)
    unknown = [k for k in chosen if k not in PUZZLE_KINDS]
    if unknown or not chosen:
        raise ValueError(
            f"name puzzle kinds among {', '.join(PUZZLE_KINDS)}"
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
    kinds: Sequence[str] = PUZZLE_KINDS,
    max_deals: int | None = None,
    rules: Rules | None = None,
) -> list[Puzzle]:
    """`count` puzzles mined from seeded bot deals, each proved, sorted by difficulty then id.

    `kinds` share the count equally; `bots` (names cycled to the seats) replaces the cycle of
    `MIXES`; `max_deals` (default `DEALS_PER_PUZZLE` x `count`) bounds the deals played, so a
    run may return fewer puzzles than asked when the positions are rare. `progress` shows a
    tqdm bar of the puzzles kept."""
    count = require_whole(count, "count", 1, MAX_COUNT)
    seed = require_whole(seed, "seed", 0)
    limit = (
        DEALS_PER_PUZZLE * count if max_deals is None else require_whole(max_deals, "max_deals", 1)
    )
    if seed * SEED_STEP + limit > MAX_SEED:
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
    bar = _progress_bar(count) if progress else None
    shown_count = 0
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
    finally:
        if bar is not None:
            bar.close()
    return _select(found, count, share)


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


def coverage(puzzles: Iterable[Puzzle]) -> dict[str, int]:
    """How many puzzles there are of each kind, in the order of `PUZZLE_KINDS` (every kind
    listed, 0 when absent)."""
    counts = dict.fromkeys(PUZZLE_KINDS, 0)
    for puzzle in puzzles:
        counts[puzzle.kind] += 1
    return counts
