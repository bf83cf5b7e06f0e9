"""Duplicate-deal tournaments (`penang_lib.engine.tournament`): the seating, the tallies and the
statistics, on small sizes; the full sizes are `penang-rummy tournament`'s business."""

from __future__ import annotations

from functools import partial

import pytest

from penang_lib.engine.bots import RandomBot, make_bot, play_deal
from penang_lib.engine.deal import Status
from penang_lib.engine.rules import Rules
from penang_lib.engine.tournament import Factory, Standing, play_seating, tournament
from penang_lib.engine.validate import ArgumentTypeError


def test_each_seed_is_played_once_per_rotation_and_every_seat_is_counted() -> None:
    result = tournament("careful,greedy,random", deals=3, seed=5)
    assert result.lineup == ("careful", "greedy", "random")
    assert result.games == 9
    for standing in result.standings.values():
        assert standing.seats == 9  # one seat in each of the 9 deals
        assert sorted(standing.by_seed) == [5, 6, 7]
        assert all(len(d) == 3 for d in standing.by_seed.values())
    # every deal has one winner's worth of wins, shared on a tie
    assert sum(s.wins for s in result.standings.values()) == pytest.approx(9)


def test_a_seating_is_the_deal_play_deal_plays() -> None:
    # the same seed and seats give the same deal as the kit's own play_deal
    deal, times = play_seating(11, ["careful", "greedy", "random", "careful"], _kit(), _rules())
    assert deal.move_stack == play_deal(11, 4, "careful,greedy,random,careful").move_stack
    assert sum(len(t) for t in times) == len(deal.move_stack)


def test_the_tallies_read_the_deals() -> None:
    result = tournament("careful,random", deals=4, seed=0)
    for name, standing in result.standings.items():
        seats = []
        for seed in range(4):
            for rotation in range(2):
                seating = [["careful", "random"][(p - rotation) % 2] for p in range(2)]
                deal, _times = play_seating(seed, seating, _kit(), _rules())
                seats += [(deal, p) for p in range(2) if seating[p] == name]
        assert standing.counts == [deal.scores[p] for deal, p in seats]
        assert standing.deaths == sum(
            deal.status[p] in (Status.DEAD, Status.DEAD_PASSPORT) for deal, p in seats
        )
        assert standing.passport_failures == sum(
            deal.status[p] is Status.DEAD_PASSPORT for deal, p in seats
        )


def test_bots_of_equal_strength_get_an_interval_that_covers_zero() -> None:
    # Two names for one bot: whatever the interval says of one, it says of nothing.
    same: dict[str, Factory] = {"left": RandomBot, "right": RandomBot}
    result = tournament("left,right,right,right", deals=40, seed=3, bots=same)
    low, high = _interval(result.standings["left"])
    assert low < 0 < high


def test_a_rigged_table_gets_an_interval_that_excludes_zero() -> None:
    # The careful bot against three random ones: far stronger, and the interval says so.
    result = tournament("careful,random,random,random", deals=40, seed=3)
    low, high = _interval(result.standings["careful"])
    assert high < 0
    assert result.standings["careful"].win_rate > 0.5
    low, high = _interval(result.standings["random"])
    assert low > 0


def test_a_lone_name_plays_against_itself_to_nothing() -> None:
    # one bot everywhere: its difference against the field is exactly zero in every deal
    result = tournament("careful,careful,careful", deals=3, seed=1)
    standing = result.standings["careful"]
    assert standing.seed_differences == [0.0, 0.0, 0.0]
    assert standing.win_rate == pytest.approx(1 / 3)


def test_the_statistics_of_a_standing() -> None:
    standing = Standing("x", seats=4, wins=1.5, counts=[0, 10, 20, 30])
    standing.by_seed = {0: [2.0, 4.0], 1: [-1.0, -3.0], 2: [1.0, 1.0]}
    standing.move_seconds = [0.1 * k for k in range(1, 21)]
    assert standing.win_rate == 0.375
    assert standing.mean_count == 15
    assert standing.seed_differences == [3.0, -2.0, 1.0]
    assert standing.mean_difference == pytest.approx(2 / 3)
    low, high = _interval(standing)
    # the sample variance of 3, -2, 1 around 2/3 is (49 + 64 + 1) / 9 / 2 = 19/3
    assert (low + high) / 2 == pytest.approx(2 / 3)
    assert high - low == pytest.approx(2 * 1.96 * (19 / 3) ** 0.5 / 3**0.5)
    assert standing.time_percentile(0.5) == pytest.approx(1.0)
    assert standing.time_percentile(0.95) == pytest.approx(1.9)
    report = standing.as_dict()
    assert report["seconds_per_move"]["max"] == pytest.approx(2.0)
    assert Standing("y", by_seed={0: [1.0]}).interval is None


def test_a_bad_lineup_is_refused_before_any_deal() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        tournament("careful,wizard", deals=1)
    with pytest.raises(ValueError, match="one bot per seat"):
        tournament("careful", deals=1)
    with pytest.raises(ArgumentTypeError):
        tournament(42, deals=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        tournament("careful,careful", deals=0)


def test_progress_is_told_after_every_deal() -> None:
    told: list[int] = []
    tournament("careful,greedy", deals=3, progress=told.append)
    assert told == [1] * 6


def test_worker_processes_play_the_same_tournament() -> None:
    # Closures reach the workers through the fork: a bot of one's own plays there too.
    own: dict[str, Factory] = {"mine": lambda seed: RandomBot(seed)}
    alone = tournament("careful,mine,greedy", deals=4, seed=9, bots=own)
    told: list[int] = []
    shared = tournament(
        "careful,mine,greedy", deals=4, seed=9, bots=own, jobs=2, progress=told.append
    )
    assert told == [1] * 12
    for name, standing in alone.standings.items():
        other = shared.standings[name]
        assert (other.counts, other.by_seed, other.wins) == (
            standing.counts,
            standing.by_seed,
            standing.wins,
        )
        assert (other.deaths, other.passport_failures) == (
            standing.deaths,
            standing.passport_failures,
        )
        assert len(other.move_seconds) == len(standing.move_seconds)


def test_the_budget_reaches_the_expert_alone() -> None:
    result = tournament("expert,random", deals=1, seed=2, budget=0.01)
    assert result.standings["expert"].seats == 2
    with pytest.raises(ValueError, match="jobs"):
        tournament("careful,random", deals=1, jobs=0)
    with pytest.raises(ArgumentTypeError):
        tournament("expert,random", deals=1, budget="fast")  # type: ignore[arg-type]


def _interval(standing: Standing) -> tuple[float, float]:
    interval = standing.interval
    assert interval is not None
    return interval


def _kit() -> dict[str, Factory]:
    return {n: partial(make_bot, n) for n in ("careful", "greedy", "random")}


def _rules() -> Rules:
    return Rules()
