"""`PlayTable`: the learner plays one seat of a deal against bots.

The learner's hand is a row of toggle buttons (click cards to select them); Meld, Lay off, Swap
and End turn send the selection to the engine as a move, and the engine's answer is shown: the
sentences of what happened, or the rule id and the reason a try was refused (the deal is then
unchanged). A Dead that is due is announced with the engine's reason and played with one click;
an empty hand is closed with Call Game. When a plain joker could stand for more than one card the
engine refuses it, and the learner picks one of the readings instead.

The bots play from `PlayerView.of(deal)` (their own hand and the public state), one move per click
of `Bot move`, or all of them up to the learner's next turn with `Bots to my turn`; each bot move
shows its events' sentences and the bot's own one-line reason.

The selection: a "Selected:" line under the hand names the selected cards (the stylesheet raises,
colours and ticks a selected card). A refused try clears the selection and says so; when a Dead
or a Game is due, the refusal keeps saying it. Hint selects the cards (and the table meld) of the
careful bot's move and says which button plays it; that button with exactly that selection plays
the hinted move itself (a joker keeps the reading the hint gave it).

Hidden information: no widget of the tree ever holds a card of another hand while the deal is
being played (the other hands are drawn face down from their sizes, see `render.face_down`); at
the end every hand is shown. The widget tree is built once; a step only changes values (a deal
with bigger hands than any before adds card toggles).

`deal` and `seat` are traitlets of the table (not synced to the browser): `ipywidgets.link` and
`.observe` work on them as on any widget; so is `over`, True while the deal shown is over.

The keyboard: after each action the focus moves to the control the learner needs next (`focused`
names it): after a move that leaves the turn open, End turn; after End turn, Bots to my turn; back
on the learner's turn, the first card of the hand; a Dead or a Game that is due, its button; once
the deal is over, Review this deal. A refusal that clears the selection sends it to the first card,
one that offers a joker's readings to the Joker stands for menu, and a hint to the button it names.

Once the deal is over, Review this deal opens its review below the table
(`penang_lib.widgets.review`: the
deal in a stepper from the learner's seat, each of their turns beside the careful bot's). The
review's widgets are built with the table, hidden, and filled when it opens.

The table is composed of `MoveControls` (`move_controls`: the hand, the move buttons, the joker's
readings and the message, shared with the puzzle board), whose moves it pushes to its deal, and
the boxes of `play_parts` (bots' buttons, board); what it says comes from the engine (`explain`),
and the bots play through `bots.play_until`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
import traitlets

from penang_lib.course.review.codec import read_people
from penang_lib.data import frames
from penang_lib.engine.bots import (
    Bot,
    Choice,
    bots_around,
    forced_move,
    play_move,
    play_until,
)
from penang_lib.engine.cards import Card
from penang_lib.engine.deal import Deal
from penang_lib.engine.events import Event
from penang_lib.engine.expert import ExpertBot
from penang_lib.engine.explain import (
    Said,
    bot_move_line,
    bots_played,
    earlier_bot_moves,
    seat_status,
    turn_status,
)
from penang_lib.engine.moves import EndTurn, IllegalMove, LayOff, Move, Swap
from penang_lib.engine.rules import Rules
from penang_lib.engine.validate import ArgumentTypeError, require_text, require_whole
from penang_lib.engine.validate import shown as shown_value
from penang_lib.engine.view import PlayerView
from penang_lib.i18n import N_, _
from penang_lib.widgets import render
from penang_lib.widgets.base import KitWidget, guarded
from penang_lib.widgets.controls import Control, label
from penang_lib.widgets.move_controls import CLEARED, MoveControls
from penang_lib.widgets.play_parts import (
    ACTION_BUTTONS,
    BOT_BUTTONS,
    BUTTON_STYLES,
    MOVE_BUTTONS,
    WIDE,
    Board,
    BotBar,
    meld_name,
    move_control,
    move_words,
    next_step,
    paragraph,
)
from penang_lib.widgets.render import esc
from penang_lib.widgets.review import DealReview
from penang_lib.widgets.shared import is_shown, part, show

__all__ = [
    "ACTION_BUTTONS",
    "BOT_BUTTONS",
    "BUTTON_STYLES",
    "CLEARED",
    "MOVED",
    "MOVE_BUTTONS",
    "SHOWN_BOT_MOVES",
    "DealTrait",
    "PlayTable",
]

SHOWN_BOT_MOVES = 12
"""How many of the bot moves of one `Bots to my turn` the message lists (the log has them all)."""

MOVED = N_(
    "You can change seats only before the first move of a deal or once it is over, so that no "
    "one sees two hands."
)
"""Why the learner's seat cannot change in the middle of a deal."""


