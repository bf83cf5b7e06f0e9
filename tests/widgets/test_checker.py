"""widgets.checker.MeldChecker: the verdict follows the typed cards, in the engine's own words."""

from __future__ import annotations

import itertools

import pytest

from penang_lib import (
    CardParseError,
    Deal,
    Meld,
    check_lay_off,
    check_meld,
    check_swap,
    parse_cards,
)
from penang_lib.engine.cards import sort_cards
from penang_lib.widgets import checker as checker_module
from penang_lib.widgets import render
from penang_lib.widgets.base import OOPS
from penang_lib.widgets.checker import MeldChecker
from penang_lib.widgets.shared import is_shown


def shown(c: MeldChecker, text: str) -> str:
    c.entry.value = text
    value: str = c.feedback.value
    return value


def trouble(c: MeldChecker) -> str:
    value: str = c._trouble.value
    return value


def test_hooks_and_empty_prompt():
    c = MeldChecker()
    assert "penang-checker" in c.root._dom_classes
    assert "penang-kit" in c.root._dom_classes
    assert "5H 6H JK" in c.entry.placeholder
    assert c.entry.description == "Cards"
    assert c.entry.continuous_update is True
    assert "penang-verdict" in c.feedback._dom_classes
    assert c.target is None and c.toggles == []
    assert "Type some cards" in c.feedback.value
    assert any(w is c.feedback for w in c.walk())


def test_corner_is_named_with_rule_run():
    c = MeldChecker()
    html = shown(c, "KH AH 2H")
    verdict = check_meld("KH AH 2H")
    assert not verdict.ok and verdict.rule == "run"
    assert "corner" in verdict.reason
    assert render.esc(verdict.reason) in html
    assert render.badge("run", "penang-bad") in html
    assert "penang-no" in c.feedback._dom_classes


def test_set_with_repeated_suits():
    c = MeldChecker(value="7H 7H 7C")
    html = c.feedback.value
    verdict = check_meld("7H 7H 7C")
    assert verdict.ok and verdict.kind == "set"
    assert "a set" in html
    assert render.esc(verdict.reason) in html
    assert render.badge(verdict.rule, "penang-good") in html
    assert "penang-ok" in c.feedback._dom_classes


def test_every_reading_is_listed():
    c = MeldChecker()
    html = shown(c, "JK JK 5D")
    readings = check_meld("JK JK 5D").readings
    assert len(readings) > 1
    assert html.count("<li>") == len(readings)
    for reading in readings:
        assert render.card_row(reading.cards, f"{reading.description}: {reading.symbols}") in html
        assert "🃏=" in reading.symbols  # jokers show what they stand for
    assert "a set or a run" in html


def test_bad_token_shows_the_parse_message():
    c = MeldChecker()
    with pytest.raises(CardParseError) as caught:
        parse_cards("5H XX 7H")
    html = shown(c, "5H XX 7H")
    assert render.esc(str(caught.value)) in html
    assert "XX" in html
    assert "penang-no" in c.feedback._dom_classes
    assert OOPS not in trouble(c)
    # the tone follows the next verdict
    shown(c, "5H 6H 7H")
    assert "penang-ok" in c.feedback._dom_classes
    assert "penang-no" not in c.feedback._dom_classes


def test_verdict_updates_on_every_value_change():
    c = MeldChecker()
    seen = []
    for text in ["5", "5H", "5H 6H", "5H 6H 7", "5H 6H 7H", "5H 6H 7H 8S", ""]:
        html = shown(c, text)
        seen.append(html)
        if text.strip():
            try:
                reason = check_meld(text).reason
            except CardParseError as error:
                reason = str(error)
            assert render.esc(reason) in html, text
    assert all(a != b for a, b in itertools.pairwise(seen))
    assert "Type some cards" in seen[-1]


