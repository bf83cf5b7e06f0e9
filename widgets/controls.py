"""Every control of the kit's widgets, keyed by a name in code, and the one table of their words.

Code names a control by `Control` (`Control.GAME`), never by its label: a widget's buttons are a
dict keyed by `Control`, a test presses `buttons[Control.GAME]`, and a browser test finds the
button by `label(Control.GAME)`. The words a learner reads on a control (its label and its
tooltip) are written once, in `WORDS`, marked for the message catalog (`penang_lib.i18n`); the
engine names no control (what to click is the view's business).

The move controls' values are the engine's move types (`Move.type`: "meld", "lay_off", ...), so
the control that plays a move is `Control(move.type)`.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from penang_lib.i18n import N_, _

__all__ = ["WORDS", "Control", "Words", "label", "naming", "tooltip"]


class Control(enum.Enum):
    """A button, menu or input of the kit's widgets, by its name in code."""

    # The learner's moves (values: the engine's move types) and the help beside them.
    MELD = "meld"
    LAY_OFF = "lay_off"
    SWAP = "swap"
    END_TURN = "end_turn"
    DEAD = "dead"
    GAME = "game"
    HINT = "hint"
    USE_READING = "use_reading"
    TARGET = "target"
    READINGS = "readings"
    # The bots at a play table, and what comes after a deal.
    BOT_MOVE = "bot_move"
    BOTS_TO_ME = "bots_to_me"
    NEW_DEAL = "new_deal"
    REVIEW = "review"
    ASK_EXPERT = "ask_expert"
    OPPONENTS = "opponents"
    # The puzzles.
    PREVIOUS_PUZZLE = "previous_puzzle"
    SHOW_ANSWER = "show_answer"
    NEXT_PUZZLE = "next_puzzle"
    PUZZLE_PICKER = "puzzle_picker"
    # A match of several deals.
    DEALER_SYSTEM = "dealer_system"
    PLAY_NEXT_DEAL = "play_next_deal"
    PLAY_THE_REST = "play_the_rest"
    NEW_MATCH = "new_match"
    # The deal stepper.
    FIRST = "first"
    BACK = "back"
    NEXT = "next"
    LAST = "last"
    STEP = "step"
    AUTOPLAY = "autoplay"
    # The quiz and the meld checker.
    TRY_AGAIN = "try_again"
    CARDS = "cards"
    AGAINST = "against"
    # A table played by several people: sitting down, starting, and the next deal.
    TABLE_NAME = "table_name"
    TABLE_PLAYERS = "table_players"
    CREATE_TABLE = "create_table"
    TABLE_CODE = "table_code"
    JOIN_TABLE = "join_table"
    START_TABLE = "start_table"
    DEAL_AGAIN = "deal_again"


class Words(NamedTuple):
    """What a learner reads on a control: its label and the tooltip that says what it does."""

    label: str
    tooltip: str


