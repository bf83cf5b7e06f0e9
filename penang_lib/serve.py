"""The tutorial site: which lessons are published, and the Voila command that serves them.

`penang-rummy serve` (and `make serve`) run Voila on `notebooks/lessons/` with the settings of
`site/voila.py` and the template in `site/voila/templates/penang`, both passed explicitly, so no
Voila flag has to be known. Only the notebooks in `notebooks/lessons/` are published; the
landing page lists them from their own metadata (`catalogue`).

Voila is started as a separate program: nothing here imports Jupyter.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
LESSONS = REPO / "notebooks" / "lessons"
"""The published lessons: every notebook in this folder is on the site."""
SITE = REPO / "site"
"""The site's Voila settings (`voila.py`) and template (`voila/templates/penang`)."""
TEMPLATE = "penang"
DEFAULT_PORT = 8866
DEFAULT_IP = "127.0.0.1"


def _summary(notebook: dict[str, Any]) -> str:
    """The lesson's goal: the text after "In this lesson" in its first markdown cell."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else str(source)
        for line in text.splitlines():
            stripped = line.strip().lstrip("*_ ")
            if stripped.lower().startswith("in this lesson"):
                rest = stripped.split(":", 1)[1] if ":" in stripped else stripped
                return rest.strip(" *_")
        break
    return ""


def catalogue(folder: Path = LESSONS) -> list[dict[str, Any]]:
    """The published lessons in order: `file`, `order`, `title`, `minutes`, `rules` (the rule
    ids they teach) and `summary`, read from each notebook's `penang` metadata.

    Raises `ValueError` naming a notebook without that metadata (it would be on the site with
    no place in the course)."""
    lessons = []
    for path in sorted(folder.glob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        meta = notebook.get("metadata", {}).get("penang")
        if not isinstance(meta, dict) or not {"order", "title", "minutes"} <= set(meta):
            raise ValueError(
                f"{path.name} has no 'penang' metadata with order, title and minutes: every "
                "published lesson needs them for the landing page"
            )
        lessons.append(
            {
                "file": path.name,
                "order": int(meta["order"]),
                "title": str(meta["title"]),
                "minutes": int(meta["minutes"]),
                "rules": [str(r) for r in meta.get("rules", [])],
                "summary": _summary(notebook),
            }
        )
    return sorted(lessons, key=lambda lesson: (lesson["order"], lesson["file"]))


def voila_command(
    port: int = DEFAULT_PORT,
    ip: str = DEFAULT_IP,
    open_browser: bool = False,
    pool: int | None = None,
    extra: Sequence[str] = (),
) -> list[str]:
    """The command that serves the site (run with the environment of `voila_env`)."""
    command = [
        sys.executable,
        "-m",
        "voila",
        str(LESSONS),
        f"--Voila.config_file_paths={SITE}",
        f"--VoilaConfiguration.template={TEMPLATE}",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",
        f"--Voila.ip={ip}",
        f"--Voila.open_browser={open_browser}",
    ]
    if pool is not None:
        command.append(f"--VoilaConfiguration.default_pool_size={pool}")
    return [*command, *extra]


def voila_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for Voila: our template found first on the Jupyter data path."""
    env = dict(os.environ if base is None else base)
    paths = [str(SITE), *(p for p in env.get("JUPYTER_PATH", "").split(os.pathsep) if p)]
    env["JUPYTER_PATH"] = os.pathsep.join(paths)
    return env


def serve(
    port: int = DEFAULT_PORT,
    ip: str = DEFAULT_IP,
    open_browser: bool = False,
    pool: int | None = None,
) -> None:
    """Replace this process by Voila serving the site (Ctrl-C stops it)."""
    if not LESSONS.is_dir():
        raise FileNotFoundError(f"no lessons to serve: {LESSONS} is missing")
    catalogue()  # a lesson without metadata is an error now, not a broken landing page
    command = voila_command(port, ip, open_browser, pool)
    print(f"Serving the Penang Rummy lessons on http://{ip}:{port}/ (Ctrl-C stops)", flush=True)
    # `python -m voila` looks in the working directory first: run from the repository's top,
    # where no file can be taken for Voila (site/voila.py would be, from inside site/).
    os.chdir(REPO)
    os.execve(command[0], command, voila_env())
