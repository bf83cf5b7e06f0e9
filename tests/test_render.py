"""widgets.render: the HTML every widget shows, built from the engine's frames and sentences."""

from __future__ import annotations

import re

from penang_lib import Deal, explain, parse_move, play_deal
from penang_lib.rules import RULE_BOOK
from penang_lib.tables import hands_frame, log_frame, scores_frame, step_changes, table_frame
from widgets.render import (
    STYLESHEET,
    badge,
    card_row,
    events_html,
    face_down,
    hands_html,
    log_html,
    scores_html,
    table_html,
)


def test_hidden_hands_are_drawn_face_down_from_their_size_alone() -> None:
    deal = Deal(hands=["5H 6H 7H", "2C 3D 4C 9D"], dealer=1)
    html = hands_html(hands_frame(deal, show=[0]))
    assert "5♥" in html and "six of hearts" in html
    for hidden in ("2♣", "3♦", "two of clubs", "2C"):
        assert hidden not in html
    assert html.count("penang-back") == 4
    assert 'class="penang-frame penang-hands"' in html


def test_a_face_down_row_says_how_many_cards_it_holds() -> None:
    assert "7 cards, face down" in face_down(7, "East's hand")


def test_the_cards_that_moved_are_marked() -> None:
    deal = Deal(hands=["5H 6H 7H 9C", "2C 3C 4C 8D"], dealer=1)
    deal.push(parse_move("meld 5H 6H 7H"))
    html = table_html(table_frame(deal), step_changes(deal, 1))
    assert html.count("penang-moved") == 3 and "penang-row-changed" in html
    assert card_row(deal.hand(0), "hand", ()).count("penang-moved") == 0


def test_the_log_is_newest_first_with_rule_badges() -> None:
    deal = play_deal(3)
    html = log_html(log_frame(deal, 5))
    steps = [int(s) for s in re.findall(r"<tr><td>(\d+)</td>", html)]
    assert steps == [5, 4, 3, 2, 1]
    assert 'tabindex="0"' in html  # a scrolling region can be reached by keyboard


def test_a_badge_explains_its_rule_in_its_tooltip() -> None:
    for rule, summary in RULE_BOOK.items():
        html = badge(rule)
        assert f">{rule}<" in html and summary.replace("'", "&#x27;") in html


def test_events_show_the_engines_sentence_after_their_badge() -> None:
    deal = play_deal(3)
    html = events_html(deal.event_stack[0], deal.names)
    for event in deal.event_stack[0]:
        sentence = explain(event, deal.names).replace("'", "&#x27;")
        assert sentence in html and f">{event.rule}<" in html


def test_scores_mark_the_winner() -> None:
    deal = play_deal(3)
    html = scores_html(scores_frame(deal))
    assert html.count("wins") == len(deal.winners)


def test_one_stylesheet_styles_cards_by_class() -> None:
    for selector in (".penang-card", ".penang-red", ".penang-four-colour .penang-suit-d"):
        assert selector in STYLESHEET
