"""The lay-off orders benchmark (`benchmarks.bench_watchful`) measures what it names, at a tiny
size (the figures come from its own command)."""

from __future__ import annotations

import pytest

from benchmarks.bench_watchful import GO_OUTS, MELD_ORDERS, ORDERS, main, measure
from penang_lib.engine.bots import WatchfulBot
from penang_lib.engine.expert import playout_bot
from penang_lib.engine.tournament import tournament

CAREFUL = next(iter(ORDERS))


def test_the_careful_order_is_the_careful_bot_itself() -> None:
    # The same moves as the three careful bots around it: every seat's count is the mean.
    standing = measure(CAREFUL, 6, seed=40)
    assert standing.win_rate == pytest.approx(0.25)
    interval = standing.interval
    assert interval is not None
    assert interval[0] == pytest.approx(0.0) and interval[1] == pytest.approx(0.0)


def test_the_watchful_order_plays_otherwise() -> None:
    standing = measure("watchful (taken first, in no meld, points)", 12, seed=40)
    assert standing.seats == 48
    assert any(d != 0 for ds in standing.by_seed.values() for d in ds)


def test_the_first_meld_order_is_the_watchful_bot_itself() -> None:
    own = measure(next(iter(MELD_ORDERS)), 8, seed=40)
    watchful = tournament(
        ["order", "careful", "careful", "careful"],
        8,
        40,
        bots={"order": lambda s: WatchfulBot(s, go_out=0)},
    ).standings["order"]
    assert own.by_seed == watchful.by_seed and own.wins == watchful.wins


def test_the_careful_meld_order_is_the_watchful_row_of_the_lay_off_table() -> None:
    # Both rows lay off as the watchful bot does and meld as the careful bot does.
    melds = measure("careful (fewest fed, most kept, most points)", 8, seed=40)
    lay_offs = measure("watchful (taken first, in no meld, points)", 8, seed=40)
    assert melds.by_seed == lay_offs.by_seed and melds.wins == lay_offs.wins


def test_another_meld_order_plays_otherwise() -> None:
    other = measure(next(iter(MELD_ORDERS)), 12, seed=40)
    careful = measure("careful (fewest fed, most kept, most points)", 12, seed=40)
    assert other.by_seed != careful.by_seed


def test_the_first_way_out_row_is_the_watchful_bot_and_the_last_never_looks() -> None:
    own = measure(next(iter(GO_OUTS)), 8, seed=40)
    watchful = tournament(
        ["order", "careful", "careful", "careful"], 8, 40, bots={"order": WatchfulBot}
    ).standings["order"]
    assert own.by_seed == watchful.by_seed and own.wins == watchful.wins
    never = measure(list(GO_OUTS)[-1], 8, seed=40)
    meld_row = measure(next(iter(MELD_ORDERS)), 8, seed=40)
    assert never.by_seed == meld_row.by_seed


def test_the_playouts_row_is_the_expert_s_own_bot() -> None:
    name = next(n for n in GO_OUTS if "the expert's playouts" in n)
    row = measure(name, 8, seed=40)
    own = tournament(
        ["order", "careful", "careful", "careful"], 8, 40, bots={"order": lambda s: playout_bot()}
    ).standings["order"]
    assert row.by_seed == own.by_seed and row.wins == own.wins


def test_going_out_plays_otherwise() -> None:
    own = measure(next(iter(GO_OUTS)), 30, seed=40)
    never = measure(list(GO_OUTS)[-1], 30, seed=40)
    assert own.by_seed != never.by_seed


def test_it_prints_a_row_per_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--deals", "2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 seeds from 2000" in out
    for name in [*ORDERS, *MELD_ORDERS, *GO_OUTS]:
        assert name in out
