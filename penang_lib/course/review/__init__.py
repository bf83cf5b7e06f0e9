"""Reviewing a deal the learner played: at each of their turns, what they played beside what the
careful bot would have played from the same position, a summary of the deal, and a short link
that opens the review again.

The package's modules each do one thing, and every name is imported here as before:

- `turns`: the learner's turns (`learner_turns`) and one turn beside the careful bot's
  (`review_turn`, `TurnReview`, `Play`);
- `analysis`: the review of a whole deal (`Review`), its summary and the search for the turn
  that could have kept the learner alive (`Summary`, `Rescue`);
- `words`: every sentence a review shows (the widget `penang_lib.widgets.review` only lays them
  out);
- `codec`: the link's code (`encode`, `decode`, `ReviewLinkError`) and its address
  (`link_for`).

The page's query string (`review_code`, `review_step`) is read by `penang_lib.course.links`,
with every other link of the lessons.
"""

from __future__ import annotations

from penang_lib.course.links import REVIEW_KEY, REVIEW_PAGE, review_code, review_step
from penang_lib.course.review.analysis import SEARCH_TURNS, Rescue, Review, Summary
from penang_lib.course.review.codec import (
    MAX_LINK,
    Linked,
    ReviewLinkError,
    decode,
    encode,
    link_for,
)
from penang_lib.course.review.turns import (
    Play,
    TurnReview,
    TurnSpan,
    learner_turns,
    review_turn,
)
from penang_lib.course.review.words import (
    CAREFUL,
    LINKED,
    MENU,
    MENU_NONE,
    NO_TURNS,
    REVIEW_TITLE,
    SUMMARY_HEAD,
    YOU,
    compare_rows,
    link_sentence,
    menu_label,
    off_turn_line,
    review_heading,
    summary_lines,
    turn_heading,
    turn_lines,
)

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
