"""python-chess manners of `Deal` (issue 9, item 1), tried the way a new user would.

`legal_moves` is a lazy, live collection that lists no move twice; `outcome()`, `peek()`,
`root()` and `ply()`; properties for the plain facts (`is_over`, `alive`, `scores`, `winners`);
equality by position; what the engine shows (card symbols, move labels) reads back through
`parse_cards` and `parse_move`; `str(deal)` tells the turn, the counts and the result; and the
README's section "Using the engine from Python" runs as written.
"""

from __future__ import annotations

import dataclasses
import doctest
import random
import re
from collections.abc import Collection, Iterator

import pytest

from penang_lib import (
    JOKER,
    Card,
    CardParseError,
    Deal,
    DeclareDead,
    DeclareGame,
    EndCondition,
    EndTurn,
    IllegalMove,
    LayOff,
    LegalMoves,
    MeldMove,
    Outcome,
    Rules,
    Status,
    Swap,
    Termination,
    parse_cards,
    parse_move,
    play_deal,
)
from penang_lib.engine.analysis import iter_melds
from penang_lib.engine.cards import NATURALS, SUITS, cards_symbols, noted_joker
from penang_lib.engine.moves import REPR_MOVES, Move
from tests.checkout import REPO
from tests.conftest import prepared

README = REPO / "README.md"
SECTION = "## Using the engine from Python"
WALK_DEALS = 200
"""Seeded random deals walked for the no-repeat check."""
ROUND_TRIP_DEALS = 25
"""Of those, the deals whose every legal move (at every third position) is read back."""

ACE_TO_ACE = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
"""Thirteen hearts: with a joker they make the run from ace to ace, and the joker can stand for
either ace."""


# -- helpers -------------------------------------------------------------------------------------
def walk(seed: int, rules: Rules | None = None) -> Iterator[tuple[Deal, list[Move]]]:
    """A seeded deal (2 to 5 players, by seed) played to the end by random legal moves: each
    position with its legal moves, before the chosen one is pushed (the end comes with none)."""
    rng = random.Random(seed)
    deal = Deal(players=2 + seed % 4, seed=seed, rules=rules)
    while not deal.is_over:
        moves = list(deal.legal_moves)
        yield deal, moves
        deal.push(rng.choice(moves))
    yield deal, []


def finished(termination: Termination) -> Deal:
    """The first bot deal (careful bots, by seed) that ends the given way."""
    rules = Rules(end_condition=EndCondition.ONE_ALIVE)
    for seed in range(200):
        deal = play_deal(seed, rules=rules if termination is Termination.ONE_ALIVE else None)
        ended = [e.detail for e in deal.events if e.rule == "end"]
        if ended == [termination.value]:
            return deal
    raise AssertionError(f"no bot deal in 200 seeds ended by {termination.value}")


def went_out() -> Deal:
    """North melds every card and declares Game."""
    deal = prepared("5H 6H 7H", "2S 2D 9C 4H")
    deal.push(parse_move("meld 5H 6H 7H"))
    deal.push(DeclareGame())
    return deal


# -- legal_moves: a lazy, live collection ---------------------------------------------------------
def test_legal_moves_is_a_collection_iterated_afresh_each_time() -> None:
    deal = Deal(players=4, seed=7)
    moves = deal.legal_moves
    assert isinstance(moves, LegalMoves) and isinstance(moves, Collection)
    listed = list(moves)
    assert listed and list(moves) == listed  # a second pass starts again
    assert len(moves) == moves.count() == len(listed)
    assert bool(moves) and moves.any()
    assert all(move in moves for move in listed)
    assert EndTurn() not in moves  # no action yet this turn
    assert DeclareDead() not in moves  # the player can act


def test_legal_moves_follows_the_deal() -> None:
    deal = Deal(players=4, seed=7)
    moves = deal.legal_moves
    first = next(iter(moves))
    deal.push(first)
    assert list(moves) == list(deal.legal_moves)
    assert EndTurn() in moves and first not in moves
    deal.pop()
    assert first in moves and EndTurn() not in moves


