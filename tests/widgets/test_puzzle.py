"""PuzzleBoard without a browser: click its cards and buttons as a learner would, and check what it
says against the puzzle engine (`judge`, `answer_sentence`): no verdict is written down here.

The puzzles are made from prepared positions (tests/conftest.py `prepared`), each with the
answers written as moves; the shipped set is tried too, every answer played through the
buttons."""

from __future__ import annotations

import html
import itertools
import json
import re
from typing import Any

import pytest
import traitlets
from ipywidgets.widgets.widget import _instances as live_widgets

from penang_lib.course.puzzles import (
    Puzzle,
    PuzzleError,
    answer_sentence,
    find_puzzle,
    judge,
    shipped_puzzles,
)
from penang_lib.engine.cards import Card, parse_cards
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
from penang_lib.engine.record import to_record
from penang_lib.site.serve import LESSONS, catalogue
from penang_lib.widgets import render
from penang_lib.widgets.base import OOPS
from penang_lib.widgets.controls import Control, label, naming
from penang_lib.widgets.puzzle import (
    BACK,
    COUNTED,
    MISSED,
    MISSED_BEFORE,
    NAV_BUTTONS,
    SEEN,
    SOLVED,
    PuzzleBoard,
    linked_puzzle,
)
from penang_lib.widgets.shared import is_shown
from tests.conftest import prepared

PAGE = "11_puzzles.ipynb"


# -- puzzles made from prepared positions ------------------------------------------------------
def puzzle(
    ident: str,
    deal: Deal,
    answers: list[str],
    kind: str = "passport",
    question: str = "What is the right move now?",
    difficulty: int = 1,
) -> Puzzle:
    """A puzzle at the position of `deal` (all its moves played), its answers as move texts."""
    moves = tuple(parse_move(a) for a in answers)
    return Puzzle(
        id=ident,
        kind=kind,
        record=to_record(deal),
        ply=len(deal.move_stack),
        seat=deal.turn,
        question=question,
        answers=moves,
        rules=(kind,),
        difficulty=difficulty,
        legal=len(deal.legal_moves),
    )


def passport() -> Puzzle:
    """North's first turn: two runs and a set of nines are melds; the set is the answer."""
    deal = prepared("5H 6H 7H 8H 9S 9C 9D 2C", "4D 5D 6D KC QC 3S 3S", "AS AD AC 10D JD QD 7C")
    return puzzle("passport-0001", deal, ["meld 9S 9C 9D"], question="Which meld keeps the run?")


def lay_off() -> Puzzle:
    """North has melded; on the next turn only a lay-off of 8♥ is possible."""
    deal = prepared(
        "5H 6H 7H 8H 2C KD",
        "4D 5D 6D KC QC 3S",
        moves=["meld 5H 6H 7H", "end_turn", "meld 4D 5D 6D", "end_turn"],
    )
    return puzzle("lay-off-0002", deal, ["lay_off 0 8H"], kind="lay-off", difficulty=2)


def swap() -> Puzzle:
    """East's run holds a joker for 7♥; North holds 7♥ and two nines."""
    deal = prepared(
        "2S 3S 4S 7H 9S 9C KD",
        "5H 6H JK 10C 10D QC",
        moves=["meld 2S 3S 4S", "end_turn", "meld 5H 6H JK@7H", "end_turn"],
    )
    return puzzle("swap-0003", deal, ["swap 1 7H"], kind="swap", difficulty=3)


def joker() -> Puzzle:
    """North's passport: 5♥ 6♥ and a joker, which may stand for 4♥ or 7♥."""
    deal = prepared("5H 6H JK 2C KD", "4D 5D 6D KC QC 3S")
    return puzzle("joker-0004", deal, ["meld 5H 6H JK@7H", "meld 5H 6H JK@4H"], difficulty=4)


def dead() -> Puzzle:
    """North melded, then holds cards that go nowhere: Dead is due."""
    deal = prepared(
        "5S 6S 7S 9H 2D KH",
        "7D 8D 9D 3C KD 2C",
        moves=["meld 5S 6S 7S", "end_turn", "meld 7D 8D 9D", "end_turn"],
    )
    return puzzle("dead-0005", deal, ["dead"], kind="dead", difficulty=5)


def made() -> list[Puzzle]:
    return [passport(), lay_off(), swap(), joker(), dead()]


