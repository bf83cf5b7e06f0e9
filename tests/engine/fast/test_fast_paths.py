"""The engine's shortcuts give the answers of the full checks they stand in for.

- A meld move that carries its reading (`MeldMove.of_meld`) is pushed without a second search,
  and means exactly what the same move without a reading means: same table, same events, same
  refusals. A reading that is not the one the search would give is never trusted.
- The table index a deal keeps (`Deal.table_infos`) is what a fresh look at the table gives,
  after every push, pop and copy.
- Whether the player to move can still act (the Dead check, from bit masks) agrees with the
  whole search for an action.
- What a deal keeps per hand (`HandFacts`: shape, cards held, meld count, derived card by card)
  is what a fresh look at the hand gives, after every push, pop and copy.
- The meld count and meld number k, walked window by window, list `analysis.iter_melds` in its
  own order (the order the random bot numbers moves in).
- A swap at the start of a turn is kept, without the whole search, exactly when the full check
  keeps it (the joker it brings fits some set or short run), in the view and in the deal.
- `pop` takes back exactly what the push changed, from the little the push kept.
- A count read from the per-card values is the sum of the cards' values.
"""

from __future__ import annotations

import random

import pytest

from penang_lib import (
    JOKER,
    Deal,
    DeclareDead,
    EndTurn,
    IllegalMove,
    MeldMove,
    Rules,
    Swap,
    check_lay_off,
    parse_cards,
)
from penang_lib.engine.analysis import iter_melds, unchecked_find_action
from penang_lib.engine.bots import play_deal
from penang_lib.engine.cards import Card, cards_of, full_deck, to_counts
from penang_lib.engine.checks import unchecked_counts_points
from penang_lib.engine.fast.meld_count import clear_caches, count_melds, hand_shape, nth_meld
from penang_lib.engine.fast.table_index import table_info
from penang_lib.engine.melds import Kind, Meld, run_readings, set_readings
from penang_lib.engine.rules import EndCondition
from penang_lib.engine.view import PlayerView


def _meld_positions(count: int) -> list[Deal]:
    """Positions of seeded bot deals where the player to move can meld."""
    rng = random.Random(5)
    out = []
    for seed in range(count):
        played = play_deal(seed, 4, ["random"])
        replay = Deal(players=4, seed=seed)
        for move in played.move_stack:
            if isinstance(move, MeldMove) and rng.random() < 0.5:
                out.append(replay.copy())
            replay.push(move)
    return out


def test_a_carried_reading_means_what_the_plain_move_means() -> None:
    checked = 0
    for deal in _meld_positions(12):
        melds = [m for m in deal.legal_moves if isinstance(m, MeldMove)][:15]
        for move in melds:
            plain = MeldMove(move.cards)
            assert "_reading" in move.__dict__ and "_reading" not in plain.__dict__
            assert move == plain and hash(move) == hash(plain)
            one, two = deal.copy(), deal.copy()
            assert one.push(move) == two.push(plain)
            assert one == two and one.table == two.table
            checked += 1
    assert checked > 100


def test_every_reading_the_engine_makes_is_the_one_the_search_gives() -> None:
    for deal in _meld_positions(6):
        for move in deal.legal_moves:
            if not isinstance(move, MeldMove):
                continue
            reading = move.__dict__["_reading"]
            allow = deal.rules.all_joker_melds
            found = [*set_readings(move.cards, allow), *run_readings(move.cards, allow)]
            assert found[0] == reading


def _deal_with(hand: str, rules: Rules | None = None) -> Deal:
    return Deal(hands=[hand, "2S 3S 9D"], rules=rules, dealer=1)  # seat 0 moves first


def test_a_forged_reading_is_checked_like_any_move() -> None:
    deal = _deal_with("5H 9C KD 7S 8S")
    forged = Meld(Kind.RUN, tuple(parse_cards("5H 9C KD")), 5, "H")
    move = MeldMove.of_meld(forged)
    before = deal.copy()
    with pytest.raises(IllegalMove) as carried:
        deal.push(move)
    with pytest.raises(IllegalMove) as plain:
        deal.push(MeldMove(move.cards))
    assert (carried.value.rule, carried.value.reason) == (plain.value.rule, plain.value.reason)
    assert deal == before and deal.move_stack == []


def test_a_reading_of_cards_not_in_the_hand_is_refused() -> None:
    deal = _deal_with("5H 6H 8H 9S")
    move = MeldMove.of_meld(Meld.run("H", 5, parse_cards("5H 6H 7H")))
    with pytest.raises(IllegalMove) as error:
        deal.push(move)
    assert error.value.rule == "meld" and "7♥" in error.value.reason
    assert deal.move_stack == []


def test_a_meld_of_jokers_alone_is_trusted_only_where_the_rules_allow_it() -> None:
    jokers = Meld.set_of(9, parse_cards("JK JK JK"))
    strict = Rules(all_joker_melds=False)
    deal = _deal_with("JK JK JK 4C", strict)
    with pytest.raises(IllegalMove):
        deal.push(MeldMove.of_meld(jokers))
    assert deal.move_stack == []
    loose = _deal_with("JK JK JK 4C", Rules(all_joker_melds=True))
    loose.push(MeldMove.of_meld(jokers))
    assert loose.table[0].cards == jokers.cards


