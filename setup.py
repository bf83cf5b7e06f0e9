"""The build's one job beyond pyproject.toml: compile the engine's hottest modules, when asked.

`PENANG_COMPILE=1 pip wheel .` builds a wheel whose `COMPILED_MODULES` (named in
`penang_lib/engine/compiled.py`) are compiled with mypyc (as black builds its compiled wheels):
extension modules beside their `.py` files, which Python imports first. Mypy (which brings mypyc) is
then added to the build's requirements through `setup_requires`, which setuptools' PEP 517 backend
hands to pip as an extra build requirement; the compiling needs a C compiler and the Python headers,
and a build that cannot compile fails. Every other build (`pip install -e .`, `pip install .`, a
plain `pip wheel .`) is pure Python: no mypy, no C compiler, no extension module.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from setuptools import setup

ROOT = Path(__file__).resolve().parent
COMPILE_VARIABLE = "PENANG_COMPILE"
"""Set to "1" at build time, the wheel holds the compiled modules."""

MYPY = "mypy>=2.4,<3"
"""The mypy (and so mypyc) that compiles them: a build requirement of compiled builds only."""


def compile_asked(environ: Mapping[str, str]) -> bool:
    """Whether `environ` asks for a compiled build (`PENANG_COMPILE=1`)."""
    return environ.get(COMPILE_VARIABLE, "") == "1"


def compiled_modules() -> tuple[str, ...]:
    """`penang_lib.engine.compiled.COMPILED_MODULES`, read from its file alone (importing the
    package would import the whole engine)."""
    spec = importlib.util.spec_from_file_location(
        "_penang_compiled", ROOT / "penang_lib" / "engine" / "compiled.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(module.COMPILED_MODULES)


def extensions() -> list[Any]:
    """The compiled modules as extensions, built by mypyc with the project's mypy settings."""
    from mypyc.build import mypycify

    paths = [str(Path(*name.split("."))) + ".py" for name in compiled_modules()]
    print(f"penang-rummy build: compiling {', '.join(paths)} with mypyc", file=sys.stderr)
    built: list[Any] = mypycify(
        [
            # The project's own strict settings apply; these three only keep mypyc's type check
            # to the compiled modules (pandas and its stubs are not needed to build).
            "--no-warn-unused-configs",
            "--follow-imports=silent",
            "--ignore-missing-imports",
            *paths,
        ],
        opt_level="3",
    )
    return built


def setup_arguments(environ: Mapping[str, str]) -> dict[str, Any]:
    """What `setup()` is given: nothing for a pure build; for a compiled one, mypy as a build
    requirement until it is there, then the extensions."""
    if not compile_asked(environ):
        return {}
    if importlib.util.find_spec("mypyc") is None:
        return {"setup_requires": [MYPY]}
    return {"ext_modules": extensions()}


# setuptools runs this file as __main__ (`pip` through its PEP 517 backend, or `python setup.py`);
# the tests import it to read the decision above.
if __name__ == "__main__":
    setup(**setup_arguments(os.environ))
