"""How the tutorial site changes Voila 0.5's behaviour, for a class of learners.

`penang_lib.site.settings` (the settings `penang-rummy serve` gives Voila) names the classes below
in Voila's settings and calls `install()`. Each change is small and named after what a learner or
teacher would otherwise see.

Through Voila's own configuration points (no patch), each named once in `HOOKS`:

- `SiteConnection` (`Voila.kernel_websocket_connection_class`): a click's reply reaches the
  browser at once (no 40 ms wait per message), and no traceback or printed text reaches a page
  (`HIDDEN_MESSAGES`).
- `SiteAuthorizer` (`Voila.authorizer_class`): a kernel is claimed by the first browser that
  asks for it (its own page, which alone knows the kernel's id); any other browser gets 403
  from the kernel's websocket and its API.
- `SiteIdentityProvider` (`Voila.identity_provider_class`): every page sets the XSRF cookie, so
  closing the tab of a lesson opened directly (not through the landing page) still shuts its
  kernel down, and a learner cookie, which ties each kernel to the browser that opened its
  page; the page-close shutdown answers only the browser that claimed the kernel.
- `RuleSheetHandler` (tornado's `default_handler_class`, through `Voila.tornado_settings`):
  the rule sheet and glossary, a page of the template (`rules.html`) with no kernel, at
  `penang_lib.site.serve.RULES_PAGE`; every lesson and the landing page link to it.

One patch, named in `PATCHES` with what it patches, why no hook serves and the Voila versions it
was tested on; `install()` checks each of its targets first and, if Voila has changed, skips it
with a warning in the log instead of breaking the site:

- `site_kernels` (`SiteKernels`, the kernel pools): a kernel is handed to a learner only once
  it has run its lesson (or is waiting for the page's query string); one that died at start is
  replaced instead of leaving the page hanging; a refill waits `fill_delay` seconds (so it does
  not slow down the page that was just handed out) unless a learner is waiting for it;
  `serve --class N` keeps N kernels for the class's lessons (a reserve, not refilled once
  used); and the log says when every kernel is ready.

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
from collections.abc import Awaitable, Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from jupyter_core.utils import ensure_async
from jupyter_server.auth.authorizer import AllowAllAuthorizer
from jupyter_server.auth.identity import PasswordIdentityProvider
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.utils import url_path_join
from tornado import web
from traitlets import HasTraits, default

LEARNER_COOKIE = "penang_learner"
READY_TIMEOUT = 90.0
"""Seconds a page waits for a starting kernel to finish its lesson before it is used anyway."""
START_ATTEMPTS = 3
"""Kernels tried for one page before it gets the error page (each that died is replaced)."""
TESTED_VOILA = ">=0.5.6,<0.6"
"""The Voila versions every patch and hook below was tested on (0.5.6 to 0.5.13); pyproject.toml
and environment.yml pin `voila` to the same range."""

# Two registries of the running server, mutable by design: the site runs in one process, and
# Voila's handlers and pools meet only through module state.
_owners: dict[str, str] = {}
"""Kernel id -> learner cookie of the browser that claimed it (filled by `owns`, emptied when
the kernel shuts down)."""
_sleepers: set[asyncio.Future[None]] = set()
"""The refills sleeping out their delay (`_wait_before`), for `_wake` to cut short."""


class Target(NamedTuple):
    """One thing of Voila's (or jupyter_server's) that a patch or hook relies on:
    `module:attribute`, dotted for a class's method, with the parameters the site passes on
    and the names the function's own code must use."""

    path: str
    params: tuple[str, ...] | None = None
    """None: its parameters are not checked (a class attribute, or called as Voila calls it)."""
    uses: tuple[str, ...] = ()
    """Attributes, globals or string constants the function's code must still mention: what
    the site expects it to read, call or return (e.g. the `wait_before` a refill sleeps in)."""


class Patch(NamedTuple):
    """A change no configuration point of Voila 0.5 allows: what it patches and why."""

    name: str
    targets: tuple[Target, ...]
    why: str
    apply: Callable[[], None]
    tested: str = TESTED_VOILA


class Hook(NamedTuple):
    """A configuration point of Voila the site sets instead of a patch (`settings` sets it):
    the setting, what is lost if it is gone, and what of Voila's the site's class relies on."""

    setting: str
    lost: str
    relies: tuple[Target, ...] = ()
    tested: str = TESTED_VOILA


