"""`PlayTogether`, the "Play together" page's widget, wired to an in-process `Tables` (no
network): two widgets are two people at one table; the bots of the other seats are played by the
test (`play_bot` then `broadcast`), as the service's loop would."""

from __future__ import annotations

import json
import random
import re

import pandas as pd

from penang_lib.course.review.analysis import Review
from penang_lib.course.review.codec import decode
from penang_lib.engine.bots import ALL_BOT_NAMES
from penang_lib.engine.cards import Card, parse_cards
from penang_lib.tables.protocol import Tables
from penang_lib.tables.table import Table
from penang_lib.widgets.controls import Control, label, tooltip
from penang_lib.widgets.shared import is_shown
from penang_lib.widgets.together import BOT_WORDS, PlayTogether, read_query
from penang_lib.widgets.together_view import hands_frame, who_sits
from penang_lib.widgets.together_wire import InProcess
from tests.helpers.widgets import text
from tests.tables.helpers import Clock


def new_tables() -> Tables:
    return Tables(clock=Clock(), rng=random.Random(5))


def person(tables: Tables, name: str, query: str = "") -> PlayTogether:
    page = PlayTogether(InProcess(tables), query=query)
    page.inputs[Control.TABLE_NAME].value = name
    return page


def opened(players: int = 4) -> tuple[Tables, PlayTogether, PlayTogether]:
    """Ana opens a table of `players`, Bo joins it by its code."""
    tables = new_tables()
    ana = person(tables, "Ana")
    ana.inputs[Control.TABLE_PLAYERS].value = players
    ana.buttons[Control.CREATE_TABLE].click()
    assert ana.table is not None
    bo = person(tables, "Bo")
    bo.inputs[Control.TABLE_CODE].value = ana.table.lower()
    bo.buttons[Control.JOIN_TABLE].click()
    return tables, ana, bo


def started(
    players: int = 4, bots: dict[int, str] | None = None
) -> tuple[Tables, Table, PlayTogether, PlayTogether]:
    tables, ana, bo = opened(players)
    for seat, bot in (bots or {}).items():
        ana.bot_menus[seat].value = bot
    ana.buttons[Control.START_TABLE].click()
    assert ana.table is not None
    return tables, tables.tables[ana.table], ana, bo


def bots_play(tables: Tables, table: Table) -> None:
    """The bots play until a person is to play or the deal is over."""
    while table.bot_due() is not None:
        table.play_bot()
        tables.broadcast(table)


def state_text(page: PlayTogether) -> str:
    return json.dumps([w.get_state() for w in page.walk()], default=str, ensure_ascii=False)


def shown_hand(page: PlayTogether) -> list[str]:
    return [t.description for t in page.controls.hand_panel.toggles if is_shown(t)]


def leaked(page: PlayTogether, table: Table, seat: int) -> list[str]:
    """Cards of the other hands (none of them on the table, none a card a joker on the table
    stands for, none in this seat's hand) found in any synced trait of `page`'s widget tree."""
    deal = table.deal
    assert deal is not None
    public = {c.plain for meld in deal.table for c in meld.cards} | set(deal.hand(seat))
    # A joker on the table shows the card it stands for ("JK@2H" is drawn as 2♥).
    for meld in deal.table:
        for card in meld.cards:
            if card.is_joker and card.as_rank is not None and card.as_suit is not None:
                public.add(Card(card.as_rank, card.as_suit))
    secret = {c for p in range(deal.players) if p != seat for c in deal.hand(p)}
    secret = {c for c in secret if not c.is_joker and c not in public}
    state = state_text(page)
    found = []
    for card in secret:
        notation = re.compile(rf"(?<![A-Za-z0-9@]){re.escape(str(card))}(?![A-Za-z0-9])")
        if card.symbol in state or card.name in state or notation.search(state):
            found.append(str(card))
    return sorted(found)