# -- helpers ------------------------------------------------------------------------------------
def card(text: str) -> Card:
    return parse_cards(text)[0]


def words(value: str) -> str:
    """An HTML value as the words a learner reads."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def said(board: PuzzleBoard) -> str:
    """What the message panel says (its HTML)."""
    return str(board.message.value)


def verdict_html(p: Puzzle, move: Move) -> str:
    verdict = judge(p, move)
    return render.sentence_html(verdict.rule, verdict.sentence, ok=verdict.right)


def click(board: PuzzleBoard, symbol: str) -> None:
    """Click the first visible, unpressed toggle showing `symbol`, as a learner would."""
    toggle = next(
        t
        for t in board.hand_panel.toggles
        if is_shown(t) and t.description == symbol and not t.value
    )
    toggle.value = True


def state_text(board: PuzzleBoard) -> str:
    """Every synced trait of every widget of the board's tree, as one text."""
    return json.dumps([w.get_state() for w in board.walk()], default=str, ensure_ascii=False)


def hidden_cards(deal: Deal, seat: int) -> set[Card]:
    """The cards of the other hands that are in no copy in the learner's hand or on the table."""
    public = {c.plain for meld in deal.table for c in meld.cards} | set(deal.hand(seat))
    # A joker on the table shows the card it stands for (JK@2D): that card is named in public.
    public |= {
        Card(c.as_rank, c.as_suit)
        for meld in deal.table
        for c in meld.cards
        if c.is_joker and c.as_rank is not None and c.as_suit is not None
    }
    return {
        card
        for p in range(deal.players)
        if p != seat
        for card in deal.hand(p)
        if not card.is_joker and card not in public
    }


def named_cards(sentence: str) -> set[Card]:
    """The cards a sentence names by their symbols (e.g. "Only 9♦ can extend it")."""
    return {parse_cards(token)[0] for token in re.findall(r"(?:10|[2-9AJQK])[♠♥♦♣]", sentence)}


def leaks(board: PuzzleBoard, cards: set[Card]) -> list[str]:
    """Which of `cards` the widgets' state holds: as symbol, notation or name."""
    state = state_text(board)
    found = []
    for card in cards:
        notation = re.compile(rf"(?<![A-Za-z0-9@]){re.escape(str(card))}(?![A-Za-z0-9])")
        if card.symbol in state or card.name in state or notation.search(state):
            found.append(str(card))
    return sorted(found)


def play(board: PuzzleBoard, move: Move) -> None:
    """Play `move` through the board's controls as a learner would: select its cards, choose its
    meld on the table, press its button, and pick the joker's reading when one is asked."""
    if isinstance(move, MeldMove):
        board.select(" ".join(str(c.plain) for c in move.cards))
    elif isinstance(move, LayOff | Swap):
        board.select(str(move.card.plain))
        board.action_bar.target.value = move.target
    board.buttons[Control(move.type)].click()
    if is_shown(board.action_bar.chooser):
        # The engine asked which card the joker stands for: pick the reading of `move`.
        options = board.action_bar.readings.options
        board.action_bar.readings.value = next(
            i for _, i in options if board.action_bar._choices[i] == move
        )
        board.buttons[Control.USE_READING].click()


# -- a right move, a refusal, a legal wrong move -------------------------------------------------
def test_a_right_move_says_why_and_counts_as_solved() -> None:
    p = passport()
    board = PuzzleBoard([p, lay_off()])
    seen: list[Any] = []
    board.observe(lambda change: seen.append(change["new"]), names="solved")
    for symbol in ("9♠", "9♣", "9♦"):
        click(board, symbol)
    board.buttons[Control.MELD].click()
    answer = MeldMove.of("9S 9C 9D")
    assert judge(p, answer).right
    assert verdict_html(p, answer) in said(board)
    assert "penang-ok" in board.message._dom_classes
    assert board.solved == [p.id] and seen == [[p.id]]
    assert "solved 1" in words(board.heading.value)
    # Solved: the moves wait for the next puzzle, and the position is unchanged.
    assert all(board.buttons[c].disabled for c in (Control.MELD, Control.LAY_OFF, Control.END_TURN))
    assert board._deal == p.position()


