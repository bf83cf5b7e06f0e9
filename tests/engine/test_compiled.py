"""The compiled engine: opt-in at build time, and the same deals as pure Python.

`make test` runs the whole suite on the editable install, which is pure Python; then
`make test-compiled` installs a wheel built with `PENANG_COMPILE=1` into its own venv and runs
the engine's tests on it (this file among them) with `PENANG_TEST_COMPILED=1`, from a copy of
`tests/` with no checkout on `sys.path`.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import importlib.machinery
import importlib.util
import io
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import penang_lib
from penang_lib import Deal, play_deal
from penang_lib.cli import main
from penang_lib.engine.compiled import COMPILED_MODULES, engine_runs, is_compiled
from tests.checkout import REPO

EXPECT_COMPILED = os.environ.get("PENANG_TEST_COMPILED", "") == "1"
"""Set by `make test-compiled`: this run is on the installed compiled wheel."""

SETUP = REPO / "setup.py"


def load_setup() -> ModuleType:
    """setup.py as a module (it calls `setup()` only when run as __main__, as setuptools runs
    it)."""
    spec = importlib.util.spec_from_file_location("_penang_setup", SETUP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_this_run_has_the_engine_it_expects() -> None:
    """Compiled in `make test-compiled`, from the installed wheel; pure Python in the editable
    install (an extension module left in penang_lib/ by an old in-place build would be imported
    before its .py file: `make clean` removes it)."""
    modules = [importlib.import_module(name) for name in COMPILED_MODULES]
    assert [is_compiled(m) for m in modules] == [EXPECT_COMPILED] * len(modules)
    package = Path(penang_lib.__file__).resolve().parent
    if EXPECT_COMPILED:
        assert "site-packages" in package.parts, package
        assert engine_runs() == "compiled with mypyc"
    else:
        assert not [p.name for p in package.iterdir() if p.suffix in (".so", ".pyd")]
        assert engine_runs() == "pure Python"


def test_the_version_says_how_the_engine_runs() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert (
        out.getvalue().strip() == f"penang-rummy {penang_lib.__version__}, engine {engine_runs()}"
    )


def test_a_build_compiles_only_when_asked() -> None:
    """A plain build (editable, `pip install .`, `pip wheel .`) gives setuptools nothing more: no
    mypy to install, no extension. `PENANG_COMPILE=1` asks for mypy first, then compiles."""
    setup = load_setup()
    assert setup.setup_arguments({}) == {}
    assert setup.setup_arguments({"PENANG_COMPILE": "0"}) == {}
    assert setup.compile_asked({"PENANG_COMPILE": "1"})
    assert setup.compiled_modules() == COMPILED_MODULES


# Deals played by every bot at every table size, under the rule book and two house rules:
# each move's label, the scores and the winners, as the public API shows them.
FINGERPRINT = """
import importlib, json
import penang_lib
from penang_lib import Rules, play_deal
from penang_lib.engine.compiled import COMPILED_MODULES, is_compiled
rows = []
for seed in range(36):
    rules = [Rules(), Rules(jokers=4, all_joker_melds=True), Rules(packs=3)][seed % 3]
    bots = ["random", "greedy", "careful", "careful,random,greedy"][seed % 4]
    deal = play_deal(seed, 2 + seed % 4, bots, rules=rules)
    rows.append([[m.label() for m in deal.move_stack], list(deal.scores), list(deal.winners)])
compiled = [is_compiled(importlib.import_module(m)) for m in COMPILED_MODULES]
print(json.dumps({"compiled": compiled, "file": penang_lib.__file__, "rows": rows}))
"""


def fingerprint(where: Path, path: Path | None, hash_seed: str) -> dict[str, object]:
    """What a fresh interpreter started in the folder `where` prints after `FINGERPRINT`, with
    `path` (if given) on its `sys.path` before site-packages, under the given hash seed."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(path), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", FINGERPRINT],
        capture_output=True,
        text=True,
        env=env,
        cwd=where,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_compiled_and_pure_play_the_same_deals(tmp_path: Path) -> None:
    """The installed engine against a copy of its own package with no extension module in it,
    under other hash seeds: compiled against pure in `make test-compiled`, and in the pure run
    the same deals whatever the order of a set of strings."""
    package = Path(penang_lib.__file__).resolve().parent
    shutil.copytree(
        package,
        tmp_path / "pure" / "penang_lib",
        ignore=lambda _, names: [
            n for n in names if n.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
        ],
    )
    installed = fingerprint(tmp_path, None, "1")
    pure = fingerprint(tmp_path, tmp_path / "pure", "2")
    assert installed["compiled"] == [EXPECT_COMPILED] * len(COMPILED_MODULES)
    assert pure["compiled"] == [False] * len(COMPILED_MODULES)
    assert Path(str(installed["file"])).resolve().parent == package
    assert Path(str(pure["file"])).resolve().parent == (tmp_path / "pure" / "penang_lib").resolve()
    assert installed["rows"] == pure["rows"]
    assert isinstance(pure["rows"], list)
    assert len(pure["rows"]) == 36


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
