"""The strategy lab: the numbers of lesson 10, from many deals played by bots.

The rule book says that passports rarely fail, that a deal often ends with nobody out, that
careful play beats greedy play and that counts fall turn by turn; this module measures each of
those on `simulate` frames (and, for the counts turn by turn, on the deals played again with
`play_deal`). `build()` returns every figure as plain JSON-ready data, which the lesson loads from
its data file, so that no page simulates when it opens. Rebuild that file with

    python -m penang_lib.data.lab --deals 2000 --out notebooks/lessons/data/10_strategy_lab.json

No Jupyter and no plotting here: the lesson draws the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from penang_lib.data.simulate import simulate
from penang_lib.engine.bots import bot_names, play_deal
from penang_lib.engine.cards import cards_symbols, cards_text, parse_cards
from penang_lib.engine.checks import can_play
from penang_lib.engine.deal import Deal
from penang_lib.engine.moves import DeclareDead, DeclareGame, EndTurn
from penang_lib.i18n import N_, _

if TYPE_CHECKING:
    import pandas as pd

FORMAT = 2
"""The layout of the figures; bump it when a key changes, so an old cached file is caught."""
DEFAULT_DEALS = 2000
"""Deals per table in the cached file."""
DEFAULT_SEED = 0
DEFAULT_JOBS = 2
DATA_FILE = "notebooks/lessons/data/10_strategy_lab.json"
"""Where the cached figures live, from the repository's root."""
COMMAND = (
    f"python -m penang_lib.data.lab --deals {DEFAULT_DEALS} "
    f"--out {DATA_FILE}"  # not for learners: a shell command
)
"""The command that rebuilds the cached file."""
MAX_TURNS = 40
"""The counts turn by turn stop after this many turns of each player."""
DIGITS = 4
"""Rates and means are rounded to this many decimals (the cached file stays a few KB)."""


@dataclass(frozen=True)
class Table:
    """One kind of table the lab plays: how many players, and the bots (cycled to the seats)."""

    name: str
    players: int
    bots: str


TABLES: tuple[Table, ...] = (
    Table("careful", 4, "careful"),
    Table("greedy", 4, "greedy"),
    Table("random", 4, "random"),
    Table("mixed", 4, "careful,greedy,random"),
    Table("2 players", 2, "careful"),
    Table("3 players", 3, "careful"),
    Table("5 players", 5, "careful"),
)
"""Every table of the lab. The four-player tables compare bots; the careful tables of 2 to 5
players compare table sizes (the careful four-player table is shared by both)."""
BOT_TABLES = ("careful", "greedy", "random", "mixed")
"""The four-player tables whose bots the figures compare."""
PLAYER_TABLES = {2: "2 players", 3: "3 players", 4: "careful", 5: "5 players"}
"""The careful table of each size."""
MATCH_TABLE = "mixed"
"""Bot against bot: the table where different bots share the deals."""
TURN_TABLES = ("careful", "greedy", "random")
"""The tables whose deals are played again to follow the counts turn by turn."""


def table(name: str) -> Table:
    """The table called `name` (`ValueError` for an unknown one)."""
    for candidate in TABLES:
        if candidate.name == name:
            return candidate
    raise ValueError(f"no lab table {name!r}: the tables are {', '.join(t.name for t in TABLES)}")


def table_seed(seed: int, name: str) -> int:
    """The `simulate` seed of table `name` in a lab run seeded `seed`: every table gets deals of
    its own (deal i of a table is dealt with `deal_seed(table_seed(seed, name), i)`)."""
    index = next(i for i, t in enumerate(TABLES) if t.name == table(name).name)
    return seed * len(TABLES) + index


def _rate(part: int, whole: int) -> float:
    return round(part / whole, DIGITS) if whole else 0.0


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), DIGITS) if values else 0.0


