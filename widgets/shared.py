"""What the widgets of one page share: fixed layouts and styles, and one stylesheet.

ipywidgets gives every widget a `Layout` model and a `Style` model of its own, and the browser
builds each of them when a page loads. A lesson with a few tables of cards had 611 models, 393 of
them layouts and styles in only 29 distinct settings. Here a layout (or a style) with given
settings is made once per kernel and every widget that asks for those settings gets the same one.

A shared layout cannot change, or every widget using it would change too: it refuses any new
value. A widget that appears and disappears does it with the `penang-hidden` class (`show`), and a
card's colour is a class too, never a change to its layout or style.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as widgets

from penang_lib.widgets.render import STYLESHEET

HIDDEN = "penang-hidden"
"""The class that hides a widget (the stylesheet gives it `display: none`)."""

ROW_WRAP = "row wrap"  # not for learners: a CSS value
"""The `flex_flow` of a box whose children share a row and wrap onto the next on a narrow page."""

W = TypeVar("W", bound=widgets.Widget)

# Mutable on purpose: the point of this module is one widget per kind and settings for the
# whole kernel, so both registries live as long as the kernel.
_SHARED: dict[tuple[type, tuple[tuple[str, Any], ...]], Any] = {}
"""The shared widgets of this kernel, by kind and settings."""
_FROZEN: dict[type, type] = {}


class _Frozen:
    """Mixin for a shared layout or style: once built, a synced setting cannot change."""

    _frozen = False

    def __setattr__(self, name: str, value: Any) -> None:
        if self._frozen and name in getattr(self, "keys", ()):
            raise AttributeError(
                f"this {type(self).__name__} is shared by many widgets, so its {name} cannot "
                "change: give the widget a layout of its own (widget.layout = "
                "ipywidgets.Layout(...)), or show and hide it with widgets.shared.show"
            )
        super().__setattr__(name, value)


def _frozen_class(kind: type[W]) -> type[W]:
    found = _FROZEN.get(kind)
    if found is None:
        found = _FROZEN[kind] = type(kind.__name__, (_Frozen, kind), {})
    return found


def _kept(kind: type[W], settings: dict[str, Any], make: Callable[[], W]) -> W:
    """The kernel's one widget of `kind` with these settings, made by `make` the first time and
    again if it was closed (`Widget.close_all()`)."""
    key = (kind, tuple(sorted(settings.items())))
    found = _SHARED.get(key)
    if found is None or found.comm is None:
        found = _SHARED[key] = make()
    return found  # type: ignore[no-any-return]


def _shared(kind: type[W], traits: dict[str, Any]) -> W:
    def make() -> W:
        made: W = _frozen_class(kind)(**traits)
        made._frozen = True
        return made

    return _kept(kind, traits, make)


def fixed_layout(**settings: str) -> widgets.Layout:
    """The page's one layout with these settings (e.g. `width="auto"`), shared and frozen."""
    return _shared(widgets.Layout, settings)


def fixed_style(kind: type[widgets.DOMWidget], **settings: str) -> Any:
    """The page's one style for widgets of `kind` with these settings, shared and frozen.

    `fixed_style(widgets.Dropdown, description_width="initial")` is a `DescriptionStyle`."""
    style_class = kind.class_traits()["style"].klass
    return _shared(style_class, settings)


def part(kind: type[W], *args: Any, layout: dict[str, str] | None = None, **kwargs: Any) -> W:
    """A widget of `kind` with a shared layout (`layout` gives its settings) and, when the kind
    has a style, the shared default style unless `style` is given (a dict of its settings)."""
    if "style" in kind.class_traits():
        kwargs["style"] = fixed_style(kind, **kwargs.pop("style", {}))
    made: W = kind(*args, layout=fixed_layout(**(layout or {})), **kwargs)
    return made


def show(widget: widgets.DOMWidget, visible: bool) -> None:
    """Show or hide a widget (with the `penang-hidden` class, so its shared layout stays)."""
    if visible:
        widget.remove_class(HIDDEN)
    else:
        widget.add_class(HIDDEN)


def is_shown(widget: widgets.DOMWidget) -> bool:
    """Whether `show` left the widget visible."""
    return HIDDEN not in widget._dom_classes


def stylesheet() -> widgets.HTML:
    """The kit's stylesheet as a widget. Every kit widget carries it, so that each one works on a
    page of its own; on one page they all carry the same one."""
    return _kept(
        widgets.HTML,
        {"stylesheet": STYLESHEET},
        lambda: part(widgets.HTML, f"<style>{STYLESHEET}</style>", layout={"display": "none"}),
    )
