"""The `Deal` state machine against the rule book (RULES.md), with prepared positions.

Each test names the rule ids it checks. Positions are given as card text with `hands=`; with
`dealer=n-1` seat 0 (the dealer's left) moves first.
"""

from __future__ import annotations

import random

import pytest

from penang_lib import (
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
    deadwood_points,
    full_deck,
    parse_cards,
    parse_move,
)
from penang_lib.engine import deal as deal_module
from penang_lib.engine.cards import to_counts
from penang_lib.engine.events import Event
from penang_lib.engine.moves import Move
from tests.conftest import prepared

JK = Card.joker()


# -- helpers -------------------------------------------------------------------------------------
def rule_ids(events: tuple[Event, ...] | list[Event]) -> list[str]:
    return [e.rule for e in events]


def refused(deal: Deal, move: Move, rule: str, player: int | None = None) -> IllegalMove:
    """Assert `move` is illegal under `rule`, and that trying it changes nothing."""
    key = deal.state_key()
    events = list(deal.events)
    assert not deal.is_legal(move, player)
    explained = deal.explain_illegal(move, player)
    assert explained is not None
    assert explained.rule == rule, explained.reason
    with pytest.raises(IllegalMove) as info:
        deal.push(move, player)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.rule == rule, error.reason
    assert error.reason.strip()
    assert deal.state_key() == key
    assert deal.events == events
    return error


def play(deal: Deal, *moves: str | Move) -> list[Event]:
    """Push moves (text like "meld 5H 6H 7H" or move values); return all their events."""
    out: list[Event] = []
    for move in moves:
        value = parse_move(move) if isinstance(move, str) else move
        out.extend(deal.push(value))
    return out


def holds(deal: Deal, seat: int, cards: str) -> bool:
    """Whether `seat` holds exactly these cards (in any order)."""
    return deal.hands[seat] == to_counts(parse_cards(cards))


def playing(deal: Deal) -> bool:
    """Whether the deal is still being played (a function, so that type checkers do not narrow
    `deal.phase` across the pushes that change it)."""
    return deal.phase is Phase.PLAYING


def legal(deal: Deal) -> list[Move]:
    return list(deal.legal_moves)


# -- the deck and the deal (rules deck, players, deal, dealer) ------------------------------------
@pytest.mark.parametrize("seed", [0, 7, 123456])
def test_seeded_deal_is_reproducible(seed: int) -> None:
    a = Deal(players=4, seed=seed)
    b = Deal(players=4, seed=seed)
    assert a.dealer == b.dealer
    assert a.initial_hands == b.initial_hands
    assert a.stock == b.stock
    assert a.turn == b.turn
    assert a.start_events == b.start_events


def test_different_seeds_give_different_deals() -> None:
    hands = {Deal(players=4, seed=seed).initial_hands for seed in range(10)}
    assert len(hands) == 10


@pytest.mark.parametrize(
    ("players", "size", "deck"),
    [(2, 25, 110), (3, 25, 110), (4, 20, 110), (5, 20, 162)],
)
def test_hand_sizes_and_deck(players: int, size: int, deck: int) -> None:
    deal = Deal(players=players, seed=3)
    assert deal.players == players
    assert [sum(h) for h in deal.hands] == [size] * players
    assert [len(deal.hand(p)) for p in range(players)] == [size] * players
    dealt = deal.counts_dealt()
    assert sum(dealt) == deck
    assert dealt[52] == 6
    copies = 3 if players == 5 else 2
    assert all(n == copies for n in dealt[:52])
    assert sum(deal.stock) == deck - size * players
    assert deal.counts_now() == dealt


@pytest.mark.parametrize(("players", "deck"), [(2, 112), (4, 112), (5, 164)])
def test_eight_jokers_house_rule(players: int, deck: int) -> None:
    deal = Deal(players=players, seed=5, rules=Rules(jokers=8))
    assert sum(deal.counts_dealt()) == deck
    assert deal.counts_dealt()[52] == 8