# -- figures from simulate frames --------------------------------------------------------------
def passport_figure(frames: Iterable[pd.DataFrame]) -> dict[str, Any]:
    """How often a passport fails (rule `dead.passport`), pooled over frames of one table size:
    `deals`, `hands` (players dealt in), `failures` (players dead at the passport), `rate`
    (failures per hand), and `example`: the first hand that failed, as
    dealt (`seed`, `players`, `seat`, `hand` in card notation), with the hand of the first
    player of that deal who made a passport (`other_seat`, `other_hand`); None without one."""
    deals = hands = failures = 0
    example: dict[str, Any] | None = None
    for frame in frames:
        failed = frame["outcome"] == "passport-dead"
        deals += int(frame["deal"].nunique())
        hands += len(frame)
        failures += int(failed.sum())
        if example is None and failed.any():
            first = frame[failed].sort_values(["deal", "seat"]).iloc[0]
            rows = frame[frame["deal"] == first["deal"]].sort_values("seat")
            made = rows[rows["outcome"] != "passport-dead"]
            players = len(rows)
            seed, seat = int(first["seed"]), int(first["seat"])
            dealt = Deal(players=players, seed=seed)
            example = {
                "seed": seed,
                "players": players,
                "seat": seat,
                "hand": cards_text(dealt.hand(seat)),
                "other_seat": int(made["seat"].iloc[0]),
                "other_hand": cards_text(dealt.hand(int(made["seat"].iloc[0]))),
            }
    return {
        "deals": deals,
        "hands": hands,
        "failures": failures,
        "rate": _rate(failures, hands),
        "example": example,
    }


def nobody_out_figure(frame: pd.DataFrame) -> dict[str, Any]:
    """How often nobody goes out (rules `game` and `end`): `deals`, `nobody_out` (deals that
    ended with every player dead, or a lone survivor under the house rule) and `rate`."""
    by_deal = frame.groupby("deal")
    went_out = by_deal["outcome"].agg(lambda outcomes: bool((outcomes == "game").any()))
    deals = len(went_out)
    nobody = int((~went_out.astype(bool)).sum())
    return {
        "deals": deals,
        "nobody_out": nobody,
        "rate": _rate(nobody, deals),
    }


def bots_figure(frame: pd.DataFrame) -> dict[str, Any]:
    """Bot against bot on one table: `deals`, `lineup` (the bot of each seat) and per bot name
    `seats` (player rows), `wins` (a shared win counts for each winner), `win_rate` and
    `mean_count` (rule `scoring`: the lower the better)."""
    lineup = [str(b) for b in frame.sort_values("seat").drop_duplicates("seat")["bot"]]
    by_bot: dict[str, dict[str, Any]] = {}
    for name, rows in frame.groupby("bot", sort=True):
        seats = len(rows)
        wins = int(rows["won"].sum())
        counts = [int(c) for c in rows["count"]]
        by_bot[str(name)] = {
            "seats": seats,
            "wins": wins,
            "win_rate": _rate(wins, seats),
            "mean_count": _mean(counts),
        }
    return {"deals": int(frame["deal"].nunique()), "lineup": lineup, "by_bot": by_bot}


# -- counts turn by turn, from deals played again -------------------------------------------------
def count_series(deal: Deal) -> list[list[int]]:
    """Each player's count as dealt and after each of their own turns, by playing `deal`'s
    moves again from the start on a copy (the deal itself is not changed).

    A turn ends with End turn, Dead or Game; a count changes only on its player's own turn (a
    meld or lay-off lowers it, a swap changes a card for a joker), so the list of a player is
    complete. Its last value is the player's final count (rule `scoring`).
    """
    replay = deal.copy()
    moves = list(replay.move_stack)
    while replay.move_stack:
        replay.pop()
    series = [[replay.count(p)] for p in range(replay.players)]
    for move in moves:
        mover = replay.turn
        replay.push(move)
        if isinstance(move, EndTurn | DeclareDead | DeclareGame):
            series[mover].append(replay.count(mover))
    return series


def turns_figure(
    played: Iterable[tuple[Sequence[Sequence[int]], Sequence[int]]], max_turns: int = MAX_TURNS
) -> dict[str, Any]:
    """The mean count after each player's t-th turn (t = 0: as dealt), from deals given as
    (`count_series`, winners). A player who stopped (dead, out, or the deal over) keeps their
    last count. `deals`, `turn` (0 to the last turn anyone played, at most `max_turns`), `mean`
    (every player), `winners` (the players who won their deal), `others` (the rest), and
    `playing` (the share of players who played turn t)."""
    rows: list[tuple[list[int], bool]] = []
    deals = 0
    for series, winners in played:
        deals += 1
        won = set(winners)
        rows.extend((list(s), p in won) for p, s in enumerate(series))
    last = min(max_turns, max((len(s) - 1 for s, _ in rows), default=0))
    turn = list(range(last + 1))

    def at(s: list[int], t: int) -> int:
        return s[min(t, len(s) - 1)]

    figure: dict[str, Any] = {"deals": deals, "turn": turn}
    for key, keep in (("mean", None), ("winners", True), ("others", False)):
        chosen = [s for s, won in rows if keep is None or won is keep]
        figure[key] = [_mean([at(s, t) for s in chosen]) for t in turn]
    figure["playing"] = [_rate(sum(len(s) > t for s, _ in rows), len(rows)) for t in turn]
    return figure