def test_legal_moves_of_a_finished_deal_is_empty() -> None:
    deal = went_out()
    assert list(deal.legal_moves) == [] and len(deal.legal_moves) == 0
    assert not deal.legal_moves and not deal.legal_moves.any()
    assert DeclareGame() not in deal.legal_moves
    assert repr(deal.legal_moves) == "<LegalMoves (none)>"


def test_in_asks_the_rules_without_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    deal = Deal(players=4, seed=7)
    listed = list(deal.legal_moves)

    def no_listing() -> Iterator[Move]:
        raise AssertionError("`in` listed the moves")

    monkeypatch.setattr(deal, "_iter_legal_moves", no_listing)
    assert listed[-1] in deal.legal_moves
    assert EndTurn() not in deal.legal_moves


def test_in_with_text_points_at_parse_move() -> None:
    deal = Deal(players=4, seed=7)
    with pytest.raises(TypeError, match="parse_move"):
        "end_turn" in deal.legal_moves  # type: ignore[comparison-overlap]  # noqa: B015


def test_any_stops_at_the_first_move() -> None:
    pulled: list[int] = []

    def iterate() -> Iterator[Move]:
        for k in range(1000):
            pulled.append(k)
            yield LayOff(k, NATURALS[0])

    moves = LegalMoves(iterate)
    assert moves.any() and bool(moves)
    assert pulled == [0, 0]
    assert len(moves) == 1000 and LayOff(999, NATURALS[0]) in moves
    assert LayOff(1000, NATURALS[0]) not in moves


def test_a_given_count_and_contains_are_used() -> None:
    def iterate() -> Iterator[Move]:
        raise AssertionError("listed")

    moves = LegalMoves(iterate, contains=lambda move: move == EndTurn(), count=lambda: 7)
    assert len(moves) == 7 and moves.count() == 7
    assert EndTurn() in moves and DeclareDead() not in moves


def test_calling_legal_moves_says_it_is_a_collection_now() -> None:
    deal = Deal(players=4, seed=7)
    with pytest.raises(TypeError) as caught:
        deal.legal_moves()
    assert str(caught.value) == (
        "legal_moves is a collection now: write deal.legal_moves, not deal.legal_moves()"
    )
    view_like = LegalMoves(lambda: iter(()), name="view")
    with pytest.raises(TypeError, match=r"write view\.legal_moves, not view\.legal_moves\(\)"):
        view_like()


def test_repr_names_a_few_moves_by_their_labels() -> None:
    deal = Deal(players=4, seed=7)
    listed = list(deal.legal_moves)
    assert len(listed) > REPR_MOVES
    text = repr(deal.legal_moves)
    labels = ", ".join(m.label() for m in listed[:REPR_MOVES])
    assert text == f"<LegalMoves ({labels}, ...)>"
    assert listed[REPR_MOVES].label() not in text
    few = prepared("5H 6H 7H", "2S 2D 9C 4H")
    labels = ", ".join(m.label() for m in few.legal_moves)
    assert repr(few.legal_moves) == f"<LegalMoves ({labels})>"


# -- no move listed twice --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand",
    [
        f"{ACE_TO_ACE} JK 5S 5C 5D",  # the joker is the second ace
        f"{ACE_TO_ACE} AH JK 5S 5C",  # two aces: either can give way to the joker
        f"{ACE_TO_ACE} JK JK 9S",  # two jokers, both aces or one ace and a gap
    ],
)
def test_a_joker_at_either_ace_of_a_long_run_is_one_move(hand: str) -> None:
    deal = prepared(hand, "2S 3S 4S 9C 9D")
    listed = list(deal.legal_moves)
    assert len(listed) == len(set(listed))
    whole_run = MeldMove((*parse_cards(ACE_TO_ACE), noted_joker(1, "H")))
    assert listed.count(whole_run) == 1
    # Nothing else moved: the melds come in the search's order, first appearance kept.
    melds = [m for m in listed if isinstance(m, MeldMove)]
    searched = [MeldMove(m.cards) for m in iter_melds(deal.hands[0], deal.rules)]
    assert melds == list(dict.fromkeys(searched))
    assert listed == melds  # no passport yet: melds only
    assert len(deal.legal_moves) == len(listed)


