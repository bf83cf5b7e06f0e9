"""The link that opens a review again: `08_play.ipynb?review=CODE`.

The code (`encode` / `decode`) is the deal as a small JSON object (seed, players, the learner's
seat, the bots, the dealer, the names when they are not the default ones, the rules when they are
not the rule book's, the hands of a prepared deal, the other seats that people played at a
table played together, and the moves), compressed with zlib and
written in URL-safe base64. Decoding replays every move through the engine
(`record.from_record`), so a code that was cut short or changed is refused with one sentence
(`ReviewLinkError`), never half-read. A finished deal only: before the end, the seed in the code
would tell every hidden hand. The page's query string is read by `penang_lib.course.links`.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from penang_lib.course.links import REVIEW_KEY, REVIEW_PAGE
from penang_lib.course.review.turns import deal_and_seat
from penang_lib.engine.bots import bot_names
from penang_lib.engine.cards import CardParseError, cards_of, cards_text
from penang_lib.engine.deal import DEFAULT_NAMES, Deal
from penang_lib.engine.moves import move_to_dict, parse_move
from penang_lib.engine.record import FORMAT, VERSION, RecordError, from_record
from penang_lib.engine.rules import Rules
from penang_lib.engine.validate import ArgumentTypeError, require_text, shown
from penang_lib.i18n import N_, _

__all__ = [
    "CODE_VERSION",
    "MAX_CODE",
    "MAX_JSON",
    "MAX_LINK",
    "Linked",
    "ReviewLinkError",
    "decode",
    "encode",
    "link_for",
    "read_people",
]

MAX_LINK: Final = 2000
"""The longest link the review offers (characters): longer addresses are cut by some browsers,
mail programs and chat tools."""
MAX_CODE: Final = 8000
"""A code longer than this is not read at all (no review link this kit makes comes close)."""
MAX_JSON: Final = 100_000
"""The most bytes a code may unpack to: a bigger one is refused before it is read."""
CODE_VERSION: Final = 1
"""The version of the code's JSON object (its `v`)."""
CODE_CHARS: Final = re.compile(r"[A-Za-z0-9_-]+")
"""URL-safe base64 without padding: all a code is written in."""


class ReviewLinkError(ValueError):
    """A review link that cannot be opened; the message is one sentence for the learner."""


# -- the link -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Linked:
    """What a review link opens: the finished deal, the learner's seat and the bots' names
    (clockwise from the learner's left)."""

    deal: Deal
    seat: int
    bots: tuple[str, ...]
    people: tuple[int, ...] = ()
    """Seats a person played (a table played together): the review gives them no bot's
    reasons."""


def _bots_value(bots: Sequence[str]) -> str | list[str]:
    return bots[0] if len(set(bots)) == 1 else list(bots)


def encode(
    deal: Deal,
    seat: int,
    bots: str | Sequence[str] | None = "careful",
    people: Sequence[int] = (),
) -> str:
    """The code of a review link: the deal as a small JSON object, zlib-compressed, in URL-safe
    base64 without padding. Only a finished deal has one (the seed would show hidden hands).
    `people` are the other seats a person played (`bots` then names the bot a review lets play
    on in their place)."""
    deal, seat = deal_and_seat(deal, seat)
    if not deal.is_over:
        raise ValueError("a deal gets a review link only once it is over")
    names = bot_names(bots, deal.players - 1)
    others = read_people(people, deal.players, seat)
    data: dict[str, Any] = {
        "v": CODE_VERSION,
        "s": deal.seed,
        "p": deal.players,
        "t": seat,
        "d": deal.dealer,
        "b": _bots_value(names),
        "m": ";".join(str(m) for m in deal.move_stack),
    }
    if tuple(deal.names) != DEFAULT_NAMES[: deal.players]:
        data["n"] = list(deal.names)
    if deal.rules != Rules():
        data["r"] = deal.rules.as_dict()
    if deal.custom:
        data["h"] = [cards_text(cards_of(h)) for h in deal.initial_hands]
    if others:
        data["q"] = list(others)
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    packed = zlib.compress(text.encode("utf-8"), 9)
    return base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


