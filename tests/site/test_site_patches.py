"""penang_lib/site/patches.py's changes to Voila: the hooks (`HOOKS`) and the one patch (`PATCHES`),
each checked against the installed Voila at start-up; a patch is skipped with a warning when Voila
has changed."""

from __future__ import annotations

import json
import logging
import sys
import time
from importlib.metadata import version
from types import ModuleType
from typing import Any

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version
from traitlets.config import Application

from tests.checkout import REPO
from tests.helpers.site import site_changes
from tools.site_runner import start_site


def test_every_patched_target_is_in_the_installed_voila_as_expected() -> None:
    site = site_changes()
    assert site.PATCHES, "the registry names the patches"
    for patch in site.PATCHES:
        assert patch.why and patch.targets, patch.name
        assert Version(version("voila")) in SpecifierSet(patch.tested), patch.name
        for target in patch.targets:
            assert site.target_problem(target) is None, (patch.name, target.path)
    for hook in site.HOOKS:
        assert Version(version("voila")) in SpecifierSet(hook.tested), hook.setting
        for target in hook.relies:
            assert site.target_problem(target) is None, (hook.setting, target.path)


def test_the_configuration_points_the_site_uses_instead_of_patches_exist() -> None:
    import voila.app
    from jupyter_server.auth.authorizer import Authorizer
    from jupyter_server.auth.identity import IdentityProvider
    from jupyter_server.services.kernels.connection.base import BaseKernelWebsocketConnection
    from voila.treehandler import VoilaTreeHandler

    from tests.helpers.site import site_config

    site = site_changes()
    traits = voila.app.Voila.class_traits()
    assert {hook.setting for hook in site.HOOKS} <= set(traits)
    assert traits["kernel_websocket_connection_class"].klass is BaseKernelWebsocketConnection
    assert traits["authorizer_class"].klass is Authorizer
    assert traits["identity_provider_class"].klass is IdentityProvider
    settings = site_config().Voila  # type: ignore[attr-defined]
    for hook, base in [
        ("kernel_websocket_connection_class", BaseKernelWebsocketConnection),
        ("authorizer_class", Authorizer),
        ("identity_provider_class", IdentityProvider),
    ]:
        assert issubclass(settings[hook], base), hook
    # The identity provider stays Voila's own (anonymous learners, Voila's login page).
    assert issubclass(
        settings["identity_provider_class"], traits["identity_provider_class"].default()
    )
    rule_sheet = settings["tornado_settings"]["default_handler_class"]
    assert issubclass(rule_sheet, VoilaTreeHandler)


def test_the_authorizer_keeps_a_kernel_to_the_browser_that_claimed_it() -> None:
    site = site_changes()

    class Handler:
        def __init__(self, learner: str | None, kernel_id: str) -> None:
            self.kernel_manager = {"k1": object()}
            self.path_kwargs = {"kernel_id": kernel_id}
            self.learner = learner

        def get_cookie(self, name: str) -> str | None:
            assert name == site.LEARNER_COOKIE
            return self.learner

    authorizer = site.SiteAuthorizer()
    assert authorizer.is_authorized(Handler("ana", "k1"), None, "read", "kernels")
    assert authorizer.is_authorized(Handler("ana", "k1"), None, "execute", "kernels")
    assert not authorizer.is_authorized(Handler("ben", "k1"), None, "read", "kernels")
    assert not authorizer.is_authorized(Handler(None, "k1"), None, "read", "kernels")
    assert authorizer.is_authorized(Handler("ben", "gone"), None, "read", "kernels")  # 404
    assert authorizer.is_authorized(Handler("ben", "k1"), None, "read", "contents")


def test_the_tested_range_is_the_one_the_package_pins() -> None:

    pyproject = (REPO / "pyproject.toml").read_text()
    assert f'"voila{site_changes().TESTED_VOILA}"' in pyproject


class _Handler:
    def post(self, kernel_id: str) -> None:
        """A stand-in for the handler a patch wraps."""


