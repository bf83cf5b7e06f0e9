"""The lessons' written checker and picker exercises, followed as a script (issue 19).

Each test reads a lesson's text from its notebook, checks that the text still names the cards
the script uses, builds the widget exactly as the notebook's code cell does (the cell is run),
then types or clicks what the text says and expects what the text promises. The promise is
checked against the engine (ok, rule id, kind, readings) and against what the widget shows, so a
text change that breaks a step, or an engine or widget change that breaks a promise, fails here.
"""

from __future__ import annotations

import ast
import itertools
import json
from pathlib import Path
from typing import Any

from penang_lib import Deal, Verdict, check_lay_off, check_meld, check_swap, parse_cards
from penang_lib.engine.cards import sort_cards
from penang_lib.site.serve import LESSONS
from penang_lib.widgets import render
from penang_lib.widgets.checker import MeldChecker, meld_cards


# -- reading a lesson ------------------------------------------------------------------------------
def cells(stem: str) -> list[dict[str, Any]]:
    notebook = json.loads((LESSONS / f"{stem}.ipynb").read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = notebook["cells"]
    return found


def source(cell: dict[str, Any]) -> str:
    return "".join(cell["source"])


def step(stem: str, phrase: str) -> tuple[str, str]:
    """The one markdown cell of lesson `stem` that holds `phrase`, and the code cell after it."""
    all_cells = cells(stem)
    hits = [
        i for i, c in enumerate(all_cells) if c["cell_type"] == "markdown" and phrase in source(c)
    ]
    assert len(hits) == 1, f"{stem}: {len(hits)} markdown cells say {phrase!r}"
    after = [c for c in all_cells[hits[0] + 1 :] if c["cell_type"] == "code"]
    assert after, f"{stem}: no code cell after {phrase!r}"
    return source(all_cells[hits[0]]), source(after[0])


def says(text: str, *phrases: str) -> None:
    """The lesson text still says each phrase (the cards and words the script relies on)."""
    for phrase in phrases:
        assert phrase in text, f"the lesson no longer says {phrase!r}:\n{text}"


def run_cell(stem: str, cell: str) -> MeldChecker:
    """The widget a code cell shows (its last expression), run after the lesson's first code
    cell (its imports and data), as the notebook runs them."""
    first = next(source(c) for c in cells(stem) if c["cell_type"] == "code")
    names: dict[str, Any] = {}
    exec(compile(first, f"{stem} cell 1", "exec"), names)
    tree = ast.parse(cell)
    last = tree.body.pop()
    assert isinstance(last, ast.Expr), f"{stem}: the cell does not end with the widget"
    exec(compile(tree, f"{stem} cell", "exec"), names)
    widget = eval(compile(ast.Expression(last.value), f"{stem} cell", "eval"), names)
    assert isinstance(widget, MeldChecker), f"{stem}: the cell shows {type(widget).__name__}"
    return widget


# -- doing what the text says --------------------------------------------------------------------
def type_in(c: MeldChecker, text: str) -> None:
    c.entry.value = text


def change(c: MeldChecker, old: str, new: str) -> None:
    """Change one typed card (the first `old`) to `new`; "" takes it out."""
    tokens = c.entry.value.split()
    assert old in tokens, f"{old} is not in the box: {c.entry.value!r}"
    at = tokens.index(old)
    tokens[at : at + 1] = [new] if new else []
    c.entry.value = " ".join(tokens)


def add(c: MeldChecker, text: str) -> None:
    c.entry.value = f"{c.entry.value} {text}".strip()


def pick(c: MeldChecker, text: str) -> None:
    """Put back every picked card, then click the cards of `text` in the hand, as a learner."""
    for toggle in c.toggles:
        if toggle.value:
            toggle.value = False
    assert c.entry.value == ""
    for card in parse_cards(text):
        free = [t for t in c.toggles if t.description == card.symbol and not t.value]
        assert free, f"{card.symbol} is not (or no longer) in the hand"
        free[0].value = True
    assert sorted(map(str, parse_cards(c.entry.value))) == sorted(map(str, parse_cards(text)))


# -- expecting what the text promises ------------------------------------------------------------
def meld_says(
    c: MeldChecker, ok: bool, rule: str, kind: str | None = None, readings: int | None = None
) -> Verdict:
    """The engine's verdict on the box is `ok` with rule `rule` (and `kind`, and that many
    readings), and the widget shows that verdict: its sentence, its rule badge, its tone."""
    verdict = check_meld(c.entry.value, c.rules)
    assert (verdict.ok, verdict.rule) == (ok, rule), (c.entry.value, verdict)
    if kind is not None:
        assert verdict.kind == kind, (c.entry.value, verdict)
    if readings is not None:
        assert len(verdict.readings) == readings, (c.entry.value, verdict.readings)
    html = c.feedback.value
    assert render.sentence_html(verdict.rule, verdict.reason, ok=ok) in html
    for reading in verdict.readings:
        assert render.card_row(reading.cards, f"{reading.description}: {reading.symbols}") in html
    assert ("penang-ok" if ok else "penang-no") in c.feedback._dom_classes
    return verdict


def against_says(c: MeldChecker, number: int, meld_text: str) -> None:
    """The checker is set against table meld `number`, which shows the cards the text names."""
    assert c.target is not None and c.target.value == number
    assert " ".join(card.symbol for card in meld_cards(c.table[number])) == meld_text


def lay_off_says(c: MeldChecker, card: str, ok: bool) -> Verdict:
    verdict = check_lay_off(c.table[c.target.value], card, c.rules)
    assert verdict.ok is ok, (card, verdict)
    text = f"May be laid off: {verdict.reason}" if ok else verdict.reason
    assert render.sentence_html(verdict.rule, text, ok=ok) in c.feedback.value
    return verdict


def swap_says(c: MeldChecker, card: str, ok: bool) -> Verdict:
    verdict = check_swap(c.table[c.target.value], card, c.rules)
    assert verdict.ok is ok, (card, verdict)
    text = f"May replace a joker: {verdict.reason}" if ok else verdict.reason
    assert render.sentence_html(verdict.rule, text, ok=ok) in c.feedback.value
    return verdict


# -- lesson 1 ------------------------------------------------------------------------------------
def test_lesson_01_three_eights_of_spades_then_one_changed_to_hearts() -> None:
    text, cell = step("01_deck_and_deal", "Change one `8S` to `8H`")
    says(text, "three 8♠", "names the rule, `deck`", "two 8♠")
    c = run_cell("01_deck_and_deal", cell)
    assert c.entry.value.split() == ["8S", "8S", "8S"]
    meld_says(c, ok=False, rule="deck")
    change(c, "8S", "8H")
    meld_says(c, ok=True, rule="set", kind="set")


# -- lesson 2 ------------------------------------------------------------------------------------
def test_lesson_02_two_cards_then_a_third() -> None:
    text, cell = step("02_melds", "Two cards are never a meld")
    says(text, "holds 5♥ 6♥", "add `7H`")
    c = run_cell("02_melds", cell)
    assert c.entry.value == "5H 6H"
    meld_says(c, ok=False, rule="meld")
    add(c, "7H")
    meld_says(c, ok=True, rule="run", kind="run")


def test_lesson_02_runs_a_diamond_then_a_gap() -> None:
    text, cell = step("02_melds", "## Runs")
    says(text, "4♠ 5♠ 6♠ 7♠", "change `6S` to `6D`", "neither a run nor a set", "4♠ 5♠ 7♠")
    says(text, "has a gap")
    c = run_cell("02_melds", cell)
    meld_says(c, ok=True, rule="run", kind="run")
    change(c, "6S", "6D")
    assert "neither a run" in meld_says(c, ok=False, rule="meld").reason
    change(c, "6D", "")  # take the 6 out altogether
    assert "gap" in meld_says(c, ok=False, rule="run").reason


def test_lesson_02_the_ace_low_or_high_never_round_the_corner() -> None:
    text, cell = step("02_melds", "## The ace: low or high")
    says(text, "holds Q♥ K♥ A♥", "Change it to `AH 2H 3H`: also a run")
    c = run_cell("02_melds", cell)
    assert meld_says(c, ok=True, rule="run", kind="run", readings=1).readings[0].high == 14
    type_in(c, "AH 2H 3H")
    assert meld_says(c, ok=True, rule="run", kind="run", readings=1).readings[0].low == 1

    text, cell = step("02_melds", "## Never round the corner")
    says(text, "K-A-2 is not a run", "turning the corner")
    c = run_cell("02_melds", cell)
    assert c.entry.value == "KH AH 2H"
    assert "turns the corner" in meld_says(c, ok=False, rule="run").reason


def test_lesson_02_the_longest_run() -> None:
    text, cell = step("02_melds", "## The longest run")
    says(text, "14 cards", "deleting the `7H`", "delete the last `AH`", "two ways")
    c = run_cell("02_melds", cell)
    assert len(c.entry.value.split()) == 14
    meld_says(c, ok=True, rule="run", kind="run", readings=1)
    full = c.entry.value
    change(c, "7H", "")
    meld_says(c, ok=False, rule="run")
    type_in(c, full)
    tokens = full.split()
    assert tokens[-1] == "AH"
    type_in(c, " ".join(tokens[:-1]))
    readings = meld_says(c, ok=True, rule="run", kind="run", readings=2).readings
    assert {(r.low, r.high) for r in readings} == {(1, 13), (2, 14)}  # ace low, ace high


def test_lesson_02_sets_grow_and_the_deck_stops_them() -> None:
    text, cell = step("02_melds", "## Sets")
    says(text, "8♥ 8♥ 8♣ is a set", "add `8S 8D`", "a third `8H`", "`7H 7C 8H`")
    says(text, "neither a run nor a set")
    c = run_cell("02_melds", cell)
    assert c.entry.value == "8H 8H 8C"
    meld_says(c, ok=True, rule="set", kind="set")
    add(c, "8S 8D")
    meld_says(c, ok=True, rule="set", kind="set")
    add(c, "8H")
    meld_says(c, ok=False, rule="deck")
    type_in(c, "7H 7C 8H")
    assert "neither a run" in meld_says(c, ok=False, rule="meld").reason


def test_lesson_02_jokers_in_sets_and_runs() -> None:
    text, cell = step("02_melds", "## Jokers in a set")
    says(text, "9♠ 9♣ and a joker make three nines")
    c = run_cell("02_melds", cell)
    verdict = meld_says(c, ok=True, rule="set", kind="set", readings=1)
    assert "🃏=9" in verdict.readings[0].symbols

    text, cell = step("02_melds", "## Jokers in a run")
    says(text, "7♥ _ 9♥", "it is the 8♥")
    c = run_cell("02_melds", cell)
    verdict = meld_says(c, ok=True, rule="run", kind="run", readings=1)
    assert verdict.readings[0].symbols == "7♥ 🃏=8♥ 9♥"

    text, cell = step("02_melds", "**the player chooses**")
    says(text, "4♥ 5♥ 6♥ or 5♥ 6♥ 7♥", "the engine lists both readings")
    says(text, "Change `JK` to `JK@7H` below and only one reading is left")
    c = run_cell("02_melds", cell)
    verdict = meld_says(c, ok=True, rule="run", kind="run", readings=2)
    assert [r.symbols for r in verdict.readings] == ["🃏=4♥ 5♥ 6♥", "5♥ 6♥ 🃏=7♥"]
    assert "Readings (the player chooses one):" in c.feedback.value
    change(c, "JK", "JK@7H")
    verdict = meld_says(c, ok=True, rule="run", kind="run", readings=1)
    assert verdict.readings[0].symbols == "5♥ 6♥ 🃏=7♥"


def test_lesson_02_jokers_alone_and_without_a_cap() -> None:
    text, cell = step("02_melds", "## A meld needs a real card")
    says(text, "three jokers alone are not a meld")
    c = run_cell("02_melds", cell)
    assert c.entry.value == "JK JK JK"
    meld_says(c, ok=False, rule="joker")

    text, cell = step("02_melds", "a meld of jokers only")
    says(text, "**house rule**", "declared as 7♥ 8♥ 9♥")
    c = run_cell("02_melds", cell)
    assert c.rules.all_joker_melds
    verdict = meld_says(c, ok=True, rule="run", kind="run", readings=1)
    assert verdict.readings[0].symbols == "🃏=7♥ 🃏=8♥ 🃏=9♥"

    text, cell = step("02_melds", "## No cap on jokers")
    says(text, "three of them join a set of eights")
    c = run_cell("02_melds", cell)
    assert c.entry.value.split().count("JK") == 3
    meld_says(c, ok=True, rule="set", kind="set")


def test_lesson_02_the_picker_finds_every_meld_the_text_asks_for() -> None:
    text, cell = step("02_melds", "## Your turn: find the melds in a hand")
    says(
        text,
        "a hand of 12 cards, sorted as every hand in the kit: by suit (♠ ♥ ♦ ♣), then rank, "
        "the joker last",
        "1. a run with the ace high;",
        "2. a set in which a suit repeats;",
        "3. a run that needs the joker (you can make one in spades, one in hearts and one in "
        "clubs);",
        "4. a set that uses the joker.",
        "Then try K♠ A♠ 2♠",
    )
    c = run_cell("02_melds", cell)
    hand = c.hand
    assert len(hand) == 12
    # sorted as the play table shows a hand: the engine's display order, not a new one
    deal = Deal(hands=[" ".join(map(str, hand)), "3C 4C 5C 6C"], dealer=1)
    assert [t.description for t in c.toggles] == [card.symbol for card in deal.hand(0)]
    assert c.hand == sort_cards(hand)

    # 1. a run with the ace high
    pick(c, "QS KS AS")
    verdict = meld_says(c, ok=True, rule="run", kind="run", readings=1)
    assert verdict.readings[0].high == 14 and verdict.readings[0].jokers == 0

    # 2. a set in which a suit repeats
    pick(c, "7D 7D 7C")
    verdict = meld_says(c, ok=True, rule="set", kind="set")
    suits = [card.suit for card in verdict.readings[0].cards]
    assert len(set(suits)) < len(suits)

    # 3. runs that need the joker: the engine finds them in the suits the text names
    joker = next(card for card in hand if card.is_joker)
    naturals = [card for card in hand if not card.is_joker]
    needs_joker: dict[str, list[Any]] = {}
    for size in (2, 3, 4):
        for cards in itertools.combinations(naturals, size):
            with_joker = check_meld([*cards, joker])
            if with_joker.ok and with_joker.kind == "run" and not check_meld(list(cards)).ok:
                needs_joker.setdefault(cards[0].suit, list(cards))
    assert set(needs_joker) == {"S", "H", "C"}
    for found in needs_joker.values():
        pick(c, " ".join(map(str, [*found, joker])))
        verdict = meld_says(c, ok=True, rule="run", kind="run")
        assert all(r.jokers == 1 for r in verdict.readings)

    # 4. a set that uses the joker
    pick(c, "7D 7C JK")
    verdict = meld_says(c, ok=True, rule="set", kind="set")
    assert verdict.readings[0].jokers == 1

    # K♠ A♠ 2♠ looks tempting, and is refused: it turns the corner
    pick(c, "KS AS 2S")
    assert "corner" in meld_says(c, ok=False, rule="run").reason


# -- lesson 4 ------------------------------------------------------------------------------------
def test_lesson_04_a_run_grows_at_either_end() -> None:
    text, cell = step("04_lay_offs", "## A run grows at either end")
    says(text, "against meld 0, 5♥ 6♥ 7♥", "8♥ and 4♥ fit, 9♥ does not")
    c = run_cell("04_lay_offs", cell)
    against_says(c, 0, "5♥ 6♥ 7♥")
    assert c.entry.value.split() == ["8H", "4H", "9H"]
    top = lay_off_says(c, "8H", ok=True)
    bottom = lay_off_says(c, "4H", ok=True)
    assert "at the top" in top.reason and "at the bottom" in bottom.reason
    lay_off_says(c, "9H", ok=False)


def test_lesson_04_never_past_an_ace() -> None:
    text, cell = step("04_lay_offs", "## Never past an ace")
    says(text, "Q♦ K♦ A♦ can only grow downwards, to J♦", "a 2♦ after the ace would turn the")
    says(text, "against meld 2")
    c = run_cell("04_lay_offs", cell)
    against_says(c, 2, "Q♦ K♦ A♦")
    assert c.entry.value.split() == ["JD", "2D"]
    lay_off_says(c, "JD", ok=True)
    assert "corner" in lay_off_says(c, "2D", ok=False).reason


def test_lesson_04_a_set_takes_any_card_of_its_rank() -> None:
    text, cell = step("04_lay_offs", "## A set takes any card of its rank")
    says(text, "9♠ 9♦ 9♣ takes any nine: 9♥, or a second 9♠", "another rank never fits")
    c = run_cell("04_lay_offs", cell)
    against_says(c, 1, "9♠ 9♦ 9♣")
    assert c.entry.value.split() == ["9H", "9S", "8S"]
    lay_off_says(c, "9H", ok=True)
    lay_off_says(c, "9S", ok=True)
    lay_off_says(c, "8S", ok=False)


def test_lesson_04_a_joker_laid_off_at_either_end() -> None:
    text, cell = step("04_lay_offs", "## A joker can be laid off too")
    says(text, "could often go at either end", "the player says which card it is")
    says(text, "`JK@8H` at the top, `JK@4H` at the bottom")
    c = run_cell("04_lay_offs", cell)
    against_says(c, 0, "5♥ 6♥ 7♥")
    assert "at the top" in lay_off_says(c, "JK@8H", ok=True).reason
    assert "at the bottom" in lay_off_says(c, "JK@4H", ok=True).reason
    # a plain joker: both ends are offered and the player chooses (issue 19, item 13)
    type_in(c, "JK")
    joker = parse_cards("JK")[0]
    placings = c.joker_lay_offs(0, joker)
    assert placings == [check_lay_off(c.table[0], "JK@4H"), check_lay_off(c.table[0], "JK@8H")]
    assert "the player chooses one" in c.feedback.value
    for verdict in placings:
        assert render.sentence_html(verdict.rule, verdict.reason, ok=True) in c.feedback.value


# -- lesson 5 ------------------------------------------------------------------------------------
def test_lesson_05_in_a_run_exactly_that_card() -> None:
    text, cell = step("05_swaps", "## In a run: exactly that card")
    says(text, "against meld 0, 5♥ 6♥ 🃏=7♥", "7♥ may replace the joker, 7♠ may not")
    says(text, "7♥ cannot be laid off there")
    c = run_cell("05_swaps", cell)
    against_says(c, 0, "5♥ 6♥ 🃏=7♥")
    assert c.entry.value.split() == ["7H", "7S"]
    swap_says(c, "7H", ok=True)
    swap_says(c, "7S", ok=False)
    lay_off_says(c, "7H", ok=False)


def test_lesson_05_in_a_set_any_card_of_its_rank() -> None:
    text, cell = step("05_swaps", "## In a set: any card of its rank")
    says(text, "9♠ 9♦ 🃏", "any nine may take its place, even a second 9♠", "An eight may not")
    c = run_cell("05_swaps", cell)
    against_says(c, 1, "9♠ 9♦ 🃏=9")
    assert c.entry.value.split() == ["9H", "9S", "8S"]
    swap_says(c, "9H", ok=True)
    swap_says(c, "9S", ok=True)
    swap_says(c, "8S", ok=False)


# -- lesson 10 -----------------------------------------------------------------------------------
def test_lesson_10_the_dead_hand_holds_nothing_to_find() -> None:
    text, cell = step("10_strategy_lab", "Pick cards from it and look for a meld")
    says(text, "no three of a kind", "no three in a row of one suit", "no joker", "nothing to find")
    c = run_cell("10_strategy_lab", cell)
    hand = c.hand
    assert len(hand) == 20 and not any(card.is_joker for card in hand)
    # every meld holds three cards that are a meld themselves: no three of them is one
    for cards in itertools.combinations(hand, 3):
        assert not check_meld(list(cards)).ok, cards
    pick(c, " ".join(map(str, hand[:3])))
    meld_says(c, ok=False, rule=check_meld(hand[:3]).rule)
    pick(c, " ".join(map(str, hand)))  # the whole hand is no meld either
    meld_says(c, ok=False, rule=check_meld(hand).rule)
    assert [t.description for t in c.toggles] == [card.symbol for card in sort_cards(hand)]


def test_every_checker_of_the_course_is_followed_here() -> None:
    """A lesson that gains a checker or a picker gains a script here too."""
    scripted = {"01_deck_and_deal", "02_melds", "04_lay_offs", "05_swaps", "10_strategy_lab"}
    with_checker = {
        path.stem
        for path in LESSONS.glob("*.ipynb")
        if any(c["cell_type"] == "code" and "MeldChecker(" in source(c) for c in cells(path.stem))
    }
    assert with_checker == scripted
    here = Path(__file__).read_text(encoding="utf-8")
    for stem in scripted:
        count = sum(c["cell_type"] == "code" and "MeldChecker(" in source(c) for c in cells(stem))
        assert here.count(f'step("{stem}"') >= count, f"{stem}: a checker without a script"
