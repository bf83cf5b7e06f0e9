"""Reading a lesson notebook as the tests do: its cells by id, a cell's text, its code cells run
as the page runs them, and an HTML region's plain text."""

from __future__ import annotations

import ast
import html
import json
import re
from typing import Any

from penang_lib.site.serve import LESSONS

TAG = re.compile(r"<[^>]+>")


def cells(file: str) -> dict[str, dict[str, Any]]:
    notebook = json.loads((LESSONS / file).read_text(encoding="utf-8"))
    return {c["id"]: c for c in notebook["cells"]}


def text(file: str, cell_id: str) -> str:
    """The source of one cell (a markdown cell: what the learner reads)."""
    return "".join(cells(file)[cell_id]["source"])


def run_cells(file: str, *cell_ids: str) -> Any:
    """Run these code cells of the lesson in one namespace, in order, and return the value of the
    last cell's last expression: the widget the page shows."""
    namespace: dict[str, Any] = {"display": lambda *_: None}
    result: Any = None
    for cell_id in cell_ids:
        cell = cells(file)[cell_id]
        assert cell["cell_type"] == "code", cell_id
        tree = ast.parse(text(file, cell_id))
        last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        body = tree.body[:-1] if last is not None else tree.body
        exec(compile(ast.Module(body=body, type_ignores=[]), cell_id, "exec"), namespace)
        result = None
        if last is not None:
            result = eval(compile(ast.Expression(last.value), cell_id, "eval"), namespace)
    return result


def plain(value: str) -> str:
    """An HTML region's text, as a screen shows it (tags dropped, entities read)."""
    return html.unescape(TAG.sub("", value))


def one(pattern: str, source: str) -> re.Match[str]:
    found = re.search(pattern, source)
    assert found is not None, f"the lesson no longer says {pattern!r}"
    return found