def test_against_a_table_meld_lay_off_refused_swap_allowed():
    c = MeldChecker(table=["5H 6H JK@7H", "9S 9D JK"])
    assert c.target is not None
    assert c.target.description == "Against"
    assert c.target.options[0] == ("a new meld", -1)
    assert c.target.value == -1 and c.target.label == "a new meld"
    labels = [label for label, _ in c.target.options]
    assert labels[1].startswith("meld 0: 5♥ 6♥ JK=7♥")  # a menu is plain text: JK
    assert labels[2].startswith("meld 1: 9♠ 9♦ JK")

    before = shown(c, "7H")
    assert "Against" not in before  # a new meld: only the meld check
    c.target.index = 1
    html = c.feedback.value
    lay = check_lay_off("5H 6H JK@7H", "7H")
    swap = check_swap("5H 6H JK@7H", "7H")
    assert not lay.ok and swap.ok
    assert render.sentence_html(lay.rule, lay.reason, ok=False) in html
    assert render.sentence_html(swap.rule, f"May replace a joker: {swap.reason}", ok=True) in html
    # the meld check stays
    assert render.esc(check_meld("7H").reason) in html


def test_each_typed_card_is_checked_against_the_meld():
    c = MeldChecker(table=["5H 6H JK@7H"])
    c.target.index = 1
    html = shown(c, "8H 4S")
    for card in ("8H", "4S"):
        lay = check_lay_off("5H 6H JK@7H", card)
        swap = check_swap("5H 6H JK@7H", card)
        lay_text = f"May be laid off: {lay.reason}" if lay.ok else lay.reason
        assert render.sentence_html(lay.rule, lay_text, ok=lay.ok) in html
        assert render.sentence_html(swap.rule, swap.reason, ok=swap.ok) in html
    c.target.value = -1
    assert "Against" not in c.feedback.value


def test_hand_toggles_fill_the_text():
    c = MeldChecker(hand="9S 7H 8H 8H JK")  # already in display order
    assert [t.description for t in c.toggles] == ["9♠", "7♥", "8♥", "8♥", "🃏"]
    assert [t.tooltip for t in c.toggles] == [card.name for card in parse_cards("9S 7H 8H 8H JK")]
    assert all("penang-hand-card" in t._dom_classes for t in c.toggles)
    assert "penang-red" in c.toggles[1]._dom_classes
    first = list(c.toggles)

    c.toggles[2].value = True
    c.toggles[3].value = True
    c.toggles[4].value = True
    assert c.entry.value == "8H 8H JK"
    eights = check_meld("8H 8H JK")
    assert render.sentence_html(eights.rule, eights.reason, ok=True) in c.feedback.value

    c.toggles[2].value = False
    assert c.entry.value == "8H JK"
    assert [t.value for t in c.toggles] == [False, False, False, True, True]

    # typing presses the typed cards' toggles, each copy once
    c.entry.value = "9S 8H 8H 8H"
    assert [t.value for t in c.toggles] == [True, False, True, True, False]
    # a bad token does not break the toggles: clicking still adds and removes cards
    c.entry.value = "9S XX"
    assert [t.value for t in c.toggles] == [True, False, False, False, False]
    c.toggles[1].value = True
    assert c.entry.value == "9S XX 7H"
    c.toggles[0].value = False
    assert c.entry.value == "XX 7H"
    assert OOPS not in trouble(c)
    assert c.toggles == first  # created once


def test_the_picker_shows_the_hand_in_the_play_tables_order():
    # Lesson 1 says the kit sorts each hand by suit and rank: the picker does as the play table.
    given = "JK 9C 2S 7D AS 5H 7D KS 5H 10C"
    c = MeldChecker(hand=given)
    deal = Deal(hands=[given, "3C 4C 5C 6C"], dealer=1)
    assert c.hand == deal.hand(0) == sort_cards(parse_cards(given))
    assert c.hand != parse_cards(given)  # the hand was given out of order
    assert [t.description for t in c.toggles] == [card.symbol for card in deal.hand(0)]
    c.toggles[0].value = True  # the first toggle is the first card shown
    assert c.entry.value == str(deal.hand(0)[0])


