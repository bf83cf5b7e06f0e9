"""Bots and the player's view: legal moves from what one player sees, and how each bot plays.

Rules `turn`, `passport`, `lay-off`, `swap`, `dead`, `game` (RULES.md), seen from one seat: a bot
gets a `PlayerView`, never the `Deal`, and must only ever play legal moves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from penang_lib import (
    Deal,
    DeclareDead,
    DeclareGame,
    EndCondition,
    EndTurn,
    LayOff,
    MeldMove,
    Rules,
    Swap,
)
from penang_lib.engine.analysis import iter_melds
from penang_lib.engine.bots import (
    BOT_NAMES,
    Bot,
    CarefulBot,
    Choice,
    GreedyBot,
    RandomBot,
    WatchfulBot,
    _may_go_out,
    going_out,
    make_bot,
    play_move,
)
from penang_lib.engine.cards import from_counts, full_deck, parse_cards, to_counts
from penang_lib.engine.fast.meld_count import count_melds, has_meld, nth_meld
from penang_lib.engine.turn_search import SearchTooLarge, TurnSearch
from penang_lib.engine.validate import ArgumentTypeError
from penang_lib.engine.view import PlayerView
from tests.conftest import prepared

PLAYER_COUNTS = (2, 3, 4, 5)


def bots_for(name: str, players: int, seed: int) -> list[Bot]:
    return [make_bot(name, seed * 10 + p) for p in range(players)]


def positions(name: str, players: int, seeds: range) -> Iterator[tuple[Deal, PlayerView]]:
    """Every position of the deals `name` bots play, with the view of the player to move."""
    for seed in seeds:
        deal = Deal(players=players, seed=seed)
        bots = bots_for(name, players, seed)
        while not deal.is_over:
            view = PlayerView.of(deal)
            yield deal, view
            deal.push(bots[deal.turn].choose(view).move)


def choose(bot: Bot, deal: Deal) -> Choice:
    choice = bot.choose(PlayerView.of(deal))
    assert isinstance(choice, Choice)
    return choice


# -- the view's legal moves are the engine's ------------------------------------------------------
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("name", BOT_NAMES)
def test_view_lists_exactly_the_engines_legal_moves(name: str, players: int) -> None:
    checked = 0
    for number, (deal, view) in enumerate(positions(name, players, range(6))):
        if number % 2:
            continue
        engine = set(deal.legal_moves)
        mine = list(view.legal_moves)
        assert len(mine) == len(set(mine)), "the view lists a move twice"
        assert set(mine) == engine, f"seed {deal.seed} move {len(deal.move_stack)}"
        assert view.count_moves() == len(mine)
        if len(mine) <= 60:
            assert [view.nth_move(k) for k in range(len(mine))] == mine
        checked += 1
    assert checked > 50


@pytest.mark.parametrize(
    "rules",
    [
        Rules(jokers=8, all_joker_melds=True),
        Rules(end_condition=EndCondition.ONE_ALIVE),
        Rules(packs=3, jokers=8, hand_size_large=25),
    ],
    ids=["all-joker-melds", "one-alive", "big-deck"],
)
@pytest.mark.parametrize("name", BOT_NAMES)
def test_view_matches_the_engine_under_house_rules(name: str, rules: Rules) -> None:
    for seed in range(5):
        deal = Deal(players=4, seed=seed, rules=rules)
        bots = bots_for(name, 4, seed)
        while not deal.is_over:
            view = PlayerView.of(deal)
            if len(deal.move_stack) % 3 == 0:
                assert set(view.legal_moves) == set(deal.legal_moves)
            choice = bots[deal.turn].choose(view)
            assert deal.is_legal(choice.move)
            deal.push(choice.move)


def test_view_forced_moves() -> None:
    # East cannot meld at all: Dead at the passport; an empty hand can only call Game.
    deal = prepared("5H 6H 7H", "2S 9D KC")
    view = PlayerView.of(deal)
    assert view.forced() is None and not view.passport
    deal.push(MeldMove.of("5H 6H 7H"))
    view = PlayerView.of(deal)
    assert view.forced() == DeclareGame()
    assert list(view.legal_moves) == [DeclareGame()]
    deal = prepared("5H 6H 7H 2C", "2S 9D KC", moves=["meld 5H 6H 7H", "end_turn"])
    view = PlayerView.of(deal)
    assert view.forced() == DeclareDead()
    assert list(view.legal_moves) == [DeclareDead()] == list(deal.legal_moves)


def test_view_swap_must_leave_an_action_at_the_start_of_a_turn() -> None:
    # Both melds on the table are full A-to-A runs, which take nothing more. East could swap 7S
    # for North's joker, but then could neither meld (JK 9D) nor lay the joker off: a swap is
    # no action, so it is not legal, and East is dead.
    spades = "AS 2S 3S 4S 5S 6S JK 8S 9S 10S JS QS KS AS"
    hearts = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    deal = prepared(
        spades + " 2C",
        hearts + " 7S 9D",
        moves=[
            f"meld {spades.replace('JK', 'JK@7S')}",
            "end_turn",
            f"meld {hearts}",
            "end_turn",
            "dead",
        ],
    )
    view = PlayerView.of(deal)
    assert view.passport and view.swap_options() == []
    assert view.forced() == DeclareDead()
    assert list(view.legal_moves) == list(deal.legal_moves) == [DeclareDead()]
    # With a meld of nines in hand the swap leaves an action, and after an action a swap needs
    # nothing more: either way it is legal.
    deal = prepared(
        spades + " 2C",
        hearts + " 7S 9D 9C 9S",
        moves=[
            f"meld {spades.replace('JK', 'JK@7S')}",
            "end_turn",
            f"meld {hearts}",
            "end_turn",
            "dead",
        ],
    )
    seven = Swap(0, parse_cards("7S")[0])
    assert PlayerView.of(deal).swaps() == [seven] and deal.is_legal(seven)
    deal.push(MeldMove.of("9D 9C 9S"))
    view = PlayerView.of(deal)
    assert view.swaps() == [seven]
    assert set(view.legal_moves) == set(deal.legal_moves)


def test_count_melds_and_nth_meld_match_iter_melds() -> None:
    rng = random.Random(7)
    for all_jokers in (False, True):
        rules = Rules(jokers=8, all_joker_melds=all_jokers)
        deck = full_deck(2, 8)
        for _ in range(150):
            counts = to_counts(rng.sample(deck, rng.choice((4, 8, 12, 20, 25))))
            expected = set(iter_melds(counts, rules))
            n = count_melds(counts, rules)
            mine = [nth_meld(counts, rules, k) for k in range(n)]
            assert len(set(mine)) == n == len(expected)
            assert set(mine) == expected
            assert has_meld(counts, rules) == (n > 0)


@pytest.mark.parametrize(
    "hand",
    [
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK",  # one ace: A to A needs a joker
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",  # two aces: A to A with naturals
        "AH 3H 4H 5H 6H 7H 8H 9H 10H QH KH JK JK JK",  # one ace, gaps
        "AH AH 2H 4H 6H 8H 10H QH JK JK JK JK JK JK",
        "KH AH 2H JK",  # never round the corner
    ],
)
def test_count_melds_on_long_runs_and_aces(hand: str) -> None:
    rules = Rules(jokers=8)
    counts = to_counts(parse_cards(hand))
    expected = set(iter_melds(counts, rules))
    mine = [nth_meld(counts, rules, k) for k in range(count_melds(counts, rules))]
    assert len(mine) == len(set(mine)) == len(expected)
    assert set(mine) == expected


# -- every bot only plays legal moves -----------------------------------------------------------
DEALS_PER_COUNT = {"random": 100, "greedy": 60, "careful": 60}


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_only_play_legal_moves(name: str, players: int) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(DEALS_PER_COUNT[name]):
        deal = Deal(players=players, seed=1000 + seed)
        bots = bots_for(name, players, seed)
        while not deal.is_over:
            assert len(deal.move_stack) < 5000
            choice = bots[deal.turn].choose(PlayerView.of(deal))
            problem = deal.explain_illegal(choice.move)
            assert problem is None, f"seed {deal.seed}: {choice.move} is illegal: {problem}"
            assert choice.why and "\n" not in choice.why
            deal.push(choice.move)
            kinds[choice.move.type] += 1
        assert len(deal.winners) >= 1
    assert kinds["meld"] and kinds["lay_off"] and kinds["end_turn"] and kinds["dead"]


# -- bots see only what a player sees --------------------------------------------------------------
PUBLIC = {
    "seat",
    "players",
    "names",
    "rules",
    "copies",
    "counts",
    "table",
    "owners",
    "passport",
    "passports",
    "actions",
    "hand_sizes",
    "status",
    "turn_number",
    "turns",
    "over",
}


def test_view_holds_only_the_players_own_hand_and_public_facts() -> None:
    deal = Deal(players=4, seed=11)
    bots = bots_for("careful", 4, 11)
    for _ in range(30):
        play_move(deal, bots[deal.turn])
    view = PlayerView.of(deal)
    assert not hasattr(view, "__dict__")
    public = {name for name in PlayerView.__slots__ if not name.startswith("_")}
    assert public == PUBLIC
    assert view.counts == deal.hands[deal.turn]
    assert view.hand_sizes == tuple(sum(h) for h in deal.hands)
    others = [deal.hands[p] for p in range(4) if p != deal.turn]
    for name in PlayerView.__slots__:
        value = getattr(view, name, None)
        assert value is not deal and value is not deal.hands
        if isinstance(value, tuple):
            assert not any(value == hand for hand in others if hand != view.counts)
            assert not any(item is hand for item in value for hand in others)


def hide_other_hands(deal: Deal, seed: int) -> Deal:
    """A copy of `deal` in which every card the player to move cannot see (the other hands and
    the cards put aside) is shuffled and dealt out again, each hand keeping its size."""
    other = deal.copy()
    me = deal.turn
    unseen = [c for p in range(deal.players) if p != me for c in from_counts(deal.hands[p])]
    unseen += from_counts(deal.stock)
    random.Random(seed).shuffle(unseen)
    for p in range(deal.players):
        if p != me:
            size = sum(deal.hands[p])
            other.hands[p] = to_counts(unseen[:size])
            unseen = unseen[size:]
    other.stock = to_counts(unseen)
    return other


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_choose_the_same_whatever_the_hidden_cards(name: str) -> None:
    compared = 0
    for seed in range(8):
        deal = Deal(players=4, seed=seed)
        bots = bots_for(name, 4, seed)
        while not deal.is_over:
            bot = bots[deal.turn]
            if len(deal.move_stack) % 3:
                play_move(deal, bot)
                continue
            hidden = hide_other_hands(deal, seed * 1000 + len(deal.move_stack))
            assert hidden.hands[deal.turn] == deal.hands[deal.turn]
            state = bot.rng.getstate() if isinstance(bot, RandomBot) else None
            real = bot.choose(PlayerView.of(deal))
            if isinstance(bot, RandomBot) and state is not None:
                bot.rng.setstate(state)
            blind = bot.choose(PlayerView.of(hidden))
            assert blind == real
            deal.push(real.move)
            compared += 1
    assert compared > 100


# -- how each bot plays ------------------------------------------------------------------------
def test_careful_makes_one_action_per_turn() -> None:
    deal = prepared("5H 6H 7H 9C 9D 9S 4D", "8H 2S 2D 2C KS KD KC")
    bot = CarefulBot()
    passport = choose(bot, deal)
    assert isinstance(passport.move, MeldMove) and len(passport.move.cards) == 3
    deal.push(passport.move)
    assert choose(bot, deal).move == EndTurn()


def test_careful_lays_off_before_melding() -> None:
    deal = prepared(
        "5H 6H 7H 9C 9D 9S 4D",
        "8H 2S 2D 2C KS KD KC",
        moves=[
            "meld 5H 6H 7H",
            "end_turn",
            "meld 2S 2D 2C",
            "end_turn",
            "meld 9C 9D 9S",
            "end_turn",
        ],
    )
    choice = choose(CarefulBot(), deal)
    assert choice.move == LayOff(0, parse_cards("8H")[0])
    assert "lay off" in choice.why.lower()


def _run_and_set(hand: str) -> Deal:
    """Seat 0 holds `hand` after melding 5♥ 6♥ 7♥; seat 1 has melded K♠ K♦ K♥."""
    return prepared(
        "5H 6H 7H " + hand,
        "KS KD KH 2S 2D 2C 3D",
        moves=["meld 5H 6H 7H", "end_turn", "meld KS KD KH", "end_turn"],
    )


def test_watchful_first_lays_off_the_card_another_seat_could_take_the_place_of() -> None:
    deal = _run_and_set("8H KC 4D 9S 10C 3S")
    eight, king = parse_cards("8H KC")
    # The careful bot lays off on the set, its highest card first.
    assert choose(CarefulBot(), deal).move == LayOff(1, king)
    # The other 8♥ is neither in the hand nor on the table: whoever lays it off first takes
    # the run's place.
    choice = choose(WatchfulBot(), deal)
    assert choice.move == LayOff(0, eight)
    assert choice.why == (
        "Watchful: lay off 8♥ now: a copy of 8♥ that I have not seen could be laid off here "
        "first, and then mine would no longer fit on this run."
    )


def test_watchful_keeps_the_careful_order_when_nobody_can_take_the_place() -> None:
    deal = _run_and_set("8H 8H KC 4D 10C 3S")  # both 8♥ in hand: the run's place is safe
    careful, watchful = choose(CarefulBot(), deal), choose(WatchfulBot(), deal)
    assert watchful == careful
    assert watchful.move == LayOff(1, parse_cards("KC")[0])


def test_watchful_melds_what_keeps_cards_to_lay_off_where_careful_starves_others() -> None:
    deal = prepared("AH 2H 3H 9S 9D 9H 9C 5C JD 7S", "2S 9D KC")
    # A♥ 2♥ 3♥ can only grow by a 4♥: it feeds the others least.
    careful = choose(CarefulBot(), deal)
    assert careful.move == MeldMove(tuple(parse_cards("AH 2H 3H")))
    # A set of three 9s leaves the fourth 9 in hand, to lay off on it later.
    watchful = choose(WatchfulBot(), deal)
    assert isinstance(watchful.move, MeldMove)
    assert [c.rank for c in watchful.move.cards] == [9, 9, 9]
    assert watchful.why == (
        f"Watchful: make the passport {' '.join(c.symbol for c in watchful.move.cards)}: it "
        "leaves me a card to lay off on it later (no meld in my hand leaves more), and of such "
        "melds it sheds the most points (27)."
    )


def test_watchful_plays_whole_deals_legally() -> None:
    for seed in range(6):
        deal = Deal(players=4, seed=seed)
        seats: list[Bot] = [WatchfulBot(), CarefulBot(), WatchfulBot(), GreedyBot()]
        while not deal.is_over:
            play_move(deal, seats[deal.turn])  # push refuses an illegal move
        assert deal.is_over


def test_careful_swaps_jokers_out_and_keeps_them() -> None:
    deal = prepared(
        "9S 9D JK 4C 4C 4S 2D",
        "9H 5S 5D 5C 3D 3D 4D",
        moves=[
            "meld 9S 9D JK@9",
            "end_turn",
            "meld 5S 5D 5C",
            "end_turn",
            "meld 4C 4C 4S",
            "end_turn",
        ],
    )
    bot = CarefulBot()
    swap = choose(bot, deal)
    assert swap.move == Swap(0, parse_cards("9H")[0])
    deal.push(swap.move)
    # Now East holds a joker, 3D 3D 4D: it lays off 4D (a natural) rather than the joker,
    # and does not spend the joker on a meld either.
    choice = choose(bot, deal)
    assert choice.move == LayOff(2, parse_cards("4D")[0])


def test_careful_lays_off_a_joker_only_when_nothing_else_is_left() -> None:
    deal = prepared(
        "9S 9D 9C 4C 4C 4S 2D",
        "JK 5S 5D 5C 3D 10H QC",
        moves=[
            "meld 9S 9D 9C",
            "end_turn",
            "meld 5S 5D 5C",
            "end_turn",
            "meld 4C 4C 4S",
            "end_turn",
        ],
    )
    choice = choose(CarefulBot(), deal)
    assert isinstance(choice.move, LayOff) and choice.move.card.is_joker
    assert choice.why == "Careful: lay off the joker: no other card in my hand can be played."


def test_careful_sheds_its_highest_cards_when_death_is_near() -> None:
    deal = prepared(
        "5S 5H 5D KS KH KD 2C 2C",
        "5C KC 2H 9D 8S 8S 8D",
        moves=[
            "meld 5S 5H 5D",
            "end_turn",
            "meld 8S 8S 8D",
            "end_turn",
            "meld KS KH KD",
            "end_turn",
        ],
    )
    bot = CarefulBot()
    first = choose(bot, deal)
    assert first.move == LayOff(2, parse_cards("KC")[0])
    assert "death" in first.why.lower()
    deal.push(first.move)
    second = choose(bot, deal)
    assert second.move == LayOff(0, parse_cards("5C")[0])
    deal.push(second.move)
    assert choose(bot, deal).move == EndTurn()


def _death_near(view: PlayerView) -> tuple[bool, int]:
    """Whether death is near for the careful bot (worked out again here: at most 4 cards, no
    joker, no meld, at most 2 cards that fit on the table), and how many cards fit."""
    fits = {c.index for _, c in view.natural_lay_off_options()}
    fit = sum(view.counts[i] for i in fits)
    hand = view.cards
    jokers = any(c.is_joker for c in hand)
    melds = any(True for _ in iter_melds(to_counts(hand), view.rules))
    return len(hand) <= 4 and not jokers and not melds and fit <= 2, fit


@pytest.mark.parametrize("players", (3, 4))
def test_the_careful_bots_death_reason_is_true_of_its_hand(players: int) -> None:
    """Issue 29, item 2: "death is near" only with a small hand (4 cards at most) holding no meld
    and no joker, and at most two cards that fit on the table; the reason then says how many
    cards it holds and how many fit (so how many turns it may stay alive), names the card laid
    off, that card is worth the most points of those that fit, "my highest card" only when
    nothing in hand is worth more; a second action in a turn says it is one, and why."""
    kinds: Counter[str] = Counter()
    for _, view in positions("careful", players, range(150)):
        choice = CarefulBot().choose(view)
        why = choice.why
        near, fit = _death_near(view)
        # A second action that does not go out (the last card is laid off to go out).
        second = view.actions > 0 and isinstance(choice.move, LayOff) and len(view.cards) > 1
        if second:
            kinds["second"] += 1
            assert near and "a second action this turn" in why, why
        if "the last card in my hand" in why:
            assert isinstance(choice.move, LayOff) and len(view.cards) == 1, why
            last = choice.move.card.symbol
            assert why == f"Careful: lay off {last}, the last card in my hand, and go out."
            kinds["last"] += 1
            continue
        if "death is near" not in why:
            assert not second, why
            if view.passport and view.actions == 0 and view.natural_lay_off_options():
                assert not near or view.swap_options(), (why, view.cards)
            continue
        assert near, (why, view.cards)
        assert isinstance(choice.move, LayOff), why
        card = choice.move.card
        rules = view.rules
        value = rules.card_value(card.rank)
        hand = view.cards
        turns = "one more turn" if fit == 1 else f"{fit} more turns"
        assert why.startswith(
            f"Careful: death is near: my {len(hand)} cards hold no meld and no joker, and only "
        ), why
        assert f"I stay alive only {turns}." in why, why
        assert f"So I lay off {card.symbol}" in why, why
        assert ("too, a second action this turn" in why) == second, why
        fits = [c for _, c in view.natural_lay_off_options()]
        assert value == max(rules.card_value(c.rank) for c in fits), why
        higher = [c for c in hand if rules.card_value(c.rank) > value]
        if higher:
            assert "my highest card" not in why, (why, hand)
            if len({c.index for c in fits}) == 1:
                assert "the only card that fits" in why
                kinds["only"] += 1
            else:
                assert f"the highest card that fits ({value} points)" in why
                kinds["highest playable"] += 1
        else:
            assert f"my highest card ({value} points)" in why, why
            kinds["highest"] += 1
    assert kinds["highest"] and kinds["second"] and kinds["last"], kinds


def test_a_big_hand_keeps_to_one_action_a_turn_even_with_little_that_fits() -> None:
    """Issue 29, item 2: with 16 cards, no meld, no joker and only two that fit (9♠ and 3♦),
    the careful bot lays off one and ends its turn: death is not near with a hand that big (it
    used to shed 3♦ too, "death is near")."""
    east = "5S 5D 5C 9S 3D 2H 4H 6H 8H 10H QH 2C 4C 6C 8C 10C QC KS JD"
    deal = prepared(
        "9S 9D 9C 3S 3D 3C 7D",
        east,
        moves=[
            "meld 9S 9D 9C",
            "end_turn",
            "meld 5S 5D 5C",
            "end_turn",
            "meld 3S 3D 3C",
            "end_turn",
        ],
    )
    view = PlayerView.of(deal)
    assert len(view.cards) == 16 and _death_near(view) == (False, 2)
    bot = CarefulBot()
    first = choose(bot, deal)
    assert isinstance(first.move, LayOff) and "death" not in first.why
    assert first.why == f"Careful: lay off just {first.move.card.symbol}; one card keeps me alive."
    deal.push(first.move)
    assert choose(bot, deal).move == EndTurn()


def test_with_death_near_the_second_card_says_why_in_the_lessons_words() -> None:
    """The one time the careful bot plays a second action, its reason says why: no meld, no
    joker and only N cards that fit, so at most N more turns unless the others make new melds,
    and getting rid of the highest card now means counting less when caught."""
    deal = prepared(
        "5S 5H 5D KS KH KD 2C 2C",
        "5C KC 2H 9D 8S 8S 8D",
        moves=[
            "meld 5S 5H 5D",
            "end_turn",
            "meld 8S 8S 8D",
            "end_turn",
            "meld KS KH KD",
            "end_turn",
        ],
    )
    bot = CarefulBot()
    first = choose(bot, deal)
    assert first.why == (
        "Careful: death is near: my 4 cards hold no meld and no joker, and only 2 of them fit on "
        "the table, so unless the others make new melds I stay alive only 2 more turns. So I "
        "lay off K♣, my highest card (10 points), to be caught holding fewer points."
    )
    deal.push(first.move)
    second = choose(bot, deal)
    assert second.move == LayOff(0, parse_cards("5C")[0])
    assert second.why == (
        "Careful: death is near: my 3 cards hold no meld and no joker, and only one of them fits "
        "on the table, so unless the others make new melds I stay alive only one more turn. So "
        "I lay off 5♣ too, a second action this turn: it is the only card that fits, and the "
        "fewer points I hold, the less I count when I am caught."
    )


def test_careful_holds_back_the_meld_that_feeds_the_others() -> None:
    # A set of fours leaves seven fours East cannot see (4H is on the table); 9C 10C JC opens
    # only 8C (two unseen) and QC, which East holds both copies of.
    deal = prepared("2H 3H 4H 9S", "4S 4H 4D 9C 10C JC QC QC", moves=["meld 2H 3H 4H", "end_turn"])
    choice = choose(CarefulBot(), deal)
    assert choice.move == MeldMove.of("9C 10C JC")


def test_greedy_plays_its_biggest_melds_and_every_lay_off() -> None:
    deal = prepared(
        "6H 2H 3H 4H KC", "7H 8H 9H 10H JH 2S 2D 2C 5H QS", moves=["meld 2H 3H 4H", "end_turn"]
    )
    bot = GreedyBot()
    played = []
    while not deal.is_over and deal.turn == 1:
        move = choose(bot, deal).move
        played.append(str(move))
        deal.push(move)
    assert played == [
        "meld 7H 8H 9H 10H JH",
        "meld 2S 2D 2C",
        "lay_off 0 5H",
        "end_turn",
    ]


def test_greedy_goes_out_when_it_can() -> None:
    deal = prepared("2H 3H 4H KC", "5H 6H 7H 8H JK", moves=["meld 2H 3H 4H", "end_turn"])
    bot = GreedyBot()
    while not deal.is_over:
        deal.push(choose(bot, deal).move)
    assert deal.winners == [1]


def test_random_bot_is_uniform_over_the_legal_moves() -> None:
    deal = prepared(
        "5H 6H 7H 9C 9D 9S 4D",
        "8H 4H 2S 2D 2C KS KD KC KC 3S 9H",
        moves=[
            "meld 5H 6H 7H",
            "end_turn",
            "meld 2S 2D 2C",
            "end_turn",
            "meld 9C 9D 9S",
            "end_turn",
        ],
    )
    view = PlayerView.of(deal)
    legal = set(deal.legal_moves)
    assert len(legal) == view.count_moves() >= 5
    bot = RandomBot(seed=3)
    draws = 400 * len(legal)
    seen = Counter(bot.choose(PlayerView.of(deal)).move for _ in range(draws))
    assert set(seen) == legal
    for move, n in seen.items():
        assert 300 <= n <= 500, (move, n)


def test_random_bot_with_many_joker_melds_samples_without_listing() -> None:
    rules = Rules(jokers=8)
    hand = "JK JK JK JK JK JK JK JK 2H 3H 5H 7H 9H JH KH 2S 4S 6S 8S 10S QS AD 3D 5D"
    deal = Deal(hands=[hand, "2C 3C 4C"], dealer=1, rules=rules)
    view = PlayerView.of(deal)
    total = view.count_moves()
    assert total == count_melds(deal.hands[0], rules) > 1_000
    bot = RandomBot(seed=1)
    for _ in range(20):
        move = bot.choose(PlayerView.of(deal)).move
        assert deal.is_legal(move)


def test_make_bot() -> None:
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot(" Greedy "), GreedyBot)
    assert isinstance(make_bot("careful"), CarefulBot)
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        make_bot("clever")


def test_random_bots_are_reproducible_by_seed() -> None:
    def play(seed: int) -> list[str]:
        deal = Deal(players=3, seed=4)
        bots = [RandomBot(seed + p) for p in range(3)]
        while not deal.is_over:
            play_move(deal, bots[deal.turn])
        return [str(m) for m in deal.move_stack]

    assert play(1) == play(1)
    assert play(1) != play(2)


def test_a_bot_refuses_a_finished_deal() -> None:
    deal = prepared("5H 6H 7H", "2S 9D KC", moves=["meld 5H 6H 7H", "game"])
    assert deal.is_over
    for name in BOT_NAMES:
        with pytest.raises(ValueError, match="over"):
            make_bot(name).choose(PlayerView.of(deal))
    assert list(PlayerView.of(deal).legal_moves) == []


@pytest.mark.parametrize(
    "hand",
    [
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK 5S 5C 5D",
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK 5S",
        "AH AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK",
    ],
)
def test_the_view_lists_each_ace_to_ace_move_once(hand: str) -> None:
    deal = Deal(hands=[hand, "2S 3S 9D"], rules=Rules(jokers=8), dealer=1)
    view = PlayerView.of(deal)
    listed = list(view.legal_moves)
    assert len(listed) == len(set(listed)) == view.count_moves() == len(view.legal_moves)
    assert set(listed) == set(deal.legal_moves)
    assert [view.nth_move(k) for k in range(len(listed))] == listed


def test_the_view_gives_the_naturals_held_as_a_bit_mask() -> None:
    """`held()` reads the deal's own mask in a view of a deal and works it out from the counts
    in a view built from its facts alone: the same mask either way."""
    checked = 0
    for _deal, view in positions("careful", 4, range(2)):
        expected = sum(1 << i for i in range(52) if view.counts[i])
        assert view.held() == expected
        names = ("seat", "players", "names", "rules", "copies", "counts", "table", "owners")
        facts = {name: getattr(view, name) for name in names}
        facts |= {"passports": view.passports, "actions": view.actions}
        facts |= {"hand_sizes": view.hand_sizes, "status": view.status, "turn_number": 1}
        assert PlayerView(**facts).held() == expected
        checked += 1
    assert checked > 50


# -- going out: a hand that can be emptied this turn --------------------------------------------
def test_watchful_goes_out_where_careful_plays_one_card_and_waits() -> None:
    deal = _run_and_set("8H 9H KC")  # 8♥ 9♥ on the run 5♥ 6♥ 7♥, K♣ on the kings
    careful = choose(CarefulBot(), deal)
    assert isinstance(careful.move, LayOff)
    line = going_out(PlayerView.of(deal))
    assert [type(m) for m in line] == [LayOff, LayOff, LayOff]
    choice = choose(WatchfulBot(), deal)
    assert choice.move == line[0]
    assert choice.why.startswith("Watchful: every card of my hand can be played this turn")
    watchful = WatchfulBot()
    while deal.turn == 0 and not deal.is_over:
        play_move(deal, watchful)
    assert deal.is_over and list(deal.winners) == [0] and deal.hand_size(0) == 0


def test_watchful_does_not_look_for_game_when_told_not_to() -> None:
    deal = _run_and_set("8H 9H KC")
    assert choose(WatchfulBot(go_out=0), deal) == choose(CarefulBot(), deal)


def test_watchful_looks_for_game_only_with_a_hand_small_enough() -> None:
    deal = _run_and_set("8H 9H KC")
    assert choose(WatchfulBot(go_out_hand=2), deal) == choose(CarefulBot(), deal)
    assert choose(WatchfulBot(go_out_hand=3), deal).move == going_out(PlayerView.of(deal))[0]
    assert going_out(PlayerView.of(deal), hand=2) == []


def test_watchful_counts_its_looks_for_game_and_the_positions_it_searched() -> None:
    deal = _run_and_set("8H 9H KC")
    bot = WatchfulBot()
    choose(bot, deal)
    assert bot.looks == 1 and bot.searched >= 3  # three lay-offs deep, at least
    stuck = _run_and_set("8H 9H KC 4D")
    refused = WatchfulBot()
    choose(refused, stuck)  # the quick count refuses: no position searched
    assert (refused.looks, refused.searched) == (1, 0)
    never = WatchfulBot(go_out=0)
    choose(never, deal)
    assert (never.looks, never.searched) == (0, 0)


def test_going_out_checks_its_arguments() -> None:
    deal = _run_and_set("8H 9H KC")
    view = PlayerView.of(deal)
    with pytest.raises(ArgumentTypeError, match="view should be a PlayerView"):
        going_out(deal)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="hand should be a whole number"):
        going_out(view, hand=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="budget should be"):
        going_out(view, budget=-1)
    assert going_out(view, budget=0) == []  # no position may be visited: nothing found
    assert len(going_out(view)) == 3


def test_going_out_finds_nothing_where_a_card_is_stuck() -> None:
    deal = _run_and_set("8H 9H KC 4D")  # 4♦ fits nowhere
    assert going_out(PlayerView.of(deal)) == []
    assert not _may_go_out(PlayerView.of(deal))


def test_the_quick_test_never_refuses_a_hand_the_turn_search_empties() -> None:
    """`_may_go_out` only cuts the search short: on every position of bot-played deals with a
    small hand (jokers and swaps included), whenever the full turn search empties the hand the
    quick test must have said it might."""
    emptied = refused = 0
    for seed in range(40):
        deal = Deal(players=4, seed=seed)
        seats: list[Bot] = [WatchfulBot(go_out=0), CarefulBot(), GreedyBot(), RandomBot(seed)]
        while not deal.is_over:
            view = PlayerView.of(deal)
            if view.passport and view.hand_sizes[view.seat] <= 6:
                may = _may_go_out(view)
                refused += not may
                try:
                    empties = TurnSearch(3000).empties(deal.copy())
                except SearchTooLarge:
                    empties = False
                if empties:
                    emptied += 1
                    assert may, f"seed {seed} move {len(deal.move_stack)}"
            play_move(deal, seats[deal.turn])
    assert emptied >= 10 and refused >= 100  # both answers were tested
