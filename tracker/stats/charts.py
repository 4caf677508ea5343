"""Charts as data: the geometry of small SVG charts, computed here, drawn by
`templates/stats/_charts.html`.

Each chart is a `Chart`: a title and a one-sentence summary (the SVG's `<title>` and `<desc>`
for screen readers), its data as rows for the table beside it, and the shapes to draw in a
`width` × `height` view box. Sizes are in CSS pixels at the chart's natural width, which fits a
360 px phone; the SVG scales with the page and its text stays 13–14 px on a phone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cache

from ..i18n import current_language, decimal_separator, month_names, ngettext
from ..web import plural

WIDTH = 328  # a 360 px screen less the page's padding
BAR_ROW = 44  # one horizontal bar: its label above, the bar, the value at its end
VALUE_ROOM = 52  # room at the end of the longest bar for its value
PLOT_HEIGHT = 150
LEFT = 40  # room for the values of the vertical axis
RIGHT = 10
TOP = 14
BOTTOM = 40  # room for two lines of labels under the horizontal axis


# --- shapes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    css: str = "chart-bar"


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    anchor: str = "start"  # SVG text-anchor
    css: str = "chart-label"


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    css: str = "chart-grid"


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    title: str  # a tooltip on a laptop; the table says the same for screen readers
    css: str = "chart-dot"


@dataclass(frozen=True)
class Row:
    """One row of the chart's data table."""

    label: str
    value: str


@dataclass
class Chart:
    id: str  # unique on the page: the SVG's title and desc are labelled by it
    title: str
    summary: str
    label_header: str
    value_header: str
    rows: list[Row]
    width: int = WIDTH
    height: int = 0
    rects: list[Rect] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    path: str = ""  # the points of a line chart's polyline
    dots: list[Dot] = field(default_factory=list)


# --- formatting --------------------------------------------------------------------------


def count(n: int, one: str, few: str, many: str) -> str:
    """Deprecated, Polish only: write `ngettext("%(num)d gra", "%(num)d gier", n)` instead."""
    return f"{n} {plural(n, one, few, many)}"


def games(n: int) -> str:
    """ "1 gra", "2 gry", "5 gier"; "1 game", "5 games"."""
    return ngettext("%(num)d gra", "%(num)d gier", n)


def decimal(x: float | None, places: int = 1) -> str:
    """245,3 – a decimal comma, as Polish writes it (245.3 in English); "–" for no value."""
    if x is None:
        return "–"
    text = f"{x:.{places}f}"
    if places and text.rstrip("0").endswith("."):
        text = text.split(".")[0]  # 245.0 -> 245
    return text.replace(".", decimal_separator()).replace("-", "−")


def signed(x: float | None, places: int = 1) -> str:
    """+12,3 or −4,5: a figure above or below an expectation ("–" for no value, 0 unsigned)."""
    if x is None:
        return "–"
    text = decimal(x, places)
    return text if text.startswith("−") or text.strip("0,") == "" else f"+{text}"


def percent(x: float | None) -> str:
    return "–" if x is None else f"{round(x * 100)}%"


@cache
def _months(language: str, short: bool) -> tuple[str, ...]:
    """The twelve month names of `language` (Babel reads its locale data once per language)."""
    return tuple(month_names(short=short))


def month_name(month: date) -> str:
    """The month and year: "maj 2025" (Polish months are lower case), "May 2025"."""
    return f"{_months(current_language(), False)[month.month - 1]} {month.year}"


def short_month(month: date) -> str:
    """The month, short: "paź", "Oct"."""
    return _months(current_language(), True)[month.month - 1]


# --- scales ------------------------------------------------------------------------------


def nice_ceiling(x: float) -> float:
    """The smallest of 1, 2, 2.5, 5 × 10^k that is at least `x` (1 for nothing)."""
    if x <= 0:
        return 1
    power = 10 ** math.floor(math.log10(x))
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= x:
            return step * power
    return 10 * power  # pragma: no cover - the loop always returns


def _number(x: float) -> str:
    return decimal(x, 0 if float(x).is_integer() else 1)


def _scale(low: float, high: float, *, whole: bool = False) -> tuple[float, float, list[float]]:
    """A vertical axis from `low` to `high` on round values, and three labelled ticks; with
    `whole`, the ticks are whole numbers (counts of games, points)."""
    if high <= low:
        # One value (a player's first game): in the middle of the axis, not on its bottom line,
        # unless that would put a tick below 0.
        low, high = (low - 1, low + 1) if low >= 1 else (low, low + 1)
    step = nice_ceiling((high - low) / 2)
    if whole:
        step = max(1, math.ceil(step))  # 2.5 games is no tick: 3
    bottom = math.floor(low / step) * step
    top = bottom + 2 * step
    while top < high:
        top += step
    ticks = [bottom, (bottom + top) / 2, top]
    return bottom, top, ticks


# --- charts ------------------------------------------------------------------------------