def test_a_joker_laid_off_at_either_ace_is_one_move() -> None:
    # North's run 2H..KH takes a joker as the low or the high ace: the same card, one move.
    deal = prepared("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK 9S", "2S 3S 4S 9C 9D")
    deal.push(parse_move("meld 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"))
    listed = list(deal.legal_moves)
    assert len(listed) == len(set(listed))
    assert listed.count(LayOff(0, noted_joker(1, "H"))) == 1


def test_no_position_of_many_seeded_deals_lists_a_move_twice() -> None:
    positions = 0
    eight = Rules(jokers=8)
    for seed in range(WALK_DEALS):
        for deal, moves in walk(seed, eight if seed % 4 == 3 else None):
            assert len(moves) == len(set(moves)), f"seed {seed}, move {deal.ply()}"
            positions += 1
    assert positions > WALK_DEALS * 10


# -- outcome, peek, ply, root ----------------------------------------------------------------------
@pytest.mark.parametrize("termination", list(Termination))
def test_outcome_says_how_the_deal_ended(termination: Termination) -> None:
    deal = went_out() if termination is Termination.GAME else finished(termination)
    outcome = deal.outcome()
    assert isinstance(outcome, Outcome)
    assert outcome.termination is termination
    assert [e.detail for e in deal.events if e.rule == "end"] == [termination.value]
    assert outcome.winners == tuple(deal.winners) and outcome.scores == tuple(deal.scores)
    scoring = next(e for e in deal.events if e.rule == "scoring")
    assert outcome.scores == scoring.counts
    assert ",".join(map(str, outcome.winners)) == scoring.detail
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.winners = ()  # type: ignore[misc]
    assert hash(outcome) == hash(deal.outcome()) and outcome == deal.outcome()
    text = str(outcome)
    for p, score in enumerate(outcome.scores):
        assert f"seat {p} has {score}" in text
    winners = " and ".join(str(w) for w in outcome.winners)
    assert f"seat {winners}" in text or f"seats {winners}" in text
    named = outcome.describe(deal.names)
    assert all(f"{deal.names[p]} has {s}" in named for p, s in enumerate(outcome.scores))
    assert "seat " not in named and deal.names[outcome.winners[0]] in named


def test_termination_values_are_the_end_event_details() -> None:
    assert [t.value for t in Termination] == ["game", "all dead", "one alive"]


def test_outcome_is_none_while_playing() -> None:
    deal = Deal(players=4, seed=3)
    assert deal.outcome() is None
    deal.push(next(iter(deal.legal_moves)))
    assert deal.outcome() is None


def test_tied_outcome_names_both_winners() -> None:
    deal = prepared("7S 2C", "7D 2H", "AS KH QD 9C")
    for _ in range(3):
        deal.push(DeclareDead())
    outcome = deal.outcome()
    assert outcome is not None and outcome.winners == (0, 1)
    assert "seats 0 and 1 share the win" in str(outcome)


def test_peek_and_ply_read_the_move_stack() -> None:
    deal = Deal(players=4, seed=11)
    assert deal.ply() == 0
    with pytest.raises(IndexError, match="no move played yet"):
        deal.peek()
    played = []
    for _ in range(5):
        move = next(iter(deal.legal_moves))
        deal.push(move)
        played.append(move)
        assert deal.peek() == move and deal.ply() == len(played) == len(deal.move_stack)
    assert deal.pop() == played[-1] and deal.ply() == 4 and deal.peek() == played[-2]


def test_root_is_the_start_of_a_seeded_deal() -> None:
    rules = Rules(jokers=8)
    deal = Deal(players=3, seed=21, rules=rules, dealer=2, names=["Ann", "Bo", "Cy"])
    start = deal.copy()
    for _ in range(4):
        deal.push(next(iter(deal.legal_moves)))
    root = deal.root()
    assert root.ply() == 0 and root == start and root != deal
    assert (root.seed, root.rules, root.dealer, root.names) == (21, rules, 2, ("Ann", "Bo", "Cy"))
    assert root.initial_hands == deal.initial_hands and root.stock == deal.stock
    root.push(next(iter(root.legal_moves)))
    assert deal.ply() == 4  # independent