def _series_of(
    job: tuple[tuple[int, ...], int, str],
) -> list[tuple[list[list[int]], list[int]]]:
    """The deals of these seeds, played again: series and winners (runs in a worker)."""
    seeds, players, bots = job
    out = []
    for seed in seeds:
        deal = play_deal(seed, players, bots)
        out.append((count_series(deal), deal.winners))
    return out


def replay_series(
    frame: pd.DataFrame, bots: str, jobs: int = 1, progress: bool = False
) -> list[tuple[list[list[int]], list[int]]]:
    """The deals of a `simulate` frame played again with `play_deal` (same seeds and `bots`):
    each deal's `count_series` and winners, in deal order. Checks that every replayed deal
    ends with the counts the frame recorded (a mismatch raises `RuntimeError`)."""
    rows = frame.sort_values(["deal", "seat"])
    seeds = [int(s) for s in rows.drop_duplicates("deal")["seed"]]
    players = int(frame["seat"].nunique())
    size = max(1, min(50, len(seeds) // (jobs * 4))) if jobs > 1 else max(1, len(seeds))
    work = [(tuple(seeds[a : a + size]), players, bots) for a in range(0, len(seeds), size)]
    bar = _bar(len(seeds), "replays") if progress else None
    results: list[tuple[list[list[int]], list[int]]] = []
    try:
        if jobs <= 1 or len(work) < 2:
            chunks: Iterable[list[tuple[list[list[int]], list[int]]]] = map(_series_of, work)
            for job, chunk in zip(work, chunks, strict=True):
                results.extend(chunk)
                if bar is not None:
                    bar.update(len(job[0]))
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for job, chunk in zip(work, pool.map(_series_of, work), strict=True):
                    results.extend(chunk)
                    if bar is not None:
                        bar.update(len(job[0]))
    finally:
        if bar is not None:
            bar.close()
    counts = rows.groupby("deal", sort=True)["count"].apply(list).tolist()
    for seed, (series, _rest), expected in zip(seeds, results, counts, strict=True):
        if [s[-1] for s in series] != [int(c) for c in expected]:
            raise RuntimeError(f"the deal of seed {seed}, played again, ended with other counts")
    return results


def _bar(total: int, what: str) -> Any:
    from tqdm.auto import tqdm  # type: ignore[import-untyped]

    return tqdm(total=total, desc=what, unit="deal")


# -- the whole lab ---------------------------------------------------------------------------
def run_tables(
    deals: int, seed: int = DEFAULT_SEED, jobs: int = 1, progress: bool = False
) -> dict[str, pd.DataFrame]:
    """`simulate` every table of `TABLES`: `deals` deals each, seeded by `table_seed`."""
    frames = {}
    for t in TABLES:
        if progress:
            print(f"{t.name}: {t.players} players, {t.bots}", file=sys.stderr)
        frames[t.name] = simulate(
            deals, t.players, t.bots, seed=table_seed(seed, t.name), jobs=jobs, progress=progress
        )
    return frames


def figures(
    frames: Mapping[str, pd.DataFrame],
    played: Mapping[str, Sequence[tuple[Sequence[Sequence[int]], Sequence[int]]]],
) -> dict[str, Any]:
    """The lab's figures from the tables' frames and the deals played again (by table name)."""
    by_size: dict[int, list[pd.DataFrame]] = {}
    for t in TABLES:
        by_size.setdefault(t.players, []).append(frames[t.name])
    return {
        "passport": {str(n): passport_figure(by_size[n]) for n in sorted(by_size)},
        "nobody_out": {
            "by_bots": {name: nobody_out_figure(frames[name]) for name in BOT_TABLES},
            "by_players": {
                str(n): nobody_out_figure(frames[name]) for n, name in PLAYER_TABLES.items()
            },
        },
        "bots": bots_figure(frames[MATCH_TABLE]),
        "turns": {name: turns_figure(played[name]) for name in TURN_TABLES},
    }


def table_spec(t: Table, seed: int, frame: pd.DataFrame) -> dict[str, Any]:
    """What a table of the lab was: `players`, `bots` (per seat), `seed` (of `simulate`) and
    `first_scores`, the counts of its first deal, so that a test can replay that one deal and
    see whether the cached figures still come from today's engine and bots."""
    first = frame[frame["deal"] == 0].sort_values("seat")
    return {
        "players": t.players,
        "bots": list(bot_names(t.bots, t.players)),
        "seed": table_seed(seed, t.name),
        "first_scores": [int(c) for c in first["count"]],
    }


def quiz(passport: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The lesson's short check, on the example hands of the four-player passport figure
    (`Quiz` questions; the right answers are the engine's, `can_play` with no passport yet).
    Empty when the run had no failed passport to show."""
    example = passport.get("4", {}).get("example")
    if not example:
        return []
    hand, other = example["hand"], example["other_hand"]
    asks = (
        (
            N_(
                "This hand was dealt to a player in one of these deals: {cards}. Can it make a "
                "passport?"
            ),
            hand,
        ),
        (
            N_(
                "Another player of the same deal was dealt: {cards}. Can this hand make a passport?"
            ),
            other,
        ),
        (
            N_("Give the first hand one joker more: {cards}. Could it make a passport then?"),
            hand + " JK",
        ),
    )
    questions = []
    for ask, cards in asks:
        symbols = cards_symbols(parse_cards(cards))
        ok = bool(can_play(cards, [], passport=False))
        if ok:
            why = _("A passport is any meld from the player's own hand, and this hand holds one.")
        else:
            why = _(
                "A passport is a meld from the player's own hand, and no three of these cards "
                "make a run or a set, so this player is dead at the first turn."
            )
        questions.append(
            {
                "ask": _(ask).format(cards=symbols),
                "can_play": {"hand": cards, "table": [], "passport": False},
                "answer": ok,
                "why": why,
            }
        )
    return questions


def digest(data: Mapping[str, Any]) -> str:
    """A fingerprint of the lab's data, `digest` itself left out: a hand edit changes it."""
    body = {k: v for k, v in data.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def build(
    deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED, jobs: int = 1, progress: bool = False
) -> dict[str, Any]:
    """Every figure of the strategy lab, JSON-ready: `format`, `deals` (per table), `seed`,
    `command`, `tables` (each table's `table_spec`), `passport`,
    `nobody_out`, `bots`, `turns`, `quiz` (the lesson's check, on the example hands) and
    `digest`. The same arguments give the same data."""
    if deals < 1:
        raise ValueError(f"the lab needs at least one deal per table ({deals})")
    frames = run_tables(deals, seed, jobs, progress)
    played = {
        name: replay_series(frames[name], table(name).bots, jobs, progress) for name in TURN_TABLES
    }
    data: dict[str, Any] = {
        "format": FORMAT,
        "deals": deals,
        "seed": seed,
        "command": COMMAND,
        "tables": {t.name: table_spec(t, seed, frames[t.name]) for t in TABLES},
        **figures(frames, played),
    }
    data["quiz"] = quiz(data["passport"])
    data["digest"] = digest(data)
    return data


def dumps(data: Mapping[str, Any]) -> str:
    """The lab's JSON text: indented, with each list of numbers or names on one line."""
    text = json.dumps(data, indent=1, ensure_ascii=False)
    flat = re.compile(r'\[\s*((?:-?[\d.eE+-]+|"[^"\n]*")(?:,\s*(?:-?[\d.eE+-]+|"[^"\n]*"))*)\s*\]')
    return flat.sub(lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m penang_lib.data.lab`: rebuild the strategy lab's cached figures."""
    parser = argparse.ArgumentParser(
        prog="python -m penang_lib.data.lab",
        description=(
            "Play many bot deals and write the strategy lab's "
            "figures as JSON."  # not for learners: terminal help
        ),
    )
    parser.add_argument(
        "--deals",
        type=int,
        default=DEFAULT_DEALS,
        help="deals per table (default %(default)s)",  # not for learners: terminal help
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help="run seed (default 0)",  # not for learners: terminal help
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=DEFAULT_JOBS,
        help="worker processes (default %(default)s)",  # not for learners: terminal help
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="the JSON file to write (default: print it)",  # not for learners: terminal help
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bars",  # not for learners: terminal help
    )
    args = parser.parse_args(argv)
    if args.deals < 1 or args.jobs < 1:
        parser.error("--deals and --jobs must be at least 1")  # not for learners: terminal help
    data = build(args.deals, args.seed, args.jobs, progress=not args.quiet)
    text = dumps(data)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
        print(
            f"wrote {args.out} ({len(text.encode('utf-8'))} bytes, "
            f"{args.deals} deals per table)",  # not for learners: terminal output
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
