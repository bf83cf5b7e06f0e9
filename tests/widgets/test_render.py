"""widgets.render: the HTML every widget shows, built from the engine's frames and sentences."""

from __future__ import annotations

import re
from urllib.parse import unquote

from penang_lib import Deal, explain, parse_move, play_deal
from penang_lib.data.frames import hands_frame, log_frame, scores_frame, step_changes, table_frame
from penang_lib.engine.cards import JOKER_DRAWN, JOKER_MARK, joker_svg, symbols_html
from penang_lib.engine.rules import RULE_BOOK
from penang_lib.widgets.render import (
    STYLESHEET,
    badge,
    card_row,
    events_html,
    face_down,
    hands_html,
    joker_button_css,
    log_html,
    scores_html,
    sentence_html,
    symbols,
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
        sentence = symbols(explain(event, deal.names))
        assert sentence in html and f">{event.rule}<" in html


def test_a_joker_in_a_sentence_is_drawn_as_on_the_cards_and_the_rest_is_escaped() -> None:
    html = sentence_html("swap", "Swap 7♥ for the <b>joker</b> 🃏=7♥ & keep 🃏.", ok=False)
    assert JOKER_MARK not in html and "<b>" not in html and "&lt;b&gt;joker&lt;/b&gt;" in html
    marks = re.findall(
        r'<span class="penang-joker-mark" role="img" aria-label="joker">(.*?)</span></span>', html
    )
    # Each joker is an empty span that the stylesheet paints with the drawing (a mask of it,
    # in the colour of the text around it); the drawing itself is in the stylesheet once.
    assert marks == [f'<span class="{JOKER_DRAWN}" aria-hidden="true">'] * 2
    assert "</span></span>=7♥ &amp; keep " in html and "penang-bad" in html
    rule = re.search(rf"\.{JOKER_DRAWN} \{{(.*?)\}}", STYLESHEET, re.S)
    assert rule is not None and "currentColor" in rule.group(1)
    assert "mask: var(--penang-joker) center" in rule.group(1)
    assert STYLESHEET.count("data:image/svg+xml,") == 1
    uri = re.search(r'--penang-joker: url\("data:image/svg\+xml,([^"]*)"\)', STYLESHEET)
    assert uri is not None and unquote(uri.group(1)) == joker_svg("#6c3483").replace('"', "'")
    # Where no stylesheet is (a bare notebook, the lesson text), the drawing is inline.
    assert symbols_html("🃏").count(joker_svg()) == 1
    deal = Deal(hands=["5H 6H JK 9C", "2S 2D 2C 9H"], dealer=1)
    events = deal.push(parse_move("meld 5H 6H JK@7H"))
    text = " ".join(explain(e, deal.names) for e in events)
    assert JOKER_MARK in text  # the engine's sentence names the joker...
    html = events_html(events, deal.names)
    assert JOKER_MARK not in html and "penang-joker-mark" in html  # ...the page draws it


def test_a_jokers_toggle_button_shows_the_drawing_and_keeps_its_text() -> None:
    """A toggle's label is text: the stylesheet paints the drawing behind it (also when the
    toggle is selected, whose rule sets a background of its own) and hides the text's ink."""
    css = joker_button_css()
    assert css in STYLESHEET and STYLESHEET.endswith(css)  # after the selected-card rules
    rule = re.search(r"\.jupyter-button\.penang-joker\.mod-active \{(.*?)\}", css, re.S)
    assert rule is not None
    assert "background-image: var(--penang-joker)" in rule.group(1)
    assert "color: transparent" in rule.group(1)


def test_scores_mark_the_winner() -> None:
    deal = play_deal(3)
    html = scores_html(scores_frame(deal))
    assert html.count("wins") == len(deal.winners)


def test_one_stylesheet_styles_cards_by_class() -> None:
    for selector in (".penang-card", ".penang-red", ".penang-four-colour .penang-suit-d"):
        assert selector in STYLESHEET
