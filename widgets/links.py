"""Deep links: a page address such as `07_whole_deal.ipynb?seed=5&step=12` opens the stepper on
that deal at that step (also `players` and `bots`).

The query string is read the way `voila.utils.get_query_string()` reads it, which works both when
the kernel starts on request and when it was preheated before the request came (see
`query_string`). Anything that cannot be
used (letters for a number, a step past the end, a seed out of range, an unknown bot, an unknown
key) is left out, the default is used instead, and one sentence says what was ignored.

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
import re
import threading
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Final
from urllib.parse import parse_qsl

from penang_lib.engine.bots import bot_names
from penang_lib.engine.validate import (
    ArgumentTypeError,
    cut,
    require_text,
    require_whole,
    shown,
)

if TYPE_CHECKING:  # imported where used: the stepper draws its links with `page_link`
    from penang_lib.widgets.stepper import DealStepper

MAX_SEED = 2**32 - 1
"""The largest seed a link may name (the engine draws its own seeds below 2**32)."""
KEYS = ("seed", "step", "players", "bots")
MAX_NOTED = 5
"""How many ignored parts of a link the note names (the rest are counted)."""
PAGE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,79}\.ipynb")
"""What a lesson page's file name looks like: a plain name ending in .ipynb, no folders."""
MAX_QUERY = 4096
"""A query string longer than this is read only that far (a real link is far shorter)."""


@dataclass(frozen=True)
class DealLink:
    """What a link asks for, after checking: every field is usable; `ignored` says what was not."""

    seed: int
    players: int
    bots: tuple[str, ...]
    step: int | None = None
    ignored: tuple[str, ...] = field(default=())


SITE_ENV: Final = ("VOILA_BASE_URL", "VOILA_SERVER_URL")
"""What Voila puts in the environment of every kernel it starts, preheated or started for one
request (its kernel manager and its page handler both set them): the site's own address."""
SERVE: Final = "penang-rummy serve"
OFF_SITE: Final = f"it opens in the tutorial site, which {SERVE} starts, not here"
"""What a widget says beside the address of a page of the site when its page is not the site's
(`page_link`)."""
OFF_SITE_NOTE: Final = (
    f"In the tutorial site, which {SERVE} starts, each step below is a link that opens this "
    "page at that step; here, move the stepper to that step instead."
)
"""The sentence above a list of such links outside the site (`penang_lib.widgets.course_text`)."""


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
        f"({off_site_html(OFF_SITE)})</span>"
    )


def off_site_html(sentence: str) -> str:
    """`OFF_SITE` or `OFF_SITE_NOTE` as HTML: escaped, the command as code."""
    return escape(sentence).replace(SERVE, f"<code>{SERVE}</code>")


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


def _whole(text: str) -> int | None:
    """A whole number written in plain digits 0-9 (no sign, no other script's digits)."""
    if not text or len(text) > 20 or not all("0" <= ch <= "9" for ch in text):
        return None
    return int(text)


def read_link(query: str, seed: int = 5, players: int = 4, bots: str = "careful") -> DealLink:
    """The deal a query string asks for, defaults filling whatever it does not give usably."""
    if not isinstance(query, str):
        raise ArgumentTypeError(
            f"a link's query should be text such as 'seed=5', not {shown(query)}"
        )
    seed = require_whole(seed, "seed", 0, MAX_SEED)
    players = require_whole(players, "players", 2, 5)
    bot_names(bots, players)  # the defaults themselves must be usable
    ignored: list[str] = []
    values: dict[str, str] = {}
    if len(query) > MAX_QUERY:
        ignored.append(f"everything after the first {MAX_QUERY} characters")
        query = query[:MAX_QUERY]
    for key, value in parse_qsl(query.lstrip("?"), keep_blank_values=True):
        if key not in KEYS:
            ignored.append(f"the unknown setting {cut(key, 24)!r}")
        elif key in values:
            ignored.append(f"a second {key}")
        else:
            values[key] = value
    chosen_seed = seed
    if "seed" in values:
        number = _whole(values["seed"])
        if number is None or number > MAX_SEED:
            ignored.append(f"the seed {values['seed'][:24]!r} (a whole number up to {MAX_SEED})")
        else:
            chosen_seed = number
    chosen_players = players
    if "players" in values:
        number = _whole(values["players"])
        if number is None or not 2 <= number <= 5:
            ignored.append(f"players={values['players'][:12]!r} (Penang Rummy takes 2 to 5)")
        else:
            chosen_players = number
    try:
        chosen_bots = bot_names(values.get("bots", bots), chosen_players)
    except ValueError as error:
        ignored.append(f"the bots {cut(values['bots'], 40)!r} ({error})")
        chosen_bots = bot_names(bots, chosen_players)
    step = None
    if "step" in values:
        step = _whole(values["step"])
        if step is None:
            ignored.append(f"the step {values['step'][:24]!r} (a whole number from 0)")
    return DealLink(chosen_seed, chosen_players, chosen_bots, step, tuple(ignored))


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
    ignored = list(link.ignored)
    if (link.seed, link.players, link.bots) != (seed, players, bot_names(bots, players)):
        deal, whys, address = seeded_deal(link.seed, link.players, list(link.bots), page=page)
        stepper.show_deal(deal, whys, 0, address)
    if link.step is not None:
        if link.step > stepper.steps:
            ignored.append(f"step {link.step} (this deal has steps 0 to {stepper.steps})")
        else:
            stepper.step = link.step
    if ignored:
        stepper.show_note(ignored_note(ignored))
    return link


def ignored_note(ignored: list[str]) -> str:
    """The one sentence saying what of a link was ignored (the first few named, the rest
    counted, each named once)."""
    parts = list(dict.fromkeys(ignored))
    named = "; ".join(parts[:MAX_NOTED])
    if len(parts) > MAX_NOTED:
        named += f"; and {len(parts) - MAX_NOTED} more"
    return f"From the link, these were ignored and the defaults used instead: {named}."


def step_address(page: str, seed: int, step: int) -> str:
    """The address of a lesson page that opens the deal of `seed` at `step`, such as
    `07_whole_deal.ipynb?seed=5&step=12` (the page's default players and bots play it);
    `read_link` reads it back."""
    page = require_text(page, "page")
    if not PAGE.fullmatch(page):
        raise ValueError(
            f"{cut(page)!r} is not a lesson page's file name (such as 07_whole_deal.ipynb)"
        )
    seed = require_whole(seed, "seed", 0, MAX_SEED)
    step = require_whole(step, "step", 0)
    return f"{page}?seed={seed}&step={step}"


def stepper_from_link(
    query: str | None = None,
    page: str = "07_whole_deal.ipynb",
    seed: int = 5,
    players: int = 4,
    bots: str = "careful",
) -> DealStepper:
    """A `DealStepper` on the deal the page's link asks for (`query`: the query string, read from
    Voila when None), showing the link of its current step and what of the link was ignored."""
    from penang_lib.widgets.stepper import DealStepper

    stepper = DealStepper.from_seed(seed, players, bots, page=page)
    apply_link(stepper, query, page, seed, players, bots)
    return stepper
