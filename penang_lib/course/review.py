"""Reviewing a deal the learner played: at each of their turns, what they played beside what the
careful bot would have played from the same position, a summary of the deal, and a short link
that opens the review again.

- A *turn* of the learner is the run of their moves between two turn changes (rule `turn`). The
  careful bot's turn is played on a copy of the deal from the position at the start of that turn
  (`review_turn`), with its `why` for every move; what it changes is said for both players: the
  cards left in hand after the turn and the points they count (rule `scoring`).
- The summary (`Review.summary`): the turns where the learner made more than one action without
  going out (the rule book's strategy note under `dead`: play as little as you must), leaving
  out a turn whose extra actions Hint (the careful bot) would have made in the same position,
  the jokers left in hand at the end, and, when the learner died, the latest of their turns
  from which the careful bot, playing their seat from there on with the same bots around it,
  stays alive past the turn where they died (the search tries at most `SEARCH_TURNS` turns).
- The link (`encode` / `decode`): the deal as a small JSON object (seed, players, the learner's
  seat, the bots, the dealer, the names when they are not the default ones, the rules when they
  are not the rule book's, the hands of a prepared deal, and the moves), compressed with zlib and
  written in URL-safe base64. Decoding replays every move through the engine
  (`record.from_record`), so a code that was cut short or changed is refused with one sentence
  (`ReviewLinkError`), never half-read. A finished deal only: before the end, the seed in the code
  would tell every hidden hand.

Every sentence a review shows is made here; the widget (`penang_lib.widgets.review`) only lays them
out.
"""

from __future__ import annotations

import base64
import binascii
import copy
import json
import re
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qsl

from penang_lib.engine.bots import (
    Bot,
    CarefulBot,
    Choice,
    bot_names,
    bots_around,
    play_move,
)
from penang_lib.engine.cards import CardParseError, cards_of, cards_text
from penang_lib.engine.deal import DEFAULT_NAMES, Deal, Status
from penang_lib.engine.moves import (
    DeclareDead,
    DeclareGame,
    EndTurn,
    LayOff,
    MeldMove,
    Move,
    move_to_dict,
    parse_move,
)
from penang_lib.engine.record import FORMAT, VERSION, RecordError, from_record
from penang_lib.engine.rules import Rules
from penang_lib.engine.validate import (
    ArgumentTypeError,
    join_names,
    require_text,
    require_whole,
    shown,
)
from penang_lib.engine.view import PlayerView

__all__ = [
    "CAREFUL",
    "LINKED",
    "MAX_LINK",
    "MENU",
    "MENU_NONE",
    "NO_TURNS",
    "REVIEW_KEY",
    "REVIEW_PAGE",
    "REVIEW_TITLE",
    "SEARCH_TURNS",
    "SUMMARY_HEAD",
    "YOU",
    "Linked",
    "Play",
    "Rescue",
    "Review",
    "ReviewLinkError",
    "Summary",
    "TurnReview",
    "TurnSpan",
    "compare_rows",
    "decode",
    "encode",
    "learner_turns",
    "link_for",
    "link_sentence",
    "menu_label",
    "off_turn_line",
    "review_code",
    "review_heading",
    "review_step",
    "review_turn",
    "summary_lines",
    "turn_heading",
    "turn_lines",
]

REVIEW_PAGE: Final = "08_play.ipynb"
"""The lesson page that opens a review from its link."""
REVIEW_KEY: Final = "review"
"""The query key of a review link: `08_play.ipynb?review=CODE`."""
MAX_LINK: Final = 2000
"""The longest link the review offers (characters): longer addresses are cut by some browsers,
mail programs and chat tools."""
MAX_CODE: Final = 8000
"""A code longer than this is not read at all (no review link this kit makes comes close)."""
MAX_JSON: Final = 100_000
"""The most bytes a code may unpack to: a bigger one is refused before it is read."""
SEARCH_TURNS: Final = 40
"""How many of the learner's turns, latest first, the summary's search tries at most."""
SEARCH_MOVES: Final = 5000
"""How many moves one try of the search plays at most (a deal is far shorter)."""
CODE_VERSION: Final = 1
"""The version of the code's JSON object (its `v`)."""
CODE_CHARS: Final = re.compile(r"[A-Za-z0-9_-]+")
"""URL-safe base64 without padding: all a code is written in."""
YOU: Final = "You"
CAREFUL: Final = "Careful bot"
"""The headings of the two columns of a turn's comparison."""


