"""widgets/svg.py: the charts drawn as inline SVG are well-formed, named for a screen reader,
and draw what their panels hold (bar lengths in proportion, round ticks, every text escaped);
and the widgets that draw charts load no plotting library (issue 22)."""

from __future__ import annotations

import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from penang_lib.widgets.svg import Bars, Line, Panel, chart_html, number, panel_svg, ticks
from tests.checkout import REPO

NS = "{http://www.w3.org/2000/svg}"


def tree(panel: Panel) -> ET.Element:
    return ET.fromstring(panel_svg(panel))


def texts(svg: ET.Element) -> list[str]:
    """Every text drawn, a text of several lines joined with newlines."""
    out = []
    for text in svg.iter(f"{NS}text"):
        spans = text.findall(f"{NS}tspan")
        out.append("\n".join(s.text or "" for s in spans) if spans else text.text or "")
    return out


def rects(svg: ET.Element, kind: str) -> list[dict[str, float]]:
    return [
        {k: float(r.attrib[k]) for k in ("x", "y", "width", "height")}
        for r in svg.iter(f"{NS}rect")
        if r.get("class") == kind
    ]


VERTICAL = Panel(
    "Some <bars> & more",
    (0.0, 100.0),
    "share (%)",
    "the tables",
    bars=Bars(
        ("A <&>", "two\nlines", "C"),
        (10.0, 55.5, 95.0),
        ("10%", "56%", "95%"),
        "#8e44ad",
        inside_over=80.0,
    ),
)
HORIZONTAL = Panel(
    "Totals",
    (0.0, 120.0),
    xlabel="total points",
    bars=Bars(
        ("North", "East", "South"), (40.0, 12.0, 100.0), ("40", "12", "100"), "#34495e", True
    ),
)
LINES = Panel(
    "Counts",
    (0.0, 180.0),
    "mean count",
    "turns",
    lines=(
        Line("careful", (0, 1, 2, 3), (170.0, 140.0, 90.0, 40.0), "#1e7d32"),
        Line("greedy", (0, 1, 2), (170.0, 60.0, 35.0), "#c0392b", marker=False),
    ),
    legend=True,
)


@pytest.mark.parametrize("panel", [VERTICAL, HORIZONTAL, LINES], ids=lambda p: p.title)
def test_a_panel_is_well_formed_svg_that_scales_to_its_box(panel: Panel) -> None:
    svg = tree(panel)
    assert svg.tag == f"{NS}svg"
    assert svg.get("viewBox") == f"0 0 {panel.width} {panel.height}"
    assert svg.get("width") == "100%" and "height:auto" in (svg.get("style") or "")
    assert svg.get("aria-hidden") == "true"  # the chart as a whole carries the words
    assert panel.title in texts(svg)


def test_a_chart_is_one_image_named_by_its_alternative() -> None:
    alt = 'Two "charts" <of> rates & counts'
    html = chart_html([VERTICAL, LINES], alt)
    root = ET.fromstring(html)
    assert root.get("role") == "img" and root.get("aria-label") == alt
    assert len(list(root.iter(f"{NS}svg"))) == 2
    assert html.count('role="img"') == 1


def test_every_bar_is_as_long_as_its_value_on_the_axis() -> None:
    for panel in (VERTICAL, HORIZONTAL):
        svg = tree(panel)
        assert panel.bars is not None
        (plot,) = rects(svg, "plot")
        bars = rects(svg, "bar")
        assert len(bars) == len(panel.bars.values)
        low, high = panel.limits
        for bar, value in zip(bars, panel.bars.values, strict=True):
            share = (value - low) / (high - low)
            if panel.bars.horizontal:
                assert bar["x"] == pytest.approx(plot["x"], abs=0.11)
                assert bar["width"] == pytest.approx(share * plot["width"], abs=0.15)
            else:
                bottom = plot["y"] + plot["height"]
                assert bar["y"] + bar["height"] == pytest.approx(bottom, abs=0.15)
                assert bar["height"] == pytest.approx(share * plot["height"], abs=0.15)


