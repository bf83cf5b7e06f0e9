"""What the wheel holds, read from pyproject.toml: every package of the kit, and every file of
its data folders (the lessons, their data, the site's template and config file).

setuptools is told the packages explicitly, so a new sub-package or a new kind of data file
would be left out of the wheel without a word; these checks say which. The wheel itself is
built, installed and served in tests/site/test_wheel.py.
"""

from __future__ import annotations

import fnmatch
import importlib.metadata
import zipfile
from pathlib import Path

import penang_lib
from tests.checkout import REPO
from tests.helpers.project import pyproject
from tests.helpers.wheel import the_wheel

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
        if path.parent.resolve() != folder(package).resolve():
            continue
        if path.suffix == ".py":
            return True
        patterns = [*PACKAGE_DATA.get(package, []), *PACKAGE_DATA.get("*", [])]
        return any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns)
    return False


def test_every_package_folder_is_listed() -> None:
    found = {
        ".".join(init.parent.relative_to(REPO).parts)
        for init in (REPO / "penang_lib").rglob("__init__.py")
    }
    # The top folder widgets/ is the package penang_lib.widgets (penang_lib/widgets links to it).
    found |= {
        ".".join(("penang_lib", *init.parent.relative_to(REPO).parts))
        for init in (REPO / "widgets").rglob("__init__.py")
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


def test_the_wheel_holds_one_top_level_package() -> None:
    """Issue 30: a learner's own `widgets.py`, or another distribution's `widgets` package,
    shadowed ours when the wheel put `widgets` beside `penang_lib` in site-packages. The wheel
    holds `penang_lib` (the widgets as `penang_lib.widgets`) and its metadata, nothing else."""
    with zipfile.ZipFile(the_wheel()) as wheel:
        names = wheel.namelist()
    tops = {name.split("/")[0] for name in names}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"penang_lib"}
    widgets = {name for name in names if name.startswith("penang_lib/widgets/")}
    assert {
        f"penang_lib/widgets/{path.name}" for path in (REPO / "widgets").glob("*.py")
    } <= widgets
    assert "penang_lib/widgets/py.typed" in widgets
    # the words' markers, the controls' one table of words, a lesson page's chrome words
    assert {
        "penang_lib/i18n.py",
        "penang_lib/widgets/controls.py",
        "penang_lib/site/words.py",
    } <= set(names)


def test_the_version_has_one_source() -> None:
    """`penang_lib.__version__` is the one literal; setuptools reads it for the metadata."""
    assert "version" in pyproject()["project"]["dynamic"]
    assert "version" not in pyproject()["project"]
    assert SETUPTOOLS["dynamic"]["version"] == {"attr": "penang_lib.__version__"}
    assert penang_lib.__version__ == importlib.metadata.version("penang-rummy")
    with zipfile.ZipFile(the_wheel()) as wheel:
        meta = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        assert f"Version: {penang_lib.__version__}" in wheel.read(meta).decode().splitlines()
