"""Every sentence a review shows: a turn's heading, its comparison's rows and the lines under
them, the menu of the learner's turns, the summary in sentences and the words beside the link.
The widget (`penang_lib.widgets.review`) only lays them out.

Every sentence is marked for the message catalog (`penang_lib.i18n`); the constants are marked
with `N_()` and are shown through `_()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from penang_lib.course.links import REVIEW_KEY, REVIEW_PAGE
from penang_lib.course.review import codec
from penang_lib.course.review.analysis import Summary
from penang_lib.course.review.expert import ExpertTurn
from penang_lib.course.review.turns import Play, TurnReview, TurnSpan, deal_and_seat
from penang_lib.engine.deal import Deal, Status
from penang_lib.engine.moves import Move
from penang_lib.engine.validate import join_names, require_whole
from penang_lib.i18n import N_, _, ngettext

__all__ = [
    "CAREFUL",
    "CAREFUL_PREFIX",
    "EXPERT",
    "EXPERT_PREFIX",
    "LINKED",
    "MENU",
    "MENU_NONE",
    "NO_TURNS",
    "REVIEW_TITLE",
    "SUMMARY_HEAD",
    "YOU",
    "compare_rows",
    "costliest_line",
    "expert_lines",
    "expert_rows",
    "link_sentence",
    "menu_label",
    "off_turn_line",
    "review_heading",
    "summary_lines",
    "turn_heading",
    "turn_lines",
    "weighing_line",
]

YOU: Final = N_("You")
CAREFUL: Final = N_("Careful bot")
"""The headings of the two columns of a turn's comparison."""


# -- the words of a turn ----------------------------------------------------------------------
def _moves_text(moves: Sequence[Move]) -> str:
    """The moves of a turn in words: "meld 3♥ 3♦ 3♣, then end the turn"."""
    labels = [m.label() for m in moves]
    if len(labels) <= 1:
        return "".join(labels)
    return _("{moves}, then {last}").format(moves=", ".join(labels[:-1]), last=labels[-1])


def _standing(play: Play) -> str:
    """Where the turn leaves the seat, in words."""
    if play.status is Status.OUT:
        return _("went out (Game)")
    if play.status is not Status.ALIVE:
        return _("dead")
    return _("alive")


def turn_heading(review: TurnReview) -> str:
    """The head line of a turn's comparison: which turn, and the stepper's steps before and
    after it (step k is the deal after its first k moves)."""
    span = review.span
    return _(
        "Your turn {number} (turn {turn} of the deal): step {start} is the position before it, "
        "step {end} the position after it."
    ).format(number=span.number, turn=span.turn, start=span.start, end=span.end)


def compare_rows(review: TurnReview) -> list[tuple[str, str, str]]:
    """The comparison as rows (what, you, the careful bot), for a table with the columns
    `YOU` and `CAREFUL`."""
    yours, careful = review.yours, review.careful
    return [
        (_("Played"), _moves_text(yours.moves), _moves_text(careful.moves)),
        (_("Actions"), str(yours.actions), str(careful.actions)),
        (_("Cards left in hand"), str(yours.cards), str(careful.cards)),
        (_("Points at stake"), str(yours.points), str(careful.points)),
        (_("After the turn"), _standing(yours), _standing(careful)),
    ]


def _difference(review: TurnReview) -> str:
    """What the careful bot's turn changes: the cards it keeps for later turns and the points
    left at stake in hand (rule `scoring`), against the learner's."""
    yours, careful = review.yours, review.careful
    cards = careful.cards - yours.cards
    points = careful.points - yours.points
    parts = []
    if cards > 0:
        parts.append(
            ngettext(
                "it keeps {count} more card for later turns",
                "it keeps {count} more cards for later turns",
                cards,
            ).format(count=cards)
        )
    elif cards < 0:
        parts.append(
            ngettext(
                "it gets rid of {count} more card", "it gets rid of {count} more cards", -cards
            ).format(count=-cards)
        )
    if points > 0:
        parts.append(_("{points} more points are at stake in its hand").format(points=points))
    elif points < 0:
        parts.append(_("{points} fewer points are at stake in its hand").format(points=-points))
    if not parts:
        parts.append(_("the same number of cards and points, other cards"))
    return ngettext(
        "What it changes: after the turn the careful bot would hold {count} card worth "
        "{points} points, and you hold {yours} worth {your_points}: {changes}.",
        "What it changes: after the turn the careful bot would hold {count} cards worth "
        "{points} points, and you hold {yours} worth {your_points}: {changes}.",
        careful.cards,
    ).format(
        count=careful.cards,
        points=careful.points,
        yours=yours.cards,
        your_points=yours.points,
        changes=join_names(parts),
    )


