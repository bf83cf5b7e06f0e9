"""The contract for malformed input (the shared brief of issue 8), as judged on one push:
what a refusal may raise and say (`judge_refusal`), and whether the engine raised it
itself (`deliberate`)."""

from __future__ import annotations

import linecache
import os
from typing import Final

from penang_lib import (
    RULE_BOOK,
    CardParseError,
    Deal,
    IllegalMove,
)

ALLOWED_ERRORS: Final = (IllegalMove, TypeError, CardParseError)
"""What a refused push may raise (the shared contract); anything else is a finding."""


def _innermost(error: BaseException) -> tuple[str, int]:
    """The file and line where `error` was raised (the innermost frame of its traceback)."""
    tb = error.__traceback__
    if tb is None:
        return "?", 0
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_filename, tb.tb_lineno


def deliberate(error: BaseException) -> bool:
    """Whether the engine raised `error` itself (a `raise` statement), rather than Python raising
    it from deep inside (a comparison of a text with a number, a missing attribute, ...)."""
    if isinstance(error, IllegalMove | CardParseError):
        return True
    filename, line = _innermost(error)
    return linecache.getline(filename, line).lstrip().startswith("raise")


def where(error: BaseException) -> str:
    """The innermost place `error` came from, as `file:line` (for grouping findings)."""
    filename, line = _innermost(error)
    return f"{os.path.basename(filename)}:{line}"


def outcome(deal: Deal, move: object, player: object, with_player: bool) -> BaseException | None:
    """Push `move` (with `player` when given); the error it raised, or None when accepted."""
    try:
        if with_player:
            deal.push(move, player=player)  # type: ignore[arg-type]
        else:
            deal.push(move)  # type: ignore[arg-type]
    except Exception as error:
        return error
    return None


def judge_refusal(error: BaseException, garbage: bool) -> tuple[str, str, str] | None:
    """What is wrong with a refusal (kind, detail, grouping key), or None when it keeps the
    contract."""
    name = type(error).__name__
    if not isinstance(error, ALLOWED_ERRORS):
        return "escaped", f"{name}: {error}", f"{name} at {where(error)}"
    if not deliberate(error):
        return "internal", f"{name} from deep inside: {error}", f"{name} at {where(error)}"
    want = TypeError if garbage else IllegalMove
    if not isinstance(error, want):
        got = f"{name}({getattr(error, 'rule', '')})" if isinstance(error, IllegalMove) else name
        return (
            "wrong-error",
            f"expected {want.__name__}, got {got}: {error}",
            f"{name} instead of {want.__name__}",
        )
    if isinstance(error, IllegalMove):
        if error.rule not in RULE_BOOK:
            return "message", f"rule {error.rule!r} is not in the rule book", f"rule {error.rule}"
        if not isinstance(error.reason, str) or not error.reason.strip():
            return "message", "the reason is empty", "empty reason"
    elif not str(error).strip():
        return "message", f"{name} with an empty message", "empty message"
    return None
