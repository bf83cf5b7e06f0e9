"""Bad input gets one clear sentence, never a Python error (issue 8, item 2).

Tried as a new user would: wrong types, bools for numbers, huge and negative numbers, other
scripts' digits, text where a move is wanted, tampered records and bad command lines. A value of
the wrong type is an `ArgumentTypeError` (a `TypeError`, and a `ValueError` too) naming the
argument; a value out of range a `ValueError` saying what is allowed; unreadable text a
`CardParseError`; a well-formed move the rules forbid an `IllegalMove`. A refused call changes
nothing, and no refusal hangs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest

from penang_lib import (
    Card,
    CardParseError,
    Deal,
    EndTurn,
    IllegalMove,
    LayOff,
    Match,
    MeldMove,
    PlayerView,
    RecordError,
    Rules,
    Swap,
    can_play,
    check_lay_off,
    check_meld,
    check_swap,
    deadwood_points,
    dumps,
    explain,
    find_deal,
    from_record,
    full_deck,
    least_deadwood,
    loads,
    make_bot,
    parse_cards,
    parse_move,
    play_deal,
    simulate,
    to_record,
)
from penang_lib.cli import main
from penang_lib.data import frames
from penang_lib.data.simulate import MAX_DEALS, max_run_seed, usable_jobs
from penang_lib.engine import analysis
from penang_lib.engine.bots import bot_names
from penang_lib.engine.events import Event
from penang_lib.engine.validate import MAX_SEED, ArgumentTypeError
from tests.conftest import prepared

Capture = pytest.CaptureFixture[str]
Call = Callable[[], object]

LONGEST_MESSAGE = 320
"""A refusal is one sentence: never a wall of text (a long value is cut short in it)."""


def refusal(call: Call, kind: type[BaseException]) -> BaseException:
    with pytest.raises(kind) as caught:
        call()
    message = str(caught.value)
    assert message.strip() and "\n" not in message
    assert len(message) <= LONGEST_MESSAGE, message
    assert "Traceback" not in message
    return caught.value


def nines_to_play() -> Deal:
    """North to move, holding a meld of nines, after a first meld of hearts is on the table."""
    return prepared("5H 6H 7H 9C 9D 9S JK 8H", "5S 6S 7S 8C 8D 8S 2D", moves=["meld 5H 6H 7H"])


# -- wrong types: a TypeError that names the argument --------------------------------------------
WRONG_TYPES: list[tuple[str, Call, str]] = [
    ("parse_cards(None)", lambda: parse_cards(None), "parse_cards"),  # type: ignore[arg-type]
    ("parse_cards(5)", lambda: parse_cards(5), "parse_cards"),  # type: ignore[arg-type]
    ("parse_cards(bytes)", lambda: parse_cards(b"5H"), "parse_cards"),  # type: ignore[arg-type]
    ("parse_cards([None])", lambda: parse_cards(["5H", None]), "None"),  # type: ignore[list-item]
    ("check_meld(None)", lambda: check_meld(None), "cards"),  # type: ignore[arg-type]
    ("check_meld(rules=str)", lambda: check_meld("5H 6H 7H", "x"), "rules"),  # type: ignore[arg-type]
    ("check_lay_off(card=None)", lambda: check_lay_off("5H 6H 7H", None), "card"),  # type: ignore[arg-type]
    ("check_swap(meld=None)", lambda: check_swap(None, "7H"), "meld"),  # type: ignore[arg-type]
    ("can_play(table=str)", lambda: can_play("7H", "5H 6H 7H", True), "table"),
    ("can_play(passport=str)", lambda: can_play("7H", [], "no"), "passport"),  # type: ignore[arg-type]
    ("deadwood_points(5)", lambda: deadwood_points(5), "cards"),  # type: ignore[arg-type]
    ("least_deadwood(rules=str)", lambda: least_deadwood("5H", "x"), "rules"),  # type: ignore[arg-type]
    ("Card(True, H)", lambda: Card(True, "H"), "rank"),
    ("Card(5, None)", lambda: Card(5, None), "suit"),  # type: ignore[arg-type]
    ("Card.parse(None)", lambda: Card.parse(None), "Card.parse"),  # type: ignore[arg-type]
    ("full_deck(None)", lambda: full_deck(None), "packs"),  # type: ignore[arg-type]
    ("Deal(players='4')", lambda: Deal(players="4"), "players"),  # type: ignore[arg-type]
    ("Deal(players=4.0)", lambda: Deal(players=4.0), "players"),  # type: ignore[arg-type]
    ("Deal(seed='abc')", lambda: Deal(seed="abc"), "seed"),  # type: ignore[arg-type]
    ("Deal(seed=1.5)", lambda: Deal(seed=1.5), "seed"),  # type: ignore[arg-type]
    ("Deal(seed=True)", lambda: Deal(seed=True), "seed"),
    ("Deal(dealer='1')", lambda: Deal(dealer="1"), "dealer"),  # type: ignore[arg-type]
    ("Deal(rules={})", lambda: Deal(rules={}), "rules"),  # type: ignore[arg-type]
    ("Deal(names='abcd')", lambda: Deal(names="abcd"), "names"),
    ("Deal(names=[1, 2, 3, 4])", lambda: Deal(names=[1, 2, 3, 4]), "name"),  # type: ignore[list-item]
    ("Deal(hands='5H 6H')", lambda: Deal(hands="5H 6H"), "hands"),
    ("Deal(hands=[None, None])", lambda: Deal(hands=[None, None]), "hand"),  # type: ignore[list-item]
    ("Deal.hand('0')", lambda: Deal(seed=1).hand("0"), "player"),  # type: ignore[arg-type]
    ("Rules(packs='2')", lambda: Rules(packs="2"), "packs"),  # type: ignore[arg-type]
    ("Rules(packs=True)", lambda: Rules(packs=True), "packs"),
    ("Rules(all_joker_melds=1)", lambda: Rules(all_joker_melds=1), "all_joker_melds"),  # type: ignore[arg-type]
    ("Rules(values=None)", lambda: Rules(values=None), "card values"),  # type: ignore[arg-type]
    ("Rules(values=A:'15')", lambda: Rules(values={**Rules().values, "A": "15"}), "A"),  # type: ignore[dict-item]
    ("Rules(end_condition=None)", lambda: Rules(end_condition=None), "end_condition"),  # type: ignore[arg-type]
    ("Rules.from_dict([])", lambda: Rules.from_dict([]), "rule settings"),  # type: ignore[arg-type]
    ("Match(deals='4')", lambda: Match(deals="4"), "deals"),  # type: ignore[arg-type]
    ("Match(seed='x')", lambda: Match(seed="x"), "seed"),  # type: ignore[arg-type]
    ("make_bot(None)", lambda: make_bot(None), "name"),  # type: ignore[arg-type]
    ("make_bot(seed='x')", lambda: make_bot("careful", "x"), "seed"),  # type: ignore[arg-type]
    ("bot.choose(None)", lambda: make_bot("careful").choose(None), "PlayerView"),  # type: ignore[arg-type]
    ("PlayerView.of(None)", lambda: PlayerView.of(None), "Deal"),  # type: ignore[arg-type]
    ("simulate('10')", lambda: simulate("10"), "deals"),  # type: ignore[arg-type]
    ("simulate(jobs=1.5)", lambda: simulate(1, jobs=1.5), "jobs"),  # type: ignore[arg-type]
    ("simulate(progress='yes')", lambda: simulate(1, progress="yes"), "progress"),  # type: ignore[arg-type]
    ("play_deal('1')", lambda: play_deal("1"), "seed"),  # type: ignore[arg-type]
    ("bot_names([None])", lambda: bot_names([None], 4), "name"),  # type: ignore[list-item]
    ("find_deal(limit='5')", lambda: find_deal(["swap"], limit="5"), "limit"),  # type: ignore[arg-type]
    ("find_deal([5])", lambda: find_deal([5]), "rule id"),  # type: ignore[list-item]
    ("explain(None)", lambda: explain(None), "Event"),  # type: ignore[arg-type]
    ("explain(names='ab')", lambda: explain(Event("dealer", 0), "ab"), "names"),
    ("hands_frame(None)", lambda: frames.hands_frame(None), "deal"),  # type: ignore[arg-type]
    ("hands_frame(show=1)", lambda: frames.hands_frame(Deal(seed=1), show=1), "show"),  # type: ignore[arg-type]
    ("log_frame(steps='2')", lambda: frames.log_frame(Deal(seed=1), "2"), "steps"),  # type: ignore[arg-type]
    ("match_frame(None)", lambda: frames.match_frame(None), "match"),  # type: ignore[arg-type]
    ("parse_move(None)", lambda: parse_move(None), "parse_move"),  # type: ignore[arg-type]
    ("MeldMove('9C 9D 9S')", lambda: MeldMove("9C 9D 9S"), "MeldMove.of"),  # type: ignore[arg-type]
    ("MeldMove((None,))", lambda: MeldMove((None,)), "Card"),  # type: ignore[arg-type]
    ("from_record(5)", lambda: from_record(5), "from_record"),  # type: ignore[arg-type]
    ("loads(None)", lambda: loads(None), "loads"),  # type: ignore[arg-type]
    ("to_record(None)", lambda: to_record(None), "Deal"),  # type: ignore[arg-type]
    ("dumps(indent='  ')", lambda: dumps(Deal(seed=1), indent="  "), "indent"),  # type: ignore[arg-type]
    ("find_action(None)", lambda: analysis.find_action(None, [], True, Rules()), "counts"),  # type: ignore[arg-type]
    ("iter_melds(rules=None)", lambda: analysis.iter_melds((0,) * 53, None), "rules"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(
    ("call", "named"), [(c, n) for _, c, n in WRONG_TYPES], ids=[i for i, _, _ in WRONG_TYPES]
)
def test_a_wrong_type_is_a_type_error_naming_the_argument(call: Call, named: str) -> None:
    error = refusal(call, TypeError)
    assert isinstance(error, ArgumentTypeError)
    assert isinstance(error, ValueError)  # code that caught the older ValueErrors still does
    assert named in str(error)


# -- out of range: a ValueError saying what is allowed -------------------------------------------
OUT_OF_RANGE: list[tuple[str, Call, str]] = [
    (
        "four players, hands of 28",
        lambda: Deal(players=4, rules=Rules(hand_size_large=28)),
        "deck is too small",
    ),
    ("Rules(min_players=1)", lambda: Rules(min_players=1), "two to five"),
    ("Rules(max_players=6)", lambda: Rules(max_players=6), "two to five"),
    ("Rules(min > max)", lambda: Rules(min_players=4, max_players=3), "min_players"),
    ("Rules(packs=2**63)", lambda: Rules(packs=2**63), "packs"),
    ("Rules(jokers=10**100)", lambda: Rules(jokers=10**100), "jokers"),
    ("Rules(jokers=-1)", lambda: Rules(jokers=-1), "jokers"),
    ("Rules(hand 10**6)", lambda: Rules(hand_size_small=10**6), "whole deck"),
    ("Rules(values A=-1)", lambda: Rules(values={**Rules().values, "A": -1}), "value of A"),
    ("Rules(values A=10**100)", lambda: Rules(values={**Rules().values, "A": 10**100}), "A"),
    ("Rules(values Z)", lambda: Rules(values={**Rules().values, "Z": 3}), "Z"),
    ("Rules(end_condition=x)", lambda: Rules(end_condition="sometimes"), "all_dead"),  # type: ignore[arg-type]
    ("Rules.packs_for(9)", lambda: Rules().packs_for(9), "players"),
    ("Rules.card_value(-1)", lambda: Rules().card_value(-1), "rank"),
    ("Deal(players=1)", lambda: Deal(players=1), "players"),
    ("Deal(players=2**63)", lambda: Deal(players=2**63), "players"),
    ("Deal(seed=-1)", lambda: Deal(seed=-1), "seed"),
    ("Deal(seed=2**63)", lambda: Deal(seed=2**63), "seed"),
    ("Deal(seed=10**100)", lambda: Deal(seed=10**100), "seed"),
    ("Deal(dealer=4)", lambda: Deal(dealer=4), "dealer"),
    ("Deal(names twice)", lambda: Deal(names=["a", "a", "b", "c"]), "share"),
    ("Deal(names empty)", lambda: Deal(names=["", "b", "c", "d"]), "name"),
    ("Deal(names long)", lambda: Deal(names=["x" * 100_000, "b", "c", "d"]), "name"),
    ("Deal.hand(4)", lambda: Deal(seed=1).hand(4), "player"),
    ("Deal.count(-1)", lambda: Deal(seed=1).count(-1), "player"),
    ("Card.from_index(2**63)", lambda: Card.from_index(2**63), "index"),
    ("full_deck(packs=2**63)", lambda: full_deck(packs=2**63), "packs"),
    ("full_deck(jokers=10**100)", lambda: full_deck(jokers=10**100), "jokers"),
    ("Match(deals=10**9)", lambda: Match(deals=10**9), "deals"),
    ("simulate(10**100)", lambda: simulate(10**100), f"{MAX_DEALS:,}"),
    ("simulate(seed=2**63-1)", lambda: simulate(2, seed=MAX_SEED), "seed"),
    ("simulate(seed=-1)", lambda: simulate(2, seed=-1), "seed"),
    ("bot_names(players=10**100)", lambda: bot_names("careful", 10**100), "players"),
    ("find_deal(limit=2**63)", lambda: find_deal(["swap"], limit=2**63), "limit"),
    ("find_deal(start_seed=-1)", lambda: find_deal(["swap"], start_seed=-1), "start_seed"),
    ("parse_move('meld')", lambda: parse_move("meld"), "meld"),
    ("explain(made-up detail)", lambda: explain(Event("players", detail="many")), "explained"),
    ("explain(player=-1)", lambda: explain(Event("dealer", -1)), "player"),
]


@pytest.mark.parametrize(
    ("call", "named"), [(c, n) for _, c, n in OUT_OF_RANGE], ids=[i for i, _, _ in OUT_OF_RANGE]
)
def test_a_value_out_of_range_is_one_sentence(call: Call, named: str) -> None:
    error = refusal(call, ValueError)
    assert named in str(error)


def test_the_deck_that_is_too_small_says_by_how_much() -> None:
    rules = Rules(hand_size_large=28)  # three players still fit: 3 x 25 of 110
    assert Deal(players=3, rules=rules).players == 3
    error = refusal(lambda: rules.require_deal(4), ValueError)
    deck = 52 * rules.packs_for(4) + rules.jokers
    assert f"4 x 28 = {4 * 28}" in str(error) and f"only {deck}" in str(error)
    assert Rules(packs=1).packs == 1  # a one-pack rule set still checks melds


def test_rules_stay_hashable_and_equal_by_value() -> None:
    assert hash(Rules()) == hash(Rules()) and Rules(jokers=8) == Rules(jokers=8)


# -- other scripts' digits are refused, in cards and in meld numbers -----------------------------
@pytest.mark.parametrize(
    "text",
    [
        "\u0663H",
        "\uff13H",
        "\u00b2H",
        "JK@\u0663H",
        "JK@\uff13",
        "\uff15H \uff16H \uff17H",
        "x" * 100_000,
        "5H\x00",
    ],
)
def test_card_text_in_other_digits_is_not_a_card(text: str) -> None:
    refusal(lambda: parse_cards(text), CardParseError)


@pytest.mark.parametrize(
    "text",
    [
        "lay_off \u0663 8H",
        "lay_off \uff13 8H",
        "swap \u00b2 7H",
        "swap \u2177 7H",
        "lay_off -1 8H",
        "lay_off 1_0 8H",
        "lay_off " + "9" * 5000 + " 8H",
        "meld",
        "meld " + "\u0663H " * 3,
    ],
)
def test_move_text_in_other_digits_is_unreadable(text: str) -> None:
    refusal(lambda: parse_move(text), CardParseError)


def test_a_long_meld_number_in_plain_digits_is_a_move_the_rules_refuse() -> None:
    move = parse_move("lay_off 99999999999 8H")
    assert move == LayOff(99_999_999_999, Card.parse("8H"))
    error = refusal(lambda: nines_to_play().push(move), IllegalMove)
    assert isinstance(error, IllegalMove) and error.rule == "lay-off"


# -- push: a malformed move is a TypeError (pointing at parse_move for text), nothing changes ----
def _raw_meld(*cards: object) -> MeldMove:
    """A MeldMove whose cards were put in behind its constructor's back."""
    move = MeldMove(())
    object.__setattr__(move, "cards", cards)
    return move


