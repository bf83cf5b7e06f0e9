"""PlayTable without a browser: press its buttons, set its values, and check what it shows
against the engine (every expectation is computed from penang_lib, not written down)."""

from __future__ import annotations

import html
import re

import pytest
from ipywidgets import Widget

from penang_lib import (
    Deal,
    DeclareDead,
    DeclareGame,
    EndTurn,
    LayOff,
    MeldMove,
    PlayerView,
    Status,
    Swap,
    make_bot,
    parse_cards,
)
from penang_lib.engine.cards import Card
from penang_lib.engine.explain import Said, explain
from penang_lib.widgets.base import OOPS
from penang_lib.widgets.controls import Control, label, tooltip
from penang_lib.widgets.play import (
    ACTION_BUTTONS,
    BOT_BUTTONS,
    CLEARED,
    MOVE_BUTTONS,
    PlayTable,
    hint_bot,
)
from penang_lib.widgets.play_parts import next_step
from penang_lib.widgets.shared import is_shown
from tests.helpers.widgets import hidden_cards, leaks, shown, text


# -- helpers ---------------------------------------------------------------------------------
def rules_shown(table: PlayTable) -> list[str]:
    """The rule ids of the badges in the message panel."""
    return re.findall(r'class="penang-badge[^"]*"[^>]*>([^<]+)<', table.message.value)


def click(table: PlayTable, symbol: str) -> None:
    """Click the first visible toggle showing `symbol`, as a learner would."""
    toggle = next(t for t in table.toggles if is_shown(t) and t.description == symbol)
    toggle.value = not toggle.value


def in_page_order(box: Widget) -> list[Widget]:
    """`box` and the widgets inside it, in the order a page shows them (depth first)."""
    found = [box]
    for child in getattr(box, "children", ()):
        found.extend(in_page_order(child))
    return found


def visible_buttons(table: PlayTable) -> set[Control]:
    return {name for name, b in table.buttons.items() if is_shown(b)}


# -- the hooks and the layout ------------------------------------------------------------------
def test_hooks_and_layout():
    table = PlayTable(deal=Deal(hands=["5H 6H JK 9S 10S JS", "7D 8D 9D 3C"], dealer=1))
    assert "penang-play" in table.root._dom_classes
    assert all("penang-card" in t._dom_classes for t in table.toggles)
    for control in (
        Control.MELD,
        Control.LAY_OFF,
        Control.SWAP,
        Control.END_TURN,
        Control.HINT,
        Control.NEW_DEAL,
    ):
        assert table.buttons[control].description == label(control)
        assert table.buttons[control].tooltip == tooltip(control)
    assert "penang-message" in table.message._dom_classes
    assert table.target.description == label(Control.TARGET) == "Meld on table"
    assert table.readings.description == label(Control.READINGS) == "Joker stands for"
    assert table.hand_box.layout.flex_flow == "row wrap"
    assert shown(table) == [c.symbol for c in table.deal.hand(0)]
    assert [t.tooltip for t in table.toggles[:6]] == [c.name for c in table.deal.hand(0)]
    # Each card's colour comes from its classes, the same as the cards drawn in the tables.
    classes = {t.description: t._dom_classes for t in table.toggles[:6]}
    assert "penang-red" in classes["5♥"] and "penang-red" not in classes["9♠"]
    assert "penang-joker" in classes["🃏"] and "penang-suit-s" in classes["9♠"]
    # The pool holds a full dealt hand, whatever the prepared one.
    assert len(table.toggles) >= table.deal.rules.hand_size(2)


# -- illegal tries: the engine's rule, and nothing changes ---------------------------------------
def test_meld_with_too_few_cards_shows_rule_meld_and_changes_nothing():
    table = PlayTable(deal=Deal(hands=["5H 6H JK 9S 10S JS KS 2H", "7D 8D 9D 3C KD"], dealer=1))
    before = table.deal.state_key()
    table.select("5H 6H")
    table.buttons[Control.MELD].click()
    assert table.deal.state_key() == before
    err = table.deal.explain_illegal(MeldMove(tuple(parse_cards("5H 6H"))))
    assert err is not None and err.rule == "meld"
    assert rules_shown(table) == ["meld"]
    assert err.reason in text(table.message.value)
    assert "penang-no" in table.message._dom_classes
    assert table.selected() == []  # a refused try clears the selection, and says so
    assert CLEARED in text(table.message.value)
    assert text(table.selection.value).split() == ["Selected:", "none"]