def test_root_of_a_prepared_deal_keeps_its_hands() -> None:
    deal = prepared("5H 6H 7H 9C", "2S 2D 2C 9H", rules=Rules(jokers=8), names=["Ann", "Bo"])
    deal.push(parse_move("meld 5H 6H 7H"))
    root = deal.root()
    fresh = prepared("5H 6H 7H 9C", "2S 2D 2C 9H", rules=Rules(jokers=8), names=["Ann", "Bo"])
    assert root == fresh
    assert root.custom and root.hand(0) == parse_cards("5H 6H 7H 9C") and root.ply() == 0


# -- properties for the plain facts -------------------------------------------------------------
def test_plain_facts_are_properties() -> None:
    for name in ("is_over", "turn_number", "alive", "scores", "winners", "legal_moves", "events"):
        assert isinstance(getattr(Deal, name), property), name
    for name in ("outcome", "peek", "ply", "root", "copy", "hand", "count"):
        assert callable(getattr(Deal, name)) and not isinstance(getattr(Deal, name), property)


def test_alive_scores_and_winners_follow_the_deal() -> None:
    deal = prepared("7S 2C", "7D 2H 9H", "5H 6H 7H 9C")
    assert deal.alive == [0, 1, 2] and deal.winners == []
    deal.push(DeclareDead())
    assert deal.alive == [1, 2]
    assert deal.scores == [deal.count(p) for p in range(3)]
    deal.push(DeclareDead())
    deal.push(parse_move("meld 5H 6H 7H"))
    deal.push(EndTurn())
    assert deal.alive == [2] and not deal.is_over
    assert deal.status == [Status.DEAD_PASSPORT, Status.DEAD_PASSPORT, Status.ALIVE]


# -- equality by position -------------------------------------------------------------------------
def test_equal_positions_compare_equal() -> None:
    deal = Deal(players=4, seed=9)
    assert deal == deal.copy() == deal.root() == Deal(players=4, seed=9)
    assert Deal(players=4, seed=1) != Deal(players=4, seed=2)
    moved = deal.copy()
    moved.push(next(iter(moved.legal_moves)))
    assert moved != deal
    moved.pop()
    assert moved == deal


def test_move_order_does_not_count_but_table_order_does() -> None:
    hands = ("5H 6H 7H 2S 2D 2C 8H 2H 9C", "5S 6S 7S 3D 3C 3H 4D")
    start = prepared(*hands)
    for move in ("meld 5H 6H 7H", "meld 2S 2D 2C", "end_turn", "meld 5S 6S 7S", "end_turn"):
        start.push_text(move)
    one, two = start.copy(), start.copy()
    for move in ("lay_off 0 8H", "lay_off 1 2H"):
        one.push_text(move)
    for move in ("lay_off 1 2H", "lay_off 0 8H"):
        two.push_text(move)
    assert one.move_stack != two.move_stack and one == two
    one.push(EndTurn())
    assert one != two  # one move apart
    # The same melds laid in another order make another table.
    a, b = prepared(*hands), prepared(*hands)
    a.push_text("meld 5H 6H 7H")
    a.push_text("meld 2S 2D 2C")
    b.push_text("meld 2S 2D 2C")
    b.push_text("meld 5H 6H 7H")
    assert a.hands == b.hands and a != b


def test_the_seed_does_not_count_but_rules_and_names_do() -> None:
    hands = ["5H 6H 7H 9C", "2S 2D 2C 9H"]
    assert Deal(hands=hands, dealer=1, seed=1) == Deal(hands=hands, dealer=1, seed=2)
    assert Deal(hands=hands, dealer=1) != Deal(hands=hands, dealer=0)
    assert Deal(hands=hands, dealer=1) != Deal(
        hands=hands, dealer=1, rules=Rules(end_condition=EndCondition.ONE_ALIVE)
    )
    assert Deal(hands=hands, dealer=1) != Deal(hands=hands, dealer=1, names=["Ann", "Bo"])