def _pool_class() -> Any:
    """The class Voila's factory builds for preheated kernels (`site_pool_class` puts
    `SiteKernels` in front of it)."""
    import voila.voila_kernel_manager as vkm
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    factory = vkm.voila_kernel_manager_factory
    stock = getattr(factory, "__wrapped__", factory)  # Voila's own, once `site_kernels` is in
    return stock(AsyncMappingKernelManager, True, 1)


_BUILT: Mapping[str, Callable[[], Any]] = MappingProxyType(
    {
        "voila.voila_kernel_manager:VoilaKernelManager": _pool_class,
    }
)
"""Classes Voila builds at start-up instead of defining them in a module, by the name a
`Target` gives them, and how to build the stock one to check it."""


def resolve(path: str) -> Any:
    """The object at `module:attribute.attribute`; AttributeError or ImportError if gone."""
    module_name, _, attributes = path.partition(":")
    first, *rest = attributes.split(".")
    built = _BUILT.get(f"{module_name}:{first}")
    found: Any = built() if built else getattr(importlib.import_module(module_name), first)
    for name in rest:
        found = getattr(found, name)
    return found


def _mentioned(code: Any) -> Iterator[str]:
    """The names and string constants a function's code (and the code nested in it) uses."""
    yield from code.co_names
    for constant in code.co_consts:
        items = constant if isinstance(constant, tuple) else (constant,)
        for item in items:
            if isinstance(item, str):
                yield item
            elif inspect.iscode(item):
                yield from _mentioned(item)


def target_problem(target: Target) -> str | None:
    """Why this target cannot be relied on any more (None: it is there, as expected)."""
    try:
        found = resolve(target.path)
    except (ImportError, AttributeError):
        return f"{target.path} is gone"
    if target.params is not None:
        try:
            params = tuple(inspect.signature(found).parameters)
        except (TypeError, ValueError):
            return f"{target.path} is no longer a function"
        if params[: len(target.params)] != target.params:
            wanted = ", ".join(target.params)
            return f"{target.path} now takes ({', '.join(params)}), not ({wanted})"
    if target.uses:
        code = getattr(inspect.unwrap(found), "__code__", None)
        if code is None:
            return f"{target.path} is no longer a function"
        missing = [name for name in target.uses if name not in set(_mentioned(code))]
        if missing:
            return f"{target.path} no longer uses {', '.join(missing)}"
    return None


def _log() -> logging.Logger:
    """Voila's own log once the app runs (the settings file is loaded by it), else ours."""
    from traitlets.config import Application

    if Application.initialized():
        return Application.instance().log  # type: ignore[no-any-return]
    return logging.getLogger("penang_site")