def test_a_patch_whose_target_is_gone_or_changed_is_skipped_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import voila.app

    site = site_changes()
    stand_in = ModuleType("stand_in_voila")
    stand_in.Handler = _Handler  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "stand_in_voila", stand_in)
    monkeypatch.setattr(voila.app, "_penang_site", False, raising=False)
    # Outside a running Voila the warning goes to the site's own logger (caplog sees it).
    monkeypatch.setattr(Application, "initialized", classmethod(lambda cls: False))
    applied: list[str] = []

    def patch(name: str, target: Any) -> Any:
        return site.Patch(name, (target,), "no hook", lambda: applied.append(name))

    post = "stand_in_voila:Handler.post"
    monkeypatch.setattr(
        site,
        "PATCHES",
        (
            patch("kept", site.Target(post, ("self", "kernel_id"))),
            patch("gone", site.Target("stand_in_voila:Handler.get", ("self", "kernel_id"))),
            patch("changed", site.Target(post, ("self", "kernel_id", "reason"))),
            patch("module_gone", site.Target("no_such_voila_module:Handler.post")),
        ),
    )
    with caplog.at_level(logging.WARNING):
        site.install()  # the site starts: no exception
    assert applied == ["kept"]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 3
    installed = version("voila")
    for name, said in [
        ("gone", "stand_in_voila:Handler.get is gone"),
        ("changed", "now takes (self, kernel_id), not (self, kernel_id, reason)"),
        ("module_gone", "no_such_voila_module:Handler.post is gone"),
    ]:
        (warning,) = [w for w in warnings if f"patch {name} skipped" in w]
        assert said in warning and f"installed Voila {installed}" in warning
        assert "tested on voila>=0.5.6,<0.6" in warning


def test_every_pool_method_the_kernel_patch_overrides_is_checked_at_start_up() -> None:
    site = site_changes()
    stock = site.resolve(site._POOL)
    assert stock.__name__ == "VoilaKernelManager"
    assert "site" not in stock.__module__, "the check looks at Voila's class, not ours"
    # The site's half of the class (module-level); Voila's factory puts it in front of `stock`.
    ours = site.SiteKernels
    built = site.site_pool_class(stock, 1)
    assert built.__mro__[1:3] == (ours, stock) and built.usual_pool_size == 1
    assert built._all_trait_default_generators["kernel_pools_config"] is vars(ours)["_site_pools"]
    overridden = {
        name
        for name, value in vars(ours).items()
        if hasattr(stock, name) and (callable(value) or name == "__init__")
    }
    overridden |= {"kernel_pools_config"}  # its default (`_site_pools`)
    assert overridden >= {"__init__", "fill_if_needed", "_initialize", "get_rendered_notebook"}
    (patch,) = [p for p in site.PATCHES if p.name == "site_kernels"]
    checked = {t.path.removeprefix(site._POOL + ".") for t in patch.targets}
    assert overridden <= checked
    for called in ("get_kernel", "list_kernel_ids", "__contains__", "default_env_variables"):
        assert called in checked


def _pool_factory_without(missing: str, **changed: Any) -> Any:
    """Voila's factory of kernel pools, as a later Voila might have it: the class it builds
    has no `missing` method, and `changed` ones replace Voila's."""
    import voila.voila_kernel_manager as vkm

    factory = vkm.voila_kernel_manager_factory
    factory = getattr(factory, "__wrapped__", factory)

    def later_factory(
        base_class: Any, preheat_kernel: bool, default_pool_size: int, **kwargs: Any
    ) -> Any:
        stock = factory(base_class, preheat_kernel, default_pool_size, **kwargs)
        space = {
            name: value
            for name, value in vars(stock).items()
            if name not in (missing, "__dict__", "__weakref__")
        }
        return type(stock)(stock.__name__, stock.__bases__, {**space, **changed})

    return later_factory


def test_a_pool_method_gone_or_changed_skips_the_kernel_patch_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import voila.app
    import voila.voila_kernel_manager as vkm

    site = site_changes()

    def fill_if_needed(
        self: Any,
        delay: Any = None,
        notebook_name: Any = None,
        extra_kernel_env_variables: Any = (),
    ) -> None:
        """A refill that no longer sleeps in `wait_before` (nor runs `_initialize`)."""

    as_installed = _pool_factory_without("nothing")
    later = _pool_factory_without("_initialize", fill_if_needed=fill_if_needed)
    monkeypatch.setattr(vkm, "voila_kernel_manager_factory", later)
    monkeypatch.setattr(voila.app, "_penang_site", False, raising=False)
    monkeypatch.setattr(Application, "initialized", classmethod(lambda cls: False))
    applied: list[str] = []
    (patch,) = [p for p in site.PATCHES if p.name == "site_kernels"]
    monkeypatch.setattr(
        site, "PATCHES", (patch._replace(apply=lambda: applied.append(patch.name)),)
    )
    with caplog.at_level(logging.WARNING):
        site.install()
    assert applied == []
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "patch site_kernels skipped" in warning
    assert "voila.voila_kernel_manager:VoilaKernelManager._initialize is gone" in warning
    assert "VoilaKernelManager.fill_if_needed no longer uses wait_before, _initialize" in warning
    assert "tested on voila>=0.5.6,<0.6" in warning

    # Voila's own class, as installed: the same check passes and the patch is applied.
    monkeypatch.setattr(vkm, "voila_kernel_manager_factory", as_installed)
    monkeypatch.setattr(voila.app, "_penang_site", False)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        site.install()
    assert applied == ["site_kernels"]
    assert not [r for r in caplog.records if r.levelno == logging.WARNING]


