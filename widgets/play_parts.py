"""The parts `PlayTable` and `PuzzleBoard` are composed of, each a small class that owns one box of
the tree (or, for the board, the few HTML views around it) and knows only how to show what it is
given. `HandPanel`, `ActionBar` and `HintMemory` are composed, with the message line, into
`MoveControls` (`move_controls`), the one move-making part both boards share.

- `HandPanel`: the learner's cards as toggle buttons, and the "Selected:" line.
- `ActionBar`: the "Meld on table" menu, the move buttons and the "Joker stands for" chooser.
- `BotBar`: Bot move, Bots to my turn and New deal.
- `Board`: the status line, the table's melds, the counts, every hand and the move log.
- `HintMemory`: the last hint, so that its button plays the hinted move itself.
- `one_card` and `ActionBar.offer_readings`: what a lay-off or a swap needs from the selection, and
  the joker's readings a refusal offers (`MoveControls` uses them).
- `next_step`: what the learner can do now, naming the buttons to click by their labels (the
  engine says only what is due and why, `explain.due`); `move_control`: the button of a move.
- `meld_name` and `move_words`: a table meld, and a move on one, named by the meld's owner, kind
  and cards ("West's run 5♥ 6♥ 7♥"), not by its number alone; the "Meld on table" menu shows
  this name, then the number the table's Meld column and the lessons give it: "(meld 0)".

None of them decides anything about the rules: the boards ask the engine and hand them the
answers. Code keys every button by its `Control` (`buttons[Control.GAME]`); its label and
tooltip come from `controls.WORDS`, and a sentence names a button through a placeholder filled
with `label(control)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from penang_lib.data import frames
from penang_lib.engine.bots import EXPERT, bot_names
from penang_lib.engine.cards import Card, card_classes, read_cards
from penang_lib.engine.deal import Deal, Status
from penang_lib.engine.explain import Said, due, meld_words
from penang_lib.engine.explain import move_words as said_move
from penang_lib.engine.moves import DeclareDead, DeclareGame, IllegalMove, LayOff, Move, Swap
from penang_lib.i18n import N_, _
from penang_lib.widgets import render
from penang_lib.widgets.controls import Control, label, naming, tooltip
from penang_lib.widgets.position import Position
from penang_lib.widgets.render import esc
from penang_lib.widgets.shared import HIDDEN, is_shown, part, show

ACTION_BUTTONS = (
    Control.MELD,
    Control.LAY_OFF,
    Control.SWAP,
    Control.END_TURN,
    Control.DEAD,
    Control.GAME,
    Control.HINT,
)
"""The buttons of the learner's turn (disabled while a bot is to move)."""
MOVE_BUTTONS = ACTION_BUTTONS[:-1]
"""The buttons that play a move (each is `Control(move.type)`): the learner's turn's without
Hint."""
BOT_BUTTONS = (Control.BOT_MOVE, Control.BOTS_TO_ME)
"""The buttons that advance the bots (disabled on the learner's turn)."""

BUTTON_STYLES = {
    Control.MELD: "primary",
    Control.DEAD: "danger",
    Control.GAME: "success",
    Control.USE_READING: "primary",
}
"""The ipywidgets style of the buttons that have one (the others are plain)."""

WRAP = {
    "flex_flow": "row wrap",  # not for learners: CSS
    "align_items": "center",
    "max_width": "100%",
}
"""The layout of a row of controls that wraps on a narrow screen."""
WIDE = {"max_width": "100%"}


READING_HELP = N_(
    "Choose what the joker stands for in the {readings} menu above this message, then click "
    "{use_reading}."
)
"""How to use the reading chooser (`controls.naming` names its menu and its button)."""


def move_control(move: Move) -> Control:
    """The button that plays `move` (what a hint or an answer tells the learner to press)."""
    return Control(move.type)