def _said(lines: Sequence[Said]) -> str:
    """The engine's lines as HTML: a rule's reason with its badge, other words as paragraphs."""
    return "".join(
        render.sentence_html(s.rule, s.text, ok=s.ok) if s.rule else paragraph(s.text)
        for s in lines
    )


def _checked(
    deal: Deal | None, seat: int, players: int, seed: int | None, rules: Rules | None
) -> tuple[Deal, int]:
    """The deal to play (a new one when None) and the learner's seat in it, checked."""
    if deal is None:
        deal = Deal(players=players, seed=seed, rules=rules)
    elif not isinstance(deal, Deal):
        raise ArgumentTypeError(
            f"deal should be a Deal (or None for a new one), not {shown_value(deal)}"
        )
    seat = require_whole(seat, "seat")
    if not 0 <= seat < deal.players:
        raise ValueError(f"the learner's seat must be from 0 to {deal.players - 1}")
    return deal, seat


class DealTrait(traitlets.Instance[Deal]):
    """A `Deal` trait whose observers hear of every new deal object, even one in the same
    position as the old (traitlets only notifies a change of value, and two deals in one
    position are equal)."""

    def set(self, obj: traitlets.HasTraits, value: Any) -> None:
        name = self.name
        assert name is not None
        old = obj._trait_values.get(name, self.default_value)
        super().set(obj, value)
        new = obj._trait_values[name]
        if new is not old and old == new:
            obj._notify_trait(name, old, new)


HINT_BUDGET = 0.3
"""Seconds of the expert's thought behind a hint (a learner waits for it)."""


def hint_bot(deal: Deal, seat: int) -> ExpertBot:
    """The bot that Hint asks: the expert, seeded by the deal and the position and stopped by
    its budget of work alone (never by the clock), so that the same position always gets the
    same hint, on any machine."""
    seed = (deal.seed * 1000 + len(deal.move_stack) * 10 + seat) % 2**32
    return ExpertBot(seed=seed, budget=HINT_BUDGET, deadline=False)