class ReviewLinkError(ValueError):
    """A review link that cannot be opened; the message is one sentence for the learner."""


# -- the learner's turns ----------------------------------------------------------------------
@dataclass(frozen=True)
class TurnSpan:
    """One turn of the learner: `number` counts their own turns (from 1), `turn` is the deal's
    turn number, and the turn's moves are `deal.move_stack[start:end]` (so the stepper shows the
    position before it at step `start` and after it at step `end`)."""

    number: int
    turn: int
    start: int
    end: int


def _require(deal: object, seat: object) -> tuple[Deal, int]:
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"a review looks at a Deal, not {shown(deal)}")
    return deal, require_whole(seat, "seat", 0, deal.players - 1)


def learner_turns(deal: Deal, seat: int) -> list[TurnSpan]:
    """The turns `seat` has played in `deal`, in order (a turn a move ended: rule `turn-order`,
    or the deal's end, starts the next)."""
    deal, seat = _require(deal, seat)
    spans: list[TurnSpan] = []
    turn, start = 1, 0
    moves = len(deal.move_stack)
    for i, events in enumerate(deal.event_stack):
        ended = i == moves - 1 or any(e.rule in ("turn-order", "end") for e in events)
        if not ended:
            continue
        if deal.movers[start] == seat:
            spans.append(TurnSpan(len(spans) + 1, turn, start, i + 1))
        turn, start = turn + 1, i + 1
    return spans


def _position(deal: Deal, ply: int) -> Deal:
    """A copy of `deal` after its first `ply` moves (taken back exactly with `pop`)."""
    working = deal.copy()
    while len(working.move_stack) > ply:
        working.pop()
    return working


# -- one turn compared ------------------------------------------------------------------------
def _actions(moves: Iterable[Move]) -> int:
    """Melds and lay-offs among `moves` (a swap is not an action: rule `swap`)."""
    return sum(1 for m in moves if isinstance(m, MeldMove | LayOff))


@dataclass(frozen=True)
class Play:
    """One player's play of a turn and where it leaves their seat: the moves (with the careful
    bot's reason for each; empty for the learner's), how many `actions` they make, the cards
    left in hand after the turn and their points (`cards`, `points`), the jokers among them and
    the seat's status."""

    moves: tuple[Move, ...]
    whys: tuple[str, ...]
    actions: int
    cards: int
    points: int
    jokers: int
    status: Status

    @staticmethod
    def after(deal: Deal, seat: int, moves: Sequence[Move], whys: Sequence[str]) -> Play:
        """The play of `moves`, seen from `deal` as they leave it."""
        jokers = sum(1 for c in deal.hand(seat) if c.is_joker)
        return Play(
            tuple(moves),
            tuple(whys),
            _actions(moves),
            deal.hand_size(seat),
            deal.count(seat),
            jokers,
            deal.status[seat],
        )


@dataclass(frozen=True)
class TurnReview:
    """One turn of the learner beside the careful bot's turn from the same position. `same`
    says whether the careful bot's turn leaves the same hand and the same table (the same moves,
    perhaps in another order). `unhinted` counts the learner's actions after the turn's first
    that they made where Hint (the careful bot, from that very position) would have ended the
    turn."""

    span: TurnSpan
    yours: Play
    careful: Play
    same: bool
    unhinted: int = 0

    @property
    def extra(self) -> bool:
        """More than one action in a turn that did not go out (the strategy note of `dead`), at
        least one of them where Hint said to end the turn: an extra action Hint recommended in
        that position is never counted against the learner."""
        return (
            self.yours.actions > 1
            and self.yours.status is not Status.OUT
            and not self.same
            and self.unhinted > 0
        )


def _table_key(deal: Deal) -> list[str]:
    return sorted(str(meld) for meld in deal.table)


def _careful_turn(position: Deal, seat: int, bot: Bot) -> list[Choice]:
    """Let `bot` play the whole turn of `seat` on `position` (a copy: it is changed)."""
    turn = position.turn_number
    played: list[Choice] = []
    while not position.is_over and position.turn == seat and position.turn_number == turn:
        played.append(play_move(position, bot))
    return played