def next_step(deal: Deal, seat: int, forced: Move | None = None) -> tuple[Said, ...]:
    """What the learner at `seat` can do now, in a play table's words, naming the table's
    buttons by their labels. When Dead or Game is due (`forced`, else the engine's
    `forced_move`), the engine's reason under its rule id comes with it (`explain.due`): rule
    `dead` or `dead.passport` (refused: no meld or lay-off can be made), or `game`."""
    if deal.is_over:
        return (
            Said(
                _("The deal is over: every hand is shown. Click {button} to play another.").format(
                    button=label(Control.NEW_DEAL)
                )
            ),
        )
    owed = due(deal, seat, forced)
    click = _("Click {button}.")
    if owed is not None and owed[0] == DeclareDead():
        return (
            Said(_("Dead is due:")),
            owed[1],
            Said(click.format(button=label(Control.DEAD))),
        )
    if owed is not None:
        return (owed[1], Said(click.format(button=label(Control.GAME))))
    if deal.turn == seat:
        if deal.actions:
            return (
                Said(
                    _("Your turn: play more, or click {button}.").format(
                        button=label(Control.END_TURN)
                    )
                ),
            )
        return (
            Said(
                _(
                    "Your turn: select cards and click {meld}, or choose a meld on the table and "
                    "{lay_off} or {swap} one card."
                ).format(
                    meld=label(Control.MELD),
                    lay_off=label(Control.LAY_OFF),
                    swap=label(Control.SWAP),
                )
            ),
        )
    if deal.status[seat] is not Status.ALIVE:
        return (
            Said(
                _("You are out of this deal: {button} plays it to the end.").format(
                    button=label(Control.BOTS_TO_ME)
                )
            ),
        )
    return (
        Said(
            _("It is {name}'s turn: click {bot_move} to see the next move, or {bots}.").format(
                name=deal.names[deal.turn],
                bot_move=label(Control.BOT_MOVE),
                bots=label(Control.BOTS_TO_ME),
            )
        ),
    )


def paragraph(text: str) -> str:
    """Plain text as one paragraph of a message, card names drawn with their symbols."""
    return f"<p>{render.symbols(text)}</p>"


def meld_name(deal: Position, index: int) -> str:
    """Table meld `index` of `deal` named by its owner, kind and cards (`explain.meld_words`)."""
    return meld_words(deal.table, deal.owners, deal.names, index)


def move_words(deal: Deal, move: Move) -> str:
    """`move` in words, a table meld named by its owner and cards (`explain.move_words`)."""
    return said_move(move, deal.table, deal.owners, deal.names)


def one_card(cards: Sequence[Card], what: Control) -> Card | str:
    """The one selected card a lay-off or a swap (`what`: `Control.LAY_OFF` or `Control.SWAP`)
    needs, or the sentence that asks for exactly one."""
    if len(cards) == 1:
        return cards[0]
    words = {"count": len(cards), "menu": label(Control.TARGET)}
    if what is Control.SWAP:
        return _(
            "Select exactly one card of your hand to swap (you selected {count}), and choose "
            "the meld in '{menu}'."
        ).format(**words)
    return _(
        "Select exactly one card of your hand to lay off (you selected {count}), and choose "
        "the meld in '{menu}'."
    ).format(**words)


def button(control: Control, style: str | None = None) -> widgets.Button:
    """The button of `control`: its label and tooltip from `controls.WORDS`, its style from
    `BUTTON_STYLES` (or `style`)."""
    return part(
        widgets.Button,
        description=label(control),
        tooltip=tooltip(control),
        button_style=BUTTON_STYLES.get(control, "") if style is None else style,
        layout={"width": "auto"},
    )


def _menu(control: Control) -> widgets.Dropdown:
    return part(
        widgets.Dropdown,
        description=label(control),
        tooltip=tooltip(control),
        options=[],
        style={"description_width": "initial"},
        layout={"width": "auto", "max_width": "100%"},
    )


def _html(css: str) -> widgets.HTML:
    made = part(widgets.HTML, "", layout=WIDE)
    made.add_class(css)
    return made


