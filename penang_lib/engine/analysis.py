"""Hand analysis on count vectors: which melds a hand can make, which lay-offs and swaps it has
against a table, and whether a player can act at all (rules `turn`, `dead`, `passport`, `swap`).

A hand is a `Counts` vector (53 entries: the naturals suit-major, then jokers). Table melds are
`Meld` values. Nothing here mutates its inputs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from penang_lib.engine.cards import (
    JOKER,
    JOKER_INDEX,
    NATURALS,
    SUITS,
    Card,
    Counts,
    noted_joker,
    require_counts,
)
from penang_lib.engine.melds import MAX_RUN, RUN, SET, Meld, position_rank
from penang_lib.engine.rules import Rules
from penang_lib.engine.validate import ArgumentTypeError, require_flag, shown


def _natural_index(suit_index: int, position: int) -> int:
    return suit_index * 13 + position_rank(position) - 1


# Per suit and run position (1..14; 0 unused): the count-vector index, the natural card, and a
# joker noted as that card. Built once: the hot loops below only index into them.
_RUN_INDEX = tuple(
    tuple(_natural_index(s, max(p, 1)) for p in range(MAX_RUN + 1)) for s in range(4)
)
_RUN_CARD = tuple(tuple(NATURALS[i] for i in row) for row in _RUN_INDEX)
_RUN_STAND_IN = tuple(
    tuple(noted_joker(position_rank(max(p, 1)), SUITS[s]) for p in range(MAX_RUN + 1))
    for s in range(4)
)


# -- melds from a hand ---------------------------------------------------------------------------
def _first_meld(counts: Counts, rules: Rules) -> Meld | None:
    """Some three-card meld the hand can make, or None (sets are looked for before runs)."""
    jokers = counts[JOKER_INDEX]
    for rank in range(1, 14):
        held = counts[rank - 1] + counts[rank + 12] + counts[rank + 25] + counts[rank + 38]
        if held and held + jokers >= 3:
            cards = [
                NATURALS[s * 13 + rank - 1]
                for s in range(4)
                for _ in range(counts[s * 13 + rank - 1])
            ]
            return Meld.set_of(rank, cards[:3] + [JOKER] * (3 - min(3, held)))
    for s, suit in enumerate(SUITS):
        have = [counts[i] > 0 for i in _RUN_INDEX[s]]
        for low in range(1, MAX_RUN - 1):
            present = have[low] + have[low + 1] + have[low + 2]
            if present and present + jokers >= 3:
                row = [_RUN_CARD[s][p] if have[p] else JOKER for p in range(low, low + 3)]
                return Meld.run(suit, low, row)
    if rules.all_joker_melds and jokers >= 3:
        return Meld.set_of(1, [JOKER] * 3)
    return None


def _iter_melds(counts: Counts, rules: Rules) -> Iterator[Meld]:
    """Every distinct meld the hand can make (lazily: a hand with jokers has very many)."""
    yield from _iter_sets(counts, rules)
    for s in range(4):
        yield from _iter_runs(counts, s, rules)


def _iter_sets(counts: Counts, rules: Rules) -> Iterator[Meld]:
    jokers = counts[JOKER_INDEX]
    for rank in range(1, 14):
        held = [counts[s * 13 + rank - 1] for s in range(4)]
        if sum(held) + jokers < 3 or (not any(held) and not rules.all_joker_melds):
            continue
        noted = noted_joker(rank)
        for take in product(*(range(n + 1) for n in held)):
            naturals = tuple(NATURALS[s * 13 + rank - 1] for s in range(4) for _ in range(take[s]))
            if not naturals and not rules.all_joker_melds:
                continue
            for j in range(max(0, 3 - len(naturals)), jokers + 1):
                yield Meld(SET, naturals + (noted,) * j, rank)


def _iter_runs(counts: Counts, s: int, rules: Rules) -> Iterator[Meld]:
    jokers = counts[JOKER_INDEX]
    suit = SUITS[s]
    cards = _RUN_CARD[s]
    stand_ins = _RUN_STAND_IN[s]
    have = [counts[i] > 0 for i in _RUN_INDEX[s]]
    have[0] = False
    if not any(have) and not rules.all_joker_melds:
        return
    aces = counts[s * 13]
    for low in range(1, MAX_RUN - 1):
        missing = 0
        for high in range(low, MAX_RUN + 1):
            if not have[high]:
                missing += 1
                if missing > jokers:
                    break
            if high - low < 2 or (low, high) == (2, MAX_RUN):
                # 2..A high holds the same thirteen ranks as A..K: one move, listed once.
                continue
            chosen = [p for p in range(low, high + 1) if have[p]]
            ends = low == 1 and high == MAX_RUN  # both ends are aces: A 2 ... K A
            if ends and aces == 1:
                # One ace: it is the low one. A joker standing for the other ace makes the same
                # cards at either end, so the high-ace reading would repeat the move.
                chosen = chosen[:-1]
            spare = jokers - (high - low + 1 - len(chosen))
            if spare >= 0:
                for extra in range(min(spare, len(chosen)) + 1):
                    if extra == len(chosen) and not rules.all_joker_melds:
                        continue
                    for as_joker in combinations(chosen, extra):
                        if ends and aces > 1 and MAX_RUN in as_joker and 1 not in as_joker:
                            continue  # the same cards as the low ace made the joker
                        keep = set(chosen).difference(as_joker)
                        row = tuple(
                            cards[p] if p in keep else stand_ins[p] for p in range(low, high + 1)
                        )
                        yield Meld(RUN, row, low, suit)


# -- lay-offs and swaps against a table ----------------------------------------------------------
@dataclass(frozen=True)
class TableOption:
    """One lay-off or swap: `card` from the hand onto table meld `target`, giving `result`."""

    target: int
    card: Card
    result: Meld


def _accepting_cards(meld: Meld) -> list[Card]:
    """The naturals a meld takes as a lay-off (a set: one per suit; a run: its two end cards)."""
    if meld.kind is SET:
        return [NATURALS[s * 13 + meld.low - 1] for s in range(4)]
    row = _RUN_CARD[SUITS.index(meld.suit)]
    out = []
    if meld.low > 1:
        out.append(row[meld.low - 1])
    high = meld.low + len(meld.cards) - 1
    if high < MAX_RUN:
        out.append(row[high + 1])
    return out


def _takes_joker(meld: Meld) -> bool:
    """A joker can be laid off on any set and on any run shorter than 14 cards."""
    return meld.kind is SET or len(meld) < MAX_RUN


def _iter_lay_offs(counts: Counts, table: Sequence[Meld]) -> Iterator[TableOption]:
    """Every lay-off the hand has: each card it holds that fits a table meld, at each end."""
    for target, meld in enumerate(table):
        for card in _accepting_cards(meld):
            if counts[card.index]:
                for result in meld.lay_off_results(card):
                    yield TableOption(target, card, result)
        if counts[JOKER_INDEX]:
            for result in meld.lay_off_results(JOKER):
                placed = result.cards[0] if result.low < meld.low else result.cards[-1]
                if meld.kind is SET:
                    placed = noted_joker(meld.low)
                yield TableOption(target, placed, result)


def _first_lay_off(counts: Counts, table: Sequence[Meld]) -> TableOption | None:
    return next(_iter_lay_offs(counts, table), None)


def _swap_cards(meld: Meld) -> list[Card]:
    """The naturals that may take a joker's place in this meld."""
    if meld.jokers == 0:
        return []
    if meld.kind is SET:
        return [NATURALS[s * 13 + meld.low - 1] for s in range(4)]
    row = _RUN_CARD[SUITS.index(meld.suit)]
    found = [row[meld.low + i] for i, c in enumerate(meld.cards) if c.is_joker]
    # Both aces of a 14-card run are the same card: list it once.
    return found if len(found) < 2 else sorted(set(found), key=Card.sort_key)


