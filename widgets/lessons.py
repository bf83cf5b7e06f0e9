"""Lesson data: each lesson keeps its prepared positions and quiz questions in a JSON file of its
own, `data/<lesson>.json` beside the lessons, written in card notation (positions are data, not
code). A lesson notebook runs with its own folder as the working directory, so `data/` is found
beside it; from anywhere else the installed lessons' copy is used (package data of
`penang_lib.notebooks`, the repository's `notebooks/lessons/data/`). A prepared position becomes a
deal with `position_deal` (from `penang_lib.course.positions`, kept here for the lessons).
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

from penang_lib.course.positions import POSITION_KEYS, position_deal
from penang_lib.engine.cards import cards_html, parse_cards
from penang_lib.engine.validate import ArgumentTypeError, require_text, shown

__all__ = [
    "INSTALLED_DATA",
    "LESSON_NAME",
    "POSITION_KEYS",
    "Cards",
    "data_path",
    "lesson_data",
    "position_deal",
]

INSTALLED_DATA = Path(str(files("penang_lib.notebooks") / "lessons" / "data"))
"""The installed lessons' data folder (package data, found with importlib.resources)."""


LESSON_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,79}")
"""What a lesson's name looks like: a plain file name, no folders (e.g. 02_melds)."""


def data_path(lesson: str) -> Path:
    """Where the data file of `lesson` (e.g. "02_melds") lives."""
    if not isinstance(lesson, str):
        raise ArgumentTypeError(
            f"a lesson is named by text such as '02_melds', not {shown(lesson)}"
        )
    if not LESSON_NAME.fullmatch(lesson) or ".." in lesson:
        raise ValueError(f"{shown(lesson)} is not a lesson's name (such as 02_melds)")
    name = lesson if lesson.endswith(".json") else f"{lesson}.json"
    local = Path.cwd() / "data" / name
    return local if local.exists() else INSTALLED_DATA / name


def lesson_data(lesson: str) -> dict[str, Any]:
    """The positions and questions of `lesson`, as written in its JSON file."""
    path = data_path(lesson)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(
            f"no data file for the lesson {shown(lesson)} (looked for {path})"
        ) from None
    except (OSError, ValueError, RecursionError) as error:
        raise ValueError(
            f"the data file of the lesson {shown(lesson)} cannot be read: {error}"
        ) from None
    if not isinstance(data, dict):
        raise ValueError(f"{path.name} should hold a JSON object")
    return data


class Cards:
    """Cards to look at in a lesson: `Cards("7H 7H 7C")` as a cell's last expression shows them
    as the engine draws them (symbols, red suits, a name for screen readers)."""

    def __init__(self, text: str, label: str = "") -> None:
        self.cards = parse_cards(text)
        self.label = require_text(label, "label") or " ".join(c.name for c in self.cards)

    def _repr_html_(self) -> str:
        return cards_html(self.cards, self.label)

    def __repr__(self) -> str:
        return " ".join(c.symbol for c in self.cards)
