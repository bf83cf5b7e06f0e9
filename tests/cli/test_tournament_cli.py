"""`penang-rummy tournament`: duplicate deals among named bots, a table or JSON of each bot's
results; bad arguments are one line on stderr and exit 2."""

from __future__ import annotations

import json

import pytest

from penang_lib.cli import main
from penang_lib.engine.expert import DEFAULT_BUDGET
from penang_lib.engine.tournament import tournament

Capture = pytest.CaptureFixture[str]


def test_the_json_is_the_tournaments_own_results(capsys: Capture) -> None:
    status = main(
        [
            "tournament",
            "--bots",
            "careful,greedy,random",
            "--deals",
            "4",
            "--seed",
            "9",
            "--json",
            "--no-progress",
        ]
    )
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    report = json.loads(out)
    expected = tournament("careful,greedy,random", deals=4, seed=9).as_dict()
    assert report["lineup"] == ["careful", "greedy", "random"]
    assert report["games"] == 12 and report["seconds"] >= 0
    assert "budget" not in report  # no expert at this table
    for got, want in zip(report["bots"], expected["bots"], strict=True):
        timeless = {k: v for k, v in want.items() if k != "seconds_per_move"}
        assert {k: got[k] for k in timeless} == timeless
        assert set(got["seconds_per_move"]) == {"median", "p95", "max"}


def test_budget_and_jobs_reach_the_tournament(capsys: Capture) -> None:
    argv = ["tournament", "--bots", "expert,random", "--deals", "2", "--seed", "4"]
    status = main([*argv, "--budget", "0.01", "--jobs", "2", "--json", "--no-progress"])
    out, _err = capsys.readouterr()
    assert status == 0
    report = json.loads(out)
    expected = tournament("expert,random", deals=2, seed=4, budget=0.01).as_dict()
    assert report["budget"] == 0.01  # what plays it again (lesson 10's data keeps the command)
    for got, want in zip(report["bots"], expected["bots"], strict=True):
        assert (got["wins"], got["mean_count"]) == (want["wins"], want["mean_count"])


def test_the_table_has_a_row_per_bot(capsys: Capture) -> None:
    status = main(
        ["tournament", "--bots", "careful,greedy,greedy,greedy", "--deals", "5", "--no-progress"]
    )
    out, _err = capsys.readouterr()
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("5 duplicate deals (seeds 0 to 4), each played 4 times")
    careful = next(line for line in lines if line.strip().startswith("careful "))
    greedy = next(line for line in lines if line.strip().startswith("greedy "))
    assert careful.split()[1] == "20" and greedy.split()[1] == "60"  # seats held
    assert "[" in careful and "]" in careful  # the interval


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--bots", "careful", "--deals", "3"], "at least 2"),
        (["--bots", "careful,wizard", "--deals", "3"], "unknown bot"),
        (["--bots", "careful,greedy", "--deals", "0"], "--deals"),
        (["--bots", "careful,greedy"], "--deals"),
        (["--bots", "careful,greedy", "--deals", "1", "--budget", "0.1"], "expert"),
        (["--bots", "expert,greedy", "--deals", "1", "--budget", "0"], "--budget"),
        (["--bots", "expert,greedy", "--deals", "1", "--budget", "nan"], "--budget"),
        (["--bots", "careful,greedy", "--deals", "1", "--jobs", "0"], "--jobs"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(argv: list[str], says: str, capsys: Capture) -> None:
    status: object
    try:
        status = main(["tournament", *argv])
    except SystemExit as stop:  # argparse's refusals exit; the command's own return
        status = stop.code
    _out, err = capsys.readouterr()
    assert status == 2
    assert len(err.strip().splitlines()) == 1 and says in err


def test_the_help_names_the_expert_s_default_budget(capsys: Capture) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"seconds of thought per move (default {DEFAULT_BUDGET})" in out