EIGHT = Card.parse("8H")
MALFORMED: list[tuple[str, Callable[[], Any], str]] = [
    ("text", lambda: "meld 9C 9D 9S", "parse_move"),
    ("None", lambda: None, "move"),
    ("a number", lambda: 5, "move"),
    ("the EndTurn class", lambda: EndTurn, "EndTurn()"),
    ("a dict", lambda: {"type": "end_turn"}, "move"),
    ("meld number text", lambda: LayOff("0", EIGHT), "meld number"),  # type: ignore[arg-type]
    ("meld number False", lambda: LayOff(False, EIGHT), "meld number"),
    ("meld number True", lambda: Swap(True, EIGHT), "meld number"),
    ("meld number 0.0", lambda: LayOff(0.0, EIGHT), "meld number"),  # type: ignore[arg-type]
    ("meld number nan", lambda: LayOff(float("nan"), EIGHT), "meld number"),  # type: ignore[arg-type]
    ("card None", lambda: LayOff(0, None), "card"),  # type: ignore[arg-type]
    ("card text", lambda: Swap(0, "8H"), "parse_move"),  # type: ignore[arg-type]
    ("a None in a meld", lambda: _raw_meld(Card.parse("9C"), Card.parse("9D"), None), "Card"),
    ("text in a meld", lambda: _raw_meld("9C", "9D", "9S"), "parse_move"),
]