def test_a_thirteen_card_run_with_one_ace_is_read_by_the_search() -> None:
    # 2 to K and an ace: the cards read from the low ace and to the high ace alike; the
    # pushed meld is the one the search picks, whichever reading the move carried.
    hand = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 4C"
    cards = parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    readings = run_readings(cards)
    assert len(readings) == 2
    results = []
    for reading in readings:
        deal = _deal_with(hand)
        deal.push(MeldMove.of_meld(reading))
        results.append(deal.table[0])
    plain = _deal_with(hand)
    plain.push(MeldMove(tuple(cards)))
    assert results == [plain.table[0], plain.table[0]]


def test_of_meld_takes_a_meld() -> None:
    with pytest.raises(TypeError, match="of_meld takes a Meld"):
        MeldMove.of_meld("5H 6H 7H")  # type: ignore[arg-type]


def _walk(seeds: range, players: int, rules: Rules | None = None) -> list[Deal]:
    """Every position of seeded random-bot deals (each a copy)."""
    out = []
    for seed in seeds:
        played = play_deal(seed, players, ["random", "careful"], rules)
        replay = Deal(players=players, seed=seed, rules=rules)
        for move in played.move_stack:
            out.append(replay.copy())
            replay.push(move)
        out.append(replay)
    return out


RULE_VARIANTS = [None, Rules(jokers=8), Rules(jokers=8, all_joker_melds=True)]


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=["default", "8 jokers", "all-joker melds"])
def test_the_table_index_follows_the_table(rules: Rules | None) -> None:
    positions = _walk(range(4), 4, rules)
    for deal in positions:
        assert deal.table_infos == [table_info(meld) for meld in deal.table]
    deal = positions[-1]
    while deal.move_stack:
        deal.pop()
        assert deal.table_infos == [table_info(meld) for meld in deal.table]


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=["default", "8 jokers", "all-joker melds"])
def test_the_quick_dead_check_agrees_with_the_search(rules: Rules | None) -> None:
    seen = {True: 0, False: 0}
    for players in (2, 4, 5):
        for deal in _walk(range(3), players, rules):
            if deal.is_over:
                continue
            me = deal.turn
            found = unchecked_find_action(deal.hands[me], deal.table, deal.passport[me], deal.rules)
            assert deal._can_act() == (found is not None)
            seen[found is not None] += 1
    assert seen[True] > 100 and seen[False] > 5


def test_a_view_built_by_hand_must_agree_on_its_hand_size() -> None:
    deal = Deal(players=3, seed=4)
    fields = {
        "seat": deal.turn,
        "players": 3,
        "names": deal.names,
        "rules": deal.rules,
        "copies": deal.copies,
        "counts": deal.hands[deal.turn],
        "table": deal.table,
        "owners": deal.owners,
        "passports": deal.passport,
        "actions": 0,
        "hand_sizes": [deal.hand_size(p) for p in range(3)],
        "status": deal.status,
        "turn_number": 1,
    }
    built = PlayerView(**fields)  # type: ignore[arg-type]
    assert built.hand_sizes == PlayerView.of(deal).hand_sizes
    assert list(built.legal_moves) == list(PlayerView.of(deal).legal_moves)
    sizes = list(fields["hand_sizes"])  # type: ignore[call-overload]
    sizes[deal.turn] += 1
    with pytest.raises(ValueError, match="hand_sizes gives seat"):
        PlayerView(**{**fields, "hand_sizes": sizes})


def _fresh_facts(deal: Deal, seat: int) -> tuple[object, ...]:
    """What a fresh look at a seat's hand gives: shape, naturals held (bit mask), meld count."""
    clear_caches()  # no memo answers: work everything out again
    counts = deal.hands[seat]
    held = sum(1 << i for i in range(52) if counts[i])
    return counts, hand_shape(counts), held, count_melds(counts, deal.rules)


def _kept_facts(deal: Deal, seat: int) -> tuple[object, ...]:
    facts = deal._facts[seat]
    return facts.counts, facts.shape, facts.held, facts.melds()


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=["default", "8 jokers", "all-joker melds"])
def test_the_hand_facts_follow_the_hands(rules: Rules | None) -> None:
    positions = _walk(range(3), 4, rules)
    for deal in positions[::3]:
        for seat in range(deal.players):
            assert _kept_facts(deal, seat) == _fresh_facts(deal, seat)
    deal = positions[-1]
    while deal.move_stack:
        deal.pop()
        assert _kept_facts(deal, deal.turn) == _fresh_facts(deal, deal.turn)


def test_hand_facts_count_a_card_taken_twice_once() -> None:
    # A set may hold both copies of a card: the hand loses both, and the facts follow.
    deal = _deal_with("7H 7H 7S 9C 10C JC")
    deal.push(MeldMove.of("7H 7H 7S"))
    assert _kept_facts(deal, 0) == _fresh_facts(deal, 0)
    assert deal._facts[0].melds() == 1  # 9C 10C JC


