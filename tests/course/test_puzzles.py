"""Puzzles: hand-made positions of every kind, proved and judged by the engine; the JSON form;
and the shipped set, still proved."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from penang_lib.course.puzzles import (
    DEAD_REFUSED,
    EXACT_KINDS,
    KIND_QUESTIONS,
    KIND_RULES,
    PUZZLE_KINDS,
    Judgement,
    Puzzle,
    PuzzleError,
    answer_sentence,
    find_puzzle,
    judge,
    prove,
    puzzle_at,
    puzzles_from_json,
    puzzles_to_json,
    shipped_puzzles,
    solve,
)
from penang_lib.engine.deal import Deal
from penang_lib.engine.moves import (
    DeclareDead,
    DeclareGame,
    EndTurn,
    LayOff,
    MeldMove,
    Move,
    Swap,
    parse_move,
)
from penang_lib.engine.rules import RULE_BOOK
from penang_lib.engine.validate import ArgumentTypeError
from tests.conftest import prepared

# Each position is built so that its kind's answer can be worked out by hand (see the comments).
POSITIONS: dict[str, tuple[list[str], list[str]]] = {
    # Only 5♥ 6♥ and the joker make a meld; the joker may stand for 4♥ or 7♥.
    "passport": (["5H 6H JK 9C KD 2S", "2C 3C 4C 9D"], []),
    # Pairs and two hearts in a row, but no three cards make a meld.
    "dead.passport": (["7H 7C 5S 6S 9D KD", "2C 3C 4C 9D"], []),
    # After the passport only 8♥ fits anywhere (the top of North's run).
    "lay-off": (
        ["5H 6H 7H 8H 9C KD", "2S 3S 4S 8D 8C 8S"],
        ["meld 5H 6H 7H", "end_turn", "meld 2S 3S 4S", "end_turn"],
    ),
    # 7♥ is the card the table joker stands for; with the joker, 9♠ 9♣ make a set.
    "swap": (
        ["2C 3C 4C 7H 9S 9C", "5H 6H JK 8D 2D"],
        ["meld 2C 3C 4C", "end_turn", "meld 5H 6H JK@7H", "end_turn"],
    ),
    # 9♥ is a heart like North's run but does not touch it; K♦ fits nothing.
    "dead": (
        ["5H 6H 7H 9H KD", "2S 3S 4S 8D 8C"],
        ["meld 5H 6H 7H", "end_turn", "meld 2S 3S 4S", "end_turn"],
    ),
    # 8♥ fits North's run and both sets of eights, but only on the run can 9♥ follow it.
    "game": (
        ["5H 6H 7H 8H 9H", "8S 8D 8C 2D", "8S 8D 8C 3D"],
        [
            "meld 5H 6H 7H",
            "end_turn",
            "meld 8S 8D 8C",
            "end_turn",
            "meld 8S 8D 8C",
            "end_turn",
        ],
    ),
    # The same table, but K♠ and Q♦ fit nowhere: the fewest points (20) are left by laying 8♥
    # off on the run, where 9♥ can follow it.
    "deadwood": (
        ["5H 6H 7H 8H 9H KS QD", "8S 8D 8C 2D", "8S 8D 8C 3D"],
        [
            "meld 5H 6H 7H",
            "end_turn",
            "meld 8S 8D 8C",
            "end_turn",
            "meld 8S 8D 8C",
            "end_turn",
        ],
    ),
}

ANSWERS: dict[str, set[str]] = {
    "passport": {"meld 5H 6H JK@4H", "meld 5H 6H JK@7H"},
    "dead.passport": {"dead"},
    "lay-off": {"lay_off 0 8H"},
    "swap": {"swap 1 7H"},
    "dead": {"dead"},
    "game": {"lay_off 0 8H"},
    "deadwood": {"lay_off 0 8H"},
}


def position(kind: str) -> Deal:
    hands, moves = POSITIONS[kind]
    return prepared(*hands, moves=moves)


def puzzle(kind: str) -> Puzzle:
    return puzzle_at(position(kind), kind)


def moves_of(texts: set[str]) -> set[Move]:
    return {parse_move(t) for t in texts}


def test_the_kinds_are_rule_ids_with_a_question_each() -> None:
    # The exact kinds are made by hand here; `strategy` (weighed) has tests of its own.
    assert set(EXACT_KINDS) == set(POSITIONS)
    assert (*EXACT_KINDS, "strategy") == PUZZLE_KINDS
    assert all(kind in RULE_BOOK for kind in EXACT_KINDS if kind != "deadwood")
    assert set(KIND_QUESTIONS) == set(KIND_RULES) == set(PUZZLE_KINDS)
    assert KIND_RULES["deadwood"] == KIND_RULES["strategy"] == "scoring"
    assert all(rule in RULE_BOOK for rule in KIND_RULES.values())


@pytest.mark.parametrize("kind", sorted(POSITIONS))
def test_each_hand_made_position_is_proved_with_its_answers(kind: str) -> None:
    found = solve(position(kind), kind)
    assert not isinstance(found, str), found
    assert set(found.answers) == moves_of(ANSWERS[kind])
    made = puzzle(kind)
    assert made.kind == kind and made.question == KIND_QUESTIONS[kind]
    assert set(made.answers) == moves_of(ANSWERS[kind])
    assert made.seat == 0 and made.ply == len(POSITIONS[kind][1])
    assert made.legal == len(list(position(kind).legal_moves))
    assert 1 <= made.difficulty <= 5
    assert KIND_RULES[kind] in made.rules and all(r in RULE_BOOK for r in made.rules)
    assert made.id.startswith(kind + "-")
    assert prove(made) is None


@pytest.mark.parametrize("kind", sorted(POSITIONS))
def test_a_position_is_a_puzzle_of_its_own_kind_only(kind: str) -> None:
    # Among the exact kinds; a `strategy` puzzle weighs outcomes and may share a position with
    # `deadwood` (tests/course/test_strategy_puzzles.py).
    others = [k for k in EXACT_KINDS if k != kind]
    for other in others:
        said = solve(position(kind), other)
        assert isinstance(said, str) and said.endswith("."), (other, said)


def test_a_position_that_is_no_puzzle_says_why() -> None:
    # Two different melds: 2♣ 3♣ 4♣ and 9♦ 9♠ 9♥.
    deal = prepared("2C 3C 4C 9D 9S 9H", "5H 6H 7H")
    with pytest.raises(PuzzleError, match="2 different melds"):
        puzzle_at(deal, "passport")
    # The lay-off position in the middle of North's turn is no puzzle.
    mid = position("lay-off")
    mid.push(parse_move("lay_off 0 8H"))
    assert "already played" in str(solve(mid, "lay-off"))
    # In the game position, 8♥ fits three melds: no lay-off is the only one.
    assert "3 different lay-offs" in str(solve(position("game"), "lay-off"))


def test_a_plain_joker_read_one_way_only_is_judged_by_what_it_does() -> None:
    deal = prepared("9S 9C JK 2H 5D KC", "2C 3C 4C 9D")
    made = puzzle_at(deal, "passport")
    assert made.answers == (parse_move("meld 9S 9C JK@9"),)
    verdict = judge(made, MeldMove.of("9S 9C JK"))
    assert verdict.right and verdict.legal and verdict.rule == "passport"


def test_the_right_move_is_explained_by_the_engine() -> None:
    made = puzzle("lay-off")
    verdict = judge(made, parse_move("lay_off 0 8H"))
    assert verdict == Judgement(True, True, "lay-off", verdict.sentence)
    assert "lays off 8♥" in verdict.sentence and "only action" in verdict.sentence
    dead = judge(puzzle("dead"), DeclareDead())
    assert dead.right and "9♥ does not fit" in dead.sentence


def test_every_reading_of_the_passport_meld_is_right() -> None:
    made = puzzle("passport")
    for text in ANSWERS["passport"]:
        assert judge(made, parse_move(text)).right
    # Without a note the joker could be 4♥ or 7♥: the engine asks which.
    plain = judge(made, MeldMove.of("5H 6H JK"))
    assert not plain.legal and plain.rule == "joker" and "more than one way" in plain.sentence


def test_an_illegal_move_gets_the_engines_refusal() -> None:
    made = puzzle("lay-off")
    for move in (parse_move("lay_off 0 9C"), EndTurn(), parse_move("meld 9C KD")):
        refusal = position("lay-off").explain_illegal(move)
        assert refusal is not None
        assert judge(made, move) == Judgement(False, False, refusal.rule, refusal.reason)


def test_dead_refused_says_the_rule_and_not_the_move_that_plays() -> None:
    """The engine's refusal of Dead names a move that can be played: in a puzzle that is the
    answer itself, so the puzzle's verdict stops at the rule."""
    made = puzzle("lay-off")
    refusal = position("lay-off").explain_illegal(DeclareDead())
    assert refusal is not None and "Lay off 8♥" in refusal.reason  # what the engine would say
    verdict = judge(made, DeclareDead())
    assert verdict == Judgement(False, False, "dead", DEAD_REFUSED.format(player="North"))
    assert "8♥" not in verdict.sentence and "Dead is not allowed" in verdict.sentence