class HandPanel:
    """The learner's hand: the cards as toggle buttons in a wrapping row (clicking one selects or
    unselects it), under a label, and a "Selected:" line naming the selection, updated once per
    change.

    `box` is the panel; `toggles` the card toggles in display order (those past the hand are
    hidden and hold no card; more are added when a hand needs them); `hand_box` their row;
    `selection` the "Selected:" line.
    """

    def __init__(self, pool: int) -> None:
        self._cards: list[Card] = []
        """The card of each visible toggle, in display order."""
        self._quiet = False
        """True while the panel sets toggles itself (one "Selected:" update at the end)."""
        self.toggles: list[widgets.ToggleButton] = []
        self.hand_box = part(widgets.HBox, [], layout=WRAP)
        self.hand_box.add_class("penang-hand")
        self._fit(pool)
        words = esc(_("Your hand (click cards to select them):"))
        heading = part(widgets.HTML, f'<span class="penang-summary">{words}</span>')
        self.selection = _html("penang-selection")
        self.box = part(widgets.VBox, [heading, self.hand_box, self.selection])
        self.box.add_class("penang-play-hand")

    def show(self, hand: Sequence[Card], enabled: bool) -> None:
        """Show `hand`, nothing selected, its cards clickable or not."""
        self._fit(len(hand))
        self._cards = list(hand)
        self._quiet = True
        try:
            for i, toggle in enumerate(self.toggles):
                with toggle.hold_sync():
                    toggle.value = False
                    toggle.disabled = not enabled
                    card = hand[i] if i < len(hand) else None
                    toggle.description = card.symbol if card is not None else ""
                    toggle.tooltip = card.name if card is not None else ""
                    # The stylesheet colours the card's classes (red, four-colour deck).
                    classes = card_classes(card).split() if card is not None else ["penang-card"]
                    toggle._dom_classes = (*classes, *(() if card is not None else (HIDDEN,)))
        finally:
            self._quiet = False
        self._show_selected()

    def selected(self) -> list[Card]:
        """The cards of the selected toggles, in display order."""
        return [c for c, t in zip(self._cards, self.toggles, strict=False) if t.value]

    def select(self, text: str) -> None:
        """Select exactly the toggles of the given cards (e.g. "5H 6H JK"), as the learner's
        clicks would; a card not in the hand (or not that often) raises ValueError and leaves
        nothing selected."""
        cards = [c.plain for c in read_cards(text, "select")]
        missing = self.mark(cards)
        if missing is not None:
            self.mark([])
            raise ValueError(f"{missing.symbol} is not (or not that often) in your hand")

    def mark(self, cards: Sequence[Card]) -> Card | None:
        """Select the toggles of `cards` (each copy once) and no other; return a card not found."""
        chosen = [False] * len(self._cards)
        missing = None
        for card in cards:
            for i, shown in enumerate(self._cards):
                if shown == card and not chosen[i]:
                    chosen[i] = True
                    break
            else:
                missing = missing or card
        self._quiet = True
        try:
            for i, toggle in enumerate(self.toggles):
                toggle.value = i < len(chosen) and chosen[i]
        finally:
            self._quiet = False
        self._show_selected()
        return missing

    def _fit(self, size: int) -> None:
        """Have at least `size` toggles (a new deal may deal bigger hands than the first)."""
        if size <= len(self.toggles):
            return
        for _i in range(size - len(self.toggles)):
            toggle = part(
                widgets.ToggleButton,
                value=False,
                description="",
                tooltip="",
                layout={"width": "auto", "min_width": "3.2em"},
                style={"font_weight": "bold"},
            )
            toggle._dom_classes = ("penang-card", HIDDEN)
            toggle.observe(self._on_pick, names="value")
            self.toggles.append(toggle)
        self.hand_box.children = tuple(self.toggles)

    def _on_pick(self, _change: Any = None) -> None:
        """A toggle changed: one update of the "Selected:" line (none while the panel sets
        several toggles itself)."""
        if not self._quiet:
            self._show_selected()

    def _show_selected(self) -> None:
        cards = self.selected()
        shown_cards = render.card_row(cards, _("selected cards")) if cards else esc(_("none"))
        head = esc(_("Selected:"))
        value = f'<p><span class="penang-summary">{head}</span> {shown_cards}</p>'
        if self.selection.value != value:
            self.selection.value = value