def test_horizontal_bars_run_top_to_bottom_in_label_order() -> None:
    svg = tree(HORIZONTAL)
    ys = [bar["y"] for bar in rects(svg, "bar")]
    assert ys == sorted(ys)
    drawn = texts(svg)
    assert [drawn.index(name) for name in ("North", "East", "South")] == sorted(
        drawn.index(name) for name in ("North", "East", "South")
    )
    assert "total points" in drawn and all(t in drawn for t in ("40", "12", "100"))


@pytest.mark.parametrize(
    ("low", "high"), [(0, 100), (0, 7), (0, 68.75), (0, 1.18), (0, 178.5), (0, 4321), (-3, 3)]
)
def test_ticks_are_round_and_cover_the_axis(low: float, high: float) -> None:
    values = ticks(low, high)
    assert 3 <= len(values) <= 9
    step = values[1] - values[0]
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert any(math.isclose(mantissa, m) for m in (1, 2, 2.5, 5)), step
    assert all(math.isclose(b - a, step) for a, b in pairwise(values))
    assert all(math.isclose(v / step, round(v / step), abs_tol=1e-9) for v in values)
    assert low <= values[0] < low + step and high - step < values[-1] <= high


def test_the_value_axis_is_labelled_with_its_ticks() -> None:
    drawn = texts(tree(VERTICAL))
    assert [number(v) for v in ticks(0, 100)] == ["0", "20", "40", "60", "80", "100"]
    assert all(label in drawn for label in ("0", "20", "40", "60", "80", "100"))
    assert number(2.5) == "2.5" and number(4000.0) == "4,000"


def test_texts_are_escaped_and_a_two_line_label_is_two_lines() -> None:
    markup = panel_svg(VERTICAL)
    assert "A <&>" not in markup and "Some <bars>" not in markup
    svg = ET.fromstring(markup)
    drawn = texts(svg)
    assert "A <&>" in drawn and "Some <bars> & more" in drawn
    (two,) = [t for t in svg.iter(f"{NS}text") if t.findall(f"{NS}tspan")]
    assert [s.text for s in two.findall(f"{NS}tspan")] == ["two", "lines"]


def test_a_tall_bar_carries_its_text_inside_in_white_bold() -> None:
    svg = tree(VERTICAL)
    style = {t.text: (t.get("fill"), t.get("font-weight")) for t in svg.iter(f"{NS}text")}
    assert style["95%"] == ("#ffffff", "700")  # 95 is over 80: inside its top
    assert style["10%"] == style["56%"] == (None, None)  # above their bars, in the ink
    bar = rects(svg, "bar")[2]
    (inside,) = [t for t in svg.iter(f"{NS}text") if t.text == "95%"]
    assert bar["y"] < float(inside.attrib["y"]) < bar["y"] + bar["height"]


def test_lines_have_their_points_markers_and_a_legend() -> None:
    svg = tree(LINES)
    polylines = [p for p in svg.iter(f"{NS}polyline") if p.get("class") == "line"]
    assert [len(p.attrib["points"].split()) for p in polylines] == [4, 3]
    assert [p.get("stroke") for p in polylines] == ["#1e7d32", "#c0392b"]
    # A dot at each of the careful line's points, and one in its legend: none for greedy.
    dots = [c for c in svg.iter(f"{NS}circle") if c.get("fill") == "#1e7d32"]
    assert len(dots) == 4 + 1
    assert not [c for c in svg.iter(f"{NS}circle") if c.get("fill") == "#c0392b"]
    assert {"careful", "greedy", "mean count", "turns"} <= set(texts(svg))


def test_a_bar_chart_needs_a_value_a_text_and_a_colour_per_label() -> None:
    with pytest.raises(ValueError):
        Bars(("a", "b"), (1.0,), ("1", "2"), "#000000")
    with pytest.raises(ValueError):
        Bars(("a", "b"), (1.0, 2.0), ("1", "2"), ("#000000", "#111111", "#222222"))
    with pytest.raises(ValueError):
        Panel("empty axis", (0.0, 0.0))


def test_the_chart_widgets_load_no_plotting_library() -> None:
    code = (
        "import sys, penang_lib.widgets.charts, penang_lib.widgets.match; "
        "print('matplotlib' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"