def read_people(people: object, players: int, seat: int) -> tuple[int, ...]:
    """`people` as sorted seats of the table other than `seat`; ValueError otherwise."""
    if isinstance(people, str | bytes) or not isinstance(people, Sequence):
        raise ValueError(f"people should be a list of seats, not {shown(people)}")
    seats = set()
    for p in people:
        if p.__class__ is not int or not 0 <= p < players or p == seat:
            raise ValueError(f"{shown(p)} is not another seat of this table")
        seats.add(p)
    return tuple(sorted(seats))


def link_for(code: str, page: str = REVIEW_PAGE) -> str | None:
    """The address `page?review=CODE`, or None when it is longer than `MAX_LINK`."""
    link = f"{require_text(page, 'page')}?{REVIEW_KEY}={require_text(code, 'code')}"
    return link if len(link) <= MAX_LINK else None


def _broken(why: str) -> ReviewLinkError:
    """The learner's sentence about a link that cannot be opened; `why` is translated."""
    return ReviewLinkError(
        _(
            "This review link cannot be opened ({reason}), so the lesson's own deal is shown "
            "instead."
        ).format(reason=why)
    )


_DAMAGED = N_("its code was cut short or changed")
"""Why most links cannot be opened (marked: shown through `_()`)."""


def _unpack(code: str) -> dict[str, Any]:
    """The JSON object of a code, or a `ReviewLinkError`."""
    if len(code) > MAX_CODE:
        raise _broken(_("its code is far longer than any review link"))
    if not CODE_CHARS.fullmatch(code):
        raise _broken(
            _("its code was cut short or changed: it holds characters a review code never does")
        )
    try:
        packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(packed, MAX_JSON)
        if unpacker.unconsumed_tail:
            raise _broken(_("its code unpacks to far more than any deal"))
        if not unpacker.eof:
            raise _broken(_(_DAMAGED))
        data = json.loads(raw.decode("utf-8"))
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError, RecursionError):
        raise _broken(_(_DAMAGED)) from None
    if not isinstance(data, dict):
        raise _broken(_(_DAMAGED))
    return data


def _field(data: Mapping[str, Any], key: str, kind: type, what: str) -> Any:
    """The field `key` of a code's object; `what` (translated) names it for the learner."""
    value = data.get(key)
    if value is None or value.__class__ is not kind:
        raise _broken(_("its code was cut short or changed: {what} is missing").format(what=what))
    return value


def decode(code: str) -> Linked:
    """The deal, seat and bots of a review code (`encode`). Every move is replayed through the
    engine; anything that is not a finished deal raises `ReviewLinkError` with one sentence."""
    if not isinstance(code, str):
        raise ArgumentTypeError(f"a review code is text, not {shown(code)}")
    code = code.strip()
    if not code:
        raise _broken(_("it holds no code after review="))
    data = _unpack(code)
    if data.get("v") != CODE_VERSION:
        raise _broken(_("it was made by another version of this kit"))
    seed = _field(data, "s", int, _("the seed"))
    players = _field(data, "p", int, _("the number of players"))
    seat = _field(data, "t", int, _("your seat"))
    dealer = _field(data, "d", int, _("the dealer"))
    moves_text = _field(data, "m", str, _("the moves"))
    bots = data.get("b")
    if not 2 <= players <= 5 or not 0 <= seat < players:
        raise _broken(_("its code was cut short or changed: its seats do not fit the table"))
    if not isinstance(bots, str | list):
        raise _broken(_("its code was cut short or changed: the bots are missing"))
    try:
        names = bot_names(bots, players - 1)
        people = read_people(data.get("q", []), players, seat)
        moves = [move_to_dict(parse_move(t)) for t in moves_text.split(";")] if moves_text else []
    except (CardParseError, ValueError, TypeError):
        raise _broken(
            _("its code was cut short or changed: its bots or moves cannot be read")
        ) from None
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": data.get("r", {}),
        "seed": seed,
        "players": players,
        "names": data.get("n"),
        "dealer": dealer,
        "prepared": "h" in data,
        "moves": moves,
    }
    if "h" in data:
        record["initial_hands"] = data["h"]
    try:
        deal = from_record(record)
    except (RecordError, TypeError, ValueError):
        raise _broken(
            _("its code was cut short or changed: its moves do not make a legal deal")
        ) from None
    if not deal.is_over:
        raise _broken(_("its code was cut short or changed: the deal in it is not finished"))
    return Linked(deal, seat, names, people)