def wrong_tries(p: Puzzle) -> list[Move]:
    """Wrong tries of every kind a learner can make at the puzzle's position: Dead, End turn,
    Game; each card laid off and swapped on each table meld; melds of three cards of the hand;
    and the legal moves (the answers among them are left out by the caller)."""
    deal = p.position()
    hand = sorted(set(deal.hand(p.seat)), key=lambda c: c.index)
    tries: list[Move] = [DeclareDead(), EndTurn(), DeclareGame()]
    for c in hand:
        for target in range(len(deal.table)):
            tries += [LayOff(target, c), Swap(target, c)]
    tries += [MeldMove(three) for three in itertools.islice(itertools.combinations(hand, 3), 120)]
    tries += list(itertools.islice(deal.legal_moves, 200))
    return tries


SHIPPED = shipped_puzzles()


def giveaway(move: Move) -> str:
    """The start of a move's words up to its first card ("swap 9♦", "lay off 4♥", "meld 2♠"):
    enough to give a puzzle away."""
    words = move.label().lower().split()
    verb = 2 if words[0] == "lay" else 1
    return " ".join(words[: verb + 1])


@pytest.mark.parametrize("index", range(len(SHIPPED)), ids=[p.id for p in SHIPPED])
def test_no_wrong_try_gives_the_answer_away(index: int) -> None:
    """Whatever the wrong try (refused by the rules, or allowed but not the answer), its
    sentence never says the answer's move."""
    p = SHIPPED[index]
    answers = [m.label().lower() for m in p.answers]
    answer_words = answer_sentence(p).split(":")[0].split(".")[0].lower()
    # The start of each answer, up to its first card: "swap 9♦", "lay off 4♥", "meld 2♠".
    starts = [giveaway(m) for m in p.answers if not isinstance(m, DeclareDead)]
    kinds: Counter[str] = Counter()
    for move in wrong_tries(p):
        verdict = judge(p, move)
        if verdict.right:
            continue
        kinds["legal" if verdict.legal else verdict.rule] += 1
        said = verdict.sentence.lower()
        assert not any(a in said for a in answers), (move.label(), verdict.sentence)
        assert not any(a in said for a in starts), (move.label(), verdict.sentence)
        assert answer_words not in said, (move.label(), verdict.sentence)
    # Every kind was tried: Dead (unless it is the answer), End turn, Game, table moves, melds.
    assert kinds["dead"] == (0 if isinstance(p.answers[0], DeclareDead) else 1), kinds
    assert kinds["turn"] == 1 and kinds["game"] == 1, kinds
    assert sum(kinds.values()) > 5, kinds


