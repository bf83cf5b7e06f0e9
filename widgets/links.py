"""Deep links in the widgets: this page's query string, read from Voila (`query_string`), and
what a link asks for, shown (`apply_link`: a page address such as
`07_whole_deal.ipynb?seed=5&step=12` opens the stepper on that deal at that step).

What a link asks for is decided in `penang_lib.course.links` (`read_link`, `step_address`, the
bounds, the sentence of what was ignored); the names are imported here as before.

The query string is read the way `voila.utils.get_query_string()` reads it, which works both when
the kernel starts on request and when it was preheated before the request came (see
`query_string`).

Such an address opens a page of the tutorial site (Voila), and nowhere else: in JupyterLab a
click on it would load JupyterLab again, without the outputs of the open lessons. So every
link a widget draws to a page of the site goes through `page_link`, which draws it only where
the page is the site's (`on_site`) and, anywhere else, shows the address and says in place that
it opens in the tutorial site, which `penang-rummy serve` starts.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from html import escape
from typing import TYPE_CHECKING, Final

from penang_lib.course.links import (
    KEYS,
    MAX_NOTED,
    MAX_QUERY,
    MAX_SEED,
    PAGE,
    DealLink,
    ignored_note,
    read_link,
    step_address,
    usable_step,
)
from penang_lib.engine.bots import bot_names
from penang_lib.engine.validate import cut, require_text
from penang_lib.i18n import N_, _

if TYPE_CHECKING:  # imported where used: the stepper draws its links with `page_link`
    from penang_lib.widgets.stepper import DealStepper

__all__ = [
    "KEYS",
    "MAX_NOTED",
    "MAX_QUERY",
    "MAX_SEED",
    "OFF_SITE",
    "OFF_SITE_MESSAGE",
    "OFF_SITE_NOTE",
    "OFF_SITE_NOTE_MESSAGE",
    "PAGE",
    "SERVE",
    "SITE_ENV",
    "DealLink",
    "apply_link",
    "ignored_note",
    "off_site_html",
    "on_site",
    "page_link",
    "query_string",
    "read_link",
    "step_address",
]


SITE_ENV: Final = ("VOILA_BASE_URL", "VOILA_SERVER_URL")
"""What Voila puts in the environment of every kernel it starts, preheated or started for one
request (its kernel manager and its page handler both set them): the site's own address."""
SERVE: Final = "penang-rummy serve"  # not for learners: a command, the same in every language
OFF_SITE_MESSAGE: Final = N_("it opens in the tutorial site, which {command} starts, not here")
"""What a widget says beside the address of a page of the site when its page is not the site's
(`page_link`); `{command}` is `SERVE`."""
OFF_SITE: Final = OFF_SITE_MESSAGE.format(command=SERVE)
"""`OFF_SITE_MESSAGE` in English, as a learner reads it."""
OFF_SITE_NOTE_MESSAGE: Final = N_(
    "In the tutorial site, which {command} starts, each step below is a link that opens this "
    "page at that step; here, move the stepper to that step instead."
)
"""The sentence above a list of such links outside the site (`penang_lib.widgets.course_text`);
`{command}` is `SERVE`."""
OFF_SITE_NOTE: Final = OFF_SITE_NOTE_MESSAGE.format(command=SERVE)
"""`OFF_SITE_NOTE_MESSAGE` in English, as a learner reads it."""


def on_site() -> bool:
    """Whether a link to a lesson page (`07_whole_deal.ipynb?seed=5&step=12`) opens that page
    here: under Voila, the tutorial site, yes (`SITE_ENV` is set); in a kernel of JupyterLab,
    Jupyter Notebook or any other front end without Voila, no (there it would load the whole
    application again); outside any kernel (a script or a test, where the HTML is only read),
    the site's links are drawn."""
    if any(os.environ.get(name) for name in SITE_ENV):
        return True
    return not _in_kernel()


