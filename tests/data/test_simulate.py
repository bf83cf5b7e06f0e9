"""`simulate`, `summary` and `play_deal`: many bot deals as a frame, reproducible by seed."""

from __future__ import annotations

import pandas as pd
import pytest

from penang_lib import Rules, Status
from penang_lib.data.simulate import COLUMNS, deal_seed, simulate, summary
from penang_lib.engine.bots import bot_names, play_deal, play_deal_explained
from penang_lib.engine.rules import EndCondition
from penang_lib.engine.showcase import (
    SHOWCASE_BOTS,
    find_deal,
    first_step,
    require_rule_ids,
    rules_shown,
    shown_by,
)


def test_one_row_per_player_per_deal() -> None:
    frame = simulate(12, players=3, bots="careful,greedy,random", seed=2)
    assert list(frame.columns) == list(COLUMNS)
    assert len(frame) == 36
    assert list(frame["deal"]) == [d for d in range(12) for _ in range(3)]
    assert list(frame["seat"]) == [0, 1, 2] * 12
    assert list(frame["bot"][:3]) == ["careful", "greedy", "random"]
    assert set(frame["seed"]) == {deal_seed(2, i) for i in range(12)}
    assert set(frame["outcome"]) <= {"game", "dead", "passport-dead", "alive"}
    assert frame["won"].dtype == bool and frame["passport_ok"].dtype == bool
    for _, rows in frame.groupby("deal"):
        assert rows["won"].any()
        assert (rows["count"] >= 0).all()
        out = rows[rows["outcome"] == "game"]
        assert len(out) <= 1
        if len(out):
            assert out["won"].all() and (out["count"] == 0).all() and (out["cards_left"] == 0).all()
        else:  # nobody went out: the lowest count wins (rule scoring)
            assert set(rows[rows["won"]]["count"]) == {rows["count"].min()}


def test_rows_match_the_deal_played_again() -> None:
    frame = simulate(5, players=4, bots=["random", "careful"], seed=9)
    for index in range(5):
        deal = play_deal(deal_seed(9, index), 4, ["random", "careful"])
        rows = frame[frame["deal"] == index]
        assert list(rows["count"]) == deal.scores
        assert list(rows["cards_left"]) == [deal.hand_size(p) for p in range(4)]
        assert list(rows["turns"]) == deal.turns
        assert list(rows["won"]) == [p in deal.winners for p in range(4)]
        for p, (_, row) in enumerate(rows.iterrows()):
            dead = deal.status[p] in (Status.DEAD, Status.DEAD_PASSPORT)
            assert row["turns_alive"] == deal.turns[p] - dead
            assert row["passport_ok"] == deal.passport[p]


def test_reproducible_by_seed() -> None:
    first = simulate(15, players=4, bots="random", seed=4)
    again = simulate(15, players=4, bots="random", seed=4)
    pd.testing.assert_frame_equal(first, again)
    other = simulate(15, players=4, bots="random", seed=5)
    assert not first["count"].equals(other["count"])


def test_jobs_give_the_same_frame() -> None:
    one = simulate(24, players=4, bots="careful,random,greedy,careful", seed=1, jobs=1)
    two = simulate(24, players=4, bots="careful,random,greedy,careful", seed=1, jobs=2)
    pd.testing.assert_frame_equal(one, two)


def test_deal_zero_of_seed_zero_is_seed_zero() -> None:
    assert [deal_seed(0, i) for i in range(3)] == [0, 1, 2]
    assert deal_seed(1, 0) != deal_seed(0, 1)


def test_bots_cycle_to_the_seats() -> None:
    assert bot_names(None, 3) == ("careful",) * 3
    assert bot_names("random,greedy", 5) == ("random", "greedy", "random", "greedy", "random")
    assert bot_names(["Careful"], 2) == ("careful", "careful")
    with pytest.raises(ValueError, match="unknown bot 'smart'"):
        bot_names("careful,smart", 4)
    with pytest.raises(ValueError, match="at least one bot"):
        bot_names("", 4)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="players"):
        simulate(1, players=6)
    with pytest.raises(ValueError, match="negative"):
        simulate(-1)
    with pytest.raises(ValueError, match="jobs"):
        simulate(1, jobs=0)
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(1, bots="clever")


def test_summary() -> None:
    frame = simulate(30, players=4, bots="careful,random", seed=0)
    result = summary(frame)
    assert result["deals"] == 30
    for key in ("passport_failure_rate", "nobody_out_rate"):
        assert 0.0 <= result[key] <= 1.0
    went_out = frame.groupby("deal")["outcome"].apply(lambda o: (o == "game").any())
    assert result["nobody_out_rate"] == pytest.approx(1 - went_out.mean())
    assert result["mean_turns"] == pytest.approx(frame.groupby("deal")["turns"].sum().mean())
    assert set(result["bots"]) == {"careful", "random"}
    for name, stats in result["bots"].items():
        rows = frame[frame["bot"] == name]
        assert stats["seats"] == len(rows) == 60
        assert stats["win_rate"] == pytest.approx(rows["won"].mean())
        assert stats["mean_count"] == pytest.approx(rows["count"].mean())