def test_a_legal_move_that_fails_is_allowed_but_wrong() -> None:
    made = puzzle("game")
    for target in (1, 2):
        verdict = judge(made, LayOff(target, parse_move("lay_off 0 8H").card))  # type: ignore[union-attr]
        assert verdict.legal and not verdict.right and verdict.rule == "game"
        assert verdict.sentence.startswith("That is allowed, but after it")
    right = judge(made, parse_move("lay_off 0 8H"))
    assert right.right and "lay off 9♥ on meld 0" in right.sentence


def test_deadwood_counts_the_points_left_when_the_turn_ends() -> None:
    made = puzzle("deadwood")
    right = judge(made, parse_move("lay_off 0 8H"))
    assert right.right and right.rule == "scoring"
    assert "end with 20 points in hand" in right.sentence  # K♠ 10 and Q♦ 10
    wrong = judge(made, parse_move("lay_off 2 8H"))
    assert wrong.legal and not wrong.right
    assert wrong.sentence == (
        "That is allowed, but after it the turn ends with 29 points in hand at the fewest, and "
        "the best start leaves 20."
    )
    assert answer_sentence(made).endswith("The turn can then end with 20 points in hand.")


def test_judging_changes_nothing() -> None:
    made = puzzle("swap")
    before = made.position()
    same = puzzles_from_json(puzzles_to_json([made]))[0]
    for move in [*made.answers, parse_move("meld 9S 9C JK"), DeclareDead()]:
        judge(made, move)
    assert made == same
    assert made.position() == before
    assert made.position().ply() == made.ply


