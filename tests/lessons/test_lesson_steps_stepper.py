"""The lessons' written stepper and match exercises, followed as a learner follows them.

Each test builds the widget as the lesson's own code cell does (the cell is run), presses what the
text says and checks what the text promises. The claims are read from the lesson's markdown where
practical, so that a change to the text, the bots or the engine that makes the text untrue fails
here; what the engine computes is asked of the widget, never copied into the test.
"""

from __future__ import annotations

import html
import re

import pytest

from penang_lib.data.frames import match_frame, match_names
from penang_lib.engine.deal import Status
from penang_lib.engine.moves import DeclareDead, DeclareGame, EndTurn, LayOff, MeldMove
from penang_lib.engine.rules import DealerSystem
from penang_lib.widgets.controls import Control
from penang_lib.widgets.links import apply_link
from penang_lib.widgets.match import MatchSheet
from penang_lib.widgets.play import PlayTable
from penang_lib.widgets.shared import is_shown
from penang_lib.widgets.stepper import DealStepper
from tests.helpers.notebooks import cells, one, plain, run_cells, text

NAMES = ("North", "East", "South", "West")
CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


def names_in(sentence: str) -> list[str]:
    return re.findall("|".join(NAMES), sentence)


# -- a stepper, pressed --------------------------------------------------------------------------
def press(stepper: DealStepper, button: Control, times: int = 1) -> None:
    for _ in range(times):
        stepper.buttons[button].click()
    assert stepper.step >= 0  # a button's move arrives before anything reads the step


def mover(stepper: DealStepper, k: int) -> str:
    """Who made step `k` (from the panel's own words: "Step k, played in turn t: Name: ...")."""
    found = one(rf"Step {k}, played in turn \d+: (\w+): ", plain(stepper.explanation.value))
    return found.group(1)


def to_move(stepper: DealStepper) -> str:
    return one(r"(\w+) to move", plain(stepper.status.value)).group(1)


def badges(stepper: DealStepper) -> set[str]:
    """The rule ids the panel shows for its step."""
    return set(re.findall(r'class="penang-badge"[^>]*>([\w.-]+)</span>', stepper.explanation.value))


# -- lesson 3 --------------------------------------------------------------------------------
LESSON_3 = "03_turns_and_passport.ipynb"


def test_lesson_3_next_shows_who_is_to_move_in_turn_order() -> None:
    """Press Next a few times: the line at the top says who is to move, in the order the text
    lists (West, then North, East, South, and West again)."""
    words = text(LESSON_3, "8fe00310")
    promised = names_in(one(r"who is to move: ([^.]+)\.", words).group(1))
    assert len(promised) >= 4
    opens = one(r"The stepper opens after (\w+)'s first move", words).group(1)
    stepper = run_cells(LESSON_3, "72cd19d7")
    assert isinstance(stepper, DealStepper)
    assert mover(stepper, stepper.step) == opens
    seen = [to_move(stepper)]
    for _ in range(40):
        press(stepper, Control.NEXT)
        if to_move(stepper) != seen[-1]:
            seen.append(to_move(stepper))
        if len(seen) == len(promised):
            break
    assert seen == promised


def test_lesson_3_north_melds_and_ends_the_turn() -> None:
    """Steps 3 and 4: North melds, then ends the turn (one action: issue 29, the careful bot no
    longer sheds a second card with a full hand); and step 1 is West's passport, its panel
    naming the rule."""
    words = text(LESSON_3, "5967686e")
    found = one(r"steps (\d+) and (\d+): (\w+) makes a meld, then ends the turn", words)
    steps = [int(found.group(i)) for i in (1, 2)]
    who = found.group(3)
    assert "One action is enough, and the careful bots stop there" in words
    stepper = run_cells(LESSON_3, "72cd19d7")
    press(stepper, Control.NEXT, steps[0] - stepper.step)
    for k, kind in zip(steps, (MeldMove, EndTurn), strict=True):
        assert stepper.step == k and mover(stepper, k) == who
        move = stepper.deal.move_stack[-1]
        assert isinstance(move, kind), (k, move)
        press(stepper, Control.NEXT)
    passport = one(r"step (\d+) is (\w+)'s passport", text(LESSON_3, "fba2ce0e"))
    stepper.step = int(passport.group(1))
    assert mover(stepper, stepper.step) == passport.group(2)
    assert "passport" in badges(stepper)