def test_swap_before_the_passport_shows_its_rule_and_changes_nothing():
    deal = Deal(hands=["7D 2S 3S 4S 8H", "5D 6D JK 9C 10C 2H"], dealer=0)
    assert deal.turn == 1
    deal.push(MeldMove(tuple(parse_cards("5D 6D JK@7D"))))
    deal.push(EndTurn())
    table = PlayTable(deal=deal, seat=0)
    assert table.target.options == (("East's run 5♦ 6♦ JK=7♦ (meld 0)", 0),)  # plain text: JK
    before = table.deal.state_key()
    table.select("7D")
    table.target.value = 0
    table.buttons[Control.SWAP].click()
    assert table.deal.state_key() == before
    assert rules_shown(table)[0] in ("swap", "passport")
    err = deal.explain_illegal(Swap(0, parse_cards("7D")[0]))
    assert err is not None and err.rule == rules_shown(table)[0]
    assert err.reason in text(table.message.value)


def test_lay_off_needs_exactly_one_card():
    table = PlayTable(deal=Deal(hands=["5H 6H 7H 8H 2S", "7D 8D 9D"], dealer=1))
    before = table.deal.state_key()
    table.select("8H 2S")
    table.buttons[Control.LAY_OFF].click()
    assert table.deal.state_key() == before
    assert rules_shown(table) == []
    assert "exactly one card" in text(table.message.value)


# -- jokers with several readings ----------------------------------------------------------------
def test_an_ambiguous_joker_offers_its_readings():
    table = PlayTable(deal=Deal(hands=["5H 6H JK 9S 10S JS KS 2H", "7D 8D 9D 3C KD"], dealer=1))
    assert not is_shown(table.chooser)
    before = table.deal.state_key()
    table.select("5H 6H JK")
    table.buttons[Control.MELD].click()
    assert table.deal.state_key() == before
    assert rules_shown(table) == ["joker"]
    assert is_shown(table.chooser)
    labels = [label for label, _ in table.readings.options]
    assert labels == ["JK=4♥ 5♥ 6♥", "5♥ 6♥ JK=7♥"]  # a menu is plain text: JK
    table.readings.value = labels.index("5♥ 6♥ JK=7♥")
    table.buttons[Control.USE_READING].click()
    assert table.deal.move_stack == [MeldMove(tuple(parse_cards("5H 6H JK@7H")))]
    assert str(table.deal.table[0]) == "5H 6H JK@7H"
    assert not is_shown(table.chooser)
    assert "joker" in rules_shown(table)


def test_a_joker_laid_off_on_a_run_offers_both_ends():
    table = PlayTable(deal=Deal(hands=["5H 6H 7H JK 2S", "7D 8D 9D 3C KD"], dealer=1))
    table.select("5H 6H 7H")
    table.buttons[Control.MELD].click()
    assert len(table.deal.table) == 1
    table.select("JK")
    table.target.value = 0
    before = table.deal.state_key()
    table.buttons[Control.LAY_OFF].click()
    assert table.deal.state_key() == before
    assert rules_shown(table) == ["joker"]
    labels = [label for label, _ in table.readings.options]
    assert [label.split()[0] for label in labels] == ["JK=4♥", "JK=8♥"]
    table.readings.value = 1
    table.buttons[Control.USE_READING].click()
    assert table.deal.move_stack[-1] == LayOff(0, Card.joker(8, "H"))
    assert str(table.deal.table[0]) == "5H 6H 7H JK@8H"