WORDS: dict[Control, Words] = {
    Control.MELD: Words(
        N_("Meld"), N_("Lay the selected cards from your hand as a meld (a run or a set)")
    ),
    Control.LAY_OFF: Words(
        N_("Lay off"), N_("Add the one selected card to the meld chosen in '{target}'")
    ),
    Control.SWAP: Words(
        N_("Swap"),
        N_("Put the one selected card in place of a joker in the chosen meld and take the joker"),
    ),
    Control.END_TURN: Words(
        N_("End turn"), N_("End your turn (after at least one meld or lay-off)")
    ),
    Control.DEAD: Words(
        N_("Declare Dead"), N_("You can make no meld and no lay-off: declare Dead")
    ),
    Control.GAME: Words(N_("Call Game"), N_("Your hand is empty: call Game and win the deal")),
    Control.HINT: Words(N_("Hint"), N_("Ask the careful bot for a legal move, and why")),
    Control.USE_READING: Words(
        N_("Use this reading"),
        N_("Play the move with the joker standing for the card chosen on the left"),
    ),
    Control.TARGET: Words(
        N_("Meld on table"), N_("The table meld that {lay_off} and {swap} play on")
    ),
    Control.READINGS: Words(N_("Joker stands for"), N_("Choose which card the joker stands for")),
    Control.BOT_MOVE: Words(
        N_("Bot move"), N_("Play the next bot move and show why the bot chose it")
    ),
    Control.BOTS_TO_ME: Words(
        N_("Bots to my turn"),
        N_("Let the bots play until it is your turn again (or the deal ends)"),
    ),
    Control.NEW_DEAL: Words(N_("New deal"), N_("Start a fresh deal with the same seats and bots")),
    Control.REVIEW: Words(
        N_("Review this deal"),
        N_("Step through your deal: each of your turns beside the careful bot's"),
    ),
    Control.OPPONENTS: Words(
        N_("Opponents"),
        N_(
            "Which bot plays the other seats, from the next bot move on (the expert thinks "
            "about a quarter of a second a move)"
        ),
    ),
    Control.ASK_EXPERT: Words(
        N_("Ask the expert"),
        N_(
            "Weigh each of your turns against the expert bot's play on sampled deals: about a "
            "second a turn"
        ),
    ),
    Control.PREVIOUS_PUZZLE: Words(N_("Previous"), N_("Go back to the puzzle before this one")),
    Control.SHOW_ANSWER: Words(N_("Show answer"), N_("Say the right move and select its cards")),
    Control.NEXT_PUZZLE: Words(N_("Next puzzle"), N_("Go on to the next puzzle of the set")),
    Control.PUZZLE_PICKER: Words(
        N_("Go to puzzle"), N_("Open any puzzle of the set; a tick marks those you solved")
    ),
    Control.DEALER_SYSTEM: Words(
        N_("Next dealer"),
        N_("Who deals the next deal (rule dealer); changing it starts a new match"),
    ),
    Control.PLAY_NEXT_DEAL: Words(
        N_("Play next deal"), N_("The bots play the next deal of the match")
    ),
    Control.PLAY_THE_REST: Words(
        N_("Play the rest"), N_("The bots play every deal left in the match")
    ),
    Control.NEW_MATCH: Words(N_("New match"), N_("Start again with new deals")),
    Control.FIRST: Words(N_("First"), N_("Go back to the deal as dealt, before any move")),
    Control.BACK: Words(N_("Back"), N_("Take back the last move (the engine undoes it exactly)")),
    Control.NEXT: Words(N_("Next"), N_("Play the next move of the deal")),
    Control.LAST: Words(N_("Last"), N_("Jump to the last move of the deal")),
    Control.STEP: Words(N_("Step"), N_("Drag to any step of the deal")),
    Control.AUTOPLAY: Words(
        N_("Play"), N_("Play the deal on its own, one move at a time (press again to pause)")
    ),
    Control.TRY_AGAIN: Words(N_("Try again"), N_("Clear every answer and start the quiz again")),
    Control.CARDS: Words(
        N_("Cards"),
        N_("Cards to check, in notation: rank then suit (5H, 10S, AD), JK for a joker"),
    ),
    Control.AGAINST: Words(
        N_("Against"), N_("Check the cards as a new meld, or against a meld on the table")
    ),
    Control.TABLE_NAME: Words(N_("Your name"), N_("The name the others at the table see")),
    Control.TABLE_PLAYERS: Words(N_("Players"), N_("How many seats the new table has")),
    Control.CREATE_TABLE: Words(
        N_("Start a table"), N_("Open a new table and sit in its first seat")
    ),
    Control.TABLE_CODE: Words(N_("Table code"), N_("The code someone at the table gave you")),
    Control.JOIN_TABLE: Words(N_("Join"), N_("Sit at the table of this code")),
    Control.START_TABLE: Words(
        N_("Start"), N_("Deal the first deal: a bot takes each seat nobody has taken")
    ),
    Control.DEAL_AGAIN: Words(
        N_("Deal again"), N_("Deal the next deal of the match at this table")
    ),
}
"""Each control's label and tooltip, written once (`tests/widgets/test_controls.py` checks that
no label is written anywhere else in the widgets or the engine). A tooltip names another control
by a placeholder named after it (`{target}`), filled with its label by `tooltip()`."""


def label(control: Control) -> str:
    """The label a learner reads on `control`, in their language."""
    return _(WORDS[control].label)


def tooltip(control: Control) -> str:
    """What `control` does, in a sentence shown when the pointer rests on it (a tooltip that
    names another control says its label: see `naming`)."""
    return naming(WORDS[control].tooltip)


def naming(message: str, **words: object) -> str:
    """`message` (a marked constant) in the learner's language, each placeholder named after a
    control's value (`{show_answer}`, `{target}`) filled with that control's label, the other
    placeholders from `words`: "Try again, or press {show_answer}." -> "Try again, or press
    Show answer."."""
    return _(message).format(**{c.value: label(c) for c in Control}, **words)
