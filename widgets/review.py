"""`DealReview`: look back at a deal the learner played, turn by turn, beside the careful bot and,
when asked, the expert.

A `DealStepper` shows the deal from the learner's seat (the other hands face down until the end),
with the bots' reasons. Above it, a panel follows the stepper's `step`: at each of the learner's
turns it shows what they played beside what the careful bot would have played from the same
position, and where the two differ the bot's reason and what it changes (cards left in hand and
points at stake). A menu takes the stepper to any of the learner's turns. The summary of the deal
and the link that opens the review again (`08_play.ipynb?review=CODE`) come first. Ask the
expert weighs every turn against the expert bot's, with numbers (expected count, chance to stay
alive, chance to win), and names the turn that cost the most.

Every word comes from `penang_lib.course.review.words` (and the stepper's from `explain`), and the
page's link is read by `penang_lib.course.links`; this module only lays them out. The widget tree
is built once: `show_deal` fills the same widgets with another deal. `open_review_link(table)`
opens the review a page's link asks for on a `PlayTable`.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from penang_lib.course.links import PAGE, REVIEW_PAGE, review_code, review_step
from penang_lib.course.review import Review
from penang_lib.course.review.codec import ReviewLinkError, decode, link_for
from penang_lib.course.review.expert import (
    REVIEW_BUDGET,
    REVIEW_SAMPLES,
    ExpertTurn,
    costliest,
    expert_turn,
)
from penang_lib.course.review.words import (
    CAREFUL,
    EXPERT,
    LINKED,
    MENU,
    MENU_NONE,
    NO_TURNS,
    REVIEW_TITLE,
    SUMMARY_HEAD,
    YOU,
    compare_rows,
    costliest_line,
    expert_lines,
    expert_rows,
    link_sentence,
    menu_label,
    off_turn_line,
    review_heading,
    summary_lines,
    turn_heading,
    turn_lines,
    weighing_line,
)
from penang_lib.engine.deal import Deal
from penang_lib.engine.validate import cut, require_text
from penang_lib.i18n import _
from penang_lib.widgets import render
from penang_lib.widgets.base import KitWidget, guarded
from penang_lib.widgets.controls import Control
from penang_lib.widgets.links import page_link, query_string
from penang_lib.widgets.play_parts import WRAP, button
from penang_lib.widgets.render import esc
from penang_lib.widgets.shared import part, show
from penang_lib.widgets.stepper import DealStepper

if TYPE_CHECKING:
    from penang_lib.widgets.play import PlayTable

__all__ = ["DealReview", "open_review_link"]

_NONE = -1
"""The menu's value while the stepper is on a bot's step."""


def _p(text: str, css: str = "") -> str:
    """A paragraph of the review's words, escaped, jokers drawn."""
    cls = f' class="{css}"' if css else ""
    return f"<p{cls}>{render.symbols(text)}</p>"


def _html(css: str) -> widgets.HTML:
    made = part(widgets.HTML, "", layout={"width": "100%"})
    made.add_class(css)
    return made


def _compare_table(rows: Sequence[tuple[str, str, str]], other: str) -> str:
    """A turn's comparison as a table: a row per (what, you, `other`), the learner's column
    headed `YOU` and the other's `other`."""
    body = "".join(
        f'<tr><th scope="row">{esc(what)}</th><td>{render.symbols(yours)}</td>'
        f"<td>{render.symbols(theirs)}</td></tr>"
        for what, yours, theirs in rows
    )
    return (
        '<div class="penang-scroll"><table class="penang-frame penang-compare">'
        f'<thead><tr><td></td><th scope="col">{esc(_(YOU))}</th>'
        f'<th scope="col">{esc(other)}</th></tr></thead><tbody>{body}</tbody></table></div>'
    )


def _first_step(review: Review) -> int:
    """Where a review opens: the start of the learner's first turn."""
    return review.spans[0].start if review.spans else 0