def bar_chart(
    chart_id: str,
    title: str,
    summary: str,
    headers: tuple[str, str],
    data: Sequence[tuple[str, float, str]],
) -> Chart:
    """Horizontal bars, one per (label, value, value as text): labels of any length fit above
    their bars on a narrow phone."""
    chart = Chart(chart_id, title, summary, *headers, [Row(label, text) for label, _, text in data])
    most = max((value for _, value, _ in data), default=0) or 1
    room = WIDTH - VALUE_ROOM
    for i, (label, value, text) in enumerate(data):
        top = i * BAR_ROW
        length = max(2.0, value / most * room) if value else 0.0
        chart.texts.append(Text(0, top + 15, label))
        chart.rects.append(Rect(0, top + 21, round(length, 1), 16))
        chart.texts.append(Text(round(length + 6, 1), top + 34, text, css="chart-value"))
    chart.height = len(data) * BAR_ROW + 2
    return chart


def column_chart(
    chart_id: str,
    title: str,
    summary: str,
    headers: tuple[str, str],
    data: Sequence[tuple[str, float, str]],
    axis_labels: Sequence[tuple[str, str]],
) -> Chart:
    """Vertical bars on a value axis. `axis_labels` has two short lines under each bar: the
    first is thinned out so that labels never overlap, the second (a year) is shown only where
    it changes."""
    chart = Chart(chart_id, title, summary, *headers, [Row(label, text) for label, _, text in data])
    _, top_value, ticks = _scale(0, max((value for _, value, _ in data), default=0), whole=True)
    plot_width = WIDTH - LEFT - RIGHT
    _axes(chart, ticks, 0, top_value)
    n = max(len(data), 1)
    step = plot_width / n
    bar = max(1.0, step * 0.75)
    every = max(1, math.ceil(44 / step))  # a label needs about 44 px
    show_values = step >= 26
    shown_second = ""
    for i, ((_, value, text), (first, second)) in enumerate(zip(data, axis_labels, strict=True)):
        x = LEFT + i * step + (step - bar) / 2
        height = value / top_value * PLOT_HEIGHT
        y = TOP + PLOT_HEIGHT - height
        if value:
            chart.rects.append(Rect(round(x, 1), round(y, 1), round(bar, 1), round(height, 1)))
        middle = round(x + bar / 2, 1)
        if show_values and value:
            chart.texts.append(Text(middle, round(y - 4, 1), text, "middle", "chart-value"))
        if i % every == 0:
            base = TOP + PLOT_HEIGHT
            if first:
                chart.texts.append(Text(middle, base + 16, first, "middle"))
            if second and second != shown_second:  # a year, once until it changes
                chart.texts.append(Text(middle, base + 32, second, "middle", "chart-label-2"))
                shown_second = second
    chart.height = TOP + PLOT_HEIGHT + BOTTOM
    return chart


def line_chart(
    chart_id: str,
    title: str,
    summary: str,
    headers: tuple[str, str],
    data: Sequence[tuple[str, float, str]],
    ends: tuple[str, str],
    mean: float | None = None,
    *,
    whole: bool = False,
) -> Chart:
    """Points joined in order, evenly spaced, with a dashed line at `mean`; `ends` labels the
    first and the last point under the axis; with `whole`, the axis ticks whole numbers."""
    chart = Chart(chart_id, title, summary, *headers, [Row(label, text) for label, _, text in data])
    values = [value for _, value, _ in data]
    low, high, ticks = _scale(min(values, default=0), max(values, default=1), whole=whole)
    _axes(chart, ticks, low, high)
    plot_width = WIDTH - LEFT - RIGHT - 8
    n = len(data)

    def y_of(value: float) -> float:
        return round(TOP + PLOT_HEIGHT - (value - low) / (high - low) * PLOT_HEIGHT, 1)

    points = []
    for i, (label, value, text) in enumerate(data):
        x = round(LEFT + 4 + (i * plot_width / (n - 1) if n > 1 else plot_width / 2), 1)
        points.append(f"{x},{y_of(value)}")
        chart.dots.append(Dot(x, y_of(value), f"{label}: {text}"))
    chart.path = " ".join(points)
    if mean is not None and n > 1:
        y = y_of(mean)
        chart.lines.append(Line(LEFT, y, WIDTH - RIGHT, y, "chart-mean"))
    base = TOP + PLOT_HEIGHT
    if n == 1:  # the one point stands in the middle: its label goes under it, not at the left
        chart.texts.append(Text(chart.dots[0].x, base + 18, ends[0], "middle"))
    if n > 1:
        chart.texts.append(Text(LEFT, base + 18, ends[0]))
        chart.texts.append(Text(WIDTH - RIGHT, base + 18, ends[1], "end"))
    chart.height = TOP + PLOT_HEIGHT + BOTTOM - 10
    return chart


def _axes(chart: Chart, ticks: list[float], low: float, high: float) -> None:
    for tick in ticks:
        y = round(TOP + PLOT_HEIGHT - (tick - low) / (high - low) * PLOT_HEIGHT, 1)
        chart.lines.append(
            Line(LEFT, y, WIDTH - RIGHT, y, "chart-axis" if tick == low else "chart-grid")
        )
        chart.texts.append(Text(LEFT - 6, y + 5, _number(tick), "end", "chart-tick"))
