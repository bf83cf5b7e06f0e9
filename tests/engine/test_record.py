"""Deal records: JSON out, replay in, and tampered records refused with the first bad thing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from penang_lib import Deal, RecordError, Rules, dumps, from_record, loads, to_record
from penang_lib.engine.moves import MOVE_TYPES
from penang_lib.engine.rules import EndCondition
from tests.play import play_randomly


def _played(seed: int, players: int = 4, rules: Rules | None = None) -> Deal:
    return play_randomly(Deal(players=players, seed=seed, rules=rules), seed)


def _record(seed: int = 3, players: int = 4) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumps(_played(seed, players)))
    return data


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_record_round_trips(players: int, seed: int) -> None:
    deal = _played(seed, players)
    again = loads(dumps(deal))
    assert again.state_key() == deal.state_key()
    assert again.scores == deal.scores
    assert again.movers == deal.movers


def test_a_record_of_an_unfinished_deal_round_trips() -> None:
    deal = Deal(players=3, seed=11)
    deal.push(next(iter(deal.legal_moves)))
    assert loads(dumps(deal)).state_key() == deal.state_key()


def test_house_rules_travel_with_the_record() -> None:
    rules = Rules(jokers=8, end_condition=EndCondition.ONE_ALIVE)
    deal = _played(5, 4, rules)
    again = loads(dumps(deal))
    assert again.rules == rules
    assert sum(again.counts_dealt()) == 112


def test_prepared_hands_round_trip() -> None:
    deal = Deal(hands=["5H 6H 7H 9C", "2S 2D 2C 9H"], dealer=1)
    play_randomly(deal, 0)
    again = from_record(to_record(deal))
    assert again.state_key() == deal.state_key()


def test_the_record_carries_readable_fields() -> None:
    data = _record()
    for key in ("rules", "seed", "players", "dealer", "moves", "initial_hands", "table"):
        assert key in data
    assert {"final_hands", "scores"} <= set(data)
    assert len(data["initial_hands"]) == data["players"] == 4
    assert all(len(h.split()) == 20 for h in data["initial_hands"])
    assert data["moves"], "a finished deal has moves"
    for move in data["moves"]:
        assert move["type"] in MOVE_TYPES and isinstance(move["player"], int)
    assert data["moves"][-1]["type"] in ("dead", "game")


def test_bad_json_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        loads("{not json")


def test_a_changed_card_names_the_move() -> None:
    data = _record()
    first_meld = next(i for i, m in enumerate(data["moves"]) if m["type"] == "meld")
    data["moves"][first_meld]["cards"] = "2S 3S 4S 5S 6S 7S"
    with pytest.raises(RecordError, match=f"move {first_meld + 1} "):
        from_record(data)


def test_an_unreadable_card_names_the_move() -> None:
    data = _record()
    data["moves"][0]["cards"] = "5H ZZ 7H"
    with pytest.raises(RecordError, match=r"move 1 cannot be read.*ZZ"):
        from_record(data)


def test_a_move_by_the_wrong_player_is_refused() -> None:
    data = _record()
    data["moves"][0]["player"] = (data["moves"][0]["player"] + 1) % data["players"]
    with pytest.raises(RecordError, match=r"move 1 .*turn-order"):
        from_record(data)


def test_a_changed_seed_no_longer_matches_the_hands() -> None:
    data = _record()
    data["seed"] += 1
    with pytest.raises(RecordError, match="initial_hands"):
        from_record(data)


def test_changed_scores_are_refused() -> None:
    data = _record()
    data["scores"][0] += 1
    with pytest.raises(RecordError, match="scores"):
        from_record(data)


def test_a_move_after_the_end_is_refused() -> None:
    data = _record()
    data["moves"].append({"player": 0, "type": "end_turn"})
    with pytest.raises(RecordError, match=rf"move {len(data['moves'])} .*rule end"):
        from_record(data)


def test_unknown_rule_settings_are_refused() -> None:
    data = _record()
    data["rules"]["wild_twos"] = True
    with pytest.raises(RecordError, match="wild_twos"):
        from_record(data)


def test_an_unknown_move_type_is_refused() -> None:
    data = _record()
    data["moves"][0]["type"] = "draw"
    with pytest.raises(RecordError, match="move 1 cannot be read"):
        from_record(data)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 5),
    jokers=st.sampled_from([6, 8]),
    cut=st.floats(0, 1),
)
def test_any_record_round_trips(seed: int, players: int, jokers: int, cut: float) -> None:
    """Finished or cut short, with either joker count, a record replays to the same deal."""
    deal = _played(seed, players, Rules(jokers=jokers))
    for _ in range(int(len(deal.move_stack) * cut)):
        deal.pop()
    again = loads(dumps(deal))
    assert again.state_key() == deal.state_key()
    assert [e for group in again.event_stack for e in group] == [
        e for group in deal.event_stack for e in group
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("players"), "no 'players'"),
        (lambda r: r.__setitem__("dealer", "x"), "'dealer' should be a whole number"),
        (lambda r: r.__setitem__("moves", [[1]]), "move 1 should be an object"),
        (lambda r: r["moves"][0].pop("type"), "move 1 cannot be read"),
        (lambda r: r.__setitem__("names", "abcd"), "'names' should be a list"),
        (lambda r: r["rules"].__setitem__("jokers", "x"), "jokers should be a whole number"),
        (lambda r: r["moves"][0].__setitem__("player", 9), "move 1 has a player"),
    ],
    ids=[
        "no-players",
        "dealer-text",
        "move-list",
        "move-no-type",
        "names-text",
        "jokers-text",
        "player-9",
    ],
)
def test_malformed_records_say_what_is_wrong(change: Any, message: str) -> None:
    data = _record()
    change(data)
    with pytest.raises(RecordError, match=message):
        from_record(data)
