"""`penang-rummy puzzles`: mine a few puzzles, write them as JSON, print their coverage; bad
arguments are one line on stderr and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from penang_lib.cli import main
from penang_lib.course.mining import coverage, mine
from penang_lib.course.puzzles import PUZZLE_KINDS, prove, puzzles_from_json

Capture = pytest.CaptureFixture[str]


def test_a_small_run_writes_proved_puzzles_and_their_coverage(
    capsys: Capture, tmp_path: Path
) -> None:
    out_file = tmp_path / "puzzles.json"
    status = main(
        ["puzzles", "--mine", "6", "--seed", "3", "--out", str(out_file), "--no-progress"]
    )
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    puzzles = puzzles_from_json(out_file.read_text(encoding="utf-8"))
    assert len(puzzles) == 6 and all(prove(p) is None for p in puzzles)
    assert puzzles == mine(6, 3, progress=False)  # the command is the miner, seed and all
    lines = out.splitlines()
    assert lines[0].startswith("6 puzzles mined from seed 3 in ") and lines[0].endswith(
        str(out_file)
    )
    kinds = coverage(puzzles)
    assert lines[1] == "  by kind: " + ", ".join(f"{k} {kinds[k]}" for k in PUZZLE_KINDS)
    assert lines[2].startswith("  by rule: ") and "dead" in lines[2]
    assert json.loads(out_file.read_text())["note"] == "penang-rummy puzzles --mine 6 --seed 3"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["puzzles", "--out", "x.json"], "--mine"),
        (["puzzles", "--mine", "0", "--out", "x.json"], "too small"),
        (["puzzles", "--mine", "5000", "--out", "x.json"], "too large"),
        (["puzzles", "--mine", "five", "--out", "x.json"], "not a whole number"),
        (["puzzles", "--mine", "3"], "--out"),
        (["puzzles", "--mine", "3", "--seed", "-1", "--out", "x.json"], "a seed is"),
        (["puzzles", "--mine", "3", "--bots", "bluffer", "--out", "x.json"], "unknown bot"),
        (["puzzles", "--mine", "3", "--players", "9", "--out", "x.json"], "players"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(capsys: Capture, argv: list[str], says: str) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("penang-rummy: ") and says in err


def test_bad_values_found_after_parsing_are_exit_2(capsys: Capture, tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "folder" / "p.json"
    assert main(["puzzles", "--mine", "3", "--out", str(missing)]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "there is no folder" in err
    assert not missing.parent.exists()
    huge = str(2**63 - 1)
    assert main(["puzzles", "--mine", "3", "--seed", huge, "--out", str(tmp_path / "p.json")]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "too large" in err
    assert not (tmp_path / "p.json").exists()


def test_the_help_names_every_kind_of_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    """The command's description lists the kinds the miner keeps, all seven (it once left out
    deadwood)."""
    from penang_lib.cli.commands import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["puzzles", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    for kind in PUZZLE_KINDS:
        assert kind in said