def test_create_and_join_by_code_show_both_at_one_table() -> None:
    _tables, ana, bo = opened()
    assert (ana.seat, bo.seat) == (0, 1) and ana.table == bo.table
    for page in (ana, bo):
        assert not is_shown(page.lobby) and is_shown(page.at_table)
        seats = text(page.seats_view.value)
        assert "Ana" in seats and "Bo" in seats and "empty: a bot takes it" in seats
        assert f"Table code: {ana.table}" in text(page.links_view.value)
    assert "you, here" in text(ana.seats_view.value)
    # Only the starter has Start and a bot menu per empty seat (seats 3 and 4), careful first.
    assert is_shown(ana.start_bar) and not is_shown(bo.start_bar)
    assert [is_shown(m) for m in ana.bot_menus[:4]] == [False, False, True, True]
    assert ana.bot_menus[2].value == "careful"
    assert set(BOT_WORDS) == set(ALL_BOT_NAMES)
    assert "Waiting for Ana to start" in text(bo.turn_view.value)


def test_the_pages_controls_are_keyed_by_control_and_worded_by_the_table_of_controls() -> None:
    page = PlayTogether(InProcess(new_tables()), query="")
    controls: dict[Control, object] = {**page.inputs, **page.buttons}
    for control, widget in controls.items():
        assert getattr(widget, "description", None) == label(control)
        assert getattr(widget, "tooltip", None) == tooltip(control)
    # The browser tests find them by these very words.
    assert {label(c) for c in controls} == {
        "Your name",
        "Players",
        "Table code",
        "Start a table",
        "Join",
        "Start",
        "Deal again",
    }


def test_a_code_in_the_link_fills_the_code_field() -> None:
    page = PlayTogether(InProcess(new_tables()), query="table=acd34")
    assert page.inputs[Control.TABLE_CODE].value == "ACD34"
    assert read_query("table=0000&token=<b>").table is None
    assert read_query("table=ACD34&token=<b>").token is None


def test_start_with_a_chosen_bot_and_the_turn_sign_moves() -> None:
    tables, table, ana, bo = started(bots={2: "greedy", 3: "random"})
    seats = table.seats
    assert seats[2] is not None and seats[2].bot == "greedy"
    assert seats[3] is not None and seats[3].bot == "random"
    assert "greedy bot" in text(ana.seats_view.value)
    deal = table.deal
    assert deal is not None
    bots_play(tables, table)
    turn = deal.turn
    mover, other = (ana, bo) if turn == 0 else (bo, ana)
    assert (
        "It is your turn" in text(mover.turn_view.value)
        and "penang-ok" in mover.turn_view._dom_classes
    )
    assert "penang-ok" not in other.turn_view._dom_classes
    assert f"It is {'Ana' if turn == 0 else 'Bo'}'s turn" in text(other.turn_view.value)
    assert not mover.controls.buttons[Control.MELD].disabled
    assert other.controls.buttons[Control.MELD].disabled


def play_first_legal(page: PlayTogether) -> str:
    """Play the seat's first legal move through the move controls, as clicks would."""
    move = str(page.state["legal_moves"][0])
    kind, _sep, rest = move.partition(" ")
    if kind == "meld":
        page.select(" ".join(c.split("@")[0] for c in rest.split()))
        page.controls.buttons[Control.MELD].click()
        if is_shown(page.controls.action_bar.chooser):  # a joker read more ways: pick this one
            choose_reading(page, move)
    elif kind in ("lay_off", "swap"):
        target, card = rest.split()
        page.select(card)
        page.controls.action_bar.target.value = int(target)
        page.controls.buttons[Control(kind)].click()
    else:
        page.controls.buttons[Control(kind)].click()
    return move


def choose_reading(page: PlayTogether, move: str) -> None:
    bar = page.controls.action_bar
    for index in range(len(bar.readings.options)):
        bar.readings.value = index
        if sorted(str(bar.chosen()).split()) == sorted(move.split()):
            page.controls.buttons[Control.USE_READING].click()
            return
    raise AssertionError(f"{move} is not among the readings offered")