@pytest.mark.parametrize(
    ("make", "named"), [(m, n) for _, m, n in MALFORMED], ids=[i for i, _, _ in MALFORMED]
)
def test_a_malformed_move_is_a_type_error_and_changes_nothing(
    make: Callable[[], Any], named: str
) -> None:
    deal = nines_to_play()
    key, events, stack = deal.state_key(), list(deal.events), list(deal.move_stack)
    for attempt in (deal.push, deal.is_legal, deal.explain_illegal):
        error = refusal(lambda attempt=attempt: attempt(make()), TypeError)  # type: ignore[misc]
        assert named in str(error)
    assert deal.state_key() == key and deal.events == events and deal.move_stack == stack


@pytest.mark.parametrize("player", ["0", 0.0, True, False, None.__class__, [0]])
def test_a_player_that_is_not_a_seat_number_is_a_type_error(player: object) -> None:
    deal = nines_to_play()
    key = deal.state_key()
    error = refusal(lambda: deal.push(EndTurn(), player), TypeError)  # type: ignore[arg-type]
    assert "player" in str(error)
    assert deal.state_key() == key


@pytest.mark.parametrize("player", [-1, 2, 2**63, 10**100])
def test_a_seat_not_at_the_table_is_refused_by_rule_turn_order(player: int) -> None:
    deal = nines_to_play()
    key = deal.state_key()
    error = refusal(lambda: deal.push(EndTurn(), player), IllegalMove)
    assert isinstance(error, IllegalMove) and error.rule == "turn-order"
    assert not deal.is_legal(EndTurn(), player)
    assert deal.state_key() == key