def _iter_swaps(counts: Counts, table: Sequence[Meld]) -> Iterator[TableOption]:
    """Every swap the hand has: a natural it holds for a joker on the table."""
    for target, meld in enumerate(table):
        if not meld.jokers:
            continue
        for card in _swap_cards(meld):
            if counts[card.index]:
                results = meld.swap_results(card)
                if results:
                    yield TableOption(target, card, results[0])


def _apply_option(
    counts: Counts, table: Sequence[Meld], option: TableOption, swap: bool
) -> tuple[Counts, list[Meld]]:
    """The hand and table after a lay-off (`swap` False) or a swap (`swap` True)."""
    hand = list(counts)
    hand[option.card.index] -= 1
    if swap:
        hand[JOKER_INDEX] += 1
    new_table = list(table)
    new_table[option.target] = option.result
    return tuple(hand), new_table


def _swap_leaves_action(
    counts: Counts, table: Sequence[Meld], option: TableOption, rules: Rules
) -> bool:
    """Whether a meld or lay-off is still possible after this swap (a swap is not an action).

    The joker it brings can always be laid off on a set or on a run shorter than A to A; only a
    table of full runs needs the whole search.
    """
    if any(_takes_joker(meld) for meld in table):
        return True
    hand, after = _apply_option(counts, table, option, swap=True)
    return _find_action(hand, after, True, rules) is not None


