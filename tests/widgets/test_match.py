"""MatchSheet: bots play a match deal by deal; the sheet and the chart follow the engine."""

from __future__ import annotations

import pytest

from penang_lib.data.frames import match_frame, match_names
from penang_lib.engine.rules import DealerSystem
from penang_lib.widgets.base import OOPS
from penang_lib.widgets.controls import Control
from penang_lib.widgets.match import MatchSheet, totals_chart
from penang_lib.widgets.shared import is_shown


def test_a_new_sheet_says_who_deals_first_and_shows_an_empty_chart() -> None:
    sheet = MatchSheet(players=3, deals=2, seed=1)
    assert sheet.match.deals == []
    names = match_names(sheet.match)
    assert f"{names[sheet.match.dealer]} was drawn to deal first" in sheet.status.value
    assert "No deal played yet" in sheet.sheet.value
    assert sheet.chart.value.count("<svg ") == 1 and "data:image" not in sheet.chart.value
    assert 'role="img"' in sheet.chart.value
    assert 'aria-label="Totals after 0 of 2 deals: North 0, East 0, South 0"' in sheet.chart.value


def test_each_deal_adds_a_row_with_the_engines_totals_and_next_dealer() -> None:
    sheet = MatchSheet(players=3, deals=3, seed=2)
    sheet.buttons[Control.PLAY_NEXT_DEAL].click()
    match = sheet.match
    assert len(match.deals) == 1 and match.deals[0].is_over
    frame = match_frame(match)
    nxt = frame["next_dealer"].iloc[-1]
    assert f"{nxt} deals next" in sheet.status.value
    assert frame["why"].iloc[-1] in sheet.status.value
    for p, total in enumerate(match.totals):
        assert f"<td>{total}</td>" in sheet.sheet.value, p
    chart = sheet.chart.value
    sheet.buttons[Control.PLAY_NEXT_DEAL].click()
    assert match.deals[1].names[match.deals[1].dealer] == nxt
    assert sheet.chart.value != chart  # the chart follows the totals
    names = match_names(match)
    spoken = ", ".join(f"{n} {t}" for n, t in zip(names, match.totals, strict=True))
    assert f'aria-label="Totals after 2 of 3 deals: {spoken}"' in sheet.chart.value
    panel = totals_chart(names, match.totals, "Totals after 2 of 3 deals")
    assert panel.bars is not None and panel.bars.horizontal
    assert panel.bars.labels == tuple(names) and panel.bars.values == tuple(match.totals)
    assert panel.bars.texts == tuple(str(t) for t in match.totals)
    assert panel.xlabel == "total points (lowest wins)"
    assert panel.limits[0] == 0 and max(match.totals) < panel.limits[1]
    lowest = min(match.totals)
    assert [panel.bars.colour_of(i) for i in range(len(names))] == [
        "#1e7d32" if t == lowest else "#34495e" for t in match.totals
    ]


def test_play_the_rest_finishes_the_match_and_names_the_lowest_total() -> None:
    sheet = MatchSheet(players=4, deals=3, seed=5)
    sheet.buttons[Control.PLAY_THE_REST].click()
    match = sheet.match
    assert match.is_over
    names = match.deals[0].names
    for w in match.winners:
        assert names[w] in sheet.status.value
    assert f"lowest total ({min(match.totals)})" in sheet.status.value
    assert sheet.buttons[Control.PLAY_NEXT_DEAL].disabled
    sheet.play_next()  # nothing more to play
    assert len(match.deals) == 3


def test_the_same_seed_gives_the_same_match() -> None:
    a = MatchSheet(players=3, deals=2, seed=9)
    b = MatchSheet(players=3, deals=2, seed=9)
    a.buttons[Control.PLAY_THE_REST].click()
    b.buttons[Control.PLAY_THE_REST].click()
    assert a.match.totals == b.match.totals
    assert a.sheet.value == b.sheet.value


@pytest.mark.parametrize("system", list(DealerSystem))
def test_choosing_a_dealer_system_starts_a_match_under_it(system: DealerSystem) -> None:
    sheet = MatchSheet(players=3, deals=2, seed=3)
    sheet.buttons[Control.PLAY_NEXT_DEAL].click()
    other = next(s for s in DealerSystem if s is not sheet.match.rules.dealer_system)
    sheet.system.value = other
    assert sheet.match.rules.dealer_system is other
    assert sheet.match.deals == []
    sheet.system.value = system
    sheet.buttons[Control.PLAY_NEXT_DEAL].click()
    word = "won the last deal" if system is DealerSystem.WINNER else "highest count"
    assert word in sheet.status.value


def test_a_failing_callback_shows_a_sentence_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sheet = MatchSheet(players=3, deals=2, seed=1)

    def broken() -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(sheet, "play_next", broken)
    sheet.buttons[Control.PLAY_NEXT_DEAL].click()
    assert OOPS in sheet._trouble.value
    assert is_shown(sheet._trouble)


def test_with_no_points_recorded_the_sheet_shows_each_deal_and_no_total_or_match_winner() -> None:
    """Rules `dealer` and `scoring`: without points recorded the worst loser deals and nothing
    adds up, so the sheet shows each deal's counts, its winners and who deals next, and names no
    match winner; the totals chart is hidden."""
    sheet = MatchSheet(players=3, deals=3, seed=2)
    sheet.system.value = DealerSystem.WORST_LOSER
    assert "No points are recorded" in sheet.status.value
    assert "lowest total wins" not in sheet.status.value
    sheet.buttons[Control.PLAY_NEXT_DEAL].click()
    match = sheet.match
    assert not match.points_recorded and match.totals == []
    frame = match_frame(match)
    assert f"{frame['next_dealer'].iloc[-1]} deals next" in sheet.status.value
    assert "highest count" in sheet.status.value
    for score in match.deals[0].scores:
        assert f"<td>{score}</td>" in sheet.sheet.value
    assert "total" not in sheet.sheet.value.replace("no totals", "")
    assert not is_shown(sheet.chart) and sheet.chart.value == ""
    sheet.buttons[Control.PLAY_THE_REST].click()
    assert match.is_over and match.winners == []
    names = match_names(match)
    for won in match.deal_winners:
        assert f"<td>{', '.join(names[w] for w in won)}</td>" in sheet.sheet.value
    assert "no match winner" in sheet.status.value
    assert (
        "wins the match" not in sheet.status.value and "share the match" not in sheet.status.value
    )


def test_with_points_recorded_the_sheet_keeps_totals_and_the_chart() -> None:
    sheet = MatchSheet(players=3, deals=2, seed=2)
    sheet.system.value = DealerSystem.WORST_LOSER
    sheet.system.value = DealerSystem.WINNER
    sheet.buttons[Control.PLAY_THE_REST].click()
    assert sheet.match.points_recorded and is_shown(sheet.chart)
    assert "Running totals" in sheet.sheet.value
    assert f"lowest total ({min(sheet.match.totals)})" in sheet.status.value
