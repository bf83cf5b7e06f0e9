"""Stored progress texts, good and bad, that both the engine's progress tests and the landing
page's browser test read."""

from __future__ import annotations

import json
from typing import Any

from penang_lib.course import progress as pg
from penang_lib.course.progress import Kept


def stored(**changes: Any) -> str:
    """A good stored text with some fields changed (as a learner might edit it by hand)."""
    data: dict[str, Any] = {
        "version": 1,
        "lessons": ["01_deck_and_deal.ipynb", "02_melds.ipynb"],
        "quizzes": {"02_melds.ipynb": {"score": 3, "out_of": 5}},
        "puzzles": ["lay-off-0012"],
        "deals": {"played": 2, "won": 1},
        "last": "02_melds.ipynb",
    }
    data.update(changes)
    return json.dumps(data)


BAD_TEXTS: list[tuple[str, str]] = [
    ("", "json"),
    ("{not json", "json"),
    ("[" * 100_000 + "]" * 100_000, "shape"),  # JSON, nested far too deep
    (stored(version=1).replace('"version": 1', '"version": NaN'), "json"),
    ("x" * (pg.MAX_TEXT + 1), "size"),
    ("[]", "shape"),
    ('"progress"', "shape"),
    (json.dumps({"version": 1}), "shape"),
    (stored(extra=1), "shape"),
    (stored(version=2), "version"),
    (stored(version="1"), "version"),
    (stored(version=True), "version"),
    (stored(version=1.5), "version"),
    (stored(lessons="all of them"), "lessons"),
    (stored(lessons=["../secret.ipynb"]), "lessons"),
    (stored(lessons=["02_melds.ipynb", "02_melds.ipynb"]), "lessons"),
    (stored(lessons=[2]), "lessons"),
    (stored(quizzes={"02_melds.ipynb": {"score": 6, "out_of": 5}}), "quizzes"),
    (stored(quizzes={"02_melds.ipynb": {"score": -1, "out_of": 5}}), "quizzes"),
    (stored(quizzes={"02_melds.ipynb": {"score": 1, "out_of": 0}}), "quizzes"),
    (stored(quizzes={"02_melds.ipynb": {"score": 1}}), "quizzes"),
    (stored(quizzes={"02_melds.ipynb": [3, 5]}), "quizzes"),
    (stored(quizzes={"<b>.ipynb": {"score": 1, "out_of": 2}}), "quizzes"),
    (stored(quizzes=[]), "quizzes"),
    (stored(quizzes={"__proto__": {"score": 1, "out_of": 2}}), "quizzes"),
    (stored(puzzles=["Lay Off"]), "puzzles"),
    (stored(puzzles=["a", "a"]), "puzzles"),
    (stored(puzzles={}), "puzzles"),
    (stored(deals={"played": 1, "won": 2}), "deals"),
    (stored(deals={"played": -1, "won": 0}), "deals"),
    (stored(deals={"played": 1.5, "won": 0}), "deals"),
    (stored(deals={"played": True, "won": 0}), "deals"),
    (stored(deals={"played": 1}), "deals"),
    (stored(deals=[1, 0]), "deals"),
    (stored(last="javascript:alert(1)"), "last"),
    (stored(last=3), "last"),
]
"""Stored texts that do not read, each with the code of what is wrong (the engine is checked
against them in tests/course/test_progress.py, the landing page's script in
tests/site/test_progress_in_browser.py)."""


GOOD_TEXTS: list[str] = [
    stored(),
    stored(last=None, lessons=[], quizzes={}, puzzles=[]),
    stored(deals={"played": 2.0, "won": 1}),  # JSON does not tell 2.0 from 2
    pg.write(Kept()),
]
"""Stored texts that read (checked by the same two tests)."""