def review_turn(deal: Deal, seat: int, span: TurnSpan, before: Deal | None = None) -> TurnReview:
    """The learner's turn `span` of `deal` beside the careful bot's whole turn, played on a copy
    from the position at the start of that turn (`before`, when the caller has that position
    already; it is not changed)."""
    deal, seat = _require(deal, seat)
    if not isinstance(span, TurnSpan) or not 0 <= span.start < span.end <= len(deal.move_stack):
        raise ValueError(f"{shown(span)} is not a turn of this deal")
    start = before.copy() if before is not None else _position(deal, span.start)
    after = _position(start, span.start)  # the same position, to play the learner's moves on
    mine = deal.move_stack[span.start : span.end]
    unhinted = 0
    hint = CarefulBot()
    for move in mine:
        if (
            after.actions
            and isinstance(move, MeldMove | LayOff)
            and isinstance(hint.choose(PlayerView.of(after)).move, EndTurn)
        ):
            unhinted += 1
        after.push(move)
    choices = _careful_turn(start, seat, CarefulBot())
    yours = Play.after(after, seat, mine, [""] * len(mine))
    careful = Play.after(start, seat, [c.move for c in choices], [c.why for c in choices])
    same = after.hands[seat] == start.hands[seat] and _table_key(after) == _table_key(start)
    return TurnReview(span, yours, careful, same, unhinted)


# -- the words of a turn ----------------------------------------------------------------------
def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _moves_text(moves: Sequence[Move]) -> str:
    """The moves of a turn in words: "meld 3♥ 3♦ 3♣, then end the turn"."""
    labels = [m.label() for m in moves]
    if len(labels) <= 1:
        return "".join(labels)
    return ", ".join(labels[:-1]) + ", then " + labels[-1]


def _standing(play: Play) -> str:
    """Where the turn leaves the seat, in words."""
    if play.status is Status.OUT:
        return "went out (Game)"
    if play.status is not Status.ALIVE:
        return "dead"
    return "alive"


def turn_heading(review: TurnReview) -> str:
    """The head line of a turn's comparison: which turn, and the stepper's steps before and
    after it (step k is the deal after its first k moves)."""
    span = review.span
    return (
        f"Your turn {span.number} (turn {span.turn} of the deal): step {span.start} is the "
        f"position before it, step {span.end} the position after it."
    )


def compare_rows(review: TurnReview) -> list[tuple[str, str, str]]:
    """The comparison as rows (what, you, the careful bot), for a table with the columns
    `YOU` and `CAREFUL`."""
    yours, careful = review.yours, review.careful
    return [
        ("Played", _moves_text(yours.moves), _moves_text(careful.moves)),
        ("Actions", str(yours.actions), str(careful.actions)),
        ("Cards left in hand", str(yours.cards), str(careful.cards)),
        ("Points at stake", str(yours.points), str(careful.points)),
        ("After the turn", _standing(yours), _standing(careful)),
    ]


def _difference(review: TurnReview) -> str:
    """What the careful bot's turn changes: the cards it keeps for later turns and the points
    left at stake in hand (rule `scoring`), against the learner's."""
    yours, careful = review.yours, review.careful
    cards = careful.cards - yours.cards
    points = careful.points - yours.points
    parts = []
    if cards > 0:
        parts.append(f"it keeps {_plural(cards, 'more card')} for later turns")
    elif cards < 0:
        parts.append(f"it gets rid of {_plural(-cards, 'more card')}")
    if points > 0:
        parts.append(f"{points} more points are at stake in its hand")
    elif points < 0:
        parts.append(f"{-points} fewer points are at stake in its hand")
    if not parts:
        parts.append("the same number of cards and points, other cards")
    return (
        f"What it changes: after the turn the careful bot would hold "
        f"{_plural(careful.cards, 'card')} worth {careful.points} points, and you hold "
        f"{yours.cards} worth {yours.points}: {' and '.join(parts)}."
    )


def turn_lines(review: TurnReview) -> list[str]:
    """What a turn's comparison says under its table: whether the careful bot would have played
    the same, and where not its reason and what it changes; a turn with more actions than it
    needed says so."""
    lines: list[str] = []
    if review.same:
        lines.append("You played what the careful bot would have played here.")
    else:
        reasons = [w for w, m in zip(review.careful.whys, review.careful.moves, strict=True) if w]
        # The first reason is the decision; "end the turn" reasons repeat the one-action rule.
        # Each bot reason starts with the bot's name ("Careful: ..."), said once here.
        said = [_sentence(w.removeprefix(CAREFUL_PREFIX)) for w in dict.fromkeys(reasons)]
        lines.append("The careful bot would have played otherwise. Its reasons: " + " ".join(said))
        lines.append(_difference(review))
    if review.extra:
        lines.append(
            f"You made {review.yours.actions} actions in this turn, where one keeps you alive: "
            "every card you put down gives the others somewhere to lay off (the strategy note "
            "of rule dead). After your first action, Hint would have ended the turn."
        )
    return lines


