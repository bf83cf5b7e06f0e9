"""Shared layouts and styles: one model per distinct setting on a page, and none of them changes.

The browser builds every widget model of a page when it loads, so the kit shares one layout (and
one style) per distinct setting instead of one per widget. These tests build every kit widget,
play deals through them, and check that no widget kept a layout or style of its own, that a
shared one refuses to change, and that showing and hiding goes through the class instead.
"""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as widgets
import pytest

from penang_lib import Deal
from penang_lib.widgets import DealStepper, MatchSheet, MeldChecker, PlayTable, Quiz
from penang_lib.widgets.base import KitWidget
from penang_lib.widgets.controls import Control
from penang_lib.widgets.lessons import lesson_data
from penang_lib.widgets.shared import (
    HIDDEN,
    fixed_layout,
    fixed_style,
    is_shown,
    part,
    show,
    stylesheet,
)


def kit_widgets() -> list[KitWidget]:
    """One of each kit widget, the way the lessons build them, after some use."""
    stepper = DealStepper.from_seed(seed=3, players=4)
    stepper.buttons[Control.LAST].click()
    play = PlayTable(seed=5, players=3)
    play.buttons[Control.HINT].click()
    play.buttons[Control.END_TURN].click()  # refused: nothing melded yet
    checker = MeldChecker(hand="5H 6H 7H JK KS", table=["9S 10S JS"])
    checker.toggles[0].value = True
    match = MatchSheet(seed=2, players=2)
    match.buttons[next(iter(match.buttons))].click()
    quiz = Quiz(lesson_data("05_swaps")["quiz"])
    return [stepper, play, checker, match, quiz]


def parts_of(kit: KitWidget) -> list[Any]:
    return [w for w in kit.walk() if isinstance(w, (widgets.Layout, widgets.Style))]


def test_no_kit_widget_keeps_a_layout_or_style_of_its_own() -> None:
    for kit in kit_widgets():
        for sub in parts_of(kit):
            # A shared one refuses changes; a widget's own default one would not.
            name = sub.keys[-1]
            with pytest.raises(AttributeError, match="shared by many widgets"):
                setattr(sub, name, getattr(sub, name))


def test_a_page_has_one_layout_per_distinct_setting() -> None:
    every = [sub for kit in kit_widgets() for sub in parts_of(kit)]
    distinct = {id(sub) for sub in every}
    settings = {
        (type(sub).__name__, json.dumps(sub.get_state(), sort_keys=True, default=str))
        for sub in every
    }
    assert len(distinct) == len(settings)
    uses = [w.layout for kit in kit_widgets() for w in kit.walk() if hasattr(w, "layout")]
    assert len(uses) > 5 * len({id(layout) for layout in uses})  # many widgets, few models


def test_equal_settings_share_one_model_and_different_ones_do_not() -> None:
    a = fixed_layout(width="auto", min_width="3em")
    assert fixed_layout(min_width="3em", width="auto") is a
    assert fixed_layout(width="auto") is not a
    assert a.width == "auto" and a.min_width == "3em"
    bold = fixed_style(widgets.ToggleButton, font_weight="bold")
    assert bold._model_name == "ToggleButtonStyleModel" and bold.font_weight == "bold"
    assert fixed_style(widgets.Button) is not fixed_style(widgets.ToggleButton)


def test_a_shared_layout_refuses_a_change_and_keeps_its_value() -> None:
    layout = fixed_layout(width="auto")
    with pytest.raises(AttributeError, match="its display cannot change"):
        layout.display = "none"
    assert layout.display is None and layout.width == "auto"


def test_a_closed_shared_layout_is_made_again() -> None:
    layout = fixed_layout(max_width="55%")
    layout.close()
    again = fixed_layout(max_width="55%")
    assert again is not layout and again.comm is not None
    assert part(widgets.HTML, "", layout={"max_width": "55%"}).layout is again


def test_part_gives_a_shared_layout_and_style() -> None:
    one = part(widgets.Button, description="One", layout={"width": "auto"})
    two = part(widgets.Button, description="Two", layout={"width": "auto"})
    assert one.layout is two.layout and one.style is two.style
    box = part(widgets.HBox, [one, two])
    assert box.layout is fixed_layout()
    wide = part(widgets.Dropdown, options=["a"], style={"description_width": "initial"})
    assert wide.style.description_width == "initial"


def test_show_and_hide_go_through_the_class() -> None:
    html = part(widgets.HTML, "words")
    assert is_shown(html)
    show(html, False)
    assert not is_shown(html) and HIDDEN in html._dom_classes
    show(html, False)
    assert html._dom_classes.count(HIDDEN) == 1
    show(html, True)
    assert is_shown(html) and html.layout is fixed_layout()


def test_the_stylesheet_hides_the_class() -> None:
    assert f".{HIDDEN} {{ display: none !important; }}" in stylesheet().value


def test_kit_widgets_on_one_page_carry_one_stylesheet() -> None:
    a = PlayTable(deal=Deal(hands=["5H 6H 7H 9S", "7D 8D 9D 3C"], dealer=1))
    b = MeldChecker(value="5H 6H 7H")
    assert a.root.children[0] is b.root.children[0] is stylesheet()
