"""Every rule id of the rule book is named by some event or verdict, and every event reads well."""

from __future__ import annotations

import pytest

from penang_lib import (
    RULE_BOOK,
    Deal,
    DeclareDead,
    DeclareGame,
    EndTurn,
    LayOff,
    MeldMove,
    Status,
    Swap,
    can_play,
    check_meld,
    explain,
)
from penang_lib.engine.cards import Card
from penang_lib.engine.events import Event
from penang_lib.engine.explain import (
    EXPLAINED_RULES,
    STATUS_WORDS,
    Said,
    bot_move_line,
    bots_played,
    due,
    earlier_bot_moves,
    join_names,
    seat_status,
    turn_status,
)
from tests.play import play_randomly


def _random_deal_events(seeds: range, players: int) -> list[tuple[Deal, Event]]:
    out: list[tuple[Deal, Event]] = []
    for seed in seeds:
        deal = play_randomly(Deal(players=players, seed=seed), seed)
        out.extend((deal, e) for e in deal.events)
    return out


def _swap_deal() -> Deal:
    """North melds with a joker, East melds, then swaps the joker out and lays it off."""
    deal = Deal(hands=["5H 6H JK 9C 9C 2S", "7H 8S 8D 8C KD QS"], dealer=1)
    deal.push(MeldMove.of("5H 6H JK@7H"))
    deal.push(EndTurn())
    deal.push(MeldMove.of("8S 8D 8C"))
    deal.push(Swap(0, Card.parse("7H")))
    deal.push(LayOff(1, Card.parse("JK")))
    return deal


def _game_deal() -> Deal:
    """North melds every card at once and calls Game."""
    deal = Deal(hands=["5H 6H 7H", "2S 2D 2C 9H"], dealer=1)
    deal.push(MeldMove.of("5H 6H 7H"))
    deal.push(DeclareGame())
    return deal


def test_every_rule_id_is_named_by_an_event_or_a_verdict() -> None:
    named = {e.rule for _deal, e in _random_deal_events(range(12), 4)}
    named |= {e.rule for _deal, e in _random_deal_events(range(6), 2)}
    named |= {e.rule for e in _swap_deal().events + _game_deal().events}
    verdicts = [
        check_meld("5H 6H"),  # meld
        check_meld("8S 8S 8S"),  # deck
        check_meld("JK JK JK"),  # joker
        can_play("2S 5D 9C", [], passport=False),  # dead.passport
        can_play("2S 5D 9C", ["7H 8H 9H"], passport=True),  # dead
    ]
    named |= {v.rule for v in verdicts}
    assert set(RULE_BOOK) <= named, sorted(set(RULE_BOOK) - named)


def test_explain_has_a_sentence_for_every_event_rule() -> None:
    produced = {e.rule for _deal, e in _random_deal_events(range(8), 3)} | {
        e.rule for e in _swap_deal().events
    }
    assert produced <= EXPLAINED_RULES


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_explanations_are_plain_sentences_naming_the_player(players: int) -> None:
    for deal, event in _random_deal_events(range(3), players):
        sentence = explain(event, deal.names)
        assert sentence.endswith("."), sentence
        assert not sentence.startswith("Rule "), sentence
        assert "None" not in sentence, sentence
        if event.player is not None and event.rule not in ("players", "deck"):
            assert deal.names[event.player] in sentence, (event.rule, sentence)


def test_swap_explanation_says_which_card_the_joker_stood_for_and_who_took_it() -> None:
    deal = _swap_deal()
    swap = next(e for e in deal.events if e.rule == "swap")
    sentence = explain(swap, deal.names)
    assert "East" in sentence and "7♥" in sentence and "not an action" in sentence


def _laid_off(deal: Deal) -> list[str]:
    return [explain(e, deal.names) for e in deal.events if e.rule == "lay-off"]


