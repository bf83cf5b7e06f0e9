"""The expert's referee benchmark (`benchmarks.bench_expert`) judges what it says, at a tiny size
(the figures come from its own command)."""

from __future__ import annotations

import pytest

from benchmarks.bench_expert import main, positions
from penang_lib.engine.bots import CarefulBot
from penang_lib.engine.expert import candidates


def test_the_referee_scores_every_candidate_and_its_best_has_no_regret() -> None:
    found = positions(4, seed=7000)
    assert len(found) == 4
    for position in found:
        assert position.moves == candidates(position.view)
        assert len(position.scores) == len(position.moves) > 1
        best = position.moves[position.scores.index(max(position.scores))]
        assert position.regret(best) == 0
        careful = CarefulBot().choose(position.view).move
        assert position.regret(careful) >= 0
    # The referee plays on the true cards, with careful bots: it is exact, so the same again.
    again = positions(4, seed=7000)
    assert [p.scores for p in again] == [p.scores for p in found]


def test_it_prints_each_player_s_regret(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--positions", "3", "--budget", "0.02"]) == 0
    out = capsys.readouterr().out
    assert "3 positions" in out
    for label in ("the careful bot's move", "expert, with its clues", "expert, random draws"):
        assert label in out
