"""penang_lib.serve and site/voila.py: what the site publishes and the settings it runs with
(the real server is exercised in tests/site/)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from traitlets.config.loader import PyFileConfigLoader

from penang_lib.cli import main
from penang_lib.serve import LESSONS, SITE, TEMPLATE, catalogue, voila_command, voila_env


def site_config() -> object:
    loader = PyFileConfigLoader("voila.py", path=str(SITE))
    return loader.load_config()


def test_the_settings_strip_sources_hide_tracebacks_and_refuse_overrides() -> None:
    config = site_config()
    voila = config.VoilaConfiguration  # type: ignore[attr-defined]
    assert voila.template == TEMPLATE
    assert voila.strip_sources is True and voila.show_tracebacks is False
    assert voila.allow_template_override == "NO" and voila.allow_theme_override == "NO"
    assert voila.preheat_kernel is True
    kernels = config.MappingKernelManager  # type: ignore[attr-defined]
    assert kernels.cull_idle_timeout > 0 and kernels.cull_connected is True
    app = config.Voila  # type: ignore[attr-defined]
    assert app.ip == "127.0.0.1" and app.port == 8866
    lessons = app.tornado_settings["jinja_template_vars"]["lessons"]
    assert lessons == catalogue()


def test_the_settings_send_kernel_messages_without_delay() -> None:
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    site_config()
    assert VoilaKernelWebsocketHandler._penang_nodelay is True


def test_the_template_is_ours_and_found_first() -> None:
    folder = SITE / "voila" / "templates" / TEMPLATE
    assert json.loads((folder / "conf.json").read_text())["base_template"] == "lab"
    for page in ("index.html.j2", "page.html", "tree-lab.html", "tree.html"):
        text = (folder / page).read_text()
        assert "cdn." not in text and "https://" not in text, page
    env = voila_env({"JUPYTER_PATH": "/elsewhere"})
    assert env["JUPYTER_PATH"].split(os.pathsep) == [str(SITE), "/elsewhere"]


def test_the_command_points_voila_at_the_lessons_and_the_settings() -> None:
    command = voila_command(port=9000, ip="0.0.0.0", open_browser=True, pool=3)
    assert command[:4] == [sys.executable, "-m", "voila", str(LESSONS)]
    for flag in (
        f"--Voila.config_file_paths={SITE}",
        "--Voila.port=9000",
        "--Voila.port_retries=0",
        "--Voila.ip=0.0.0.0",
        "--Voila.open_browser=True",
        "--VoilaConfiguration.default_pool_size=3",
    ):
        assert flag in command
    assert not any("pool_size" in part for part in voila_command())


def test_the_catalogue_reads_each_lessons_metadata(tmp_path: Path) -> None:
    notebook = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "# 1. T\n\nIn this lesson: x."}
        ],
        "metadata": {"penang": {"order": 1, "title": "T", "minutes": 3, "rules": ["deck"]}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (tmp_path / "01_t.ipynb").write_text(json.dumps(notebook))
    assert catalogue(tmp_path) == [
        {
            "file": "01_t.ipynb",
            "order": 1,
            "title": "T",
            "minutes": 3,
            "rules": ["deck"],
            "summary": "x.",
        }
    ]
    del notebook["metadata"]["penang"]  # type: ignore[attr-defined]
    (tmp_path / "02_u.ipynb").write_text(json.dumps(notebook))
    with pytest.raises(ValueError, match=r"02_u\.ipynb has no 'penang' metadata"):
        catalogue(tmp_path)


@pytest.mark.parametrize(
    "args", [["--port", "0"], ["--port", "x"], ["--pool", "-1"], ["--open", "--no-browser"]]
)
def test_bad_serve_options_get_one_line_and_exit_2(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["serve", *args])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) <= 2 and "Traceback" not in "".join(err)
