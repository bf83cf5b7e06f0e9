"""The one table of the controls' words (`penang_lib.widgets.controls`), and the rule that no
other place writes a control's label.

The rule, checked on the AST of each module (docstrings and comments are free: they speak to
programmers):

- the engine (`penang_lib/engine/*.py`) names no control: none of its string literals (an
  f-string's literal parts included) is a label, holds a label of several words ("Call Game"),
  or names a label of one word in a "click X" / "press X" phrase ("click Meld");
- the widgets (`widgets/*.py`) write each label once, in `controls.WORDS`: no other string
  literal there is a label, holds a label in a "click X" / "press X" phrase, or quotes one
  ('Meld on table'). A sentence that names a control fills a placeholder with `label(control)`.
  The only literals equal to a label elsewhere are the words of `NOT_CONTROLS` (a table's
  column header that is the same word as a button, a class name in `__all__`), each with why.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from penang_lib.widgets import match, play, puzzle, stepper
from penang_lib.widgets.controls import WORDS, Control, label, naming, tooltip
from tests.checkout import REPO

ENGINE = REPO / "penang_lib" / "engine"
WIDGETS = REPO / "widgets"
CONTROLS = WIDGETS / "controls.py"
LABELS = tuple(w.label for w in WORDS.values())

NOT_CONTROLS: dict[tuple[str, str], str] = {
    ("render.py", "Meld"): "the table's Meld column (the meld's number)",
    ("render.py", "Cards"): "the Cards column of the hands and of the table",
    ("render.py", "Step"): "the move log's Step column",
    ("match.py", "Next"): "the match sheet's Next column (who deals next)",
    ("lessons.py", "Cards"): "the class `Cards`, named in `__all__`",
}
"""Literals of the widgets equal to a one-word label that name no control, and what they name."""


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that stand alone as statements (docstrings and the like)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def literals(path: Path) -> Iterator[tuple[int, str]]:
    """Each string literal of the module at `path` that is not a docstring, with its line (an
    f-string yields its literal parts)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    free = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in free:
            yield node.lineno, node.value


def _phrase(text: str, name: str) -> bool:
    """Whether `text` tells the learner to click or press the control labelled `name`."""
    return re.search(rf"\b(?:[Cc]lick|[Pp]ress)(?: the)? {re.escape(name)}\b", text) is not None


def names_in_engine(text: str) -> list[str]:
    """The labels an engine literal names: the whole literal, a label of several words inside
    it, or any label in a "click X" / "press X" phrase."""
    return [
        name
        for name in LABELS
        if text == name or (" " in name and name in text) or _phrase(text, name)
    ]


def names_in_widgets(text: str) -> list[str]:
    """The labels a widgets literal (outside `controls.WORDS`) writes: the whole literal, a
    "click X" / "press X" phrase, or the label in quotes."""
    return [
        name
        for name in LABELS
        if text == name or _phrase(text, name) or f"'{name}'" in text or f'"{name}"' in text
    ]


def found(paths: list[Path], rule: Callable[[str], list[str]]) -> list[tuple[str, int, str]]:
    """Each label that `rule` finds in the literals of `paths`: (module, line, label)."""
    return [
        (path.name, line, name)
        for path in paths
        for line, text in literals(path)
        for name in rule(text)
    ]


def test_the_engine_names_no_control() -> None:
    assert found(sorted(ENGINE.rglob("*.py")), names_in_engine) == []


def test_no_label_of_several_words_is_anywhere_in_the_engines_source() -> None:
    # As `grep` reads it: docstrings and comments included.
    long = [name for name in LABELS if " " in name]
    assert len(long) >= 8  # "Call Game", "Declare Dead", "Bots to my turn", ...
    written = [
        (path.name, name)
        for path in sorted(ENGINE.rglob("*.py"))
        for name in long
        if name in path.read_text(encoding="utf-8")
    ]
    assert written == []


def test_each_label_is_written_once_in_the_widgets_in_the_table_of_words() -> None:
    others = [p for p in sorted(WIDGETS.glob("*.py")) if p != CONTROLS]
    named = found(others, names_in_widgets)
    assert [(m, line, name) for m, line, name in named if (m, name) not in NOT_CONTROLS] == []
    in_table = [text for _line, text in literals(CONTROLS) if text in LABELS]
    assert sorted(in_table) == sorted(LABELS)


def test_the_check_finds_a_label_written_elsewhere(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text(
        '"""Click Call Game: a docstring may name it."""\n'
        'A = "Call Game"\n'
        'B = "Now click Meld."\n'
        'C = "The deal is won: call Game."\n'
        "D = \"Choose the meld in 'Meld on table'.\"\n"
        'E = f"{1} then press End turn"\n',
        encoding="utf-8",
    )
    assert [line for line, _text in literals(module)] == [2, 3, 4, 5, 6]
    assert len(found([module], names_in_engine)) == 4  # A, B, D and E; not C
    assert len(found([module], names_in_widgets)) == 4


def test_every_control_has_words_and_the_labels_are_unique() -> None:
    assert set(WORDS) == set(Control)
    assert all(w.label and w.tooltip for w in WORDS.values())
    assert len(set(LABELS)) == len(LABELS)
    assert label(Control.GAME) == "Call Game"
    assert tooltip(Control.GAME) == "Your hand is empty: call Game and win the deal"


def test_a_tooltip_names_another_control_by_a_placeholder() -> None:
    """A tooltip writes no other control's label of several words, nor one in quotes or in a
    "click X" phrase: it names the control by a placeholder (`{target}`) that `tooltip()`
    fills with the label."""
    written = [
        (control, name)
        for control, words in WORDS.items()
        for name in names_in_engine(words.tooltip) + names_in_widgets(words.tooltip)
        if name != words.label
    ]
    assert written == []
    assert all("{" not in tooltip(c) for c in Control)
    assert tooltip(Control.TARGET) == "The table meld that Lay off and Swap play on"
    assert label(Control.TARGET) in tooltip(Control.LAY_OFF)


def test_a_move_controls_value_is_the_engines_move_type() -> None:
    from penang_lib.engine.moves import DeclareDead, DeclareGame, EndTurn, LayOff, MeldMove, Swap

    for kind in (MeldMove, LayOff, Swap, EndTurn, DeclareDead, DeclareGame):
        assert Control(kind.type) in play.MOVE_BUTTONS


def test_naming_fills_the_controls_labels() -> None:
    assert naming("Try again, or press {show_answer}.") == "Try again, or press Show answer."
    assert naming("{who}: press {game}.", who="North") == "North: press Call Game."
    with pytest.raises(KeyError):
        naming("{nothing}")


def _button_dicts() -> list[Mapping[Control, object]]:
    """The `buttons` of every widget that has a dict of them."""
    from penang_lib.course.puzzles import shipped_puzzles
    from penang_lib.engine.deal import Deal

    table = play.PlayTable(seed=3)
    board = puzzle.PuzzleBoard(list(shipped_puzzles())[:2])
    return [
        table.buttons,
        table.action_bar.buttons,
        table.bot_bar.buttons,
        table.controls.buttons,
        board.buttons,
        stepper.DealStepper(Deal(seed=3)).buttons,
        match.MatchSheet(deals=1, seed=3).buttons,
    ]


def test_every_widgets_buttons_are_keyed_by_control() -> None:
    for buttons in _button_dicts():
        assert buttons
        for key, button in buttons.items():
            assert isinstance(key, Control), key
            assert getattr(button, "description", None) == label(key)
            assert getattr(button, "tooltip", None) == tooltip(key)