def test_a_position_is_fresh_each_time() -> None:
    made = puzzle("swap")
    deal = made.position()
    deal.push(parse_move("swap 1 7H"))
    again = made.position()
    assert again.ply() == made.ply and again.hand(0) != deal.hand(0)
    assert judge(made, parse_move("swap 1 7H")).right


def test_bad_argument_types_are_refused() -> None:
    made = puzzle("dead")
    with pytest.raises(ArgumentTypeError):
        judge("dead-1", DeclareDead())  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        judge(made, "dead")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        answer_sentence(None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        find_puzzle([made], 7)  # type: ignore[arg-type]


def test_answer_sentences_name_the_moves() -> None:
    assert answer_sentence(puzzle("lay-off")) == "Lay off 8♥ on meld 0 (5♥ 6♥ 7♥)."
    assert answer_sentence(puzzle("swap")) == "Swap 7♥ for the joker in meld 1 (5♥ 6♥ 🃏=7♥)."
    passport = answer_sentence(puzzle("passport"))
    assert "🃏=4♥" in passport and "🃏=7♥" in passport
    assert answer_sentence(puzzle("dead")).startswith("Declare Dead: ")
    assert "then lay off 9♥" not in answer_sentence(puzzle("game"))
    assert "Then lay off 9♥ on meld 0, and declare Game." in answer_sentence(puzzle("game"))


def test_json_round_trip_and_find() -> None:
    made = [puzzle(kind) for kind in sorted(POSITIONS)]
    text = puzzles_to_json(made, note="hand-made")
    back = puzzles_from_json(text)
    assert back == made
    assert json.loads(text)["note"] == "hand-made"
    assert find_puzzle(back, made[2].id) == made[2]
    with pytest.raises(PuzzleError, match=r"^There is no puzzle 'nope-1' in this set\.$"):
        find_puzzle(back, "nope-1")


def _edited(field: str, value: object) -> str:
    data = json.loads(puzzles_to_json([puzzle("lay-off")]))
    data["puzzles"][0][field] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{", "not valid JSON"),
        ('{"format": "other"}', "not a puzzle set"),
        (_edited("id", "Bad Id!"), "a puzzle id is"),
        (_edited("kind", "bluff"), "is not a puzzle kind"),
        (_edited("ply", 99), "holds only 4 moves"),
        (_edited("seat", 1), "not seat 1's turn"),
        (_edited("answers", [{"type": "lay_off", "meld": 0, "card": "9C"}]), "is illegal there"),
        (_edited("answers", [{"type": "fold"}]), "cannot be read"),
        (_edited("difficulty", 9), "'difficulty' should be"),
        (_edited("rules", ["bluffing"]), "rule ids"),
    ],
)
def test_bad_puzzle_data_is_one_sentence(text: str, says: str) -> None:
    with pytest.raises(PuzzleError) as error:
        puzzles_from_json(text)
    assert says in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("kind", [["lay-off"], {"kind": "dead"}, None, 3])
