"""The layers of penang_lib: the engine and its bots play without the data layer.

`import penang_lib` loads no pandas, Dask, ipywidgets or matplotlib; `play_deal` lives next to the
bots, and neither the bots nor the showcase reach `penang_lib.data.simulate` (the pandas layer).
Each check runs in a fresh interpreter, so that what this test session has loaded does not count.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import penang_lib
import penang_lib.engine.bots

HEAVY = ("pandas", "dask", "distributed", "ipywidgets", "matplotlib")
"""Packages the engine must not load: the data layer, the cluster layer and the Jupyter layer."""

STUB_PACKAGE = """
import importlib.util, sys, types
# penang_lib as an empty package: its modules import, but not what __init__.py imports.
spec = importlib.util.find_spec("penang_lib")
package = types.ModuleType("penang_lib")
package.__path__ = list(spec.submodule_search_locations)
sys.modules["penang_lib"] = package
"""


def loaded_after(code: str) -> set[str]:
    """The names in `sys.modules` after a fresh interpreter runs `code`."""
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    names: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return set(names)


def heavy_in(names: set[str]) -> list[str]:
    return sorted(n for n in names if n.split(".")[0] in HEAVY)


def test_the_package_loads_no_data_or_jupyter_layer() -> None:
    names = loaded_after("import penang_lib")
    assert "penang_lib" in names and "penang_lib.engine.bots" in names
    assert heavy_in(names) == []


def test_playing_a_whole_deal_loads_no_pandas() -> None:
    names = loaded_after(
        "import penang_lib\n"
        "deal = penang_lib.play_deal(3, 4, 'careful,greedy,random')\n"
        "assert deal.is_over and deal.move_stack\n"
    )
    assert heavy_in(names) == []


def test_play_deal_lives_with_the_bots() -> None:
    assert penang_lib.play_deal is penang_lib.engine.bots.play_deal
    assert penang_lib.play_deal.__module__ == "penang_lib.engine.bots"


@pytest.mark.parametrize("module", ["penang_lib.engine.bots", "penang_lib.engine.showcase"])
def test_bots_and_showcase_do_not_reach_the_data_layer(module: str) -> None:
    names = loaded_after(STUB_PACKAGE + f"import {module}\n")
    assert module in names and "penang_lib.engine.deal" in names  # the stub let the engine load
    assert "penang_lib.data.simulate" not in names
    assert heavy_in(names) == []


def test_the_stub_package_would_see_an_import_of_simulate() -> None:
    # The check above can fail: importing the data layer through the stub shows up.
    names = loaded_after(STUB_PACKAGE + "import penang_lib.data.simulate\n")
    assert "penang_lib.data.simulate" in names
