"""Course text drawn from a lesson's data, so that the lesson states each fact in one place.

Lesson 7 sends the learner to given steps of one bot deal. The deal's seed, the moments worth
watching and the first step at which each rule shows live in the lesson's JSON file; the rules'
one-line summaries live in `penang_lib.RULE_BOOK`. The functions here turn those into the page's
list of links and its table of rules: a lesson's code cell shows one of them as its last
expression, and nothing is typed twice into the markdown.

The lesson's data (`penang_lib.widgets.lessons.lesson_data`) holds:

- `deal`: `seed` (the deal the links open) and `steps` (how many moves the whole deal has);
- `steps`: for each rule id, the first step of the deal that shows it (step 0: the deal as dealt);
- `moments`: the moments to watch, in order, each with `says` (what happens, in plain words;
  a rule id in backticks is shown as code) and where it is: `step` (a number), or `first` (a
  rule id: the step at which that rule first shows, from `steps`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from penang_lib.engine.cards import symbols_html
from penang_lib.engine.rules import RULE_BOOK
from penang_lib.engine.validate import ArgumentTypeError, require_whole, shown
from penang_lib.i18n import _
from penang_lib.widgets.links import OFF_SITE_NOTE_MESSAGE, off_site_html, on_site, step_address

CODE = re.compile(r"`([^`<>]+)`")
"""A rule id written in backticks, as markdown writes code."""


@dataclass(frozen=True)
class CourseText:
    """A piece of a lesson's text made from its data: `html` is what the page shows, and
    `text` the same words without markup (what a plain console prints)."""

    html: str
    text: str

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return self.text


def _marked(text: str) -> str:
    """Plain words as HTML: escaped, card symbols kept, each joker drawn, backticks as code."""
    return CODE.sub(r"<code>\1</code>", symbols_html(text))


def _mapping(value: object, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ArgumentTypeError(
            f"{what} should be an object of the lesson's data, not {shown(value)}"
        )
    return value


def _seed_and_length(data: Mapping[str, Any]) -> tuple[int, int]:
    """The deal's seed and how many steps it has, from the lesson's `deal`."""
    lesson = _mapping(data, "the lesson's data")  # not for learners: named in a TypeError
    deal = _mapping(lesson.get("deal"), "the lesson's deal")  # not for learners: as above
    if "seed" not in deal or "steps" not in deal:
        raise ValueError("the lesson's deal needs its seed and its number of steps")
    return require_whole(deal["seed"], "the deal's seed", 0), require_whole(
        deal["steps"], "the deal's number of steps", 0
    )


def first_steps(data: Mapping[str, Any]) -> dict[str, int]:
    """For each rule the lesson names, the first step of its deal that shows it, in the rule
    book's order. An id that is not in the rule book, or a step past the deal's end, is a
    `ValueError` that names it."""
    _seed, length = _seed_and_length(data)
    steps = _mapping(data.get("steps"), "the lesson's steps")  # not for learners: a TypeError's
    unknown = [rule for rule in steps if rule not in RULE_BOOK]
    if unknown:
        raise ValueError(f"{shown(unknown[0])} is not a rule id of the rule book")
    return {
        rule: require_whole(steps[rule], f"the step of rule {rule}", 0, length)
        for rule in RULE_BOOK
        if rule in steps
    }


@dataclass(frozen=True)
class Moment:
    """One moment of the deal worth watching: its `step` and what happens there (`says`)."""

    step: int
    says: str


def moments_of(data: Mapping[str, Any]) -> list[Moment]:
    """The lesson's moments to watch, each at its step (a `first` rule id is looked up in the
    lesson's `steps`). Bad data is a `ValueError` saying which moment is wrong and why."""
    _seed, length = _seed_and_length(data)
    firsts = first_steps(data)
    items = data.get("moments")
    if not isinstance(items, Sequence) or isinstance(items, str) or not items:
        raise ValueError("the lesson's moments should be a list of moments to watch")
    found = []
    for number, item in enumerate(items, 1):
        item = _mapping(item, f"moment {number}")  # not for learners: named in a TypeError
        says = item.get("says")
        if not isinstance(says, str) or not says.strip():
            raise ValueError(f"moment {number} should say what happens in words (its `says`)")
        if ("step" in item) == ("first" in item):
            raise ValueError(
                f"moment {number} should give either its step or the rule it first shows"
            )
        if "first" in item:
            if item["first"] not in firsts:
                raise ValueError(
                    f"moment {number} names rule {shown(item['first'])}, "
                    "which the lesson's steps do not list"
                )
            step = firsts[item["first"]]
        else:
            step = require_whole(item["step"], f"the step of moment {number}", 0, length)
        found.append(Moment(step, says.strip()))
    order = [m.step for m in found]
    if order != sorted(order) or len(set(order)) != len(order):
        raise ValueError(
            f"the moments should come in the order of the deal, once each, not {order}"
        )
    return found


def _link(page: str, seed: int, step: int) -> str:
    """`Step K`, a link to that step of the deal on the site; outside the site, no link
    (`_off_site` says why, once, above the list)."""
    said = _("Step {step}").format(step=step)
    if not on_site():
        return said
    href = html.escape(step_address(page, seed, step))
    return f'<a href="{href}">{said}</a>'


def _off_site() -> str:
    """Outside the tutorial site (JupyterLab), the sentence saying where the step links work."""
    return (
        ""
        if on_site()
        else f'<p class="penang-site-only">{off_site_html(OFF_SITE_NOTE_MESSAGE)}</p>'
    )


def moments(data: Mapping[str, Any], page: str) -> CourseText:
    """The list of moments to watch: each one a link that opens `page` at its step of the deal
    (`page?seed=S&step=K`), then what happens there."""
    seed, _length = _seed_and_length(data)
    found = moments_of(data)
    rows = [f"<li>{_link(page, seed, m.step)}: {_marked(m.says)}</li>" for m in found]
    text = "\n".join(
        "- " + _("Step {step}: {says}").format(step=m.step, says=m.says) for m in found
    )
    return CourseText(f'{_off_site()}<ul class="penang-moments">{"".join(rows)}</ul>', text)


def rule_table(data: Mapping[str, Any], page: str) -> CourseText:
    """The table of the rules this deal shows, in the rule book's order: each rule's id, a link
    to the first step that shows it, and the rule book's one-line summary."""
    seed, _length = _seed_and_length(data)
    firsts = first_steps(data)
    left = ' style="text-align:left"'
    columns = (_("rule"), _("first seen"), _("what happens"))
    head = "<thead><tr>" + "".join(f"<th{left}>{c}</th>" for c in columns) + "</tr></thead>"
    rows = [
        f"<tr><td{left}><code>{html.escape(rule)}</code></td>"
        f"<td{left}>{_link(page, seed, step)}</td>"
        f"<td{left}>{html.escape(_(RULE_BOOK[rule]))}</td></tr>"
        for rule, step in firsts.items()
    ]
    text = "\n".join(
        _("{rule}: step {step}: {summary}").format(rule=rule, step=step, summary=_(RULE_BOOK[rule]))
        for rule, step in firsts.items()
    )
    return CourseText(
        f'{_off_site()}<table class="penang-rules">{head}<tbody>{"".join(rows)}</tbody></table>',
        text,
    )
