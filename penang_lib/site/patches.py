"""How the tutorial site changes Voila 0.5's behaviour, for a class of learners.

`penang_lib.site.settings` (the settings `penang-rummy serve` gives Voila) names `SiteConnection`
and `SiteAuthorizer` in Voila's settings and calls `install()`. Each change is small and named after
what a learner or teacher would otherwise see.

Through Voila's own configuration points (no patch):

- `SiteConnection` (`Voila.kernel_websocket_connection_class`): a click's reply reaches the
  browser at once (no 40 ms wait per message), and no traceback or printed text reaches a page
  (`HIDDEN_MESSAGES`).
- `SiteAuthorizer` (`Voila.authorizer_class`): a kernel is claimed by the first browser that
  asks for it (its own page, which alone knows the kernel's id); any other browser gets 403
  from the kernel's websocket and its API.

Patches, each named once in `PATCHES` with what it patches, why no hook serves and the Voila
versions it was tested on; `install()` checks each target first and, if Voila has changed,
skips that patch with a warning in the log instead of breaking the site:

- `_cookies_on_every_page`: every page sets the XSRF cookie, so closing the tab of a lesson
  opened directly (not through the landing page) still shuts its kernel down; and a learner
  cookie, which ties each kernel to the browser that opened its page.
- `_shutdown_kept_to_its_learner`: the same 403 from the handler a closing page asks to shut
  its kernel down.
- `_rule_sheet_page`: the rule sheet and glossary, a page of the template (`rules.html`) with
  no kernel, at `penang_lib.site.serve.RULES_PAGE`; every lesson and the landing page link to it.
- `SiteKernels` (the kernel pools): a kernel is handed to a learner only once it has run its
  lesson (or is waiting for the page's query string); one that died at start is replaced
  instead of leaving the page hanging; a refill waits `fill_delay` seconds (so it does not slow
  down the page that was just handed out) unless a learner is waiting for it; `serve --class N`
  keeps N kernels for the class's lessons (a reserve, not refilled once used); and the log
  says when every kernel is ready.

This module is Jupyter-side glue: Voila's config file imports it (through `settings`); the
engine never does.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import json
import logging
import os
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from jupyter_server.auth.authorizer import AllowAllAuthorizer
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

LEARNER_COOKIE = "penang_learner"
READY_TIMEOUT = 90.0
"""Seconds a page waits for a starting kernel to finish its lesson before it is used anyway."""
START_ATTEMPTS = 3
"""Kernels tried for one page before it gets the error page (each that died is replaced)."""
TESTED_VOILA = ">=0.5.6,<0.6"
"""The Voila versions every patch below was tested on (0.5.6 to 0.5.13); pyproject.toml and
environment.yml pin `voila` to the same range."""

HOOKS = {
    "kernel_websocket_connection_class": "pages may get tracebacks, and clicks wait 40 ms",
    "authorizer_class": "any browser that knows a kernel's id may use it",
}
"""The configuration points of Voila the site uses instead of patches (`settings` sets them),
and what is lost if one is gone."""

_owners: dict[str, str] = {}
"""Kernel id -> learner cookie of the browser that claimed it."""
_sleepers: set[asyncio.Future[None]] = set()


class Target(NamedTuple):
    """One thing of Voila's (or jupyter_server's) that a patch replaces: `module:attribute`,
    dotted for a class's method, with the parameters the patch's wrapper passes on."""

    path: str
    params: tuple[str, ...] | None = None
    """None: only its presence is checked (a class attribute, not a function)."""


class Patch(NamedTuple):
    """A change no configuration point of Voila 0.5 allows: what it patches and why."""

    name: str
    targets: tuple[Target, ...]
    why: str
    apply: Callable[[], None]
    tested: str = TESTED_VOILA


def resolve(path: str) -> Any:
    """The object at `module:attribute.attribute`; AttributeError or ImportError if gone."""
    module_name, _, attributes = path.partition(":")
    found: Any = importlib.import_module(module_name)
    for name in attributes.split("."):
        found = getattr(found, name)
    return found


def target_problem(target: Target) -> str | None:
    """Why this target cannot be patched any more (None: it is there, as expected)."""
    try:
        found = resolve(target.path)
    except (ImportError, AttributeError):
        return f"{target.path} is gone"
    if target.params is None:
        return None
    try:
        params = tuple(inspect.signature(found).parameters)
    except (TypeError, ValueError):
        return f"{target.path} is no longer a function"
    if params[: len(target.params)] != target.params:
        return f"{target.path} now takes ({', '.join(params)}), not ({', '.join(target.params)})"
    return None


def _log() -> logging.Logger:
    """Voila's own log once the app runs (the settings file is loaded by it), else ours."""
    from traitlets.config import Application

    if Application.initialized():
        return Application.instance().log  # type: ignore[no-any-return]
    return logging.getLogger("penang_site")