class ActionBar:
    """The learner's moves: the "Meld on table" menu (`target`) and the move buttons in a row,
    and under them the "Joker stands for" chooser (`chooser`, with the `readings` menu and Use
    this reading), shown only after a refusal that lists the readings of a joker.

    `buttons` has the move buttons and Use this reading, by `Control`.
    """

    def __init__(self) -> None:
        self.buttons = {c: button(c) for c in (*ACTION_BUTTONS, Control.USE_READING)}
        self.target = _menu(Control.TARGET)
        row = [self.target, *(self.buttons[c] for c in ACTION_BUTTONS)]
        actions = part(widgets.HBox, row, layout=WRAP)
        self.readings = _menu(Control.READINGS)
        self.chooser = part(
            widgets.HBox,
            [self.readings, self.buttons[Control.USE_READING]],
            layout={"flex_flow": "row wrap", "align_items": "center"},  # not for learners: CSS
        )
        self.chooser.add_class("penang-readings")
        show(self.chooser, False)
        self.box = part(widgets.VBox, [actions, self.chooser])
        self._choices: list[Move] = []
        """The move behind each option of the reading chooser."""
        self._targets: tuple[tuple[str, int], ...] = ()

    def show(self, deal: Position, mine: bool, forced: Move | None) -> None:
        """Fit the menu to the table's melds and the buttons to the turn: usable on the learner's
        turn (`mine`), Declare Dead and Call Game shown only when `forced` is that move."""
        self._show_targets(deal)
        for control in ACTION_BUTTONS:
            self.buttons[control].disabled = not mine
        self.target.disabled = not mine
        show(self.buttons[Control.DEAD], forced == DeclareDead())
        show(self.buttons[Control.GAME], forced == DeclareGame())
        self.hide_chooser()

    def target_index(self, melds: int) -> int:
        """The chosen table meld; with none, `melds` (a number the engine says does not exist)."""
        value = self.target.value
        return value if isinstance(value, int) else melds

    def choose_target(self, index: int) -> str | None:
        """Choose table meld `index` in the menu and return its label (None if there is none)."""
        if not 0 <= index < len(self._targets):
            return None
        self.target.value = index
        return self._targets[index][0]

    def offer(self, options: Sequence[tuple[str, Move]]) -> None:
        """Show the reading chooser with `options` (label, move), the first one chosen."""
        self._choices = [move for _text, move in options]
        with self.readings.hold_sync():
            self.readings.options = [(text, i) for i, (text, _move) in enumerate(options)]
            self.readings.value = 0
        show(self.chooser, True)

    def offer_readings(self, deal: Position, refusal: IllegalMove) -> str:
        """Offer the readings of a plain joker that the engine's `refusal` lists (a meld's
        cards, or a lay-off's card with the meld it would make) and return what to say: the
        refusal, and how to choose."""
        options: list[tuple[str, Move]] = []
        for move in refusal.options:
            if isinstance(move, LayOff):
                making = deal.table[move.target].lay_off_results(move.card)[0]
                text = _("{card} (making {meld})").format(
                    card=move.card.symbol, meld=making.symbols
                )
            else:
                text = move.label().removeprefix("meld ")
            options.append((render.plain(text), move))
        self.offer(options)
        return render.sentence_html(refusal.rule, refusal.reason, ok=False) + paragraph(
            naming(READING_HELP)
        )

    def chosen(self) -> Move | None:
        """The move of the reading chosen in the chooser (None when none is)."""
        index = self.readings.value
        if not isinstance(index, int) or not 0 <= index < len(self._choices):
            return None
        return self._choices[index]

    def hide_chooser(self) -> None:
        """Hide the reading chooser and forget its readings."""
        if is_shown(self.chooser):
            show(self.chooser, False)
            self._choices = []
            self.readings.options = []

    def _show_targets(self, deal: Position) -> None:
        options = tuple(
            (render.plain(_("{meld} (meld {number})").format(meld=meld_name(deal, i), number=i)), i)
            for i in range(len(deal.table))
        )
        if options == self._targets:
            return
        keep = self.target.value
        with self.target.hold_sync():
            self.target.options = options
            if isinstance(keep, int) and 0 <= keep < len(options):
                self.target.value = keep
            elif options:
                self.target.value = 0  # never a blank menu once there is a meld
        self._targets = options


OPPONENT_WORDS: dict[str, str] = {
    "careful": N_("Careful bots"),
    "greedy": N_("Greedy bots"),
    "random": N_("Random bots"),
    EXPERT: N_("Expert bots"),
}
"""The Opponents menu's choices, by bot name (`make_bot`'s), in the menu's order."""


def opponent_options(bots: str | Sequence[str], seats: int) -> list[tuple[str, str]]:
    """The Opponents menu's choices (label, value) for a table whose `seats` other seats are
    played by `bots`: one per bot name, and first, when the bots are not all one kind, the
    table's own mix ("careful, greedy, random")."""
    names = bot_names(bots, seats)
    options = [(_(words), name) for name, words in OPPONENT_WORDS.items()]
    if len(set(names)) > 1:
        options.insert(0, (", ".join(names), ",".join(names)))
    return options


