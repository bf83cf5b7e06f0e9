"""Table codes and seat tokens: what a player types or keeps to reach their table and seat.

A table's code is short enough to read out in a classroom and type on a phone: `CODE_LENGTH`
characters from `CODE_ALPHABET`, which leaves out the characters that are easy to take for one
another (0 and O, 1, I and L, 2 and Z, 5 and S, 8 and B, U and V). Codes are read
case-insensitively, and anything between 4 and 6 characters is looked at, so that an old or
future code length still gets a clear answer.

A seat's token is the secret that gives a seat back: a random URL-safe text from `secrets`. The
service keeps only its digest (`token_digest`), so a stolen journal gives no seat away.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Container
from typing import Final

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "MAX_CODE",
    "MIN_CODE",
    "TOKEN_BYTES",
    "new_code",
    "new_token",
    "read_code",
    "token_digest",
]

CODE_ALPHABET: Final = "ACDEFGHJKMNPQRTWXY34679"
"""The characters of a table code: capitals and digits with no look-alike pair among them."""
CODE_LENGTH: Final = 5
"""Characters in a new code (23**5, about 6.4 million codes)."""
MIN_CODE: Final = 4
MAX_CODE: Final = 6
"""The lengths a code may have when it is read."""
TOKEN_BYTES: Final = 18
"""Random bytes in a seat's token (24 URL-safe characters)."""
MAX_TOKEN: Final = 64
"""A token longer than this is not one of ours (checked before it is hashed)."""
_TRIES: Final = 1000


def new_code(taken: Container[str], rng: random.Random | None = None) -> str:
    """A code that no table in `taken` has; `rng` makes it repeatable (tests), else `secrets`."""
    for _try in range(_TRIES):
        if rng is None:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        else:
            code = "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code
    raise RuntimeError("no free table code was found: too many tables are open")


def read_code(text: object) -> str | None:
    """The code `text` names (upper case, spaces around it dropped), or None when it cannot be
    a table's code (not text, the wrong length, or a character no code holds)."""
    if not isinstance(text, str) or len(text) > 2 * MAX_CODE:
        return None
    code = text.strip().upper()
    if not MIN_CODE <= len(code) <= MAX_CODE or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def new_token() -> str:
    """A fresh secret for a seat."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: object) -> str | None:
    """What the service keeps of a token (its SHA-256, in hex); None for what is no token."""
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
        return None
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
