"""The kit's pure Python wheel, built as a user builds it (`pip wheel .`) from a copy of the
checkout's packaged files (so the checkout gets no `build/` folder), cached under `.cache/wheel/`
by a digest of those files: tests/site/test_wheel.py installs and serves it, and
tests/test_packaging.py reads what it holds."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.checkout import REPO
from tests.helpers.project import pyproject

CACHE = REPO / ".cache" / "wheel"
VENV = CACHE / "venv"
STAMP = VENV / ".wheel"
"""The digest of the wheel installed in VENV."""
TOP_FILES = ("pyproject.toml", "setup.py", "README.md")


def packaged_files() -> list[Path]:
    """What the wheel is built from: the top files and every file under the folders that
    pyproject.toml packages (caches and compiled files left out)."""
    setuptools = pyproject()["tool"]["setuptools"]
    folders = {
        setuptools.get("package-dir", {}).get(package, package.split(".")[0])
        for package in setuptools["packages"]
    }
    files = [REPO / name for name in TOP_FILES]
    for folder in sorted(folders):
        # Links followed: penang_lib/widgets is a link to the top folder widgets/.
        for top, _dirs, names in sorted(os.walk(REPO / folder, followlinks=True)):
            for name in sorted(names):
                path = Path(top) / name
                if "__pycache__" not in path.parts and path.suffix != ".so":
                    files.append(path)
    return files


def digest(files: list[Path]) -> str:
    h = hashlib.sha256()
    for path in files:
        h.update(path.relative_to(REPO).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def run(*command: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, f"{' '.join(map(str, command))} failed:\n{done.stderr[-3000:]}"
    return done.stdout


def build_wheel(files: list[Path], key: str) -> Path:
    """The pure Python wheel of these files (`pip wheel .`), cached by `key`."""
    wheels = CACHE / "wheels" / key
    found = sorted(wheels.glob("*.whl"))
    if found:
        return found[0]
    shutil.rmtree(CACHE / "wheels", ignore_errors=True)
    source = CACHE / "source"
    shutil.rmtree(source, ignore_errors=True)
    for path in files:
        target = source / path.relative_to(REPO)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    part = wheels.with_name(key + ".part")
    shutil.rmtree(part, ignore_errors=True)
    run(sys.executable, "-m", "pip", "wheel", source, "--no-deps", "-q", "-w", part)
    part.rename(wheels)
    shutil.rmtree(source, ignore_errors=True)
    return sorted(wheels.glob("*.whl"))[0]


def the_wheel() -> Path:
    """The pure Python wheel of the checkout as it is now (built once per change)."""
    files = packaged_files()
    return build_wheel(files, digest(files))
