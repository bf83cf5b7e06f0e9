"""Every play-table exercise of the lessons, followed as a script: build the table the way the
notebook's code cell does (the cell's own source is run), click what the lesson's text says, and
expect what the text promises, checked against the engine (rule ids, sentences, the deal).

Each test also reads the exercise's markdown from the notebook and checks that it still names the
cards, melds and buttons the script presses, so a change of the text that breaks the steps (or
of the widget that breaks the text) fails here.
"""

from __future__ import annotations

import ast
import html
import json
import re
from typing import Any

from penang_lib import DeclareDead, EndTurn, LayOff, MeldMove, PlayerView, Status
from penang_lib import Swap as SwapMove
from penang_lib.engine.cards import read_cards
from penang_lib.engine.explain import explain
from penang_lib.widgets import render
from penang_lib.widgets.controls import Control, label
from penang_lib.widgets.play import CLEARED, PlayTable, hint_bot
from penang_lib.widgets.shared import is_shown
from tests.checkout import REPO

LESSONS = REPO / "notebooks" / "lessons"


# -- the notebook side -----------------------------------------------------------------------------
def _run(source: str, namespace: dict[str, Any]) -> Any:
    """Run a cell's source; return the value of its last expression (None if it has none)."""
    tree = ast.parse(source)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    body = tree.body[:-1] if last is not None else tree.body
    exec(compile(ast.Module(body=body, type_ignores=[]), "<cell>", "exec"), namespace)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)


def exercise(lesson: str, heading: str) -> tuple[str, PlayTable]:
    """The markdown of the lesson's exercise `## heading`, and the PlayTable that the first code
    cell after it shows, built by running the lesson's set-up cell and that cell."""
    cells = json.loads((LESSONS / f"{lesson}.ipynb").read_text(encoding="utf-8"))["cells"]
    sources = ["".join(c["source"]) for c in cells]
    at = next(i for i, s in enumerate(sources) if s.startswith(f"## {heading}\n"))
    assert cells[at]["cell_type"] == "markdown"
    code = next(i for i in range(at + 1, len(cells)) if cells[i]["cell_type"] == "code")
    namespace: dict[str, Any] = {}
    setup = next(
        (i for i, c in enumerate(cells) if c["cell_type"] == "code" and "data = " in sources[i]),
        None,
    )
    if setup is not None and setup < code:
        for line in sources[setup].splitlines():  # the imports and `data`, not the demo steppers
            if line.startswith(("from ", "import ", "data = ")):
                exec(line, namespace)
    table = _run(sources[code], namespace)
    assert isinstance(table, PlayTable), f"{lesson}: the cell after '{heading}' shows no PlayTable"
    return " ".join(sources[at].split()), table


def says(markdown: str, *phrases: str) -> None:
    """The exercise's text still says each phrase (bold marks as written, whitespace folded)."""
    for phrase in phrases:
        assert phrase in markdown, f"the lesson no longer says {phrase!r}"