# -- a turn, then the bots one step at a time ------------------------------------------------------
def test_meld_end_turn_and_one_bot_move():
    table = PlayTable(deal=Deal(hands=["5H 6H JK 9S 10S JS KS 2H", "7D 8D 9D 3C KD"], dealer=1))
    assert all(not table.buttons[c].disabled for c in MOVE_BUTTONS[:4])
    assert all(table.buttons[n].disabled for n in BOT_BUTTONS)
    table.select("9S 10S JS")
    table.buttons[Control.MELD].click()
    hand = table.deal.hand(0)
    assert len(hand) == 5
    assert shown(table) == [c.symbol for c in hand]
    assert not any(t.value for t in table.toggles)
    assert "run" in rules_shown(table) and "passport" in rules_shown(table)
    assert table.target.options == (("North's run 9♠ 10♠ J♠ (meld 0)", 0),)

    table.buttons[Control.END_TURN].click()
    assert table.deal.turn == 1
    assert all(table.buttons[n].disabled for n in ACTION_BUTTONS)
    assert all(not table.buttons[n].disabled for n in BOT_BUTTONS)
    assert "turn-order" in rules_shown(table)

    moves = len(table.deal.move_stack)
    expected = table.bots[1].choose(PlayerView.of(table.deal))
    table.buttons[Control.BOT_MOVE].click()
    assert len(table.deal.move_stack) == moves + 1
    assert table.deal.move_stack[-1] == expected.move
    words = text(table.message.value)
    assert f"Why: {expected.why}" in " ".join(words.split())
    assert table.deal.turn == 1  # the careful bot ends its turn in a move of its own

    table.buttons[Control.BOTS_TO_ME].click()
    assert table.deal.turn == 0 or table.deal.is_over
    assert not table.buttons[Control.MELD].disabled or table.deal.is_over
    assert text(table.log.value).count("East") >= 2


def test_a_bot_moving_first_waits_for_a_click():
    table = PlayTable(deal=Deal(hands=["5H 6H 7H 2S", "7D 8D 9D 3C KD"], dealer=0))
    assert table.deal.turn == 1 and table.deal.move_stack == []
    assert all(table.buttons[n].disabled for n in ACTION_BUTTONS)
    assert not table.buttons[Control.BOT_MOVE].disabled
    table.buttons[Control.BOT_MOVE].click()
    assert len(table.deal.move_stack) == 1


def test_a_due_dead_is_announced_and_played_with_one_click():
    table = PlayTable(deal=Deal(hands=["2S 5H 9S KH", "7D 8D 9D 3C"], dealer=1))
    deal = table.deal
    assert list(deal.legal_moves) == [DeclareDead()]
    verdict = deal.can_play()
    assert verdict.rule == "dead.passport"
    assert verdict.reason in text(table.message.value)
    assert "dead.passport" in rules_shown(table)
    assert Control.DEAD in visible_buttons(table)
    assert Control.GAME not in visible_buttons(table)
    table.buttons[Control.DEAD].click()
    assert deal.move_stack == [DeclareDead()]
    assert deal.status[0] is Status.DEAD_PASSPORT
    assert Control.DEAD not in visible_buttons(table)
    table.buttons[Control.BOTS_TO_ME].click()  # the learner is dead: the bots play to the end
    assert deal.is_over
    assert is_shown(table.scores)
    # The count table is shown, and the engine's scoring sentence once (in the message).
    scoring = next(e for e in deal.events if e.rule == "scoring")
    sentence = explain(scoring, deal.names)
    assert "scoring" in rules_shown(table) and sentence in text(table.message.value)
    assert all(str(deal.count(p)) in text(table.scores.value) for p in range(deal.players))
    values = [text(str(getattr(w, "value", ""))) for w in table.walk()]
    assert sum(v.count(sentence) for v in values) == 1
    winners = [deal.names[w] for w in deal.winners]
    assert all(name in text(table.status.value) for name in winners)
    assert all(table.buttons[n].disabled for n in (*ACTION_BUTTONS, *BOT_BUTTONS))
    assert not table.buttons[Control.NEW_DEAL].disabled


def test_an_empty_hand_calls_game():
    table = PlayTable(deal=Deal(hands=["5S 6S 7S", "7D 8D 9D 3C"], dealer=1))
    table.select("5S 6S 7S")
    table.buttons[Control.MELD].click()
    assert shown(table) == []
    assert Control.GAME in visible_buttons(table)
    err = table.deal.explain_illegal(EndTurn())
    assert err is not None and err.reason in text(table.message.value)
    table.buttons[Control.GAME].click()
    assert table.deal.is_over and table.deal.winners == [0]
    assert "game" in rules_shown(table)


