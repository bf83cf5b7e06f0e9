"""The tutorial site: which lessons are published, and the Voila command that serves them.

`penang-rummy serve` (and `make serve`) run Voila on the published lessons (`LESSONS`) with the
site's Jupyter data folder (`SITE`: Voila's config file and our template) passed explicitly, so
no Voila flag has to be known. Only the notebooks in `LESSONS` are published; the landing page
lists them from their own metadata (`catalogue`).

Both folders are package data, found with `importlib.resources`: the lessons are
`penang_lib.notebooks` (the repository's `notebooks/` folder, see pyproject.toml) and the site's
folder is `penang_lib/site/jupyter/`. A wheel, a plain install and an editable install from a
checkout find them the same way.

Voila is started as a separate program: nothing here imports Jupyter.
"""

from __future__ import annotations

import errno
import json
import os
import re
import socket
import sys
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from penang_lib.engine.cards import rank_text
from penang_lib.tables.address import TABLES_PATH, TABLES_URL_ENV


def package_folder(package: str, *parts: str) -> Path:
    """A folder shipped as data of an installed `package`, as a path on disk (Voila serves
    and reads real folders, so the kit is not run from a zip file)."""
    folder = files(package)
    for part in parts:
        folder = folder / part
    return Path(str(folder))


LESSONS = package_folder("penang_lib.notebooks", "lessons")
"""The published lessons: every notebook in this folder is on the site."""
SITE = package_folder("penang_lib.site", "jupyter")
"""The site's Jupyter data folder: Voila's config file (`voila.py`) and our template
(`voila/templates/penang`)."""
TEMPLATE = "penang"
APP = "penang_lib.site.app"
"""The module that runs Voila for the site: Voila's application with compressed, cached static
files (`penang_lib.site.app.SiteVoila`)."""
DEFAULT_PORT = 8866
DEFAULT_IP = "127.0.0.1"
BOT_PAUSE_ENV = "PENANG_BOT_PAUSE"
"""The table service's pause before a bot's move, in seconds (`serve --bot-pause`)."""
JOURNAL_ENV = "PENANG_TABLES_JOURNAL"
"""The table service's SQLite file (`serve --tables-journal`)."""
CLASS_ENV = "PENANG_CLASS"
"""`serve --class N`: the kernel pools (`penang_lib.site.patches`) read N and the class's lessons
from these variables."""
CLASS_LESSONS_ENV = "PENANG_CLASS_LESSONS"
CLASS_SPARE = 2
"""Kernels a class's lesson keeps beyond one per learner: the teacher's own tab, checking the
page before the class, and a learner's reload then never leave a learner waiting for a kernel
to start (issue 22)."""
_SEGMENT = re.compile(r"(?:[A-Za-z0-9\-_.~@]|%[0-9A-Fa-f]{2})+")
"""One part of a URL prefix: what JupyterHub makes of a user name (quoted, keeping @ and ~)."""
KERNEL_MB = 80
"""About how much memory one learner's kernel takes, in MB: its own memory measured 74-79 MB
for every lesson (`python -m benchmarks.load`; the README's class section gives the figures)."""


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


RULES_PAGE = "voila/rules"
"""Where the site serves the rule sheet and glossary (under its base URL): a page of the
template's own (`rules.html`), with no kernel, linked from every lesson and the landing page."""
TABLES_PAGE = "voila/tables"
"""The teacher's page of the open tables (template `tables.html`), under the base URL."""
TOGETHER_PAGE = "12_play_together.ipynb"
"""The lesson page where learners play together, which the teacher's page links to."""