# -- the table side --------------------------------------------------------------------------------
def words(html_value: str) -> str:
    """An HTML value as the words a learner reads, whitespace folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", html_value)).split())


def message(table: PlayTable) -> str:
    return words(table.message.value)


def rules(table: PlayTable) -> list[str]:
    return re.findall(r'class="penang-badge[^"]*"[^>]*>([^<]+)<', table.message.value)


def click(table: PlayTable, cards: str) -> None:
    """Click each card as a learner does (a click toggles one card; duplicates take the next)."""
    for card in read_cards(cards, "click"):
        toggle = next(
            t
            for t in table.toggles
            if is_shown(t) and t.description == card.plain.symbol and not t.value
        )
        toggle.value = True


def choose_meld(table: PlayTable, number: int, shows: str = "") -> None:
    """Choose meld `number` in Meld on table; its menu label shows `shows` (e.g. "Q♦ K♦ A♦"), as
    plain text writes it (a joker as JK)."""
    label = dict((v, k) for k, v in table.target.options)[number]
    assert render.plain(shows) in label, f"meld {number} is {label}, not {shows}"
    table.target.value = number


def press(table: PlayTable, button: Control) -> None:
    assert is_shown(table.buttons[button]) and not table.buttons[button].disabled, button
    table.buttons[button].click()


def refused(table: PlayTable, rule: str, cleared: bool = True) -> None:
    """The last try was refused with `rule` and nothing is selected any more."""
    assert "penang-no" in table.message._dom_classes, message(table)
    assert rules(table)[0] == rule, message(table)
    assert table.selected() == []
    assert (CLEARED in message(table)) == cleared


def selected_line(table: PlayTable) -> list[str]:
    return words(table.selection.value).split()


# -- lesson 3 -------------------------------------------------------------------------------------
def test_lesson_3_make_your_passport() -> None:
    md, table = exercise("03_turns_and_passport", "Make your passport")
    deal = table.deal
    says(md, "You are **North**", "West has already melded 5♥ 6♥ 7♥", "**Selected:**")
    assert deal.names[table.seat] == "North" and str(deal.table[0]) == "5H 6H 7H"
    # Issue 29: the head line said "turn 2" on the learner's first turn (West played turn 1).
    assert words(table.status.value).startswith("Your turn 1 (North), turn 2 of the deal.")

    says(md, "Press **End turn** at once. Refused: you may not pass (rule `turn`)")
    press(table, Control.END_TURN)
    refused(table, "turn", cleared=False)

    says(md, "Click **8♥** in your hand, keep meld 0", "press **Lay off**", "(rule `passport`)")
    says(md, "A refused try clears your selection")
    click(table, "8H")
    assert selected_line(table) == ["Selected:", "8♥"]
    choose_meld(table, 0, "5♥ 6♥ 7♥")
    press(table, Control.LAY_OFF)
    refused(table, "passport")
    assert selected_line(table) == ["Selected:", "none"]

    says(md, "Click **9♠ 9♦ 9♣** and press **Meld**. That is your passport")
    click(table, "9S 9D 9C")
    press(table, Control.MELD)
    assert "passport" in rules(table) and deal.passport[table.seat]

    says(md, "click **8♥**, press **Lay off**. Then **End turn**")
    click(table, "8H")
    press(table, Control.LAY_OFF)
    assert "lay-off" in rules(table) and str(deal.table[0]) == "5H 6H 7H 8H"
    press(table, Control.END_TURN)
    assert deal.turn != table.seat

    says(md, "press **Bot move** to see the others make their own passports")
    bot = deal.turn
    press(table, Control.BOT_MOVE)
    assert deal.passport[bot] and "passport" in rules(table)


def test_lesson_3_a_hand_with_no_meld() -> None:
    md, table = exercise("03_turns_and_passport", "Your turn: a hand with no meld")
    deal = table.deal
    verdict = deal.can_play()
    assert verdict.rule == "dead.passport" and verdict.reason in message(table)

    says(md, "Click **8♥** and press **Lay off**: refused (rule `passport`)")
    click(table, "8H")
    press(table, Control.LAY_OFF)
    refused(table, "passport")
    says(md, "Under the refusal the message still says that Dead is due (rule `dead.passport`)")
    assert rules(table) == ["passport", "dead.passport"]
    assert "Dead is due" in message(table) and verdict.reason in message(table)

    says(md, "Press **Declare Dead**: your whole hand now counts against you")
    press(table, Control.DEAD)
    assert deal.status[table.seat] is Status.DEAD_PASSPORT


# -- lesson 4 -------------------------------------------------------------------------------------
def test_lesson_4_lay_off() -> None:
    md, table = exercise("04_lay_offs", "Your turn: lay off")
    deal = table.deal
    says(md, "You are North", "5♥ 6♥ 7♥ (meld 0)")

    says(md, "Select **8♥**, choose meld 0 in **Meld on table**, and click **Lay off**")
    click(table, "8H")
    choose_meld(table, 0, "5♥ 6♥ 7♥")
    press(table, Control.LAY_OFF)
    assert "lay-off" in rules(table) and str(deal.table[0]) == "5H 6H 7H 8H"

    says(md, "select **2♦**, choose meld 2 (Q♦ K♦ A♦), click **Lay off**")
    says(md, "Nothing has changed on the table; only your selection was cleared")
    before = deal.state_key()
    click(table, "2D")
    choose_meld(table, 2, "Q♦ K♦ A♦")
    press(table, Control.LAY_OFF)
    err = deal.explain_illegal(LayOff(2, read_cards("2D", "card")[0]))
    assert err is not None
    refused(table, err.rule)
    assert err.reason in message(table) and deal.state_key() == before

    says(md, "Select the joker **🃏**, choose meld 0 and click **Lay off**")
    says(md, "It could stand for 4♥ or 9♥", "**Joker stands for** menu", "**Use this reading**")
    click(table, "JK")
    choose_meld(table, 0)
    press(table, Control.LAY_OFF)
    assert is_shown(table.chooser)
    labels = [label for label, _ in table.readings.options]
    assert [label.split()[0] for label in labels] == ["JK=4♥", "JK=9♥"]  # plain text: JK
    says(md, "which appears above the message")
    assert "above this message" in message(table)
    table.readings.value = 1
    press(table, Control.USE_READING)
    assert str(deal.table[0]) == "5H 6H 7H 8H JK@9H"

    says(md, "Where can **9♥** go now?", "click **End turn** when you like")
    nine = read_cards("9H", "card")[0]
    assert any(deal.is_legal(LayOff(i, nine)) for i in range(len(deal.table)))
    press(table, Control.END_TURN)
    says(md, "then **Bots to my turn**")
    press(table, Control.BOTS_TO_ME)
    assert deal.turn == table.seat or deal.is_over


# -- lesson 5 -------------------------------------------------------------------------------------
def test_lesson_5_swap_then_use_the_joker() -> None:
    md, table = exercise("05_swaps", "Your turn: swap, then use the joker")
    deal = table.deal
    says(md, "You hold 7♥ 9♠ 9♣ K♣", "East's meld 1 is 5♥ 6♥ 🃏=7♥")
    assert sorted(c.symbol for c in deal.hand(table.seat)) == sorted(["7♥", "9♠", "9♣", "K♣"])

    says(md, "Select **7♥**, choose meld 1 (East's run) in **Meld on table**, and click **Swap**")
    click(table, "7H")
    choose_meld(table, 1, "East's run 5♥ 6♥ 🃏=7♥")
    press(table, Control.SWAP)
    assert "swap" in rules(table)
    assert any(c.is_joker for c in deal.hand(table.seat))

    says(md, "Click **End turn**: refused, since a swap alone is not an action")
    press(table, Control.END_TURN)
    err = deal.explain_illegal(EndTurn())
    assert err is not None
    refused(table, err.rule, cleared=False)

    says(md, "Select **9♠ 9♣ 🃏** and click **Meld**: a set of nines")
    click(table, "9S 9C JK")
    press(table, Control.MELD)
    assert "set" in rules(table) and deal.table[-1].kind == "set"

    says(md, "Now click **End turn**")
    press(table, Control.END_TURN)
    assert deal.turn != table.seat


def test_lesson_5_no_swap_before_the_passport() -> None:
    md, table = exercise("05_swaps", "No swap before the passport")
    deal = table.deal
    says(md, "Select **7♥**, choose meld 0 (East's 5♥ 6♥ 🃏=7♥) and click **Swap**: refused")
    says(md, "The refusal clears your selection")
    click(table, "7H")
    choose_meld(table, 0, "East's run 5♥ 6♥ 🃏=7♥")
    press(table, Control.SWAP)
    refused(table, "passport")

    says(md, "Select **8♠ 8♦ 8♣** and click **Meld**: that is your passport")
    click(table, "8S 8D 8C")
    press(table, Control.MELD)
    assert deal.passport[table.seat] and "passport" in rules(table)

    says(md, "Try the same swap again (select **7♥**, meld 0, **Swap**): now it is allowed")
    click(table, "7H")
    choose_meld(table, 0)
    press(table, Control.SWAP)
    assert "swap" in rules(table)

    says(md, "select **🃏**, choose meld 3, click **Lay off**", "click **End turn**")
    click(table, "JK")
    choose_meld(table, 3, "North's set 8♠ 8♦ 8♣")
    press(table, Control.LAY_OFF)
    assert "lay-off" in rules(table) and len(deal.table[3].cards) == 4
    press(table, Control.END_TURN)
    assert deal.turn != table.seat


def test_lesson_5_a_swap_that_would_leave_you_stuck() -> None:
    md, table = exercise("05_swaps", "A swap that would leave you stuck")
    deal = table.deal
    says(md, "You are North with 7♥ and 2♣", "Select **7♥**, choose meld 1 and click **Swap**")
    click(table, "7H")
    choose_meld(table, 1)
    press(table, Control.SWAP)
    err = deal.explain_illegal(SwapMove(1, read_cards("7H", "card")[0]))
    assert err is not None
    refused(table, err.rule)
    says(md, "under the refusal the table still says that Dead is due")
    verdict = deal.can_play()
    assert rules(table) == [err.rule, verdict.rule]
    assert "Dead is due" in message(table) and verdict.reason in message(table)
    assert list(deal.legal_moves) == [DeclareDead()]
    assert is_shown(table.buttons[Control.DEAD])


def test_lesson_5_a_joker_from_your_own_meld() -> None:
    md, table = exercise("05_swaps", "A joker from your own meld")
    deal = table.deal
    me = table.seat
    says(md, "you are North, and meld 0, 5♥ 6♥ 7♥, is yours")
    assert deal.names[me] == "North" and deal.owners[0] == me and str(deal.table[0]) == "5H 6H 7H"

    says(md, "Select **🃏**, keep meld 0 and click **Lay off**; choose **JK=8♥** in the")
    says(md, "**Joker stands for** menu", "click **Use this reading**")
    click(table, "JK")
    choose_meld(table, 0)
    press(table, Control.LAY_OFF)
    labels = [label for label, _ in table.readings.options]
    wanted = "JK=8♥"  # as the lesson writes it: a menu holds plain text
    table.readings.value = next(i for i, label in enumerate(labels) if label.startswith(wanted))
    press(table, Control.USE_READING)
    assert str(deal.table[0]) == "5H 6H 7H JK@8H"

    says(md, "Select **8♥**, keep meld 0 and click **Swap**: allowed")
    says(md, "the joker is back in your hand")
    click(table, "8H")
    press(table, Control.SWAP)
    swap = next(e for e in deal.event_stack[-1] if e.rule == "swap")
    assert explain(swap, deal.names) in message(table)
    # The lay-off was this turn's action already: nothing may say the turn still needs one.
    assert deal.actions == 1 and "needs a meld or lay-off" not in message(table)
    assert str(deal.table[0]) == "5H 6H 7H 8H" and deal.owners[0] == me
    assert any(c.is_joker for c in deal.hand(me))

    says(md, "you may click **End turn**")
    press(table, Control.END_TURN)
    assert deal.turn != me


# -- lesson 6 -------------------------------------------------------------------------------------
def test_lesson_6_dead_is_due() -> None:
    md, table = exercise("06_dead_game_scoring", "Your turn: Dead is due")
    deal = table.deal
    says(md, "2♣ 7♦ K♠", "Click **Declare Dead**", "Click **Bots to my turn**")
    assert sorted(c.symbol for c in deal.hand(table.seat)) == sorted(["2♣", "7♦", "K♠"])
    assert deal.can_play().reason in message(table)
    press(table, Control.DEAD)
    assert deal.status[table.seat] is Status.DEAD
    press(table, Control.BOTS_TO_ME)
    assert deal.is_over and is_shown(table.scores)


def test_lesson_6_going_out() -> None:
    md, table = exercise("06_dead_game_scoring", "Going out: Game")
    deal = table.deal
    says(md, "Select **J♣ Q♣ K♣** and click **Meld**")
    click(table, "JC QC KC")
    press(table, Control.MELD)
    says(md, "Select **8♥**, choose meld 0 (5♥ 6♥ 7♥) and click **Lay off**")
    click(table, "8H")
    choose_meld(table, 0, "5♥ 6♥ 7♥")
    press(table, Control.LAY_OFF)
    assert deal.hand(table.seat) == [] and is_shown(table.buttons[Control.GAME])
    says(md, "Click **Call Game** and read the counts")
    press(table, Control.GAME)
    assert deal.is_over and deal.winners == [table.seat] and is_shown(table.scores)


# -- lesson 8 -------------------------------------------------------------------------------------
def follow_the_hints(table: PlayTable) -> None:
    """Play the learner's seat to the end of the deal as lesson 8 says: at each of their turns
    press Hint, then the button it names; Bots to my turn after each End turn."""
    deal = table.deal
    while not deal.is_over:
        if deal.turn != table.seat:
            press(table, Control.BOTS_TO_ME)
            continue
        expected = hint_bot(deal, table.seat).choose(PlayerView.of(deal)).move
        press(table, Control.HINT)
        button = Control(expected.type)
        assert f"press {label(button)}." in message(table)  # the hint names its button ...
        moves = len(deal.move_stack)
        press(table, button)  # ... and that button plays the hinted move
        assert len(deal.move_stack) == moves + 1 and deal.move_stack[-1] == expected


def test_lesson_8_play_as_the_text_says_and_win() -> None:
    """Issue 29, item 1: lesson 8's instructions, followed literally from its first click to
    the end of the deal, keep their promise: the learner wins this deal."""
    md, table = exercise("08_play", "Play")
    deal = table.deal
    says(md, "select 8♠ 9♠ 10♥ and press **Meld**", "The refusal clears your selection")
    click(table, "8S 9S 10H")
    press(table, Control.MELD)
    err = deal.explain_illegal(MeldMove(tuple(read_cards("8S 9S 10H", "meld"))))
    assert err is not None
    refused(table, err.rule)
    assert err.reason in message(table)

    says(md, "press **Hint**, which selects A♥ 2♥ 3♥ for you, and press **Meld**")
    press(table, Control.HINT)
    assert sorted(c.symbol for c in table.selected()) == sorted(["A♥", "2♥", "3♥"])
    assert "press Meld." in message(table)
    press(table, Control.MELD)
    assert deal.passport[table.seat]
    assert sorted(c.symbol for c in deal.table[-1].cards) == sorted(["A♥", "2♥", "3♥"])

    says(md, "Press **End turn**, and then **Bots to my turn**")
    press(table, Control.END_TURN)
    press(table, Control.BOTS_TO_ME)
    assert deal.turn == table.seat and not deal.is_over

    says(md, "at each of your turns press **Hint** and then the button it names")
    says(md, "**Bots to my turn** after each **End turn**")
    says(md, "follow the hints all the way like this and you will win this deal")
    follow_the_hints(table)
    assert deal.is_over and table.seat in deal.winners
    # The expert's hints win it dead, with the lowest count (the careful bot's went out).
    assert deal.status[table.seat] is Status.DEAD
    assert deal.scores[table.seat] == min(deal.scores)


def test_lesson_8_promises_no_win_after_another_passport() -> None:
    """The lesson promises a win only after Hint's passport, and says so: with 3♥ 3♦ 3♣ (the
    passport it used to name), following the hints afterwards loses this deal."""
    md, table = exercise("08_play", "Play")
    deal = table.deal
    says(md, "Another passport, such as 3♥ 3♦ 3♣, is legal too")
    says(md, "the hints cannot promise a win after it")
    click(table, "3H 3D 3C")
    press(table, Control.MELD)
    assert deal.passport[table.seat]
    press(table, Control.END_TURN)
    follow_the_hints(table)
    assert deal.is_over and table.seat not in deal.winners