def turn_lines(review: TurnReview) -> list[str]:
    """What a turn's comparison says under its table: whether the careful bot would have played
    the same, and where not its reason and what it changes; a turn with more actions than it
    needed says so."""
    lines: list[str] = []
    if review.same:
        lines.append(_("You played what the careful bot would have played here."))
    else:
        reasons = [w for w, m in zip(review.careful.whys, review.careful.moves, strict=True) if w]
        # The first reason is the decision; "end the turn" reasons repeat the one-action rule.
        # Each bot reason starts with the bot's name ("Careful: ..."), said once here.
        said = [_sentence(w.removeprefix(CAREFUL_PREFIX)) for w in dict.fromkeys(reasons)]
        lines.append(
            _("The careful bot would have played otherwise. Its reasons: {reasons}").format(
                reasons=" ".join(said)
            )
        )
        lines.append(_difference(review))
    if review.extra:
        lines.append(
            ngettext(
                "You made {actions} action in this turn, where one keeps you alive: every card "
                "you put down gives the others somewhere to lay off (the strategy note of rule "
                "dead). After your first action, the careful bot would have ended the turn.",
                "You made {actions} actions in this turn, where one keeps you alive: every card "
                "you put down gives the others somewhere to lay off (the strategy note of rule "
                "dead). After your first action, the careful bot would have ended the turn.",
                review.yours.actions,
            ).format(actions=review.yours.actions)
        )
    return lines


MENU: Final = N_("Go to your turn")
"""The label of the menu that takes the review's stepper to one of the learner's turns."""
MENU_NONE: Final = N_("(choose one of your turns)")
"""The menu's entry while the stepper shows a bot's step."""
NO_TURNS: Final = N_("You have not played a turn in this deal yet: there is nothing to compare.")
SUMMARY_HEAD: Final = N_("The deal in short")
LINKED: Final = N_("This is the deal of your review link, played to its end; its review is below.")
"""What the play table says first when a review link opened its deal."""


REVIEW_TITLE: Final = N_("Review of this deal")


def review_heading(deal: Deal, seat: int) -> str:
    """The sentence under a review's title."""
    deal, seat = deal_and_seat(deal, seat)
    return _(
        "From your seat ({name}): at each of your turns, what you played stands beside what the "
        "careful bot would have played from the same position."
    ).format(name=deal.names[seat])


def menu_label(review: TurnReview) -> str:
    """A learner's turn in the menu: its number, where it starts, whether the bot agrees."""
    span = review.span
    if review.same:
        label = _("Your turn {number} (step {step}): as the careful bot")
    else:
        label = _("Your turn {number} (step {step}): the careful bot differs")
    return label.format(number=span.number, step=span.start)


def off_turn_line(step: int) -> str:
    """What the comparison panel says at a step that is none of the learner's turns."""
    step = require_whole(step, "step", 0)
    return _(
        "Step {step} is not one of your turns. Choose one in {menu}, or step on, to see your "
        "play beside the careful bot's."
    ).format(step=step, menu=_(MENU))


def _ordinal_list(spans: Sequence[TurnSpan]) -> str:
    return join_names([str(s.number) for s in spans])


