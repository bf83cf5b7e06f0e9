"""The examples in the engine's docstrings run, as python-chess runs its own: `Deal`, `push`,
`push_text`, `legal_moves` and `check_meld` show their use, and the examples must stay true."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from penang_lib.engine import analysis, checks, deal

MODULES = (deal, checks, analysis)
"""The modules whose examples run (only these: the others' docstrings are not collected)."""

ENTRY_POINTS = (
    deal.Deal,
    deal.Deal.push,
    deal.Deal.push_text,
    deal.Deal.legal_moves,
    checks.check_meld,
)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_the_examples_in_the_docstrings_hold(module: ModuleType) -> None:
    failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert tried > 0, f"{module.__name__} has no examples"
    assert failed == 0, f"{failed} of {tried} examples in {module.__name__} fail (run with -s)"


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: getattr(e, "__qualname__", "prop"))
def test_every_entry_point_shows_an_example(entry: object) -> None:
    assert ">>> " in (entry.__doc__ or "")
