"""Property tests: seeded deals played out by random legal moves (hypothesis draws the seeds).

Whatever is played, no card is lost or duplicated, every table meld stays legal, `pop` restores
the exact state, a refused push changes nothing, `is_legal` agrees with `legal_moves`, copies
are independent, and every deal ends with a winner.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from penang_lib import (
    JOKER,
    RULE_BOOK,
    Card,
    Deal,
    DeclareDead,
    DeclareGame,
    EndCondition,
    EndTurn,
    IllegalMove,
    LayOff,
    MeldMove,
    Phase,
    Rules,
    Status,
    Swap,
    check_meld,
)
from penang_lib.engine.moves import Move

MAX_MOVES = 1500
"""No deal needs this many pushes: every action sheds a card, and swaps are bounded by jokers."""
SAMPLE = 200
"""How many moves to take from `legal_moves` (a hand with jokers has thousands of melds)."""
SMALL = 2000
"""Below this many legal moves, the whole list is compared with `is_legal`."""

seeds = st.integers(min_value=0, max_value=2**32 - 1)
table_sizes = st.integers(min_value=2, max_value=5)
joker_counts = st.sampled_from([6, 8])


def new_deal(seed: int, players: int, jokers: int) -> Deal:
    return Deal(players=players, seed=seed, rules=Rules(jokers=jokers))


def choose(deal: Deal, rng: random.Random) -> Move:
    """A random legal move, ending the turn half the time it may, so that deals finish."""
    moves = list(islice(deal.legal_moves, SAMPLE))
    assert moves, f"no legal move in a deal that is not over:\n{deal}"
    if EndTurn() in moves and rng.random() < 0.5:
        return EndTurn()
    return rng.choice(moves)


def walk(deal: Deal, rng: random.Random, visit: Callable[[Deal], None] | None = None) -> int:
    """Play `deal` to its end with random legal moves, calling `visit` before each push."""
    for count in range(MAX_MOVES):
        if deal.phase is Phase.OVER:
            return count
        if visit is not None:
            visit(deal)
        deal.push(choose(deal, rng))
    raise AssertionError(f"the deal did not end in {MAX_MOVES} moves:\n{deal}")


def has_plain_joker(move: Move) -> bool:
    if isinstance(move, MeldMove):
        return any(c.is_joker and c.as_rank is None for c in move.cards)
    if isinstance(move, LayOff | Swap):
        return move.card.is_joker and move.card.as_rank is None
    return False


def has_joker(move: Move) -> bool:
    if isinstance(move, MeldMove):
        return any(c.is_joker for c in move.cards)
    if isinstance(move, LayOff | Swap):
        return move.card.is_joker
    return False


def candidates(deal: Deal, rng: random.Random, legal: list[Move]) -> list[Move]:
    """Moves worth trying now, most of them illegal: random cards from the hand as a meld,
    random cards laid off or swapped on random melds (one index past the table too), jokers
    plain or noted with any card, legal melds with a card added or dropped, and the moves
    without cards."""
    hand = deal.hand()
    naturals = [c for c in hand if not c.is_joker]
    targets = len(deal.table) + 1
    out: list[Move] = [EndTurn(), DeclareDead(), DeclareGame()]
    for _ in range(4):
        if len(hand) >= 3:
            out.append(MeldMove(tuple(rng.sample(hand, rng.randint(3, min(5, len(hand)))))))
        if hand:
            out.append(LayOff(rng.randrange(targets), rng.choice(hand)))
            out.append(Swap(rng.randrange(targets), rng.choice(hand)))
        if naturals:
            out.append(LayOff(rng.randrange(targets), rng.choice(naturals)))
            other = Card(rng.randint(1, 13), rng.choice("SHDC"))
            out.append(Swap(rng.randrange(targets), other))
    if JOKER in hand and naturals:
        # Jokers noted with any card (or rank): right, wrong rank, wrong suit.
        for _ in range(3):
            note = Card.joker(rng.randint(1, 13), rng.choice(["S", "H", "D", "C", None]))
            first = rng.choice(naturals)
            same_suit = [c for c in naturals if c.suit == first.suit and c != first]
            second = rng.choice(same_suit or naturals)
            out.append(MeldMove((first, second, note)))
            out.append(LayOff(rng.randrange(targets), note))
            out.append(MeldMove((first, second, JOKER)))
            out.append(LayOff(rng.randrange(targets), JOKER))
    melds = [m for m in legal if isinstance(m, MeldMove)]
    for meld in rng.sample(melds, min(3, len(melds))):
        cards = list(meld.cards)
        if naturals:
            out.append(MeldMove((*cards, rng.choice(naturals))))
        if len(cards) > 3:
            cards.pop(rng.randrange(len(cards)))
            out.append(MeldMove(tuple(cards)))
    return out


def effect(deal: Deal, move: Move) -> tuple[object, ...]:
    """The hands and table after `move` (pushed and taken back)."""
    deal.push(move)
    done = (tuple(deal.hands), tuple(deal.table))
    deal.pop()
    return done


def similar(move: Move, listed: list[Move]) -> list[Move]:
    """The listed moves that could be `move` with its jokers spelled out."""
    if isinstance(move, MeldMove):
        naturals = [c for c in move.cards if not c.is_joker]
        return [
            m
            for m in listed
            if isinstance(m, MeldMove)
            and len(m.cards) == len(move.cards)
            and [c for c in m.cards if not c.is_joker] == naturals
        ]
    if isinstance(move, LayOff):
        return [m for m in listed if isinstance(m, LayOff) and m.target == move.target]
    return [m for m in listed if type(m) is type(move)]


# -- cards, table, end -------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(seed=seeds, players=table_sizes, jokers=joker_counts, end=st.sampled_from(EndCondition))
def test_random_play_keeps_every_card_and_a_legal_table(
    seed: int, players: int, jokers: int, end: EndCondition
) -> None:
    deal = Deal(players=players, seed=seed, rules=Rules(jokers=jokers, end_condition=end))
    dealt = deal.counts_dealt()
    packs = 3 if players == 5 else 2
    assert sum(dealt) == 52 * packs + jokers
    # check_meld knows nothing of the third pack five players use: tell it through Rules.
    meld_rules = dataclasses.replace(deal.rules, packs=deal.copies)

    def visit(d: Deal) -> None:
        assert d.counts_now() == dealt
        assert all(n >= 0 for hand in d.hands for n in hand)
        assert len(d.owners) == len(d.table)
        for meld in d.table:
            verdict = check_meld(str(meld), meld_rules)
            assert verdict.ok, f"{meld}: {verdict.reason}"
            assert verdict.kind == meld.kind.value
        for move in islice(d.legal_moves, SAMPLE):
            assert d.is_legal(move), f"{move}: {d.explain_illegal(move)}"

    moves = walk(deal, random.Random(seed), visit)
    assert moves > 0
    assert deal.phase is Phase.OVER
    assert deal.counts_now() == dealt
    winners = deal.winners
    assert winners
    scores = deal.scores
    out = [p for p in range(players) if deal.status[p] is Status.OUT]
    if out:
        assert winners == out
        assert scores[out[0]] == 0
    elif end is EndCondition.ALL_DEAD:
        assert all(s is not Status.ALIVE for s in deal.status)
        assert winners == [p for p in range(players) if scores[p] == min(scores)]
    else:
        # House rule: the deal ended with at most one player alive.
        assert sum(s is Status.ALIVE for s in deal.status) <= 1
        assert len({scores[p] for p in winners}) == 1
    assert [e.rule for e in deal.events[-2:]] == ["end", "scoring"]
    assert deal.events[-1].counts == tuple(scores)
    assert {e.rule for e in deal.events} <= set(RULE_BOOK)
    assert list(deal.legal_moves) == []


# -- undo --------------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=table_sizes, jokers=joker_counts)
def test_pop_restores_the_exact_state(seed: int, players: int, jokers: int) -> None:
    deal = new_deal(seed, players, jokers)
    rng = random.Random(seed)
    start = deal.state_key()
    history: list[tuple[object, ...]] = []
    while deal.phase is Phase.PLAYING:
        assert len(history) < MAX_MOVES
        key = deal.state_key()
        events = deal.events
        upcoming = list(islice(deal.legal_moves, 20))
        move = choose(deal, rng)
        pushed = deal.push(move)
        after = deal.state_key()
        assert deal.events == [*events, *pushed]
        assert deal.pop() == move
        assert deal.state_key() == key
        assert deal.events == events
        assert list(islice(deal.legal_moves, 20)) == upcoming
        assert deal.push(move) == pushed
        assert deal.state_key() == after
        history.append(key)
    # Taking back every move walks the same states in reverse, to the deal as dealt.
    for key in reversed(history):
        deal.pop()
        assert deal.state_key() == key
    assert deal.state_key() == start
    assert deal.events == list(deal.start_events)
    with pytest.raises(IndexError):
        deal.pop()


# -- refused moves -----------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=table_sizes, jokers=joker_counts)
def test_rejected_push_changes_nothing(seed: int, players: int, jokers: int) -> None:
    deal = new_deal(seed, players, jokers)
    rng = random.Random(seed ^ 0x5EED)
    dealt = deal.counts_dealt()
    tried = {"legal": 0, "illegal": 0}

    def visit(d: Deal) -> None:
        legal = list(islice(d.legal_moves, SAMPLE))
        tries: list[tuple[Move, int | None]] = [(m, None) for m in candidates(d, rng, legal)]
        if d.players > 1:
            other = (d.turn + rng.randrange(1, d.players)) % d.players
            tries.append((rng.choice(legal), other))
        for move, player in tries:
            key = d.state_key()
            events = d.events
            if d.is_legal(move, player):
                tried["legal"] += 1
                d.push(move, player)
                assert d.counts_now() == dealt
                d.pop()
                assert d.state_key() == key
                continue
            tried["illegal"] += 1
            why = d.explain_illegal(move, player)
            assert why is not None
            assert why.rule in RULE_BOOK, why.rule
            assert why.reason.strip()
            with pytest.raises(IllegalMove) as info:
                d.push(move, player)
            assert info.value.rule == why.rule
            assert d.state_key() == key
            assert d.events == events
            if player is not None:
                assert info.value.rule == "turn-order"

    walk(deal, rng, visit)
    assert tried["illegal"] > 0
    # After the end every move is refused with rule `end`.
    for move in (EndTurn(), DeclareDead(), DeclareGame()):
        key = deal.state_key()
        with pytest.raises(IllegalMove) as info:
            deal.push(move)
        assert info.value.rule == "end"
        assert deal.state_key() == key


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=table_sizes, jokers=joker_counts)
def test_is_legal_agrees_with_legal_moves(seed: int, players: int, jokers: int) -> None:
    deal = new_deal(seed, players, jokers)
    rng = random.Random(seed ^ 0xA11)
    compared = {"small": 0, "legal": 0, "joker": 0}

    def visit(d: Deal) -> None:
        listed = list(islice(d.legal_moves, SMALL))
        if len(listed) >= SMALL:
            return
        compared["small"] += 1
        every = set(listed)
        for move in rng.sample(listed, min(30, len(listed))):
            assert d.is_legal(move), f"{move}: {d.explain_illegal(move)}"
        for move in candidates(d, rng, listed):
            if has_plain_joker(move):
                # legal_moves spells each joker out (JK@7H); a plain JK that is_legal accepts
                # must do the same as one of the listed moves.
                if d.is_legal(move):
                    compared["joker"] += 1
                    done = effect(d, move)
                    assert any(effect(d, m) == done for m in similar(move, listed)), (
                        f"is_legal({move}) but no listed move does the same"
                    )
                continue
            if has_joker(move):
                continue  # noted jokers have several spellings (JK@9, JK@9H in a set of nines)
            legal = d.is_legal(move)
            compared["legal"] += legal
            assert legal == (move in every), (
                f"is_legal({move}) is {legal} but legal_moves "
                f"{'omits' if legal else 'lists'} it: {d.explain_illegal(move)}"
            )

    walk(deal, rng, visit)
    assert compared["small"] > 0


# -- copies ------------------------------------------------------------------------------------
@settings(max_examples=15, deadline=None)
@given(seed=seeds, players=table_sizes, jokers=joker_counts)
def test_copy_is_independent(seed: int, players: int, jokers: int) -> None:
    deal = new_deal(seed, players, jokers)
    rng = random.Random(seed ^ 0xC0)

    def visit(d: Deal) -> None:
        if rng.random() > 0.3:
            return
        key = d.state_key()
        events = d.events
        upcoming = list(islice(d.legal_moves, 20))
        twin = d.copy()
        assert twin.state_key() == key
        assert twin.events == events
        twin.push(choose(twin, rng))
        assert d.state_key() == key
        assert d.events == events
        assert list(islice(d.legal_moves, 20)) == upcoming
        twin_key = twin.state_key()
        d.push(choose(d, rng))
        assert twin.state_key() == twin_key
        twin.pop()
        assert twin.state_key() == key
        d.pop()
        assert d.state_key() == key

    walk(deal, rng, visit)
    assert deal.phase is Phase.OVER


def test_a_finished_copy_leaves_the_original_playing() -> None:
    deal = new_deal(11, 4, 6)
    twin = deal.copy()
    walk(twin, random.Random(11))
    assert twin.phase is Phase.OVER
    assert deal.phase is Phase.PLAYING
    assert deal.table == []
    assert deal.hands == list(deal.initial_hands)
