"""Links to a lesson page: what a page's query string asks for, read in one place.

A lesson page of the tutorial site opens where its address says:

- `07_whole_deal.ipynb?seed=5&step=12` (also `players` and `bots`): the stepper on that deal at
  that step (`read_link`, which `step_address` writes);
- `08_play.ipynb?review=CODE` (perhaps `&step=K`): the review of a finished deal
  (`review_code`, `review_step`; the code itself is `penang_lib.course.review.codec`'s);
- `11_puzzles.ipynb?puzzle=lay-off-0012`: that puzzle (`linked_puzzle_id`).

Every one of them splits the query string with `parse_query`, reads a number with `whole` and
bounds a seed with `MAX_SEED`, the engine's own bound: a link names only a seed the engine can
deal. What a deal link cannot use (letters for a number, a seed out of range, an unknown bot, an
unknown key) is left out, the default used instead, and one sentence says what was ignored
(`ignored_note`). Reading Voila's request and showing the result is the widgets' part
(`penang_lib.widgets.links`): nothing here needs ipywidgets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import parse_qsl

from penang_lib.engine.bots import bot_names
from penang_lib.engine.validate import (
    MAX_SEED,
    ArgumentTypeError,
    cut,
    require_text,
    require_whole,
    shown,
)
from penang_lib.i18n import _, ngettext

__all__ = [
    "DEAL_KEYS",
    "KEYS",
    "MAX_NOTED",
    "MAX_QUERY",
    "MAX_REVIEW_QUERY",
    "MAX_SEED",
    "PAGE",
    "PUZZLE_KEY",
    "REVIEW_KEY",
    "REVIEW_PAGE",
    "DealLink",
    "ignored_note",
    "linked_puzzle_id",
    "parse_query",
    "read_link",
    "review_code",
    "review_step",
    "step_address",
    "usable_step",
    "whole",
]

DEAL_KEYS: Final = ("seed", "step", "players", "bots")
"""The keys a deal link reads (`read_link`); any other key is said to be ignored."""
KEYS: Final = DEAL_KEYS
"""The former name of `DEAL_KEYS`."""
REVIEW_KEY: Final = "review"
"""The query key of a review link: `08_play.ipynb?review=CODE`."""
REVIEW_PAGE: Final = "08_play.ipynb"
"""The lesson page that opens a review from its link."""
PUZZLE_KEY: Final = "puzzle"
"""The query key of a puzzle link: `11_puzzles.ipynb?puzzle=lay-off-0012`."""
MAX_NOTED: Final = 5
"""How many ignored parts of a link the note names (the rest are counted)."""
PAGE: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,79}\.ipynb")
"""What a lesson page's file name looks like: a plain name ending in .ipynb, no folders."""
MAX_QUERY: Final = 4096
"""A query string longer than this is read only that far (a real link is far shorter)."""
MAX_REVIEW_QUERY: Final = 16_000
"""How far a review page reads its query string: twice the longest code it reads at all
(`codec.MAX_CODE`), so that a code too long is refused as such, not as one cut short."""
MAX_DIGITS: Final = 20
"""The most digits a number of a link may have (2**63 - 1 has 19)."""


def parse_query(query: str, limit: int = MAX_QUERY) -> list[tuple[str, str]]:
    """The (key, value) pairs of a page's query string, in order, blanks kept, read to its
    first `limit` characters (a leading "?" is allowed). Every page's link is split here."""
    if not isinstance(query, str):
        raise ArgumentTypeError(
            f"a link's query should be text such as 'seed=5' or 'puzzle=...', not {shown(query)}"
        )
    limit = require_whole(limit, "limit", 1)
    return parse_qsl(query[:limit].lstrip("?"), keep_blank_values=True)


def whole(text: str) -> int | None:
    """A whole number written in plain digits 0-9 (no sign, no other script's digits, at most
    `MAX_DIGITS` of them), or None."""
    if not text or len(text) > MAX_DIGITS or not all("0" <= ch <= "9" for ch in text):
        return None
    return int(text)


# -- a deal at a step (lesson 7) ------------------------------------------------------------------
@dataclass(frozen=True)
class DealLink:
    """What a link asks for, after checking: every field is usable; `ignored` says what was not."""

    seed: int
    players: int
    bots: tuple[str, ...]
    step: int | None = None
    ignored: tuple[str, ...] = field(default=())


