"""Table codes and seat tokens (`penang_lib.tables.codes`)."""

from __future__ import annotations

import random

import pytest

from penang_lib.tables.codes import (
    CODE_ALPHABET,
    CODE_LENGTH,
    new_code,
    new_token,
    read_code,
    token_digest,
)

LOOK_ALIKES = ("0O", "1IL", "2Z", "5S", "8B", "UV")


def test_no_two_characters_of_a_code_look_alike() -> None:
    for group in LOOK_ALIKES:
        assert sum(c in CODE_ALPHABET for c in group) <= 1, group
    assert len(set(CODE_ALPHABET)) == len(CODE_ALPHABET)


def test_a_new_code_is_free_and_of_the_alphabet() -> None:
    rng = random.Random(1)
    taken: set[str] = set()
    for _ in range(300):
        code = new_code(taken, rng)
        assert code not in taken and len(code) == CODE_LENGTH
        assert set(code) <= set(CODE_ALPHABET)
        taken.add(code)
    assert len(new_code(taken)) == CODE_LENGTH  # from secrets, without an rng


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("acdef", "ACDEF"),
        ("  XY34 ", "XY34"),
        ("ACDEFG", "ACDEFG"),
        ("ACD", None),
        ("ACDEFGH", None),
        ("AC0EF", None),
        ("ACD EF", None),
        (12345, None),
        ("", None),
        ("<script>", None),
        ("A" * 10_000, None),
    ],
)
def test_a_code_is_read_case_insensitively_and_checked(text: object, code: str | None) -> None:
    assert read_code(text) == code


def test_tokens_are_secret_and_kept_only_as_digests() -> None:
    tokens = {new_token() for _ in range(100)}
    assert len(tokens) == 100 and all(len(t) >= 24 for t in tokens)
    token = next(iter(tokens))
    digest = token_digest(token)
    assert digest is not None and token not in digest and len(digest) == 64
    assert token_digest(token) == digest and token_digest(token + "x") != digest
    assert token_digest(None) is None and token_digest("") is None
    assert token_digest("x" * 65) is None
