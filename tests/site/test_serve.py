"""penang_lib.site.serve and penang_lib.site.settings: what the site publishes and the settings
it runs with (the real server is exercised in tests/site/)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from pathlib import Path

import pytest

from penang_lib.cli import main
from penang_lib.site.serve import (
    CLASS_ENV,
    CLASS_LESSONS_ENV,
    CLASS_SPARE,
    LESSONS,
    SITE,
    TEMPLATE,
    catalogue,
    class_lessons,
    class_plan,
    normal_base_url,
    voila_command,
    voila_env,
)
from tests.helpers.site import site_changes, site_config
from tools.learners import run_sync


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


def test_the_settings_install_the_sites_changes_to_voila() -> None:
    import voila.app
    import voila.voila_kernel_manager
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    config = site_config()
    assert voila.app._penang_site is True
    # Through Voila's configuration point, not a patch: the handler is Voila's own.
    connection = config.Voila.kernel_websocket_connection_class  # type: ignore[attr-defined]
    assert connection.__name__ == "SiteConnection"
    assert VoilaKernelWebsocketHandler.write_message.__qualname__.startswith("VoilaKernel")
    assert voila.app.voila_kernel_manager_factory.__name__ == "site_factory"
    assert config.KernelManager.autorestart is False  # type: ignore[attr-defined]
    assert config.VoilaKernelManager.fill_delay > 0  # type: ignore[attr-defined]


def test_no_traceback_or_printed_text_is_sent_to_a_page() -> None:
    site = site_changes()
    error = {"header": {"msg_type": "error"}, "content": {"traceback": ["Traceback ..."]}}
    update = {"header": {"msg_type": "comm_msg"}, "content": {"data": {"state": {"value": 1}}}}
    assert site._message_type(json.dumps(error)) == "error"
    assert site._message_type(json.dumps({**error, "header": {"msg_type": "stream"}})) == "stream"
    assert site._message_type(error) == "error"
    assert site._message_type(json.dumps(update)) is None  # not parsed: cannot be hidden
    # A widget whose text mentions a message type is not mistaken for one.
    tricky = {"header": {"msg_type": "comm_msg"}, "content": {"text": '"msg_type": "error"'}}
    assert site._message_type(json.dumps(tricky)) not in site.HIDDEN_MESSAGES
    assert {"error", "stream"} <= site.HIDDEN_MESSAGES
    assert "comm_msg" not in site.HIDDEN_MESSAGES and "status" not in site.HIDDEN_MESSAGES


def test_a_kernel_belongs_to_the_first_browser_that_asks_for_it() -> None:
    site = site_changes()
    assert site.owns("ana", "kernel-1")
    assert site.owns("ana", "kernel-1")
    assert not site.owns("ben", "kernel-1")
    assert not site.owns(None, "kernel-2")
    assert site.owns("ben", "kernel-2")


def test_a_refill_sleeps_out_its_delay_unless_a_learner_wakes_it() -> None:
    site = site_changes()

    async def refill(delay: float, wake: bool) -> float:
        async def start() -> str:
            return "started"

        began = time.monotonic()
        task = asyncio.ensure_future(site._wait_before(delay, start()))
        await asyncio.sleep(0.05)
        if wake:
            site._wake()
        assert await task == "started"
        return time.monotonic() - began

    # run_sync: in a thread of its own, as the browser tests keep an event loop running here.
    assert run_sync(refill(0.3, wake=False)) >= 0.3
    assert run_sync(refill(30, wake=True)) < 5  # not the 30 s


def test_a_class_keeps_its_size_of_kernels_for_its_lessons(monkeypatch: pytest.MonkeyPatch) -> None:
    site = site_changes()
    monkeypatch.delenv(CLASS_ENV, raising=False)
    assert site.class_pools(1) == {"default": 1}
    env = voila_env({}, class_size=30, lessons=["07_whole_deal.ipynb", "08_play.ipynb"])
    monkeypatch.setenv(CLASS_ENV, env[CLASS_ENV])
    monkeypatch.setenv(CLASS_LESSONS_ENV, env[CLASS_LESSONS_ENV])
    kept = 30 + CLASS_SPARE  # the teacher's tab and a reload or two take none of the class's
    assert site.class_pools(1) == {"default": 1, "07_whole_deal.ipynb": kept, "08_play.ipynb": kept}
    assert CLASS_ENV not in voila_env({CLASS_ENV: "9"})  # an old class is not inherited


def test_class_lessons_are_named_by_file_or_number() -> None:
    files = [lesson["file"] for lesson in catalogue()]
    assert class_lessons(None) == files[:1]
    assert class_lessons(["07"]) == [f for f in files if f.startswith("07_")]
    assert class_lessons([files[2]]) == [files[2]]
    with pytest.raises(ValueError, match="there is no lesson '99'"):
        class_lessons(["99"])
    plan = class_plan(30, class_lessons(["07", "08"]))
    assert "class of 30" in plan and "GB" in plan
    kernels = (30 + CLASS_SPARE) * 2 + (len(files) - 2)
    assert f"{kernels} kernels in all" in plan


@pytest.mark.parametrize(
    ("prefix", "normal"),
    [
        ("/", "/"),
        ("", "/"),
        ("penang", "/penang/"),
        ("/user/ana/penang/", "/user/ana/penang/"),
        ("/user/ana%40school.example/penang", "/user/ana%40school.example/penang/"),
        ("/user/ana@school/penang/", "/user/ana@school/penang/"),
    ],
)
def test_a_base_url_is_normalised(prefix: str, normal: str) -> None:
    assert normal_base_url(prefix) == normal


@pytest.mark.parametrize("prefix", ["/../etc/", "/a b/", "/x%zz/", "/<script>/", "/a'b/", "/./"])
def test_a_base_url_that_is_not_a_plain_path_is_refused(prefix: str) -> None:
    with pytest.raises(ValueError, match="plain path"):
        normal_base_url(prefix)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["serve", "--lesson", "07"], "give --class N too"),
        (["serve", "--class", "3", "--lesson", "99"], "there is no lesson '99'"),
        (["serve", "--base-url", "/../x"], "plain path"),
        (["serve", "--class", "0"], "penang-rummy"),
    ],
)
def test_serve_refuses_bad_options_in_one_line(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with contextlib.suppress(SystemExit):
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and len(err.strip().splitlines()) <= 2


def test_serve_without_lessons_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import penang_lib.site.serve

    monkeypatch.setattr(penang_lib.site.serve, "LESSONS", tmp_path / "lessons")
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "no lessons found" in err and str(tmp_path) in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_serve_on_an_address_this_machine_lacks_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 192.0.2.0/24 is reserved for documentation (RFC 5737): no machine has it.
    assert main(["serve", "--ip", "192.0.2.7"]) == 2
    err = capsys.readouterr().err
    assert "no network address 192.0.2.7" in err and "--ip 127.0.0.1" in err
    assert "Errno" not in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_serve_on_a_port_in_use_names_it_and_suggests_another(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"port {port} on 127.0.0.1 is already in use" in err and "--port" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_command_carries_the_base_url() -> None:
    assert "--Voila.base_url=/penang/" in voila_command(base_url="penang")
    assert "--Voila.base_url=/" in voila_command()


def test_the_template_is_ours_and_found_first() -> None:
    folder = SITE / "voila" / "templates" / TEMPLATE
    assert json.loads((folder / "conf.json").read_text())["base_template"] == "lab"
    pages = (
        "index.html.j2",
        "page.html",
        "tree-lab.html",
        "tree.html",
        "rules.html",
        "tables.html",
    )
    for page in pages:
        text = (folder / page).read_text()
        assert "cdn." not in text and "https://" not in text, page
    env = voila_env({"JUPYTER_PATH": "/elsewhere"})
    assert env["JUPYTER_PATH"].split(os.pathsep) == [str(SITE), "/elsewhere"]


def test_the_command_points_voila_at_the_lessons_and_the_settings() -> None:
    command = voila_command(port=9000, ip="0.0.0.0", open_browser=True, pool=3)
    assert command[:4] == [sys.executable, "-m", "penang_lib.site.app", str(LESSONS)]
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