def test_lesson_3_a_dead_passport_is_skipped_at_the_step_the_text_names() -> None:
    """The stepper opens at East's dead passport; Next up to step 11: North ends the turn and
    the engine says South plays next, because East is dead and is skipped."""
    words = text(LESSON_3, "7f40d188")
    dead = one(r"The stepper opens at (\w+)'s turn", words).group(1)
    rule = one(r"read the panel \(rule `([\w.]+)`\)", words).group(1)
    found = one(
        r"up to step (\d+): (\w+) ends the turn and the engine says (\w+) plays next", words
    )
    target, ender, nxt = int(found.group(1)), found.group(2), found.group(3)
    stepper = run_cells(LESSON_3, "72cd19d7", "ec31d0ed")
    assert mover(stepper, stepper.step) == dead and rule in badges(stepper)
    press(stepper, Control.NEXT, target - stepper.step)
    assert stepper.step == target and mover(stepper, target) == ender
    assert isinstance(stepper.deal.move_stack[-1], EndTurn)
    assert f"{nxt} plays next, going clockwise: {dead} is dead and is skipped." in plain(
        stepper.explanation.value
    )


# -- lesson 6 --------------------------------------------------------------------------------
LESSON_6 = "06_dead_game_scoring.ipynb"


def test_lesson_6_the_dead_exercise_ends_as_its_hidden_answer_says() -> None:
    """Declare Dead, Bots to my turn, read the counts: "North died first and still won:
    2 + 7 + 10 = 19 was the lowest count." The answer is folded away below the exercise."""
    order = list(cells(LESSON_6))
    answer = text(LESSON_6, "e430b76c")
    assert order.index("e430b76c") > order.index("4b911b80")  # after the table, not above it
    assert answer.startswith("<details>") and "<summary>" in answer
    assert answer.rstrip().endswith("</details>")
    found = one(r"(\w+) died first and still won: ([\d + ]+) = (\d+) was the lowest count", answer)
    who, total = found.group(1), int(found.group(3))
    assert sum(int(n) for n in found.group(2).split("+")) == total
    table = run_cells(LESSON_6, "9641684d", "4b911b80")
    assert isinstance(table, PlayTable)
    table.buttons[Control.DEAD].click()
    table.buttons[Control.BOTS_TO_ME].click()
    deal = table.deal
    assert deal.is_over
    deaths = [deal.movers[i] for i, m in enumerate(deal.move_stack) if isinstance(m, DeclareDead)]
    assert deaths[0] == table.seat and deal.names[table.seat] == who  # "died first"
    assert [deal.names[w] for w in deal.winners] == [who]
    assert deal.scores[deal.winners[0]] == total == min(deal.scores)
    assert f"{total}" in plain(table.scores.value)