def test_a_deal_is_not_equal_to_other_things_and_has_no_hash() -> None:
    deal = Deal(players=4, seed=9)
    assert deal.__eq__(5) is NotImplemented
    assert deal != 5 and deal != "deal" and deal != deal.state_key()
    assert Deal.__hash__ is None
    with pytest.raises(TypeError):
        hash(deal)


# -- what the engine shows reads back --------------------------------------------------------------
EVERY_CARD = [
    *NATURALS,
    JOKER,
    *(noted_joker(rank, suit) for rank in range(1, 14) for suit in (*SUITS, None)),
]


@pytest.mark.parametrize("card", EVERY_CARD, ids=str)
def test_every_card_reads_back_from_its_symbol(card: Card) -> None:
    assert parse_cards(card.symbol) == [card]
    assert Card.parse(card.symbol) == card
    assert parse_cards(card.symbol.lower()) == [card]


def test_cards_shown_in_a_row_read_back() -> None:
    assert parse_cards(cards_symbols(EVERY_CARD)) == EVERY_CARD
    assert parse_cards("🃏=7♥") == [noted_joker(7, "H")]
    assert parse_cards("🃏\ufe0f=9") == [noted_joker(9)]
    assert parse_cards("🃏") == [JOKER]


@pytest.mark.parametrize("text", ["JK=7H", "🃏=", "🃏=7X", "🃏==7♥", "🃏=15♥"])
def test_a_badly_noted_joker_is_a_card_parse_error(text: str) -> None:
    with pytest.raises(CardParseError) as caught:
        parse_cards(text)
    message = str(caught.value)
    assert "\n" not in message and "JK@7H" in message


PLAIN_LABELS = {
    "end the turn": EndTurn(),
    "declare Dead": DeclareDead(),
    "declare Game": DeclareGame(),
}


@pytest.mark.parametrize("move", list(PLAIN_LABELS.values()), ids=str)
def test_plain_moves_read_back_from_their_labels(move: Move) -> None:
    assert PLAIN_LABELS[move.label()] == move
    for text in (move.label(), move.label().upper(), f"  {move.label().lower()}  ", str(move)):
        assert parse_move(text) == move


@pytest.mark.parametrize(
    "move",
    [
        LayOff(0, Card.parse("8H")),
        LayOff(12, noted_joker(9)),
        LayOff(3, noted_joker(1, "S")),
        Swap(0, Card.parse("7H")),
        Swap(4, Card.parse("10C")),
        MeldMove.of("5H 6H JK@7H"),
        MeldMove.of("9S 9D JK@9"),
        MeldMove.of("QD KD AD"),
    ],
    ids=str,
)
def test_table_moves_and_melds_read_back_from_their_labels(move: Move) -> None:
    label = move.label()
    for text in (label, label.upper(), label.replace(" ", "  "), str(move)):
        assert parse_move(text) == move, text


def test_labels_read_back_for_every_legal_move_of_many_positions() -> None:
    kinds: set[str] = set()
    read = 0
    for seed in range(ROUND_TRIP_DEALS):
        for deal, moves in walk(seed):
            if deal.ply() % 3:
                continue
            for move in moves:
                assert parse_move(move.label()) == move, move.label()
                assert parse_move(str(move)) == move, str(move)
                kinds.add(move.type)
                read += 1
    assert {"meld", "lay_off", "swap", "end_turn", "dead"} <= kinds
    assert read > ROUND_TRIP_DEALS * 100


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("lay off 8H on 0", "lay off <card> on meld <number>"),
        ("lay off 8H", "lay off <card> on meld <number>"),
        ("swap 7H for the joker", "swap <card> for the joker in meld <number>"),
        ("lay off 8H on meld x", "digits"),
        ("swap 7H for the joker in meld -1", "digits"),
        ("declare", "a move starts with"),
        ("declare life", "a move starts with"),
        ("end the game", "a move starts with"),
    ],
)
def test_a_label_that_cannot_be_read_says_how_to_write_it(text: str, hint: str) -> None:
    with pytest.raises(CardParseError) as caught:
        parse_move(text)
    assert hint in str(caught.value) and "\n" not in str(caught.value)


