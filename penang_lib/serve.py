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
import re
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
CLASS_ENV = "PENANG_CLASS"
"""`serve --class N`: site/voila.py reads N and the class's lessons from these variables."""
CLASS_LESSONS_ENV = "PENANG_CLASS_LESSONS"
_SEGMENT = re.compile(r"(?:[A-Za-z0-9\-_.~@]|%[0-9A-Fa-f]{2})+")
"""One part of a URL prefix: what JupyterHub makes of a user name (quoted, keeping @ and ~)."""
KERNEL_MB = 110
"""About how much memory one learner's kernel takes, in MB (measured by benchmarks.load)."""


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
    base_url: str = "/",
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
        f"--Voila.base_url={normal_base_url(base_url)}",
    ]
    if pool is not None:
        command.append(f"--VoilaConfiguration.default_pool_size={pool}")
    return [*command, *extra]


def normal_base_url(prefix: str) -> str:
    """A URL prefix as Voila wants it: starting and ending with one slash (`penang` -> `/penang/`).

    Raises `ValueError` for a prefix that is not a plain path."""
    parts = [part for part in prefix.strip().split("/") if part]
    for part in parts:
        if part in (".", "..") or not _SEGMENT.fullmatch(part):
            raise ValueError(
                f"the base URL {prefix!r} should be a plain path such as /penang/ "
                "(letters, digits, - _ . ~ @ or %XX between slashes)"
            )
    return "/" + "".join(f"{part}/" for part in parts)


def class_lessons(lessons: Sequence[str] | None) -> list[str]:
    """The lessons a class opens (`serve --class N --lesson FILE`): the given files, checked
    against the catalogue, or the first lesson. Raises `ValueError` naming an unknown one."""
    files = [lesson["file"] for lesson in catalogue()]
    if not lessons:
        return files[:1]
    chosen = []
    for lesson in lessons:
        name = lesson if lesson.endswith(".ipynb") else f"{lesson}.ipynb"
        matches = [f for f in files if f == name or f.startswith(f"{lesson}_")]
        if len(matches) != 1:
            raise ValueError(
                f"there is no lesson {lesson!r}: choose one of {', '.join(files)} "
                "(or its number, e.g. 07)"
            )
        chosen.append(matches[0])
    return chosen


def total_memory_mb() -> int | None:
    """This machine's memory in MB, or None where it cannot be read."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20
    except (AttributeError, ValueError, OSError):
        return None


def class_plan(class_size: int, lessons: Sequence[str], pool: int = 1) -> str:
    """What `serve --class` keeps ready, and about what it costs in memory."""
    kernels = class_size * len(lessons) + pool * (len(catalogue()) - len(lessons))
    need = kernels * KERNEL_MB
    text = (
        f"Preparing for a class of {class_size}: {class_size} kernel(s) ready for "
        f"{', '.join(lessons)}, {kernels} kernels in all, about {need / 1024:.1f} GB of memory"
    )
    total = total_memory_mb()
    if total is not None:
        text += f" (this machine has {total / 1024:.1f} GB)"
        if need > 0.8 * total:
            text += "; that is more than this machine can spare: choose a smaller --class"
    return text + ". Starting them takes a few minutes; the landing page works meanwhile."


def voila_env(
    base: dict[str, str] | None = None,
    class_size: int | None = None,
    lessons: Sequence[str] = (),
) -> dict[str, str]:
    """The environment for Voila: our template found first on the Jupyter data path, and the
    class to prepare for (`serve --class`), read by site/voila.py."""
    env = dict(os.environ if base is None else base)
    env.pop(CLASS_ENV, None)
    env.pop(CLASS_LESSONS_ENV, None)
    if class_size:
        env[CLASS_ENV] = str(class_size)
        env[CLASS_LESSONS_ENV] = ",".join(lessons)
    paths = [str(SITE), *(p for p in env.get("JUPYTER_PATH", "").split(os.pathsep) if p)]
    env["JUPYTER_PATH"] = os.pathsep.join(paths)
    return env


def serve(
    port: int = DEFAULT_PORT,
    ip: str = DEFAULT_IP,
    open_browser: bool = False,
    pool: int | None = None,
    base_url: str = "/",
    class_size: int | None = None,
    lessons: Sequence[str] | None = None,
) -> None:
    """Replace this process by Voila serving the site (Ctrl-C stops it). `class_size` keeps
    that many kernels ready for the class's `lessons` (default the first lesson)."""
    if not LESSONS.is_dir():
        raise FileNotFoundError(f"no lessons to serve: {LESSONS} is missing")
    catalogue()  # a lesson without metadata is an error now, not a broken landing page
    prefix = normal_base_url(base_url)
    chosen = class_lessons(lessons) if class_size else []
    command = voila_command(port, ip, open_browser, pool, base_url=prefix)
    if class_size:
        print(class_plan(class_size, chosen, 1 if pool is None else pool), flush=True)
    print(
        f"Serving the Penang Rummy lessons on http://{ip}:{port}{prefix} (Ctrl-C stops)",
        flush=True,
    )
    # `python -m voila` looks in the working directory first: run from the repository's top,
    # where no file can be taken for Voila (site/voila.py would be, from inside site/).
    os.chdir(REPO)
    os.execve(command[0], command, voila_env(class_size=class_size, lessons=chosen))