def test_a_move_through_the_controls_reaches_the_other_seat() -> None:
    tables, table, ana, bo = started()
    bots_play(tables, table)
    deal = table.deal
    assert deal is not None
    mover, other = (ana, bo) if deal.turn == 0 else (bo, ana)
    before = len(deal.move_stack)
    move = play_first_legal(mover)
    assert len(deal.move_stack) == before + 1
    assert other.state["hand_sizes"] == [deal.hand_size(p) for p in range(4)]
    assert other.state["events"][-1]["text"] in text(other.events_view.value)
    if move.startswith("meld"):
        assert "No meld on the table yet" not in text(other.table_view.value)
    # The melds are the engine's own, read back from the state; the counts are the table's.
    for page in (ana, bo):
        assert page.position.table == tuple(deal.table)
        assert page.position.owners == tuple(deal.owners)
        points = hands_frame(page.state, page.seat)["points"]
        assert [None if p != page.seat else deal.count(p) for p in range(4)] == [
            None if pd.isna(v) else int(v) for v in points
        ]


def test_the_dead_and_game_buttons_follow_the_forced_move_the_table_sends() -> None:
    tables, table, ana, bo = started()
    bots_play(tables, table)
    deal = table.deal
    assert deal is not None
    mover = ana if deal.turn == 0 else bo
    state = dict(mover.state)
    buttons = mover.controls.buttons
    mover.receive({**state, "forced_move": "dead"})
    assert is_shown(buttons[Control.DEAD]) and not is_shown(buttons[Control.GAME])
    assert f"click {label(Control.DEAD)}" in text(mover.controls.message.value)
    mover.receive({**state, "forced_move": "game"})
    assert is_shown(buttons[Control.GAME]) and not is_shown(buttons[Control.DEAD])
    # The page decides nothing from the legal moves itself: no forced move, no such button.
    mover.receive({**state, "forced_move": None, "legal_moves": ["dead"]})
    assert not is_shown(buttons[Control.DEAD]) and not is_shown(buttons[Control.GAME])


def test_an_illegal_try_shows_the_engines_sentence_and_changes_nothing() -> None:
    tables, table, ana, bo = started()
    bots_play(tables, table)
    deal = table.deal
    assert deal is not None
    mover = ana if deal.turn == 0 else bo
    before = deal.copy()
    mover.controls.buttons[Control.END_TURN].click()  # nothing melded yet: refused
    assert deal == before
    said = text(mover.controls.message.value)
    assert "passport" in said or "turn" in said
    assert "penang-no" in mover.controls.message._dom_classes
    # Out of turn: the table's own sentence.
    other = bo if mover is ana else ana
    other.controls.buttons[Control.END_TURN].click()
    assert "It is not your turn" in text(other.controls.message.value) and deal == before


def test_a_name_with_html_is_refused_and_shown_as_text() -> None:
    tables = new_tables()
    page = person(tables, "<b>Ana</b>")
    page.buttons[Control.CREATE_TABLE].click()
    assert page.table is None and not tables.tables
    assert "angle brackets" in text(page.lobby_message.value)
    assert "<b>" not in page.lobby_message.value
    assert page.inputs[Control.TABLE_NAME].value == "<b>Ana</b>"  # a Text's value: shown as text


def play_out(tables: Tables, table: Table, pages: dict[int, PlayTogether]) -> None:
    deal = table.deal
    assert deal is not None
    for _step in range(3000):
        bots_play(tables, table)
        if deal.is_over:
            return
        page = pages[deal.turn]
        for seat, other in pages.items():
            assert leaked(other, table, seat) == [], seat
        play_first_legal(page)
    raise AssertionError("the deal did not end")


def test_the_deal_played_to_its_end_shows_every_hand_and_the_winner_then_deals_again() -> None:
    tables, table, ana, bo = started(players=3)
    play_out(tables, table, {0: ana, 1: bo})
    deal = table.deal
    assert deal is not None and deal.is_over
    for page in (ana, bo):
        assert is_shown(page.scores_view) and is_shown(page.buttons[Control.DEAL_AGAIN])
        words = text(page.scores_view.value)
        assert "wins the deal" in words or "share the win" in words
        hands = page.hands_view.value
        for p in range(3):
            for card in deal.hand(p):
                assert card.symbol in hands or card.is_joker
        assert not is_shown(page.controls.hand_panel.box)
        assert page.position.table == tuple(deal.table) and deal.table
        points = hands_frame(page.state, page.seat)["points"]
        assert [int(v) for v in points] == [deal.count(p) for p in range(3)]
    bo.buttons[Control.DEAL_AGAIN].click()
    assert table.deal_number == 2 and not table.deal.is_over  # type: ignore[union-attr]
    assert ana.state["deal_number"] == 2 and not is_shown(ana.scores_view)


