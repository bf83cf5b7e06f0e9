"""The compiled engine and its rule: a build is used whole, only while it matches the sources.

`make test` runs the whole suite on the compiled engine, then again on pure Python
(`PENANG_PURE=1`), so each test here holds both ways; the ones that start a fresh interpreter
compare the two directly.
"""

from __future__ import annotations

import copy
import importlib
import importlib.machinery
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from penang_lib import Deal, play_deal
from penang_lib.compiled import (
    COMPILED_MODULES,
    PURE_VARIABLE,
    STAMP_NAME,
    STATE,
    build_state,
    is_compiled,
    sources_digest,
    why_not_compilable,
    write_stamp,
)

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def a_package(tmp_path: Path, *, built: bool = True, stamped: bool = True) -> Path:
    """A package folder with the compiled modules' sources, their extension files and the
    stamp of a build from those sources (the extension files are empty: only names count)."""
    package = tmp_path / "penang_lib"
    package.mkdir()
    (package / "cards.py").write_text("CARDS = 1\n")
    for name in COMPILED_MODULES:
        short = name.rpartition(".")[2]
        (package / f"{short}.py").write_text(f"NAME = {short!r}\n")
        if built:
            (package / f"{short}{SUFFIX}").write_bytes(b"")
    if stamped:
        write_stamp(package, package)
    return package


def test_a_fresh_build_of_the_sources_is_used(tmp_path: Path) -> None:
    state = build_state(a_package(tmp_path), {})
    assert state.compiled
    assert state.reason == "compiled with mypyc"


@pytest.mark.parametrize("value", ["1", "yes"])
def test_penang_pure_turns_a_good_build_off(tmp_path: Path, value: str) -> None:
    state = build_state(a_package(tmp_path), {PURE_VARIABLE: value})
    assert not state.compiled
    assert PURE_VARIABLE in state.reason


@pytest.mark.parametrize("value", ["", "0"])
def test_penang_pure_empty_or_zero_changes_nothing(tmp_path: Path, value: str) -> None:
    assert build_state(a_package(tmp_path), {PURE_VARIABLE: value}).compiled


def test_an_edited_source_turns_the_whole_build_off(tmp_path: Path) -> None:
    package = a_package(tmp_path)
    (package / "cards.py").write_text("CARDS = 2\n")  # not even a compiled module
    state = build_state(package, {})
    assert not state.compiled
    assert "sources changed" in state.reason


def test_a_new_source_file_turns_the_build_off(tmp_path: Path) -> None:
    package = a_package(tmp_path)
    (package / "extra.py").write_text("")
    assert not build_state(package, {}).compiled


def test_no_stamp_is_no_build(tmp_path: Path) -> None:
    state = build_state(a_package(tmp_path, stamped=False), {})
    assert not state.compiled
    assert "no compiled build" in state.reason


def test_a_missing_extension_file_turns_the_build_off(tmp_path: Path) -> None:
    package = a_package(tmp_path)
    missing = COMPILED_MODULES[1]
    (package / f"{missing.rpartition('.')[2]}{SUFFIX}").unlink()
    state = build_state(package, {})
    assert not state.compiled
    assert missing in state.reason


@pytest.mark.parametrize("text", ["", "not json", "[]", '{"digest": 1}'])
def test_an_unreadable_stamp_turns_the_build_off(tmp_path: Path, text: str) -> None:
    package = a_package(tmp_path)
    (package / STAMP_NAME).write_text(text)
    state = build_state(package, {})
    assert not state.compiled
    assert "cannot be read" in state.reason


def test_a_stamp_of_other_modules_turns_the_build_off(tmp_path: Path) -> None:
    package = a_package(tmp_path)
    stamp = package / STAMP_NAME
    record = json.loads(stamp.read_text())
    record["modules"] = record["modules"][:1]
    stamp.write_text(json.dumps(record))
    assert not build_state(package, {}).compiled


def test_the_digest_reads_names_and_contents(tmp_path: Path) -> None:
    package = a_package(tmp_path, stamped=False)
    before = sources_digest(package)
    (package / "cards.py").rename(package / "cards2.py")
    renamed = sources_digest(package)
    (package / "cards2.py").write_text("CARDS = 3\n")
    assert len({before, renamed, sources_digest(package)}) == 3


def test_the_compiled_modules_load_all_one_way() -> None:
    """This process: every compiled module compiled, or none (a build is used whole)."""
    modules = [importlib.import_module(name) for name in COMPILED_MODULES]
    assert [is_compiled(m) for m in modules] == [STATE.compiled] * len(modules)


def test_the_engine_is_compiled_wherever_it_can_be() -> None:
    """Where mypyc and a C compiler are at hand, the install compiled the engine (a build that
    mypyc refused would otherwise go unnoticed: the pure modules pass every test too). After
    an edit, `make` builds it again before the tests."""
    why = why_not_compilable(os.environ)
    if why is None:
        assert STATE.compiled, STATE.reason
    else:
        assert not STATE.compiled
        assert PURE_VARIABLE in STATE.reason or "no compiled build" in STATE.reason


def fresh(code: str, *, pure: bool) -> str:
    """What a fresh interpreter prints after `code`, with or without PENANG_PURE."""
    env = {k: v for k, v in os.environ.items() if k != PURE_VARIABLE}
    if pure:
        env[PURE_VARIABLE] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


LOADERS = """
import importlib, json
from penang_lib.compiled import COMPILED_MODULES, STATE, is_compiled
loaded = [is_compiled(importlib.import_module(m)) for m in COMPILED_MODULES]
print(json.dumps([STATE.compiled, loaded]))
"""


def test_penang_pure_loads_every_module_from_its_source() -> None:
    compiled, modules = json.loads(fresh(LOADERS, pure=True))
    assert compiled is False
    assert modules == [False] * len(COMPILED_MODULES)


# Deals played by every bot at every table size, under the rule book and two house rules:
# each move's label, the scores and the winners, as the public API shows them.
FINGERPRINT = """
import json
from penang_lib import Rules, play_deal
rows = []
for seed in range(36):
    rules = [Rules(), Rules(jokers=4, all_joker_melds=True), Rules(packs=3)][seed % 3]
    bots = ["random", "greedy", "careful", "careful,random,greedy"][seed % 4]
    deal = play_deal(seed, 2 + seed % 4, bots, rules=rules)
    rows.append([[m.label() for m in deal.move_stack], list(deal.scores), list(deal.winners)])
print(json.dumps(rows))
"""


def test_compiled_and_pure_play_the_same_deals() -> None:
    compiled = fresh(FINGERPRINT, pure=False)
    pure = fresh(FINGERPRINT, pure=True)
    assert json.loads(compiled) == json.loads(pure)
    assert len(json.loads(pure)) == 36


def test_a_deal_in_play_pickles_and_copies() -> None:
    """A deal holds the compiled modules' values (hand facts, table index, melds); it pickles
    and copies to an equal deal that plays on the same."""
    played = play_deal(5, 4, ["greedy"])
    deal = played.root()
    for move in played.move_stack[: len(played.move_stack) // 2]:
        deal.push(move)
    assert deal.table  # melds are on the table
    for twin in (pickle.loads(pickle.dumps(deal)), copy.deepcopy(deal), deal.copy()):
        assert isinstance(twin, Deal)
        assert twin == deal
        assert list(twin.legal_moves) == list(deal.legal_moves)
        for move in played.move_stack[len(played.move_stack) // 2 :]:
            twin.push(move)
        assert twin.outcome() == played.outcome()