def test_a_kind_that_is_not_text_is_one_sentence(kind: object) -> None:
    # A list or an object as the kind once escaped as a TypeError (unhashable), not a PuzzleError.
    with pytest.raises(PuzzleError, match=r"is not a puzzle kind: the kinds are passport, "):
        puzzles_from_json(_edited("kind", kind))


def test_a_tampered_record_or_a_twice_used_id_is_refused() -> None:
    data = json.loads(puzzles_to_json([puzzle("lay-off")]))
    data["puzzles"][0]["record"]["moves"][0]["cards"] = "5H 6H 8H"
    with pytest.raises(PuzzleError, match="cannot be replayed"):
        puzzles_from_json(json.dumps(data))
    twice = json.loads(puzzles_to_json([puzzle("dead"), puzzle("dead")]))
    with pytest.raises(PuzzleError, match="used twice"):
        puzzles_from_json(json.dumps(twice))


def test_prove_says_what_broke() -> None:
    made = puzzle("game")
    wrong = Puzzle(**{**made.__dict__, "answers": (parse_move("lay_off 1 8H"),)})
    assert "engine's answers are now lay off 8♥ on meld 0" in str(prove(wrong))
    other_kind = Puzzle(**{**made.__dict__, "kind": "lay-off"})
    assert "3 different lay-offs" in str(prove(other_kind))
    seat = Puzzle(**{**made.__dict__, "seat": 1})
    assert "not seat 1" in str(prove(seat))


def test_the_swap_must_come_before_the_meld_it_makes_possible() -> None:
    # North holds no joker until the swap, so the set 9♠ 9♣ 🃏 cannot be melded first.
    made = puzzle("swap")
    assert all(isinstance(m, Swap) for m in made.answers)
    first = judge(made, parse_move("meld 9S 9C JK"))
    assert not first.legal and not first.right and first.rule == "meld"


# -- the shipped set -------------------------------------------------------------------------------
SHIPPED_KINDS = ("passport", "lay-off", "swap", "dead.passport", "dead", "game", "deadwood")


@pytest.fixture(scope="module")
def shipped() -> list[Puzzle]:
    return shipped_puzzles()


def test_the_shipped_set_is_large_sorted_and_covers_every_kind(shipped: list[Puzzle]) -> None:
    assert len(shipped) >= 60
    assert len({p.id for p in shipped}) == len(shipped)
    kinds = Counter(p.kind for p in shipped)
    assert all(kinds[kind] >= 6 for kind in SHIPPED_KINDS), kinds
    assert shipped == sorted(shipped, key=lambda p: (p.difficulty, p.id))
    assert {p.difficulty for p in shipped} <= {1, 2, 3, 4, 5}
    assert len({p.difficulty for p in shipped}) >= 3


def test_every_shipped_puzzle_is_still_proved(shipped: list[Puzzle]) -> None:
    # The strategy puzzles are weighed again in tests/course/test_strategy_puzzles.py.
    broken = {p.id: prove(p) for p in shipped if p.kind != "strategy"}
    assert {k: v for k, v in broken.items() if v is not None} == {}


def test_every_shipped_puzzle_replays_and_judges_its_answers(shipped: list[Puzzle]) -> None:
    wrong_legal = 0
    for made in shipped:
        deal = made.position()
        assert deal.ply() == made.ply and deal.turn == made.seat and not deal.is_over
        for move in made.answers:
            verdict = judge(made, move)
            assert verdict.right and verdict.legal, (made.id, move)
        others = [m for m in deal.legal_moves if m not in made.answers]
        if others:
            verdict = judge(made, others[0])
            assert verdict.legal and not verdict.right
            assert verdict.sentence.startswith("That is allowed, but"), made.id
            wrong_legal += 1
        illegal = EndTurn()
        assert not judge(made, illegal).right
    assert wrong_legal >= 6  # the game puzzles at least have legal moves that fail