MENU: Final = "Go to your turn"
"""The label of the menu that takes the review's stepper to one of the learner's turns."""
MENU_NONE: Final = "(choose one of your turns)"
"""The menu's entry while the stepper shows a bot's step."""
NO_TURNS: Final = "You have not played a turn in this deal yet: there is nothing to compare."
SUMMARY_HEAD: Final = "The deal in short"
LINKED: Final = "This is the deal of your review link, played to its end; its review is below."
"""What the play table says first when a review link opened its deal."""


REVIEW_TITLE: Final = "Review of this deal"


def review_heading(deal: Deal, seat: int) -> str:
    """The sentence under a review's title."""
    deal, seat = _require(deal, seat)
    return (
        f"From your seat ({deal.names[seat]}): at each of your turns, what you played stands "
        "beside what the careful bot would have played from the same position."
    )


def menu_label(review: TurnReview) -> str:
    """A learner's turn in the menu: its number, where it starts, whether the bot agrees."""
    span = review.span
    verdict = "as the careful bot" if review.same else "the careful bot differs"
    return f"Your turn {span.number} (step {span.start}): {verdict}"


def off_turn_line(step: int) -> str:
    """What the comparison panel says at a step that is none of the learner's turns."""
    step = require_whole(step, "step", 0)
    return (
        f"Step {step} is not one of your turns. Choose one in {MENU}, or step on, to see your "
        "play beside the careful bot's."
    )


# -- the summary ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rescue:
    """The latest turn of the learner (`span`) from which the careful bot, playing their seat
    with the same bots around it, stays alive past the turn where the learner died: its moves
    in that turn (`moves`) and the seat's status where the search stopped (`status`: alive, or
    out when it went on to win)."""

    span: TurnSpan
    moves: tuple[Move, ...]
    status: Status


@dataclass(frozen=True)
class Summary:
    """What the review says of the whole deal (see `summary_lines`)."""

    over: bool
    extra: tuple[tuple[TurnSpan, int, int], ...]
    """The turns with more than one action that did not go out: the turn, the learner's actions
    and the careful bot's from the same position."""
    jokers: int
    joker_points: int
    status: Status
    died: TurnSpan | None
    rescue: Rescue | None
    searched: int


def _ordinal_list(spans: Sequence[TurnSpan]) -> str:
    return join_names([str(s.number) for s in spans])


def summary_lines(summary: Summary) -> list[str]:
    """The summary in sentences: extra actions, jokers left, and the turn that could have kept
    the learner alive."""
    if not summary.over:
        return ["The summary comes once the deal is over."]
    lines: list[str] = []
    if summary.extra:
        spans = [span for span, _, _ in summary.extra]
        which = "turn" if len(spans) == 1 else "turns"
        lines.append(
            f"You played more than you had to in {_plural(len(spans), 'turn')} (your {which} "
            f"{_ordinal_list(spans)}): more than one action without going out, where Hint would "
            "have ended the turn. One action a turn keeps you alive and gives the others less "
            "to lay off on."
        )
    else:
        lines.append(
            "You never played more than you had to: one action a turn, going out, or a second "
            "action where Hint would have made one too."
        )
    if summary.jokers:
        joker = "joker" if summary.jokers == 1 else "jokers"
        lines.append(
            f"You ended the deal holding {summary.jokers} {joker}, {summary.joker_points} points "
            "against you: a joker can be laid off on most melds, so keeping one is one more turn "
            "alive later, but it counts if you are caught with it."
        )
    else:
        lines.append("No joker was left in your hand at the end.")
    died = summary.died
    if summary.status is Status.OUT:
        lines.append("You went out: nobody stayed alive longer than you.")
    elif died is None:
        lines.append("You were still alive when the deal ended.")
    elif summary.rescue is not None:
        rescue = summary.rescue
        went = " and goes on to win the deal" if rescue.status is Status.OUT else ""
        lines.append(
            f"You died in your turn {died.number} (turn {died.turn} of the deal). A different "
            f"move would have kept you alive: from your turn {rescue.span.number} (step "
            f"{rescue.span.start}) on, the careful bot playing your seat, with the same bots "
            f"around it, stays alive past that turn{went}. There it would "
            f"{_moves_text(rescue.moves)}."
        )
    elif died.number == 1:
        lines.append(
            "You died in your first turn (no meld for the passport), so no earlier move could "
            "have kept you alive."
        )
    else:
        tried = _plural(summary.searched, "turn")
        lines.append(
            f"You died in your turn {died.number} (turn {died.turn} of the deal). No point was "
            f"found where a different move keeps you alive: from each of your last {tried} "
            "before it, the careful bot playing your seat dies by then too."
        )
    return lines