def test_a_lay_off_names_the_meld_as_it_was_then_as_it_becomes() -> None:
    """Issue 29: "North lays off 8♥ on a run of hearts from 5♥ to 8♥" read as if the run had
    reached 8♥ before the card. The sentence names the meld's cards before the lay-off, then
    where the run now runs (or how many cards the set now holds)."""
    deal = Deal(hands=["5H 6H 7H 8H 9S 2C", "4H 9C 9D 9H 3S 3D"], dealer=1)
    deal.push(MeldMove.of("5H 6H 7H"))
    deal.push(EndTurn())
    deal.push(MeldMove.of("9C 9D 9H"))
    deal.push(LayOff(0, Card.parse("4H")))  # at the low end
    deal.push(EndTurn())
    deal.push(LayOff(0, Card.parse("8H")))  # at the high end
    deal.push(LayOff(1, Card.parse("9S")))
    assert _laid_off(deal) == [
        "East lays off 4♥ on the run 5♥ 6♥ 7♥, which now runs from 4♥ to 7♥. "
        "East has 2 cards in hand.",
        "North lays off 8♥ on the run 4♥ 5♥ 6♥ 7♥, which now runs from 4♥ to 8♥. "
        "North has 2 cards in hand.",
        "North lays off 9♠ on the set 9♥ 9♦ 9♣, which now holds 4 nines. North has 1 card in hand.",
    ]


def test_a_joker_laid_off_is_named_by_the_card_it_stands_for() -> None:
    deal = _swap_deal()  # East swaps the joker out of 5♥ 6♥ 🃏 and lays it off on its set
    (sentence,) = _laid_off(deal)
    assert sentence == (
        "East lays off a joker standing for an eight on the set 8♠ 8♦ 8♣, which now holds "
        "4 eights. East has 2 cards in hand."
    )
    run = Deal(hands=["5H 6H 7H KS", "JK 9C 9D 9H 2S"], dealer=1)
    run.push(MeldMove.of("5H 6H 7H"))
    run.push(EndTurn())
    run.push(MeldMove.of("9C 9D 9H"))
    run.push(LayOff(0, Card.parse("JK@4H")))
    assert _laid_off(run) == [
        "East lays off a joker standing for 4♥ on the run 5♥ 6♥ 7♥, which now runs from 4♥ "
        "to 7♥. East has 1 card in hand."
    ]


def test_passport_explanation_says_why_it_is_a_passport() -> None:
    deal = _swap_deal()
    first = deal.events[len(deal.start_events)]
    assert first.rule == "passport" and first.player == 0
    assert "first meld" in explain(first, deal.names)


def test_game_explanation_and_scoring() -> None:
    deal = _game_deal()
    rules = [e.rule for e in deal.event_stack[-1]]
    assert rules == ["game", "end", "scoring"]
    assert "Game" in explain(deal.event_stack[-1][0], deal.names)
    scoring = explain(deal.event_stack[-1][2], deal.names)
    assert "North 0" in scoring and "East 15" in scoring and "North wins" in scoring


def test_dead_passport_explanation_counts_the_whole_hand() -> None:
    deal = Deal(hands=["2S 5D 9C", "7H 8H 9H"], dealer=1)
    assert deal.can_play().rule == "dead.passport"
    (event, *_rest) = deal.push(DeclareDead())
    assert event.rule == "dead.passport"
    sentence = explain(event, deal.names)
    assert "3 cards" in sentence and "16 points" in sentence


@pytest.mark.parametrize(
    ("skipped", "expected"),
    [
        ("1", "East is dead and is skipped."),
        ("1,2", "East and South are dead and are skipped."),
        ("1,2,3", "East, South and West are dead and are skipped."),
    ],
)
def test_the_skipped_dead_players_make_one_sentence(skipped: str, expected: str) -> None:
    event = Event("turn-order", player=4, detail=skipped)
    names = ["North", "East", "South", "West", "Fifth"]
    assert explain(event, names) == f"Fifth plays next, going clockwise: {expected}"


def test_join_names_says_one_two_or_three_names_as_a_sentence_does() -> None:
    assert join_names([]) == ""
    assert join_names(["East"]) == "East"
    assert join_names(["East", "South"]) == "East and South"
    assert join_names(["East", "South", "West"]) == "East, South and West"


def test_a_three_way_tie_is_said_with_the_one_join() -> None:
    event = Event("scoring", counts=(13, 13, 40, 13), detail="0,1,3")
    names = ["North", "East", "South", "West"]
    assert "North, East and West share the win." in explain(event, names)


def test_a_real_deal_skipping_two_dead_players_says_are() -> None:
    """The engine's own turn-order events with several dead players read in the plural."""
    seen = 0
    for deal, event in _random_deal_events(range(12), 4):
        if event.rule == "turn-order" and "," in event.detail:
            dead = [deal.names[int(s)] for s in event.detail.split(",")]
            text = explain(event, deal.names)
            assert text.endswith(f": {' and '.join(dead)} are dead and are skipped.") or (
                len(dead) > 2 and text.endswith(f" and {dead[-1]} are dead and are skipped.")
            )
            seen += 1
    assert seen