def test_an_illegal_try_shows_the_engines_refusal_and_changes_nothing() -> None:
    p = passport()
    board = PuzzleBoard([p])
    board.select("5H 6H 9S")
    board.buttons[Control.MELD].click()
    move = MeldMove.of("5H 6H 9S")
    verdict = judge(p, move)
    assert not verdict.legal and not verdict.right
    refusal = p.position().explain_illegal(move, p.seat)
    assert refusal is not None and verdict.rule == refusal.rule
    assert verdict_html(p, move) in said(board)
    assert "penang-no" in board.message._dom_classes
    assert board.selected() == [] and "Your selection was cleared." in words(said(board))
    assert board.solved == [] and is_shown(board.buttons[Control.SHOW_ANSWER])
    assert board._deal == p.position() and board.puzzle == p


def test_a_legal_move_that_is_not_the_answer_says_why_not() -> None:
    p = passport()
    board = PuzzleBoard([p])
    board.select("5H 6H 7H")
    board.buttons[Control.MELD].click()
    move = MeldMove.of("5H 6H 7H")
    verdict = judge(p, move)
    assert verdict.legal and not verdict.right
    assert verdict_html(p, move) in said(board)
    assert board.solved == [] and is_shown(board.buttons[Control.SHOW_ANSWER])
    # Another try may still be right, but after a wrong one it does not count.
    board.select("9S 9C 9D")
    board.buttons[Control.MELD].click()
    assert verdict_html(p, MeldMove.of("9S 9C 9D")) in said(board)
    assert naming(MISSED) in words(said(board)) and naming(COUNTED) in words(said(board))
    assert board.solved == [] and "solved 0" in words(board.heading.value)


def test_one_card_moves_need_one_card_and_say_so() -> None:
    p = lay_off()
    board = PuzzleBoard([p])
    board.select("8H 2C")
    board.buttons[Control.LAY_OFF].click()
    assert "Select exactly one card of your hand to lay off (you selected 2)" in words(said(board))
    assert board.solved == []


def test_a_lay_off_is_played_on_the_meld_chosen_on_the_table() -> None:
    p = lay_off()
    board = PuzzleBoard([p])
    labels = [label for label, _ in board.action_bar.target.options]
    assert len(labels) == 2 and "5♥ 6♥ 7♥" in labels[0]
    board.select("8H")
    board.action_bar.target.value = 1  # East's diamonds: the rules refuse 8♥ there
    board.buttons[Control.LAY_OFF].click()
    assert verdict_html(p, LayOff(1, card("8H"))) in said(board)
    assert not judge(p, LayOff(1, card("8H"))).legal and board.solved == []
    board.select("8H")
    board.action_bar.target.value = 0
    board.buttons[Control.LAY_OFF].click()
    assert verdict_html(p, LayOff(0, card("8H"))) in said(board)
    assert board.solved == []  # found after a wrong try
    fresh = PuzzleBoard([p])
    play(fresh, LayOff(0, card("8H")))
    assert fresh.solved == [p.id] and naming(SOLVED) in words(said(fresh))


def test_a_swap_is_judged() -> None:
    p = swap()
    board = PuzzleBoard([p])
    play(board, Swap(1, card("7H")))
    assert verdict_html(p, Swap(1, card("7H"))) in said(board) and board.solved == [p.id]


def test_dead_and_game_are_always_offered_and_judged() -> None:
    """Which move is right is the question itself: Declare Dead and Call Game never give it away
    by appearing only when they are due."""
    board = PuzzleBoard([passport(), dead()])
    for control in (Control.DEAD, Control.GAME, Control.END_TURN):
        assert is_shown(board.buttons[control]), control
    assert not is_shown(board.action_bar.buttons[Control.HINT])
    assert Control.HINT not in board.buttons
    board.buttons[Control.DEAD].click()
    assert verdict_html(passport(), DeclareDead()) in said(board)
    board.buttons[Control.GAME].click()
    assert verdict_html(passport(), DeclareGame()) in said(board)
    board.buttons[Control.NEXT_PUZZLE].click()
    assert board.puzzle_id == "dead-0005"
    assert is_shown(board.buttons[Control.DEAD]) and is_shown(board.buttons[Control.GAME])
    board.buttons[Control.END_TURN].click()
    assert verdict_html(dead(), EndTurn()) in said(board) and board.solved == []
    board.buttons[Control.DEAD].click()
    assert verdict_html(dead(), DeclareDead()) in said(board)
    assert board.solved == [] and naming(MISSED) in words(said(board))  # End turn was tried first
    clean = PuzzleBoard([dead()])
    clean.buttons[Control.DEAD].click()
    assert clean.solved == ["dead-0005"]


