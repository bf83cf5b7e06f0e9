"""Golden transcripts: seeded deals played by each bot, kept in `tests/engine/golden/` and compared
move by move, so that any change in the rules or the bots shows up as a diff someone reviews.

Each file is the deal's JSON record (`record.to_record`, loadable with `record.loads`) plus the
bots seated and each move's reason. After an intended change, regenerate them and review the diff:

    python -m tests.engine.test_golden --regenerate
    PENANG_REGENERATE_GOLDEN=1 pytest tests/engine/test_golden.py   (the same, from pytest)
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from penang_lib.engine.bots import bot_names, play_deal_explained
from penang_lib.engine.moves import move_to_dict
from penang_lib.engine.record import from_record, to_record

DATA = Path(__file__).parent / "golden"
REGENERATE = "PENANG_REGENERATE_GOLDEN"

CASES: list[tuple[str, int, int]] = [
    ("random", 3, 1),
    ("random", 4, 2),
    ("greedy", 3, 3),
    ("greedy", 4, 4),
    ("careful", 3, 5),
    ("careful", 4, 6),
    ("careful,greedy,random,careful", 4, 7),
]
"""(bots, players, seed) of every golden deal."""


def path_of(bots: str, players: int, seed: int) -> Path:
    name = "mixed" if "," in bots else bots
    return DATA / f"golden_{name}_{players}p_seed{seed}.json"


def golden(bots: str, players: int, seed: int) -> dict[str, Any]:
    """The record of the deal as the bots play it now, with the bots and each move's reason."""
    deal, choices = play_deal_explained(seed, players, bots)
    data = to_record(deal)
    data["bots"] = list(bot_names(bots, players))
    for move, choice in zip(data["moves"], choices, strict=True):
        move["why"] = choice.why
    return data


def dumps(data: dict[str, Any]) -> str:
    """JSON with one move per line, so that a diff shows moves, not braces."""
    rest = {k: v for k, v in data.items() if k != "moves"}
    text = json.dumps(rest, indent=2, ensure_ascii=False)
    moves = ",\n".join("    " + json.dumps(m, ensure_ascii=False) for m in data["moves"])
    return text[: text.rindex("}")].rstrip() + f',\n  "moves": [\n{moves}\n  ]\n}}\n'


def regenerate(cases: Sequence[tuple[str, int, int]] = CASES) -> list[Path]:
    DATA.mkdir(exist_ok=True)
    written = []
    for bots, players, seed in cases:
        path = path_of(bots, players, seed)
        path.write_text(dumps(golden(bots, players, seed)), encoding="utf-8")
        written.append(path)
    return written


@pytest.mark.parametrize(("bots", "players", "seed"), CASES)
def test_golden_deal(bots: str, players: int, seed: int) -> None:
    path = path_of(bots, players, seed)
    if os.environ.get(REGENERATE):
        regenerate([(bots, players, seed)])
    assert path.exists(), (
        f"{path.name} is missing: run python -m tests.engine.test_golden --regenerate"
    )
    stored = json.loads(path.read_text(encoding="utf-8"))
    # The stored record is a legal deal: it replays through the engine to the same end.
    replayed = from_record(stored)
    assert replayed.is_over
    assert stored["bots"] == list(bot_names(bots, players))
    # The bots play it again move by move, for the same reasons.
    now = golden(bots, players, seed)
    pairs = zip(stored["moves"], now["moves"], strict=False)  # a length change is checked below
    for number, (then, played) in enumerate(pairs, start=1):
        assert played == then, f"{path.name}: move {number} differs"
    assert len(now["moves"]) == len(stored["moves"]), f"{path.name}: the deal's length changed"
    for key in ("initial_hands", "table", "final_hands", "scores", "winners"):
        assert now[key] == stored[key], f"{path.name}: {key} differs"


def test_golden_files_are_what_the_record_writes() -> None:
    bots, players, seed = CASES[0]
    stored = json.loads(path_of(bots, players, seed).read_text(encoding="utf-8"))
    deal = from_record(stored)
    record = to_record(deal)
    assert [{k: v for k, v in m.items() if k != "why"} for m in stored["moves"]] == record["moves"]
    assert {k: v for k, v in stored.items() if k not in ("moves", "bots")} == {
        k: v for k, v in record.items() if k != "moves"
    }
    assert record["moves"][0] == {"player": deal.movers[0], **move_to_dict(deal.move_stack[0])}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.test_golden", description=__doc__)
    parser.add_argument("--regenerate", action="store_true", help="rewrite every golden file")
    args = parser.parse_args(argv)
    if not args.regenerate:
        parser.print_help()
        return 2
    for path in regenerate():
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