# -- the review of one deal -----------------------------------------------------------------------
class Review:
    """The review of `deal` from the learner's `seat`; `bots` are the bots of the other seats
    as the play table seated them (a name, a comma-separated text or a list, cycled clockwise
    from the learner's left: `bots_around`).

    `spans` are the learner's turns; `turn(i)` compares turn `spans[i]` with the careful bot's
    (computed when first asked, then kept); `turn_at(step)` is the turn a stepper's step is in;
    `whys` the bots' reasons, one per move (empty for the learner's moves and for a move the
    bot would not have chosen); `summary()` the summary; `code()` and `link()` the link that
    opens this review again. The caller's deal is copied, never changed.
    """

    def __init__(
        self, deal: Deal, seat: int = 0, bots: str | Sequence[str] | None = "careful"
    ) -> None:
        deal, seat = _require(deal, seat)
        if deal.players < 2:
            raise ValueError("a review needs the learner and at least one bot")
        self.deal = deal.copy()
        self.seat = seat
        self.bots: tuple[str, ...] = bot_names(bots, deal.players - 1)
        """The bots' names clockwise from the learner's left, one per other seat."""
        self.spans: tuple[TurnSpan, ...] = tuple(learner_turns(deal, seat))
        self._turns: dict[int, TurnReview] = {}
        self._whys: tuple[str, ...] | None = None
        self._bots_at: list[dict[int, Bot]] = []
        """The bots (their state, a random bot's draws) at the start of each learner turn."""
        self._summary: Summary | None = None

    # -- turns --
    def turn(self, index: int) -> TurnReview:
        """The comparison of the learner's turn `spans[index]`."""
        index = require_whole(index, "index", 0, max(0, len(self.spans) - 1))
        if not self.spans:
            raise ValueError("the learner has played no turn in this deal yet")
        found = self._turns.get(index)
        if found is None:
            found = self._turns[index] = review_turn(self.deal, self.seat, self.spans[index])
        return found

    def turn_at(self, step: int) -> int | None:
        """The index of the learner's turn that step `step` shows (the position before one of
        its moves, or just after its last), or None on a bot's step. Where one of the learner's
        turns follows another (a lone player), the turn about to start wins."""
        found = None
        for i, span in enumerate(self.spans):
            if span.start <= step < span.end:
                return i
            if step == span.end:
                found = i
        return found

    # -- the replay: the bots' reasons and states --
    def _replay(self) -> None:
        if self._whys is not None:
            return
        deal, seat = self.deal, self.seat
        working = _position(deal, 0)
        bots = bots_around(working, seat, list(self.bots))
        starts = {span.start for span in self.spans}
        whys: list[str] = []
        self._bots_at = []
        for k, (move, mover) in enumerate(zip(deal.move_stack, deal.movers, strict=True)):
            if k in starts:
                self._bots_at.append(copy.deepcopy(bots))
            why = ""
            bot = bots.get(mover)
            if bot is not None and mover != seat:
                choice = bot.choose(PlayerView.of(working))
                why = choice.why if choice.move == move else ""
            whys.append(why)
            working.push(move)
        self._whys = tuple(whys)

    @property
    def whys(self) -> tuple[str, ...]:
        """The bots' reason for each move of the deal, as the stepper shows them."""
        self._replay()
        assert self._whys is not None
        return self._whys

    # -- the summary --
    def summary(self) -> Summary:
        """What the review says of the whole deal (its search computed when first asked)."""
        if self._summary is None:
            self._summary = self._summarise()
        return self._summary

    def _summarise(self) -> Summary:
        deal, seat = self.deal, self.seat
        extra = []
        for index, span in enumerate(self.spans):
            moves = deal.move_stack[span.start : span.end]
            actions = _actions(moves)
            if actions > 1 and not any(isinstance(m, DeclareGame) for m in moves):
                review = self.turn(index)
                if review.extra:
                    extra.append((span, actions, review.careful.actions))
        jokers = sum(1 for c in deal.hand(seat) if c.is_joker)
        status = deal.status[seat]
        died = next(
            (
                s
                for s in self.spans
                if any(isinstance(m, DeclareDead) for m in deal.move_stack[s.start : s.end])
            ),
            None,
        )
        rescue, searched = (None, 0) if died is None else self._search(died)
        return Summary(
            deal.is_over,
            tuple(extra),
            jokers,
            jokers * deal.rules.card_value(0),
            status,
            died,
            rescue,
            searched,
        )

    def _search(self, died: TurnSpan) -> tuple[Rescue | None, int]:
        """The latest turn before `died` from which the careful bot keeps the seat alive past
        the learner's own turn `died.number`, and how many turns were tried."""
        self._replay()
        seat = self.seat
        tried = 0
        for index in range(died.number - 2, -1, -1):
            if tried >= SEARCH_TURNS:
                break
            tried += 1
            span = self.spans[index]
            working = _position(self.deal, span.start)
            bots = copy.deepcopy(self._bots_at[index])
            careful = CarefulBot()
            bots[seat] = careful
            first = _careful_turn(working, seat, careful)
            for _ in range(SEARCH_MOVES):
                if working.is_over or working.status[seat] is not Status.ALIVE:
                    break
                if working.turns[seat] > died.number:
                    break
                play_move(working, bots[working.turn])
            if working.status[seat] in (Status.ALIVE, Status.OUT):
                return Rescue(span, tuple(c.move for c in first), working.status[seat]), tried
        return None, tried

    # -- the link --
    def code(self) -> str:
        """The code of this review's link (see `encode`)."""
        return encode(self.deal, self.seat, self.bots)

    def link(self, page: str = REVIEW_PAGE) -> str | None:
        """`page?review=CODE`, or None when it would be longer than `MAX_LINK`."""
        return link_for(self.code(), page)


