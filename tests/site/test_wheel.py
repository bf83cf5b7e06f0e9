"""The kit installed from its wheel, as a school's IT person installs it: `pip wheel .`, then
`pip install` of that wheel into a fresh virtual environment, then `penang-rummy serve` started
in a folder that has nothing of the repository. Every lesson must load in Chromium with its
widgets, the landing page and the rule sheet included.

The wheel is built from a copy of the checkout's packaged files (so the checkout gets no
`build/` folder) and cached with its virtual environment under `.cache/wheel/`, keyed by a
digest of those files: an unchanged kit is not built or installed again. The first run
installs the kit's dependencies into that environment from the package index (pip's own cache
makes it quick after `make .venv`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.checkout import REPO
from tests.helpers.wheel import STAMP, VENV, build_wheel, digest, packaged_files, run
from tests.site.conftest import open_page
from tools.site_runner import Server, free_port, start, wait_ready


@pytest.fixture(scope="module")
def installed() -> Path:
    """The `bin` folder of a virtual environment that has the kit from its wheel, and nothing of
    the checkout."""
    files = packaged_files()
    key = digest(files)
    wheel = build_wheel(files, key)
    python = VENV / "bin" / "python"
    if not python.exists():
        run(sys.executable, "-m", "venv", VENV)
        run(python, "-m", "pip", "install", "-q", "-U", "pip")
    if STAMP.exists() and STAMP.read_text() == key:
        return python.parent
    STAMP.unlink(missing_ok=True)
    # The dependencies as pip resolves them for a user; the kit itself replaced on each new key.
    run(python, "-m", "pip", "install", "-q", wheel)
    run(python, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", wheel)
    STAMP.write_text(key)
    return python.parent


def test_the_installed_kit_has_nothing_of_the_checkout(installed: Path, tmp_path: Path) -> None:
    script = (
        "import json, penang_lib, penang_lib.widgets as widgets\n"
        "from penang_lib.site import serve\n"
        "print(json.dumps([penang_lib.__file__, widgets.__file__, str(serve.LESSONS),"
        " str(serve.SITE), len(serve.catalogue())]))\n"
    )
    found = json.loads(run(installed / "python", "-c", script, cwd=tmp_path))
    *paths, lessons = found
    for path in paths:
        assert Path(path).is_relative_to(VENV), f"{path} is not the installed kit's"
    assert lessons == len(list((REPO / "notebooks" / "lessons").glob("*.ipynb")))
    version = run(installed / "penang-rummy", "--version", cwd=tmp_path)
    assert "pure Python" in version
    # One version: the package's own, which the installed metadata repeats.
    script = (
        "import importlib.metadata as m, penang_lib; "
        "print(penang_lib.__version__, m.version('penang-rummy'))"
    )
    ours, metadata = run(installed / "python", "-c", script, cwd=tmp_path).split()
    assert ours == metadata and f"penang-rummy {ours}," in version


@pytest.fixture(scope="module")
def site_from_wheel(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`penang-rummy serve` of the installed kit, started in an empty folder."""
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    port = free_port()
    command = [installed / "penang-rummy", "serve", "--port", port, "--no-browser", "--pool", 1]
    server = start([str(part) for part in command], port, cwd=elsewhere)
    try:
        lessons = json.loads(
            run(
                installed / "python",
                "-c",
                "import json; from penang_lib.site.serve import catalogue; "
                "print(json.dumps([lesson['file'] for lesson in catalogue()]))",
                cwd=elsewhere,
            )
        )
        wait_ready(server, set(lessons))
    except RuntimeError as error:
        server.stop()
        pytest.fail(str(error), pytrace=False)
    yield server
    server.stop()


def test_serve_from_the_wheel_shows_every_lesson_with_its_widgets(
    site_from_wheel: Server, browser: Browser
) -> None:
    status, landing = site_from_wheel.get("")
    assert status == 200
    lessons = sorted(path.name for path in (REPO / "notebooks" / "lessons").glob("*.ipynb"))
    for file in lessons:
        assert file in landing, f"the landing page does not link {file}"
    assert site_from_wheel.get("voila/rules")[0] == 200
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        for file in lessons:
            visit = open_page(context, f"{site_from_wheel.url}voila/render/{file}")
            kits = visit.page.locator(".penang-kit").count()
            assert kits > 0, f"{file} shows no widget"
            assert visit.errors == [], f"{file}: {visit.errors}"
            assert visit.outside == [], f"{file} asked outside: {visit.outside}"
            # The kit's template, with its link to the rule sheet, not Voila's stock one.
            assert visit.page.locator("a.penang-rules-link").count() == 1, file
            visit.page.close()
    finally:
        context.close()
    # Every change of the site to Voila applied: none skipped, no traceback.
    problems = [
        line
        for line in site_from_wheel.log
        if "Traceback" in line or "Penang site: patch" in line or "has no setting" in line
    ]
    assert problems == [], "\n".join(problems)
