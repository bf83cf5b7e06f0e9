"""Every lesson notebook runs top to bottom without an error.

Each notebook is executed with nbclient in a fresh ``python3`` kernel, with the notebook's own
folder as the working directory, exactly as a learner would run it. Outputs are not written back.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from tests.checkout import REPO

ROOT = REPO
NOTEBOOKS = ROOT / "notebooks"
KERNEL = "python3"
TIMEOUT = 120  # seconds per cell


def lesson_notebooks() -> list[Path]:
    return sorted(
        path
        for path in NOTEBOOKS.glob("**/*.ipynb")
        if ".ipynb_checkpoints" not in path.relative_to(NOTEBOOKS).parts
    )


def execute(notebook: nbformat.NotebookNode, cwd: Path) -> nbformat.NotebookNode:
    client = NotebookClient(
        notebook,
        timeout=TIMEOUT,
        kernel_name=KERNEL,
        resources={"metadata": {"path": str(cwd)}},
    )
    result: nbformat.NotebookNode = client.execute()
    return result


def test_there_are_notebooks() -> None:
    assert lesson_notebooks(), f"no notebook found under {NOTEBOOKS}"


def test_kernel_is_this_environment(tmp_path: Path) -> None:
    """The kernel must run in the environment under test (the venv), not some other Python."""
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("import os, sys\nprint(sys.prefix)\nprint(os.getcwd())")]
    )
    executed = execute(notebook, tmp_path)
    prefix, cwd = executed.cells[0].outputs[0]["text"].splitlines()
    assert Path(prefix).resolve() == Path(sys.prefix).resolve()
    assert Path(cwd).resolve() == tmp_path.resolve()


@pytest.mark.slow
@pytest.mark.parametrize(
    "path",
    lesson_notebooks(),
    ids=lambda path: str(path.relative_to(NOTEBOOKS)),
)
def test_notebook_runs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    try:
        execute(notebook, path.parent)
    except CellExecutionError as error:
        pytest.fail(f"{path.relative_to(ROOT)} failed:\n{error}", pytrace=False)
