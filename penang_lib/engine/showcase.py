"""Deals that show a rule: search seeds for a deal, played by bots, whose events name given rules.

Every lesson steps through a real deal in which its rule happens: `find_deal(["swap"])` plays
seeded deals until one has a `swap` event and returns it, finished, ready for the stepper, and
`first_step(deal, "swap")` says at which step of it the rule first happens.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from penang_lib.engine.bots import bot_names, play_deal
from penang_lib.engine.deal import Deal
from penang_lib.engine.events import Event
from penang_lib.engine.fast.meld_count import has_meld
from penang_lib.engine.rules import RULE_BOOK, Rules
from penang_lib.engine.validate import MAX_SEED, ArgumentTypeError, cut, require_whole, shown

MAX_LIMIT: Final = 1_000_000
"""The most seeds one `find_deal` may try (a rare set of rules can take hours to that)."""

SHOWCASE_BOTS: tuple[str, ...] = ("careful", "greedy", "careful", "random")
"""The bots `find_deal` seats by default: a mix, so that going out, dying and swapping all
happen often (four careful bots rarely let anyone go out, four greedy ones rarely swap)."""

MELD_EVENTS = frozenset({"run", "set"})
"""A meld shows as a `run` or a `set` event: either one shows rule `meld`."""


def require_rule_ids(shows: Iterable[str]) -> list[str]:
    """The rule ids, stripped and in order; `ValueError` naming any id not in the rule book.

    `shows` is a list of ids, or one text of comma-separated ids ("swap,dead.passport")."""
    if isinstance(shows, str):
        shows = shows.split(",")
    elif isinstance(shows, bytes) or not isinstance(shows, Iterable):
        raise ArgumentTypeError(
            f"rule ids should be a list of ids such as ['swap', 'game'], not {shown(shows)}"
        )
    items = list(shows)
    for item in items:
        if not isinstance(item, str):
            raise ArgumentTypeError(f"a rule id should be text such as 'swap', not {shown(item)}")
    ids = [s.strip() for s in items if s.strip()]
    if not ids:
        raise ValueError("name at least one rule id, e.g. swap or dead.passport")
    unknown = [s for s in ids if s not in RULE_BOOK]
    if unknown:
        raise ValueError(
            f"unknown rule id {cut(unknown[0])!r}: the rule ids are {', '.join(RULE_BOOK)}"
        )
    return ids


def shown_by(events: Iterable[Event]) -> set[str]:
    """Every rule id these events show (`meld` too when a run or set was laid)."""
    try:
        ids = {event.rule for event in events}
    except (AttributeError, TypeError):
        raise ArgumentTypeError(
            f"events should be a list of Event values, not {shown(events)}"
        ) from None
    if ids & MELD_EVENTS:
        ids.add("meld")
    return ids


def rules_shown(deal: Deal) -> set[str]:
    """Every rule id that an event of `deal` names (`meld` too when a run or set was laid)."""
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"rules_shown takes a Deal, not {shown(deal)}")
    return shown_by(deal.events)


def _passport_can_fail(seed: int, players: int, rules: Rules) -> bool:
    """Whether some hand of this seed's deal can make no meld: the only way to `dead.passport`
    (a first turn comes before anyone can change a hand)."""
    deal = Deal(players=players, seed=seed, rules=rules)
    return not all(has_meld(hand, rules) for hand in deal.initial_hands)


def find_deal(
    shows: Iterable[str],
    players: int = 4,
    bots: str | Iterable[str] | None = SHOWCASE_BOTS,
    start_seed: int = 0,
    limit: int = 2000,
    rules: Rules | None = None,
) -> Deal | None:
    """The first deal, from seed `start_seed` on, whose events show every rule in `shows`.

    The deal is played to its end by `bots` (names cycled to the seats, as in `simulate`), so
    `play_deal(deal.seed, players, bots)` gives it again. At most `limit` seeds are tried; None
    when none of them shows everything. Seeds whose dealt hands already rule the deal out are
    skipped without playing (a `dead.passport` needs a hand with no meld in it), so rare rules
    are worth a larger `limit`. Raises `ValueError` for an id not in `RULE_BOOK`.
    """
    wanted = set(require_rule_ids(shows))
    limit = require_whole(limit, "limit")
    if limit < 0:
        raise ValueError(f"limit cannot be negative ({limit})")
    if limit > MAX_LIMIT:
        raise ValueError(f"limit is at most {MAX_LIMIT:,} seeds, not {limit:,}")
    start_seed = require_whole(start_seed, "start_seed", 0, MAX_SEED - max(limit - 1, 0))
    rules = Rules.of(rules)
    players = require_whole(players, "players")
    rules.require_deal(players)
    bot_names(bots, players)
    for seed in range(start_seed, start_seed + limit):
        if "dead.passport" in wanted and not _passport_can_fail(seed, players, rules):
            continue  # rare (about 1 deal in 450 at four players): rule it out from the deal
        deal = play_deal(seed, players, bots, rules)
        if wanted <= rules_shown(deal):
            return deal
    return None


def first_step(deal: Deal, shows: str | Iterable[str]) -> int | None:
    """The first step of `deal` whose events show one of the rules in `shows`: 0 when the deal
    as dealt shows it, k when its k-th move does (as a stepper numbers its steps); None when no
    step does. Raises `ValueError` for an id not in `RULE_BOOK`."""
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"first_step looks through a Deal, not {shown(deal)}")
    wanted = set(require_rule_ids(shows))
    steps = [deal.start_events, *deal.event_stack]
    return next((k for k, events in enumerate(steps) if wanted & shown_by(events)), None)
