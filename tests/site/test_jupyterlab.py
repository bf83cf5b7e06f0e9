"""The lessons in real JupyterLab, as a teacher opens them (issue 29): "All lessons" opens the
list of the lessons (it used to ask for a folder "tree" and get a 404), and the links to a page
of the tutorial site (lesson 7's steps, the stepper's "link to this step") are not drawn as
links, which in JupyterLab loaded the whole application again and wiped every output: they say
in place that they open in the tutorial site.

JupyterLab serves a copy of the lessons' folder (it may write checkpoints next to a notebook).
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil  # type: ignore[import-untyped]
import pytest
from playwright.sync_api import Browser

from penang_lib.site.serve import LESSONS
from penang_lib.widgets.links import OFF_SITE, OFF_SITE_NOTE
from tools.site_runner import free_port

LESSON_7 = "07_whole_deal.ipynb"
WAIT_MS = 120_000


@dataclass
class Lab:
    url: str
    token: str
    process: subprocess.Popen[bytes]
    log: Path


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    folder = tmp_path_factory.mktemp("lab")
    shutil.copytree(LESSONS, folder / "root" / "lessons")
    port, token = free_port(), secrets.token_hex(16)
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(folder / "config"),  # no settings of this machine's user
        "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
        "JUPYTER_DATA_DIR": str(folder / "data"),
    }
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.token={token}",
        f"--ServerApp.root_dir={folder / 'root'}",
        f"--LabApp.workspaces_dir={folder / 'workspaces'}",
    ]
    if os.geteuid() == 0:
        command.append("--allow-root")
    log = folder / "lab.log"
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    lab = Lab(f"http://127.0.0.1:{port}/", token, process, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{lab.url}api/status?token={token}", timeout=5):
                    break
            except (OSError, urllib.error.URLError):
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab does not answer:\n{log.read_text()}", pytrace=False)
                time.sleep(0.3)
        yield lab
    finally:
        children = psutil.Process(process.pid).children(recursive=True)
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        for child in psutil.wait_procs(children, timeout=20)[1]:
            child.kill()


def test_in_jupyterlab_all_lessons_opens_their_list_and_site_links_say_where_they_open(
    lab: Lab, browser: Browser
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{lab.url}lab/tree/lessons/{LESSON_7}?token={lab.token}")
        page.locator(".jp-Notebook").first.wait_for(timeout=WAIT_MS)
        # Once its kernel is up (the status bar says so), Run, then Run All Cells, as a teacher
        # does.
        page.locator(".jp-StatusBar-Widget", has_text="| Idle").first.wait_for(timeout=WAIT_MS)
        page.locator(".lm-TabBar-tabLabel", has_text=LESSON_7).first.click()  # the active tab
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        # (JupyterLab may leave cells out of view unpainted: the page's text is read, not its
        # painted lines.)
        page.wait_for_function(
            """() => [...document.querySelectorAll('.penang-stepper [role=status]')]
                     .some(s => s.textContent.includes('link to this step'))""",
            timeout=WAIT_MS,
        )
        status = page.locator(".penang-stepper [role=status]").first
        said = " ".join((status.text_content() or "").split())
        assert OFF_SITE in said and f"{LESSON_7}?seed=" in said, said
        assert status.locator("a").count() == 0
        moments = page.locator("ul.penang-moments").first
        moments.wait_for(state="attached", timeout=WAIT_MS)
        assert moments.locator("a").count() == 0 and "Step 7" in (moments.text_content() or "")
        note = page.locator(".penang-site-only", has_text=OFF_SITE_NOTE)
        assert note.count() >= 1

        # "All lessons" opens the list of the lessons in JupyterLab, without loading it again.
        page.evaluate("() => { window.penangNotReloaded = true; }")
        page.locator(".jp-RenderedMarkdown a", has_text="All lessons").first.click()
        page.locator(".lm-TabBar-tabLabel", has_text="README.md").first.wait_for(timeout=WAIT_MS)
        listed = page.locator(".jp-RenderedMarkdown", has_text="All lessons").last
        listed.get_by_role("link", name="A whole deal, step by step").wait_for()
        assert page.evaluate("() => window.penangNotReloaded === true")
        assert page.locator(".jp-Dialog").count() == 0, page.locator(".jp-Dialog").inner_text()
        assert "link to this step" in (status.text_content() or "")  # the outputs are there
    finally:
        context.close()