class DealReview(KitWidget):
    """A review of `deal` from the learner's `seat`, the other seats played by `bots` (as the
    play table seated them: `bots_around`).

    Public: `review` (the `penang_lib.course.review.Review` shown), `stepper` (the
    `DealStepper`), and the widgets `heading`, `summary`, `link`, `menu` ("Go to your turn")
    and `comparison` (the panel of the current turn), and `root`. `show_deal` shows another
    deal in the same widgets.

    Ask the expert (`buttons[Control.ASK_EXPERT]`, or `ask_expert()`) weighs each of the
    learner's turns of a finished deal against the expert's (`course.review.expert`), in a
    thread so that the page stays responsive: `progress` counts the turns done, the panel of a
    weighed turn shows the numbers, and `expert_summary` names the costliest turn once all are
    done. `expert_turns` holds them by turn index; `expert_budget` and `expert_samples` set
    how hard it thinks.

    A link is offered for a finished deal only, and only when it is short enough to be safe
    (`MAX_LINK`); `page` is the lesson page that opens it.
    """

    def __init__(
        self,
        deal: Deal,
        seat: int = 0,
        bots: str | Sequence[str] | None = "careful",
        page: str = REVIEW_PAGE,
        four_colour: bool = False,
    ) -> None:
        super().__init__(four_colour)
        page = require_text(page, "page")
        if not PAGE.fullmatch(page):
            raise ValueError(
                f"{cut(page)!r} is not a lesson page's file name (such as {REVIEW_PAGE})"
            )
        self.page = page
        self.review = Review(deal, seat, bots)
        self._following = False
        """True while the menu is set to follow the stepper (its change is then no request)."""
        self._filling = False
        """True while `show_deal` moves the stepper to another deal: its steps are then not
        followed (the menu still lists the old deal's turns); the words follow once it is done."""
        self.heading = _html("penang-review-head")
        self.summary = _html("penang-review-summary")
        self.summary.add_class("penang-explain")
        self.link = _html("penang-review-link")
        self.menu = part(
            widgets.Dropdown,
            description=MENU,
            tooltip=_("Take the stepper to the start of one of your turns"),
            options=[(MENU_NONE, _NONE)],
            value=_NONE,
            style={"description_width": "initial"},
            layout={"width": "auto", "max_width": "100%"},
        )
        self.comparison = _html("penang-review-turn")
        self.comparison.add_class("penang-explain")
        self.buttons = {Control.ASK_EXPERT: button(Control.ASK_EXPERT)}
        self.buttons[Control.ASK_EXPERT].on_click(self._on_ask_expert)
        self.progress = part(widgets.IntProgress, value=0, min=0, max=1, layout={"width": "12em"})
        self.progress_line = _html("penang-review-progress")
        self.expert_summary = _html("penang-review-expert")
        self.expert_summary.add_class("penang-explain")
        self.expert_row = part(
            widgets.HBox,
            [self.buttons[Control.ASK_EXPERT], self.progress, self.progress_line],
            layout=WRAP,
        )
        self.expert_turns: dict[int, ExpertTurn] = {}
        self.expert_budget = REVIEW_BUDGET
        self.expert_samples = REVIEW_SAMPLES
        """The expert's seconds per move and the deals drawn per turn (smaller is faster)."""
        self._weighing: threading.Thread | None = None
        self._generation = 0
        """Counts the deals shown: a weighing started for an older one stops and is dropped."""
        self._weighing_for = -1
        """The generation the last weighing thread was started for."""
        self._lock = threading.RLock()
        """Held while the panel or the expert's numbers change (the weighing is a thread)."""
        self.stepper = DealStepper(
            self.review.deal,
            seat=self.review.seat,
            whys=self.review.whys,
            step=_first_step(self.review),
            four_colour=four_colour,
            link=self._step_link(self.review),
        )
        # A review never uses the stepper's note. Its hook class goes, so that a play table
        # holding a review still has one `penang-message`, the table's own (the site's tests
        # and tools find the table's message by that class).
        self.stepper.note.remove_class("penang-message")
        self._finish(
            [
                self.heading,
                self.summary,
                self.expert_row,
                self.expert_summary,
                self.link,
                self.menu,
                self.comparison,
                self.stepper.root,
            ],
            "penang-review",
        )
        self._show_words()
        self.stepper.observe(self._on_step, names="step")
        self.menu.observe(self._on_menu, names="value")

    # -- filling -------------------------------------------------------------------------------
    def show_deal(
        self,
        deal: Deal,
        seat: int | None = None,
        bots: str | Sequence[str] | None = None,
        step: int | None = None,
        people: Sequence[int] = (),
    ) -> None:
        """Review another deal in the same widgets (the seat and bots kept unless given), at
        `step` (default: the start of the learner's first turn); `people` are the other seats
        a person played. Bad arguments raise and change nothing."""
        review = Review(
            deal,
            self.review.seat if seat is None else seat,
            self.review.bots if bots is None else bots,
            people,
        )
        start = _first_step(review) if step is None else step
        old, old_seat = self.review, self.stepper.seat
        with self._lock:
            self._generation += 1
            self.expert_turns = {}
        self.review, self.stepper.seat = review, review.seat
        self._filling = True
        try:
            self.stepper.show_deal(review.deal, review.whys, start, self._step_link(review))
        except Exception:
            self.review, self.stepper.seat = old, old_seat
            raise
        finally:
            self._filling = False
        self._show_words()
        self.report("")

    def _step_link(self, review: Review) -> str | None:
        """The review's link for the stepper's "link to this step" (None: no link)."""
        if not review.deal.is_over:
            return None
        return review.link(self.page)

    def _show_words(self) -> None:
        """The heading, the summary, the link and the menu for the deal now reviewed, then the
        panel of the current step."""
        review = self.review
        deal = review.deal
        self.heading.value = (
            f"<h3>{esc(REVIEW_TITLE)}</h3><p>{esc(review_heading(deal, review.seat))}</p>"
        )
        lines = summary_lines(review.summary())
        self.summary.value = f"<p><strong>{esc(SUMMARY_HEAD)}</strong></p>" + "".join(
            _p(line) for line in lines
        )
        if deal.is_over:
            code = review.code()
            address = link_for(code, self.page)
            said = _p(link_sentence(code, self.page))
            if address is not None:
                again = _("Open this review again")
                said += f"<p>{page_link(address, title=again)}</p>"
            self.link.value = said
        else:
            self.link.value = ""
        show(self.link, deal.is_over)
        options = [(MENU_NONE, _NONE)] + [
            (render.plain(menu_label(review.turn(i))), i) for i in range(len(review.spans))
        ]
        self._following = True
        try:
            with self.menu.hold_sync():
                self.menu.options = options
                self.menu.value = _NONE
        finally:
            self._following = False
        show(self.menu, bool(review.spans))
        self._show_expert_row()
        self._show_turn(self.stepper.step)

    # -- following the stepper -------------------------------------------------------------------
    def _show_turn(self, step: int) -> None:
        """The panel of step `step`: the learner's turn there beside the careful bot's."""
        with self._lock:
            self._show_turn_now(step)

    def _show_turn_now(self, step: int) -> None:
        review = self.review
        index = review.turn_at(step)
        if not review.spans:
            value = _p(NO_TURNS)
        elif index is None:
            value = _p(off_turn_line(step))
        else:
            value = self._turn_html(index)
        same = index is not None and review.turn(index).same
        with self.comparison.hold_sync():
            self.comparison.value = value
            for css, on in (("penang-ok", same), ("penang-no", index is not None and not same)):
                if on:
                    self.comparison.add_class(css)
                else:
                    self.comparison.remove_class(css)
        self._following = True
        try:
            self.menu.value = _NONE if index is None else index
        finally:
            self._following = False

    def _turn_html(self, index: int) -> str:
        turn = self.review.turn(index)
        head = f"<p><strong>{render.symbols(turn_heading(turn))}</strong></p>"
        table = _compare_table(compare_rows(turn), _(CAREFUL))
        lines = "".join(_p(line) for line in turn_lines(turn))
        return head + table + lines + self._expert_html(index)

    def _expert_html(self, index: int) -> str:
        """The expert's numbers for turn `index`, once weighed; a line while it is weighed."""
        weighed = self.expert_turns.get(index)
        if weighed is None:
            if self._weighing_now():
                return _p(_("The expert has not weighed this turn yet."))
            return ""
        table = _compare_table(expert_rows(weighed), _(EXPERT))
        return table + "".join(_p(line) for line in expert_lines(weighed))

    # -- the expert ------------------------------------------------------------------------------
    def _show_expert_row(self) -> None:
        """Ask the expert is offered for a finished deal with turns of the learner; the
        progress shows once it is asked."""
        review = self.review
        able = review.deal.is_over and bool(review.spans)
        show(self.expert_row, able)
        self.buttons[Control.ASK_EXPERT].disabled = False
        show(self.progress, False)
        self.progress_line.value = ""
        self.expert_summary.value = ""
        show(self.expert_summary, False)

    def ask_expert(self, wait: bool = False) -> None:
        """Weigh each of the learner's turns against the expert's, in a thread (or here, with
        `wait`), showing the progress; the panel and the summary fill in as turns are done."""
        review = self.review
        if not review.deal.is_over or not review.spans:
            raise ValueError("the expert weighs the turns of a finished deal you played")
        if self._weighing_now():
            return
        ask = self.buttons[Control.ASK_EXPERT]
        ask.disabled = True
        total = len(review.spans)
        with self._lock:
            generation = self._generation
            self.expert_turns = {}
        self.progress.max, self.progress.value = total, 0
        show(self.progress, True)
        self.progress_line.value = _p(weighing_line(0, total))
        if wait:
            self._weigh_all(generation, review)
            return
        self._weighing = threading.Thread(
            target=self._weigh_all, args=(generation, review), daemon=True
        )
        self._weighing_for = generation
        self._weighing.start()

    def _weighing_now(self) -> bool:
        """Whether a weighing of the deal shown now is under way (one started for a deal
        shown before drops its work and does not count)."""
        thread = self._weighing
        return thread is not None and thread.is_alive() and self._weighing_for == self._generation

    def _weigh_all(self, generation: int, review: Review) -> None:
        total = len(review.spans)
        for index, span in enumerate(review.spans):
            weighed = expert_turn(
                review.deal, review.seat, span, self.expert_budget, self.expert_samples
            )
            with self._lock:
                if generation != self._generation:
                    return  # another deal is shown now: this work is dropped
                self.expert_turns[index] = weighed
                self.progress.value = index + 1
                self.progress_line.value = _p(weighing_line(index + 1, total))
                if review.turn_at(self.stepper.step) == index:
                    self._show_turn_now(self.stepper.step)
        with self._lock:
            if generation != self._generation:
                return
            worst = costliest([self.expert_turns[i] for i in range(total)])
            self.expert_summary.value = _p(costliest_line(worst))
            show(self.expert_summary, True)
            show(self.progress, False)
            self.progress_line.value = ""

    @guarded
    def _on_ask_expert(self, _button: widgets.Button) -> None:
        self.ask_expert()

    @guarded
    def _on_step(self, change: dict[str, Any]) -> None:
        if not self._filling:
            self._show_turn(int(change["new"]))

    @guarded
    def _on_menu(self, change: dict[str, Any]) -> None:
        if self._following:
            return
        index = change["new"]
        spans = self.review.spans
        if isinstance(index, int) and 0 <= index < len(spans):
            self.stepper.step = spans[index].start


def open_review_link(table: PlayTable, query: str | None = None) -> str:
    """Open the review a page's link asks for (`?review=CODE`, perhaps `&step=K`) on `table`:
    the table then shows that finished deal, from the learner's seat in it and with its bots,
    and the review is open below it. A link that cannot be opened changes nothing: the table
    says why in one sentence, which is returned ("" when the link opened or named no review).

    `query` None reads the page's query string from Voila (`links.query_string`, which also
    works with preheated kernels)."""
    query = query_string() if query is None else require_text(query, "query")
    code = review_code(query)
    if code is None:
        return ""
    try:
        linked = decode(code)
    except ReviewLinkError as error:
        table.tell(str(error))
        return str(error)
    table.show_finished(linked.deal, linked.seat, linked.bots, LINKED, linked.people)
    step = review_step(query)
    steps = len(linked.deal.move_stack)
    table.open_review(step if step is not None and step <= steps else None)
    return ""