def test_push_text_takes_labels_and_push_refuses_text() -> None:
    deal = prepared("5H 6H 7H 8H 9C 9D 9S", "2S 2D 2C 9H")
    key = deal.state_key()
    with pytest.raises(TypeError, match="parse_move"):
        deal.push("meld 5♥ 6♥ 7♥")  # type: ignore[arg-type]
    assert deal.state_key() == key
    other = deal.copy()
    assert deal.push_text("meld 5♥ 6♥ 7♥") == other.push(parse_move("meld 5H 6H 7H"))
    deal.push_text("LAY OFF 8♥ ON MELD 0")
    other.push(LayOff(0, Card.parse("8H")))
    assert deal == other
    with pytest.raises(IllegalMove):
        deal.push_text("lay off 9♣ on meld 0")
    assert deal == other


# -- str(deal) and repr ----------------------------------------------------------------------------
def test_str_shows_the_turn_counts_statuses_cards_and_table() -> None:
    deal = Deal(players=4, seed=13)
    for _ in range(6):
        deal.push(next(iter(deal.legal_moves)))
    text = str(deal)
    lines = text.splitlines()
    assert lines[0] == f"Turn {deal.turn_number}: {deal.names[deal.turn]} to move."
    for p in range(deal.players):
        row = next(line for line in lines if line[2:].startswith(deal.names[p] + " "))
        assert row.startswith(">") == (p == deal.turn)
        assert deal.status[p].value in row and f"count {deal.count(p)}" in row
        assert cards_symbols(deal.hand(p)) in row
    for i, meld in enumerate(deal.table):
        assert f"[{i}] {deal.names[deal.owners[i]]}: {meld.symbols}" in text


@pytest.mark.parametrize("termination", list(Termination))
def test_str_of_a_finished_deal_gives_the_result(termination: Termination) -> None:
    deal = went_out() if termination is Termination.GAME else finished(termination)
    outcome = deal.outcome()
    assert outcome is not None
    head = str(deal).splitlines()[0]
    assert head == f"Over after {deal.turn_number} turns. {outcome.describe(deal.names)}"
    assert "to move" not in str(deal) and ">" not in str(deal)
    for p in range(deal.players):
        assert f"count {deal.count(p)}" in str(deal)


def test_repr_stays_short() -> None:
    deal = play_deal(5)
    text = repr(deal)
    assert "\n" not in text and len(text) < 100
    assert f"seed={deal.seed}" in text and f"moves={deal.ply()}" in text


# -- the README's section runs as written ----------------------------------------------------------
def _section_blocks() -> list[tuple[str, str]]:
    text = README.read_text(encoding="utf-8")
    assert SECTION in text, f"README.md has no section {SECTION!r}"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```(python|pycon)\n(.*?)```", section, flags=re.DOTALL)


def test_the_readme_python_section_is_true() -> None:
    blocks = _section_blocks()
    assert any(kind == "pycon" for kind, _ in blocks)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    ran = 0
    for n, (kind, code) in enumerate(blocks):
        if kind == "pycon":
            test = parser.get_doctest(code, {}, f"README block {n}", str(README), 0)
            failures: list[str] = []
            runner.run(test, out=failures.append)
            assert not failures, "".join(failures)
            ran += len(test.examples)
        else:
            exec(compile(code, f"README block {n}", "exec"), {})
            ran += 1
    assert runner.failures == 0 and ran > 10


def test_the_readme_session_covers_the_manners() -> None:
    code = "".join(code for _, code in _section_blocks())
    for name in (
        "Deal(players=4, seed=7)",
        "len(moves)",
        " in moves",
        "iter(moves)",
        "d.push(",
        "d.push_text(",
        "parse_move(",
        "d.pop()",
        "d.peek()",
        "d.ply()",
        "d.root()",
        ".outcome()",
        "d == ",
        "print(d)",
    ):
        assert name in code, name
