"""Which engine modules run compiled, and the rule that keeps a stale build out.

Installing the kit (`pip install -e .`, which `make` runs) compiles the engine's hottest modules,
`COMPILED_MODULES`, with mypyc where a C compiler is found (`setup.py`), and leaves a stamp
beside them (`_compiled.json`) with a digest of every source file of `penang_lib`. Nothing else
changes: the same `.py` files are the engine, and where no compiler is found they are all there is.

`import penang_lib` decides once which way the modules load:
- compiled, when the stamp is there, every compiled module has its extension file for this
  Python, and the stamp's digest is the digest of the sources as they are now;
- otherwise from their `.py` files, all of them together. A compiled module calls the other
  modules of its build directly, so a build is used whole or not at all. An edited source file
  therefore turns the whole build off until it is built again (`make` rebuilds it), and
  `PENANG_PURE=1` in the environment turns it off on purpose (the tests run both ways).

`STATE` says which way it went, in a sentence; `penang-rummy version` prints it.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

COMPILED_MODULES = ("penang_lib.meld_count", "penang_lib.melds", "penang_lib.table_index")
"""The modules that `setup.py` compiles: the meld count, the melds and the table index."""

STAMP_NAME = "_compiled.json"
"""The build's stamp, written beside the compiled modules by `setup.py`."""

PURE_VARIABLE = "PENANG_PURE"
"""Set to anything but "" or "0", every module loads from its `.py` file."""

PACKAGE_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class BuildState:
    """Whether the compiled modules are used, and why, in one sentence."""

    compiled: bool
    reason: str


def sources_digest(package_dir: Path) -> str:
    """A digest of every `.py` file directly in `package_dir`: their names and contents."""
    digest = hashlib.sha256()
    for path in sorted(package_dir.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def write_stamp(package_dir: Path, source_dir: Path) -> Path:
    """Write the stamp of a build compiled from `source_dir` into `package_dir` (setup.py)."""
    stamp = package_dir / STAMP_NAME
    record = {"digest": sources_digest(source_dir), "modules": list(COMPILED_MODULES)}
    stamp.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return stamp


def pure_asked(environ: Mapping[str, str]) -> bool:
    """Whether `environ` asks for pure Python (`PURE_VARIABLE` set, and not to "" or "0")."""
    return environ.get(PURE_VARIABLE, "") not in ("", "0")


def why_not_compilable(environ: Mapping[str, str]) -> str | None:
    """Why `setup.py` would install pure Python here, or None when it compiles."""
    import shutil  # only the build and its test ask: not on `import penang_lib`'s path
    import sysconfig

    if pure_asked(environ):
        return f"{PURE_VARIABLE} is set"
    if sys.implementation.name != "cpython":
        return "mypyc compiles for CPython only"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc (part of mypy) is not installed"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) was found"
    if not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        return "the Python headers (Python.h) are not installed"
    return None


def _extension_file(package_dir: Path, module: str) -> Path | None:
    short = module.rpartition(".")[2]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = package_dir / f"{short}{suffix}"
        if path.is_file():
            return path
    return None


def build_state(package_dir: Path, environ: Mapping[str, str]) -> BuildState:
    """Whether the compiled build in `package_dir` may be used (see the module's text)."""
    if pure_asked(environ):
        return BuildState(False, f"pure Python ({PURE_VARIABLE} is set)")
    stamp = package_dir / STAMP_NAME
    if not stamp.is_file():
        return BuildState(False, "pure Python (no compiled build here)")
    try:
        record = json.loads(stamp.read_text(encoding="utf-8"))
        digest, modules = record["digest"], record["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return BuildState(False, f"pure Python (the build's stamp {stamp} cannot be read)")
    if modules != list(COMPILED_MODULES):
        return BuildState(False, "pure Python (the build compiled other modules than these)")
    missing = [m for m in COMPILED_MODULES if _extension_file(package_dir, m) is None]
    if missing:
        return BuildState(False, f"pure Python (no compiled {', '.join(missing)} for this Python)")
    if digest != sources_digest(package_dir):
        return BuildState(
            False,
            "pure Python (the sources changed after the compiled build: `make` or "
            "`pip install -e .` builds it again)",
        )
    return BuildState(True, "compiled with mypyc")


class _SourceFirst:
    """A meta path finder that loads the compiled modules from their `.py` files."""

    def __init__(self, package_dir: Path, modules: Sequence[str]) -> None:
        self.package_dir = package_dir
        self.modules = frozenset(modules)

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name not in self.modules:
            return None
        source = self.package_dir / f"{name.rpartition('.')[2]}.py"
        return importlib.util.spec_from_file_location(name, source)


def is_compiled(module: ModuleType) -> bool:
    """Whether `module` was loaded from a compiled extension file."""
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)


def _decide() -> BuildState:
    state = build_state(PACKAGE_DIR, os.environ)
    if not state.compiled and not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst(PACKAGE_DIR, COMPILED_MODULES))
    return state


STATE = _decide()
"""How this process loads the engine: `STATE.compiled`, and `STATE.reason` in a sentence."""