def test_a_joker_with_two_readings_is_asked_which_card_it_stands_for() -> None:
    p = joker()
    board = PuzzleBoard([p])
    board.select("5H 6H JK")
    board.buttons[Control.MELD].click()
    refusal = p.position().explain_illegal(MeldMove.of("5H 6H JK"), p.seat)
    assert refusal is not None and len(refusal.options) == 2
    assert render.sentence_html(refusal.rule, refusal.reason, ok=False) in said(board)
    assert is_shown(board.action_bar.chooser) and board.solved == []
    labels = [label for label, _ in board.action_bar.readings.options]
    assert labels == [render.plain(m.label().removeprefix("meld ")) for m in refusal.options]
    board.buttons[Control.USE_READING].click()
    chosen = refusal.options[0]
    assert verdict_html(p, chosen) in said(board) and board.solved == [p.id]
    assert not is_shown(board.action_bar.chooser)


# -- Show answer -------------------------------------------------------------------------------
def test_show_answer_comes_after_a_wrong_try_and_selects_the_answers_cards() -> None:
    p = lay_off()
    board = PuzzleBoard([p])
    assert not is_shown(board.buttons[Control.SHOW_ANSWER])
    board.buttons[Control.END_TURN].click()
    assert not judge(p, EndTurn()).right
    assert is_shown(board.buttons[Control.SHOW_ANSWER])
    board.buttons[Control.SHOW_ANSWER].click()
    assert render.symbols(answer_sentence(p)) in said(board)
    assert board.selected() == [card("8H")] and board.action_bar.target.value == 0
    assert "press Lay off" in words(said(board))
    # Its button plays it: right, but not counted as solved.
    board.buttons[Control.LAY_OFF].click()
    assert verdict_html(p, LayOff(0, card("8H"))) in said(board)
    assert naming(SEEN) in words(said(board)) and board.solved == []


def test_show_answer_on_a_meld_selects_every_card_of_it() -> None:
    p = passport()
    board = PuzzleBoard([p])
    board.buttons[Control.END_TURN].click()
    board.buttons[Control.SHOW_ANSWER].click()
    assert sorted(board.selected(), key=Card.sort_key) == sorted(
        MeldMove.of("9S 9C 9D").cards, key=Card.sort_key
    )


# -- stepping through the set, the traits -------------------------------------------------------
def test_next_and_previous_step_through_the_set_in_its_order() -> None:
    puzzles = made()
    board = PuzzleBoard(puzzles)
    seen: list[tuple[str, str]] = []
    board.observe(lambda c: seen.append((c["old"], c["new"])), names="puzzle_id")
    assert board.puzzle_id == puzzles[0].id and board.buttons[Control.PREVIOUS_PUZZLE].disabled
    line = words(board.heading.value)
    assert f"Puzzle 1 of {len(puzzles)} · difficulty {puzzles[0].difficulty} · solved 0" in line
    for k in range(1, len(puzzles)):
        board.buttons[Control.NEXT_PUZZLE].click()
        assert board.puzzle_id == puzzles[k].id
        assert f"Puzzle {k + 1} of {len(puzzles)}" in words(board.heading.value)
        assert words(render.symbols(puzzles[k].question)) in words(board.question.value)
    assert board.buttons[Control.NEXT_PUZZLE].disabled
    board.buttons[Control.NEXT_PUZZLE].click()  # at the end: nothing moves
    assert board.puzzle_id == puzzles[-1].id
    board.buttons[Control.PREVIOUS_PUZZLE].click()
    assert board.puzzle_id == puzzles[-2].id
    ids = [p.id for p in puzzles]
    assert seen == [*itertools.pairwise(ids), (ids[-1], ids[-2])]


def test_a_puzzle_shown_again_starts_afresh() -> None:
    board = PuzzleBoard([passport(), lay_off()])
    board.select("5H 6H 9S")
    board.buttons[Control.MELD].click()
    board.buttons[Control.NEXT_PUZZLE].click()
    assert not is_shown(board.buttons[Control.SHOW_ANSWER])  # nothing tried on this one yet
    board.buttons[Control.PREVIOUS_PUZZLE].click()
    assert board.selected() == [] and not board.buttons[Control.MELD].disabled
    shown = [t.description for t in board.hand_panel.toggles if is_shown(t)]
    assert shown == [c.symbol for c in passport().position().hand(0)]
    # The wrong try is remembered: Show answer is offered, and finding it now does not count.
    assert is_shown(board.buttons[Control.SHOW_ANSWER]) and MISSED_BEFORE in words(said(board))
    play(board, MeldMove.of("9S 9C 9D"))
    assert board.solved == [] and naming(MISSED) in words(said(board))


