"""The tests' own layout: what several test modules share lives in `tests/helpers/`, so no test
module imports another (a test module imported by another runs its module-level code twice and
ties two files together), and the widget tests follow one naming pattern.

The imports are read from the source (lazy ones inside functions too), as tests/test_layers.py
reads the package's.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.checkout import REPO

TESTS = REPO / "tests"
WIDGETS = REPO / "widgets"
"""The widgets' folder (installed as penang_lib.widgets)."""
SEVERAL = "several widgets modules"
"""What the docstring of a widget test not named after one module says."""


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, module: str | None = None) -> set[str]:
    """The modules `path` imports, as absolute dotted names (a name imported from a package may be
    a module, so `from a import b` gives both `a` and `a.b`)."""
    module = module or module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)] if node.level else []
            start = ".".join([*base, *([node.module] if node.module else [])])
            if start:
                names.add(start)
            names.update(f"{start}.{alias.name}".lstrip(".") for alias in node.names)
    return names


def is_test_module(name: str) -> bool:
    """A module pytest collects: tests/test_*.py or tests/<folder>/test_*.py."""
    return name.split(".")[0] == "tests" and name.rpartition(".")[2].startswith("test_")


def imported_test_modules(path: Path, module: str | None = None) -> list[str]:
    return sorted(name for name in imports_of(path, module) if is_test_module(name))


def test_no_test_module_imports_another_test_module() -> None:
    found = {
        str(path.relative_to(REPO)): imported_test_modules(path)
        for path in sorted(TESTS.rglob("*.py"))
        if imported_test_modules(path)
    }
    assert found == {}, "move what they share into tests/helpers/"


def test_the_helpers_import_no_test_module() -> None:
    helpers = sorted((TESTS / "helpers").glob("*.py"))
    assert len(helpers) > 1
    assert {str(p.relative_to(REPO)): imported_test_modules(p) for p in helpers} == {
        str(p.relative_to(REPO)): [] for p in helpers
    }


@pytest.mark.parametrize(
    "line",
    [
        "from tests.widgets.test_play import shown",
        "from tests.test_environment import pyproject",
        "import tests.site.test_pages",
        "from tests.site import test_pages",
        "from .test_review import lesson_table",
        "def later():\n    from tests.site.test_serve import site_config",
    ],
)
def test_an_import_of_a_test_module_is_seen(tmp_path: Path, line: str) -> None:
    path = tmp_path / "test_x.py"
    path.write_text(line + "\n", encoding="utf-8")
    assert len(imported_test_modules(path, "tests.widgets.test_x")) == 1


def test_an_import_of_a_helper_is_not_a_test_module(tmp_path: Path) -> None:
    path = tmp_path / "test_x.py"
    path.write_text(
        "from tests.helpers.widgets import shown\nfrom tests.site.conftest import AXE\n"
        "from tests.checkout import REPO\nfrom . import conftest\n",
        encoding="utf-8",
    )
    assert imported_test_modules(path, "tests.site.test_x") == []


def test_widget_tests_are_named_after_the_widgets_module_they_test() -> None:
    """tests/widgets/test_<module>.py, or test_<module>_<aspect>.py for a second file on one
    module; a file that checks several modules says so in its docstring."""
    modules = {p.stem for p in WIDGETS.glob("*.py") if p.stem != "__init__"}
    odd = []
    for path in sorted((TESTS / "widgets").glob("test_*.py")):
        stem = path.stem.removeprefix("test_")
        if stem in modules or any(stem.startswith(f"{m}_") for m in modules):
            continue
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if SEVERAL not in " ".join(doc.split()):
            odd.append(path.name)
    assert odd == []
