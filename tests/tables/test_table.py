"""One table (`penang_lib.tables.table.Table`): who sits where, the start, every move through the
engine, what each seat may see, stand-in bots, the match's next deal, and a table built again
from its moves."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from penang_lib.engine.bots import forced_move
from penang_lib.engine.cards import Card, parse_cards
from penang_lib.engine.deal import Deal
from penang_lib.engine.match import next_dealer
from penang_lib.engine.melds import Meld
from penang_lib.tables.table import (
    MAX_NAME,
    STAND_IN_AFTER,
    STAND_IN_BOT,
    Table,
    TableError,
    meld_of_state,
    meld_state,
    read_name,
)
from tests.tables.helpers import Clock, play_out


def two_people(
    players: int = 4, seed: int = 5, clock: Clock | None = None
) -> tuple[Table, dict[int, str]]:
    table = Table("ACDEF", players, seed, clock=clock or Clock())
    tokens = {}
    for name in ("Ana", "Bo"):
        seat, token = table.sit(name)
        tokens[seat] = token
    return table, tokens


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "Type a name"),
        ("   ", "Type a name"),
        (None, "Type a name"),
        ("x" * (MAX_NAME + 1), f"at most {MAX_NAME} characters"),
        ("<script>x()</script>", "no angle brackets"),
        ('Ana "the best"', "no angle brackets"),
        ("Ana\u200b", "no angle brackets"),
        ("Ana\n", None),  # the spaces around a name are dropped
    ],
)
def test_a_name_is_checked(name: object, words: str | None) -> None:
    if words is None:
        assert read_name(name) == "Ana"
        return
    with pytest.raises(TableError, match=words) as caught:
        read_name(name)
    assert caught.value.rule == "table.name"


def test_people_sit_in_order_and_a_name_is_taken_once() -> None:
    table, tokens = two_people(3)
    assert sorted(tokens) == [0, 1] and table.names() == ["Ana", "Bo", None]
    with pytest.raises(TableError, match="already called Bo") as caught:
        table.sit("bo")
    assert caught.value.rule == "table.name"
    table.sit("Cy")
    with pytest.raises(TableError, match="Every seat") as full:
        table.sit("Di")
    assert full.value.rule == "table.full"


def test_only_the_starter_starts_and_then_no_one_sits_down() -> None:
    table, tokens = two_people()
    with pytest.raises(TableError) as caught:
        table.start(tokens[1])
    assert caught.value.rule == "table.start" and not table.started
    with pytest.raises(TableError) as forged:
        table.start("not-a-token")
    assert forged.value.rule == "table.token"
    table.start(tokens[0], {2: "greedy"})
    assert [s.bot if s else None for s in table.seats] == [None, None, "greedy", "careful"]
    with pytest.raises(TableError) as late:
        table.sit("Cy")
    assert late.value.rule == "table.started"
    with pytest.raises(TableError) as again:
        table.start(tokens[0])
    assert again.value.rule == "table.started"


@pytest.mark.parametrize(
    ("bots", "rule"),
    [({0: "careful"}, "table.bot"), ({2: "wizard"}, "table.bot"), ({7: "careful"}, "table.bot")],
)
def test_a_bot_for_a_taken_seat_or_of_no_kind_is_refused(bots: dict[int, str], rule: str) -> None:
    table, tokens = two_people()
    with pytest.raises(TableError) as caught:
        table.start(tokens[0], bots)
    assert caught.value.rule == rule and not table.started


def test_each_seat_sees_its_own_hand_and_only_the_sizes_of_the_others() -> None:
    table, tokens = two_people()
    table.start(tokens[0])
    deal = table.deal
    assert deal is not None
    for seat in (0, 1):
        state = table.state(seat)
        assert parse_cards(" ".join(state["hand"])) == deal.hand(seat)
        assert state["hand_sizes"] == [20, 20, 20, 20]
        assert "hands" not in state and "scores" not in state
    spectator = table.state(None)
    assert spectator["hand"] == [] and "legal_moves" not in spectator


def test_the_legal_moves_go_to_the_seat_to_play_only() -> None:
    table, tokens = two_people()
    table.start(tokens[0])
    deal = table.deal
    assert deal is not None
    while table.bot_due() is not None:
        table.play_bot()
    seat = deal.turn
    assert seat in tokens
    assert table.state(seat)["legal_moves"] == [str(m) for m in deal.legal_moves][:400]
    assert "legal_moves" not in table.state(1 - seat)
    # Every seat and a spectator can tell which move a state follows.
    before = {s["move_number"] for s in (table.state(0), table.state(1), table.state(None))}
    assert before == {len(deal.move_stack)}
    table.move(tokens[seat], table.state(seat)["legal_moves"][0])
    assert table.state(1 - seat)["move_number"] == before.pop() + 1


def test_a_move_out_of_turn_with_a_wrong_token_or_illegal_changes_nothing() -> None:
    table, tokens = two_people()
    table.start(tokens[0])
    deal = table.deal
    assert deal is not None
    while table.bot_due() is not None:
        table.play_bot()
    seat = deal.turn
    other = 1 - seat
    before = len(deal.move_stack)
    with pytest.raises(TableError, match="It is not your turn") as turn:
        table.move(tokens[other], table.state(seat)["legal_moves"][0])
    assert turn.value.rule == "table.turn"
    with pytest.raises(TableError) as token:
        table.move("forged", "end")
    assert token.value.rule == "table.token"
    with pytest.raises(TableError, match="does not hold") as illegal:
        table.move(tokens[seat], "meld JK JK JK JK JK JK JK")
    assert illegal.value.rule in {"meld", "joker", "deck"}
    with pytest.raises(TableError) as unreadable:
        table.move(tokens[seat], "fly to the moon")
    assert unreadable.value.rule == "table.message"
    assert len(deal.move_stack) == before


def test_a_whole_match_deal_then_the_next_dealer_by_the_rule_book() -> None:
    table, tokens = two_people(seed=8)
    table.start(tokens[0], {2: "random", 3: "greedy"})
    with pytest.raises(TableError, match="not over yet"):
        table.deal_again(tokens[1])
    play_out(table, tokens)
    deal = table.deal
    assert deal is not None and deal.is_over
    over = table.state(1)
    assert over["over"] and over["scores"] == deal.scores and over["winners"] == deal.winners
    assert [parse_cards(" ".join(h)) for h in over["hands"]] == [deal.hand(p) for p in range(4)]
    assert over["totals"] == deal.scores
    assert over["events"][-1]["rule"] == "scoring"
    table.deal_again(tokens[1])
    second = table.deal
    assert second is not None and second is not deal and table.deal_number == 2
    assert table.state(0)["move_number"] == 0  # counted afresh in each deal
    assert second.dealer == next_dealer(
        deal.dealer, deal.scores, deal.winners, table.rules.dealer_system
    )


def test_a_person_away_too_long_is_played_by_a_bot_until_they_come_back() -> None:
    clock = Clock()
    table, tokens = two_people(clock=clock)
    table.start(tokens[0])
    table.disconnect(1)
    clock.advance(STAND_IN_AFTER - 1)
    assert table.stand_ins_due() == []
    clock.advance(1)
    assert table.stand_ins_due() == [1]
    seat = table.seats[1]
    assert seat is not None and seat.standing_in and seat.played_by_bot
    assert table.seat_states()[1]["bot"] == STAND_IN_BOT
    deal = table.deal
    assert deal is not None
    while not deal.is_over and deal.turn != 1:
        if table.bot_due() is not None:
            table.play_bot()
        else:
            table.move(tokens[deal.turn], table.state(deal.turn)["legal_moves"][0])
    if not deal.is_over:
        assert table.bot_due() == 1 and "legal_moves" not in table.state(1)
        assert table.state(1)["forced_move"] is None  # the stand-in's business, not the page's
        table.connect(1)
        assert table.bot_due() is None and not seat.standing_in


def test_a_bots_answer_to_an_old_position_is_refused() -> None:
    table, tokens = two_people()
    table.start(tokens[0])
    job = table.bot_job()
    assert job is not None
    move = job.choose()
    table.apply_bot(job, move)
    with pytest.raises(TableError) as caught:
        table.apply_bot(job, move)
    assert caught.value.rule == "table.turn"


def test_a_table_built_again_from_its_moves_is_the_same() -> None:
    table, tokens = two_people(seed=11)
    table.start(tokens[0], {3: "greedy"})
    play_out(table, tokens)
    table.deal_again(tokens[0])
    for _ in range(15):
        if table.bot_due() is not None:
            table.play_bot()
    moves: list[tuple[int, str]] = []
    assert table.match is not None
    for number, deal in enumerate(table.match.deals, 1):
        if number > 1:
            moves.append((number, ""))
        moves.extend((number, str(m)) for m in deal.move_stack)
    seats = [(s.name, s.digest, s.bot) for s in table.seats if s is not None]
    again = Table.restore("ACDEF", 4, 11, table.rules, seats, True, moves)
    for seat in (0, 1, None):
        mine, theirs = table.state(seat), again.state(seat)
        mine.pop("seats"), theirs.pop("seats")  # connected or away: the restart's news
        assert mine == theirs
    assert again.seat_of(tokens[1]) == 1


def secrets_in(state: dict[str, Any], deal: Deal, seat: int | None) -> list[str]:
    """Cards of the hands `seat` may not see (none of them on the table, none a card a joker on
    the table stands for, none in `seat`'s own hand) written anywhere in `state`: in the card
    notation, as a symbol or by name."""
    public = {c.plain for meld in deal.table for c in meld.cards}
    public |= set(deal.hand(seat)) if seat is not None else set()
    for meld in deal.table:
        for card in meld.cards:
            if card.is_joker and card.as_rank is not None and card.as_suit is not None:
                public.add(Card(card.as_rank, card.as_suit))
    hidden = {c for p in range(deal.players) if p != seat for c in deal.hand(p)}
    text = json.dumps(state, ensure_ascii=False)
    found = []
    for card in sorted((c for c in hidden if not c.is_joker and c not in public), key=str):
        notation = re.compile(rf"(?<![A-Za-z0-9@]){re.escape(str(card))}(?![A-Za-z0-9])")
        if card.symbol in text or card.name in text or notation.search(text):
            found.append(str(card))
    return found


def test_no_state_holds_a_card_of_another_seat_before_the_deal_is_over() -> None:
    table, tokens = two_people(seed=7)
    table.start(tokens[0], {2: "greedy", 3: "random"})
    deal = table.deal
    assert deal is not None
    steps = 0
    while not deal.is_over:
        for seat in (0, 1, 2, 3, None):
            assert secrets_in(table.state(seat), deal, seat) == [], (steps, seat)
        if table.bot_due() is not None:
            table.play_bot()
        else:
            table.move(tokens[deal.turn], table.state(deal.turn)["legal_moves"][0])
        steps += 1
    assert steps > 20
    # The check can fail: once the deal is over every hand is in every state.
    assert any(secrets_in(table.state(seat), deal, seat) for seat in (0, 1))


def test_each_meld_comes_with_its_reading_and_reads_back_as_the_engines_own() -> None:
    runs = [Meld.run("H", 5, parse_cards("5H 6H JK")), Meld.run("S", 12, parse_cards("QS KS AS"))]
    sets = [Meld.set_of(9, parse_cards("9S 9H JK")), Meld.set_of(1, parse_cards("AS AH AD"))]
    for meld in (*runs, *sets):
        entry = meld_state(meld, 2)
        assert entry["owner"] == 2 and entry["kind"] == meld.kind.value
        assert entry["cards"] == str(meld) and "JK " not in entry["cards"] + " "
        assert meld_of_state(json.loads(json.dumps(entry))) == meld
    assert meld_state(runs[0], 0) | {"owner": 0} == {
        "cards": "5H 6H JK@7H",
        "kind": "run",
        "owner": 0,
        "low": 5,
        "suit": "H",
    }
    for wrong in ({"low": 6}, {"suit": "S"}, {"kind": "set"}, {"low": "5"}):
        with pytest.raises(ValueError):
            meld_of_state({**meld_state(runs[0], 0), **wrong})
    table, tokens = two_people(seed=8)
    table.start(tokens[0])
    play_out(table, tokens)
    deal = table.deal
    assert deal is not None and deal.table
    melds = table.state(None)["melds"]
    assert [meld_of_state(m) for m in melds] == list(deal.table)
    assert [m["owner"] for m in melds] == list(deal.owners)


def test_the_seat_to_play_is_told_its_forced_move_and_the_counts_it_may_see() -> None:
    table, tokens = two_people(seed=9)
    table.start(tokens[0])
    deal = table.deal
    assert deal is not None
    forced_seen = 0
    while not deal.is_over:
        for seat in (0, 1, 2, 3, None):
            state = table.state(seat)
            expected = forced_move(deal, seat) if seat is not None else None
            assert state["forced_move"] == (str(expected) if expected is not None else None)
            assert state["hand_points"] == [
                deal.count(p) if p == seat else None for p in range(deal.players)
            ]
        forced_seen += table.state(deal.turn)["forced_move"] is not None
        if table.bot_due() is not None:
            table.play_bot()
        else:
            table.move(tokens[deal.turn], table.state(deal.turn)["legal_moves"][0])
    assert forced_seen > 0  # Dead or Game came at least once
    over = table.state(None)
    assert over["hand_points"] == [deal.count(p) for p in range(deal.players)]
    assert over["forced_move"] is None
    before = Table("ACDEF", 2, 1).state(0)
    assert "forced_move" not in before and "hand_points" not in before
