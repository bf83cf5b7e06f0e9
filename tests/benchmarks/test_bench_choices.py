"""The choice-by-choice comparison of the expert's settings (`benchmarks.bench_choices`), at a
tiny size (the figures come from its own command)."""

from __future__ import annotations

import pytest

from benchmarks.bench_choices import main, parse_variant, play_deal, summarize
from penang_lib.engine.expert import Settings


def test_a_variant_is_read_from_its_name_and_fields() -> None:
    name, settings = parse_variant("bold:confidence=0,work_per_second=1000")
    assert name == "bold"
    assert settings == Settings(confidence=0.0, work_per_second=1000)
    assert isinstance(settings.work_per_second, int)
    for bad in ("bold", "bold:", "bold:nerve=3", "bold:confidence"):
        with pytest.raises(ValueError):
            parse_variant(bad)


def test_the_expert_s_own_settings_change_no_choice() -> None:
    """The variant chooses from the same position and the same state of the draws: with the
    same settings it must choose the same move every time."""
    played = play_deal(3, 1, {"same": Settings()}, samples=5, budget=0.01)
    assert played.choices > 5
    assert played.changes == {"same": []}


def test_a_bolder_variant_changes_choices_and_each_change_is_judged() -> None:
    deals = [
        play_deal(3, seat, {"bold": Settings(confidence=0)}, samples=5, budget=0.02)
        for seat in range(2)
    ]
    changes = [c for p in deals for c in p.changes["bold"]]
    assert changes
    for change in changes:
        assert -1 <= change.wins <= 1
    summary = summarize("bold", deals)
    assert summary.changed == len(changes)
    assert summary.choices == sum(p.choices for p in deals)
    per_deal = [100 * sum(c.wins for c in p.changes["bold"]) for p in deals]
    assert summary.gain == pytest.approx(sum(per_deal) / 2)


def test_it_prints_one_line_per_variant(capsys: pytest.CaptureFixture[str]) -> None:
    same = f"same:confidence={Settings().confidence}"  # the expert's own margin
    args = ["--variant", "bold:confidence=0", "--variant", same]
    assert main([*args, "--seeds", "1", "--samples", "4", "--budget", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "4 deals (seeds 9000-9000" in out
    assert "same: 0 of " in out
    assert "bold: " in out and "points of percentage a deal" in out
    with pytest.raises(SystemExit):
        main(["--variant", "nerve:pluck=3"])
