"""The puzzles package: its docstring names every kind, its modules stack without a cycle and
share no private names, and every name of the one-module API is still importable from it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import penang_lib.course.puzzles as puzzles
from penang_lib.course.puzzles import PUZZLE_KINDS

PACKAGE = Path(puzzles.__file__).parent
ORDER = ("model", "difficulty", "weighing", "solvers", "proof", "judging", "store")
"""The modules, lowest first, as the package's docstring lists them."""


def test_the_docstring_describes_every_kind_in_order() -> None:
    doc = puzzles.__doc__ or ""
    described = re.findall(r"^- `([a-z.-]+)`: ", doc, flags=re.MULTILINE)
    kinds = [name for name in described if name not in ORDER]
    assert kinds == list(PUZZLE_KINDS)


def test_the_docstring_lists_every_module_in_order() -> None:
    doc = puzzles.__doc__ or ""
    listed = [n for n in re.findall(r"^- `([a-z]+)`: ", doc, flags=re.MULTILINE) if n in ORDER]
    on_disk = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")
    assert listed == list(ORDER) and sorted(ORDER) == on_disk


def _imports(module: str) -> list[tuple[str, str]]:
    """(module, name) for each `from ... import name` in the package's module `module`."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    return [
        (node.module or "", alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    ]


@pytest.mark.parametrize("module", ORDER)
def test_each_module_imports_only_those_below_it_and_no_private_name(module: str) -> None:
    prefix = "penang_lib.course.puzzles."
    for source, name in _imports(module):
        marker = source == "penang_lib.i18n" and name == "_"  # gettext's name, public there
        assert marker or not name.startswith("_"), f"{module} imports the private {source}.{name}"
        assert source != "penang_lib.course.puzzles", f"{module} imports the package itself"
        if source.startswith(prefix):
            below = ORDER[: ORDER.index(module)]
            assert source.removeprefix(prefix) in below, f"{module} imports {source}"


ONE_MODULE_API = [
    "DEAD_REFUSED",
    "FORMAT",
    "ID_SHAPE",
    "KIND_QUESTIONS",
    "KIND_RULES",
    "MAX_DEADWOOD_HAND",
    "MAX_GAME_ANSWERS",
    "MAX_GAME_HAND",
    "MAX_ID",
    "PUZZLE_FIELDS",
    "PUZZLE_KINDS",
    "READER_FIELDS",
    "SEARCH_BUDGET",
    "VERSION",
    "Judgement",
    "Puzzle",
    "PuzzleError",
    "Solution",
    "answer_sentence",
    "find_puzzle",
    "judge",
    "position_id",
    "prove",
    "puzzle_at",
    "puzzles_from_json",
    "puzzles_to_json",
    "shipped_puzzles",
    "solve",
]
"""The public names of course/puzzles.py when it was one module."""

STRATEGY_API = [
    "EXACT_KINDS",
    "MIN_STARTS",
    "STRATEGY_ERRORS",
    "STRATEGY_MARGIN",
    "STRATEGY_SAMPLES",
    "WEIGHED_FIELDS",
    "Weighed",
]
"""The public names added with the `strategy` kind."""


def test_every_name_of_the_one_module_is_importable_from_the_package() -> None:
    assert sorted(puzzles.__all__) == sorted(ONE_MODULE_API + STRATEGY_API)
    for name in ONE_MODULE_API + STRATEGY_API:
        home = getattr(puzzles, name)
        defined_in = getattr(home, "__module__", "")
        assert not callable(home) or defined_in.startswith("penang_lib.course.puzzles."), name