def summary_lines(summary: Summary) -> list[str]:
    """The summary in sentences: extra actions, jokers left, and the turn that could have kept
    the learner alive."""
    if not summary.over:
        return [_("The summary comes once the deal is over.")]
    lines: list[str] = []
    if summary.extra:
        spans = [span for span, _actions, _careful in summary.extra]
        lines.append(
            ngettext(
                "You played more than you had to in {count} turn (your turn {turns}): more than "
                "one action without going out, where the careful bot would have ended the turn. "
                "One action a turn keeps you alive and gives the others less to lay off on.",
                "You played more than you had to in {count} turns (your turns {turns}): more "
                "than one action without going out, where the careful bot would have ended the "
                "turn. One action a turn keeps you alive and gives the others less to lay off on.",
                len(spans),
            ).format(count=len(spans), turns=_ordinal_list(spans))
        )
    else:
        lines.append(
            _(
                "You never played more than you had to: one action a turn, going out, or a "
                "second action where the careful bot would have made one too."
            )
        )
    if summary.jokers:
        lines.append(
            ngettext(
                "You ended the deal holding {count} joker, {points} points against you: a joker "
                "can be laid off on most melds, so keeping one is one more turn alive later, but "
                "it counts if you are caught with it.",
                "You ended the deal holding {count} jokers, {points} points against you: a joker "
                "can be laid off on most melds, so keeping one is one more turn alive later, but "
                "it counts if you are caught with it.",
                summary.jokers,
            ).format(count=summary.jokers, points=summary.joker_points)
        )
    else:
        lines.append(_("No joker was left in your hand at the end."))
    died = summary.died
    if summary.status is Status.OUT:
        lines.append(_("You went out: nobody stayed alive longer than you."))
    elif died is None:
        lines.append(_("You were still alive when the deal ended."))
    elif summary.rescue is not None:
        rescue = summary.rescue
        if rescue.status is Status.OUT:
            sentence = _(
                "You died in your turn {number} (turn {turn} of the deal). A different move "
                "would have kept you alive: from your turn {rescue} (step {step}) on, the "
                "careful bot playing your seat, with the same bots around it, stays alive past "
                "that turn and goes on to win the deal. There it would {moves}."
            )
        else:
            sentence = _(
                "You died in your turn {number} (turn {turn} of the deal). A different move "
                "would have kept you alive: from your turn {rescue} (step {step}) on, the "
                "careful bot playing your seat, with the same bots around it, stays alive past "
                "that turn. There it would {moves}."
            )
        lines.append(
            sentence.format(
                number=died.number,
                turn=died.turn,
                rescue=rescue.span.number,
                step=rescue.span.start,
                moves=_moves_text(rescue.moves),
            )
        )
    elif died.number == 1:
        lines.append(
            _(
                "You died in your first turn (no meld for the passport), so no earlier move "
                "could have kept you alive."
            )
        )
    else:
        lines.append(
            ngettext(
                "You died in your turn {number} (turn {turn} of the deal). No point was found "
                "where a different move keeps you alive: from each of your last {count} turn "
                "before it, the careful bot playing your seat dies by then too.",
                "You died in your turn {number} (turn {turn} of the deal). No point was found "
                "where a different move keeps you alive: from each of your last {count} turns "
                "before it, the careful bot playing your seat dies by then too.",
                summary.searched,
            ).format(number=died.number, turn=died.turn, count=summary.searched)
        )
    return lines


CAREFUL_PREFIX: Final = "Careful: "
"""How the careful bot's reasons begin (`bots.CarefulBot`): taken off the engine's sentences,
never shown on its own."""


def _sentence(text: str) -> str:
    """`text` with its first letter made a capital, as a sentence starts."""
    return text[:1].upper() + text[1:]


def link_sentence(code: str, page: str = REVIEW_PAGE) -> str:
    """What the review says beside its link, or, for a deal whose link would be too long, the
    one sentence that says so (and no link is shown)."""
    link = f"{page}?{REVIEW_KEY}={code}"
    if len(link) > codec.MAX_LINK:
        return _(
            "This deal is too long to link: its link would be {length} characters, more than "
            "the {limit} a link can safely hold, so no link is shown."
        ).format(length=len(link), limit=codec.MAX_LINK)
    return _("Copy this link to open this review again, on this computer or another:")