# -- the link -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Linked:
    """What a review link opens: the finished deal, the learner's seat and the bots' names
    (clockwise from the learner's left)."""

    deal: Deal
    seat: int
    bots: tuple[str, ...]


def _bots_value(bots: Sequence[str]) -> str | list[str]:
    return bots[0] if len(set(bots)) == 1 else list(bots)


def encode(deal: Deal, seat: int, bots: str | Sequence[str] | None = "careful") -> str:
    """The code of a review link: the deal as a small JSON object, zlib-compressed, in URL-safe
    base64 without padding. Only a finished deal has one (the seed would show hidden hands)."""
    deal, seat = _require(deal, seat)
    if not deal.is_over:
        raise ValueError("a deal gets a review link only once it is over")
    names = bot_names(bots, deal.players - 1)
    data: dict[str, Any] = {
        "v": CODE_VERSION,
        "s": deal.seed,
        "p": deal.players,
        "t": seat,
        "d": deal.dealer,
        "b": _bots_value(names),
        "m": ";".join(str(m) for m in deal.move_stack),
    }
    if tuple(deal.names) != DEFAULT_NAMES[: deal.players]:
        data["n"] = list(deal.names)
    if deal.rules != Rules():
        data["r"] = deal.rules.as_dict()
    if deal.custom:
        data["h"] = [cards_text(cards_of(h)) for h in deal.initial_hands]
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    packed = zlib.compress(text.encode("utf-8"), 9)
    return base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


def link_for(code: str, page: str = REVIEW_PAGE) -> str | None:
    """The address `page?review=CODE`, or None when it is longer than `MAX_LINK`."""
    link = f"{require_text(page, 'page')}?{REVIEW_KEY}={require_text(code, 'code')}"
    return link if len(link) <= MAX_LINK else None


def link_sentence(code: str, page: str = REVIEW_PAGE) -> str:
    """What the review says beside its link, or, for a deal whose link would be too long, the
    one sentence that says so (and no link is shown)."""
    link = f"{page}?{REVIEW_KEY}={code}"
    if len(link) > MAX_LINK:
        return (
            f"This deal is too long to link: its link would be {len(link)} characters, more "
            f"than the {MAX_LINK} a link can safely hold, so no link is shown."
        )
    return "Copy this link to open this review again, on this computer or another:"