# -- hidden information ----------------------------------------------------------------------------
def test_no_widget_holds_an_opponents_card_while_the_deal_is_played():
    # The learner holds only spades and hearts, the bots only diamonds and clubs.
    deal = Deal(
        hands=["5S 6S 7S 9H 2S KH", "7D 8D 9D 3C KD 2C QC", "4C 5C 6C QD AD 10C 9C"], dealer=2
    )
    table = PlayTable(deal=deal, seat=0)
    hidden = hidden_cards(deal, 0)
    assert len(hidden) == 14
    assert leaks(table, hidden) == []

    table.select("5S 6S 7S")
    table.buttons[Control.MELD].click()
    table.buttons[Control.END_TURN].click()
    assert leaks(table, hidden_cards(deal, 0)) == []

    table.buttons[Control.BOT_MOVE].click()
    assert len(deal.table) == 2  # a bot melded: its cards are public now
    assert leaks(table, hidden_cards(deal, 0)) == []
    table.buttons[Control.BOTS_TO_ME].click()
    assert leaks(table, hidden_cards(deal, 0)) == []
    assert deal.turn == 0 and deal.can_play().rule == "dead"  # 9♥ 2♠ K♥ fit nowhere
    assert "dead" in rules_shown(table) and Control.DEAD in visible_buttons(table)
    table.buttons[Control.HINT].click()
    assert leaks(table, hidden_cards(deal, 0)) == []

    while not deal.is_over:
        if deal.turn == 0:
            # The hints play the learner's seat, through the buttons.
            move = hint_bot(deal, 0).choose(PlayerView.of(deal)).move
            table.buttons[Control.HINT].click()
            table.buttons[Control(move.type)].click()
            assert deal.move_stack[-1] == move
        else:
            table.buttons[Control.BOT_MOVE].click()
        if not deal.is_over:
            assert hidden_cards(deal, 0) == set() or leaks(table, hidden_cards(deal, 0)) == []
    # At the end every hand is shown.
    left = {c for p in (1, 2) for c in deal.hand(p) if not c.is_joker}
    assert left, "this position should leave cards in a bot's hand"
    assert all(c.symbol in table.hands.value for c in left)


def test_the_leak_check_can_fail():
    deal = Deal(hands=["5S 6S 7S", "7D 8D 9D 3C"], dealer=1)
    table = PlayTable(deal=deal)
    table.message.value = "7♦"
    assert leaks(table, hidden_cards(deal, 0)) == ["7D"]


# -- hint, new deal, failures ----------------------------------------------------------------------
def test_hint_shows_a_legal_move_and_why():
    table = PlayTable(deal=Deal(hands=["5H 6H 7H 9S 9D 9C 2S", "7D 8D 10D 3C KD"], dealer=1))
    expected = hint_bot(table.deal, table.seat).choose(PlayerView.of(table.deal))
    assert expected.why.startswith("Expert: ")  # Hint asks the expert, which says its numbers
    before = table.deal.state_key()
    table.buttons[Control.HINT].click()
    assert table.deal.state_key() == before
    assert table.deal.is_legal(expected.move)
    words = " ".join(text(table.message.value).split())
    assert words.startswith(f"Hint: {expected.move.label()}")
    assert expected.why in words
    assert isinstance(expected.move, MeldMove)
    assert table.selected() == sorted((c.plain for c in expected.move.cards), key=Card.sort_key)
    table.buttons[Control.MELD].click()
    assert table.deal.move_stack == [expected.move]


def test_new_deal_keeps_the_widget_tree():
    table = PlayTable(players=3, seed=5, bots="random,greedy")
    ids = [w.model_id for w in table.walk()]
    old = table.deal
    assert {b.name for b in table.bots.values()} == {"random", "greedy"}
    table.buttons[Control.NEW_DEAL].click()
    assert table.deal is not old
    assert table.deal.seed == old.seed + 1
    assert table.deal.players == 3 and table.deal.move_stack == []
    assert [w.model_id for w in table.walk()] == ids
    assert shown(table) == [c.symbol for c in table.deal.hand(0)]
    assert "A new deal." in text(table.message.value)


def test_a_callback_failure_shows_oops(monkeypatch: pytest.MonkeyPatch):
    table = PlayTable(deal=Deal(hands=["5S 6S 7S 2H", "7D 8D 9D 3C"], dealer=1))

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(table.deal, "push", broken)
    table.select("5S 6S 7S")
    table.buttons[Control.MELD].click()  # must not raise
    trouble = [w for w in table.walk() if html.escape(OOPS) in str(getattr(w, "value", ""))]
    assert len(trouble) == 1 and is_shown(trouble[0])
    monkeypatch.undo()
    table.buttons[Control.MELD].click()
    assert not is_shown(trouble[0])
    assert len(table.deal.table) == 1


