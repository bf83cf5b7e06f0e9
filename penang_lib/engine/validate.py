"""Checking what comes in from outside: each public function checks its arguments where they
enter, and a bad one is refused with one sentence naming it (the malformed-input contract).
Each check is named `require_*` (a `check_*` name is a rule verdict, such as `check_meld`).

- A value of the wrong type (text or None where a number is wanted, a bool for a whole number)
  raises `ArgumentTypeError`: a `TypeError`, and also a `ValueError`, so code written against the
  older `ValueError`s keeps catching it.
- A value of the right type but out of range raises `ValueError`.

The engine's own hot loops never come through here: they call the unchecked helpers directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

MAX_SEED: Final = 2**63 - 1
"""The largest seed: seeds are whole numbers from 0 to 2**63 - 1, so that every seed fits a
64-bit column of a frame and a JSON reader keeps it whole."""

MAX_SHOWN: Final = 40
"""How many characters of a refused value a message quotes."""


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong type. A `TypeError` (the contract), also a `ValueError` so that
    callers that caught the older `ValueError`s still catch it."""


def shown(value: object) -> str:
    """A refused value as a message quotes it: its repr, cut short when long."""
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails is still named by its type
        text = f"<{type(value).__name__}>"
    if len(text) > MAX_SHOWN:
        text = text[: MAX_SHOWN - 1] + "…"
    return text


def cut(text: str, limit: int = MAX_SHOWN) -> str:
    """A long text cut short for a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def join_names(names: Sequence[str]) -> str:
    """Names joined as a sentence says them: "East", "East and South", "East, South and West"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def require_whole(
    value: object,
    name: str,
    low: int | None = None,
    high: int | None = None,
) -> int:
    """`value` as a whole number from `low` to `high` (either may be open).

    A bool, a float, text or None is an `ArgumentTypeError`; a number outside the range a
    `ValueError`. Integer types other than `int` (numpy's, say) are accepted and made `int`.
    """
    if value.__class__ is int:
        number = int(value)
    else:
        index = None if isinstance(value, bool) else getattr(value, "__index__", None)
        if index is None:
            raise ArgumentTypeError(f"{name} should be a whole number, not {shown(value)}")
        number = int(index())
    if (low is not None and number < low) or (high is not None and number > high):
        if low is not None and high is not None:
            span = f"from {low} to {high}"
        elif low is not None:
            span = f"{low} or more"
        else:
            span = f"at most {high}"
        raise ValueError(f"{name} should be {span}, not {shown(number)}")
    return number


def require_optional_whole(
    value: object, name: str, low: int | None = None, high: int | None = None
) -> int | None:
    """`require_whole`, with None let through."""
    return None if value is None else require_whole(value, name, low, high)


def require_seed(value: object, name: str = "seed") -> int | None:
    """A seed: None (draw one) or a whole number from 0 to `MAX_SEED`."""
    if value is None:
        return None
    return require_whole(value, name, 0, MAX_SEED)


def require_flag(value: object, name: str) -> bool:
    """`value` as True or False (a number or text is an `ArgumentTypeError`)."""
    if not isinstance(value, bool):
        raise ArgumentTypeError(f"{name} should be True or False, not {shown(value)}")
    return value


def require_text(value: object, name: str) -> str:
    """`value` as text."""
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} should be text, not {shown(value)}")
    return value


def require_texts(value: object, name: str, size: int | None = None) -> list[str]:
    """`value` as a list (or tuple) of texts, `size` of them when given."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise ArgumentTypeError(f"{name} should be a list of texts, not {shown(value)}")
    items = list(value)
    for item in items:
        if not isinstance(item, str):
            raise ArgumentTypeError(f"{name} should hold only texts, not {shown(item)}")
    if size is not None and len(items) != size:
        raise ValueError(f"{name} should hold {size} texts, one per player, not {len(items)}")
    return items


def require_seats(value: object, name: str, players: int) -> list[int]:
    """`value` as a list of seat numbers from 0 to `players` - 1."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise ArgumentTypeError(f"{name} should be a list of seat numbers, not {shown(value)}")
    return [require_whole(item, f"a seat in {name}", 0, players - 1) for item in value]


def require_instance(value: object, kind: type, name: str, what: str) -> Any:
    """`value` itself when it is a `kind`; otherwise an `ArgumentTypeError` saying `what` it
    should be."""
    if not isinstance(value, kind):
        raise ArgumentTypeError(f"{name} should be {what}, not {shown(value)}")
    return value
