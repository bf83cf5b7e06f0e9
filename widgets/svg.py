"""Small bar and line charts drawn as inline SVG, so that a lesson draws its charts without a
plotting library in the learner's kernel (issue 22: one kernel weighs at most 100 MB).

A chart is one or more `Panel`s, each with a title, a value axis that starts at its `limits[0]`,
and either `Bars` or `Line`s; the dataclasses hold every number and word drawn, so a test can
read them. `chart_html` draws the panels side by side when the page is wide enough and one above
the other on a phone, each panel an `<svg>` with a `viewBox` that scales to its box. The whole
is one image for a screen reader (`role="img"`), named by the chart's text alternative.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from penang_lib.widgets.render import esc

INK, AXIS = "#222222", "#555555"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
SIZE = 13
"""Text size, in viewBox units (about one pixel each when a panel is shown at its own width)."""
LINE = 16
"""Height of one line of text, in the same units."""
INSIDE = 0.8
"""A bar whose text would not fit above it (taller than this share of a fixed axis) carries its
text inside its end, in white bold."""


@dataclass(frozen=True)
class Bars:
    """One bar per label: `values` set the bars' lengths, `texts` are written at their ends.
    `colour` is one colour for every bar or one per bar. `horizontal` bars run left to right,
    the first label at the top. `inside_over`: a bar longer than this value carries its text
    inside its end (None: every text stands past its bar's end)."""

    labels: tuple[str, ...]
    values: tuple[float, ...]
    texts: tuple[str, ...]
    colour: str | tuple[str, ...]
    horizontal: bool = False
    inside_over: float | None = None

    def __post_init__(self) -> None:
        count = len(self.labels)
        colours = 1 if isinstance(self.colour, str) else len(self.colour)
        if len(self.values) != count or len(self.texts) != count or colours not in (1, count):
            raise ValueError("a bar chart needs one value, one text and one colour per label")

    def colour_of(self, index: int) -> str:
        return self.colour if isinstance(self.colour, str) else self.colour[index]

    def inside(self, index: int) -> bool:
        """Whether bar `index` carries its text inside its end."""
        return self.inside_over is not None and self.values[index] > self.inside_over


@dataclass(frozen=True)
class Line:
    """A line through the points (`x`, `y`), with a dot at each point when `marker` is set."""

    label: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    colour: str
    marker: bool = True

    def __post_init__(self) -> None:
        if len(self.x) != len(self.y) or not self.x:
            raise ValueError("a line needs as many x values as y values, and at least one")


@dataclass(frozen=True)
class Panel:
    """One chart: its `title`, the `limits` of its value axis (vertical, or horizontal for
    horizontal bars), the axes' labels, and `bars` or `lines` (with a `legend` naming the lines).
    `width` and `height` are its size in viewBox units."""

    title: str
    limits: tuple[float, float]
    ylabel: str = ""
    xlabel: str = ""
    bars: Bars | None = None
    lines: tuple[Line, ...] = field(default=())
    legend: bool = False
    width: int = 400
    height: int = 300

    def __post_init__(self) -> None:
        if not self.limits[0] < self.limits[1]:
            raise ValueError("an axis needs a low limit below its high limit")


def ticks(low: float, high: float, most: int = 8) -> tuple[float, ...]:
    """Round values (1, 2, 2.5 or 5 times a power of ten apart) from `low` to `high`, at most
    `most` steps apart in all."""
    raw = (high - low) / most
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw * (1 - 1e-9))
    first = math.ceil(low / step - 1e-9)
    last = math.floor(high / step + 1e-9)
    return tuple(round(i * step, 10) for i in range(first, last + 1))


def number(value: float) -> str:
    """A tick value as a learner reads it: no trailing zeros, thousands with commas."""
    return f"{value:,.0f}" if value == int(value) else f"{value:,.10g}"


def width_of(text: str, size: float = SIZE) -> float:
    """About how wide `text` is drawn (the widest of its lines)."""
    return max(len(line) for line in text.split("\n")) * size * 0.58


def wrap(text: str, room: float, size: float = SIZE) -> list[str]:
    """`text` broken at spaces into lines that fit in `room`."""
    lines: list[str] = []
    for word in text.split():
        if lines and width_of(f"{lines[-1]} {word}", size) <= room:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines or [""]