@dataclass(frozen=True)
class Action:
    """The first action found for a player: `rule` is "set", "run", "lay-off" or "swap"."""

    rule: str
    swaps: tuple[TableOption, ...]
    meld: Meld | None = None
    lay_off: TableOption | None = None


def _find_action(
    counts: Counts, table: Sequence[Meld], passport: bool, rules: Rules
) -> Action | None:
    """An action the player can take now, swaps first where they are needed, or None (dead).

    Without a passport only a meld from the hand counts. With one, a lay-off counts too, and so
    does any chain of swaps after which a meld or lay-off is possible.
    """
    meld = _first_meld(counts, rules)
    if meld is not None:
        return Action(meld.kind.value, (), meld=meld)
    if not passport:
        return None
    lay_off = _first_lay_off(counts, table)
    if lay_off is not None:
        return Action("lay-off", (), lay_off=lay_off)
    return _after_swaps(counts, list(table), (), rules, set())


def _after_swaps(
    counts: Counts,
    table: list[Meld],
    done: tuple[TableOption, ...],
    rules: Rules,
    seen: set[Counts],
) -> Action | None:
    for option in _iter_swaps(counts, table):
        hand, new_table = _apply_option(counts, table, option, swap=True)
        if hand in seen:
            continue
        seen.add(hand)
        chain = (*done, option)
        meld = _first_meld(hand, rules)
        if meld is not None:
            return Action("swap", chain, meld=meld)
        lay_off = _first_lay_off(hand, new_table)
        if lay_off is not None:
            return Action("swap", chain, lay_off=lay_off)
        found = _after_swaps(hand, new_table, chain, rules, seen)
        if found is not None:
            return found
    return None


# -- the checked doors ----------------------------------------------------------------------------
# The functions above trust their arguments: the engine calls them on hands and tables it made
# itself, in its hot loops. From outside, these check what they are given first (a count vector
# of 53 whole numbers, a list of `Meld` values, a `Rules`) and say what is wrong in one sentence.
unchecked_find_action = _find_action
unchecked_iter_melds = _iter_melds
unchecked_iter_lay_offs = _iter_lay_offs
unchecked_iter_swaps = _iter_swaps
unchecked_swap_leaves_action = _swap_leaves_action


