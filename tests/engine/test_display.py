"""Rich display: cards, melds, hands and deals as HTML a screen reader can read."""

from __future__ import annotations

import re

from penang_lib import Card, Deal, check_meld
from penang_lib.engine.cards import cards_html, parse_cards


def test_red_suits_are_red_and_black_suits_are_not() -> None:
    assert "#c0392b" in Card.parse("10H")._repr_html_()
    assert "#c0392b" in Card.parse("QD")._repr_html_()
    assert "#c0392b" not in Card.parse("AS")._repr_html_()
    assert "#c0392b" not in Card.parse("2C")._repr_html_()


def test_cards_show_symbols_and_carry_a_spoken_name() -> None:
    html = Card.parse("10H")._repr_html_()
    assert "10♥" in html and 'aria-label="ten of hearts"' in html
    joker = Card.parse("JK@7H")._repr_html_()
    assert "<svg" in joker and "=7♥" in joker and "joker standing for the seven of hearts" in joker


def test_a_joker_is_our_own_drawing_with_a_name_not_an_emoji() -> None:
    """Issue 19: the emoji 🃏 is a boxed star in Debian's Chromium (no emoji font), so the
    kit draws its own joker; the card's span names it for screen readers and keeps its class."""
    from penang_lib.engine.cards import JOKER_DRAWN, JOKER_MARK, card_html

    for inline in (True, False):
        html = card_html(Card.parse("JK"), inline=inline)
        assert JOKER_MARK not in html
        assert re.search(r'<span class="penang-card penang-joker"[^>]* role="img"', html)
        assert 'aria-label="joker"' in html and 'title="joker"' in html
        if inline:  # a bare notebook has no stylesheet: the drawing is in the card
            svg = re.search(r"<svg [^>]*>.*</svg>", html)
            assert svg and 'aria-hidden="true"' in svg.group(0) and "<path" in svg.group(0)
        else:  # the kit's stylesheet paints an empty span (one drawing per page)
            assert f'<span class="{JOKER_DRAWN}" aria-hidden="true"></span>' in html
            assert "<svg" not in html
    # A set's joker shows the rank it stands for after the drawing; a natural has no drawing.
    assert re.search(r"</svg>=9</span>$", card_html(Card.parse("JK@9")))
    assert re.search(r"></span>=9</span>$", card_html(Card.parse("JK@9"), inline=False))
    assert "<svg" not in card_html(Card.parse("9S"))


def test_a_meld_renders_every_card_and_says_what_it_is() -> None:
    meld = check_meld("5H 6H JK@7H").reading
    assert meld is not None
    html = meld._repr_html_()
    assert len(re.findall(r'class="penang-card[ "]', html)) == 3
    assert "a run of hearts from 5♥ to 7♥" in html


def test_a_hand_renders_with_its_label() -> None:
    html = cards_html(parse_cards("AS JK"), label="North hand")
    assert 'aria-label="North hand"' in html and "A♠" in html


def test_a_deal_renders_hands_counts_and_the_player_to_move() -> None:
    deal = Deal(hands=["5H 6H 7H 9C", "2S 2D 2C 9H"], dealer=1)
    html = deal._repr_html_()
    assert "North" in html and "East" in html and "▶ North" in html
    assert "<td>27</td>" in html  # 5 + 6 + 7 + 9
    assert "9♣" in html
    assert "North" in str(deal) and "9♣" in str(deal)


def test_cards_carry_classes_for_a_stylesheet() -> None:
    from penang_lib.engine.cards import card_html

    html = card_html(Card.parse("10D"), inline=False, extra="penang-moved")
    assert 'class="penang-card penang-suit-d penang-red penang-moved"' in html
    assert "style=" not in html
    joker = card_html(Card.parse("JK@9S"), inline=False)
    assert "penang-joker penang-suit-s" in joker and "penang-red" not in joker
