"""The expert in lesson 10: its tournaments against the kit's other bots, as the lesson shows them.

A tournament (`penang-rummy tournament --json`) plays duplicate deals and reports every bot of its
lineup; `figures(reports)` keeps what the lesson shows of each (the lineup, the deals, and per
bot its share of the wins, mean count, count difference against the field with its 95% interval,
deaths and time per move) and the command that plays it again. The lesson loads the result from
its data file, so that no page plays a tournament when it opens. Rebuild that file with the
commands in `COMMANDS` (about 100 minutes on two cores), then

    python -m penang_lib.data.expert_lab careful.json greedy.json heads_up.json \
        --out notebooks/lessons/data/10_expert.json

where each JSON file is what one of those commands printed. No Jupyter and no plotting here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

__all__ = ["COMMANDS", "DATA_FILE", "FORMAT", "command", "figures", "main", "tournament_figure"]

FORMAT: Final = 1
"""The layout of the figures; bump it when a key changes, so an old cached file is caught."""
DATA_FILE: Final = "notebooks/lessons/data/10_expert.json"
"""Where the cached figures live, from the repository's root."""
COMMANDS: Final = (
    "penang-rummy tournament --bots expert,careful,careful,careful --deals 500 --seed 5000 "
    "--jobs 2 --json > careful.json",
    "penang-rummy tournament --bots expert,greedy,greedy,greedy --deals 15 --seed 6000 "
    "--jobs 2 --json > greedy.json",
    "penang-rummy tournament --bots expert,careful --deals 50 --seed 7000 --jobs 2 "
    "--json > heads_up.json",
)
"""The tournaments behind the shipped file (the expert at its default budget)."""
EXPERT: Final = "expert"
DIGITS: Final = 4
"""Rates and means are rounded to this many decimals."""
BOT_KEYS: Final = (
    "bot",
    "seats",
    "wins",
    "win_rate",
    "mean_count",
    "mean_difference",
    "interval_95",
    "death_rate",
    "passport_failure_rate",
    "seconds_per_move",
)
"""What the lesson keeps of each bot's standing."""


def _round(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, DIGITS)
    if isinstance(value, list):
        return [_round(v) for v in value]
    if isinstance(value, dict):
        return {k: _round(v) for k, v in value.items()}
    return value


def command(report: Mapping[str, Any]) -> str:
    """The command line that plays the tournament of `report` again (without `--json`)."""
    text = (
        f"penang-rummy tournament --bots {','.join(report['lineup'])} "
        f"--deals {report['deals']} --seed {report['seed']}"  # not for learners: a shell command
    )
    if report.get("budget") is not None:
        text += f" --budget {report['budget']}"  # not for learners: a shell command
    return text


def tournament_figure(report: Mapping[str, Any]) -> dict[str, Any]:
    """What the lesson shows of one tournament `report` (as `penang-rummy tournament --json`
    prints it): `lineup`, `players`, `deals` (seeds), `games` (deals played: one per rotation of
    each seed), `opponent` (the bot the expert meets), `command`, and `bots`, each bot's
    standing. `ValueError` when the report is not a tournament of the expert against one kind of
    bot."""
    try:
        lineup = [str(name) for name in report["lineup"]]
        bots = {str(b["bot"]): {k: _round(b[k]) for k in BOT_KEYS} for b in report["bots"]}
        figure = {
            "lineup": lineup,
            "players": int(report["players"]),
            "deals": int(report["deals"]),
            "games": int(report["games"]),
        }
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(
            f"not a tournament report (penang-rummy tournament --json): {error}"
        ) from None
    others = sorted(set(lineup) - {EXPERT})
    if lineup.count(EXPERT) != 1 or len(others) != 1:
        raise ValueError(
            "each tournament of the lesson seats one expert against one kind of bot, "
            f"not {', '.join(lineup)}"
        )
    return {**figure, "opponent": others[0], "command": command(report), "bots": bots}


def figures(reports: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The lesson's data: `format` and `tournaments`, one `tournament_figure` per report, in
    the order given."""
    if not reports:
        raise ValueError("give at least one tournament report")
    return {"format": FORMAT, "tournaments": [tournament_figure(r) for r in reports]}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m penang_lib.data.expert_lab",
        description=(
            "Gather tournament reports (penang-rummy tournament --json) "
            "for lesson 10."  # not for learners: terminal help
        ),
    )
    parser.add_argument(
        "reports",
        nargs="+",
        help="JSON files printed by the tournaments",  # not for learners: terminal help
    )
    parser.add_argument(
        "--out",
        required=True,
        help=f"where to write (the lesson's: {DATA_FILE})",  # not for learners: terminal help
    )
    args = parser.parse_args(argv)
    try:
        reports = [json.loads(Path(p).read_text(encoding="utf-8")) for p in args.reports]
        data = figures(reports)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