def test_setting_puzzle_id_shows_that_puzzle_and_a_bad_one_is_refused() -> None:
    puzzles = made()
    board = PuzzleBoard(puzzles)
    board.puzzle_id = "swap-0003"
    assert board.puzzle == puzzles[2]
    assert "Puzzle 3 of 5" in words(board.heading.value)
    position = puzzles[2].position()
    assert [label for label, _ in board.action_bar.target.options] == [
        render.plain(f"{position.names[position.owners[i]]}'s {m.kind} {m.symbols} (meld {i})")
        for i, m in enumerate(position.table)
    ]
    with pytest.raises(PuzzleError) as expected:
        find_puzzle(puzzles, "no-such-puzzle")
    with pytest.raises(traitlets.TraitError) as refused:
        board.puzzle_id = "no-such-puzzle"
    assert str(expected.value) in str(refused.value)
    assert board.puzzle_id == "swap-0003"


def test_solved_lists_each_puzzle_once_in_the_order_solved() -> None:
    puzzles = made()
    board = PuzzleBoard(puzzles)
    changes: list[Any] = []
    board.observe(lambda c: changes.append((c["old"], c["new"])), names="solved")
    board.puzzle_id = "lay-off-0002"
    play(board, LayOff(0, card("8H")))
    board.puzzle_id = "passport-0001"
    play(board, MeldMove.of("9S 9C 9D"))
    board.puzzle_id = "lay-off-0002"
    play(board, LayOff(0, card("8H")))  # again: right, but already listed
    assert verdict_html(lay_off(), LayOff(0, card("8H"))) in said(board)
    assert board.solved == ["lay-off-0002", "passport-0001"]
    assert changes == [
        ([], ["lay-off-0002"]),
        (["lay-off-0002"], ["lay-off-0002", "passport-0001"]),
    ]
    assert "solved 2" in words(board.heading.value)


# -- links --------------------------------------------------------------------------------------
def test_a_link_opens_its_puzzle() -> None:
    puzzles = made()
    board = PuzzleBoard(puzzles, start=linked_puzzle("?puzzle=swap-0003&other=1"))
    assert board.puzzle_id == "swap-0003" and "There is no puzzle" not in said(board)


def test_a_bad_link_says_so_in_one_sentence_and_shows_the_first_puzzle() -> None:
    puzzles = made()
    board = PuzzleBoard(puzzles, start=linked_puzzle("puzzle=lay-off-9999"))
    with pytest.raises(PuzzleError) as expected:
        find_puzzle(puzzles, "lay-off-9999")
    assert str(expected.value).startswith("There is no puzzle")
    assert html.escape(str(expected.value)) in said(board)
    assert board.puzzle_id == puzzles[0].id and board.solved == []
    assert "penang-no" in board.message._dom_classes  # said as a refusal
    # The note goes once the learner moves on, and the next puzzle's question is no refusal.
    board.buttons[Control.NEXT_PUZZLE].click()
    assert "There is no puzzle" not in said(board)
    assert not {"penang-no", "penang-ok"} & set(board.message._dom_classes)


def test_linked_puzzle_reads_the_page_query(monkeypatch: pytest.MonkeyPatch) -> None:
    assert linked_puzzle("") is None and linked_puzzle("seed=5") is None
    assert linked_puzzle("puzzle=a&puzzle=b") == "a" and linked_puzzle("puzzle=") == ""
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.setenv("QUERY_STRING", "puzzle=dead-0005")
    assert linked_puzzle() == "dead-0005"
    with pytest.raises(TypeError):
        linked_puzzle(5)  # type: ignore[arg-type]


# -- hidden hands, failures, arguments ------------------------------------------------------------
def test_no_widget_holds_a_card_of_another_hand() -> None:
    puzzles = made()
    board = PuzzleBoard(puzzles)
    for p in puzzles:
        board.puzzle_id = p.id
        position = p.position()
        hidden = hidden_cards(position, p.seat)
        assert hidden, p.id
        assert leaks(board, hidden) == [], p.id
        board.buttons[Control.END_TURN].click()
        board.buttons[Control.SHOW_ANSWER].click()
        assert leaks(board, hidden) == [], p.id
        play(board, p.answers[0])
        assert leaks(board, hidden) == [], p.id