def test_the_kernel_websocket_drops_tracebacks_and_printed_text() -> None:
    site = site_changes()
    sent: list[tuple[Any, bool]] = []

    class Socket:
        def write_message(self, message: Any, binary: bool = False) -> None:
            sent.append((message, binary))

    class Connection:
        websocket_handler = Socket()

    write = site.SiteConnection.write_message.fget(Connection())
    error = json.dumps({"header": {"msg_type": "error"}, "content": {"traceback": ["..."]}})
    printed = json.dumps({"header": {"msg_type": "stream"}, "content": {"text": "/home/x.py"}})
    update = json.dumps({"header": {"msg_type": "comm_msg"}, "content": {"data": {}}})
    for message in (error, printed, update):
        write(message, binary=False)
    assert sent == [(update, False)]


def test_the_kernel_websocket_turns_nagle_off_before_it_connects(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from jupyter_server.services.kernels.connection.channels import (
        ZMQChannelsWebsocketConnection,
    )

    site = site_changes()
    calls: list[str] = []

    class Socket:
        def set_nodelay(self, value: bool) -> None:
            calls.append(f"nodelay {value}")

    def connect(self: Any) -> str:
        calls.append("connect")
        return "connected"

    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", connect)
    connection = site.SiteConnection.__new__(site.SiteConnection)
    connection._trait_values["websocket_handler"] = Socket()  # no kernel needed for this
    assert connection.connect() == "connected"
    assert calls == ["nodelay True", "connect"]


def test_a_hook_whose_setting_or_class_needs_are_gone_is_named_in_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import voila.app

    site = site_changes()
    monkeypatch.setattr(voila.app, "_penang_site", False, raising=False)
    monkeypatch.setattr(Application, "initialized", classmethod(lambda cls: False))
    monkeypatch.setattr(site, "PATCHES", ())
    monkeypatch.setattr(
        site,
        "HOOKS",
        (
            site.Hook("authorizer_class", "kept"),
            site.Hook("no_such_setting", "the page is plain"),
            site.Hook("tornado_settings", "no rule sheet", (site.Target("voila.app:Voila.gone"),)),
        ),
    )
    with caplog.at_level(logging.WARNING):
        site.install()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2
    (setting,) = [w for w in warnings if "Voila.no_such_setting" in w]
    assert "Voila has no setting Voila.no_such_setting: the page is plain" in setting
    (needs,) = [w for w in warnings if "hook Voila.tornado_settings" in w]
    assert "voila.app:Voila.gone is gone: no rule sheet" in needs
    assert "tested on voila>=0.5.6,<0.6" in needs


def test_a_site_with_no_kernels_kept_ready_says_ready_once_and_answers_404_cleanly() -> None:
    """How a Hub runs the site (`--pool 0`): it says once that it is ready, never "starting:
    0 of 0 kernels ready" every ten seconds; and an address it does not serve (such as the
    "/" jupyter-server-proxy asks for to see whether the site is up) gets a plain 404 with no
    "finish() called twice" traceback in the log."""
    server = start_site(pool=0)
    try:
        deadline = time.monotonic() + 90
        while not any("Penang site ready" in line for line in list(server.log)):
            assert server.process.poll() is None, "\n".join(server.log)
            assert time.monotonic() < deadline, "never said ready:\n" + "\n".join(server.log)
            time.sleep(0.2)
        status, body = server.get("/favicon.ico")
        assert status == 404 and "404: Not Found" in body
        assert server.get("/voila/rules")[0] == 200  # the default handler's one real page
        # Every lesson's "All lessons" link (README.md) and the lessons' folder: the landing
        # page (penang_lib/site/app.py), not Voila's download of the file.
        for path in ("voila/render/README.md", "voila/render/"):
            status, body = server.get(path)
            assert status == 200 and 'class="lessons"' in body, path
        # A second 404: once it is in the log, anything the first one logged is there too.
        assert server.get("/nowhere")[0] == 404
        while not any("GET /nowhere" in line for line in list(server.log)):
            assert time.monotonic() < deadline, "\n".join(server.log)
            time.sleep(0.1)
    finally:
        server.stop()
    log = "\n".join(server.log)
    assert "no kernels are kept ready" in log, log
    assert "Penang site starting" not in log, log
    assert "finish() called twice" not in log and "Traceback" not in log, log
