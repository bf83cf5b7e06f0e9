"""The words a learner reads, marked for a message catalog.

Every sentence a learner reads (the engine's rule sentences, the widgets' labels and messages,
the course's texts) goes through one of the four functions here, so that `pybabel extract`
finds it and a catalog can translate it later:

- `_(message)`: a sentence to show now, translated where it is shown;
- `N_(message)`: a sentence kept in a constant (a module-level table, a default); it is only
  marked here, and the code that shows it passes it through `_()` then;
- `pgettext(context, message)`: a short message that means different things in different
  places (the match sheet's column "Next", who deals next, is not the stepper's button "Next"):
  the context tells them apart in the catalog;
- `ngettext(singular, plural, n)`: the one helper for plurals; the words hold a named
  placeholder that the caller fills:
  `ngettext("{count} card", "{count} cards", n).format(count=n)`.

Messages are whole sentences with named placeholders (`"{player} lays off {card}"`), never glued
from fragments, so that a translation can reorder them. No catalog is installed yet: every
function returns the English it is given (`gettext.NullTranslations`). `tests/test_catalog.py`
extracts the catalog with Babel and fails when a learner-facing string escapes it.

This module is the bottom layer: it imports only the standard library, and every layer may
import it.
"""

from __future__ import annotations

import gettext

__all__ = ["N_", "_", "ngettext", "pgettext"]

_translations: gettext.NullTranslations = gettext.NullTranslations()
"""The catalog in use: English, as written in the source, until languages come."""
_english = True
"""Whether `_translations` is the source's English (no catalog): then `_` returns its message
without a call, which the bots' every move would pay (they give a reason for each)."""


def _(message: str) -> str:
    """`message` in the learner's language (today: as written)."""
    return message if _english else _translations.gettext(message)


def N_(message: str) -> str:
    """Mark `message` for the catalog without translating it: for constants, which are
    translated with `_()` where they are shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the number `n`: `singular` for one, `plural` for other numbers
    (a catalog may hold more forms for languages that have them)."""
    return _translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the learner's language, as meant in `context` (today: as written)."""
    return _translations.pgettext(context, message)