# -- a play table's standing sentences -----------------------------------------------------------
def test_turn_status_says_whose_turn_it_is_or_who_won() -> None:
    deal = Deal(hands=["5H 6H 7H", "2S 2D 2C 9H"], dealer=0)
    assert turn_status(deal, 0, {1: "careful"}) == "East's turn (careful bot), turn 1 of the deal."
    assert turn_status(deal, 0) == "East's turn, turn 1 of the deal."
    assert turn_status(deal, 1) == "Your turn 1 (East), turn 1 of the deal."
    over = _game_deal()
    assert turn_status(over, 1) == "The deal is over after 1 turn. Won by North."
    with pytest.raises(ValueError, match="from 0 to 1"):
        turn_status(deal, 2)


def test_the_learners_turn_is_numbered_among_their_own_turns() -> None:
    """Issue 29: lesson 3 said "Your turn (North), turn 2" on the learner's first turn, as
    West had played turn 1. The learner's own count comes first, the deal's count is named."""
    deal = Deal(hands=["9S 9D 9C 8H 2C", "3C 4C 5C 6S", "KH KD KC 7S", "5H 6H 7H AD"], dealer=2)
    assert turn_status(deal, 0) == "West's turn, turn 1 of the deal."
    deal.push(MeldMove.of("5H 6H 7H"))
    deal.push(EndTurn())
    assert turn_status(deal, 0) == "Your turn 1 (North), turn 2 of the deal."
    deal.push(MeldMove.of("9S 9D 9C"))
    deal.push(EndTurn())
    deal.push(MeldMove.of("3C 4C 5C"))
    deal.push(EndTurn())
    assert turn_status(deal, 0, {2: "careful"}) == "South's turn (careful bot), turn 4 of the deal."
    deal.push(MeldMove.of("KH KD KC"))
    deal.push(EndTurn())
    deal.push(DeclareDead())  # West: A♦ fits nowhere
    assert turn_status(deal, 0) == "Your turn 2 (North), turn 6 of the deal."


def test_seat_status_says_the_learners_standing() -> None:
    deal = Deal(hands=["5H 6H 7H 2S", "2S 2D 2C 9H"], dealer=1)
    points = deal.count(0)
    assert seat_status(deal, 0) == (
        f"You are North (alive): 4 cards counting {points} points; passport not yet."
    )
    deal.push(MeldMove.of("5H 6H 7H"))
    assert seat_status(deal, 0) == (
        f"You are North (alive): 1 card counting {deal.count(0)} points; passport made."
    )
    assert STATUS_WORDS[Status.DEAD_PASSPORT] == "dead (no passport)"


def test_due_gives_the_engines_reason_when_dead_is_due() -> None:
    deal = Deal(hands=["2S 5H 9S KH", "7D 8D 9D 3C"], dealer=1)
    verdict = deal.can_play()
    assert due(deal, 0) == (DeclareDead(), Said(verdict.reason, "dead.passport", ok=False))
    assert due(deal, 0, DeclareDead()) == due(deal, 0)
    deal.push(DeclareDead())
    assert due(deal, 0) is None


def test_due_gives_the_engines_reason_when_game_is_yours() -> None:
    deal = Deal(hands=["5S 6S 7S", "7D 8D 9D 3C"], dealer=1)
    assert due(deal, 0) is None
    assert due(deal, 1) is None
    deal.push(MeldMove.of("5S 6S 7S"))
    err = deal.explain_illegal(EndTurn())
    assert err is not None
    assert due(deal, 0) == (DeclareGame(), Said(err.reason, "game", ok=True))
    deal.push(DeclareGame())
    assert due(deal, 0) is None


def test_the_bots_lines() -> None:
    names = ["North", "East"]
    move = MeldMove.of("5S 6S 7S")
    assert bot_move_line(names, 1, "greedy", move) == f"East (greedy bot): {move.label()}."
    assert bot_move_line(names, 1, "greedy", move, "it sheds most.") == (
        f"East (greedy bot): {move.label()}. Why: it sheds most."
    )
    assert bots_played(1) == "The bots played 1 move:"
    assert bots_played(3) == "The bots played 3 moves:"
    assert earlier_bot_moves(5) == "… and 5 earlier bot moves (see the move log)."
