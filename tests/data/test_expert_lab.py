"""Lesson 10's expert figures (`penang_lib.data.expert_lab`): they keep what a tournament reported,
say how to play it again, refuse what is no tournament of the expert, and the shipped file is
whole (its deals, seats and wins add up, and each tournament is one of the documented commands)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from penang_lib.cli.commands import build_parser
from penang_lib.data import expert_lab
from penang_lib.engine.tournament import tournament
from tests.checkout import REPO


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    result = tournament("expert,careful", deals=2, seed=11, budget=0.01)
    return {**result.as_dict(), "seconds": 1.0, "budget": 0.01}


def test_a_figure_keeps_each_bots_standing_and_the_command(report: dict[str, Any]) -> None:
    figure = expert_lab.tournament_figure(report)
    assert figure["lineup"] == ["expert", "careful"] and figure["opponent"] == "careful"
    assert (figure["players"], figure["deals"], figure["games"]) == (2, 2, 4)
    for bot in report["bots"]:
        kept = figure["bots"][bot["bot"]]
        assert kept["seats"] == bot["seats"] and kept["wins"] == bot["wins"]
        assert kept["mean_count"] == pytest.approx(bot["mean_count"], abs=1e-4)
        assert kept["win_rate"] == pytest.approx(bot["win_rate"], abs=1e-4)
        assert set(kept["seconds_per_move"]) == {"median", "p95", "max"}
    assert "seconds" not in figure  # the machine's speed is not a figure of the lesson


def test_the_command_plays_the_same_tournament_again(report: dict[str, Any]) -> None:
    words = shlex.split(expert_lab.tournament_figure(report)["command"])
    assert words[0] == "penang-rummy"
    args = build_parser().parse_args(words[1:])
    assert (list(args.bots), args.deals, args.seed, args.budget) == (
        ["expert", "careful"],
        2,
        11,
        0.01,
    )


@pytest.mark.parametrize(
    ("lineup", "words"),
    [
        (["careful", "careful"], "one expert against one kind of bot"),
        (["expert", "careful", "greedy"], "one expert against one kind of bot"),
        (["expert", "expert"], "one expert against one kind of bot"),
    ],
)
def test_a_table_that_is_not_the_expert_against_one_kind_is_refused(
    report: dict[str, Any], lineup: list[str], words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        expert_lab.tournament_figure({**report, "lineup": lineup})


def test_a_file_that_is_no_report_is_refused_with_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"lineup": ["expert", "careful"]}), encoding="utf-8")
    out = tmp_path / "out.json"
    assert expert_lab.main([str(bad), "--out", str(out)]) == 2
    assert "not a tournament report" in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(ValueError, match="at least one"):
        expert_lab.figures([])


def test_main_writes_what_figures_builds(report: dict[str, Any], tmp_path: Path) -> None:
    source = tmp_path / "careful.json"
    source.write_text(json.dumps(report), encoding="utf-8")
    out = tmp_path / "10_expert.json"
    assert expert_lab.main([str(source), "--out", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8")) == expert_lab.figures([report])


# -- the shipped file ----------------------------------------------------------------------------
SHIPPED = json.loads((REPO / expert_lab.DATA_FILE).read_text(encoding="utf-8"))


def test_the_shipped_file_is_of_todays_format_and_made_by_the_documented_commands() -> None:
    assert SHIPPED["format"] == expert_lab.FORMAT
    documented = [c.split(" --jobs")[0] for c in expert_lab.COMMANDS]
    made = [t["command"].split(" --budget")[0] for t in SHIPPED["tournaments"]]
    assert made == documented
    opponents = [(t["opponent"], t["players"]) for t in SHIPPED["tournaments"]]
    assert opponents == [("careful", 4), ("greedy", 4), ("careful", 2)]


@pytest.mark.parametrize("index", range(3))
def test_each_shipped_tournament_adds_up(index: int) -> None:
    t = SHIPPED["tournaments"][index]
    bots = t["bots"]
    assert t["games"] == t["deals"] * t["players"]
    # Every deal seats each bot name as often as the lineup names it; the wins share one deal.
    for name, standing in bots.items():
        assert standing["seats"] == t["games"] * t["lineup"].count(name)
    assert sum(b["wins"] for b in bots.values()) == pytest.approx(t["games"])
    expert = bots["expert"]
    low, high = expert["interval_95"]
    assert low <= expert["mean_difference"] <= high
