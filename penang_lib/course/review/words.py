"""Every sentence a review shows: a turn's heading, its comparison's rows and the lines under
them, the menu of the learner's turns, the summary in sentences and the words beside the link.
The widget (`penang_lib.widgets.review`) only lays them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from penang_lib.course.links import REVIEW_KEY, REVIEW_PAGE
from penang_lib.course.review import codec
from penang_lib.course.review.analysis import Summary
from penang_lib.course.review.turns import Play, TurnReview, TurnSpan, deal_and_seat
from penang_lib.engine.deal import Deal, Status
from penang_lib.engine.moves import Move
from penang_lib.engine.validate import join_names, require_whole

__all__ = [
    "CAREFUL",
    "CAREFUL_PREFIX",
    "LINKED",
    "MENU",
    "MENU_NONE",
    "NO_TURNS",
    "REVIEW_TITLE",
    "SUMMARY_HEAD",
    "YOU",
    "compare_rows",
    "link_sentence",
    "menu_label",
    "off_turn_line",
    "review_heading",
    "summary_lines",
    "turn_heading",
    "turn_lines",
]

YOU: Final = "You"
CAREFUL: Final = "Careful bot"
"""The headings of the two columns of a turn's comparison."""


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
    deal, seat = deal_and_seat(deal, seat)
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


CAREFUL_PREFIX: Final = "Careful: "
"""How the careful bot's reasons begin (`bots.CarefulBot`)."""


def _sentence(text: str) -> str:
    """`text` with its first letter made a capital, as a sentence starts."""
    return text[:1].upper() + text[1:]


def link_sentence(code: str, page: str = REVIEW_PAGE) -> str:
    """What the review says beside its link, or, for a deal whose link would be too long, the
    one sentence that says so (and no link is shown)."""
    link = f"{page}?{REVIEW_KEY}={code}"
    if len(link) > codec.MAX_LINK:
        return (
            f"This deal is too long to link: its link would be {len(link)} characters, more "
            f"than the {codec.MAX_LINK} a link can safely hold, so no link is shown."
        )
    return "Copy this link to open this review again, on this computer or another:"