def test_each_seat_opens_the_review_of_the_finished_deal_from_its_own_seat() -> None:
    tables, table, ana, bo = started(players=3, bots={2: "greedy"})
    watcher = person(tables, "", query=f"table={ana.table}&watch=1")
    play_out(tables, table, {0: ana, 1: bo})
    deal = table.deal
    assert deal is not None and deal.is_over
    for seat, page in ((0, ana), (1, bo)):
        found = re.search(
            r'href="08_play\.ipynb\?review=([A-Za-z0-9_-]+)"[^>]*>Review this deal from your seat',
            page.scores_view.value,
        )
        assert found, page.scores_view.value
        linked = decode(found.group(1))
        assert linked.seat == seat
        assert [str(m) for m in linked.deal.move_stack] == [str(m) for m in deal.move_stack]
        assert linked.deal.scores == deal.scores and linked.deal.names == deal.names
        # The greedy bot keeps its name; the other person is played on by the careful bot.
        expected = {0: ("careful", "greedy"), 1: ("greedy", "careful")}[seat]
        assert linked.bots == expected and linked.people == (1 - seat,)
        # The review gives the greedy bot's reasons, never a bot's reason for the other person.
        whys = Review(linked.deal, seat, linked.bots, linked.people).whys
        movers = linked.deal.movers
        assert all(not why for why, mover in zip(whys, movers, strict=True) if mover != 2)
        assert any(why for why, mover in zip(whys, movers, strict=True) if mover == 2)
    assert is_shown(watcher.scores_view) and "review=" not in watcher.scores_view.value


def test_resume_by_the_token_of_the_own_link_gives_the_same_seat() -> None:
    tables, table, _ana, bo = started()
    link = re.search(r'href="([^"]*token=[^"]*)"', bo.links_view.value)
    assert link is not None
    query = link.group(1).split("?", 1)[1].replace("&amp;", "&")
    again = PlayTogether(InProcess(tables), query=query)
    assert again.seat == 1 and again.table == bo.table
    assert shown_hand(again) == [c.symbol for c in parse_cards(" ".join(bo.state["hand"]))]
    assert isinstance(table.deal.hand(1)[0], Card)  # type: ignore[union-attr]
    forged = PlayTogether(InProcess(tables), query=f"table={bo.table}&token=forged-token")
    assert forged.seat is None and "not right" in text(forged.lobby_message.value)


def test_without_a_service_the_page_says_so_and_offers_nothing() -> None:
    page = PlayTogether(query="")
    assert all(b.disabled for b in page.buttons.values())
    assert "No table service answers here" in text(page.lobby_message.value)


def test_a_spectator_from_the_teachers_link_sees_no_hand_and_has_no_controls() -> None:
    tables, table, ana, _bo = started()
    assert ana.table is not None
    assert read_query(f"table={ana.table}&watch=1").watch
    assert not read_query(f"table={ana.table}&token=abc&watch=1").watch  # a seat's own link
    watcher = person(tables, "", query=f"table={ana.table}&watch=1")
    assert watcher.table == ana.table and watcher.seat is None
    bots_play(tables, table)
    assert shown_hand(watcher) == []
    assert not is_shown(watcher.controls.action_bar.box)
    for seat in range(table.players):
        assert leaked(watcher, table, seat) == []


def test_who_sits_says_each_kind_of_seat_in_a_whole_sentence() -> None:
    person = {"kind": "person", "name": "Ana", "connected": True, "standing_in": False}
    assert who_sits(person, mine=True) == "you, here"
    assert who_sits(person, mine=False) == "a person, here"
    assert who_sits({**person, "connected": False}, mine=False) == "waiting for Ana"
    away = {**person, "connected": False, "standing_in": True, "bot": "careful"}
    assert who_sits(away, mine=False) == "a careful bot plays for Ana until they come back"
    assert who_sits({"kind": "bot", "bot": "greedy"}, mine=False) == "greedy bot"