def read_link(query: str, seed: int = 5, players: int = 4, bots: str = "careful") -> DealLink:
    """The deal a query string asks for, defaults filling whatever it does not give usably."""
    pairs = parse_query(query)
    seed = require_whole(seed, "seed", 0, MAX_SEED)
    players = require_whole(players, "players", 2, 5)
    bot_names(bots, players)  # the defaults themselves must be usable
    ignored: list[str] = []
    values: dict[str, str] = {}
    if len(query) > MAX_QUERY:
        ignored.append(_("everything after the first {count} characters").format(count=MAX_QUERY))
    for key, value in pairs:
        if key not in DEAL_KEYS:
            ignored.append(_("the unknown setting {key}").format(key=repr(cut(key, 24))))
        elif key in values:
            ignored.append(_("a second {key}").format(key=key))
        else:
            values[key] = value
    chosen_seed = seed
    if "seed" in values:
        number = whole(values["seed"])
        if number is None or number > MAX_SEED:
            ignored.append(
                _("the seed {seed} (a whole number up to {most})").format(
                    seed=repr(values["seed"][:24]), most=MAX_SEED
                )
            )
        else:
            chosen_seed = number
    chosen_players = players
    if "players" in values:
        number = whole(values["players"])
        if number is None or not 2 <= number <= 5:
            ignored.append(
                _("players={players} (Penang Rummy takes 2 to 5)").format(
                    players=repr(values["players"][:12])
                )
            )
        else:
            chosen_players = number
    try:
        chosen_bots = bot_names(values.get("bots", bots), chosen_players)
    except ValueError as error:
        ignored.append(
            _("the bots {bots} ({error})").format(bots=repr(cut(values["bots"], 40)), error=error)
        )
        chosen_bots = bot_names(bots, chosen_players)
    step = None
    if "step" in values:
        step = whole(values["step"])
        if step is None:
            ignored.append(
                _("the step {step} (a whole number from 0)").format(step=repr(values["step"][:24]))
            )
    return DealLink(chosen_seed, chosen_players, chosen_bots, step, tuple(ignored))


def usable_step(link: DealLink, steps: int) -> tuple[int | None, list[str]]:
    """The step of `link` on the deal it opens, which has steps 0 to `steps` (None: the link
    names none, or one past the end), and what of the link was ignored, such a step included."""
    steps = require_whole(steps, "steps", 0)
    ignored = list(link.ignored)
    if link.step is not None and link.step > steps:
        ignored.append(
            _("step {step} (this deal has steps 0 to {last})").format(step=link.step, last=steps)
        )
        return None, ignored
    return link.step, ignored


def ignored_note(ignored: list[str]) -> str:
    """The one sentence saying what of a link was ignored (the first few named, the rest
    counted, each named once)."""
    parts = list(dict.fromkeys(ignored))
    named = "; ".join(parts[:MAX_NOTED])
    more = len(parts) - MAX_NOTED
    if more > 0:
        return ngettext(
            "From the link, these were ignored and the defaults used instead: {ignored}; and "
            "{count} more.",
            "From the link, these were ignored and the defaults used instead: {ignored}; and "
            "{count} more.",
            more,
        ).format(ignored=named, count=more)
    return _("From the link, these were ignored and the defaults used instead: {ignored}.").format(
        ignored=named
    )


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


# -- a review (lesson 8) ---------------------------------------------------------------------------
def review_code(query: str) -> str | None:
    """The review code a page's query string carries (`review=CODE`), or None when it has none.
    A query that names `review` twice or leaves it empty gives "" (a link that is no code)."""
    values = [v for k, v in parse_query(query, MAX_REVIEW_QUERY) if k == REVIEW_KEY]
    if not values:
        return None
    return values[0] if len(values) == 1 else ""


def review_step(query: str) -> int | None:
    """The step a review link asks to open at (`&step=K`, once, whole digits), or None."""
    values = [v for k, v in parse_query(query, MAX_REVIEW_QUERY) if k == "step"]
    return whole(values[0]) if len(values) == 1 else None


# -- a puzzle (lesson 11) --------------------------------------------------------------------------
def linked_puzzle_id(query: str) -> str | None:
    """The puzzle id a page's query string asks for (its first `puzzle=`), or None when it
    names none. Other settings are no concern of the puzzle page."""
    for key, value in parse_query(query):
        if key == PUZZLE_KEY:
            return value
    return None