CAREFUL_PREFIX: Final = "Careful: "
"""How the careful bot's reasons begin (`bots.CarefulBot`)."""


def _sentence(text: str) -> str:
    """`text` with its first letter made a capital, as a sentence starts."""
    return text[:1].upper() + text[1:]


def _broken(why: str) -> ReviewLinkError:
    return ReviewLinkError(
        f"This review link cannot be opened ({why}), so the lesson's own deal is shown instead."
    )


_DAMAGED = "its code was cut short or changed"


def _unpack(code: str) -> dict[str, Any]:
    """The JSON object of a code, or a `ReviewLinkError`."""
    if len(code) > MAX_CODE:
        raise _broken("its code is far longer than any review link")
    if not CODE_CHARS.fullmatch(code):
        raise _broken(f"{_DAMAGED}: it holds characters a review code never does")
    try:
        packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(packed, MAX_JSON)
        if unpacker.unconsumed_tail:
            raise _broken("its code unpacks to far more than any deal")
        if not unpacker.eof:
            raise _broken(_DAMAGED)
        data = json.loads(raw.decode("utf-8"))
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError, RecursionError):
        raise _broken(_DAMAGED) from None
    if not isinstance(data, dict):
        raise _broken(_DAMAGED)
    return data


def _field(data: Mapping[str, Any], key: str, kind: type, what: str) -> Any:
    value = data.get(key)
    if value is None or value.__class__ is not kind:
        raise _broken(f"{_DAMAGED}: {what} is missing")
    return value


def decode(code: str) -> Linked:
    """The deal, seat and bots of a review code (`encode`). Every move is replayed through the
    engine; anything that is not a finished deal raises `ReviewLinkError` with one sentence."""
    if not isinstance(code, str):
        raise ArgumentTypeError(f"a review code is text, not {shown(code)}")
    code = code.strip()
    if not code:
        raise _broken("it holds no code after review=")
    data = _unpack(code)
    if data.get("v") != CODE_VERSION:
        raise _broken("it was made by another version of this kit")
    seed = _field(data, "s", int, "the seed")
    players = _field(data, "p", int, "the number of players")
    seat = _field(data, "t", int, "your seat")
    dealer = _field(data, "d", int, "the dealer")
    moves_text = _field(data, "m", str, "the moves")
    bots = data.get("b")
    if not 2 <= players <= 5 or not 0 <= seat < players:
        raise _broken(f"{_DAMAGED}: its seats do not fit the table")
    if not isinstance(bots, str | list):
        raise _broken(f"{_DAMAGED}: the bots are missing")
    try:
        names = bot_names(bots, players - 1)
        moves = [move_to_dict(parse_move(t)) for t in moves_text.split(";")] if moves_text else []
    except (CardParseError, ValueError, TypeError):
        raise _broken(f"{_DAMAGED}: its bots or moves cannot be read") from None
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": data.get("r", {}),
        "seed": seed,
        "players": players,
        "names": data.get("n"),
        "dealer": dealer,
        "prepared": "h" in data,
        "moves": moves,
    }
    if "h" in data:
        record["initial_hands"] = data["h"]
    try:
        deal = from_record(record)
    except (RecordError, TypeError, ValueError):
        raise _broken(f"{_DAMAGED}: its moves do not make a legal deal") from None
    if not deal.is_over:
        raise _broken(f"{_DAMAGED}: the deal in it is not finished")
    return Linked(deal, seat, names)


def review_code(query: str) -> str | None:
    """The review code a page's query string carries (`review=CODE`), or None when it has none.
    A query that names `review` twice or leaves it empty gives "" (a link that is no code)."""
    if not isinstance(query, str):
        raise ArgumentTypeError(f"a query string is text, not {shown(query)}")
    values = [v for k, v in parse_qsl(query.lstrip("?")[: MAX_CODE * 2], True) if k == REVIEW_KEY]
    if not values:
        return None
    return values[0] if len(values) == 1 else ""


def review_step(query: str) -> int | None:
    """The step a review link asks to open at (`&step=K`, whole digits), or None."""
    if not isinstance(query, str):
        raise ArgumentTypeError(f"a query string is text, not {shown(query)}")
    values = [v for k, v in parse_qsl(query.lstrip("?")[: MAX_CODE * 2], True) if k == "step"]
    if len(values) != 1 or not values[0].isascii() or not values[0].isdigit():
        return None
    return int(values[0]) if len(values[0]) <= 6 else None