def voila_version() -> str:
    """The installed Voila's version, for warnings ("unknown" when it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("voila")
    except PackageNotFoundError:
        return "unknown"


def targets_problems(targets: tuple[Target, ...]) -> list[str]:
    """Why each of `targets` cannot be relied on any more, one sentence per target that has
    changed (`target_problem`); empty when every one is there as expected. `install()` checks
    the patches and hooks with it, and the landing page (`penang_lib.site.app`) what it relies
    on."""
    return [p for t in targets if (p := target_problem(t)) is not None]


def install() -> None:
    """Apply every patch whose targets are still there, and check every hook (idempotent: Voila
    may load the settings file more than once). A patch whose target changed is skipped with a
    warning naming it and the installed Voila, so the site still starts, without that change;
    a hook that Voila no longer offers, or whose class relies on something gone, is named in a
    warning too."""
    import voila.app

    if getattr(voila.app, "_penang_site", False):
        return
    for patch in PATCHES:
        problems = targets_problems(patch.targets)
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
    traits = voila.app.Voila.class_traits()
    for hook in HOOKS:
        problems = targets_problems(hook.relies)
        if hook.setting not in traits:
            problems.insert(0, f"Voila has no setting Voila.{hook.setting}")
        if problems:
            _log().warning(
                "Penang site: hook Voila.%s may not work: %s: %s (installed Voila %s; "
                "tested on voila%s)",
                hook.setting,
                "; ".join(problems),
                hook.lost,
                voila_version(),
                hook.tested,
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


def _is_a(handler: Any, *paths: str) -> bool:
    """Is the handler one of the classes at these paths (of those still there: `install()`
    warns of the others)?"""
    for path in paths:
        with contextlib.suppress(ImportError, AttributeError):
            if isinstance(handler, resolve(path)):
                return True
    return False


_PAGES = ("voila.handler:VoilaHandler", "voila.treehandler:VoilaTreeHandler")
"""Voila's handlers of a page a learner sees: a lesson, the landing page (and the rule sheet,
built on the latter)."""
_SHUTDOWN = "voila.shutdown_kernel_handler:VoilaShutdownKernelHandler"


class SiteIdentityProvider(PasswordIdentityProvider):
    """`Voila.identity_provider_class`: Voila's own identity provider (anonymous learners), and,
    as it names the user of a request:

    - a page (lesson, landing page, rule sheet) sets both cookies: the XSRF cookie, which Voila
      checks when a closed tab asks to shut its kernel down (the stock pages set it only on the
      file tree, so a lesson opened from a link kept its kernel alive until it was culled), and
      the learner cookie `SiteAuthorizer` ties kernels to;
    - the page-close shutdown of a kernel another browser claimed has no user, so it gets 403:
      that handler never asks the authorizer, only whether there is a user.
    """

    async def get_user(self, handler: Any) -> Any:
        user = await ensure_async(super().get_user(handler))
        if user is None:
            return None
        if _is_a(handler, _SHUTDOWN):
            kernel_id = handler.path_args[0] if handler.path_args else None
            return None if _claimed_by_another(handler, kernel_id) else user
        if _is_a(handler, *_PAGES):
            # tornado's xsrf_token asks for the current user: the one found here, already
            handler.current_user = user
            _ = handler.xsrf_token  # reading it sets the cookie when the browser has none
            if _learner(handler) is None:
                handler.set_cookie(
                    LEARNER_COOKIE,
                    secrets.token_urlsafe(24),
                    path=handler.base_url or "/",
                    httponly=True,
                    samesite="Strict",
                )
        return user


def _rule_sheet_handler() -> type[web.RequestHandler]:
    """The handler of the rule sheet: the template's `rules.html`, filled from `rule_sheet`
    (`jinja_template_vars`, set in `settings`). No kernel starts for it; like the landing page
    it sets the cookies (`SiteIdentityProvider`). It is tornado's handler of every address no
    route of Voila's matches, so any address but the rule sheet's gets tornado's plain 404,
    as it did before."""
    import voila.app
    from voila.treehandler import VoilaTreeHandler

    from penang_lib.site.serve import RULES_PAGE, TABLES_PAGE, TOGETHER_PAGE
    from penang_lib.site.tables import TABLES_PATH
    from penang_lib.tables.address import tables_page_path

    class RuleSheetHandler(VoilaTreeHandler):  # type: ignore[misc]
        def initialize(self, **kwargs: Any) -> None:
            app = self.settings[voila.app.Voila.name]
            super().initialize(voila_configuration=app.voila_configuration, **kwargs)

        async def prepare(self) -> None:
            root = self.settings.get("server_url") or "/"
            pages = {url_path_join(root, "/" + p) for p in (RULES_PAGE, TABLES_PAGE)}
            if self.request.path.rstrip("/") not in pages:
                # tornado's plain page (Voila's handlers draw an error page of their own);
                # write_error finishes the answer itself, so it is not finished again here.
                self.set_status(404)
                web.RequestHandler.write_error(self, 404)
                return
            await super().prepare()

        @web.authenticated
        def get(self) -> None:
            if self.request.path.rstrip("/").endswith("/" + TABLES_PAGE):
                self.write(
                    self.render_template(
                        "tables.html",
                        page_title="Open tables",
                        tables_path=TABLES_PATH,
                        tables_socket=tables_page_path() or "",
                        together_page=TOGETHER_PAGE,
                    )
                )
                return
            self.write(self.render_template("rules.html", page_title="Rule sheet"))

    return RuleSheetHandler


def tornado_settings() -> dict[str, Any]:
    """The tornado settings that add the rule sheet page (`settings` puts them in
    `Voila.tornado_settings`); none if what its handler relies on is gone."""
    if targets_problems(RULE_SHEET_RELIES):
        return {}  # install() names the problem in the log
    return {"default_handler_class": _rule_sheet_handler(), "default_handler_args": {}}


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
    from the environment `penang_lib.site.serve.voila_env` writes) and `CLASS_SPARE` more for
    the class's lessons."""
    from penang_lib.site.serve import CLASS_ENV, CLASS_LESSONS_ENV, CLASS_SPARE

    sizes = {"default": default_size}
    size = os.environ.get(CLASS_ENV, "")
    if size.isdigit() and int(size) > 0:
        for lesson in os.environ.get(CLASS_LESSONS_ENV, "").split(","):
            if lesson:
                sizes[lesson] = int(size) + CLASS_SPARE
    return sizes