# -- the selection ---------------------------------------------------------------------------------
def test_the_selected_line_names_the_selection_once_per_change():
    table = PlayTable(deal=Deal(hands=["9S 9D 9C 5H 2S", "7D 8D 9D 3C"], dealer=1))
    assert "penang-selection" in table.selection._dom_classes
    assert text(table.selection.value).split() == ["Selected:", "none"]
    updates: list[str] = []
    table.selection.observe(lambda change: updates.append(change["new"]), names="value")
    click(table, "9♠")
    click(table, "9♦")
    assert text(table.selection.value).split() == ["Selected:", "9♠", "9♦"]
    assert len(updates) == 2
    table.select("9C 5H 2S")  # three toggles set by the widget: one update
    assert len(updates) == 3
    names = [c.symbol for c in table.selected()]
    assert sorted(names) == sorted(["9♣", "5♥", "2♠"])
    assert text(table.selection.value).split() == ["Selected:", *names]
    click(table, "5♥")
    assert len(updates) == 4
    assert text(table.selection.value).split() == ["Selected:", *(n for n in names if n != "5♥")]


def test_a_refusal_with_nothing_selected_does_not_speak_of_a_selection():
    table = PlayTable(deal=Deal(hands=["9S 9D 9C 5H", "7D 8D 9D 3C"], dealer=1))
    table.buttons[Control.END_TURN].click()
    assert rules_shown(table) == ["turn"]
    assert CLEARED not in text(table.message.value)


def test_a_refusal_keeps_saying_that_dead_is_due():
    # A lay-off is no passport: refused, and Dead stays due.
    deal = Deal(hands=["8H 2S KD", "5H 6H 7H 3C"], dealer=0)
    deal.push(MeldMove(tuple(parse_cards("5H 6H 7H"))))
    deal.push(EndTurn())
    table = PlayTable(deal=deal)
    verdict = deal.can_play()
    assert verdict.rule == "dead.passport"
    table.select("8H")
    table.target.value = 0
    table.buttons[Control.LAY_OFF].click()
    err = deal.explain_illegal(LayOff(0, parse_cards("8H")[0]))
    assert err is not None
    words = " ".join(text(table.message.value).split())
    assert rules_shown(table) == [err.rule, "dead.passport"]
    assert err.reason in words and verdict.reason in words and "Click Declare Dead" in words
    assert CLEARED in words and table.selected() == []


def test_a_refusal_keeps_saying_that_game_is_yours():
    table = PlayTable(deal=Deal(hands=["5S 6S 7S", "7D 8D 9D 3C"], dealer=1))
    table.select("5S 6S 7S")
    table.buttons[Control.MELD].click()
    table.buttons[Control.MELD].click()  # nothing left to meld: refused
    err = table.deal.explain_illegal(MeldMove(()))
    game = table.deal.explain_illegal(EndTurn())
    assert err is not None and game is not None
    words = " ".join(text(table.message.value).split())
    assert rules_shown(table) == [err.rule, "game"]
    assert err.reason in words and game.reason in words and "Click Call Game" in words


def test_the_joker_chooser_is_said_to_be_above_the_message():
    table = PlayTable(deal=Deal(hands=["5H 6H JK 9S", "7D 8D 9D 3C KD"], dealer=1))
    table.select("5H 6H JK")
    table.buttons[Control.MELD].click()
    assert is_shown(table.chooser)
    assert "above this message" in text(table.message.value)
    tree = table.walk()
    mine = next(w for w in tree if "penang-play-mine" in getattr(w, "_dom_classes", ()))
    order = in_page_order(mine)
    assert order.index(table.chooser) < order.index(table.message)


# -- hints say what they selected, and their move is played as hinted ----------------------------
def test_hint_names_the_cards_it_selected_and_the_button():
    table = PlayTable(deal=Deal(hands=["5H 6H 7H 9S 9D 9C 2S", "7D 8D 10D 3C KD"], dealer=1))
    move = hint_bot(table.deal, table.seat).choose(PlayerView.of(table.deal)).move
    assert isinstance(move, MeldMove)
    table.buttons[Control.HINT].click()
    words = " ".join(text(table.message.value).split())
    picked = " ".join(c.symbol for c in table.selected())
    assert f"The hint selected {picked} for you: press Meld." in words
    assert text(table.selection.value).split() == ["Selected:", *picked.split()]