def test_summary_counts_passport_failures() -> None:
    rows = [
        (0, 0, 0, "careful", False, 1, 0, 20, 150, "passport-dead", False),
        (0, 0, 1, "careful", True, 3, 3, 0, 0, "game", True),
        (1, 1, 0, "careful", True, 4, 3, 4, 20, "dead", True),
        (1, 1, 1, "careful", True, 4, 3, 5, 30, "dead", False),
    ]
    result = summary(pd.DataFrame(rows, columns=list(COLUMNS)))
    assert result["deals"] == 2
    assert result["passport_failure_rate"] == 0.25
    assert result["nobody_out_rate"] == 0.5
    assert result["mean_turns"] == 6.0
    assert result["bots"]["careful"]["win_rate"] == 0.5


def test_empty_run() -> None:
    frame = simulate(0)
    assert list(frame.columns) == list(COLUMNS) and len(frame) == 0
    assert summary(frame)["deals"] == 0


def test_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    simulate(3, players=2, progress=True)
    assert "3/3" in capsys.readouterr().err
    simulate(3, players=2)  # short runs show no bar by default
    assert capsys.readouterr().err == ""


def test_one_alive_house_rule_leaves_a_survivor() -> None:
    rules = Rules(end_condition=EndCondition.ONE_ALIVE)
    frame = simulate(20, players=3, bots="random", seed=3, rules=rules)
    nobody_out = frame.groupby("deal").filter(lambda rows: not (rows["outcome"] == "game").any())
    assert len(nobody_out)
    for _, rows in nobody_out.groupby("deal"):
        assert (rows["outcome"] == "alive").sum() == 1


def test_play_deal_explained_gives_a_reason_per_move() -> None:
    deal, choices = play_deal_explained(6, 4, "careful,greedy")
    assert deal.is_over
    assert [c.move for c in choices] == deal.move_stack
    assert all(c.why for c in choices)
    assert play_deal(6, 4, "careful,greedy").move_stack == deal.move_stack


# -- deals that show a rule (penang_lib.engine.showcase) -------------------------------------------
@pytest.mark.parametrize(
    "shows",
    [["swap"], ["game"], ["swap", "game", "joker"], ["meld", "lay-off", "dead"], ["run", "set"]],
)
def test_find_deal_really_shows_the_rules(shows: list[str]) -> None:
    deal = find_deal(shows, players=4, limit=500)
    assert deal is not None and deal.is_over
    rules = {e.rule for e in deal.events}
    for rule in shows:
        assert rule in rules or (rule == "meld" and rules & {"run", "set"})
    # It is the first such seed, and the bots play it again the same way.
    again = play_deal(deal.seed, 4, SHOWCASE_BOTS)
    assert again.move_stack == deal.move_stack
    for seed in range(deal.seed):
        assert not set(shows) <= rules_shown(play_deal(seed, 4, SHOWCASE_BOTS))


def test_find_deal_dead_passport() -> None:
    deal = find_deal(["dead.passport"], players=5, bots="careful", limit=2000)
    assert deal is not None
    assert Status.DEAD_PASSPORT in deal.status
    assert "dead.passport" in {e.rule for e in deal.events}


def test_find_deal_starts_at_a_seed_and_gives_up_at_the_limit() -> None:
    deal = find_deal(["set"], start_seed=40, limit=50)
    assert deal is not None and deal.seed >= 40
    assert find_deal(["dead.passport"], players=3, limit=20) is None


def test_find_deal_refuses_unknown_rule_ids() -> None:
    with pytest.raises(ValueError, match="unknown rule id 'bluff'"):
        find_deal(["swap", "bluff"])
    with pytest.raises(ValueError, match="at least one rule id"):
        find_deal([])
    assert require_rule_ids([" swap", "game "]) == ["swap", "game"]


def test_first_step_is_where_a_rule_first_happens() -> None:
    deal = find_deal(["swap"], limit=500)
    assert deal is not None
    steps = [deal.start_events, *deal.event_stack]
    k = first_step(deal, "swap")
    assert k is not None and "swap" in shown_by(steps[k])
    assert all("swap" not in shown_by(events) for events in steps[:k])
    assert first_step(deal, ["swap", "deal"]) == 0  # the deal as dealt shows `deal`
    assert first_step(deal, "dead.passport") is None
    with pytest.raises(ValueError, match="unknown rule id 'bluff'"):
        first_step(deal, "bluff")