def _text(
    x: float,
    y: float,
    text: str,
    anchor: str = "middle",
    extra: str = "",
    size: float = SIZE,
) -> str:
    """`text` at (`x`, `y`), each of its lines (split at newlines) a `<tspan>` below the last."""
    lines = text.split("\n")
    head = f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}"{extra}>'
    if len(lines) == 1:
        return f"{head}{esc(text)}</text>"
    spans = "".join(
        f'<tspan x="{x:.1f}" dy="{0 if i == 0 else LINE}">{esc(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    return f"{head}{spans}</text>"


class _Frame:
    """Where a panel's plot area lies, and how a value maps onto it."""

    def __init__(self, left: float, top: float, right: float, bottom: float) -> None:
        self.left, self.top, self.right, self.bottom = left, top, right, bottom

    @staticmethod
    def scale(value: float, limits: tuple[float, float], start: float, end: float) -> float:
        low, high = limits
        share = (min(max(value, low), high) - low) / (high - low)
        return start + share * (end - start)


def _legend(lines: Sequence[Line], right: float, top: float) -> list[str]:
    widest = max(width_of(line.label) for line in lines)
    box_w, box_h = widest + 44, LINE * len(lines) + 8
    x0, y0 = right - box_w - 4, top + 4
    out = [
        f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{box_w:.1f}" height="{box_h}" rx="3" '
        'fill="#ffffff" fill-opacity="0.85" stroke="#cccccc"/>'
    ]
    for i, line in enumerate(lines):
        y = y0 + 4 + LINE * i + LINE / 2
        out.append(
            f'<line x1="{x0 + 6:.1f}" y1="{y:.1f}" x2="{x0 + 30:.1f}" y2="{y:.1f}" '
            f'stroke="{line.colour}" stroke-width="2"/>'
        )
        if line.marker:
            out.append(f'<circle cx="{x0 + 18:.1f}" cy="{y:.1f}" r="3" fill="{line.colour}"/>')
        out.append(_text(x0 + 36, y + SIZE * 0.35, line.label, "start"))
    return out


def panel_svg(panel: Panel) -> str:
    """One panel as an `<svg>` element, hidden from screen readers (the chart's text says it)."""
    w, h = panel.width, panel.height
    bars = panel.bars
    horizontal = bars is not None and bars.horizontal
    values = ticks(*panel.limits)
    title = wrap(panel.title, w - 12)
    top = 10 + LINE * len(title) + 10
    out = [
        _text(w / 2, 10 + SIZE, "\n".join(title), extra=' font-weight="600"', size=SIZE + 1),
    ]
    # Room for the labels: along the bottom the tick labels (and the x label), on the left the
    # y label and the tick labels (or, for horizontal bars, the bars' names).
    if bars is not None and not horizontal:
        label_lines = max(len(label.split("\n")) for label in bars.labels)
    else:
        label_lines = 1
    bottom = h - 8 - LINE * label_lines - (LINE + 4 if panel.xlabel else 0) - 2
    if horizontal and bars is not None:
        left_labels = max(width_of(label) for label in bars.labels)
    else:
        left_labels = max(width_of(number(v)) for v in values)
    left = 8 + (LINE + 4 if panel.ylabel else 0) + left_labels + 8
    right = w - (14 if not horizontal else 12 + width_of(number(panel.limits[1])) / 2)
    f = _Frame(left, top, right, bottom)
    out.append(
        f'<rect class="plot" x="{left:.1f}" y="{top:.1f}" width="{right - left:.1f}" '
        f'height="{bottom - top:.1f}" fill="none"/>'
    )
    # The value axis and its ticks.
    for v in values:
        if horizontal:
            x = f.scale(v, panel.limits, left, right)
            out.append(
                f'<line x1="{x:.1f}" y1="{bottom:.1f}" x2="{x:.1f}" y2="{bottom + 5:.1f}" '
                f'stroke="{AXIS}"/>'
            )
            out.append(_text(x, bottom + 5 + SIZE, number(v)))
        else:
            y = f.scale(v, panel.limits, bottom, top)
            out.append(
                f'<line x1="{left - 5:.1f}" y1="{y:.1f}" x2="{left:.1f}" y2="{y:.1f}" '
                f'stroke="{AXIS}"/>'
            )
            out.append(_text(left - 8, y + SIZE * 0.35, number(v), "end"))
    if bars is not None:
        out.extend(_bars(bars, panel.limits, f))
    if panel.lines:
        out.extend(_lines(panel.lines, panel.limits, f))
    out.append(
        f'<path d="M{left:.1f},{top:.1f}V{bottom:.1f}H{right:.1f}" fill="none" '
        f'stroke="{AXIS}" stroke-width="1.2"/>'
    )
    if panel.ylabel:
        mid = (top + bottom) / 2
        out.append(
            _text(
                8 + SIZE, mid, panel.ylabel, extra=f' transform="rotate(-90 {8 + SIZE} {mid:.1f})"'
            )
        )
    if panel.xlabel:
        out.append(_text((left + right) / 2, h - 8, panel.xlabel))
    if panel.legend and panel.lines:
        out.extend(_legend(panel.lines, right, top))
    body = "".join(out)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="100%" '
        f'style="max-width:100%;height:auto;display:block;background:#ffffff" aria-hidden="true" '
        f'focusable="false" font-family="{FONT}" fill="{INK}">{body}</svg>'
    )