def voila_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("voila")
    except PackageNotFoundError:
        return "unknown"


def install() -> None:
    """Apply every patch whose targets are still there (idempotent: Voila may load the
    settings file more than once). A patch whose target changed is skipped with a warning
    naming it and the installed Voila, so the site still starts, without that change."""
    import voila.app

    if getattr(voila.app, "_penang_site", False):
        return
    for patch in PATCHES:
        problems = [p for t in patch.targets if (p := target_problem(t)) is not None]
        if problems:
            _log().warning(
                "Penang site: patch %s skipped: %s (installed Voila %s; tested on voila%s)",
                patch.name,
                "; ".join(problems),
                voila_version(),
                patch.tested,
            )
            continue
        patch.apply()
    for hook in HOOKS:
        if not voila.app.Voila.class_traits().get(hook):
            _log().warning(
                "Penang site: Voila %s has no setting Voila.%s: %s (tested on voila%s)",
                voila_version(),
                hook,
                HOOKS[hook],
                TESTED_VOILA,
            )
    voila.app._penang_site = True


HIDDEN_MESSAGES = frozenset({"error", "stream"})
"""Kernel messages never sent to a page: after Voila has run a lesson, all a page needs is its
widgets' messages, and these two carry what a learner must not see (an `error` holds the
traceback with source lines that ipywidgets sends when a widget's trait refuses a value;
`stream` is anything printed, e.g. a warning with a file path)."""
_MAYBE_HIDDEN = re.compile(r'"msg_type":\s*"(?:error|stream)"')


def _message_type(message: Any) -> str | None:
    from voila.tornado.kernel_websocket_handler import read_header_from_binary_message

    if isinstance(message, bytes):
        header = read_header_from_binary_message(message)
    elif isinstance(message, dict):
        header = message.get("header")
    elif isinstance(message, str) and _MAYBE_HIDDEN.search(message):
        try:
            header = json.loads(message).get("header")
        except ValueError:
            return None
    else:
        return None
    return header.get("msg_type") if isinstance(header, dict) else None


class SiteConnection(ZMQChannelsWebsocketConnection):
    """The kernel websocket of a lesson page (`Voila.kernel_websocket_connection_class`).

    - No Nagle: neither Voila nor jupyter_server turns off Nagle's algorithm on the kernel
      websocket, so when a click makes the kernel send a few messages in a row (busy, the
      widget updates, idle) the later ones wait for the browser's delayed acknowledgement:
      about 40 ms on every click, measured here. Tornado's `set_nodelay(True)` removes it.
    - Tracebacks and printed output stay in the kernel (`HIDDEN_MESSAGES`): every message to
      the browser goes through `write_message`, which drops them.
    """

    def connect(self) -> Any:
        self.websocket_handler.set_nodelay(True)
        return super().connect()

    @property
    def write_message(self) -> Callable[..., Any]:
        write: Callable[..., Any] = self.websocket_handler.write_message

        def write_shown(message: Any, binary: bool = False) -> Any:
            if _message_type(message) in HIDDEN_MESSAGES:
                return None
            return write(message, binary=binary)

        return write_shown