def test_a_callback_failure_shows_one_sentence(monkeypatch: pytest.MonkeyPatch):
    c = MeldChecker()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(checker_module, "check_meld", broken)
    c.entry.value = "5H 6H 7H"  # no exception escapes
    assert OOPS in trouble(c)
    assert is_shown(c._trouble)


def test_the_checker_can_start_against_a_table_meld():
    c = MeldChecker(table=["5H 6H JK@7H", "9S 9D JK"], value="9H", against=1)
    assert c.target.value == 1
    swap = check_swap("9S 9D JK", "9H")
    assert render.sentence_html(swap.rule, f"May replace a joker: {swap.reason}", ok=True) in (
        c.feedback.value
    )
    with pytest.raises(ValueError, match="from 0 to 1"):
        MeldChecker(table=["5H 6H JK@7H", "9S 9D JK"], against=2)


def test_a_plain_joker_laid_off_on_a_run_offers_both_ends():
    # Issue 19, item 13: the joker may stand at either end of 5♥ 6♥ 7♥; the player chooses.
    c = MeldChecker(table=["5H 6H 7H", "9S 9D 9C"], against=0)
    html = shown(c, "JK")
    meld = c.table[0]
    assert isinstance(meld, Meld)  # read once, when the checker was built
    ends = meld.lay_off_results(parse_cards("JK")[0])
    assert [r.symbols for r in ends] == ["🃏=4♥ 5♥ 6♥ 7♥", "5♥ 6♥ 7♥ 🃏=8♥"]
    bottom, top = check_lay_off("5H 6H 7H", "JK@4H"), check_lay_off("5H 6H 7H", "JK@8H")
    assert bottom.ok and "at the bottom" in bottom.reason
    assert top.ok and "at the top" in top.reason
    assert c.joker_lay_offs(0, parse_cards("JK")[0]) == [bottom, top]
    assert "May be laid off in 2 ways (the player chooses one)" in html
    for verdict in (bottom, top):
        assert render.sentence_html(verdict.rule, verdict.reason, ok=True) in html
    # the engine's one-reading sentence is replaced by the list, not shown beside it
    assert render.esc(check_lay_off("5H 6H 7H", "JK").reason) not in html
    assert "penang-ok" in c.feedback._dom_classes

    # a set takes a joker one way only: the single sentence, as before
    c.target.value = 1
    lay = check_lay_off("9S 9D 9C", "JK")
    assert len(c.joker_lay_offs(1, parse_cards("JK")[0])) == 1
    html = c.feedback.value
    assert render.sentence_html(lay.rule, f"May be laid off: {lay.reason}", ok=True) in html
    assert "ways" not in html

    # a noted joker has its one place; a run at A..A has none
    c.target.value = 0
    assert c.joker_lay_offs(0, parse_cards("JK@8H")[0]) == []
    assert "ways" not in shown(c, "JK@8H")
    full = MeldChecker(table=["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"], against=0)
    assert full.joker_lay_offs(0, parse_cards("JK")[0]) == []
    assert "ways" not in shown(full, "JK")
    assert "penang-no" in full.feedback._dom_classes


def test_a_plain_joker_on_a_table_meld_read_two_ways_lists_each_place_once():
    # 6♥ 7♥ 🃏 reads as 5♥ 6♥ 7♥ or 6♥ 7♥ 8♥: a joker laid off may make 4-7, 5-8 or 6-9.
    c = MeldChecker(table=["6H 7H JK"], against=0)
    html = shown(c, "JK")
    placings = c.joker_lay_offs(0, parse_cards("JK")[0])
    made = [v.reason.rsplit("making ", 1)[1] for v in placings]
    assert made == ["🃏=4♥ 🃏=5♥ 6♥ 7♥.", "🃏=5♥ 6♥ 7♥ 🃏=8♥.", "6♥ 7♥ 🃏=8♥ 🃏=9♥."]
    assert f"May be laid off in {len(placings)} ways" in html
    for verdict in placings:
        assert verdict == check_lay_off("6H 7H JK", verdict.reason.split(" ", 1)[0])