@pytest.mark.parametrize("target", [-1, 7, 2**63])
def test_a_meld_number_not_on_the_table_is_an_illegal_move(target: int) -> None:
    deal = nines_to_play()
    key = deal.state_key()
    error = refusal(lambda: deal.push(LayOff(target, EIGHT)), IllegalMove)
    assert isinstance(error, IllegalMove) and error.rule == "lay-off"
    assert deal.state_key() == key


def test_push_text_reads_then_pushes_like_push_san() -> None:
    one, two = nines_to_play(), nines_to_play()
    events = one.push_text("lay_off 0 8H")
    assert events == two.push(parse_move("lay_off 0 8H"))
    assert one.state_key() == two.state_key()
    key = one.state_key()
    refusal(lambda: one.push_text("lay_off \u0663 9C"), CardParseError)
    refusal(lambda: one.push_text(None), TypeError)  # type: ignore[arg-type]
    refusal(lambda: one.push_text("lay_off 0 9C"), IllegalMove)
    assert one.state_key() == key


# -- records: format, version and every field checked -------------------------------------------
def _record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumps(play_deal(5)))
    return data


def _set(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    return lambda record: record.__setitem__(key, value)


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda record: record.pop(key)


def _move(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        first = next(m for m in record["moves"] if m["type"] == "lay_off")
        first[key] = value

    return change


RECORD_CHANGES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("no format", _drop("format"), "format"),
    ("foreign format", _set("format", "chess/pgn"), "not a Penang Rummy deal record"),
    ("no version", _drop("version"), "version"),
    ("unknown version", _set("version", 99), "version 99"),
    ("version text", _set("version", "1"), "version"),
    ("players text", _set("players", "4"), "players"),
    ("players bool", _set("players", True), "players"),
    ("players 9", _set("players", 9), "players"),
    ("dealer 7", _set("dealer", 7), "dealer"),
    ("seed text", _set("seed", "abc"), "seed"),
    ("seed float", _set("seed", 5.0), "seed"),
    ("seed negative", _set("seed", -5), "seed"),
    ("seed 2**63", _set("seed", 2**63), "seed"),
    ("names numbers", _set("names", [1, 2, 3, 4]), "names"),
    ("prepared text", _set("prepared", "yes"), "prepared"),
    ("initial_hands short", lambda r: r["initial_hands"].pop(), "initial_hands"),
    ("initial_hands numbers", _set("initial_hands", [1, 2, 3, 4]), "initial_hands"),
    ("moves object", _set("moves", {"type": "dead"}), "moves"),
    ("move meld number text", _move("meld", "0"), "move"),
    ("move meld number bool", _move("meld", False), "move"),
    ("move card None", _move("card", None), "move"),
    ("move card number", _move("card", 5), "move"),
    ("move player bool", _move("player", True), "player"),
    ("move type None", _move("type", None), "move"),
    ("move extra field", _move("cards", "8H"), "move"),
    ("table entries", _set("table", [None, 5]), "table"),
    ("final_hands short", lambda r: r["final_hands"].pop(), "final_hands"),
    ("scores text", lambda r: r.__setitem__("scores", [str(s) for s in r["scores"]]), "scores"),
    ("winners changed", lambda r: r.__setitem__("winners", [0, 1, 2, 3]), "winners"),
    ("over flipped", lambda r: r.__setitem__("over", not r["over"]), "over"),
    ("over text", _set("over", "true"), "over"),
    ("rules values None", lambda r: r["rules"].__setitem__("values", None), "card values"),
    ("rules end bogus", lambda r: r["rules"].__setitem__("end_condition", "x"), "end_condition"),
    ("rules list", _set("rules", []), "rules"),
]


@pytest.mark.parametrize(
    ("change", "named"),
    [(c, n) for _, c, n in RECORD_CHANGES],
    ids=[i for i, _, _ in RECORD_CHANGES],
)
def test_a_bad_record_field_is_a_record_error_naming_it(
    change: Callable[[dict[str, Any]], None], named: str
) -> None:
    record = _record()
    change(record)
    error = refusal(lambda: from_record(record), RecordError)
    assert named in str(error)
    error = refusal(lambda: loads(json.dumps(record)), RecordError)
    assert named in str(error)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested"),
        ('{"players": NaN}', "format"),
        ("[1, 2]", "object"),
        ("", "JSON"),
    ],
)
def test_unreadable_json_is_a_record_error(text: str, named: str) -> None:
    assert named in str(refusal(lambda: loads(text), RecordError))


