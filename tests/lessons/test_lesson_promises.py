"""What the lessons promise about the bots' deals, checked against the deal the page shows
(issue 29, item 1: every promise a lesson makes must hold when followed literally).

Lesson 8's "follow the hints all the way and you will win" is played as a script in
`test_lesson_steps_play.py`; lessons 3 and 6's steps in `test_lesson_steps_stepper.py`. Here:
lesson 4's deal of careful bots laying off one card a turn, and the careful bot's promise, in
lesson 8's strategy reminder, that it plays a second action only when death is near.
"""

from __future__ import annotations

import re

from penang_lib import CarefulBot, LayOff, MeldMove, PlayerView
from penang_lib.engine.bots import play_deal_explained
from tests.helpers.notebooks import cells, one, plain, run_cells

LESSON_4 = "04_lay_offs.ipynb"
LESSON_8 = "08_play.ipynb"


def test_lesson_4_each_bot_lays_off_one_card_a_turn_because_one_keeps_it_alive() -> None:
    """ "from step 9 to step 29 each bot lays off exactly one card per turn, and the reason it
    gives is that one card keeps it alive": every action in those steps is a lay-off, every turn
    holds one, and each bot's reason says that one card keeps it alive."""
    words = " ".join("".join(cells(LESSON_4)["f8936dcb"]["source"]).split())
    found = one(r"from step (\d+) to step (\d+) each bot lays off exactly one card per turn", words)
    first, last = int(found.group(1)), int(found.group(2))
    assert "the reason it gives is that one card keeps it alive" in words
    stepper = run_cells(LESSON_4, "cb60602e", "6d97e633")
    assert stepper.step == first
    turns: dict[int, int] = {}
    for k in range(first, last + 1):
        stepper.step = k
        panel = plain(stepper.explanation.value)
        move = stepper.deal.move_stack[-1]
        turn = int(one(rf"Step {k}, played in turn (\d+):", panel).group(1))
        if isinstance(move, LayOff | MeldMove):
            assert isinstance(move, LayOff), (k, move)
            turns[turn] = turns.get(turn, 0) + 1
            assert "one card keeps me alive" in panel, (k, panel)
    assert turns and set(turns.values()) == {1}, turns


def test_lesson_8_the_careful_bot_plays_a_second_action_only_when_death_is_near() -> None:
    """Lesson 8's reminder says when the careful bot (its opponents) plays a second action in a
    turn: 4 cards or fewer, no meld and no joker among them, at most two that fit. In many
    careful deals, every second action that does not go out comes with such a hand, and its
    reason says so."""
    words = " ".join("".join(cells(LESSON_8)["71b37a8f"]["source"]).split())
    said = one(
        r"plays a second action in a turn only when death is near: (\d+) cards or fewer in "
        r"hand, no meld and no joker among them, and at most two that fit on the table",
        words,
    )
    most = int(said.group(1))
    seconds = 0
    for seed in range(120):
        deal, choices = play_deal_explained(seed, 4, "careful")
        replay = deal.root()
        for move, choice in zip(deal.move_stack, choices, strict=True):
            view = PlayerView.of(replay)
            if view.actions and isinstance(move, LayOff) and len(view.cards) > 1:
                seconds += 1
                assert len(view.cards) <= most and not view.jokers and not view.has_meld()
                fits = {c.index for _, c in view.natural_lay_off_options()}
                assert sum(view.counts[i] for i in fits) <= 2
                assert re.search(
                    r"death is near: my \d cards hold no meld and no joker", choice.why
                )
                assert choice.why == CarefulBot().choose(view).why
            replay.push(move)
    assert seconds > 0
