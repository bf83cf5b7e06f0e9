"""PlayTable's `deal` and `seat` are traitlets: `ipywidgets.link` and `.observe` work on them as on
any widget, a refused value changes nothing, and neither trait ever reaches the browser.

A second file on widgets/play.py, named test_<module>_<aspect>.py (test_play.py is the first)."""

from __future__ import annotations

import json
from typing import Any

import ipywidgets
import pytest
import traitlets

from penang_lib import Deal, MeldMove
from penang_lib.engine.cards import Card
from penang_lib.widgets.controls import Control
from penang_lib.widgets.play import MOVED, PlayTable
from tests.helpers.widgets import hidden_cards, leaks, shown, text


def secret(table: PlayTable) -> set[Card]:
    """The cards only the other hands hold (the deck has copies: the learner's are not secret)."""
    mine = set(table.deal.hand(table.seat))
    return {c for c in hidden_cards(table.deal, table.seat) if c not in mine}


def synced_state(table: PlayTable) -> str:
    """Every synced trait of every widget of the tree, as one text."""
    return json.dumps([w.get_state() for w in table.walk()], default=str, ensure_ascii=False)


# -- link and observe ----------------------------------------------------------------------------
def test_a_slider_linked_to_the_seat_moves_the_learner_and_back() -> None:
    table = PlayTable(players=4, seed=3)
    slider = ipywidgets.IntSlider(min=0, max=3)
    ipywidgets.link((table, "seat"), (slider, "value"))
    slider.value = 2
    assert table.seat == 2
    assert shown(table) == [c.symbol for c in table.deal.hand(2)]
    assert sorted(table.bots) == [0, 1, 3]
    assert f"You play {table.deal.names[2]}." in text(table.message.value)
    table.seat = 1
    assert slider.value == 1
    assert shown(table) == [c.symbol for c in table.deal.hand(1)]


def test_observers_see_the_learner_start_a_new_deal() -> None:
    table = PlayTable(players=3, seed=5)
    seen: list[dict[str, Any]] = []
    table.observe(seen.append, names="deal")
    first = table.deal
    table.buttons[Control.NEW_DEAL].click()
    assert len(seen) == 1
    assert seen[0]["old"] is first and seen[0]["new"] is table.deal
    assert table.deal.seed == first.seed + 1


def test_setting_the_deal_shows_it_as_a_new_deal() -> None:
    table = PlayTable(players=4, seed=1)
    seen: list[Deal] = []
    table.observe(lambda change: seen.append(change["new"]), names="deal")
    other = Deal(players=4, seed=9)
    table.deal = other
    assert seen == [other] and table.deal is other
    assert shown(table) == [c.symbol for c in other.hand(0)]
    assert "A new deal." in text(table.message.value)
    assert {p: b.name for p, b in table.bots.items()} == {1: "careful", 2: "careful", 3: "careful"}
    # A deal in the same position is still a new deal: observers hear of it too.
    twin = Deal(players=4, seed=9)
    assert twin == other
    table.deal = twin
    assert len(seen) == 2 and seen[1] is twin and table.deal is twin


def test_a_deal_with_bigger_hands_gets_more_card_toggles() -> None:
    table = PlayTable(players=5, seed=2)
    pool = len(table.toggles)
    bigger = Deal(players=2, seed=2)
    assert len(bigger.hand(0)) > pool
    table.deal = bigger
    assert shown(table) == [c.symbol for c in bigger.hand(0)]
    assert list(table.hand_box.children) == table.toggles


def test_the_seat_can_change_again_once_the_deal_is_over() -> None:
    table = PlayTable(deal=Deal(hands=["5S 6S 7S", "7D 8D 9D 3C"], dealer=1))
    table.select("5S 6S 7S")
    table.buttons[Control.MELD].click()
    table.buttons[Control.GAME].click()
    assert table.deal.is_over
    table.seat = 1
    assert table.seat == 1 and sorted(table.bots) == [0]


# -- refused values change nothing ---------------------------------------------------------------
def test_a_seat_change_in_the_middle_of_a_deal_is_refused_and_changes_nothing() -> None:
    table = PlayTable(deal=Deal(hands=["5H 6H 7H 9S 2S", "7D 8D 9D 3C KD"], dealer=1))
    table.deal.push(MeldMove.of("5H 6H 7H"))
    table.buttons[Control.END_TURN].click()
    slider = ipywidgets.IntSlider(min=0, max=1)
    ipywidgets.link((table, "seat"), (slider, "value"))
    before = (synced_state(table), table.deal.state_key(), dict(table.bots))
    seen: list[object] = []
    table.observe(seen.append, names="seat")
    with pytest.raises(traitlets.TraitError) as refused:
        table.seat = 1
    assert str(refused.value) == MOVED
    assert MOVED.count(".") == 1 and MOVED.endswith(".")
    assert table.seat == 0 and seen == []
    assert (synced_state(table), table.deal.state_key(), dict(table.bots)) == before


@pytest.mark.parametrize(
    ("value", "words"),
    [(4, "from 0 to 3"), (-1, "from 0 to 3"), (True, "whole number"), ("2", "int")],
)
def test_a_seat_that_is_not_at_the_table_is_refused(value: object, words: str) -> None:
    table = PlayTable(players=4, seed=7)
    before = synced_state(table)
    with pytest.raises(traitlets.TraitError, match=words):
        table.seat = value  # type: ignore[assignment]
    assert table.seat == 0 and synced_state(table) == before


def test_a_deal_without_the_learners_seat_or_not_a_deal_is_refused() -> None:
    table = PlayTable(players=4, seed=7, seat=3)
    old = table.deal
    before = synced_state(table)
    with pytest.raises(traitlets.TraitError, match="this deal has 3 seats"):
        table.deal = Deal(players=3, seed=1)
    with pytest.raises(traitlets.TraitError):
        table.deal = "a deal"  # type: ignore[assignment]
    assert table.deal is old and synced_state(table) == before


# -- hidden information --------------------------------------------------------------------------
def test_the_deal_and_seat_traits_are_never_synced() -> None:
    table = PlayTable(players=4, seed=4)
    assert not isinstance(table, ipywidgets.Widget)
    assert all("deal" not in w.keys and "seat" not in w.keys for w in table.walk())
    assert secret(table) and leaks(table, secret(table)) == []
    table.seat = 2
    assert secret(table) and leaks(table, secret(table)) == []
    table.deal = Deal(players=4, seed=12)
    assert leaks(table, secret(table)) == []
    table.buttons[Control.BOTS_TO_ME].click()
    assert table.deal.turn == 2 and leaks(table, secret(table)) == []