def test_a_record_keeps_its_own_notes_and_round_trips_every_seed() -> None:
    record = _record()
    record["bots"] = ["careful"] * 4  # a tool's note, as the golden files carry
    record["moves"][0]["why"] = "a bot's reason"
    assert from_record(record).state_key() == play_deal(5).state_key()
    for seed in (0, 2**32, MAX_SEED):
        deal = Deal(seed=seed)
        assert loads(dumps(deal)).state_key() == deal.state_key()


# -- bounded, never hanging -----------------------------------------------------------------------
def test_jobs_are_bounded_by_the_machine() -> None:
    cores = os.cpu_count() or 1
    assert usable_jobs(999_999) == cores and usable_jobs(1) == 1
    assert simulate(2, jobs=10**6, progress=False).equals(simulate(2, progress=False))


def test_the_largest_run_seed_keeps_every_deal_seed_in_range() -> None:
    top = max_run_seed(3)
    frame = simulate(3, seed=top, progress=False)
    assert int(frame["seed"].max()) <= MAX_SEED
    assert str(frame["seed"].dtype) == "int64"
    refusal(lambda: simulate(3, seed=top + 1), ValueError)


def test_index_errors_stay_where_a_position_in_a_sequence_is_asked_for() -> None:
    deal = Deal(seed=1)
    assert "no move" in str(refusal(deal.pop, IndexError))
    assert "steps 0 to 0" in str(refusal(lambda: frames.step_changes(deal, 10**100), IndexError))
    view = PlayerView.of(deal)
    assert "legal moves" in str(refusal(lambda: view.nth_move(10**100), IndexError))
    refusal(lambda: view.nth_move("1"), TypeError)  # type: ignore[arg-type]