def _in_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def page_link(address: str, text: str | None = None, title: str = "") -> str:
    """HTML of a link to a page of the tutorial site (`address`, relative to the lesson, such
    as `08_play.ipynb?review=...`): `text` (default: the address, cut short) in an `<a>`, with
    `title` as its tooltip. Outside the site (`on_site`), no link: the text, the address and
    `OFF_SITE`, so that a click cannot load JupyterLab again."""
    address = require_text(address, "address")
    shown_text = cut(address, 40) if text is None else require_text(text, "text")
    if on_site():
        tip = f' title="{escape(title)}"' if title else ""
        return f'<a href="{escape(address)}"{tip}>{escape(shown_text)}</a>'
    said = "" if text is None else f"{escape(shown_text)}: "
    return (
        f'<span class="penang-site-only">{said}<code>{escape(address)}</code> '
        f"({off_site_html(OFF_SITE_MESSAGE)})</span>"
    )


def off_site_html(message: str) -> str:
    """`OFF_SITE_MESSAGE` or `OFF_SITE_NOTE_MESSAGE` in the learner's language, as HTML:
    escaped, the command (`SERVE`) filled in as code."""
    return escape(_(message)).format(command=f"<code>{escape(SERVE)}</code>")


REQUEST_TIMEOUT = 5.0
"""Seconds a preheated kernel waits to reach Voila's request-info socket (as Voila's own helper)."""


def query_string() -> str:
    """This page's query string under Voila ("" in a plain notebook or a test).

    A kernel started on request finds it in its environment. A preheated kernel ran the lesson
    before any request: it waits for the request's details on Voila's socket for them,
    `ws://VOILA_APP_IP:VOILA_APP_PORT{VOILA_WS_BASE_URL}voila/query/VOILA_KERNEL_ID`, as
    `voila.utils.wait_for_request` does, and puts them in its environment. Importing
    `voila.utils` for that would load the Jupyter server into every such kernel (about 47 MB):
    only the `websockets` client is loaded here."""
    if os.environ.get("VOILA_PREHEAT", "False") != "False":
        try:
            os.environ.update(_request_info())
        except Exception:  # no request to read after all: the defaults apply
            return ""
    return os.environ.get("QUERY_STRING", "")


def _request_info() -> dict[str, str]:
    """The details of the request that took this preheated kernel (its CGI-style variables)."""
    env = os.environ
    server_url = env.get("VOILA_SERVER_URL", "/")
    base = env.get("VOILA_WS_BASE_URL", server_url)
    url = (
        f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:"
        f"{env.get('VOILA_APP_PORT', '8866')}{base}voila/query/{env.get('VOILA_KERNEL_ID')}"
    )
    found: dict[str, str] = {}

    async def receive() -> None:
        import websockets  # only where a preheated kernel needs it

        async with websockets.connect(url, open_timeout=REQUEST_TIMEOUT) as socket:
            message = await socket.recv()
        info = json.loads(message)
        found.update({str(k): str(v) for k, v in info.items()})

    # The kernel's own event loop is running: the wait gets a loop of its own, in a thread.
    worker = threading.Thread(target=lambda: asyncio.run(receive()))
    worker.start()
    worker.join()
    return found


def apply_link(
    stepper: DealStepper,
    query: str | None = None,
    page: str = "07_whole_deal.ipynb",
    seed: int = 5,
    players: int = 4,
    bots: str = "careful",
) -> DealLink:
    """Show the deal and step the page's link asks for in `stepper`, which shows the default
    deal (`seed`, `players`, `bots`); say in one sentence what of the link was ignored.

    A lesson builds its stepper on the default deal, then calls this in its last cell: with
    preheated kernels everything before it is ready when the learner arrives, and only this
    waits for the request (`query` None: read it from Voila)."""
    from penang_lib.widgets.stepper import seeded_deal

    link = read_link(query_string() if query is None else query, seed, players, bots)
    if (link.seed, link.players, link.bots) != (seed, players, bot_names(bots, players)):
        deal, whys, address = seeded_deal(link.seed, link.players, list(link.bots), page=page)
        stepper.show_deal(deal, whys, 0, address)
    step, ignored = usable_step(link, stepper.steps)
    if step is not None:
        stepper.step = step
    if ignored:
        stepper.show_note(ignored_note(ignored))
    return link
