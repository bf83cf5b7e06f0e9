"""The strategy lab (`penang_lib.data.lab`): its figures agree with the frames and deals they come
from (recomputed here by plain counting), its JSON round-trips, and the cached data file of
lesson 10 is whole, untouched and still made by today's engine and bots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from penang_lib import Deal, Status, can_play, find_deal
from penang_lib.data import lab
from penang_lib.data.simulate import COLUMNS, deal_rows, deal_seed
from penang_lib.engine.bots import bot_names, play_deal
from penang_lib.engine.cards import cards_symbols, cards_text, from_counts, parse_cards
from penang_lib.widgets.quiz import Quiz
from tests.checkout import REPO

ROOT = REPO
SMALL = 20


@pytest.fixture(scope="module")
def frames() -> dict[str, pd.DataFrame]:
    return lab.run_tables(SMALL, seed=3)


@pytest.fixture(scope="module")
def small() -> dict[str, Any]:
    return lab.build(deals=4, seed=1)


def _rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [{str(k): v for k, v in row.items()} for row in frame.to_dict("records")]


def test_every_table_has_its_deals(frames: dict[str, pd.DataFrame]) -> None:
    assert set(frames) == {t.name for t in lab.TABLES}
    for t in lab.TABLES:
        frame = frames[t.name]
        assert len(frame) == SMALL * t.players
        assert set(frame["seed"]) == {deal_seed(lab.table_seed(3, t.name), i) for i in range(SMALL)}
    seeds = [set(frame["seed"]) for frame in frames.values()]
    assert sum(len(s) for s in seeds) == len(set().union(*seeds)), "tables share no deal"


def test_passport_figure_counts_the_failed_passports(frames: dict[str, pd.DataFrame]) -> None:
    for players in (2, 3, 4, 5):
        pooled = [frames[t.name] for t in lab.TABLES if t.players == players]
        rows = [r for frame in pooled for r in _rows(frame)]
        failed = [r for r in rows if r["outcome"] == "passport-dead"]
        figure = lab.passport_figure(pooled)
        assert figure["deals"] == SMALL * len(pooled)
        assert figure["hands"] == len(rows)
        assert figure["failures"] == len(failed)
        assert figure["rate"] == pytest.approx(len(failed) / len(rows), abs=1e-4)
        assert (figure["example"] is None) == (not failed)


def test_passport_figure_on_a_frame_with_failures() -> None:
    frame = pd.DataFrame(
        {
            "deal": [0, 0, 0, 1, 1, 1],
            "seed": [5, 5, 5, 6, 6, 6],
            "seat": [0, 1, 2, 0, 1, 2],
            "outcome": ["game", "passport-dead", "passport-dead", "dead", "dead", "alive"],
        }
    )
    figure = lab.passport_figure([frame])
    assert figure == {
        "deals": 2,
        "hands": 6,
        "failures": 2,
        "rate": round(2 / 6, lab.DIGITS),
        "example": {
            "seed": 5,
            "players": 3,
            "seat": 1,
            "hand": cards_text(Deal(players=3, seed=5).hand(1)),
            "other_seat": 0,
            "other_hand": cards_text(Deal(players=3, seed=5).hand(0)),
        },
    }


def test_the_example_hand_really_failed() -> None:
    found = find_deal(["dead.passport"], 4, "careful")
    assert found is not None
    rows = deal_rows(found, 0, bot_names("careful", 4))
    example = lab.passport_figure([pd.DataFrame.from_records(rows, columns=list(COLUMNS))])[
        "example"
    ]
    assert example["seed"] == found.seed
    assert found.status[example["seat"]] is Status.DEAD_PASSPORT
    assert example["hand"] == cards_text(from_counts(found.initial_hands[example["seat"]]))
    assert not can_play(example["hand"], [], passport=False)
    assert found.status[example["other_seat"]] is not Status.DEAD_PASSPORT
    other = found.initial_hands[example["other_seat"]]
    assert example["other_hand"] == cards_text(from_counts(other))


def test_the_quiz_asks_about_the_example_hands() -> None:
    example = {"hand": "AS 2S 4S 6S JS 3H 7H 9H", "other_hand": "7S 7H 7D 2C"}
    questions = lab.quiz({"4": {"example": example}})
    assert [q["can_play"]["hand"] for q in questions] == [
        example["hand"],
        example["other_hand"],
        example["hand"] + " JK",
    ]
    for q in questions:
        hand = q["can_play"]["hand"]
        assert q["answer"] == bool(can_play(hand, [], passport=False))
        assert cards_symbols(parse_cards(hand)) in q["ask"]
    assert [q["answer"] for q in questions] == [False, True, True]
    for q in questions:  # each answer says why, in words that match the engine's answer
        assert ("holds one" in q["why"]) is q["answer"]
        assert ("dead at the first turn" in q["why"]) is not q["answer"]
    quiz = Quiz(questions, explained=True)  # the engine agrees with every written answer
    assert len(quiz.questions) == 3
    assert lab.quiz({"4": {"example": None}}) == []


def test_nobody_out_figure(frames: dict[str, pd.DataFrame]) -> None:
    for name in lab.BOT_TABLES:
        deals: dict[int, list[dict[str, Any]]] = {}
        for row in _rows(frames[name]):
            deals.setdefault(row["deal"], []).append(row)
        nobody = sum(not any(r["outcome"] == "game" for r in rows) for rows in deals.values())
        figure = lab.nobody_out_figure(frames[name])
        assert set(figure) == {"deals", "nobody_out", "rate"}  # each one read by the lesson
        assert figure["deals"] == SMALL
        assert figure["nobody_out"] == nobody
        assert figure["rate"] == pytest.approx(nobody / SMALL, abs=1e-4)


def test_bots_figure(frames: dict[str, pd.DataFrame]) -> None:
    frame = frames[lab.MATCH_TABLE]
    figure = lab.bots_figure(frame)
    assert figure["deals"] == SMALL
    t = lab.table(lab.MATCH_TABLE)
    assert figure["lineup"] == list(bot_names(t.bots, t.players))
    rows = _rows(frame)
    assert set(figure["by_bot"]) == {r["bot"] for r in rows}
    for name, numbers in figure["by_bot"].items():
        mine = [r for r in rows if r["bot"] == name]
        wins = sum(bool(r["won"]) for r in mine)
        assert numbers["seats"] == len(mine)
        assert numbers["wins"] == wins
        assert numbers["win_rate"] == pytest.approx(wins / len(mine), abs=1e-4)
        mean = sum(r["count"] for r in mine) / len(mine)
        assert numbers["mean_count"] == pytest.approx(mean, abs=1e-4)


def test_count_series_follows_each_players_turns(frames: dict[str, pd.DataFrame]) -> None:
    t = lab.table("careful")
    frame = frames["careful"]
    for index in range(5):
        seed = deal_seed(lab.table_seed(3, "careful"), index)
        deal = play_deal(seed, t.players, t.bots)
        moves = len(deal.move_stack)
        series = lab.count_series(deal)
        assert len(deal.move_stack) == moves and deal.is_over, "the deal itself is untouched"
        dealt = Deal(players=t.players, seed=seed)
        rows = frame[frame["deal"] == index].sort_values("seat")
        for p, counts in enumerate(series):
            assert counts[0] == dealt.count(p)
            assert counts[-1] == int(rows["count"].iloc[p]) == deal.count(p)
            assert len(counts) - 1 == deal.turns[p] == int(rows["turns"].iloc[p])


def test_replay_series_matches_the_frame(frames: dict[str, pd.DataFrame]) -> None:
    frame = frames["greedy"]
    played = lab.replay_series(frame, "greedy")
    assert len(played) == SMALL
    for index, (series, winners) in enumerate(played):
        rows = frame[frame["deal"] == index].sort_values("seat")
        assert [s[-1] for s in series] == [int(c) for c in rows["count"]]
        assert winners == [int(s) for s in rows[rows["won"]]["seat"]]


def test_replay_series_catches_a_frame_from_other_deals(frames: dict[str, pd.DataFrame]) -> None:
    frame = frames["greedy"].copy()
    frame.loc[frame.index[0], "count"] += 1
    with pytest.raises(RuntimeError, match="other counts"):
        lab.replay_series(frame, "greedy")


def test_turns_figure_carries_the_last_count() -> None:
    figure = lab.turns_figure([([[10, 5, 0], [10, 8]], [0]), ([[20], [30, 25]], [1])])
    assert figure["deals"] == 2
    assert figure["turn"] == [0, 1, 2]
    assert figure["mean"] == [17.5, 14.5, 13.25]  # (0 + 8 + 20 + 25) / 4 at turn 2
    assert figure["winners"] == [20.0, 15.0, 12.5]
    assert figure["others"] == [15.0, 14.0, 14.0]
    assert figure["playing"] == [1.0, 0.75, 0.25]
    capped = lab.turns_figure([([[10, 5, 0], [10, 8]], [0])], max_turns=1)
    assert capped["turn"] == [0, 1]


def test_turns_figure_agrees_with_the_deals(frames: dict[str, pd.DataFrame]) -> None:
    played = lab.replay_series(frames["random"], "random")
    figure = lab.turns_figure(played)
    rows = [s for series, _ in played for s in series]
    assert figure["deals"] == SMALL
    assert figure["turn"][-1] == max(len(s) - 1 for s in rows)
    assert figure["mean"][0] == pytest.approx(sum(s[0] for s in rows) / len(rows), abs=1e-4)
    final = sum(s[-1] for s in rows) / len(rows)
    assert figure["mean"][-1] == pytest.approx(final, abs=1e-4)
    assert figure["mean"][-1] == pytest.approx(frames["random"]["count"].mean(), abs=1e-4)
    assert figure["playing"][0] == 1.0


def test_build_is_json_ready_and_round_trips(small: dict[str, Any]) -> None:
    text = lab.dumps(small)
    assert json.loads(text) == small
    assert json.loads(json.dumps(small)) == small
    assert small["digest"] == lab.digest(small)
    assert small["deals"] == 4 and small["format"] == lab.FORMAT
    assert small["passport"]["4"]["deals"] == 4 * sum(t.players == 4 for t in lab.TABLES)


def test_digest_catches_a_hand_edit(small: dict[str, Any]) -> None:
    edited = json.loads(json.dumps(small))
    edited["bots"]["by_bot"]["careful"]["win_rate"] = 0.99
    assert lab.digest(edited) != edited["digest"]


def test_worker_processes_give_the_same_figures(small: dict[str, Any]) -> None:
    assert lab.build(deals=4, seed=1, jobs=2) == small


def test_main_writes_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "lab.json"
    assert lab.main(["--deals", "2", "--jobs", "1", "--out", str(out), "--quiet"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["deals"] == 2 and data["digest"] == lab.digest(data)
    assert "2 deals per table" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        lab.main(["--deals", "0"])


def _shape(value: Any) -> Any:
    """The keys of nested objects (lists of numbers reduced to their kind)."""
    if isinstance(value, dict):  # an example hand may be missing (None) from a small run
        return {k: "example" if k == "example" else _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return "list"
    return type(value).__name__


def test_cached_file_is_whole_and_current(small: dict[str, Any]) -> None:
    path = ROOT / lab.DATA_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    assert _shape(data) == _shape(small), f"rebuild it: {lab.COMMAND}"
    assert data["format"] == lab.FORMAT
    assert data["deals"] == lab.DEFAULT_DEALS
    assert data["seed"] == lab.DEFAULT_SEED
    assert data["command"] == lab.COMMAND
    assert data["digest"] == lab.digest(data), f"hand-edited? rebuild it: {lab.COMMAND}"
    for t in lab.TABLES:
        spec = data["tables"][t.name]
        seed = lab.table_seed(lab.DEFAULT_SEED, t.name)
        assert spec["seed"] == seed and spec["players"] == t.players
        deal = play_deal(deal_seed(seed, 0), t.players, t.bots)
        assert spec["first_scores"] == deal.scores, f"stale (bots changed?): {lab.COMMAND}"
    deals = lab.DEFAULT_DEALS
    assert data["nobody_out"]["by_bots"]["careful"]["deals"] == deals
    assert data["bots"]["deals"] == deals
    assert all(data["turns"][name]["deals"] == deals for name in lab.TURN_TABLES)
    assert data["passport"]["4"]["hands"] == 4 * deals * sum(t.players == 4 for t in lab.TABLES)
    assert path.stat().st_size < 16_000, "commit-sized data only"
    assert data["quiz"] == lab.quiz(data["passport"])
    assert len(Quiz(data["quiz"]).questions) >= 2
