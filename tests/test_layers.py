"""The layers of penang_lib: the engine and its bots play without the data layer, and each
folder of the package imports only the layers below it.

`import penang_lib` loads no pandas, Dask, ipywidgets or matplotlib; `play_deal` lives next to the
bots, and neither the bots nor the showcase reach `penang_lib.data.simulate` (the pandas layer).
Those checks run in a fresh interpreter, so that what this test session has loaded does not
count. The folders' imports are read from their source (`LAYERS` says what each may import).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import penang_lib
import penang_lib.engine.bots
from tests.checkout import REPO

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


# -- the folders of penang_lib are its layers ------------------------------------------------------
# Every import written in a module (at its top or inside a function: a lazy import is still a
# dependency), read from the source. A layer may import the layers below it and the outside
# packages named here; the standard library is always allowed.
LAYERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # layer: (penang_lib packages it may import, outside packages it may import)
    # The words' markers (gettext) are the bottom layer: every layer may import them (BOTTOM).
    "penang_lib.i18n": ((), ()),
    "penang_lib.engine.fast": (
        (
            "penang_lib.engine.fast",
            "penang_lib.engine.cards",
            "penang_lib.engine.melds",
            "penang_lib.engine.rules",
            "penang_lib.engine.validate",
        ),
        ("mypy_extensions",),
    ),
    "penang_lib.engine": (("penang_lib.engine",), ("mypy_extensions",)),
    # The course: puzzles (mined with a tqdm bar), reviews and progress, on the engine alone.
    "penang_lib.course": (("penang_lib.engine", "penang_lib.course"), ("tqdm",)),
    "penang_lib.data": (
        ("penang_lib.engine", "penang_lib.data"),
        ("pandas", "numpy", "tqdm", "dask", "distributed"),
    ),
    # Play together (issue 32): the tables, their protocol and journal, on the engine alone.
    "penang_lib.tables": (("penang_lib.engine", "penang_lib.tables"), ()),
    "penang_lib.cli": (("penang_lib",), ("tqdm",)),
    # The site's own command (`serve`) and the proxy spec import no Jupyter; the settings and
    # patches are read by Voila and are the only place that imports it.
    "penang_lib.site.serve": (
        ("penang_lib.engine", "penang_lib.tables.address", "penang_lib.site.serve"),
        (),
    ),
    "penang_lib.site.proxy": (("penang_lib.site.proxy",), ()),
    # The landing page reads the course (the progress settings, the number of puzzles).
    "penang_lib.site": (
        ("penang_lib.engine", "penang_lib.course", "penang_lib.tables", "penang_lib.site"),
        (
            "voila",
            "jupyter_server",
            "jupyterlab_server",
            "jupyter_core",
            "jupyter_client",
            "tornado",
            "traitlets",
        ),
    ),
    "penang_lib.widgets": (
        ("penang_lib",),
        (
            "ipywidgets",
            "anywidget",
            "traitlets",
            "IPython",
            "pandas",
            "voila",
            "websockets",
        ),
    ),
}
BOTTOM = ("penang_lib.i18n",)
"""What every layer may import: the markers of learner-facing words."""
NOT_FOR_WIDGETS = ("penang_lib.site", "penang_lib.cli")
"""What no widget imports: the site and the command line sit beside the widgets, not below."""


def module_name(path: Path) -> str:
    """The dotted name `path` is imported as; the folder widgets/ installs as penang_lib.widgets
    (penang_lib/widgets is a link to it)."""
    parts = path.relative_to(REPO).with_suffix("").parts
    if parts[0] == "widgets":
        parts = ("penang_lib", *parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """The modules `path` imports, as absolute dotted names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def layer_of(module: str) -> str | None:
    """The most specific layer `module` belongs to."""
    for layer in sorted(LAYERS, key=len, reverse=True):
        if module == layer or module.startswith(layer + "."):
            return layer
    return None


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def is_ours(name: str) -> bool:
    return within(name, ("penang_lib",))


def layer_breaks(path: Path, module: str | None = None) -> list[str]:
    """Each import of `path` (the module `module`, by default the one at that path) that its
    layer does not allow, said as a sentence."""
    module = module or module_name(path)
    layer = layer_of(module)
    assert layer is not None, f"{module} is in no layer of LAYERS"
    ours, outside = LAYERS[layer]
    breaks = []
    for name in sorted(imports_of(path)):
        top = name.split(".")[0]
        if top in sys.stdlib_module_names or top == "__future__":
            continue
        if is_ours(name):
            # `from penang_lib.engine import cards` names the package and the module: the
            # package alone is allowed wherever one of its modules is.
            allowed = (
                within(name, ours)
                or within(name, BOTTOM)
                or any(p.startswith(name + ".") for p in (*ours, *BOTTOM))
            )
            if layer == "penang_lib.widgets" and within(name, NOT_FOR_WIDGETS):
                allowed = False
            if layer != "penang_lib.widgets" and within(name, ("penang_lib.widgets",)):
                allowed = False  # only the lessons (notebooks) import the widgets
        else:
            allowed = within(name, outside)
        if not allowed:
            breaks.append(f"{module} ({layer}) imports {name}")
    return breaks


LAYERED = sorted(
    path
    for top in ("penang_lib", "widgets")
    for path in (REPO / top).rglob("*.py")
    if "__pycache__" not in path.parts
    and path.parts[len(REPO.parts) : len(REPO.parts) + 2] != ("penang_lib", "widgets")
    and path != REPO / "penang_lib" / "__init__.py"
    and path.parent != REPO / "penang_lib" / "site" / "jupyter"
)
"""Every module of the kit but the package's own front (`penang_lib/__init__.py`, which
re-exports the public names of the engine and the data layer) and Voila's config file; the
widgets once each, from their folder (penang_lib/widgets links to it)."""


def test_every_module_is_in_a_layer() -> None:
    assert len(LAYERED) > 40
    assert [module_name(p) for p in LAYERED if layer_of(module_name(p)) is None] == []


@pytest.mark.parametrize("path", LAYERED, ids=lambda p: module_name(p))
def test_each_module_imports_only_the_layers_below_it(path: Path) -> None:
    assert layer_breaks(path) == []


def test_a_layer_break_is_seen(tmp_path: Path) -> None:
    # The check above can fail: an engine module that reaches the data layer, a fast internal
    # that reaches the state machine, a widget that reaches the site, each is named.
    cases = [
        ("penang_lib/engine/melds.py", "from penang_lib.data.frames import hands_frame"),
        ("penang_lib/engine/fast/meld_count.py", "from penang_lib.engine.deal import Deal"),
        ("penang_lib/engine/deal.py", "import pandas"),
        ("widgets/render.py", "from penang_lib.site.serve import LESSONS"),
        ("penang_lib/site/serve.py", "import voila"),
        ("penang_lib/i18n.py", "from penang_lib.engine.cards import Card"),
    ]
    for source, line in cases:
        module = module_name(REPO / source)
        assert layer_breaks(REPO / source) == []
        written = tmp_path / Path(source).name
        original = (REPO / source).read_text(encoding="utf-8")
        written.write_text(original + "\n\ndef later() -> None:\n    " + line + "\n")
        found = layer_breaks(written, module)
        assert len(found) >= 1 and all(module in sentence for sentence in found), (source, found)
