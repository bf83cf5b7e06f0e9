"""What the wheel holds, read from pyproject.toml: every package of the kit, and every file of
its data folders (the lessons, their data, the site's template and config file).

setuptools is told the packages explicitly, so a new sub-package or a new kind of data file
would be left out of the wheel without a word; these checks say which. The wheel itself is
built, installed and served in tests/site/test_wheel.py.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

from tests.checkout import REPO
from tests.test_environment import pyproject

SETUPTOOLS = pyproject()["tool"]["setuptools"]
PACKAGES: list[str] = SETUPTOOLS["packages"]
PACKAGE_DIR: dict[str, str] = SETUPTOOLS.get("package-dir", {})
PACKAGE_DATA: dict[str, list[str]] = SETUPTOOLS.get("package-data", {})


def folder(package: str) -> Path:
    """The checkout folder of `package`, through package-dir where it maps a parent."""
    parts = package.split(".")
    for cut in range(len(parts), 0, -1):
        mapped = PACKAGE_DIR.get(".".join(parts[:cut]))
        if mapped is not None:
            return REPO / mapped / Path(*parts[cut:])
    return REPO / Path(*parts)


def shipped(path: Path) -> bool:
    """Whether the wheel gets the file `path`: a module of a listed package, or a data file
    that one of its package's patterns names."""
    for package in PACKAGES:
        if path.parent != folder(package):
            continue
        if path.suffix == ".py":
            return True
        patterns = [*PACKAGE_DATA.get(package, []), *PACKAGE_DATA.get("*", [])]
        return any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns)
    return False


def test_every_package_folder_is_listed() -> None:
    found = {
        ".".join(init.parent.relative_to(REPO).parts)
        for top in ("penang_lib", "widgets")
        for init in (REPO / top).rglob("__init__.py")
    }
    missing = sorted(found - set(PACKAGES))
    assert missing == [], f"add {missing} to [tool.setuptools] packages in pyproject.toml"
    assert all(folder(package).is_dir() for package in PACKAGES)


def test_every_lesson_and_site_file_is_shipped() -> None:
    wanted = [
        *(REPO / "notebooks" / "lessons").glob("*.ipynb"),
        *(REPO / "notebooks" / "lessons" / "data").glob("*.json"),
        *(REPO / "penang_lib" / "site" / "jupyter").rglob("*.*"),
        *(REPO / "penang_lib").rglob("*.py"),
        *(REPO / "widgets").rglob("*.py"),
    ]
    wanted = [path for path in wanted if "__pycache__" not in path.parts]
    assert len(wanted) > 40
    left_out = sorted(str(path.relative_to(REPO)) for path in wanted if not shipped(path))
    assert left_out == [], f"the wheel would leave out {left_out}"


def test_a_notebook_that_is_not_a_lesson_is_not_shipped() -> None:
    # The widget tour in notebooks/ is for developers: only published lessons are package data.
    assert not shipped(REPO / "notebooks" / "widget_tour.ipynb")
    assert shipped(REPO / "notebooks" / "lessons" / "01_deck_and_deal.ipynb")