HOUSE_RULES: tuple[dict[str, Any], ...] = (
    {
        "rule": "deck",
        "setting": "packs_five_players",
        "value": 3,
        "text": "With five players the deck gets a third pack (3 packs and 6 jokers).",
    },
    {
        "rule": "deck",
        "setting": "jokers",
        "value": 8,
        "text": "The deck holds 8 jokers instead of 6, as some tables play.",
    },
    {
        "rule": "deal",
        "setting": "hand_size_two_players",
        "value": 25,
        "text": "With two players each hand gets 25 cards, as with three: no source says.",
    },
    {
        "rule": "joker",
        "setting": "all_joker_melds",
        "value": True,
        "text": "A meld may be made of jokers only, each joker declared as a given card.",
    },
    {
        "rule": "end",
        "setting": "end_condition",
        "value": "one_alive",
        "text": "The deal ends as soon as only one player is alive (grokipedia), instead of "
        "letting that player play on.",
    },
    {
        "rule": "meld",
        "setting": None,
        "value": None,
        "text": "Melds on the table are never rearranged, split or taken back: a card reaches "
        "the table only in a meld from the hand, a lay-off, or a swap for a joker. No source "
        "mentions such a move, so the kit has none.",
    },
)
"""The house rules (RULES.md: where the sources differ or say nothing, the kit's choice), each
with the rule id it belongs to, the `Rules` setting that switches it and the setting's value
under the house rule (None: the kit has no such move at all, docs/CHOICES.md). Shown on the rule
sheet under their rules, each marked as used by the kit or off unless switched on."""

GLOSSARY: tuple[tuple[str, str | None, str], ...] = (
    ("deal", "deal", "One round, from shuffling to the final count (a match is several deals)."),
    ("meld", "meld", "Three or more cards laid on the table from the hand: a run or a set."),
    (
        "run",
        "run",
        "Three or more cards of one suit in a row, such as 5♥ 6♥ 7♥. The ace is low (A-2-3) "
        "or high (Q-K-A).",
    ),
    (
        "turning the corner",
        "run",
        "Going from K through A on to 2 in one run. It is not allowed: an ace ends a run, so "
        "K-A-2 is not a run.",
    ),
    ("set", "set", "Three or more cards of one rank, such as 8♥ 8♥ 8♣: suits may repeat."),
    (
        "joker",
        "joker",
        "A wild card: in a meld it stands for any card you choose, and keeps standing for it "
        "until someone swaps it out.",
    ),
    ("natural", "joker", "Any card that is not a joker."),
    (
        "action",
        "turn",
        "A meld or a lay-off. Every turn needs at least one action; a swap is not an action.",
    ),
    (
        "passport",
        "passport",
        "Your first action in a deal: a meld from your own hand. Until you have made it you "
        "may not lay off or swap.",
    ),
    ("lay-off", "lay-off", "Adding a card from your hand to a meld on the table, anyone's."),
    (
        "swap",
        "swap",
        "Taking a joker from a meld on the table by putting in the card it stands for. It is "
        "not an action: the turn still needs a meld or a lay-off.",
    ),
    (
        "Dead",
        "dead",
        "What a player declares when they can neither meld nor lay off on their turn: they sit "
        "out the rest of the deal with their whole hand counting against them.",
    ),
    (
        "Game",
        "game",
        "What a player declares when their hand is empty: they win the deal at once.",
    ),
    (
        "death is near",
        "dead",
        "What the careful bot says when it holds 4 cards or fewer, with no meld and no joker "
        "among them, and at most two fit on the table: unless the others make new melds it "
        "will be Dead within two turns, so it lays off its highest cards first.",
    ),
    ("deadwood", "scoring", "The cards left in a hand when the deal ends."),
    (
        "count",
        "scoring",
        "The points of the deadwood, the cards left in a hand. The lowest count wins the deal.",
    ),
    (
        "house rule",
        None,
        "A choice of the kit's own, where the sources differ or say nothing. Each is marked on "
        "this sheet under its rule; some are used by the kit, the others are off until "
        "switched on.",
    ),
)
"""The glossary of the rule sheet: (term, the rule id it belongs to or None, what it means).
It holds every word the lessons and the bots' reasons lean on."""