def test_lesson_6_the_game_deal_ends_as_the_text_says() -> None:
    """South lays off the last card and calls Game at the steps the text names; the counts it
    gives; then step 78 (death is near: the highest card in hand) and step 79 (a second action
    in the same turn, and why)."""
    words = text(LESSON_6, "5ba1b835")
    found = one(r"(\w+) lays off the last card at step (\d+) and calls Game at step (\d+)", words)
    winner, last, game = found.group(1), int(found.group(2)), int(found.group(3))
    pays = one(r"(\w+), still alive, pays (\d+) for the cards in hand, (\w+) jokers", words)
    stepper = run_cells(LESSON_6, "9641684d", "febfed9f")
    assert stepper.step == game == stepper.steps
    deal = stepper.deal
    assert isinstance(deal.move_stack[game - 1], DeclareGame) and mover(stepper, game) == winner
    seat = deal.names.index(winner)
    assert deal.scores[seat] == 0 and f"{winner} counts 0" in words
    west = deal.names.index(pays.group(1))
    assert deal.status[west] is Status.ALIVE and deal.scores[west] == int(pays.group(2))
    jokers = sum(card.is_joker for card in deal.hand(west))
    assert jokers == ["one", "two", "three", "four"].index(pays.group(3)) + 1
    assert is_shown(stepper.scores)
    press(stepper, Control.BACK)
    assert mover(stepper, last) == winner and isinstance(stepper.deal.move_stack[-1], LayOff)
    assert stepper.deal.hand_size(seat) == 0
    highest = one(
        r"step (\d+) to see a bot that feels death coming: (\w+) holds .*?, so it lays off "
        r"(\S+), the highest card in hand",
        words,
    )
    held = one(r"(\w+) holds (\d+) cards, no meld and no joker, and only (\d+) of them fit", words)
    second = one(
        r"At step (\d+) (\w+) lays off (\S+) too, a second action in the same turn, and the "
        r"bot's reason says why",
        words,
    )
    stepper.step = int(highest.group(1))
    reason = plain(stepper.explanation.value)
    turn = one(r"played in turn (\d+):", reason).group(1)
    assert mover(stepper, stepper.step) == highest.group(2) == held.group(1)
    assert (
        f"death is near: my {held.group(2)} cards hold no meld and no joker, and only "
        f"{held.group(3)} of them fit on the table" in reason
    )
    assert f"So I lay off {highest.group(3)}, my highest card" in reason
    stepper.step = int(second.group(1))
    reason = plain(stepper.explanation.value)
    assert mover(stepper, stepper.step) == second.group(2)
    assert one(r"played in turn (\d+):", reason).group(1) == turn  # the same turn
    assert f"So I lay off {second.group(3)} too, a second action this turn" in reason
    assert "the fewer points I hold, the less I count when I am caught" in reason


def test_lesson_6_when_nobody_goes_out_and_under_the_house_rule() -> None:
    """South dead at step 80, West alone; Next: West lays off a joker, then is dead; the tie the
    text names. Under the house rule: it stops at step 80 and South wins alone."""
    words = text(LESSON_6, "2eab5991")
    dead = one(r"(\w+) has just declared Dead at step (\d+), and only (\w+) is alive", words)
    lays = one(r"(\w+) lays off a joker at step (\d+), and declares Dead at step (\d+)", words)
    tie = one(r"(\w+) and (\w+) both count (\d+): a tie shares the win", words)
    stepper = run_cells(LESSON_6, "9641684d", "732e1cce")
    assert stepper.step == int(dead.group(2)) and mover(stepper, stepper.step) == dead.group(1)
    assert isinstance(stepper.deal.move_stack[-1], DeclareDead)
    assert [stepper.deal.names[p] for p in stepper.deal.alive] == [dead.group(3)]
    press(stepper, Control.NEXT)
    assert mover(stepper, int(lays.group(2))) == lays.group(1)
    move = stepper.deal.move_stack[-1]
    assert isinstance(move, LayOff) and move.card.is_joker
    press(stepper, Control.NEXT, int(lays.group(3)) - stepper.step)
    assert isinstance(stepper.deal.move_stack[-1], DeclareDead) and stepper.deal.is_over
    deal = stepper.deal
    winners = sorted(deal.names[w] for w in deal.winners)
    assert winners == sorted([tie.group(1), tie.group(2)])
    assert {deal.scores[w] for w in deal.winners} == {int(tie.group(3))}

    rule = text(LESSON_6, "e23bed0a")
    stop = one(
        r"it stops at step (\d+), (\w+) never gets to lay off the joker and keeps (\d+) "
        r"points, and (\w+) wins alone",
        rule,
    )
    house = run_cells(LESSON_6, "9641684d", "c536a5a3")
    assert house.steps == int(stop.group(1)) and house.step == house.steps
    deal = house.deal
    assert deal.is_over and deal.scores[deal.names.index(stop.group(2))] == int(stop.group(3))
    assert [deal.names[w] for w in deal.winners] == [stop.group(4)]


# -- lesson 7 --------------------------------------------------------------------------------
LESSON_7 = "07_whole_deal.ipynb"
BULLET = re.compile(
    r'<li><a href="07_whole_deal\.ipynb\?([^"]+)">Step (\d+)</a>: (.+?)</li>', re.DOTALL
)


def watch_for() -> list[tuple[int, str, str]]:
    """The "What to watch for" list as the page shows it (the cell after the heading):
    (step, the link's query, what the text says of it, with rule ids in backticks)."""
    shown = run_cells(LESSON_7, "6ead83c3", "watch-links")._repr_html_()
    return [
        (int(k), html.unescape(q), plain(said.replace("<code>", "`").replace("</code>", "`")))
        for q, k, said in BULLET.findall(shown)
    ]