def test_the_leak_check_can_fail() -> None:
    p = passport()
    board = PuzzleBoard([p])
    board.message.value = "A♦"
    assert leaks(board, hidden_cards(p.position(), p.seat)) == ["AD"]


def test_a_callback_failure_shows_oops(monkeypatch: pytest.MonkeyPatch) -> None:
    board = PuzzleBoard([passport()])

    def broken(*_args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("penang_lib.widgets.puzzle.judge", broken)
    board.buttons[Control.END_TURN].click()
    assert html.escape(OOPS) in board._trouble.value and is_shown(board._trouble)


def test_bad_arguments_are_refused_in_a_sentence() -> None:
    with pytest.raises(TypeError, match="Puzzle"):
        PuzzleBoard("passport-0001")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Puzzle"):
        PuzzleBoard([passport(), "x"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="at least one"):
        PuzzleBoard([])
    with pytest.raises(ValueError, match="twice"):
        PuzzleBoard([passport(), passport()])


def test_the_tree_is_built_once() -> None:
    board = PuzzleBoard(made())
    ids = [w.model_id for w in board.walk()]
    for _ in range(4):
        board.buttons[Control.NEXT_PUZZLE].click()
    board.buttons[Control.END_TURN].click()
    assert [w.model_id for w in board.walk()] == ids
    assert set(board.buttons) >= set(NAV_BUTTONS)
    assert {b.description for b in board.buttons.values()} >= {label(c) for c in NAV_BUTTONS}


# -- the shipped set and its page -----------------------------------------------------------------
SHIPPED = shipped_puzzles() if (LESSONS / "data" / "puzzles.json").is_file() else []


def test_the_page_has_puzzles_to_show() -> None:
    assert SHIPPED, "notebooks/lessons/data/puzzles.json holds no puzzle"
    board = PuzzleBoard(SHIPPED)
    assert f"Puzzle 1 of {len(SHIPPED)}" in words(board.heading.value)


@pytest.mark.parametrize("index", range(len(SHIPPED)), ids=[p.id for p in SHIPPED])
def test_every_shipped_answer_can_be_played_with_the_buttons(index: int) -> None:
    p = SHIPPED[index]
    board = PuzzleBoard(SHIPPED, start=p.id)
    hidden = hidden_cards(p.position(), p.seat)
    assert leaks(board, hidden) == []
    for answer in p.answers:
        board.puzzle_id = SHIPPED[index - 1].id if index else SHIPPED[-1].id
        board.puzzle_id = p.id
        play(board, answer)
        assert verdict_html(p, answer) in said(board), answer
        assert "penang-ok" in board.message._dom_classes
        # The engine's verdict may name a card that the rules would accept ("Only 9♦ can
        # extend it"): a fact of the rules, wherever that card lies. Nothing else is shown.
        assert leaks(board, hidden - named_cards(judge(p, answer).sentence)) == []
    assert board.solved == [p.id]


def test_the_page_teaches_what_the_shipped_puzzles_ask() -> None:
    page = next(lesson for lesson in catalogue() if lesson["file"] == PAGE)
    asked = {rule for p in SHIPPED for rule in p.rules}
    assert asked <= set(page["rules"]), sorted(asked - set(page["rules"]))
    notebook = json.loads((LESSONS / PAGE).read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]
    # The board, tracked by the page's progress; then the progress line.
    assert len(code) == 2 and "progress.track(PuzzleBoard(shipped_puzzles()" in code[0]
    assert code[1] == "progress"
    text = " ".join(
        " ".join("".join(c["source"]).split())
        for c in notebook["cells"]
        if c["cell_type"] == "markdown"
    )
    # The page says how a puzzle counts, and that the board opens at the first unsolved.
    assert "counts as solved only when your first try is right" in text
    assert "**Go to puzzle**" in text and "first puzzle you have not solved" in text


def test_solved_set_from_outside_keeps_each_id_once_and_counts_this_sets_own() -> None:
    """A page that restores what was solved before (progress tracking) may set `solved`."""
    board = PuzzleBoard(made())
    board.solved = ["swap-0003", "swap-0003", "from-another-set", "passport-0001"]
    assert board.solved == ["swap-0003", "from-another-set", "passport-0001"]
    line = words(board.heading.value)
    # The first puzzle, passport-0001, is one of them.
    assert "solved 2 · ✓ you solved this one" in line
    board.buttons[Control.NEXT_PUZZLE].click()
    assert words(board.heading.value).endswith("solved 2")


def test_no_widget_the_board_made_holds_a_card_of_another_hand() -> None:
    """Every widget the board made is sent to the browser, shown or not (the counts of the
    board's `scores`, say): none of them holds a hidden card either."""
    before = set(live_widgets)
    puzzles = made()
    board = PuzzleBoard(puzzles)
    mine = [live_widgets[k] for k in set(live_widgets) - before]
    assert len(mine) > len(board.walk()) // 2
    for p in puzzles:
        board.puzzle_id = p.id
        board.buttons[Control.SHOW_ANSWER].click()
        play(board, p.answers[0])
        state = json.dumps([w.get_state() for w in mine], default=str, ensure_ascii=False)
        for card in hidden_cards(p.position(), p.seat):
            assert card.symbol not in state and card.name not in state, (p.id, str(card))


# -- a wrong try never gives the answer away; what counts as solved -------------------------------
def giveaways(p: Puzzle) -> list[str]:
    """What would give `p` away, as a learner reads it: each answer's words, and their start up
    to the first card ("swap 9♦", "lay off 4♥", "meld 2♠")."""
    found = []
    for move in p.answers:
        if isinstance(move, DeclareDead):
            continue
        label = move.label()
        first = label.split()
        start = " ".join(first[: 3 if first[0] == "lay" else 2])
        found += [words(render.symbols(label)).lower(), words(render.symbols(start)).lower()]
    return found


def wrong_tries(p: Puzzle) -> list[Move]:
    """One wrong try of each kind a learner can make on the board: Declare Dead, End turn, Call
    Game, a legal move that is not an answer, a meld the rules refuse, and a card laid off and
    swapped where the rules refuse it."""
    deal = p.position()
    hand = deal.hand(p.seat)
    tries: list[Move] = [DeclareDead(), EndTurn(), DeclareGame()]
    legal = next((m for m in deal.legal_moves if not judge(p, m).right), None)
    if legal is not None and not isinstance(legal, DeclareDead):
        tries.append(legal)
    naturals = [c for c in hand if not c.is_joker]
    if len(naturals) >= 3:
        tries.append(MeldMove(tuple(naturals[:3])))
    if deal.table:
        for kind in (LayOff, Swap):
            tries += [
                m
                for m in (kind(t, c) for c in naturals[:4] for t in range(len(deal.table)))
                if not judge(p, m).legal
            ][:1]
    return [m for m in tries if not judge(p, m).right]


@pytest.mark.parametrize("index", range(len(SHIPPED)), ids=[p.id for p in SHIPPED])
def test_no_wrong_try_gives_the_answer_away_and_the_answer_found_after_one_does_not_count(
    index: int,
) -> None:
    p = SHIPPED[index]
    board = PuzzleBoard(SHIPPED, start=p.id)
    away = giveaways(p)
    tries = wrong_tries(p)
    kinds = {type(m).__name__ for m in tries}
    assert {"EndTurn", "DeclareGame"} <= kinds
    if not isinstance(p.answers[0], DeclareDead):
        assert "DeclareDead" in kinds
    for move in tries:
        play(board, move)
        if is_shown(board.action_bar.chooser):
            continue  # the engine asked which card a joker stands for: not yet a try
        message = words(said(board)).lower()
        verdict = judge(p, move)
        assert verdict_html(p, move) in said(board)
        assert "penang-bad" in said(board) and "try again" in message, move.label()
        # (A refusal names the learner's own move, which may start as an answer does.)
        own = words(render.symbols(move.label())).lower()
        leaked = [a for a in away if a in message and a not in own]
        assert leaked == [], (move.label(), message)
        if isinstance(move, DeclareDead):
            assert verdict.rule == "dead" and "dead is not allowed" in message
    play(board, p.answers[0])
    assert "penang-ok" in board.message._dom_classes
    assert naming(MISSED) in words(said(board)) and board.solved == []
    assert "solved 0" in words(board.heading.value)


def test_the_answer_found_at_the_first_try_counts_and_after_show_answer_it_does_not() -> None:
    board = PuzzleBoard(made())
    play(board, MeldMove.of("9S 9C 9D"))
    assert board.solved == ["passport-0001"] and naming(SOLVED) in words(said(board))
    board.buttons[Control.NEXT_PUZZLE].click()
    board.buttons[Control.END_TURN].click()
    board.buttons[Control.SHOW_ANSWER].click()
    board.buttons[Control.NEXT_PUZZLE].click()
    board.buttons[
        Control.PREVIOUS_PUZZLE
    ].click()  # the answer was seen: stepping away does not undo it
    play(board, LayOff(0, card("8H")))
    assert naming(SEEN) in words(said(board)) and board.solved == ["passport-0001"]


# -- what this browser kept, the list of puzzles ------------------------------------------------
def test_the_puzzles_kept_as_solved_are_marked_and_the_board_opens_at_the_first_unsolved() -> None:
    puzzles = made()
    board = PuzzleBoard(puzzles)
    assert board.puzzle_id == "passport-0001"  # the stored progress has not arrived yet
    assert "penang-no" not in board.message._dom_classes
    board.kept_solved = ["passport-0001", "lay-off-0002", "from-another-set"]
    assert board.puzzle_id == "swap-0003" and BACK in words(said(board))
    assert "penang-no" not in board.message._dom_classes
    assert "solved 2" in words(board.heading.value)
    labels = dict((v, k) for k, v in board.picker.options)
    assert labels["passport-0001"].endswith("✓ solved") and "✓" not in labels["swap-0003"]
    assert board.picker.value == "swap-0003"
    # Later reads of the stored progress mark what they hold, and move nothing.
    board.buttons[Control.NEXT_PUZZLE].click()
    board.kept_solved = [*board.kept_solved, "joker-0004"]
    assert board.puzzle_id == "joker-0004" and "solved 3 · ✓ you solved this one" in words(
        board.heading.value
    )
    # A puzzle solved on the page is marked in the list at once.
    board.puzzle_id = "dead-0005"
    board.buttons[Control.DEAD].click()
    labels = dict((v, k) for k, v in board.picker.options)
    assert labels["dead-0005"] == "Puzzle 5 · difficulty 5 · ✓ solved"
    assert board.picker.value == "dead-0005"


def test_a_linked_puzzle_or_a_learner_who_began_stays_where_they_are() -> None:
    linked = PuzzleBoard(made(), start="passport-0001")
    linked.kept_solved = ["passport-0001"]
    assert linked.puzzle_id == "passport-0001" and "✓ you solved this one" in words(
        linked.heading.value
    )
    began = PuzzleBoard(made())
    began.buttons[Control.END_TURN].click()
    began.kept_solved = ["passport-0001"]
    assert began.puzzle_id == "passport-0001"
    chose = PuzzleBoard(made())
    chose.select("9S")
    chose.kept_solved = ["passport-0001"]
    assert chose.puzzle_id == "passport-0001" and chose.selected() == [card("9S")]
    done = PuzzleBoard(made())
    done.kept_solved = [p.id for p in made()]
    assert done.puzzle_id == "passport-0001" and "solved 5" in words(done.heading.value)


def test_any_puzzle_can_be_picked_from_the_list_by_its_id() -> None:
    board = PuzzleBoard(SHIPPED)
    ids = [value for _, value in board.picker.options]
    assert ids == [p.id for p in SHIPPED]
    assert [label for label, _ in board.picker.options][:2] == [
        f"Puzzle 1 · difficulty {SHIPPED[0].difficulty}",
        f"Puzzle 2 · difficulty {SHIPPED[1].difficulty}",
    ]
    board.picker.value = SHIPPED[39].id
    assert board.puzzle_id == SHIPPED[39].id
    assert f"Puzzle 40 of {len(SHIPPED)}" in words(board.heading.value)
    board.buttons[Control.NEXT_PUZZLE].click()
    assert board.picker.value == SHIPPED[40].id
    # Picking does not count as a try: a first right try still counts.
    board.picker.value = SHIPPED[0].id
    play(board, SHIPPED[0].answers[0])
    assert board.solved == [SHIPPED[0].id]
    # A picked puzzle stays, even when the stored progress arrives afterwards.
    board.kept_solved = [SHIPPED[1].id]
    assert board.puzzle_id == SHIPPED[0].id
