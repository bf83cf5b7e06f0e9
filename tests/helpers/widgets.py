"""What the widget tests share: a play table's shown cards, its words, the hidden cards that must
not leak into its state, and lesson 8's table played to the end."""

from __future__ import annotations

import html
import json
import re

from penang_lib import Deal, LayOff, MeldMove, PlayerView, Swap
from penang_lib.engine.bots import make_bot
from penang_lib.engine.cards import Card
from penang_lib.widgets.controls import Control
from penang_lib.widgets.play import PlayTable
from penang_lib.widgets.shared import is_shown


def shown(table: PlayTable) -> list[str]:
    """The descriptions of the visible card toggles, in order."""
    return [t.description for t in table.toggles if is_shown(t)]


def text(html_value: str) -> str:
    """An HTML value as the words a learner reads."""
    return html.unescape(re.sub(r"<[^>]+>", " ", html_value))


def state_text(table: PlayTable) -> str:
    """Every synced trait of every widget of the tree, as one text."""
    return json.dumps([w.get_state() for w in table.walk()], default=str, ensure_ascii=False)


def hidden_cards(deal: Deal, seat: int) -> set[Card]:
    """The cards in the other hands that are not (in any copy) on the table."""
    public = {c.plain for meld in deal.table for c in meld.cards}
    return {
        card
        for p in range(deal.players)
        if p != seat
        for card in deal.hand(p)
        if not card.is_joker and card not in public
    }


def leaks(table: PlayTable, cards: set[Card]) -> list[str]:
    """Which of `cards` appear in the widgets' state: as symbol, notation or name."""
    state = state_text(table)
    found = []
    for card in cards:
        notation = re.compile(rf"(?<![A-Za-z0-9]){re.escape(str(card))}(?![A-Za-z0-9])")
        if card.symbol in state or card.name in state or notation.search(state):
            found.append(str(card))
    return sorted(found)


LESSON_8 = {"seat": 0, "players": 4, "bots": "careful", "seed": 4}
"""Lesson 8's table (notebooks/lessons/data/08_play.json: seed 4, West deals)."""


def lesson_table() -> PlayTable:
    return PlayTable(**LESSON_8, deal=Deal(players=4, seed=4, dealer=3))  # type: ignore[arg-type]


def play_to_the_end(table: PlayTable, learner: str = "greedy") -> None:
    """Play the learner's seat with a bot's choices through the table's buttons, the way a hint
    has a learner do it: the move's cards selected (and its meld chosen), the move kept as the
    table keeps a hint's (so a joker keeps its reading), and the button that plays it pressed.
    The other seats play through Bots to my turn."""
    bot = make_bot(learner, 1)
    deal = table.deal
    while not deal.is_over:
        if deal.turn != table.seat:
            table.buttons[Control.BOTS_TO_ME].click()
            continue
        move = bot.choose(PlayerView.of(deal)).move
        if isinstance(move, MeldMove):
            table.hand_panel.mark([c.plain for c in move.cards])
        elif isinstance(move, LayOff | Swap):
            table.hand_panel.mark([move.card.plain])
            table.target.value = move.target
        table.controls.hint.remember(move, table.selected(), deal.state_key())
        before = len(deal.move_stack)
        table.buttons[Control(move.type)].click()
        assert len(deal.move_stack) == before + 1 and deal.move_stack[-1] == move
