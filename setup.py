"""The build's one job beyond pyproject.toml: compile the engine's hottest modules with mypyc.

Where mypyc and a C compiler are found, the modules in `penang_lib.compiled.COMPILED_MODULES`
are compiled (as black does) and a stamp with a digest of the sources is written beside them;
`import penang_lib` uses them only while that digest still holds. Where either is missing, or
mypyc refuses the code, the kit installs as pure Python: the same modules, slower, and every test
passes the same. `PENANG_PURE=1` at install time skips the compiling on purpose.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "penang_lib"


def _load_compiled_rules() -> ModuleType:
    """penang_lib/compiled.py alone (importing the package would import the whole engine)."""
    spec = importlib.util.spec_from_file_location("_penang_compiled", PACKAGE / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


COMPILED = _load_compiled_rules()


def _say(text: str) -> None:
    print(f"penang-rummy build: {text}", file=sys.stderr)


def _extensions() -> list[Any]:
    why = COMPILED.why_not_compilable(os.environ)
    if why is None:
        from mypyc.build import mypycify

        paths = [
            str(Path("penang_lib", name.rpartition(".")[2] + ".py"))
            for name in COMPILED.COMPILED_MODULES
        ]
        try:
            extensions: list[Any] = mypycify(
                [
                    # The project's own strict settings apply; these three only keep mypyc's type
                    # check to the compiled modules (pandas and its stubs are not needed to build).
                    "--no-warn-unused-configs",
                    "--follow-imports=silent",
                    "--ignore-missing-imports",
                    *paths,
                ],
                opt_level="3",
            )
        except (Exception, SystemExit) as error:
            why = f"mypyc could not compile the modules ({error})"
        else:
            for extension in extensions:
                extension.optional = True  # a failed C build leaves the pure modules in use
            return extensions
    _say(f"installing the engine as pure Python: {why}")
    return []


class BuildWithStamp(build_ext):  # type: ignore[misc]  # setuptools is untyped
    """build_ext, then the stamp, once every compiled module was built."""

    def run(self) -> None:
        super().run()
        target = PACKAGE if self.inplace else Path(self.build_lib, "penang_lib")
        built = [Path(self.get_ext_fullpath(e.name)) for e in self.extensions]
        stamp = target / COMPILED.STAMP_NAME
        if self.extensions and all(path.is_file() for path in built):
            COMPILED.write_stamp(target, PACKAGE)
            _say(f"compiled {', '.join(COMPILED.COMPILED_MODULES)}")
        else:
            stamp.unlink(missing_ok=True)
            if self.extensions:
                _say("a compiled module failed to build: the engine runs as pure Python")


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildWithStamp})