def require_table(table: object, name: str = "table") -> list[Meld]:
    """`table` as a list of `Meld` values (card text is read by `check_meld` first)."""
    if isinstance(table, str | bytes | Meld) or not isinstance(table, Sequence):
        raise ArgumentTypeError(f"{name} should be a list of Meld values, not {shown(table)}")
    melds = list(table)
    for meld in melds:
        _meld(meld, f"a meld in {name}")  # not for learners: a name in an ArgumentTypeError
    return melds


def _meld(meld: object, name: str = "meld") -> Meld:
    if not isinstance(meld, Meld):
        raise ArgumentTypeError(
            f"{name} should be a Meld value (check_meld(text).reading reads one), not {shown(meld)}"
        )
    return meld


def _rules(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise ArgumentTypeError(f"rules should be a Rules, not {shown(rules)}")
    return rules


def _option(option: object, table: Sequence[Meld]) -> TableOption:
    if not isinstance(option, TableOption):
        raise ArgumentTypeError(f"option should be a TableOption, not {shown(option)}")
    if option.target.__class__ is not int or not 0 <= option.target < len(table):
        raise ValueError(f"option names meld {shown(option.target)}, which is not on the table")
    if not isinstance(option.card, Card) or not isinstance(option.result, Meld):
        raise ArgumentTypeError("option should hold a Card and the Meld it makes")
    return option


def first_meld(counts: Counts, rules: Rules) -> Meld | None:
    """Some three-card meld the hand can make, or None (sets are looked for before runs)."""
    return _first_meld(require_counts(counts), _rules(rules))


def iter_melds(counts: Counts, rules: Rules) -> Iterator[Meld]:
    """Every distinct meld the hand can make (lazily: a hand with jokers has very many)."""
    return _iter_melds(require_counts(counts), _rules(rules))


def accepting_cards(meld: Meld) -> list[Card]:
    """The naturals a meld takes as a lay-off (a set: one per suit; a run: its two end cards)."""
    return _accepting_cards(_meld(meld))


def iter_lay_offs(counts: Counts, table: Sequence[Meld]) -> Iterator[TableOption]:
    """Every lay-off the hand has: each card it holds that fits a table meld, at each end."""
    return _iter_lay_offs(require_counts(counts), require_table(table))


def swap_cards(meld: Meld) -> list[Card]:
    """The naturals that may take a joker's place in this meld."""
    return _swap_cards(_meld(meld))


def swap_leaves_action(
    counts: Counts, table: Sequence[Meld], option: TableOption, rules: Rules
) -> bool:
    """Whether a meld or lay-off is still possible after this swap (a swap is not an action)."""
    melds = require_table(table)
    return _swap_leaves_action(require_counts(counts), melds, _option(option, melds), _rules(rules))


def find_action(
    counts: Counts, table: Sequence[Meld], passport: bool, rules: Rules
) -> Action | None:
    """An action the player can take now, swaps first where they are needed, or None (dead).

    `can_play` says whether a player can act (a `Verdict` naming the rule); this says how: the
    `Action`'s `meld` to lay down or `lay_off` to make, after its `swaps` (rule `swap`), in order.
    The engine asks the same question of its own hands (`Deal`, `can_play`); this door checks
    its arguments first.

    >>> from penang_lib import Rules, check_meld, parse_cards
    >>> from penang_lib.engine.cards import to_counts
    >>> table = [check_meld("5H 6H 7H").reading]
    >>> action = find_action(to_counts(parse_cards("8H 9C")), table, True, Rules())
    >>> action.rule, str(action.lay_off.card)
    ('lay-off', '8H')
    >>> str(find_action(to_counts(parse_cards("9C 9D 9S")), [], False, Rules()).meld)
    '9S 9D 9C'
    >>> find_action(to_counts(parse_cards("2D 9C")), table, True, Rules()) is None
    True
    """
    return _find_action(
        require_counts(counts),
        require_table(table),
        require_flag(passport, "passport"),
        _rules(rules),
    )