def test_hint_on_a_lay_off_names_the_meld_too():
    deal = Deal(hands=["9S 9D 9C 8H 2S KD", "5H 6H 7H 3C 4D"], dealer=1)
    deal.push(MeldMove(tuple(parse_cards("9S 9D 9C"))))
    deal.push(EndTurn())
    deal.push(MeldMove(tuple(parse_cards("5H 6H 7H"))))
    deal.push(EndTurn())
    table = PlayTable(deal=deal)
    move = hint_bot(deal, table.seat).choose(PlayerView.of(deal)).move
    assert isinstance(move, LayOff)
    assert move == LayOff(1, Card.parse("8H"))
    table.buttons[Control.HINT].click()
    words = " ".join(text(table.message.value).split())
    # Issue 29, item 9: the meld is named by its owner, kind and cards, never by its number.
    assert "Hint: lay off 8♥ on East's run 5♥ 6♥ 7♥ —" in words
    assert "The hint selected 8♥ and chose East's run 5♥ 6♥ 7♥ in Meld on table" in words
    assert "press Lay off." in words and table.target.value == move.target
    assert "meld 1" not in words


def test_the_meld_menu_names_each_table_meld_by_owner_kind_and_cards():
    """Issue 29, item 9: "Meld on table" read "0: North · ..."; each option is now a whole
    phrase (with the number the table's Meld column shows), and its value (what the code keys
    on) is the meld's index."""
    deal = Deal(hands=["9S 9D 9C 8H 2S KD", "5H 6H JK 3C 4D"], dealer=1)
    deal.push(MeldMove(tuple(parse_cards("9S 9D 9C"))))
    deal.push(EndTurn())
    deal.push(MeldMove(tuple(parse_cards("5H 6H JK@7H"))))
    deal.push(EndTurn())
    table = PlayTable(deal=deal)
    assert table.target.options == (
        ("North's set 9♠ 9♦ 9♣ (meld 0)", 0),
        ("East's run 5♥ 6♥ JK=7♥ (meld 1)", 1),  # plain text: a joker as JK, with its card
    )
    assert table.target.value == 0
    table.select("8H")
    table.target.value = 1
    table.buttons[Control.LAY_OFF].click()
    assert deal.move_stack[-1] == LayOff(1, Card.parse("8H"))
    assert table.target.options[1] == ("East's run 5♥ 6♥ JK=7♥ 8♥ (meld 1)", 1)


def test_after_a_hint_its_joker_reading_is_not_asked_again():
    table = PlayTable(deal=Deal(hands=["5H 6H JK 2S", "7D 8D 9D 3C KD"], dealer=1))
    hinted = hint_bot(table.deal, table.seat).choose(PlayerView.of(table.deal)).move
    assert isinstance(hinted, MeldMove) and any(c.is_joker for c in hinted.cards)
    assert table.deal.explain_illegal(MeldMove(tuple(parse_cards("5H 6H JK")))) is not None
    table.buttons[Control.HINT].click()
    table.buttons[Control.MELD].click()
    assert not is_shown(table.chooser)
    assert table.deal.move_stack == [hinted]


def test_after_a_hint_another_selection_behaves_as_before():
    table = PlayTable(deal=Deal(hands=["5H 6H JK 2S", "7D 8D 9D 3C KD"], dealer=1))
    table.buttons[Control.HINT].click()
    click(table, "5♥")  # the learner unselects a hinted card: "(you selected ...)"
    assert len(table.selected()) == 2
    click(table, "5♥")
    click(table, "2♠")  # and adds 2♠
    table.buttons[Control.MELD].click()
    assert table.deal.move_stack == []
    assert not is_shown(table.chooser)
    table.buttons[Control.HINT].click()
    table.select("JK 6H 5H")  # the hinted cards again, picked by hand: the hinted move
    table.buttons[Control.MELD].click()
    assert len(table.deal.move_stack) == 1


# -- the keyboard focus (issue 29, item 10) --------------------------------------------------
def focus_sent(table: PlayTable, monkeypatch: pytest.MonkeyPatch) -> list[Widget]:
    """Record every widget of the table that is sent the browser's `focus` message."""
    sent: list[Widget] = []
    for widget in table.walk():
        monkeypatch.setattr(
            widget,
            "send",
            lambda content, buffers=None, w=widget: (
                sent.append(w) if content == {"do": "focus"} else None
            ),
        )
    return sent