def test_lesson_7_the_deal_has_the_steps_its_data_says() -> None:
    """The list ends where the deal ends: its last moment is the stepper's last step."""
    stepper = run_cells(LESSON_7, "6ead83c3")
    moments = watch_for()
    assert len(moments) >= 10 and moments[-1][0] == stepper.steps


@pytest.mark.parametrize(("step", "query", "said"), watch_for())
def test_lesson_7_each_step_to_watch_for_shows_what_the_text_says(
    step: int, query: str, said: str
) -> None:
    """Open the bullet's link as the page does (the lesson's last cell, `apply_link`): the
    stepper is at that step, its panel shows each rule id the bullet names, and the cards and
    counts the bullet names are in the panel (those after "at step N" in that step's)."""
    stepper = run_cells(LESSON_7, "6ead83c3")
    apply_link(
        stepper,
        query,
        page=LESSON_7,
        seed=int(dict(p.split("=") for p in query.split("&"))["seed"]),
    )
    assert stepper.step == step
    here, *later_parts = re.split(r"at step (\d+)", said)
    claims = [(step, here)] + [
        (int(later_parts[i]), later_parts[i + 1]) for i in range(0, len(later_parts), 2)
    ]
    for k, words in claims:
        stepper.step = k
        panel = plain(stepper.explanation.value)
        if k:
            who = names_in(words)
            assert who and mover(stepper, k) in who, (k, words, panel)
        for rule in re.findall(r"`([\w.-]+)`", words):
            assert rule in badges(stepper), (k, rule)
        holding = re.search(r"holding just (.+?)\.?$", words)
        if holding:  # the cards left in the mover's hand
            seat = stepper.deal.movers[k - 1]
            hand = sorted(c.symbol for c in stepper.deal.hand(seat))
            assert hand == sorted(CARD.findall(holding.group(1))), (k, hand)
            words = words[: holding.start()]
        seen = panel + plain(stepper.table.value)  # the panel, and the melds beside it
        for card in CARD.findall(words):
            assert card in seen, (k, card, seen)
        for number in re.findall(r"(\d+) points", words):
            assert f"{number} points" in panel, (k, number, panel)
        for name, count in re.findall(r"(North|East|South|West) (\d+)\b", words):
            assert f"{name} {count}" in panel, (k, name, count, panel)


def test_lesson_7_pause_keeps_the_step_and_the_two_turn_numbers_are_named() -> None:
    """Play turns into Pause, which keeps the step; the header and the panel name their turns as
    the text says (after step 7: played in turn 4, next: turn 5, South to move)."""
    words = text(LESSON_7, "51ab41ae")
    found = one(
        r'after "Step (\d+)", in which (\w+) declares Dead in turn (\d+), it reads '
        r'"(next: turn \d+, \w+ to move)"',
        words,
    )
    stepper = run_cells(LESSON_7, "6ead83c3")
    stepper.step = int(found.group(1))
    assert mover(stepper, stepper.step) == found.group(2)
    assert isinstance(stepper.deal.move_stack[-1], DeclareDead)
    assert f"played in turn {found.group(3)}:" in plain(stepper.explanation.value)
    assert found.group(4) in plain(stepper.status.value)
    assert "Pause" in text(LESSON_7, "e588e2bf")
    stepper.play.playing = True
    stepper.play.playing = False  # Pause: nothing moves back
    assert stepper.step == int(found.group(1))


# -- lesson 9 --------------------------------------------------------------------------------
LESSON_9 = "09_match.ipynb"


def try_this() -> list[str]:
    return re.findall(r"^\d+\. (.+)$", text(LESSON_9, "0faf5599"), re.MULTILINE)


def sheet() -> MatchSheet:
    made = run_cells(LESSON_9, "f01d3337", "d77d2e2d")
    assert isinstance(made, MatchSheet)
    return made