def _request_info() -> Any:
    """Voila's handler of the page's query string, which keeps per kernel whether its page is
    waiting (`_waiters`) and what the page sent (`_cache`); imported when first needed, like
    the rest of Voila in this module."""
    from voila.request_info_handler import RequestInfoSocketHandler

    return RequestInfoSocketHandler


_StockPools: Any = HasTraits
"""The base `SiteKernels` names in code: traitlets' own, so that its `@default` registers. The
stock pool class comes after it in the class `site_pool_class` makes; typed `Any` because the
methods reached through `super()` are that class's, which exists only once Voila starts."""


class SiteKernels(_StockPools):  # type: ignore[misc]
    """Voila's kernel pools, made safe to hand out to a class (see the module's docstring).

    Voila builds its pool class at start-up, inside `voila_kernel_manager_factory`, so this
    class cannot name it as its base: it is the site's half, and `site_pool_class` puts the
    two together (this class first, so that its methods override the stock ones and `super()`
    reaches them). Each stock method it overrides, calls or reads is a target of the
    `site_kernels` patch (`POOL_TARGETS`), which `install()` checks before it applies it.
    """

    usual_pool_size: int = 1
    """Kernels kept ready per lesson (`serve --pool`); `site_pool_class` sets it."""

    @default("kernel_pools_config")
    def _site_pools(self) -> dict[str, Any]:
        env = self.default_env_variables
        return {
            name: {"pool_size": size, "kernel_env_variables": env}
            for name, size in class_pools(max(self.usual_pool_size, 0)).items()
        }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # starts every pool at its size
        # A class's kernels are a reserve for the class's arrival: once used, its
        # lessons are kept at the usual size. Refilling thirty kernels while thirty
        # learners click would slow every click for minutes.
        usual = max(self.usual_pool_size, 0)
        env = self.default_env_variables
        self.kernel_pools_config = {"default": {"pool_size": usual, "kernel_env_variables": env}}

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
            # With no kernels kept ready (`--pool 0`, as on a Hub) the site is ready at
            # once: each page starts its own kernel. Said once, like a filled pool.
            now_ready = ready == total
            if now_ready and not was_ready:
                if total:
                    self.log.info("Penang site ready: %d kernel(s) have run their lessons", ready)
                else:
                    self.log.info(
                        "Penang site ready: no kernels are kept ready (pool size 0), "
                        "each lesson page starts its own"
                    )
            elif not now_ready and time.monotonic() - last > 10:
                self.log.info("Penang site starting: %d of %d kernels ready", ready, total)
                last = time.monotonic()
            was_ready = now_ready

    def _is_ready(self, content: dict[str, Any]) -> bool:
        render: asyncio.Task[Any] = content["task"]
        return render.done() or content["kernel_id"] in _request_info()._waiters

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
        _request_info()._cache.pop(kernel_id, None)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)


def site_pool_class(stock: Any, default_pool_size: int) -> Any:
    """The class Voila's factory built for preheated kernels (`stock`) with the site's changes
    (`SiteKernels`) in front of it, keeping `default_pool_size` kernels ready per lesson."""
    namespace = {"usual_pool_size": default_pool_size, "__module__": __name__}
    return type(stock)("SiteKernels", (SiteKernels, stock), namespace)


def _site_kernels() -> None:
    """Voila's factory of kernel pools returns `SiteKernels` when kernels are preheated."""
    import voila.app
    import voila.voila_kernel_manager as vkm

    vkm.wait_before = _wait_before
    factory = vkm.voila_kernel_manager_factory

    def site_factory(
        base_class: Any, preheat_kernel: bool, default_pool_size: int, **kwargs: Any
    ) -> Any:
        stock = factory(base_class, preheat_kernel, default_pool_size, **kwargs)
        return site_pool_class(stock, default_pool_size) if preheat_kernel else stock

    site_factory.__wrapped__ = factory  # type: ignore[attr-defined]
    vkm.voila_kernel_manager_factory = site_factory
    voila.app.voila_kernel_manager_factory = site_factory