# -- the command line: exit 2, one line on stderr, no traceback -----------------------------------
def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as stop:
        status = int(stop.code) if isinstance(stop.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


BAD_COMMANDS = [
    ["simulate", "--deals", "2", "--seed", str(MAX_SEED)],
    ["simulate", "--deals", "2", "--seed", str(2**64)],
    ["simulate", "--deals", "\u0663"],
    ["simulate", "--deals", "\uff13"],
    ["simulate", "--deals", "99999999999"],
    ["simulate", "--deals", "9" * 5000],
    ["simulate", "--deals", "2", "--jobs", "-1"],
    ["simulate", "--deals", "2", "--players", "\u0664"],
    ["simulate", "--deals", "2", "--csv", "bad\x00name.csv"],
    ["deal", "--seed", "-1"],
    ["deal", "--seed", "1_000"],
    ["deal", "--seed", "1e3"],
    ["deal", "--limit", "5"],
    ["deal", "--shows", "swap", "--seed", str(MAX_SEED), "--limit", "5"],
    ["deal", "--shows", "swap", "--limit", str(10**7)],
    ["deal", "--shows", "x" * 10_000],
    ["deal", "--bots", ",".join(["careful"] * 6)],
    ["deal", "--bots", "x" * 10_000],
    ["deal", "--players", "9" * 100],
    ["check", "--swap", "7H"],
    ["check", "\u0663H"],
    ["check", "x" * 100_000],
    ["check", "8H", "--on", "5H 6H ZZ"],
]


@pytest.mark.parametrize("argv", BAD_COMMANDS, ids=lambda a: " ".join(a)[:50])
def test_a_bad_command_line_is_one_line_and_exit_2(capsys: Capture, argv: list[str]) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("penang-rummy: ")
    assert len(err) <= LONGEST_MESSAGE and "Traceback" not in err


def test_too_many_jobs_are_bounded_with_one_line(capsys: Capture) -> None:
    status, out, err = run(capsys, "simulate", "--deals", "2", "--jobs", "999999", "--json")
    assert status == 0
    assert err.count("\n") == 1 and err.startswith("penang-rummy: ") and "cores" in err
    assert json.loads(out)["jobs"] == usable_jobs(999_999)


def test_the_largest_seed_is_a_deal(capsys: Capture) -> None:
    status, out, err = run(capsys, "deal", "--seed", str(MAX_SEED), "--json")
    assert status == 0 and err == ""
    assert loads(out).seed == MAX_SEED