@pytest.mark.parametrize("all_jokers", [False, True])
def test_melds_are_numbered_in_the_order_of_the_search(all_jokers: bool) -> None:
    rng = random.Random(11)
    rules = Rules(jokers=8, all_joker_melds=all_jokers)
    deck = full_deck(2, 8)
    hands = [parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JK JK")]
    hands += [rng.sample(deck, rng.choice((6, 12, 20, 25))) for _ in range(120)]
    for cards in hands:
        counts = to_counts(cards)
        numbered = [nth_meld(counts, rules, k) for k in range(count_melds(counts, rules))]
        assert numbered == list(iter_melds(counts, rules))


def _view_swaps_are_the_deals(deal: Deal) -> None:
    legal = [move for move in deal.legal_moves if isinstance(move, Swap)]
    view = PlayerView.of(deal)
    assert view.swaps() == legal
    assert set(view.legal_moves) == set(deal.legal_moves)


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=["default", "8 jokers", "all-joker melds"])
def test_the_swap_shortcut_keeps_what_the_full_check_keeps(rules: Rules | None) -> None:
    swaps = 0
    for deal in _walk(range(6), 4, rules):
        infos_take = any(info.joker_cards for info in deal.table_infos)
        # The rule book's own check (rule `lay-off`): some table meld takes a joker.
        assert infos_take == any(check_lay_off(meld, JOKER, rules).ok for meld in deal.table)
        if deal.is_over or deal.actions or not deal.passport[deal.turn]:
            continue
        _view_swaps_are_the_deals(deal)
        swaps += len(PlayerView.of(deal).swaps())
    assert swaps > 5


def _full_runs_table(extra: str) -> Deal:
    """Two full A-to-A runs on the table (one with a joker for 4H), none taking a joker; seat 1
    to move at the start of a turn, holding 4H and `extra`."""
    north = "AH 2H 3H JK 5H 6H 7H 8H 9H 10H JH QH KH AH 9D"
    east = f"AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 4H {extra}"
    deal = Deal(hands=[north, east], dealer=1)
    deal.push(MeldMove(tuple(parse_cards(north)[:14])))
    deal.push(EndTurn())
    deal.push(MeldMove(tuple(parse_cards(east)[:14])))
    deal.push(EndTurn())
    deal.push(DeclareDead())  # north: 9D fits nowhere
    assert deal.turn == 1 and deal.actions == 0
    return deal


def test_a_swap_on_a_table_of_full_runs_gets_the_whole_search() -> None:
    dead_end = _full_runs_table("9C")  # after the swap: a joker and 9C, nothing to play
    assert not any(info.joker_cards for info in dead_end.table_infos)
    _view_swaps_are_the_deals(dead_end)
    assert PlayerView.of(dead_end).swaps() == []
    assert list(dead_end.legal_moves) == [DeclareDead()]
    with pytest.raises(IllegalMove) as refused:
        dead_end.push(Swap(0, parse_cards("4H")[0]))
    assert refused.value.rule == "swap"
    melds_after = _full_runs_table("5C 6C")  # the joker then melds with 5C 6C
    _view_swaps_are_the_deals(melds_after)
    assert PlayerView.of(melds_after).swaps() == [Swap(0, parse_cards("4H")[0])]
    melds_after.push(Swap(0, parse_cards("4H")[0]))


POP_VARIANTS = [None, Rules(jokers=8), Rules(end_condition=EndCondition.ONE_ALIVE)]


@pytest.mark.parametrize("rules", POP_VARIANTS, ids=["default", "8 jokers", "one alive"])
@pytest.mark.parametrize("players", [2, 5])
def test_pop_takes_back_exactly_what_the_push_changed(rules: Rules | None, players: int) -> None:
    for seed in range(2):
        played = play_deal(seed, players, ["random", "careful"], rules)
        deal = Deal(players=players, seed=seed, rules=rules)
        before = []
        for move in played.move_stack:
            before.append((deal._snapshot(), list(deal.table_infos), list(deal._sizes)))
            deal.push(move)
        while deal.move_stack:
            deal.pop()
            snapshot, infos, sizes = before.pop()
            assert (deal._snapshot(), deal.table_infos, deal._sizes) == (snapshot, infos, sizes)
            assert deal.turn_number == sum(deal.turns)
            assert [facts.counts for facts in deal._facts] == deal.hands
        assert deal == Deal(players=players, seed=seed, rules=rules)


def test_a_count_is_the_sum_of_the_card_values() -> None:
    rng = random.Random(3)
    values = {**Rules().values, "A": 11, "K": 9, "JK": 50, "7": 1}
    deck = full_deck(2, 8)
    for rules in (Rules(), Rules(jokers=8, values=values)):
        for _ in range(50):
            cards = rng.sample(deck, rng.randrange(0, 30))
            counts = to_counts(cards)
            assert cards_of(counts) == sorted(cards, key=Card.sort_key)
            expected = sum(rules.card_value(card.rank) for card in cards)
            assert unchecked_counts_points(counts, rules) == expected
