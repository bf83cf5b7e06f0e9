"""Which way the engine runs: its hottest modules compiled with mypyc, or all of it pure Python.

A wheel built with `PENANG_COMPILE=1` (see `setup.py`) holds `COMPILED_MODULES` as extension
modules beside their `.py` files, and Python imports an extension module before a source file of
the same name. Every other install (editable, `pip install .`, a plain `pip wheel .`) is pure
Python. Nothing here changes how a module loads: it only looks (`penang-rummy --version`).
"""

from __future__ import annotations

import importlib
import importlib.machinery
from types import ModuleType

COMPILED_MODULES = (
    "penang_lib.engine.fast.meld_count",
    "penang_lib.engine.melds",
    "penang_lib.engine.fast.table_index",
)
"""The modules that a compiled build compiles: the meld count, the melds and the table index."""


def is_compiled(module: ModuleType) -> bool:
    """Whether `module` was loaded from a compiled extension file."""
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)


def engine_runs() -> str:
    """How the engine runs, in a few words: "compiled with mypyc" or "pure Python"."""
    compiled = [n for n in COMPILED_MODULES if is_compiled(importlib.import_module(n))]
    if not compiled:
        return "pure Python"
    if len(compiled) == len(COMPILED_MODULES):
        return "compiled with mypyc"
    return f"partly compiled with mypyc ({', '.join(compiled)} only)"
