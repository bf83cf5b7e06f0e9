"""Lesson data: each lesson keeps its prepared positions and quiz questions in a JSON file of its
own, `data/<lesson>.json` beside the lessons, written in card notation (positions are data, not
code). A lesson notebook runs with its own folder as the working directory, so `data/` is found
beside it; from anywhere else the installed lessons' copy is used (package data of
`penang_lib.notebooks`, the repository's `notebooks/lessons/data/`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

from penang_lib import CardParseError, Deal, IllegalMove, Rules, parse_cards, parse_move
from penang_lib.engine.cards import cards_html
from penang_lib.engine.validate import ArgumentTypeError, require_text, shown

POSITION_KEYS = frozenset({"hands", "dealer", "moves", "names"})
"""What a prepared position may say: `hands` (one card text per seat, required), `dealer`
(default the last seat, so seat 0 plays first), `moves` (move texts played first), `names`."""

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


def _texts(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"{what} should be a list of texts, not {shown(value)}")
    return list(value)


def position_deal(position: Mapping[str, Any], rules: Rules | None = None) -> Deal:
    """The deal of a prepared position: the hands dealt, then its moves played through the
    engine (so a position can never be illegal). Bad data raises `ValueError` saying what."""
    if not isinstance(position, Mapping):
        raise ValueError(f"a position is an object with hands, dealer, moves: {shown(position)}")
    unknown = sorted(set(position) - POSITION_KEYS)
    if unknown:
        allowed = ", ".join(sorted(POSITION_KEYS))
        raise ValueError(f"unknown key {shown(unknown[0])} in position (use {allowed})")
    if "hands" not in position:
        raise ValueError("position needs hands (one card text per seat)")
    hands = _texts(position["hands"], "position's hands")
    dealer = position.get("dealer", len(hands) - 1)
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise ValueError(f"position's dealer should be a seat number, not {shown(dealer)}")
    names = _texts(position["names"], "position's names") if "names" in position else None
    try:
        deal = Deal(hands=hands, dealer=dealer, names=names, rules=rules)
    except CardParseError as error:
        raise ValueError(f"position's hands: {error}") from error
    except ValueError as error:
        raise ValueError(f"position: {error}") from error
    for step, text in enumerate(_texts(position.get("moves", []), "position's moves"), 1):
        try:
            deal.push(parse_move(text))
        except IllegalMove as error:
            raise ValueError(
                f"move {step} of the position ({shown(text)}) is illegal: {error.reason}"
            ) from error
        except CardParseError as error:
            raise ValueError(f"move {step} of the position: {error}") from error
    return deal


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