def test_focus_moves_to_the_next_control_after_each_action_of_lesson_4(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lesson 4's exercise, as a keyboard user plays it: focus never falls off the table."""
    from penang_lib.widgets.lessons import lesson_data, position_deal

    deal = position_deal(lesson_data("04_lay_offs")["positions"]["lay_off"])
    table = PlayTable(deal=deal)
    sent = focus_sent(table, monkeypatch)
    first_card, end_turn = table.toggles[0], table.buttons[Control.END_TURN]

    table.select("8H")
    table.target.value = 0
    table.buttons[Control.LAY_OFF].click()
    assert str(deal.table[0]) == "5H 6H 7H 8H"
    assert table.focused is end_turn and sent == [end_turn]

    table.select("2D")
    table.target.value = 2
    table.buttons[Control.LAY_OFF].click()  # refused: the selection is cleared
    assert table.selected() == [] and table.focused is first_card

    table.select("JK")
    table.target.value = 0
    table.buttons[Control.LAY_OFF].click()  # two readings: the learner picks one
    assert is_shown(table.chooser) and table.focused is table.readings
    table.readings.value = 1
    table.buttons[Control.USE_READING].click()
    assert str(deal.table[0]) == "5H 6H 7H 8H JK@9H"
    assert not is_shown(table.chooser) and table.focused is end_turn

    end_turn.click()
    bots = table.buttons[Control.BOTS_TO_ME]
    assert not bots.disabled and table.focused == bots
    bots.click()
    assert deal.turn == table.seat and not first_card.disabled
    assert table.focused is first_card
    assert sent == [end_turn, first_card, table.readings, end_turn, bots, first_card]


def test_focus_goes_to_a_due_dead_or_game_and_to_the_review_at_the_end() -> None:
    dead = PlayTable(deal=Deal(hands=["2S 5D 9C", "KD QH 4C"], dealer=1))
    dead.buttons[Control.HINT].click()
    assert dead.focused == dead.buttons[Control.DEAD]
    dead.buttons[Control.DEAD].click()  # East plays on alone (the rule book's default)
    assert dead.focused is dead.buttons[Control.BOTS_TO_ME]
    dead.buttons[Control.BOTS_TO_ME].click()
    review = dead.buttons[Control.REVIEW]
    assert dead.deal.is_over and is_shown(review) and dead.focused is review
    dead.buttons[Control.NEW_DEAL].click()  # Review this deal is hidden now: the focus moves on
    mine = dead.deal.turn == dead.seat
    assert dead.focused == (dead.toggles[0] if mine else dead.buttons[Control.BOTS_TO_ME])
    assert not dead.focused.disabled
    hinted = PlayTable(deal=Deal(hands=["9S 9D 9C 2H", "KD QH 4C 8S"], dealer=1))
    hinted.buttons[Control.HINT].click()
    assert hinted.focused is hinted.buttons[Control.MELD]


# -- what to do now: the engine says what is due and why, the table names the button --------------
def test_next_step_gives_the_engines_reason_when_dead_is_due() -> None:
    deal = Deal(hands=["2S 5H 9S KH", "7D 8D 9D 3C"], dealer=1)
    verdict = deal.can_play()
    assert next_step(deal, 0) == (
        Said("Dead is due:"),
        Said(verdict.reason, "dead.passport", ok=False),
        Said("Click Declare Dead."),
    )
    deal.push(DeclareDead())
    assert next_step(deal, 0) == (
        Said("You are out of this deal: Bots to my turn plays it to the end."),
    )


def test_next_step_gives_the_engines_reason_when_game_is_yours() -> None:
    deal = Deal(hands=["5S 6S 7S", "7D 8D 9D 3C"], dealer=1)
    assert next_step(deal, 0) == (
        Said(
            "Your turn: select cards and click Meld, or choose a meld on the table and Lay off "
            "or Swap one card."
        ),
    )
    assert next_step(deal, 1) == (
        Said("It is North's turn: click Bot move to see the next move, or Bots to my turn."),
    )
    deal.push(MeldMove.of("5S 6S 7S"))
    err = deal.explain_illegal(EndTurn())
    assert err is not None
    assert next_step(deal, 0) == (Said(err.reason, "game", ok=True), Said("Click Call Game."))
    deal.push(DeclareGame())
    assert next_step(deal, 0) == (
        Said("The deal is over: every hand is shown. Click New deal to play another."),
    )


def test_next_step_after_an_action_offers_end_turn() -> None:
    deal = Deal(hands=["5S 6S 7S 2H", "7D 8D 9D 3C"], dealer=1)
    deal.push(MeldMove.of("5S 6S 7S"))
    assert next_step(deal, 0) == (Said("Your turn: play more, or click End turn."),)


def test_next_step_names_the_buttons_by_their_labels() -> None:
    """The sentences fill each button's label from the one table of words."""
    deal = Deal(hands=["2S 5H 9S KH", "7D 8D 9D 3C"], dealer=1)
    assert next_step(deal, 0)[-1].text.endswith(f" {label(Control.DEAD)}.")
    assert next_step(deal, 1)[0].text.count(label(Control.BOTS_TO_ME)) == 1


def test_a_bots_lay_off_names_the_meld_as_the_menu_named_it() -> None:
    """A bot's move on a table meld names the meld by its owner, kind and cards as it lay before
    the move (the "Meld on table" menu's name), not by its number; the deal is unchanged."""
    deal = Deal(hands=["5H 6H 7H 2S 3C KD", "7D 8D 9D 8H KC QS"], dealer=1)
    table = PlayTable(deal=deal)
    table.select("5H 6H 7H")
    table.buttons[Control.MELD].click()
    table.buttons[Control.END_TURN].click()
    table.buttons[Control.BOTS_TO_ME].click()
    said = text(table.message.value)
    assert "East (careful bot): lay off 8♥ on North's run 5♥ 6♥ 7♥. Why:" in said
    assert "on meld 0" not in said
    assert [m.label() for m in deal.move_stack[-3:]] == [
        "meld 7♦ 8♦ 9♦",
        "lay off 8♥ on meld 0",
        "end the turn",
    ]
    assert deal.table[0].symbols == "5♥ 6♥ 7♥ 8♥"


def test_the_opponents_menu_seats_other_bots_from_the_next_move_on() -> None:
    seat = (Deal(players=4, seed=12).turn + 1) % 4  # a bot plays the first turn
    table = PlayTable(seat=seat, players=4, bots="careful", seed=12)
    menu = table.opponents
    assert menu.description == label(Control.OPPONENTS)
    assert [value for _label, value in menu.options] == ["careful", "greedy", "random", "expert"]
    assert menu.value == "careful" and table.bots_names() == ["careful"] * 3
    menu.value = "expert"
    assert table.bots_names() == ["expert"] * 3
    assert "played by: expert, expert, expert" in text(table.message.value)
    # The expert plays at the table like any bot (a small budget keeps the test quick).
    for other in table.bots:
        table.bots[other] = make_bot("expert", other, budget=0.01)
    moves = 0
    while table.deal.turn != table.seat:
        table.buttons[Control.BOT_MOVE].click()
        moves += 1
    assert moves == len(table.deal.move_stack) > 0
    assert "(expert bot)" in text(table.message.value)
    # A new deal keeps the opponents chosen.
    table.buttons[Control.NEW_DEAL].click()
    assert table.bots_names() == ["expert"] * 3 and menu.value == "expert"


def test_a_mixed_table_offers_its_own_mix_first() -> None:
    table = PlayTable(seat=1, players=4, bots="careful,greedy,random", seed=3)
    assert table.opponents.options[0] == ("careful, greedy, random", "careful,greedy,random")
    assert table.opponents.value == "careful,greedy,random"
    table.opponents.value = "greedy"
    assert table.bots_names() == ["greedy"] * 3
    table.opponents.value = "careful,greedy,random"
    assert table.bots_names() == ["careful", "greedy", "random"]


def test_a_new_deal_leaves_the_opponents_menu_as_it_is() -> None:
    table = PlayTable(seed=1, bots="careful,greedy,random")
    before = (table.opponents.options, table.opponents.value)
    changes: list[str] = []
    table.opponents.observe(lambda change: changes.append(change["name"]), ["options", "value"])
    table.buttons[Control.NEW_DEAL].click()
    assert changes == [] and (table.opponents.options, table.opponents.value) == before
    table.opponents.value = "expert"  # a change the learner asks for still counts
    assert table.bots_names() == ["expert", "expert", "expert"]
    table.buttons[Control.NEW_DEAL].click()
    assert table.opponents.value == "expert" and table.bots_names() == ["expert"] * 3