def _expected_deal(
    seed: int, players: int, dealer: int | None, jokers: int = 6
) -> tuple[int, list[list[Card]], list[Card]]:
    """Redo the shuffle the way deal.py does: a dealer is drawn first (and replaced by a given
    one, so a given dealer deals the same shuffle), then the deck is shuffled."""
    rng = random.Random(seed)
    drawn = rng.randrange(players)
    if dealer is None:
        dealer = drawn
    deck = full_deck(3 if players == 5 else 2, jokers)
    rng.shuffle(deck)
    size = Rules().hand_size(players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i in range(size * players):
        hands[(dealer + 1 + i) % players].append(deck[i])
    return dealer, hands, deck


@pytest.mark.parametrize(("seed", "players"), [(7, 4), (11, 2), (12, 3), (99, 5)])
def test_cards_dealt_one_at_a_time_from_dealers_left(seed: int, players: int) -> None:
    deal = Deal(players=players, seed=seed)
    dealer, hands, deck = _expected_deal(seed, players, None)
    assert deal.dealer == dealer
    left = (dealer + 1) % players
    # The first card off the deck goes to the dealer's left, the next one clockwise from there.
    assert deck[0] in deal.hand(left)
    assert deck[1] in deal.hand((left + 1) % players)
    for seat in range(players):
        assert deal.initial_hands[seat] == to_counts(hands[seat])
    size = len(hands[0])
    assert deal.stock == to_counts(deck[size * players :])


def test_given_dealer_is_used() -> None:
    deal = Deal(players=4, seed=21, dealer=1)
    assert deal.dealer == 1
    assert deal.turn == 2
    _, hands, _ = _expected_deal(21, 4, 1)
    assert [deal.initial_hands[s] for s in range(4)] == [to_counts(h) for h in hands]


@pytest.mark.parametrize("players", [1, 6])
def test_players_out_of_range(players: int) -> None:
    with pytest.raises(ValueError, match="players"):
        Deal(players=players, seed=1)


def test_dealer_out_of_range() -> None:
    with pytest.raises(ValueError):
        Deal(players=4, seed=1, dealer=4)


def test_prepared_hands_must_fit_the_deck() -> None:
    with pytest.raises(ValueError, match="deck"):
        prepared("7H 7H 7H", "2C 3C 4C", "5D 6D 7D", "8S 9S 10S")
    with pytest.raises(ValueError):
        prepared("JK JK JK JK", "JK JK JK 5C")  # 7 jokers, the deck holds 6
    # Five players use three packs, so three 7H are possible.
    deal = prepared("7H 7H 7H", "2C 3C 4C", "5D 6D 7D", "8S 9S 10S", "4H 5H 6H")
    assert deal.is_legal(MeldMove.of("7H 7H 7H"))
    assert sum(deal.counts_dealt()) == 162


def test_prepared_hands_keep_the_rest_of_the_deck_aside() -> None:
    deal = prepared("7H 8H 9H", "2C 3C 4C")
    assert sum(deal.counts_dealt()) == 110
    assert sum(deal.stock) == 104
    assert holds(deal, 0, "7H 8H 9H")
    assert holds(deal, 1, "2C 3C 4C")


def test_start_events() -> None:
    deal = Deal(players=4, seed=7)
    events = deal.start_events
    assert rule_ids(events) == ["players", "deck", "dealer", "deal", "turn-order"]
    players, deck, dealer, dealt, order = events
    assert players.detail == "4"
    assert "110" in deck.detail
    assert dealer.player == deal.dealer
    assert dealt.player == (deal.dealer + 1) % 4
    assert dealt.after == 20
    assert order.player == deal.turn == (deal.dealer + 1) % 4
    assert deal.events == list(events)


# -- turn order (rule turn-order) ---------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_seeded_first_player_is_dealers_left(seed: int) -> None:
    deal = Deal(players=4, seed=seed)
    assert deal.turn == (deal.dealer + 1) % 4
    assert deal.turns[deal.turn] == 1
    assert sum(deal.turns) == 1


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_prepared_first_player_is_dealers_left(dealer: int) -> None:
    deal = prepared("2S 3S 4S", "2H 3H 4H", "2D 3D 4D", "2C 3C 4C 9C", dealer=dealer)
    assert deal.dealer == dealer
    assert deal.turn == (dealer + 1) % 4


def test_turns_go_clockwise_and_skip_dead_players() -> None:
    deal = prepared(
        "2S 3S 4S 5S 6S 9D",
        "KC 5D 9H",  # no meld: dead at once
        "2H 3H 4H 5H 6H 9C",
        "2D 3D 4D 5D 6D 9S",
        dealer=3,
    )
    seen = [deal.turn]
    events = play(deal, "meld 2S 3S 4S", "end_turn")
    assert events[-1].rule == "turn-order"
    assert events[-1].player == 1
    seen.append(deal.turn)
    play(deal, "dead")
    assert deal.status[1] is Status.DEAD_PASSPORT
    seen.append(deal.turn)
    play(deal, "meld 2H 3H 4H", "end_turn")
    seen.append(deal.turn)
    play(deal, "meld 2D 3D 4D", "end_turn")
    seen.append(deal.turn)
    events = play(deal, "lay_off 0 5S", "end_turn")
    assert events[-1].rule == "turn-order"
    assert events[-1].player == 2
    assert events[-1].detail == "1"  # the dead seat was skipped
    seen.append(deal.turn)
    assert seen == [0, 1, 2, 3, 0, 2]
    assert deal.turns == [2, 1, 2, 1]


def test_move_by_the_wrong_player_is_refused() -> None:
    deal = prepared("2S 3S 4S 9D", "2H 3H 4H 9C")
    error = refused(deal, MeldMove.of("2H 3H 4H"), "turn-order", player=1)
    assert deal.names[1] in error.reason or deal.names[0] in error.reason
    refused(deal, EndTurn(), "turn-order", player=1)
    # The player to move may name themselves.
    deal.push(MeldMove.of("2S 3S 4S"), player=0)
    refused(deal, EndTurn(), "turn-order", player=1)
    deal.push(EndTurn(), player=0)
    assert deal.turn == 1
    refused(deal, MeldMove.of("2S 3S 4S"), "turn-order", player=0)


# -- the turn (rule turn) -----------------------------------------------------------------------
def test_end_turn_without_an_action_is_refused() -> None:
    deal = prepared("2S 3S 4S 9D", "2H 3H 4H 9C")
    assert EndTurn() not in legal(deal)
    refused(deal, EndTurn(), "turn")
    play(deal, "meld 2S 3S 4S")
    assert deal.actions == 1
    assert EndTurn() in legal(deal)
    events = play(deal, "end_turn")
    assert rule_ids(events) == ["turn", "turn-order"]
    assert deal.turn == 1
    assert deal.actions == 0
    refused(deal, EndTurn(), "turn")


def test_many_actions_in_one_turn() -> None:
    deal = prepared("2S 3S 4S 5S 9D 9C 9H KD KH KC 6S AD", "2H 3H 4H 9S")
    play(deal, "meld 2S 3S 4S", "meld 9D 9C 9H", "lay_off 0 5S", "meld KD KH KC", "lay_off 0 6S")
    assert deal.actions == 5
    assert deal.turn == 0
    assert holds(deal, 0, "AD")
    assert [str(m) for m in deal.table] == ["2S 3S 4S 5S 6S", "9H 9D 9C", "KH KD KC"]
    assert deal.owners == [0, 0, 0]
    play(deal, "end_turn")
    assert deal.turn == 1


# -- passport (rules passport, dead.passport) ---------------------------------------------------
def test_lay_off_before_passport_is_refused() -> None:
    deal = prepared("5S 6S 7S 9D", "8S 4C 4D 4H")
    play(deal, "meld 5S 6S 7S", "end_turn")
    assert not deal.passport[1]
    error = refused(deal, LayOff(0, Card.parse("8S")), "passport")
    assert "meld" in error.reason
    assert LayOff(0, Card.parse("8S")) not in legal(deal)
    # The passport is a meld from the hand; after it, the lay-off is fine in the same turn.
    events = play(deal, "meld 4C 4D 4H")
    assert rule_ids(events)[:2] == ["passport", "set"]
    assert deal.passport[1]
    events = play(deal, "lay_off 0 8S")
    assert rule_ids(events) == ["lay-off"]
    assert str(deal.table[0]) == "5S 6S 7S 8S"
    assert deal.owners[0] == 0  # laying off on someone else's meld does not change its owner


def test_swap_before_passport_is_refused() -> None:
    deal = prepared("5H 6H JK 9D", "7H 9S 9C 2D 3D 4D")
    play(deal, "meld 5H 6H JK@7H", "end_turn")
    refused(deal, Swap(0, Card.parse("7H")), "passport")
    assert not any(isinstance(m, Swap | LayOff) for m in legal(deal))


def test_passport_event_only_on_the_first_meld() -> None:
    deal = prepared("2S 3S 4S 9D 9C 9H", "2H 3H 4H 5C")
    first = play(deal, "meld 2S 3S 4S")
    assert rule_ids(first) == ["passport", "run"]
    assert first[0].player == 0
    assert first[0].before == 6
    assert first[0].after == 3
    second = play(deal, "meld 9D 9C 9H")
    assert rule_ids(second) == ["set"]


def test_no_meld_on_first_turn_is_dead_passport() -> None:
    # A lay-off (8S on 5S 6S 7S) would be possible, but a lay-off is not a passport.
    deal = prepared("5S 6S 7S 9D 10D JD KS", "8S 2C 5D KH", "2H 3H 4H QC")
    play(deal, "meld 5S 6S 7S", "end_turn")
    assert deal.turn == 1
    assert legal(deal) == [DeclareDead()]
    assert not deal.can_play().ok
    assert deal.can_play().rule == "dead.passport"
    refused(deal, MeldMove.of("8S 2C 5D"), "meld")
    events = play(deal, "dead")
    assert events[0].rule == "dead.passport"
    assert events[0].player == 1
    assert deal.status[1] is Status.DEAD_PASSPORT
    assert deal.turn == 2
    play(deal, "meld 2H 3H 4H", "end_turn")
    assert deal.turn == 0  # seat 1 is skipped from now on
    play(deal, "meld 9D 10D JD")
    play(deal, "end_turn")
    assert deal.turn == 2


# -- dead (rule dead) ---------------------------------------------------------------------------
def test_declare_dead_refused_when_a_meld_is_possible() -> None:
    deal = prepared("2S 3S 4S 9D", "2H 3H 4H 9C")
    error = refused(deal, DeclareDead(), "dead")
    assert error.reason
    assert DeclareDead() not in legal(deal)


def test_declare_dead_refused_when_a_lay_off_is_possible() -> None:
    deal = prepared("5S 6S 7S 9D", "2H 3H 4H 8S 10C")
    play(deal, "meld 5S 6S 7S", "end_turn", "meld 2H 3H 4H", "end_turn")
    assert deal.turn == 0
    assert legal(deal) == [DeclareDead()]  # 9D fits nothing
    play(deal, "dead")
    assert deal.status[0] is Status.DEAD
    assert deal.turn == 1
    refused(deal, DeclareDead(), "dead")  # 8S can be laid off on 5S 6S 7S
    assert LayOff(0, Card.parse("8S")) in legal(deal)


def test_declare_dead_refused_when_only_a_swap_keeps_the_player_alive() -> None:
    # RULES.md: can_play("7H 9S 9C", ["5H 6H JK@7H"], passport=True) is ok.
    deal = prepared("5H 6H JK KS KD KC 4C", "2D 3D 4D 7H 9S 9C")
    play(deal, "meld 5H 6H JK@7H", "end_turn", "meld 2D 3D 4D", "end_turn")
    play(deal, "meld KS KD KC", "end_turn")
    assert deal.turn == 1
    assert holds(deal, 1, "7H 9S 9C")
    refused(deal, DeclareDead(), "dead")
    assert deal.can_play().ok
    assert deal.can_play().rule == "swap"  # the first action found needs a swap first
    moves = legal(deal)
    assert DeclareDead() not in moves
    assert Swap(0, Card.parse("7H")) in moves
    assert not any(isinstance(m, MeldMove | LayOff) for m in moves)
    events = play(deal, "swap 0 7H")
    assert rule_ids(events) == ["swap"]
    assert deal.actions == 0  # a swap is not an action
    play(deal, "meld 9S 9C JK@9")
    assert deal.hand(1) == []
    assert legal(deal) == [DeclareGame()]


def test_declare_dead_refused_after_an_action() -> None:
    deal = prepared("2S 3S 4S 9D", "2H 3H 4H 9C")
    play(deal, "meld 2S 3S 4S")
    refused(deal, DeclareDead(), "dead")


def test_dead_player_takes_no_further_part() -> None:
    deal = prepared("5S 6S 7S 9D 9C", "2H 3H 4H 8S QD", "KC KD KS 9H 9S 9S 4D")
    play(deal, "meld 5S 6S 7S", "end_turn", "meld 2H 3H 4H", "end_turn")
    play(deal, "meld KC KD KS", "end_turn")
    # Seat 0 holds 9D 9C: nothing fits the table. It must declare Dead.
    assert deal.turn == 0
    assert legal(deal) == [DeclareDead()]
    assert deal.can_play().rule == "dead"
    events = play(deal, "dead")
    assert events[0].rule == "dead"
    assert events[0].counts == (18,)
    assert deal.status[0] is Status.DEAD
    play(deal, "lay_off 0 8S", "end_turn")
    # Seat 2 melds nines that 9D 9C would fit, but a dead player never plays again.
    events = play(deal, "meld 9H 9S 9S", "end_turn")
    assert events[-1].rule == "turn-order"
    assert events[-1].player == 1
    assert events[-1].detail == "0"
    assert deal.turn == 1
    assert deal.status[0] is Status.DEAD
    refused(deal, LayOff(3, Card.parse("9D")), "turn-order", player=0)
    assert holds(deal, 0, "9D 9C")


# -- wildcard swap (rule swap) ------------------------------------------------------------------
def _swap_position() -> Deal:
    """Seat 1 to move with a passport, holding 7H 9S 9C; meld 0 is 5H 6H JK@7H."""
    deal = prepared("5H 6H JK KS KD KC 4C", "2D 3D 4D 7H 9S 9C")
    play(deal, "meld 5H 6H JK@7H", "end_turn", "meld 2D 3D 4D", "end_turn")
    play(deal, "meld KS KD KC", "end_turn")
    return deal


def test_swap_alone_does_not_end_a_turn() -> None:
    deal = _swap_position()
    events = play(deal, "swap 0 7H")
    assert rule_ids(events) == ["swap"]
    assert events[0].detail == "JK@7H"
    assert events[0].before == events[0].after == 3
    assert EndTurn() not in legal(deal)
    refused(deal, EndTurn(), "turn")


def test_swapped_joker_goes_to_hand_and_can_be_laid_off_on_the_same_meld() -> None:
    deal = _swap_position()
    play(deal, "swap 0 7H")
    assert str(deal.table[0]) == "5H 6H 7H"
    assert holds(deal, 1, "9S 9C JK")
    assert LayOff(0, Card.parse("JK@8H")) in legal(deal)
    assert LayOff(0, Card.parse("JK@4H")) in legal(deal)
    events = play(deal, "lay_off 0 JK@8H")
    assert rule_ids(events) == ["lay-off"]
    assert str(deal.table[0]) == "5H 6H 7H JK@8H"
    assert deal.actions == 1
    play(deal, "end_turn")
    assert holds(deal, 1, "9S 9C")


def test_plain_joker_lay_off_at_either_end_is_ambiguous() -> None:
    deal = _swap_position()
    play(deal, "swap 0 7H")
    error = refused(deal, LayOff(0, JK), "joker")
    assert "4H" in error.reason or "4♥" in error.reason
    assert "8H" in error.reason or "8♥" in error.reason


def test_swap_in_a_set_takes_any_card_of_its_rank() -> None:
    deal = prepared("9S 9D JK 5C 6C 7C KH", "2D 3D 4D 9C 9H")
    play(deal, "meld 9S 9D JK@9", "end_turn", "meld 2D 3D 4D", "end_turn")
    play(deal, "meld 5C 6C 7C", "end_turn")
    assert Swap(0, Card.parse("9C")) in legal(deal)
    assert Swap(0, Card.parse("9H")) in legal(deal)
    events = play(deal, "swap 0 9H")
    assert events[0].rule == "swap"
    assert str(deal.table[0]) == "9S 9H 9D"
    assert holds(deal, 1, "9C JK")


def test_swap_needs_the_exact_card_in_a_run() -> None:
    deal = prepared("5H 6H JK KS KD KC 4C", "2D 3D 4D 7D 8H 9S")
    play(deal, "meld 5H 6H JK@7H", "end_turn", "meld 2D 3D 4D", "end_turn")
    play(deal, "meld KS KD KC", "end_turn")
    refused(deal, Swap(0, Card.parse("7D")), "swap")
    refused(deal, Swap(0, Card.parse("8H")), "swap")  # 8H is a lay-off, not a swap
    refused(deal, Swap(1, Card.parse("7D")), "swap")  # no joker in 2D 3D 4D
    assert LayOff(0, Card.parse("8H")) in legal(deal)


def test_swap_that_leaves_no_action_is_refused() -> None:
    full_run = "AH 2H 3H 4H 5H 6H JK@7H 8H 9H 10H JH QH KH AH"
    spades = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
    deal = prepared(f"{full_run.replace('JK@7H', 'JK')} 7H 2S", f"{spades} 5D")
    play(deal, f"meld {full_run}", "end_turn", f"meld {spades}", "end_turn")
    assert holds(deal, 0, "2S 7H")
    # Swapping 7H in would give a joker that fits nowhere: both runs hold 14 cards.
    error = refused(deal, Swap(0, Card.parse("7H")), "swap")
    assert "action" in error.reason
    assert legal(deal) == [DeclareDead()]
    events = play(deal, "dead")
    assert events[0].rule == "dead"


def test_a_chain_of_swaps_keeps_the_player_alive() -> None:
    hearts = "AH 2H 3H 4H 5H 6H JK@7H 8H 9H 10H JH QH KH AH"
    spades = "AS 2S 3S 4S 5S 6S JK@7S 8S 9S 10S JS QS KS AS"
    deal = prepared(
        f"{hearts.replace('JK@7H', 'JK')} 7H 7S 2C", f"{spades.replace('JK@7S', 'JK')} 5D"
    )
    play(deal, f"meld {hearts}", "end_turn", f"meld {spades}", "end_turn")
    assert holds(deal, 0, "7H 7S 2C")
    # One swap gives a joker that fits nowhere; a second swap gives two, and 2C JK JK is a meld.
    refused(deal, DeclareDead(), "dead")
    moves = legal(deal)
    assert Swap(0, Card.parse("7H")) in moves
    assert Swap(1, Card.parse("7S")) in moves
    assert DeclareDead() not in moves
    play(deal, "swap 0 7H", "swap 1 7S")
    assert deal.actions == 0
    assert holds(deal, 0, "2C JK JK")
    refused(deal, EndTurn(), "turn")
    play(deal, "meld 2C JK@2 JK@2", "game")
    assert deal.winners == [0]
    assert deal.counts_now() == deal.counts_dealt()


def test_swapped_joker_may_go_back_on_its_own_meld_only() -> None:
    # The only place the joker can go is the meld it came from: the other run is full.
    spades = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
    deal = prepared("5H 6H JK 7H 2C", f"{spades} 5D")
    play(deal, "meld 5H 6H JK@7H", "end_turn", f"meld {spades}", "end_turn")
    assert holds(deal, 0, "7H 2C")
    refused(deal, DeclareDead(), "dead")
    assert legal(deal) == [Swap(0, Card.parse("7H"))]
    play(deal, "swap 0 7H")
    moves = legal(deal)
    assert set(moves) == {LayOff(0, Card.parse("JK@4H")), LayOff(0, Card.parse("JK@8H"))}
    refused(deal, LayOff(1, Card.parse("JK@2S")), "lay-off")
    play(deal, "lay_off 0 JK@4H", "end_turn")
    assert str(deal.table[0]) == "JK@4H 5H 6H 7H"


def test_no_cap_on_jokers_in_a_meld() -> None:
    deal = prepared("5D JK JK JK JK JK 2S", "7S 8S 9S")
    events = play(deal, "meld 5D JK@5 JK@5 JK@5 JK@5 JK@5")
    assert rule_ids(events) == ["passport", "set", "joker"]
    assert len(events[-1].cards) == 5
    assert deal.table[0].jokers == 5


def test_swap_after_an_action_is_allowed() -> None:
    deal = prepared("5H 6H JK KS KD KC 4C", "2D 3D 4D 7H 9S 9C 5D")
    play(deal, "meld 5H 6H JK@7H", "end_turn", "meld 2D 3D 4D", "end_turn")
    play(deal, "meld KS KD KC", "end_turn")
    play(deal, "lay_off 1 5D", "swap 0 7H")
    assert holds(deal, 1, "9S 9C JK")
    assert EndTurn() in legal(deal)
    play(deal, "end_turn")
    assert deal.turn == 0


# -- going out (rule game) ----------------------------------------------------------------------
def test_game_mid_turn() -> None:
    deal = prepared("7H 8H 9H 10H 2C 2D 2S", "AS KS 5D JK", "3C 4C 5C")
    play(deal, "meld 7H 8H 9H", "meld 2C 2D 2S")
    assert playing(deal)
    play(deal, "lay_off 0 10H")
    assert deal.hand(0) == []
    assert legal(deal) == [DeclareGame()]
    refused(deal, EndTurn(), "game")
    refused(deal, DeclareDead(), "game")
    events = play(deal, "game")
    assert rule_ids(events) == ["game", "end", "scoring"]
    assert events[0].player == 0
    assert deal.phase is Phase.OVER
    assert deal.status[0] is Status.OUT
    assert deal.winners == [0]
    assert deal.scores == [0, 15 + 10 + 5 + 20, 12]
    assert deal.scores[1] == deadwood_points("AS KS 5D JK")
    assert events[-1].counts == (0, 50, 12)
    assert legal(deal) == []


def test_game_needs_an_empty_hand() -> None:
    deal = prepared("7H 8H 9H 10H", "2C 3C 4C 5C")
    refused(deal, DeclareGame(), "game")
    play(deal, "meld 7H 8H 9H")
    refused(deal, DeclareGame(), "game")
    assert DeclareGame() not in legal(deal)


def test_game_on_the_passport_meld() -> None:
    deal = prepared("7H 8H 9H", "2C 3C 4C 5C")
    events = play(deal, "meld 7H 8H 9H")
    assert rule_ids(events) == ["passport", "run"]
    assert legal(deal) == [DeclareGame()]
    play(deal, "game")
    assert deal.winners == [0]
    assert deal.scores == [0, 14]


# -- the end of a deal (rule end) and scoring ---------------------------------------------------
def test_all_dead_ends_the_deal() -> None:
    deal = prepared("2C 5D", "3C KH")
    assert legal(deal) == [DeclareDead()]
    first = play(deal, "dead")
    assert rule_ids(first) == ["dead.passport", "turn-order"]
    assert playing(deal)
    last = play(deal, "dead")
    assert rule_ids(last) == ["dead.passport", "end", "scoring"]
    assert deal.phase is Phase.OVER
    assert deal.scores == [7, 13]
    assert last[-1].counts == (7, 13)
    assert deal.winners == [0]


def test_tied_counts_share_the_win() -> None:
    deal = prepared("2C 5D", "3C 4H", "KS AD")
    play(deal, "dead", "dead", "dead")
    assert deal.phase is Phase.OVER
    assert deal.scores == [7, 7, 25]
    assert deal.winners == [0, 1]


def test_winners_empty_while_playing() -> None:
    deal = Deal(players=4, seed=1)
    assert deal.winners == []


def _survivor_hands() -> tuple[str, str, str]:
    return ("2H 3H 4H 5H 6H 7H 9C", "KC 5D 9S", "QC 6D 10S")


def test_one_alive_house_rule_ends_the_deal() -> None:
    rules = Rules(end_condition=EndCondition.ONE_ALIVE)
    deal = prepared(*_survivor_hands(), rules=rules)
    play(deal, "meld 2H 3H 4H", "end_turn", "dead")
    assert playing(deal)
    events = play(deal, "dead")
    assert rule_ids(events) == ["dead.passport", "end", "scoring"]
    assert deal.phase is Phase.OVER
    assert deal.status[0] is Status.ALIVE
    assert deal.scores == [5 + 6 + 7 + 9, 24, 26]
    assert deal.winners == [1]
    refused(deal, LayOff(0, Card.parse("5H")), "end")


def test_one_alive_winner_is_the_lowest_count_among_the_dead() -> None:
    """The survivor holds the fewest points, yet the rule book gives the win to the dead."""
    rules = Rules(end_condition=EndCondition.ONE_ALIVE)
    deal = prepared("2H 3H 4H 5H", "KC 5D 9S", "QC 6D 10S", rules=rules)
    play(deal, "meld 2H 3H 4H", "end_turn", "dead", "dead")
    assert deal.phase is Phase.OVER and deal.status[0] is Status.ALIVE
    assert deal.scores == [5, 24, 26]
    assert deal.winners == [1]


def test_lone_survivor_keeps_taking_turns_by_default() -> None:
    assert Rules().end_condition is EndCondition.ALL_DEAD
    deal = prepared(*_survivor_hands())
    play(deal, "meld 2H 3H 4H", "end_turn", "dead", "dead")
    assert playing(deal)
    assert deal.turn == 0
    assert deal.turns == [2, 1, 1]
    events = play(deal, "lay_off 0 5H", "end_turn")
    assert events[-1].rule == "turn-order"
    assert events[-1].player == 0
    assert events[-1].detail == "1,2"
    assert deal.turns == [3, 1, 1]
    play(deal, "lay_off 0 6H", "end_turn", "lay_off 0 7H", "end_turn")
    assert holds(deal, 0, "9C")
    assert legal(deal) == [DeclareDead()]
    events = play(deal, "dead")
    assert rule_ids(events) == ["dead", "end", "scoring"]
    assert deal.phase is Phase.OVER
    assert deal.scores == [9, 24, 26]
    assert deal.winners == [0]


def test_lone_survivor_can_go_out() -> None:
    deal = prepared("2H 3H 4H 5H", "KC 5D 9S")
    play(deal, "meld 2H 3H 4H", "end_turn", "dead")
    assert deal.turn == 0
    play(deal, "lay_off 0 5H", "game")
    assert deal.winners == [0]
    assert deal.scores == [0, 24]


def test_moves_after_the_end_are_refused() -> None:
    deal = prepared("2C 5D", "3C KH")
    play(deal, "dead", "dead")
    assert deal.phase is Phase.OVER
    assert legal(deal) == []
    for move in (
        DeclareDead(),
        EndTurn(),
        DeclareGame(),
        MeldMove.of("2C 5D JK"),
        LayOff(0, Card.parse("2C")),
        Swap(0, Card.parse("2C")),
    ):
        error = refused(deal, move, "end")
        assert "over" in error.reason


# -- illegal moves and jokers (rules meld, lay-off, joker) -------------------------------------
def test_meld_with_a_card_not_in_the_hand() -> None:
    deal = prepared("7H 8H 10H 7C", "2C 3C 4C")
    error = refused(deal, MeldMove.of("7H 8H 9H"), "meld")
    assert "9♥" in error.reason
    error = refused(deal, MeldMove.of("7H 7H 7C"), "meld")
    assert "7♥" in error.reason
    refused(deal, MeldMove.of("2C 3C 4C"), "meld")  # seat 1's cards


def test_lay_off_with_a_card_not_in_the_hand_or_on_no_meld() -> None:
    deal = prepared("5S 6S 7S 9D 9C 9H 2D", "2C 3C 4C")
    play(deal, "meld 5S 6S 7S")
    error = refused(deal, LayOff(0, Card.parse("8S")), "lay-off")
    assert "8♠" in error.reason
    refused(deal, LayOff(3, Card.parse("9D")), "lay-off")
    refused(deal, LayOff(0, Card.parse("9D")), "lay-off")
    refused(deal, MeldMove.of("9D 9C"), "meld")
    refused(deal, MeldMove.of("9D 9C 2D"), "meld")


def test_ambiguous_plain_joker_meld_lists_the_readings() -> None:
    deal = prepared("5H 6H JK 2C", "7S 8S 9S")
    error = refused(deal, MeldMove.of("5H 6H JK"), "joker")
    assert "JK@4H" in error.reason
    assert "JK@7H" in error.reason
    moves = legal(deal)
    assert MeldMove.of("JK@4H 5H 6H") in moves
    assert MeldMove.of("5H 6H JK@7H") in moves
    events = play(deal, "meld 6H 5H JK@4H")  # order does not matter
    assert str(deal.table[0]) == "JK@4H 5H 6H"
    assert rule_ids(events) == ["passport", "run", "joker"]
    assert events[-1].cards == (Card.parse("JK@4H"),)


def test_meld_read_as_set_or_runs_lists_every_reading() -> None:
    deal = prepared("JK JK 5D 2C", "7S 8S 9S")
    readings = check_meld("JK JK 5D").readings
    assert len(readings) >= 2
    error = refused(deal, MeldMove.of("JK JK 5D"), "joker")
    for reading in readings:
        assert str(reading) in error.reason
    play(deal, "meld 5D JK@5 JK@5")
    assert deal.table[0].kind.value == "set"


def test_unambiguous_plain_joker_is_resolved() -> None:
    deal = prepared("9S 9C JK 2D", "7S 8S 9S")
    events = play(deal, "meld 9S 9C JK")
    assert str(deal.table[0]) == "9S 9C JK@9"
    assert rule_ids(events) == ["passport", "set", "joker"]


def test_joker_notes_in_a_meld() -> None:
    # RULES.md: JK@9 in a run stands for the nine of the run's suit; JK@9H in a set of nines
    # stands for a nine (the suit is ignored).
    deal = prepared("7H 8H JK 2C", "9S 9C JK 4D")
    play(deal, "meld 7H 8H JK@9", "end_turn")
    assert str(deal.table[0]) == "7H 8H JK@9H"
    play(deal, "meld 9S 9C JK@9H")
    assert str(deal.table[1]) == "9S 9C JK@9"


def test_joker_noted_with_another_suit_is_refused_in_a_run() -> None:
    # All naturals are hearts, so the verdict is rule `run`: the joker claims a spade.
    deal = prepared("7H 8H JK 2C", "9S 9C JK 4D")
    refused(deal, MeldMove.of("7H 8H JK@9S"), "run")
    refused(deal, MeldMove.of("7H 8H JK@6C"), "run")
    play(deal, "meld 7H 8H JK@6H")


def test_illegal_meld_names_its_rule() -> None:
    deal = prepared("KH AH 2H 5H 6H 7S 7C 8D", "7S 8S 9S")
    refused(deal, MeldMove.of("KH AH 2H"), "run")
    refused(deal, MeldMove.of("5H 6H"), "meld")
    refused(deal, MeldMove.of("7S 7C 8D"), "meld")


def test_legal_moves_lists_each_move_once() -> None:
    # A to K in one suit with a single ace: the ace can be read low (A..K) or high (2..K A), but it
    # is one and the same move, and legal_moves should list it once.
    deal = prepared("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD", "2S 3S 4S")
    moves = legal(deal)
    assert MeldMove.of("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD") in moves
    assert len(moves) == len(set(moves)), sorted(str(m) for m in moves if moves.count(m) > 1)


# -- 2 to 5 players (rule players) --------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_prepared_deal_round_for_each_table_size(players: int) -> None:
    suits = "SHDC"
    hands = [f"2{s} 3{s} 4{s} 5{s} 9{s}" for s in suits] + ["10S 10H 10D 10C"]
    deal = prepared(*hands[:players])
    order = []
    for seat in range(players):
        assert deal.turn == seat
        order.append(deal.turn)
        meld = "10S 10H 10D" if seat == 4 else f"2{suits[seat]} 3{suits[seat]} 4{suits[seat]}"
        play(deal, f"meld {meld}", "end_turn")
    assert deal.turn == 0
    assert order == list(range(players))
    assert deal.passport == [True] * players
    assert deal.turns == [2] + [1] * (players - 1)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seeded_deal_for_each_table_size_has_legal_moves(players: int) -> None:
    deal = Deal(players=players, seed=2024)
    first = next(iter(deal.legal_moves))
    assert deal.is_legal(first)
    deal.push(first)
    assert deal.counts_now() == deal.counts_dealt()


# -- events name rule ids -----------------------------------------------------------------------
def test_events_name_rule_ids() -> None:
    deal = prepared("5H 6H JK KS KD KC 4C 8H", "2D 3D 4D 7H 9S 9C 3S", "QC 6D 10S")
    play(deal, "meld 5H 6H JK@7H", "end_turn")
    play(deal, "meld 2D 3D 4D", "end_turn")
    play(deal, "dead")
    play(deal, "meld KS KD KC", "lay_off 0 8H", "end_turn")
    play(deal, "swap 0 7H", "meld 9S 9C JK@9", "end_turn")
    play(deal, "dead")
    assert holds(deal, 1, "3S")
    play(deal, "dead")
    assert deal.phase is Phase.OVER
    seen = {e.rule for e in deal.events}
    assert seen == {
        "players",
        "deck",
        "dealer",
        "deal",
        "turn-order",
        "passport",
        "run",
        "set",
        "joker",
        "lay-off",
        "swap",
        "turn",
        "dead",
        "dead.passport",
        "end",
        "scoring",
    }
    assert seen <= set(RULE_BOOK)
    scoring = deal.events[-1]
    assert scoring.rule == "scoring"
    assert scoring.counts == (4, 3, 26)
    assert deal.winners == [1]


def test_every_event_rule_is_in_the_rule_book() -> None:
    deal = prepared("7H 8H 9H 10H", "2C 3C 4C 5C")
    play(deal, "meld 7H 8H 9H", "lay_off 0 10H", "game")
    assert {e.rule for e in deal.events} <= set(RULE_BOOK)
    assert "game" in {e.rule for e in deal.events}


# -- undo and copies on prepared positions -------------------------------------------------------
def test_pop_undoes_a_game() -> None:
    deal = prepared("7H 8H 9H 10H", "2C 3C 4C 5C")
    play(deal, "meld 7H 8H 9H", "lay_off 0 10H")
    key = deal.state_key()
    events = list(deal.events)
    play(deal, "game")
    assert deal.pop() == DeclareGame()
    assert deal.state_key() == key
    assert deal.events == events
    assert playing(deal)
    assert deal.winners == []
    assert deal.pop() == LayOff(0, Card.parse("10H"))
    assert str(deal.table[0]) == "7H 8H 9H"
    deal.pop()
    assert deal.table == []
    assert deal.passport == [False, False]
    with pytest.raises(IndexError):
        deal.pop()


def test_copy_is_independent() -> None:
    deal = prepared("7H 8H 9H 10H", "2C 3C 4C 5C")
    play(deal, "meld 7H 8H 9H")
    key = deal.state_key()
    other = deal.copy()
    assert other.state_key() == key
    play(other, "lay_off 0 10H", "game")
    assert deal.state_key() == key
    assert str(deal.table[0]) == "7H 8H 9H"
    assert playing(deal)
    other.pop()
    other.pop()
    assert other.state_key() == key


def test_copy_gives_the_copy_its_own_list_of_every_kind() -> None:
    # copy() copies every list and dict it finds, so a field added later is copied too.
    deal = prepared("7H 8H 9H 10H", "2C 3C 4C 5C")
    play(deal, "meld 7H 8H 9H")
    deal.extra_notes = ["a field added later"]  # type: ignore[attr-defined]
    other = deal.copy()
    mutable = [n for n, v in vars(deal).items() if isinstance(v, list | dict)]
    assert {"hands", "table", "_undo", "_action_cache", "extra_notes"} <= set(mutable)
    for name in mutable:
        assert getattr(other, name) == getattr(deal, name)
        assert getattr(other, name) is not getattr(deal, name), name


def test_equality_reads_every_field_of_the_declared_position() -> None:
    deal = prepared("7H 8H 9H 10H", "2C 3C 4C 5C")
    play(deal, "meld 7H 8H 9H")
    for name in deal_module._Snapshot._fields:
        other = deal.copy()
        value = getattr(other, name)
        if isinstance(value, list):
            value.append(value[0])
        elif isinstance(value, Phase):
            other.phase = Phase.OVER
        else:
            setattr(other, name, value + 1)
        assert other != deal, name
        assert other.state_key() != deal.state_key(), name
    for name in deal_module._SETUP:
        other = deal.copy()
        setattr(other, name, None)
        assert other != deal, name


def test_an_ambiguous_joker_is_refused_with_each_legal_reading_offered() -> None:
    deal = Deal(hands=["5H 6H JK 9C", "2C 3C 4C 8D"], dealer=1)
    with pytest.raises(IllegalMove) as refused:
        deal.push(parse_move("meld 5H 6H JK"))
    assert refused.value.rule == "joker"
    assert sorted(str(m) for m in refused.value.options) == ["meld 5H 6H JK@4H", "meld 5H 6H JK@7H"]
    assert all(deal.is_legal(m) for m in refused.value.options)
    # A joker that fits either end of a run: both ends are offered, each legal.
    deal = Deal(hands=["5H 6H 7H JK 9C KD", "2C 3C 4C 8D"], dealer=1)
    deal.push(parse_move("meld 5H 6H 7H"))
    with pytest.raises(IllegalMove) as either_end:
        deal.push(parse_move("lay_off 0 JK"))
    assert sorted(str(m) for m in either_end.value.options) == [
        "lay_off 0 JK@4H",
        "lay_off 0 JK@8H",
    ]
    assert all(deal.is_legal(m) for m in either_end.value.options)
    # Any other refusal offers nothing.
    with pytest.raises(IllegalMove) as other:
        deal.push(parse_move("lay_off 0 9C"))
    assert other.value.options == ()