def taught_in(lessons: Sequence[dict[str, Any]], rule: str) -> dict[str, Any] | None:
    """The lesson that teaches `rule` (`file`, `order`, `title`): the first, in course order, to
    list it in its metadata, leaving out a lesson that lists every rule of the rule book (a
    whole deal or a game against the bots puts every rule to work, and teaches none first).
    None when no lesson lists it."""
    from penang_lib.engine.rules import RULE_BOOK

    listing = [lesson for lesson in lessons if rule in lesson["rules"]]
    teaching = [lesson for lesson in listing if not set(RULE_BOOK) <= set(lesson["rules"])]
    chosen = min(teaching or listing, key=lambda lesson: lesson["order"], default=None)
    if chosen is None:
        return None
    return {key: chosen[key] for key in ("file", "order", "title")}


def _slug(term: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")


def rule_sheet(lessons: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The rule sheet and glossary as data for the site's `rules.html`: `rules` (every rule id
    of `RULE_BOOK` in its order, with its sentence, the lesson that teaches it (`taught_in`),
    and its house rules, each with `on`: whether the default `Rules` use it), `house_rules`,
    `glossary` (term, slug, rule, text) and `numbers` (hand sizes and card values, read from
    the default `Rules`)."""
    from penang_lib.engine.rules import RULE_BOOK, Rules

    lessons = catalogue() if lessons is None else lessons
    rules = Rules()

    def house(h: dict[str, Any]) -> dict[str, Any]:
        setting = h["setting"]
        on = setting is None or getattr(rules, setting) == h["value"]
        return {"text": h["text"], "setting": setting, "on": on}

    return {
        "rules": [
            {
                "id": rule,
                "text": text,
                "lesson": taught_in(lessons, rule),
                "house": [house(h) for h in HOUSE_RULES if h["rule"] == rule],
            }
            for rule, text in RULE_BOOK.items()
        ],
        "house_rules": list(HOUSE_RULES),
        "glossary": [{"term": t, "slug": _slug(t), "rule": r, "text": x} for t, r, x in GLOSSARY],
        "numbers": {
            "hands": {
                n: rules.hand_size(n) for n in range(rules.min_players, rules.max_players + 1)
            },
            "values": _value_rows(rules),
            "joker": rules.values["JK"],
        },
    }


def _value_rows(rules: Any) -> list[tuple[str, str]]:
    """What each card left in hand counts (rule `scoring`), as (cards, points) rows: the ranks
    that count their own number in one row, then the others grouped by value."""
    face = [rank for rank in range(2, 14) if rules.card_value(rank) == rank]
    rows = []
    if face:
        rows.append((f"{rank_text(face[0])} to {rank_text(face[-1])}", "the number on the card"))
    groups: dict[int, list[int]] = {}
    for rank in (*range(2, 14), 1):
        if rank not in face:
            groups.setdefault(rules.card_value(rank), []).append(rank)
    for value, ranks in groups.items():
        each = " each" if len(ranks) > 1 else ""
        rows.append((" ".join(rank_text(r) for r in ranks), f"{value}{each}"))
    return rows


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
        APP,
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
    kernels = (class_size + CLASS_SPARE) * len(lessons) + pool * (len(catalogue()) - len(lessons))
    need = kernels * KERNEL_MB
    text = (
        f"Preparing for a class of {class_size}: {class_size} kernel(s) and {CLASS_SPARE} "
        f"spare ready for "
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
    class to prepare for (`serve --class`), read by `penang_lib.site.patches`."""
    env = dict(os.environ if base is None else base)
    env.pop(CLASS_ENV, None)
    env.pop(CLASS_LESSONS_ENV, None)
    if class_size:
        env[CLASS_ENV] = str(class_size)
        env[CLASS_LESSONS_ENV] = ",".join(lessons)
    paths = [str(SITE), *(p for p in env.get("JUPYTER_PATH", "").split(os.pathsep) if p)]
    env["JUPYTER_PATH"] = os.pathsep.join(paths)
    return env


class ServeError(ValueError):
    """`serve` cannot start: bad input or a busy machine, said in one sentence (the command
    line prints it without a traceback)."""


def require_lessons(folder: Path | None = None) -> None:
    """Raise `ServeError` unless `folder` (default `LESSONS`) holds a lesson notebook."""
    folder = LESSONS if folder is None else folder
    if not folder.is_dir() or not any(folder.glob("*.ipynb")):
        raise ServeError(
            f"no lessons found to serve: {folder} holds no notebooks "
            "(reinstall penang-rummy, or run it from a checkout of the repository)"
        )


def require_free_address(ip: str, port: int) -> None:
    """Raise `ServeError` unless Voila could listen on `ip` and `port`: an address this machine
    does not have, a port already in use or one that needs administrator rights, each said
    with what to pass instead. Tried by binding a socket the way tornado will, then closing it."""
    try:
        found = socket.getaddrinfo(
            ip or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE
        )
    except socket.gaierror:
        raise ServeError(_no_such_address(ip)) from None
    family, kind, proto, _, address = found[0]
    with socket.socket(family, kind, proto) as probe:
        if os.name != "nt":  # as tornado does: a port left in TIME_WAIT is free
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise ServeError(
                    f"port {port} on {ip} is already in use (another serve, or another "
                    f"program): choose a free one with --port, e.g. --port {_other(port)}"
                ) from None
            if error.errno == errno.EACCES:
                raise ServeError(
                    f"port {port} needs administrator rights: choose one from 1024 up with "
                    f"--port, e.g. --port {DEFAULT_PORT}"
                ) from None
            if error.errno == errno.EADDRNOTAVAIL:
                raise ServeError(_no_such_address(ip)) from None
            raise ServeError(f"cannot listen on {ip} port {port}: {error.strerror}") from None


def _no_such_address(ip: str) -> str:
    return (
        f"this machine has no network address {ip}: use --ip {DEFAULT_IP} (this machine "
        "only), --ip 0.0.0.0 (every network it is on) or one of its own addresses"
    )


def _other(port: int) -> int:
    return port + 1 if port < 65535 else DEFAULT_PORT


def serve(
    port: int = DEFAULT_PORT,
    ip: str = DEFAULT_IP,
    open_browser: bool = False,
    pool: int | None = None,
    base_url: str = "/",
    class_size: int | None = None,
    lessons: Sequence[str] | None = None,
    bot_pause: float | None = None,
    tables_journal: str | None = None,
) -> None:
    """Replace this process by Voila serving the site (Ctrl-C stops it). `class_size` keeps
    that many kernels ready for the class's `lessons` (default the first lesson); `bot_pause`
    and `tables_journal` set the table service's pause before a bot's move and its SQLite file
    (`penang_lib.site.tables`). Raises `ServeError` (a `ValueError`) when there are no lessons
    or Voila could not listen."""
    require_lessons()
    catalogue()  # a lesson without metadata is an error now, not a broken landing page
    prefix = normal_base_url(base_url)
    chosen = class_lessons(lessons) if class_size else []
    command = voila_command(port, ip, open_browser, pool, base_url=prefix)
    require_free_address(ip, port)
    if class_size:
        print(class_plan(class_size, chosen, 1 if pool is None else pool), flush=True)
    print(
        f"Serving the Penang Rummy lessons on http://{ip}:{port}{prefix} (Ctrl-C stops)",
        flush=True,
    )
    # `python -m` looks in the working directory first: run from the lessons' folder,
    # where no file can be taken for a module (SITE's voila.py would be, from inside SITE).
    os.chdir(LESSONS)
    env = voila_env(class_size=class_size, lessons=chosen)
    # The lessons' kernels find the table service here, the preheated ones too (they start
    # before the server's handlers are made); unless a JupyterHub runs the service for the
    # whole hub and said where (its `Spawner.environment`): then the site runs none.
    if not os.environ.get(TABLES_URL_ENV, "").strip():
        env[TABLES_URL_ENV] = f"ws://127.0.0.1:{port}{prefix}{TABLES_PATH}"
    if bot_pause is not None:
        env[BOT_PAUSE_ENV] = repr(float(bot_pause))
    if tables_journal is not None:
        env[JOURNAL_ENV] = str(Path(tables_journal).resolve())
    os.execve(command[0], command, env)
