"""The `penang-rummy` command: `check`, `deal` (transcript, JSON record, --shows) and `simulate`.

Exit codes: 0 done (a legal meld for `check`), 1 an illegal meld or no deal found, 2 bad
arguments, always as one line on stderr and never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from penang_lib import explain, loads
from penang_lib.cli import main
from penang_lib.data.simulate import usable_jobs
from penang_lib.engine.bots import play_deal, play_deal_explained
from penang_lib.engine.moves import MOVE_TYPES

Capture = pytest.CaptureFixture[str]


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_exit(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    """`run` for arguments argparse itself refuses (it exits instead of returning)."""
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    out, err = capsys.readouterr()
    code = stop.value.code
    return int(code) if isinstance(code, int) else 1, out, err


# -- check (unchanged) ----------------------------------------------------------------------------
def test_check_exit_codes(capsys: Capture) -> None:
    status, out, _ = run(capsys, "check", "7H", "7H", "7C")
    assert status == 0 and "(rule set)" in out
    status, out, _ = run(capsys, "check", "KH AH 2H")
    assert status == 1 and "corner" in out
    status, _, err = run(capsys, "check", "7X")
    assert status == 2 and err.count("\n") == 1


# -- deal -----------------------------------------------------------------------------------------
def test_deal_transcript_explains_every_event(capsys: Capture) -> None:
    status, out, err = run(capsys, "deal", "--seed", "5", "--players", "3", "--bots", "greedy")
    assert status == 0 and err == ""
    deal, choices = play_deal_explained(5, 3, "greedy")
    assert out.startswith("Deal seed 5, 3 players: North (greedy), East (greedy), South (greedy).")
    assert f"Turn 1: {deal.names[deal.movers[0]]} (greedy)" in out
    for event in deal.events:
        assert f"[{event.rule}] {explain(event, deal.names)}" in out
    for move, choice in zip(deal.move_stack, choices, strict=True):
        assert f"{move.label()}  ({choice.why})" in out
    assert out.count("\nTurn ") == deal.turn_number


def test_deal_json_loads_back_as_the_record(capsys: Capture) -> None:
    status, out, _ = run(capsys, "deal", "--seed", "8", "--bots", "careful,random", "--json")
    assert status == 0
    record = json.loads(out)
    for key in ("rules", "seed", "players", "dealer", "moves", "initial_hands", "table"):
        assert key in record
    for key in ("final_hands", "scores"):
        assert key in record
    assert record["seed"] == 8 and record["players"] == 4
    assert all({"player", "type"} <= set(m) and m["type"] in MOVE_TYPES for m in record["moves"])
    deal = loads(out)
    expected = play_deal(8, 4, "careful,random")
    assert deal.state_key() == expected.state_key()
    assert deal.is_over and deal.scores == record["scores"]


def test_deal_defaults_to_seed_zero_and_careful_bots(capsys: Capture) -> None:
    status, out, _ = run(capsys, "deal", "--json")
    assert status == 0
    assert loads(out).move_stack == play_deal(0, 4, "careful").move_stack


def test_deal_shows_finds_a_deal_with_the_rules(capsys: Capture) -> None:
    status, out, _ = run(capsys, "deal", "--shows", "swap,game", "--players", "3")
    assert status == 0
    first = out.splitlines()[0]
    assert first.startswith("Seed ") and first.endswith("shows swap, game.")
    seed = int(first.split()[1])
    deal = play_deal(seed, 3, "careful,greedy,careful,random")
    rules = {e.rule for e in deal.events}
    assert {"swap", "game"} <= rules
    assert "[swap]" in out and "[game]" in out


def test_deal_shows_json(capsys: Capture) -> None:
    status, out, _ = run(capsys, "deal", "--shows", "lay-off", "--bots", "random", "--json")
    assert status == 0
    deal = loads(out)
    assert "lay-off" in {e.rule for e in deal.events}


def test_deal_shows_nothing_found_is_exit_1(capsys: Capture) -> None:
    status, out, err = run(capsys, "deal", "--shows", "dead.passport", "--limit", "3")
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "no deal from seed 0 to 2" in err


# -- simulate -------------------------------------------------------------------------------------
def test_simulate_table(capsys: Capture) -> None:
    status, out, _ = run(capsys, "simulate", "--deals", "6", "--bots", "careful,random")
    assert status == 0
    assert out.startswith("6 deals, 4 players (careful, random, careful, random), seed 0")
    for words in ("passport failures", "nobody went out", "mean turns", "win rate"):
        assert words in out
    assert "\n  careful " in out and "\n  random " in out


def test_simulate_json(capsys: Capture) -> None:
    status, out, _ = run(
        capsys, "simulate", "--deals", "8", "--players", "3", "--seed", "4", "--json"
    )
    assert status == 0
    result = json.loads(out)
    for key in (
        "deals",
        "seconds",
        "deals_per_second",
        "passport_failure_rate",
        "nobody_out_rate",
        "mean_turns",
    ):
        assert key in result
    assert result["deals"] == 8 and result["players"] == 3 and result["seed"] == 4
    assert set(result["bots"]) == {"careful"}
    assert {"win_rate", "mean_count"} <= set(result["bots"]["careful"])


def test_simulate_jobs_and_csv(capsys: Capture, tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    status, out, _ = run(
        capsys, "simulate", "--deals", "5", "--jobs", "2", "--csv", str(path), "--json"
    )
    assert status == 0
    frame = pd.read_csv(path)
    assert len(frame) == 20 and "outcome" in frame.columns
    assert json.loads(out)["jobs"] == usable_jobs(2)  # at most one worker per core


@pytest.mark.parametrize(
    "argv",
    [
        ["deal", "--players", "7"],
        ["deal", "--players", "two"],
        ["deal", "--seed", "abc"],
        ["deal", "--bots", "careful,clever"],
        ["deal", "--bots", ""],
        ["deal", "--shows", "swap,bluffing"],
        ["deal", "--shows", "swap", "--limit", "0"],
        ["simulate"],
        ["simulate", "--deals", "0"],
        ["simulate", "--deals", "-3"],
        ["simulate", "--deals", "many"],
        ["simulate", "--deals", "5", "--jobs", "0"],
        ["simulate", "--deals", "5", "--players", "1"],
        ["simulate", "--deals", "5", "--bots", "random,"],
        ["shuffle"],
        [],
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(capsys: Capture, argv: list[str]) -> None:
    status, out, err = run_exit(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("penang-rummy: ")
    assert "Traceback" not in err


def test_unwritable_csv_is_exit_2(capsys: Capture, tmp_path: Path) -> None:
    path = tmp_path / "missing" / "rows.csv"
    status, out, err = run(capsys, "simulate", "--deals", "2", "--csv", str(path))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "cannot write" in err