def test_lesson_9_the_end_of_the_lesson_7_deal_counts_as_the_text_says() -> None:
    """The end of the deal, as the text counts it: "West went out and counts 0; East died at the
    passport with all 20 cards and counts 154"."""
    words = text(LESSON_9, "933b34a4")
    out = one(r"(\w+) went out and counts (\d+)", words)
    dead = one(r"(\w+) died at the passport with all (\d+) cards and counts (\d+)", words)
    stepper = run_cells(LESSON_9, "f01d3337")
    deal = stepper.deal
    assert deal.is_over and deal.scores[deal.names.index(out.group(1))] == int(out.group(2))
    seat = deal.names.index(dead.group(1))
    assert deal.status[seat] is Status.DEAD_PASSPORT and deal.hand_size(seat) == int(dead.group(2))
    assert deal.scores[seat] == int(dead.group(3))


def test_lesson_9_try_this_with_points_recorded() -> None:
    first, second, rest = try_this()[:3]
    match_sheet = sheet()
    match_sheet.buttons[Control.PLAY_NEXT_DEAL].click()
    match = match_sheet.match
    names = match_names(match)
    deal = match.deals[0]
    assert names[deal.dealer] == one(r"(\w+) dealt deal 1", first).group(1)
    counts = re.findall(
        r"(North|East|South|West) (\d+)", one(r"the counts are ([^.]+)\.", first)[1]
    )
    assert [(n, int(c)) for n, c in counts] == list(zip(names, deal.scores, strict=True))
    shared = one(r"(\w+) and (\w+) share the win with (\d+)", first)
    assert sorted(names[w] for w in deal.winners) == sorted(shared.group(1, 2))
    assert min(deal.scores) == int(shared.group(3))
    nxt = one(r"(\w+) deals\.", first).group(1)
    assert f"{nxt} deals next" in plain(match_sheet.status.value)

    match_sheet.buttons[Control.PLAY_NEXT_DEAL].click()
    deal = match.deals[1]
    assert names[deal.dealer] == nxt
    pair = one(r"(\w+) and (\w+) share the win this time", second)
    assert sorted(names[w] for w in deal.winners) == sorted(pair.group(1, 2))
    third = one(r"so (\w+) deals deal 3", second).group(1)
    assert f"{third} deals next" in plain(match_sheet.status.value)

    assert "Play the rest" in rest and "lowest total" in rest
    match_sheet.buttons[Control.PLAY_THE_REST].click()
    assert match.is_over and match.winners
    status = plain(match_sheet.status.value)
    assert f"lowest total ({min(match.totals)})" in status
    assert all(names[w] in status for w in match.winners)


def test_lesson_9_try_this_with_no_points_recorded() -> None:
    fourth, fifth = try_this()[3:5]
    menu = one(r"choose \*\*(.+?)\*\* in the \*\*Next dealer\*\* menu", fourth).group(1)
    match_sheet = sheet()
    match_sheet.buttons[Control.PLAY_NEXT_DEAL].click()
    labels = dict(match_sheet.system.options)
    assert menu in labels
    match_sheet.system.value = labels[menu]
    assert match_sheet.match.rules.dealer_system is DealerSystem.WORST_LOSER
    assert match_sheet.match.deals == []  # "The match starts again"
    match_sheet.buttons[Control.PLAY_NEXT_DEAL].click()
    match = match_sheet.match
    names = match_names(match)
    worst = one(r"(\w+) had the highest count \((\d+)\), so this time (\w+) deals deal 2", fourth)
    first = match.deals[0]
    assert max(first.scores) == int(worst.group(2))
    assert first.scores[names.index(worst.group(1))] == max(first.scores)
    assert f"{worst.group(3)} deals next" in plain(match_sheet.status.value)
    assert "no totals" in fourth and "chart is gone" in fourth
    assert "total" not in plain(match_sheet.sheet.value).replace("no totals", "")
    assert not is_shown(match_sheet.chart)

    assert "Play the rest" in fifth and "nobody wins the match" in fifth
    match_sheet.buttons[Control.PLAY_THE_REST].click()
    assert match.is_over and match.winners == [] and match.totals == []
    frame = match_frame(match)
    for row, won in zip(frame["winners"], match.deal_winners, strict=True):
        assert row == ", ".join(names[w] for w in won)
        assert f"<td>{html.escape(row)}</td>" in match_sheet.sheet.value
    assert "no match winner" in plain(match_sheet.status.value)