class BotBar:
    """The bots' buttons (Bot move and Bots to my turn, usable while a bot is to move), New
    deal and Review this deal (shown only once the deal is over), and the Opponents menu
    (`opponents`: which bots play the other seats), in one row (`box`); `buttons` by
    `Control`."""

    def __init__(self) -> None:
        controls = (*BOT_BUTTONS, Control.NEW_DEAL, Control.REVIEW)
        self.buttons = {c: button(c) for c in controls}
        show(self.buttons[Control.REVIEW], False)
        self.opponents = _menu(Control.OPPONENTS)
        self.box = part(widgets.HBox, [*self.buttons.values(), self.opponents], layout=WRAP)

    def choose_opponents(
        self, bots: str | Sequence[str], seats: int, mix: str | Sequence[str] | None = None
    ) -> None:
        """Fill the Opponents menu for a table whose `seats` other seats are played by `bots`,
        offering the table's own `mix` of bots too (default: `bots`)."""
        options = opponent_options(bots if mix is None else mix, seats)
        names = bot_names(bots, seats)
        value = names[0] if len(set(names)) == 1 else ",".join(names)
        menu = self.opponents
        if tuple(menu.options) == tuple(options) and menu.value == value:
            return  # a new deal at the same table: the menu stays as it is
        with menu.hold_sync():
            if tuple(menu.options) != tuple(options):
                menu.options = options
            menu.value = value

    def show(self, bots_to_move: bool, over: bool = False) -> None:
        """Let the bot buttons be clicked only while a bot is to move; show Review this deal
        only when the deal is `over`."""
        for control in BOT_BUTTONS:
            self.buttons[control].disabled = not bots_to_move
        review = self.buttons[Control.REVIEW]
        if is_shown(review) != over:
            show(review, over)


class Board:
    """What everyone at the table may see, as HTML views: the status line (`status`), the
    table's melds (`table_view`), the counts once the deal is over (`scores`), every hand
    (`hands`: the others face down until the end) and the move log (`log`)."""

    def __init__(self) -> None:
        self.status = part(widgets.HTML, "")
        self.status.add_class("penang-status")
        self.table_view = _html("penang-table")
        self.scores = _html("penang-scores")
        show(self.scores, False)
        self.hands = _html("penang-hands")
        self.log = _html("penang-log-box")

    def show(self, deal: Deal, seat: int, change: frames.Changes, head: str, mine: str) -> None:
        """Draw `deal` as the learner at `seat` sees it, `change` marked, with the status line
        `head` (in bold) and `mine`; once the deal is over, every hand and the counts."""
        over = deal.is_over
        shown = None if over else [seat]
        self.hands.value = render.hands_html(frames.hands_frame(deal, show=shown), change)
        self.table_view.value = render.table_html(frames.table_frame(deal), change)
        self.log.value = render.log_html(frames.log_frame(deal))
        self.status.value = f"<p><b>{render.esc(head)}</b> {render.esc(mine)}</p>"
        if over:
            # The counts as a table; the scoring sentence is in the message, said once.
            self.scores.value = render.scores_html(frames.scores_frame(deal))
            show(self.scores, True)
        elif is_shown(self.scores):
            self.scores.value = ""
            show(self.scores, False)


class HintMemory:
    """The last hint: its move, the cards it selected and the deal's state key when it was
    given, so that the button it named, pressed with that selection, plays that very move (a
    joker keeps the reading the hint gave it)."""

    def __init__(self) -> None:
        self._hint: tuple[Move, list[Card], object] | None = None

    def remember(self, move: Move, cards: Sequence[Card], key: object) -> None:
        """Keep the hint of `move`, which selected `cards` when the deal's state key was `key`."""
        self._hint = (move, sorted(cards, key=Card.sort_key), key)

    def forget(self) -> None:
        """Drop the last hint (a new deal, a new seat)."""
        self._hint = None

    def move_for(
        self, control: Control, key: object, selected: Sequence[Card], target: object
    ) -> Move | None:
        """The hinted move, when `control` is the button the hint named and the deal (`key`),
        the selection and the chosen table meld (`target`) are still exactly as the hint left
        them."""
        if self._hint is None:
            return None
        move, cards, was = self._hint
        if move_control(move) is not control or key != was:
            return None
        if sorted(selected, key=Card.sort_key) != cards:
            return None
        if isinstance(move, LayOff | Swap) and target != move.target:
            return None
        return move