def _learner(handler: Any) -> str | None:
    token = handler.get_cookie(LEARNER_COOKIE)
    return token if token and len(token) < 100 else None


def _cookies_on_every_page() -> None:
    """Before a lesson page or the landing page streams out, set both cookies.

    Voila checks the XSRF cookie when a closed tab asks to shut its kernel down; the stock
    pages set it only on the file tree, so a lesson opened from a link kept its kernel alive
    until it was culled."""
    from voila.handler import VoilaHandler
    from voila.treehandler import VoilaTreeHandler

    for handler_class in (VoilaHandler, VoilaTreeHandler):
        prepared = handler_class.prepare

        async def prepare(self: Any, _prepared: Callable[..., Any] = prepared) -> None:
            result = _prepared(self)
            if isinstance(result, Awaitable):
                await result
            _ = self.xsrf_token  # reading it sets the cookie when the browser has none
            if _learner(self) is None:
                self.set_cookie(
                    LEARNER_COOKIE,
                    secrets.token_urlsafe(24),
                    path=self.base_url or "/",
                    httponly=True,
                    samesite="Strict",
                )

        handler_class.prepare = prepare


def _rule_sheet_page() -> None:
    """Serve the rule sheet: the template's `rules.html`, filled from `rule_sheet`
    (`jinja_template_vars`, set in `settings`). No kernel starts for it; like the landing
    page it sets the cookies (`_cookies_on_every_page` patched the handler it builds on)."""
    import voila.app
    from jupyter_server.utils import url_path_join
    from tornado import web
    from voila.treehandler import VoilaTreeHandler

    from penang_lib.site.serve import RULES_PAGE

    class RuleSheetHandler(VoilaTreeHandler):  # type: ignore[misc]
        @web.authenticated
        def get(self) -> None:
            self.write(self.render_template("rules.html", page_title="Rule sheet"))

    init_handlers = voila.app.Voila.init_handlers

    def with_rule_sheet(self: Any) -> list[Any]:
        handlers: list[Any] = init_handlers(self)
        page = url_path_join(self.server_url, "/" + RULES_PAGE)
        conf = {"voila_configuration": self.voila_configuration}
        return [(page, RuleSheetHandler, conf), *handlers]

    voila.app.Voila.init_handlers = with_rule_sheet


def owns(learner: str | None, kernel_id: str) -> bool:
    """May the browser with this learner cookie use this kernel? The first one to ask claims
    it (its page is the only place the kernel's id was written)."""
    if learner is None:
        return False
    owner = _owners.setdefault(kernel_id, learner)
    return secrets.compare_digest(owner, learner)


def _claimed_by_another(handler: Any, kernel_id: str | None) -> bool:
    """Is this an existing kernel that another browser claimed? (No such kernel: False, so
    the handler answers 404, and no id is remembered.)"""
    if kernel_id is None or kernel_id not in handler.kernel_manager:
        return False
    return not owns(_learner(handler), kernel_id)


class SiteAuthorizer(AllowAllAuthorizer):
    """`Voila.authorizer_class`: the kernel websocket and the kernel API (both ask the
    authorizer about the "kernels" resource) answer only the browser that claimed the kernel;
    any other gets 403. Everything else is allowed, as Voila's default allows it."""

    def is_authorized(self, handler: Any, user: Any, action: str, resource: str) -> bool:
        if resource != "kernels":
            return True
        kernel_id = getattr(handler, "kernel_id", None) or getattr(handler, "path_kwargs", {}).get(
            "kernel_id"
        )
        return not _claimed_by_another(handler, kernel_id)