_POOLS = "voila.voila_kernel_manager"
_POOL = f"{_POOLS}:VoilaKernelManager"
_FACTORY_PARAMS = ("base_class", "preheat_kernel", "default_pool_size")

POOL_TARGETS: tuple[Target, ...] = (
    Target(f"{_POOLS}:voila_kernel_manager_factory", _FACTORY_PARAMS),
    Target("voila.app:voila_kernel_manager_factory", _FACTORY_PARAMS),
    Target(f"{_POOLS}:wait_before", ("delay", "aw")),
    # What SiteKernels overrides: the same parameters, and what the stock code does that it
    # builds on (__init__ fills the pools; a refill sleeps in wait_before, then runs _initialize,
    # which returns the task, renderer and kernel id that get_rendered_notebook hands out).
    Target(f"{_POOL}.kernel_pools_config"),
    Target(f"{_POOL}.__init__", ("self",), ("_pools", "fill_if_needed")),
    Target(
        f"{_POOL}.fill_if_needed",
        ("self", "delay", "notebook_name", "extra_kernel_env_variables"),
        ("wait_before", "_initialize", "kernel_pools_config", "_pools"),
    ),
    Target(
        f"{_POOL}._initialize",
        ("self", "notebook_path", "kernel_id"),
        ("task", "renderer", "kernel_id"),
    ),
    Target(
        f"{_POOL}.get_rendered_notebook",
        ("self", "notebook_name", "extra_kernel_env_variables"),
        ("_pools", "stop_generator", "rendered_cache"),
    ),
    Target(f"{_POOL}.shutdown_kernel", ("self", "kernel_id")),
    # What SiteKernels only reads or calls.
    Target(f"{_POOL}.default_env_variables"),
    Target(f"{_POOL}.fill_delay"),
    Target(f"{_POOL}.get_kernel", ("self", "kernel_id")),
    Target(f"{_POOL}.list_kernel_ids", ("self",)),
    Target(f"{_POOL}.__contains__", ("self", "kernel_id")),
    Target("voila.request_info_handler:RequestInfoSocketHandler._waiters"),
    Target("voila.request_info_handler:RequestInfoSocketHandler._cache"),
)
"""Everything of Voila's kernel pools the `site_kernels` patch overrides, calls or reads."""

PATCHES: tuple[Patch, ...] = (
    Patch(
        "site_kernels",
        POOL_TARGETS,
        "VoilaConfiguration.multi_kernel_manager_class is the base of the class Voila's "
        "factory builds, not that class: the pool methods changed here (get_rendered_notebook, "
        "fill_if_needed, _initialize, shutdown_kernel) are defined on the subclass the factory "
        "makes of it and would override ours; Voila 0.5 has no Voila.kernel_manager_class.",
        _site_kernels,
    ),
)
"""Every patch of the site, in the order `install()` applies them."""

RULE_SHEET_RELIES: tuple[Target, ...] = (
    Target("voila.treehandler:VoilaTreeHandler.render_template", ("self", "name")),
    Target("voila.treehandler:VoilaTreeHandler.initialize", ("self",)),
    Target("voila.app:Voila.name"),
)
"""What the rule sheet's handler builds on: the landing page's handler (its template and
cookies) and the Voila app that tornado's settings hold under Voila's name."""

HOOKS: tuple[Hook, ...] = (
    Hook(
        "kernel_websocket_connection_class",
        "pages may get tracebacks, and clicks wait 40 ms",
        (Target("voila.tornado.kernel_websocket_handler:read_header_from_binary_message"),),
    ),
    Hook("authorizer_class", "any browser that knows a kernel's id may use it"),
    Hook(
        "identity_provider_class",
        "a lesson opened from a link keeps its kernel after its tab is closed, kernels are "
        "not tied to a browser, and any browser may shut down another's kernel",
        (
            *(Target(path) for path in _PAGES),
            Target(f"{_SHUTDOWN}.post", ("self", "kernel_id")),
        ),
    ),
    Hook("tornado_settings", "there is no rule sheet page", RULE_SHEET_RELIES),
)
"""The configuration points of Voila the site uses instead of patches (`settings` sets them),
what is lost if one is gone, and what the site's class for it relies on."""
