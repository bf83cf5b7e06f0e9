"""The rule-check API of RULES.md: `check_meld`, `check_lay_off`, `check_swap`, `can_play`,
`deadwood_points`, each answering with a `Verdict` that names the rule and says why in one sentence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice, product
from operator import mul
from typing import Final

from penang_lib.engine.analysis import Action, require_table, unchecked_find_action
from penang_lib.engine.cards import (
    MAX_JOKERS,
    MAX_PACKS,
    Card,
    CardParseError,
    Counts,
    a_rank,
    cards_symbols,
    or_words,
    rank_name,
    read_cards,
    require_counts,
    to_counts,
)
from penang_lib.engine.melds import (
    Kind,
    Meld,
    position_card,
    run_problem,
    run_readings,
    same_rank,
    same_suit,
    set_problem,
    set_readings,
)
from penang_lib.engine.rules import Rules
from penang_lib.engine.validate import (
    ArgumentTypeError,
    require_flag,
    require_optional_whole,
    require_whole,
    shown,
)
from penang_lib.i18n import N_, _, ngettext

CardsLike = str | Card | Iterable[Card | str]
MeldLike = Meld | CardsLike


@dataclass(frozen=True)
class Verdict:
    """The answer to "is this allowed, and why?". Truthy exactly when the move is allowed.

    `rule` is the id of the rule that allows or forbids it, `reason` one plain sentence,
    `kind` "run", "set" or None, `readings` every way the cards can be read (sets before runs),
    `reading` the one the verdict speaks of.
    """

    ok: bool
    rule: str
    reason: str
    kind: str | None = None
    readings: tuple[Meld, ...] = ()
    reading: Meld | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.ok, bool):
            raise ArgumentTypeError(f"a verdict's ok should be True or False, not {shown(self.ok)}")
        if not isinstance(self.rule, str) or not isinstance(self.reason, str):
            raise ArgumentTypeError("a verdict's rule and reason should be text")
        if self.kind is not None and not isinstance(self.kind, str):
            raise ArgumentTypeError(
                f"a verdict's kind should be run, set or None, not {shown(self.kind)}"
            )

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return self.reason


def _cards(cards: CardsLike, name: str = "cards") -> list[Card]:
    return read_cards(cards, name)


def _one_card(card: CardsLike) -> Card:
    cards = read_cards(card, "card")
    if len(cards) != 1:
        shown = card if isinstance(card, str) else " ".join(str(c) for c in cards)
        raise CardParseError(
            str(shown), _("give exactly one card, not {count}").format(count=len(cards))
        )
    return cards[0]


def _a_card(card: object) -> Card:
    if not isinstance(card, Card):
        raise ArgumentTypeError(f"card should be a Card, not {shown(card)}")
    return card


def _rules(rules: object) -> Rules:
    """`rules` itself when it is a `Rules` (these helpers take no None)."""
    if rules.__class__ is not Rules and not isinstance(rules, Rules):
        raise ArgumentTypeError(f"rules should be a Rules, not {shown(rules)}")
    return rules


def _copies(copies: object) -> int | None:
    return require_optional_whole(copies, "copies (packs in the deck)", 1, MAX_PACKS)


def _parsed(cards: object, name: str = "cards") -> list[Card]:
    """Cards that are already `Card` values (these helpers take no text)."""
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        raise ArgumentTypeError(f"{name} should be a list of Card values, not {shown(cards)}")
    out = list(cards)
    for card in out:
        if not isinstance(card, Card):
            raise ArgumentTypeError(f"{name} should hold only Card values, not {shown(card)}")
    return out


def copies_problem(cards: Sequence[Card], copies: int, jokers: int) -> str | None:
    """Why `cards` need more of one card than the packs hold (rule `deck`), or None."""
    if not (
        copies.__class__ is int
        and jokers.__class__ is int
        and 1 <= copies <= MAX_PACKS
        and 0 <= jokers <= MAX_JOKERS
    ):
        require_whole(copies, "copies (packs in the deck)", 1, MAX_PACKS)
        require_whole(jokers, "jokers", 0, MAX_JOKERS)
    if isinstance(cards, str):
        _parsed(cards)
    try:
        counts = Counter(c.plain for c in cards)
    except (AttributeError, TypeError):
        _parsed(cards)
        raise  # pragma: no cover - _parsed names the problem
    for card, count in sorted(counts.items(), key=lambda kv: kv[0].sort_key()):
        if card.is_joker:
            if count > jokers:
                return ngettext(
                    "the deck has only {jokers} joker, and this needs {count}",
                    "the deck has only {jokers} jokers, and this needs {count}",
                    jokers,
                ).format(jokers=jokers, count=count)
        elif count > copies:
            return ngettext(
                "{copies} pack holds only {copies} {card}, and this needs {count} of them",
                "{copies} packs hold only {copies} {card}, and this needs {count} of them",
                copies,
            ).format(copies=copies, card=card.symbol, count=count)
    return None


def _describe(meld: Meld) -> str:
    """The sentence that says what a legal meld is."""
    jokers = [c for c in meld.cards if c.is_joker]
    cards, description = meld.symbols, meld.description
    if meld.kind is Kind.SET:
        repeat = len({c.suit for c in meld.naturals}) < len(meld.naturals)
        if not jokers:
            if repeat:
                return _("{cards} is {meld}, and suits may repeat.").format(
                    cards=cards, meld=description
                )
            return _("{cards} is {meld}.").format(cards=cards, meld=description)
        # One joker stands for "a seven", several for "sevens".
        rank = rank_name(meld.low, plural=True) if len(jokers) > 1 else a_rank(meld.low)
        if repeat:
            message = ngettext(
                "{cards} is {meld}, and suits may repeat; the joker stands for {rank}.",
                "{cards} is {meld}, and suits may repeat; the jokers stand for {rank}.",
                len(jokers),
            )
        else:
            message = ngettext(
                "{cards} is {meld}; the joker stands for {rank}.",
                "{cards} is {meld}; the jokers stand for {rank}.",
                len(jokers),
            )
        return message.format(cards=cards, meld=description, rank=rank)
    if jokers:
        stood = ", ".join(
            position_card(meld.suit, meld.low + i).symbol
            for i, c in enumerate(meld.cards)
            if c.is_joker
        )
        return ngettext(
            "{cards} is {meld}, with the joker as {stood}.",
            "{cards} is {meld}, with the jokers as {stood}.",
            len(jokers),
        ).format(cards=cards, meld=description, stood=stood)
    return _("{cards} is {meld}.").format(cards=cards, meld=description)


def meld_verdict(cards: Sequence[Card], rules: Rules, copies: int | None = None) -> Verdict:
    """`check_meld` on parsed cards, with the number of copies of each card the deck holds."""
    cards = _parsed(cards)
    copies = _rules(rules).packs if copies is None else _copies(copies)
    assert copies is not None
    shown = cards_symbols(cards)
    if len(cards) < 3:
        return Verdict(
            False,
            "meld",
            _("A meld needs at least three cards, and {cards} is only {count}.").format(
                cards=shown or _("nothing"), count=len(cards)
            ),
        )
    naturals = [c for c in cards if not c.is_joker]
    if not naturals and not rules.all_joker_melds:
        return Verdict(
            False,
            "joker",
            _("{cards} has no real card: a meld needs at least one.").format(cards=shown),
        )
    problem = copies_problem(cards, copies, rules.jokers)
    if problem:
        return Verdict(
            False,
            "deck",
            _("{cards} cannot be melded: {problem}.").format(cards=shown, problem=problem),
        )
    readings = [
        *set_readings(cards, rules.all_joker_melds),
        *run_readings(cards, rules.all_joker_melds),
    ]
    if readings:
        first = readings[0]
        if len(readings) > 1:
            others = "; ".join(m.symbols for m in readings[1:])
            reason = _("{sentence} It can also be read as {others}: the player chooses.").format(
                sentence=_describe(first), others=others
            )
        else:
            reason = _describe(first)
        return Verdict(True, first.kind.value, reason, first.kind.value, tuple(readings), first)
    if not naturals and any(c.as_rank is None for c in cards):
        return Verdict(
            False,
            "joker",
            _(
                "{cards} is only jokers: say what each stands for (JK@7H in a run, JK@7 in a set)."
            ).format(cards=shown),
        )
    if same_suit(cards):
        return Verdict(False, "run", _("{problem}.").format(problem=run_problem(cards)))
    if same_rank(cards):
        return Verdict(False, "set", _("{problem}.").format(problem=set_problem(cards)))
    return Verdict(
        False,
        "meld",
        _("{cards} is neither a run (one suit, ranks in a row) nor a set (one rank).").format(
            cards=shown
        ),
    )


def check_meld(cards: CardsLike, rules: Rules | None = None) -> Verdict:
    """Could these cards be melded, as a run or a set? (rules `meld`, `run`, `set`, `joker`)

    The verdict is true or false, and says why in a sentence, naming the rule it applies:

    >>> verdict = check_meld("5H 6H 7H")
    >>> bool(verdict), verdict.rule, verdict.kind
    (True, 'run', 'run')
    >>> print(check_meld("5H 6H 8H"))
    5♥ 6♥ 8♥ has a gap at 7♥, and no joker to fill it.
    """
    return meld_verdict(_cards(cards), Rules.of(rules))


def table_readings(meld: MeldLike, rules: Rules, copies: int | None = None) -> Verdict:
    """Read a table meld: ok with every reading, or the meld's own failure.

    A `Meld` value keeps its fixed identity (its one reading), but is checked all the same.
    """
    if rules.__class__ is not Rules:
        _rules(rules)
    if copies is not None:
        copies = _copies(copies)
    if isinstance(meld, Meld):
        # Fast path: a legal Meld value is one of its own readings; words only on failure.
        allow = rules.all_joker_melds
        cards = list(meld.cards)
        legal = copies_problem(cards, rules.packs if copies is None else copies, rules.jokers)
        if legal is None and (
            meld in set_readings(cards, allow) or meld in run_readings(cards, allow)
        ):
            kind = meld.kind.value
            return Verdict(True, kind, "", kind, (meld,), meld)
    else:
        cards = _cards(meld, "meld")
    verdict = meld_verdict(cards, rules, copies)
    if not verdict.ok:
        return Verdict(
            False,
            verdict.rule,
            _("The meld on the table is not legal: {reason}").format(reason=verdict.reason),
        )
    if not isinstance(meld, Meld):
        return verdict
    # The cards make a meld, but not the one this value says (cards out of place).
    return Verdict(
        False,
        meld.kind.value,
        _not_in_order(meld),
    )


def _not_in_order(meld: Meld) -> str:
    """Why a `Meld` value whose cards make a meld, but not in its own order, is not legal."""
    if meld.kind is Kind.SET:
        message = _(
            "The meld on the table is not legal: {cards} does not lie in the order of a set."
        )
    else:
        message = _(
            "The meld on the table is not legal: {cards} does not lie in the order of a run."
        )
    return message.format(cards=meld.symbols)


def _first_fit(
    table: Verdict, results_of: Callable[[Meld], list[Meld]], copies: int, rules: Rules
) -> tuple[Meld, Meld] | str:
    """The first (reading, result) of the table meld that the deck allows, or else why not:
    the first `deck` problem met, or "" when no reading took the card at all."""
    first_problem = ""
    for reading in table.readings:
        for result in results_of(reading):
            problem = copies_problem(result.physical, copies, rules.jokers)
            if problem is None:
                return reading, result
            first_problem = first_problem or problem
    return first_problem


def _table_and_copies(
    meld: MeldLike, card: Card, rules: Rules, copies: int | None
) -> tuple[Verdict, int]:
    """The opening of the lay-off and swap verdicts: the card and rules checked, the number of
    copies of each card (the rules' packs unless given), and the table meld read."""
    if card.__class__ is not Card:
        _a_card(card)
    if rules.__class__ is not Rules:
        _rules(rules)
    copies = rules.packs if copies is None else _copies(copies)
    assert copies is not None
    return table_readings(meld, rules, copies), copies


def lay_off_verdict(meld: MeldLike, card: Card, rules: Rules, copies: int | None = None) -> Verdict:
    """`check_lay_off` on a parsed card (see there)."""
    table, copies = _table_and_copies(meld, card, rules, copies)
    if not table.ok:
        return table
    found = _first_fit(table, lambda reading: reading.lay_off_results(card), copies, rules)
    if isinstance(found, tuple):
        reading, result = found
        return Verdict(
            True,
            "lay-off",
            _lay_off_sentence(card, reading, result, len(table.readings) > 1),
            reading.kind.value,
            table.readings,
            reading,
        )
    if found:
        reason = _("{card} cannot be laid off: {problem}.").format(card=card.symbol, problem=found)
        return Verdict(False, "deck", reason, table.kind, table.readings, table.reading)
    reason = _lay_off_problem(table.readings[0], card)
    return Verdict(False, "lay-off", reason, table.kind, table.readings, table.reading)


_LAY_OFF_SENTENCES: Final = {
    # (where the card goes on a run, whether the table meld can be read several ways)
    ("set", False): N_("{card} can be laid off on {meld}, making {result}."),
    ("set", True): N_(
        "{card} can be laid off on {meld} (reading the table meld as {reading}), making {result}."
    ),
    ("bottom", False): N_("{card} can be laid off on {meld} at the bottom, making {result}."),
    ("bottom", True): N_(
        "{card} can be laid off on {meld} at the bottom (reading the table meld as {reading}), "
        "making {result}."
    ),
    ("top", False): N_("{card} can be laid off on {meld} at the top, making {result}."),
    ("top", True): N_(
        "{card} can be laid off on {meld} at the top (reading the table meld as {reading}), "
        "making {result}."
    ),
}
"""The sentence of an allowed lay-off, by where the card goes (on a set: anywhere) and whether
it names the reading of the table meld it speaks of."""


def _lay_off_sentence(card: Card, reading: Meld, result: Meld, several: bool) -> str:
    """Where `card` goes on table meld `reading` (read one of `several` ways) to make `result`."""
    where = "set"
    if reading.kind is Kind.RUN:
        where = "bottom" if result.low < reading.low else "top"
    return _(_LAY_OFF_SENTENCES[where, several]).format(
        card=card.symbol,
        meld=reading.description,
        reading=reading.symbols,
        result=result.symbols,
    )


def _lay_off_problem(meld: Meld, card: Card) -> str:
    shown = card.symbol
    if meld.kind is Kind.SET:
        if card.is_joker:
            return _("{card} stands for another rank; this set takes only {ranks}.").format(
                card=shown, ranks=rank_name(meld.low, plural=True)
            )
        return _("{card} is not {rank}: {meld} takes only that rank.").format(
            card=shown, rank=a_rank(meld.low), meld=meld.description
        )
    ends = []
    if meld.low > 1:
        ends.append(position_card(meld.suit, meld.low - 1).symbol)
    if meld.high < 14:
        ends.append(position_card(meld.suit, meld.high + 1).symbol)
    if not ends:
        return _("{meld} already goes from A to A: nothing more fits on it.").format(
            meld=meld.description
        )
    fits = or_words(ends)
    if not card.is_joker and card in meld.cards:
        return _("{card} is already in {meld}; only {fits} can extend it.").format(
            card=shown, meld=meld.description, fits=fits
        )
    if not card.is_joker and any(
        c.is_joker and c.as_rank == card.rank and c.as_suit == card.suit for c in meld.cards
    ):
        return _(
            "{card} is already in {meld} as a joker: it cannot be added again, "
            "but it may swap the joker out. Only {fits} can extend the run."
        ).format(card=shown, meld=meld.description, fits=fits)
    rank, suit = (card.as_rank, card.as_suit) if card.is_joker else (card.rank, card.suit)
    if suit in (meld.suit, None) and (
        (rank == 2 and meld.high == 14) or (rank == 13 and meld.low == 1)
    ):
        return _(
            "{card} would turn the corner: an ace ends a run. Only {fits} can extend it."
        ).format(card=shown, fits=fits)
    return _("{card} does not fit {meld}: only {fits} can extend it.").format(
        card=shown, meld=meld.description, fits=fits
    )


def check_lay_off(meld: MeldLike, card: CardsLike, rules: Rules | None = None) -> Verdict:
    """May `card` be laid off on table meld `meld`? (rule `lay-off`)

    A plain `JK` in a text meld may be read several ways: the lay-off is allowed when some
    reading allows it, and the reason names that reading.
    """
    return lay_off_verdict(meld, _one_card(card), Rules.of(rules))


def joker_lay_offs(meld: MeldLike, card: Card, rules: Rules | None = None) -> list[Verdict]:
    """Every way a plain joker may be laid off on table meld `meld` (the player chooses one):
    the verdict on each joker the lay-off could make (`JK@4H` at the bottom, `JK@8H` at the
    top), in the order the meld's readings give them; empty for a natural or a noted joker, or
    when no lay-off fits. The same resulting meld reached by two readings counts once."""
    if not card.is_joker or card.as_rank is not None:
        return []
    rules = Rules.of(rules)
    lay = check_lay_off(meld, card, rules)
    if not lay.ok:
        return []
    placed: list[Card] = []
    made: set[tuple[str, ...]] = set()
    for reading in lay.readings:
        for result in reading.lay_off_results(card):
            same = tuple(sorted(map(str, result.cards)))
            if same in made:
                continue  # the same meld by another reading (5♥ 6♥ 7♥ 8♥, jokers swapped)
            made.add(same)
            # The joker laid off is the result's card that the reading did not hold.
            extra = Counter(result.cards) - Counter(reading.cards)
            placed.extend(c for c in extra if c not in placed)
    verdicts = [check_lay_off(meld, joker, rules) for joker in placed]
    return [v for v in verdicts if v.ok]


def swap_verdict(meld: MeldLike, card: Card, rules: Rules, copies: int | None = None) -> Verdict:
    """`check_swap` on a parsed card (see there)."""
    table, copies = _table_and_copies(meld, card, rules, copies)
    if not table.ok:
        return table
    if card.is_joker:
        return Verdict(
            False,
            "swap",
            _("Only a real card can take a joker's place."),
            table.kind,
            table.readings,
        )
    found = _first_fit(table, lambda reading: reading.swap_results(card), copies, rules)
    if isinstance(found, tuple):
        reading = found[0]
        if len(table.readings) > 1:
            message = _(
                "{card} can take the joker's place in {meld} (reading the table meld as "
                "{reading}); the joker goes to the player's hand."
            )
        else:
            message = _(
                "{card} can take the joker's place in {meld}; the joker goes to the player's hand."
            )
        return Verdict(
            True,
            "swap",
            message.format(card=card.symbol, meld=reading.description, reading=reading.symbols),
            reading.kind.value,
            table.readings,
            reading,
        )
    if found:
        reason = _("{card} cannot be swapped in: {problem}.").format(
            card=card.symbol, problem=found
        )
        return Verdict(False, "deck", reason, table.kind, table.readings, table.reading)
    meld0 = table.readings[0]
    if all(r.jokers == 0 for r in table.readings):
        reason = _("There is no joker in {cards} to swap.").format(cards=meld0.symbols)
    elif meld0.kind is Kind.SET:
        reason = _("Only {rank} can replace the joker in {meld}.").format(
            rank=a_rank(meld0.low), meld=meld0.description
        )
    else:
        stands = or_words(
            sorted(
                {
                    position_card(r.suit, r.low + i).symbol
                    for r in table.readings
                    for i, c in enumerate(r.cards)
                    if c.is_joker
                }
            )
        )
        reason = _(
            "In a run a joker can be replaced only by exactly the card it stands for "
            "({stands}), not {card}."
        ).format(stands=stands, card=card.symbol)
    return Verdict(False, "swap", reason, table.kind, table.readings, table.reading)


def check_swap(meld: MeldLike, card: CardsLike, rules: Rules | None = None) -> Verdict:
    """May natural `card` replace a joker in table meld `meld`? (rule `swap`)"""
    return swap_verdict(meld, _one_card(card), Rules.of(rules))


def deadwood_points(cards: CardsLike, rules: Rules | None = None) -> int:
    """The count of a hand (rule `scoring`): 2-10 face value, J Q K 10, A 15, joker 20."""
    rules = Rules.of(rules)
    return sum(rules.card_value(c.rank) for c in _cards(cards))


def counts_points(counts: Sequence[int], rules: Rules) -> int:
    """`deadwood_points` of a count vector."""
    return unchecked_counts_points(require_counts(counts), _rules(rules))


def unchecked_counts_points(counts: Sequence[int], rules: Rules) -> int:
    """`counts_points` on the engine's own count vector (not checked: the deal's hot path)."""
    values: tuple[int, ...] = rules._value_by_index  # type: ignore[attr-defined]
    return sum(map(mul, counts, values))


def _action_sentence(action: Action) -> str:
    """The first action found, as a sentence: its swaps first, then its meld or lay-off."""
    steps = [
        _("swap {card} for the joker in {meld}").format(
            card=o.card.symbol, meld=o.result.description
        )
        for o in action.swaps
    ]
    if action.meld is not None:
        steps.append(
            _("meld {cards} ({meld})").format(
                cards=action.meld.symbols, meld=action.meld.description
            )
        )
    elif action.lay_off is not None:
        steps.append(
            _("lay off {card} on {meld}").format(
                card=action.lay_off.card.symbol, meld=action.lay_off.result.description
            )
        )
    text = steps[0]
    for step in steps[1:]:
        text = _("{first}, then {next}").format(first=text, next=step)
    return _("{action}.").format(action=text[0].upper() + text[1:])


def action_verdict(counts: Counts, table: Sequence[Meld], passport: bool, rules: Rules) -> Verdict:
    """`can_play` on a count vector and read table melds."""
    return unchecked_action_verdict(
        require_counts(counts),
        require_table(table),
        require_flag(passport, "passport"),
        _rules(rules),
    )


def unchecked_action_verdict(
    counts: Counts, table: Sequence[Meld], passport: bool, rules: Rules
) -> Verdict:
    """`action_verdict` on the engine's own values (not checked)."""
    action = unchecked_find_action(counts, table, passport, rules)
    if action is None:
        if not passport:
            return Verdict(
                False,
                "dead.passport",
                _(
                    "No meld can be made from this hand, and a first action must be a meld "
                    "(the passport): the player is dead."
                ),
            )
        return Verdict(
            False,
            "dead",
            _("No meld, no lay-off and no swap that leads to one: the player must declare Dead."),
        )
    kind = action.meld.kind.value if action.meld is not None else None
    if action.lay_off is not None:
        kind = action.lay_off.result.kind.value
    return Verdict(True, action.rule, _action_sentence(action), kind)


def can_play(
    hand: CardsLike,
    table: Iterable[MeldLike],
    passport: bool,
    rules: Rules | None = None,
) -> Verdict:
    """Can this player act on their turn? False means they must declare Dead now.

    `table` is a list of melds, `passport` whether the player already made their passport.
    The verdict names the first action found (`set`, `run`, `lay-off`, or `swap` when a swap has to
    come first), or `dead` / `dead.passport`. A text meld with a plain `JK` that can be read
    several ways counts as alive when some reading of the table lets the player act.
    """
    rules = Rules.of(rules)
    cards = _cards(hand, "hand")
    passport = require_flag(passport, "passport")
    if isinstance(table, str | bytes | Meld) or not isinstance(table, Iterable):
        raise ArgumentTypeError(
            f"table should be a list of melds, e.g. ['5H 6H 7H'], not {shown(table)}"
        )
    readings: list[tuple[Meld, ...]] = []
    for item in table:
        read = table_readings(item, rules)
        if not read.ok:
            return read
        readings.append(read.readings)
    on_table = [c.plain for options in readings for c in options[0].cards]
    problem = copies_problem(cards + on_table, rules.packs, rules.jokers)
    if problem:
        return Verdict(
            False,
            "deck",
            _("This hand and table are impossible: {problem}.").format(problem=problem),
        )
    counts = to_counts(cards)
    first: Verdict | None = None
    for melds in islice(product(*readings), MAX_TABLE_READINGS):
        verdict = unchecked_action_verdict(counts, melds, passport, rules)
        if verdict.ok:
            return verdict
        first = first or verdict
    assert first is not None  # product() of no melds still yields one empty table
    return first


MAX_TABLE_READINGS = 256
"""How many readings of an ambiguous text table `can_play` tries before it gives up looking."""
