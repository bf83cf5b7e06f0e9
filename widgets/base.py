"""What every widget of the kit shares: one root box shown by `display`, the stylesheet, and a
guard around each callback so an unexpected error becomes one short sentence, never a traceback.

Every widget class keeps its ipywidgets tree in `root` (a `VBox` with class `penang-kit`) and
delegates `_repr_mimebundle_` to it, so `display(w)` and a bare last expression both show it.
The tree is built once; a step changes values, never children. Layouts and styles are shared
by every widget with the same settings and never change (`penang_lib.widgets.shared`): a widget
appears and
disappears with `show`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as widgets
import traitlets

from penang_lib.engine.validate import require_flag
from penang_lib.i18n import N_, _
from penang_lib.widgets.render import FOUR_COLOUR, esc
from penang_lib.widgets.shared import part, show, stylesheet

log = logging.getLogger("widgets")

OOPS = N_("Something went wrong on our side; nothing was changed. Try again, or start a new deal.")
"""What a learner reads when a callback fails unexpectedly (the details go to the log)."""

F = TypeVar("F", bound=Callable[..., Any])


class KitWidget(traitlets.HasTraits):
    """The base of every widget: `root` is the box on screen, `report` shows a failure.

    Subclasses build their children, then call `_finish(children, hook_class)`. A widget's
    state that a Python user would link or observe is a traitlet of the widget itself (as on
    any ipywidget: `ipywidgets.link`, `.observe`); these traits are not synced to the browser,
    so one may hold what a learner must not see.
    """

    root: widgets.VBox
    _trouble: widgets.HTML

    def __init__(self, four_colour: bool = False) -> None:
        super().__init__()
        self.four_colour = require_flag(four_colour, "four_colour")
        self._trouble = part(widgets.HTML, "")
        self._trouble.add_class("penang-trouble")
        show(self._trouble, False)

    def _finish(self, children: list[widgets.Widget], hook: str) -> None:
        self.root = part(widgets.VBox, [stylesheet(), *children, self._trouble])
        self.root.add_class("penang-kit")
        self.root.add_class(hook)
        if self.four_colour:
            self.root.add_class(FOUR_COLOUR)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: display() it in a notebook to use it>"

    def report(self, sentence: str) -> None:
        """Show a short sentence about a failure of ours (not a rule: the engine speaks those)."""
        sentence = str(sentence)
        with self._trouble.hold_sync():
            self._trouble.value = f"<p>{esc(sentence)}</p>"
            show(self._trouble, bool(sentence))

    def walk(self) -> list[widgets.Widget]:
        """Every widget in this one's tree (for tests that look at what the browser could see)."""
        seen: list[widgets.Widget] = []
        stack: list[widgets.Widget] = [self.root]
        while stack:
            w = stack.pop()
            if any(w is s for s in seen):
                continue
            seen.append(w)
            stack.extend(getattr(w, "children", ()))
            for name in ("layout", "style"):
                sub = getattr(w, name, None)
                if isinstance(sub, widgets.Widget):
                    stack.append(sub)
        return seen


SEND_WAIT_S = 0.01
"""How long `send_now` waits at most for the output thread (seconds)."""


def send_now() -> None:
    """Let the kernel's output thread send the widget updates made so far before going on.

    In a kernel, each update is handed to a thread of its own that sends it to the browser; while
    this thread keeps computing, that one may wait up to Python's thread switch interval (5 ms)
    for its turn. A widget that sends what the learner reads first, and then draws the rest, calls
    this in between. Outside a kernel (tests, a plain interpreter) it does nothing.
    """
    thread = getattr(getattr(_kernel(), "iopub_socket", None), "io_thread", None)
    schedule = getattr(thread, "schedule", None)
    if schedule is None:
        return
    sent = threading.Event()
    schedule(sent.set)  # runs after every send queued before it
    sent.wait(SEND_WAIT_S)


def _kernel() -> Any:
    """The IPython kernel this code runs in, or None (tests, a plain interpreter)."""
    from IPython import get_ipython

    return getattr(get_ipython(), "kernel", None)


def later(delay: float, callback: Callable[[], object]) -> asyncio.TimerHandle | None:
    """In a kernel, run `callback` in `delay` seconds on its event loop, leaving the kernel free
    meanwhile, and return the handle that can cancel it. Elsewhere (tests, a plain script, where
    an event loop may not be the one that runs next), run it at once and return None."""
    if _kernel() is not None:
        try:
            return asyncio.get_running_loop().call_later(delay, callback)
        except RuntimeError:  # a kernel's callback always runs in its loop; just in case
            pass
    callback()
    return None


def guarded(method: F) -> F:
    """Wrap a callback: an unexpected error is logged and shown as one sentence in the widget,
    and the callback returns None (ipywidgets would otherwise only print the traceback)."""

    @functools.wraps(method)
    def wrapper(self: KitWidget, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception:
            log.exception("%s.%s failed", type(self).__name__, method.__name__)
            self.report(_(OOPS))
            return None

    return wrapper  # type: ignore[return-value]