def _shutdown_kept_to_its_learner() -> None:
    """The page-close shutdown answers only the browser that claimed the kernel (the rest of
    the kernel's doors are `SiteAuthorizer`'s)."""
    from tornado import web
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    original = VoilaShutdownKernelHandler.post

    async def post_owned(self: Any, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        if _claimed_by_another(self, kernel_id):
            raise web.HTTPError(403, "This lesson belongs to another page.")
        return await original(self, kernel_id, *args, **kwargs)

    VoilaShutdownKernelHandler.post = post_owned


async def _wait_before(delay: float, aw: Awaitable[Any]) -> Any:
    """Voila's refill delay, cut short when a learner is waiting for the kernel (`_wake`)."""
    if delay > 0:
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        _sleepers.add(woken)
        try:
            await asyncio.wait([woken], timeout=delay)
        finally:
            _sleepers.discard(woken)
    return await aw


def _wake() -> None:
    for woken in list(_sleepers):
        if not woken.done():
            woken.set_result(None)


def class_pools(default_size: int) -> dict[str, int]:
    """Pool size per lesson: `default_size` each, and the class size (`serve --class N`, read
    from the environment `penang_lib.site.serve.voila_env` writes) for the class's lessons."""
    from penang_lib.site.serve import CLASS_ENV, CLASS_LESSONS_ENV

    sizes = {"default": default_size}
    size = os.environ.get(CLASS_ENV, "")
    if size.isdigit() and int(size) > 0:
        for lesson in os.environ.get(CLASS_LESSONS_ENV, "").split(","):
            if lesson:
                sizes[lesson] = int(size)
    return sizes


def _site_kernels() -> None:
    """Voila's kernel pools, made safe to hand out to a class (see the module's docstring)."""
    import voila.app
    import voila.voila_kernel_manager as vkm
    from jupyter_core.utils import ensure_async
    from traitlets import default
    from voila.request_info_handler import RequestInfoSocketHandler

    vkm.wait_before = _wait_before
    factory = vkm.voila_kernel_manager_factory

    def site_factory(
        base_class: Any, preheat_kernel: bool, default_pool_size: int, **kwargs: Any
    ) -> Any:
        stock = factory(base_class, preheat_kernel, default_pool_size, **kwargs)
        if not preheat_kernel:
            return stock

        class SiteKernels(stock):  # type: ignore[misc, valid-type]
            @default("kernel_pools_config")
            def _site_pools(self) -> dict[str, Any]:
                env = self.default_env_variables
                return {
                    name: {"pool_size": size, "kernel_env_variables": env}
                    for name, size in class_pools(max(default_pool_size, 0)).items()
                }

            def __init__(self, **kwargs: Any) -> None:
                super().__init__(**kwargs)  # starts every pool at its size
                # A class's kernels are a reserve for the class's arrival: once used, its
                # lessons are kept at the usual size. Refilling thirty kernels while thirty
                # learners click would slow every click for minutes.
                usual = max(default_pool_size, 0)
                env = self.default_env_variables
                self.kernel_pools_config = {
                    "default": {"pool_size": usual, "kernel_env_variables": env}
                }

            def fill_if_needed(self, *args: Any, **kwargs: Any) -> None:
                super().fill_if_needed(*args, **kwargs)
                if getattr(self, "_watcher", None) is None:
                    self._watcher = asyncio.get_event_loop().create_task(self._watch_ready())

            async def _initialize(
                self, notebook_path: str, kernel_id: str | None = None, **kwargs: Any
            ) -> Any:
                """Start a kernel and run its lesson, at most one per CPU at a time: forty
                kernels started at once on two cores (a class's pool, or its refills) would
                all be slow, and slow down every learner's clicks meanwhile."""
                if kernel_id is not None:  # a restart of a kernel in use
                    return await super()._initialize(notebook_path, kernel_id, **kwargs)
                if getattr(self, "_slots", None) is None:
                    self._slots = asyncio.Semaphore(max(1, os.cpu_count() or 1))
                async with self._slots:
                    content = await super()._initialize(notebook_path, None, **kwargs)
                    try:
                        await self._until_ready(content)
                    except Exception as error:  # the page that claims it will try another
                        self.log.warning("A kernel for %s failed: %s", notebook_path, error)
                    return content

            def readiness(self) -> tuple[int, int]:
                """(kernels that have run their lesson, kernels in the pools)."""
                ready = total = 0
                for pool in self._pools.values():
                    for task in pool:
                        total += 1
                        if task.done() and not task.cancelled() and task.exception() is None:
                            ready += self._is_ready(task.result())
                return ready, total

            async def _replace_dead(self) -> None:
                """A kernel in a pool that failed to start or has died since is replaced
                before a learner can be handed it."""
                for name, pool in list(self._pools.items()):
                    for task in list(pool):
                        if not task.done():
                            continue
                        kernel_id = None
                        if not task.cancelled() and task.exception() is None:
                            kernel_id = task.result()["kernel_id"]
                            manager = self.get_kernel(kernel_id) if kernel_id in self else None
                            if manager is not None and await ensure_async(manager.is_alive()):
                                continue
                        if task not in pool:
                            continue
                        pool.remove(task)
                        self.log.warning("A kernel for %s stopped: starting another", name)
                        if kernel_id is not None and kernel_id in self:
                            with contextlib.suppress(Exception):  # already gone
                                await self.shutdown_kernel(kernel_id, now=True)
                        self.fill_if_needed(delay=0, notebook_name=name)
                pooled = {
                    task.result()["kernel_id"]
                    for pool in self._pools.values()
                    for task in pool
                    if task.done() and not task.cancelled() and task.exception() is None
                }
                for kernel_id in list(self.list_kernel_ids()):
                    if kernel_id in pooled or kernel_id not in self:
                        continue
                    if not await ensure_async(self.get_kernel(kernel_id).is_alive()):
                        # A learner's kernel that died: gone from the API, so its page says so.
                        self.log.warning("Kernel %s stopped: removing it", kernel_id)
                        with contextlib.suppress(Exception):
                            await self.shutdown_kernel(kernel_id, now=True)

            async def _watch_ready(self) -> None:
                """Say in the log when every pool is ready (the teacher's signal before a
                class; the tests wait for it too), and how far it got every ten seconds."""
                was_ready = False
                last = time.monotonic()
                while True:
                    await asyncio.sleep(0.5)
                    try:
                        await self._replace_dead()
                        ready, total = self.readiness()
                    except Exception:  # the watch goes on; the next round tries again
                        self.log.exception("Checking the kernel pools failed")
                        continue
                    now_ready = total > 0 and ready == total
                    if now_ready and not was_ready:
                        self.log.info(
                            "Penang site ready: %d kernel(s) have run their lessons", ready
                        )
                    elif not now_ready and time.monotonic() - last > 10:
                        self.log.info("Penang site starting: %d of %d kernels ready", ready, total)
                        last = time.monotonic()
                    was_ready = now_ready

            def _is_ready(self, content: dict[str, Any]) -> bool:
                render: asyncio.Task[Any] = content["task"]
                return render.done() or content["kernel_id"] in RequestInfoSocketHandler._waiters

            async def _until_ready(self, content: dict[str, Any]) -> None:
                """Wait until the kernel has run its lesson (or waits for the page's query
                string); raise if it died on the way."""
                deadline = time.monotonic() + READY_TIMEOUT
                checked = 0.0
                while not self._is_ready(content) and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                    if time.monotonic() - checked > 0.5:
                        checked = time.monotonic()
                        manager = self.get_kernel(content["kernel_id"])
                        if not await ensure_async(manager.is_alive()):
                            raise RuntimeError("the kernel stopped while running its lesson")
                render: asyncio.Task[Any] = content["task"]
                if render.done() and render.exception() is not None:
                    raise RuntimeError(f"the lesson failed to run: {render.exception()}")
                if not await ensure_async(self.get_kernel(content["kernel_id"]).is_alive()):
                    raise RuntimeError("the kernel has stopped")

            async def get_rendered_notebook(
                self,
                notebook_name: str,
                extra_kernel_env_variables: dict[str, str] | None = None,
                **kwargs: Any,
            ) -> Any:
                extra = extra_kernel_env_variables or {}
                pool = self._pools.setdefault(notebook_name, [])
                problem: BaseException | None = None
                for _ in range(START_ATTEMPTS):
                    if not pool:
                        self.fill_if_needed(delay=0, notebook_name=notebook_name, **kwargs)
                    item = pool.pop(0)  # claimed: no other page gets this kernel
                    if not item.done():
                        _wake()  # a refill sleeping out its delay is needed now
                    self.fill_if_needed(
                        delay=None,
                        notebook_name=notebook_name,
                        extra_kernel_env_variables=extra,
                        **kwargs,
                    )
                    content: dict[str, Any] = {}
                    try:
                        content = await item
                        await self._until_ready(content)
                    except Exception as error:  # a kernel that died: try the next one
                        problem = error
                        self.log.warning("A kernel for %s failed: %s", notebook_name, error)
                        if content.get("kernel_id") in self:
                            await self.shutdown_kernel(content["kernel_id"], now=True)
                        continue
                    renderer = content["renderer"]
                    renderer.stop_generator = True
                    kernel_id = content["kernel_id"]
                    self.log.info("Using pre-heated kernel %s for %s", kernel_id, notebook_name)
                    return content["task"], renderer.rendered_cache, kernel_id
                raise RuntimeError(f"no kernel could start for {notebook_name}") from problem

            async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
                _owners.pop(kernel_id, None)
                RequestInfoSocketHandler._cache.pop(kernel_id, None)
                return await super().shutdown_kernel(kernel_id, *args, **kwargs)

        return SiteKernels

    vkm.voila_kernel_manager_factory = site_factory
    voila.app.voila_kernel_manager_factory = site_factory


_VWS = "voila.tornado.kernel_websocket_handler:VoilaKernelWebsocketHandler"
_KERNEL_API = "jupyter_server.services.kernels.handlers:KernelHandler"
_POOLS = "voila.voila_kernel_manager"
_FACTORY_PARAMS = ("base_class", "preheat_kernel", "default_pool_size")

PATCHES: tuple[Patch, ...] = (
    Patch(
        "cookies_on_every_page",
        (
            Target("voila.handler:VoilaHandler.prepare", ("self",)),
            Target("voila.treehandler:VoilaTreeHandler.prepare", ("self",)),
        ),
        "Voila has no hook that runs before a page streams out; the identity provider (the "
        "one per-request hook) runs for every request, files and API included, and "
        "jupyter_server's xsrf_token cannot be read from it (it asks for the current user, "
        "not yet known there).",
        _cookies_on_every_page,
    ),
    Patch(
        "shutdown_kept_to_its_learner",
        (
            Target(
                "voila.shutdown_kernel_handler:VoilaShutdownKernelHandler.post",
                ("self", "kernel_id"),
            ),
        ),
        "Voila's page-close shutdown handler is only @authenticated: unlike the websocket and "
        "the kernel API it never asks Voila.authorizer_class (SiteAuthorizer), so the owner "
        "check has to wrap it.",
        _shutdown_kept_to_its_learner,
    ),
    Patch(
        "rule_sheet_page",
        (
            Target("voila.app:Voila.init_handlers", ("self",)),
            Target("voila.treehandler:VoilaTreeHandler.render_template", ("self", "name")),
        ),
        "Voila run on its own has no setting for extra handlers (tornado_settings are "
        "settings, not routes; extra handlers exist only when Voila is a server extension).",
        _rule_sheet_page,
    ),
    Patch(
        "site_kernels",
        (
            Target(f"{_POOLS}:voila_kernel_manager_factory", _FACTORY_PARAMS),
            Target("voila.app:voila_kernel_manager_factory", _FACTORY_PARAMS),
            Target(f"{_POOLS}:wait_before", ("delay", "aw")),
            Target("voila.request_info_handler:RequestInfoSocketHandler._waiters"),
            Target("voila.request_info_handler:RequestInfoSocketHandler._cache"),
        ),
        "VoilaConfiguration.multi_kernel_manager_class is the base of the class Voila's "
        "factory builds: the pool methods changed here (get_rendered_notebook, fill_if_needed, "
        "_initialize, shutdown_kernel) are defined on that subclass and would override ours.",
        _site_kernels,
    ),
)
"""Every patch of the site, in the order `install()` applies them."""