def _bars(bars: Bars, limits: tuple[float, float], f: _Frame) -> list[str]:
    out: list[str] = []
    count = len(bars.values)
    along = (f.bottom - f.top) if bars.horizontal else (f.right - f.left)
    slot = along / max(count, 1)
    for i, (label, value, text) in enumerate(
        zip(bars.labels, bars.values, bars.texts, strict=True)
    ):
        centre = (f.top if bars.horizontal else f.left) + slot * (i + 0.5)
        thick = slot * 0.8
        inside = bars.inside(i)
        weight = ' fill="#ffffff" font-weight="700"' if inside else ""
        if bars.horizontal:
            end = f.scale(value, limits, f.left, f.right)
            out.append(
                f'<rect class="bar" x="{f.left:.1f}" y="{centre - thick / 2:.1f}" '
                f'width="{end - f.left:.1f}" height="{thick:.1f}" fill="{bars.colour_of(i)}"/>'
            )
            at, anchor = (end - 5, "end") if inside else (end + 5, "start")
            out.append(_text(at, centre + SIZE * 0.35, text, anchor, weight))
            out.append(_text(f.left - 8, centre + SIZE * 0.35, label, "end"))
        else:
            end = f.scale(value, limits, f.bottom, f.top)
            out.append(
                f'<rect class="bar" x="{centre - thick / 2:.1f}" y="{end:.1f}" '
                f'width="{thick:.1f}" height="{f.bottom - end:.1f}" fill="{bars.colour_of(i)}"/>'
            )
            out.append(_text(centre, end + SIZE + 3 if inside else end - 5, text, extra=weight))
            out.append(
                f'<line x1="{centre:.1f}" y1="{f.bottom:.1f}" x2="{centre:.1f}" '
                f'y2="{f.bottom + 5:.1f}" stroke="{AXIS}"/>'
            )
            out.append(_text(centre, f.bottom + 5 + SIZE, label))
    return out


def _lines(lines: Sequence[Line], limits: tuple[float, float], f: _Frame) -> list[str]:
    xs = [x for line in lines for x in line.x]
    low, high = min(xs), max(xs)
    pad = (high - low) * 0.05 or 1.0
    span = (low - pad, high + pad)
    out: list[str] = []
    for v in ticks(low, high, most=5):
        x = f.scale(v, span, f.left, f.right)
        out.append(
            f'<line x1="{x:.1f}" y1="{f.bottom:.1f}" x2="{x:.1f}" y2="{f.bottom + 5:.1f}" '
            f'stroke="{AXIS}"/>'
        )
        out.append(_text(x, f.bottom + 5 + SIZE, number(v)))
    for line in lines:
        points = [
            (f.scale(x, span, f.left, f.right), f.scale(y, limits, f.bottom, f.top))
            for x, y in zip(line.x, line.y, strict=True)
        ]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        out.append(
            f'<polyline class="line" points="{path}" fill="none" stroke="{line.colour}" '
            'stroke-width="2" stroke-linejoin="round"/>'
        )
        if line.marker:
            out.extend(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.6" fill="{line.colour}"/>'
                for x, y in points
            )
    return out


def chart_html(panels: Sequence[Panel], alt: str) -> str:
    """The panels as one image named by `alt`: side by side on a wide page, one above the other
    on a narrow one."""
    items = "".join(
        f'<div style="flex:1 1 {min(p.width, 340)}px;max-width:{p.width}px;min-width:0">'
        f"{panel_svg(p)}</div>"
        for p in panels
    )
    return (
        f'<div class="penang-svg-chart" role="img" aria-label="{esc(alt)}" '
        f'style="display:flex;flex-wrap:wrap;gap:0.5em 1.5em;max-width:100%">{items}</div>'
    )