class PlayTable(KitWidget):
    """The learner plays seat `seat` against bots.

    With `deal` given, that deal is played (its players, names and seat layout; it may already be
    under way); otherwise `Deal(players=players, seed=seed, rules=rules)`. `bots` (a name or a
    comma-separated text or a list: "careful", "greedy", "random", "expert") are cycled to the
    other seats clockwise from the learner's left; each bot is
    `make_bot(name, deal.seed * 10 + its seat)`.

    Traits (`ipywidgets.link` and `.observe` work on them; they are never synced to the browser):
    `deal`, the `Deal` being played (set it to show another deal, as New deal does), `seat`,
    the learner's seat (it can change before a deal's first move or once it is over), and
    `over`, True exactly while the deal shown is over (observers hear of it once per deal end;
    it is False again on a new deal).

    `review` (a `DealReview`) in `review_box`, below the table, is shown by Review this deal
    (`open_review()`) once the deal is over.

    The parts: `controls` (`MoveControls`: the selection, the move buttons, the joker's readings
    and the message; its moves are pushed to the deal), `bot_bar` (`BotBar`) and `board`
    (`Board`); `hand_panel`, `action_bar` and `message` are the controls' own. Also public:
    `toggles` (the learner's card toggles in display order; hidden ones hold no card), `buttons`
    (`Control` -> Button), `message` (the `penang-message` HTML), `target` (the "Meld on
    table" dropdown), `readings` (the "Joker stands for" chooser), `chooser` (its box), `bots`
    (seat -> bot), `opponents` (the Opponents menu: the kind of bot that plays the other seats,
    the expert among them, from the next bot move on), `bots_names()`, `focused` (the control
    the table last sent the keyboard focus to), `select(text)`, `selected()`, `walk()`.
    """

    deal = DealTrait(Deal)
    seat = traitlets.Int(0)
    over = traitlets.Bool(False)
    """Whether the deal shown is over (set when it ends, False again on a new deal)."""

    def __init__(
        self,
        seat: int = 0,
        players: int = 4,
        bots: str | Sequence[str] = "careful",
        seed: int | None = None,
        deal: Deal | None = None,
        rules: Rules | None = None,
        four_colour: bool = False,
    ) -> None:
        super().__init__(four_colour)
        deal, seat = _checked(deal, seat, players, seed, rules)
        self._live = False
        """False until the table is built: then a new deal or seat is shown as it is set."""
        self._seeded = seed is not None
        self._bot_spec: str | Sequence[str] = bots
        self.bots: dict[int, Bot] = bots_around(deal, seat, bots)
        pool = max(deal.rules.hand_size(deal.players), sum(deal.initial_hands[seat]))
        self.controls = MoveControls(
            pool,
            attempt=self._push,
            position=lambda: self.deal,
            key=lambda: self.deal.state_key(),
            report=self.report,
            next_control=self._next_control,
        )
        self.hand_panel = self.controls.hand_panel
        self.action_bar = self.controls.action_bar
        self.message = self.controls.message
        self.bot_bar = BotBar()
        self.opponents = self.bot_bar.opponents
        self._choosing = False
        """True while the table fills the Opponents menu itself (its change is no request; the
        menu is listened to only once the table is built, so building it needs no guard)."""
        self._mix: str | Sequence[str] = bots
        """The bots the table was given (offered in the Opponents menu when they are mixed)."""
        self.bot_bar.choose_opponents(bots, deal.players - 1)
        self.board = Board()
        self.buttons = {**self.action_bar.buttons, **self.bot_bar.buttons}
        hand, bar, board = self.hand_panel, self.action_bar, self.board
        self.toggles, self.hand_box, self.selection = hand.toggles, hand.hand_box, hand.selection
        self.target, self.readings, self.chooser = bar.target, bar.readings, bar.chooser
        self.status, self.table_view, self.scores = board.status, board.table_view, board.scores
        self.hands, self.log = board.hands, board.log
        # The review's widgets, built once on the deal as dealt (only the learner's own hand is
        # shown in them) and filled with the deal itself when Review this deal is pressed.
        self.review = DealReview(deal.root(), seat, bots, four_colour=four_colour)
        self.review_box = part(widgets.VBox, [self.review.root], layout=WIDE)
        self.review_box.add_class("penang-play-review")
        show(self.review_box, False)
        self._reviewed: tuple[Deal, int] | None = None
        self._people: tuple[int, ...] = ()
        """Other seats a person played, in a deal shown by `show_finished`."""
        """The deal and seat the review shows (None: not the deal on the table)."""
        self._listen()
        mine = [self.hand_panel.box, self.action_bar.box, self.message, self.bot_bar.box]
        mine_box = part(widgets.VBox, mine)
        mine_box.add_class("penang-play-mine")
        # The table right above the learner's hand, actions and message (on a phone the hand
        # comes before the long list of hands); the hands, then the log, below.
        self._finish(
            [
                self.status,
                self.table_view,
                mine_box,
                self.scores,
                self.hands,
                self.log,
                self.review_box,
            ],
            "penang-play",
        )
        self.deal = deal
        self.seat = seat
        self._live = True
        self._show_start()

    # -- public helpers ------------------------------------------------------------------------
    def select(self, text: str) -> None:
        """Select exactly the toggles of the given cards (e.g. "5H 6H JK"); a card the learner
        does not hold raises ValueError."""
        self.controls.select(text)

    def selected(self) -> list[Card]:
        """The cards of the selected toggles, in display order."""
        return self.controls.selected()

    @property
    def focused(self) -> widgets.DOMWidget | None:
        """The control the table last sent the keyboard focus to (None: not yet)."""
        return self.controls.focused

    # -- the traits ------------------------------------------------------------------------------
    @traitlets.validate("seat")
    def _valid_seat(self, proposal: Any) -> int:
        seat = proposal["value"]
        deal = self.deal
        if isinstance(seat, bool):
            raise traitlets.TraitError(
                _("seat should be a whole number, not {value}").format(value=shown_value(seat))
            )
        if not 0 <= seat < deal.players:
            raise traitlets.TraitError(
                _("the learner's seat must be from 0 to {last}").format(last=deal.players - 1)
            )
        if self._live and seat != self.seat and deal.move_stack and not deal.is_over:
            raise traitlets.TraitError(_(MOVED))
        return int(seat)

    @traitlets.validate("deal")
    def _valid_deal(self, proposal: Any) -> Deal:
        deal: Deal = proposal["value"]
        if self._live and not self.seat < deal.players:
            raise traitlets.TraitError(
                _(
                    "this deal has {players} seats, so the learner's seat {seat} is not in it: "
                    "choose a seat in it first"
                ).format(players=deal.players, seat=self.seat)
            )
        return deal

    @traitlets.observe("deal", "seat")
    def _on_trait(self, change: Any) -> None:
        if not self._live:
            return
        self.controls.hint.forget()
        self._seat_bots(self._bot_spec)
        self._close_review()
        self._show_start(paragraph(_("A new deal.")) if change["name"] == "deal" else "")

    def _listen(self) -> None:
        # The moves' buttons and Use this reading are the controls' own.
        handlers = {
            Control.HINT: self._on_hint,
            Control.BOT_MOVE: self._on_bot_move,
            Control.BOTS_TO_ME: self._on_bots_to_me,
            Control.NEW_DEAL: self._on_new_deal,
            Control.REVIEW: self._on_review,
        }
        for control, handler in handlers.items():
            self.buttons[control].on_click(handler)
        self.opponents.observe(self._on_opponents, names="value")

    def _show_start(self, lead: str = "") -> None:
        deal = self.deal
        intro = lead + paragraph(_("You play {name}.").format(name=deal.names[self.seat]))
        if deal.move_stack:
            self._render(deal.event_stack[-1], deal.movers[-1], intro)
        else:
            self._render(deal.start_events, None, intro)

    # -- callbacks: the opponents ------------------------------------------------------------------
    @guarded
    def _on_opponents(self, change: Any) -> None:
        if self._choosing or not isinstance(change["new"], str):
            return
        self._seat_bots(change["new"])
        said = _("From the next bot move on, the other seats are played by: {bots}.").format(
            bots=", ".join(self.bots_names())
        )
        self._say(paragraph(said))

    def _seat_bots(self, bots: str | Sequence[str]) -> None:
        """Seat `bots` around the learner (`bots_around`) and show them in the Opponents menu."""
        self.bots = bots_around(self.deal, self.seat, bots)
        self._bot_spec = bots
        self._choosing = True
        try:
            self.bot_bar.choose_opponents(bots, self.deal.players - 1, self._mix)
        finally:
            self._choosing = False

    def bots_names(self) -> list[str]:
        """The names of the bots of the other seats, clockwise from the learner's left."""
        players = self.deal.players
        return [self.bots[(self.seat + k) % players].name for k in range(1, players)]

    # -- callbacks: the hint ----------------------------------------------------------------------
    @guarded
    def _on_hint(self, _button: Any = None) -> None:
        if not self._my_turn():
            self._say(paragraph(_("A hint is for your own turn.")))
            return
        choice = hint_bot(self.deal, self.seat).choose(PlayerView.of(self.deal))
        move = choice.move
        cards, chosen = self.controls.show_move(move, self.deal.state_key())
        control = move_control(move)
        words = {"cards": self.controls.picked(), "button": label(control)}
        if chosen is not None and isinstance(move, LayOff | Swap):
            done = _(
                "The hint selected {cards} and chose {meld} in {menu}: press {button}. (Clicking "
                "a card again unselects it.)"
            ).format(**words, meld=meld_name(self.deal, move.target), menu=label(Control.TARGET))
        elif cards:
            done = _(
                "The hint selected {cards} for you: press {button}. (Clicking a card again "
                "unselects it.)"
            ).format(**words)
        else:
            done = _("Nothing needs selecting: press {button}.").format(**words)
        hint = _("Hint: {move} — {why}").format(move=move_words(self.deal, move), why=choice.why)
        self._say(paragraph(hint) + paragraph(done))
        self._focus(self.buttons[control])

    # -- callbacks: the bots --------------------------------------------------------------------
    @guarded
    def _on_bot_move(self, _button: Any = None) -> None:
        if not self._bots_to_move():
            self._say(paragraph(_("No bot is to move now.")))
            return
        seat = self.deal.turn
        choice = play_move(self.deal, self.bots[seat])
        self._render(
            self.deal.event_stack[-1],
            seat,
            "".join(self._bot_lines([(seat, choice)])),
            "<p><b>{}</b> {}</p>".format(esc(_("Why:")), render.symbols(choice.why)),
        )
        if not self._bots_to_move():  # Bot move is disabled now: the focus moves on
            self._focus(self._next_control())

    @guarded
    def _on_bots_to_me(self, _button: Any = None) -> None:
        if not self._bots_to_move():
            self._say(paragraph(_("No bot is to move now.")))
            return
        played = play_until(self.deal, self.bots, self.seat)
        lines = "".join(self._bot_lines(played[-SHOWN_BOT_MOVES:], with_why=True))
        earlier = len(played) - SHOWN_BOT_MOVES
        if earlier > 0:
            lines = paragraph(earlier_bot_moves(earlier)) + lines
        self._render(
            self.deal.event_stack[-1], played[-1][0], paragraph(bots_played(len(played))) + lines
        )
        self._focus(self._next_control())

    @guarded
    def _on_new_deal(self, _button: Any = None) -> None:
        old = self.deal
        seed = old.seed + 1 if self._seeded else None
        self.deal = Deal(players=old.players, seed=seed, rules=old.rules, names=old.names)
        self._focus(self._next_control())

    # -- the review ----------------------------------------------------------------------------
    @guarded
    def _on_review(self, _button: Any = None) -> None:
        if not self.deal.is_over:
            self._say(paragraph(_("The review opens once the deal is over.")))
            return
        self.open_review()

    def open_review(self, step: int | None = None) -> DealReview:
        """Show the review of the deal below the table (at `step`, else at the learner's first
        turn); the deal must be over, so that no hidden hand is in it."""
        if not self.deal.is_over:
            raise ValueError("the review opens once the deal is over")
        shown_now = self._reviewed
        if (
            shown_now is None
            or shown_now[0] is not self.deal
            or shown_now[1] != self.seat
            or step is not None
        ):
            self.review.show_deal(self.deal, self.seat, self._bot_spec, step, self._people)
            self._reviewed = (self.deal, self.seat)
        show(self.review_box, True)
        return self.review

    def _close_review(self) -> None:
        """Hide the review for a new deal or seat, and fill it with the deal as dealt seen from
        the learner's seat: no widget may hold a card of a hand that is hidden now."""
        show(self.review_box, False)
        self._reviewed = None
        self._people = ()
        self.review.show_deal(self.deal.root(), self.seat, self._bot_spec)

    def show_finished(
        self,
        deal: Deal,
        seat: int,
        bots: str | Sequence[str],
        lead: str = "",
        people: Sequence[int] = (),
    ) -> None:
        """Show a finished `deal` (e.g. from a review link) with the learner at `seat` and the
        other seats played by `bots`, `lead` (a sentence) first in the message. `people` are
        other seats a person played (a table played together): their review shows no bot's
        reason for their moves."""
        if not isinstance(deal, Deal) or not deal.is_over:
            raise ValueError("show_finished shows a deal that is over")
        seat = require_whole(seat, "seat", 0, deal.players - 1)
        others = read_people(people, deal.players, seat)
        self._bot_spec = self._mix = bots
        self._live = False  # the seat and the deal change together: checked as one
        try:
            self.deal = deal
            self.seat = seat
        finally:
            self._live = True
        self.controls.hint.forget()
        self._seat_bots(bots)
        self._close_review()
        self._people = others
        self._show_start(paragraph(require_text(lead, "lead")) if lead else "")

    def tell(self, sentence: str) -> None:
        """Show one sentence above what the message says now (e.g. why a link was not opened)."""
        self._say(paragraph(require_text(sentence, "sentence")) + self.message.value)

    # -- moves and messages ----------------------------------------------------------------------
    def _push(self, move: Move, offers: bool = False) -> None:
        """The controls' strategy: push the learner's move and show its events, or the engine's
        refusal (nothing changes). With `offers`, a refusal that lists readings of a joker
        offers them instead."""
        try:
            events = self.deal.push(move, self.seat)
        except IllegalMove as err:
            if offers and err.options:
                # A plain joker with several readings: the learner picks one.
                self.controls.offer(self.deal, err)
                return
            # The standing state of the hand (Dead or Game due) stays beside the refusal; the
            # selection is cleared and the learner starts again from the hand (or from the
            # button of a Dead or a Game that is due).
            forced = forced_move(self.deal, self.seat)
            standing = _said(next_step(self.deal, self.seat, forced)) if forced else ""
            self.controls.refuse(render.sentence_html(err.rule, err.reason, ok=False), standing)
            return
        self._render(events, self.seat)
        self._focus(self._next_control())

    def _next_control(self, start_over: bool = False) -> widgets.DOMWidget:
        """The control the learner needs next: Review this deal once the deal is over, Bots to
        my turn while a bot is to move, the button of a Dead or a Game that is due, End turn once
        the turn has had an action (the lessons' one action a turn; not when `start_over`), else
        the first card of the hand."""
        deal = self.deal
        if deal.is_over:
            return self.buttons[Control.REVIEW]
        if not self._my_turn():
            return self.buttons[Control.BOTS_TO_ME]
        forced = forced_move(deal, self.seat)
        if forced is not None:
            return self.buttons[move_control(forced)]
        if not start_over and deal.is_legal(EndTurn(), self.seat):
            return self.buttons[Control.END_TURN]
        return self.toggles[0]

    def _focus(self, control: widgets.DOMWidget) -> None:
        """Send the keyboard focus to `control` (the browser focuses it; `focused` names it)."""
        self.controls.focus(control)

    def _say(self, html: str, tone: str = "") -> None:
        self.controls.say(html, tone)

    def _bot_lines(self, played: Sequence[tuple[int, Choice]], with_why: bool = False) -> list[str]:
        """The lines (paragraphs) of the bots' moves `played`, the deal's last moves: each names
        a table meld as the learner saw it in the "Meld on table" menu before the move
        (`move_words`: "lay off 5♣ on South's run 2♣ 3♣ 4♣"), not by its number. The deal steps
        back over the moves and plays them again (the engine restores each position exactly)."""
        deal = self.deal
        moves = [deal.pop() for _i in played][::-1]
        lines = []
        for (seat, choice), move in zip(played, moves, strict=True):
            assert move == choice.move, "the bots' moves are the deal's last moves"
            words = move_words(deal, move)
            deal.push(move, seat)
            why = choice.why if with_why else ""
            bot = self.bots[seat].name
            lines.append(paragraph(bot_move_line(deal.names, seat, bot, move, why, words)))
        return lines

    # -- state questions (answered by the engine) --------------------------------------------------
    def _my_turn(self) -> bool:
        return not self.deal.is_over and self.deal.turn == self.seat

    def _bots_to_move(self) -> bool:
        return not self.deal.is_over and self.deal.turn in self.bots

    # -- rendering -------------------------------------------------------------------------------
    def _render(
        self,
        events: Sequence[Event] = (),
        mover: int | None = None,
        lead: str = "",
        tail: str = "",
    ) -> None:
        """Show the deal as it is now, with `events` (of `mover`'s move) in the message."""
        deal, seat = self.deal, self.seat
        mine = self._my_turn()
        forced = forced_move(deal, seat)
        change = frames.changes(events, mover) if mover is not None else frames.Changes()
        bot_kinds = {p: bot.name for p, bot in self.bots.items()}
        head = turn_status(deal, seat, bot_kinds)
        self.board.show(deal, seat, change, head, seat_status(deal, seat))
        self.hand_panel.show(deal.hand(seat), mine)
        self.action_bar.show(deal, mine, forced)
        self.bot_bar.show(self._bots_to_move(), deal.is_over)
        events_html = render.events_html(events, deal.names)
        self._say(lead + events_html + tail + _said(next_step(deal, seat, forced)))
        self.over = deal.is_over
        if is_shown(self._trouble):
            self.report("")