# -- the expert's numbers ---------------------------------------------------------------------
EXPERT: Final = N_("Expert")
"""The heading of the expert's column in a turn's numbers."""
EXPERT_PREFIX: Final = "Expert: "
"""How the expert's reasons begin (`expert.ExpertBot`): taken off, as `CAREFUL_PREFIX` is."""


def _percent(share: float) -> str:
    return _("{percent}%").format(percent=round(100 * share))


def _points(mean: float) -> str:
    points = round(mean)
    return ngettext("{points} point", "{points} points", points).format(points=points)


def expert_rows(weighed: ExpertTurn) -> list[tuple[str, str, str]]:
    """The learner's turn beside the expert's, in numbers (what, you, the expert), for a table
    with the columns `YOU` and `EXPERT`: the moves, then over the drawn deals the count at the
    end on average, how often the seat was still alive after its next turn, how often it won."""
    yours, expert = weighed.yours, weighed.expert
    return [
        (_("Played"), _moves_text(weighed.moves), _moves_text(weighed.expert_moves)),
        (_("Count at the end, on average"), _points(yours.mean_count), _points(expert.mean_count)),
        (
            _("Still alive after the next turn"),
            _percent(yours.survival_rate),
            _percent(expert.survival_rate),
        ),
        (_("Won the deal"), _percent(yours.win_rate), _percent(expert.win_rate)),
    ]


def expert_lines(weighed: ExpertTurn) -> list[str]:
    """What the expert's numbers say in words: the same play, as good a play, or what the
    learner's play cost; then the expert's reason."""
    samples = weighed.samples
    if weighed.same:
        lines = [_("You played this turn exactly as the expert would.")]
    elif weighed.as_good:
        lines = [
            ngettext(
                "The expert would play otherwise, but in {samples} sampled deal your turn did "
                "as well as its own: you played as well as the expert here.",
                "The expert would play otherwise, but in {samples} sampled deals your turn did "
                "as well as its own: you played as well as the expert here.",
                samples,
            ).format(samples=samples)
        ]
    elif weighed.cost >= 0.5:
        points = round(weighed.cost)
        lines = [
            ngettext(
                "In {samples} sampled deals your turn ended with {points} point more than the "
                "expert's, on average.",
                "In {samples} sampled deals your turn ended with {points} points more than the "
                "expert's, on average.",
                points,
            ).format(samples=samples, points=points)
        ]
    else:
        lines = [
            _(
                "In {samples} sampled deals your turn ended with about as many points as the "
                "expert's or fewer, but it won {yours} of them where the expert's won {theirs}."
            ).format(
                samples=samples,
                yours=_percent(weighed.yours.win_rate),
                theirs=_percent(weighed.expert.win_rate),
            )
        ]
    reasons = [w for w in dict.fromkeys(weighed.whys) if w]
    if reasons and not weighed.same:
        said = " ".join(_sentence(w.removeprefix(EXPERT_PREFIX)) for w in reasons)
        lines.append(_("The expert's reasons: {reasons}").format(reasons=said))
    return lines


def costliest_line(weighed: ExpertTurn | None) -> str:
    """The summary's line on the turn that cost the learner the most points against the
    expert, or that no turn cost them much."""
    if weighed is None:
        return _(
            "Against the expert, none of your turns cost you a point or more on average: well "
            "played."
        )
    points = round(weighed.cost)
    return ngettext(
        "Your costliest turn was turn {number}: playing {moves} there cost you {points} point "
        "on average against the expert's play.",
        "Your costliest turn was turn {number}: playing {moves} there cost you {points} points "
        "on average against the expert's play.",
        points,
    ).format(number=weighed.span.number, moves=_moves_text(weighed.moves), points=points)


def weighing_line(done: int, total: int) -> str:
    """The progress of the expert's weighing of the learner's turns."""
    return _("The expert is weighing your turns: {done} of {total} done.").format(
        done=done, total=total
    )
