"""The balance report's charts as plain shapes, and those shapes as SVG.

A chart is a :class:`Chart`: rectangles, lines and texts in points, with y growing downwards.
The HTML report writes it as inline SVG (:func:`svg`), the PDF draws the same shapes with
reportlab (pnp.play.balance_pdf), so both show the same bars. Every mark that stands for a
number carries it (``data`` → ``data-value``, ``data-low``, ``data-high`` in the SVG, and a
``<title>`` a reader sees on hover): what tests/play read back against the JSON.

Hand-written rather than a charting library: three chart kinds of bars, whiskers and lines are
a few hundred bytes of SVG each (matplotlib writes tens of kilobytes of glyph paths for the
same chart and adds a 40 MB dependency and a second's import); see benchmarks/README.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import field
from html import escape
from typing import Any

from pnp.core.records import record

WIDTH, HEIGHT = 480.0, 260.0
LEFT, RIGHT, TOP, BOTTOM = 52.0, 16.0, 28.0, 40.0
INK, BAR, WHISKER, GRID = "#222222", "#4a78b5", "#111111", "#cccccc"
SERIES = ("#4a78b5", "#d9822b", "#3d9970", "#b5475a", "#7a5cb5", "#8a8a3a")


@record
class Mark:
    kind: str  # rect | line | text | circle
    x: float
    y: float
    w: float = 0.0  # rect width, line end x, circle radius
    h: float = 0.0  # rect height, line end y
    fill: str = "none"
    stroke: str = "none"
    text: str = ""
    anchor: str = "middle"
    size: float = 9.0
    dash: bool = False
    role: str = ""  # what the mark is (bar, whisker, point, fair): a class in the SVG
    data: Mapping[str, Any] = field(default_factory=dict)


@record
class Chart:
    name: str
    title: str
    marks: tuple[Mark, ...]
    width: float = WIDTH
    height: float = HEIGHT


def _nice_top(value: float) -> float:
    if value <= 0:
        return 1.0
    step = 10.0 ** math.floor(math.log10(value))
    for k in (1.0, 2.0, 2.5, 5.0, 10.0):
        if k * step >= value:
            return float(k * step)
    return float(10 * step)


def _nice_range(low: float, top: float) -> tuple[float, float, int]:
    """An axis covering ``low`` to ``top`` in four to six equal steps of 1, 2, 2.5 or 5 times
    a power of ten, starting on a multiple of its step, so every grid line reads as a round
    number (15, 17.5, 20, … rather than 13.69): the tightest such axis, and its step count."""
    best: tuple[float, float, int] | None = None
    unit = 10.0 ** math.floor(math.log10((top - low) / 6))
    for power in (unit, unit * 10):
        for k in (1.0, 2.0, 2.5, 5.0):
            step = k * power
            first = math.floor(low / step) * step
            steps = math.ceil((top - first) / step - 1e-9)
            if 4 <= steps <= 6 or (steps < 4 and best is None):
                steps = max(steps, 4)
                if best is None or steps * step < best[1] - best[0]:
                    best = (first, first + steps * step, steps)
    assert best is not None
    return best


def _fmt(value: float) -> str:
    return f"{value:.4g}"


class _Frame:
    """The plot area with a y axis from ``low`` to ``top``: value → point."""

    def __init__(self, top: float, low: float = 0.0, percent: bool = False, steps: int = 4) -> None:
        self.top, self.low, self.percent, self.steps = float(top), float(low), percent, steps
        self.plot_h = HEIGHT - TOP - BOTTOM
        self.plot_w = WIDTH - LEFT - RIGHT

    def y(self, value: float) -> float:
        span = float(self.top - self.low) or 1.0
        return float(TOP + self.plot_h * (1 - (value - self.low) / span))

    def axes(self, x_label: str) -> list[Mark]:
        marks = []
        for i in range(self.steps + 1):
            value = self.low + (self.top - self.low) * i / self.steps
            y = self.y(value)
            marks.append(Mark("line", LEFT, y, LEFT + self.plot_w, y, stroke=GRID, role="grid"))
            label = f"{value * 100:.3g}%" if self.percent else _fmt(value)
            marks.append(Mark("text", LEFT - 4, y + 3, text=label, anchor="end", size=8, fill=INK))
        marks.append(Mark("line", LEFT, TOP, LEFT, TOP + self.plot_h, stroke=INK))
        marks.append(Mark("text", LEFT + self.plot_w / 2, HEIGHT - 6, text=x_label, fill=INK))
        return marks


def _whisker(x: float, frame: _Frame, low: float, high: float) -> list[Mark]:
    y1, y2 = frame.y(low), frame.y(high)
    return [Mark("line", x, y1, x, y2, stroke=WHISKER, role="whisker"),
            Mark("line", x - 4, y1, x + 4, y1, stroke=WHISKER, role="whisker"),
            Mark("line", x - 4, y2, x + 4, y2, stroke=WHISKER, role="whisker")]


def seat_wins(section: Mapping[str, Any]) -> Chart:
    """Win share by seat with 95 % whiskers, the fair share 1/n dashed across."""
    seats = section["wins"]["by_seat"]
    fair = section["wins"]["fair"]
    frame = _Frame(_nice_top(max([fair, *(s["high"] or s["value"] for s in seats)]) * 1.05), percent=True)
    marks = frame.axes("seat")
    slot = frame.plot_w / len(seats)
    for seat, share in enumerate(seats):
        x = LEFT + slot * (seat + 0.5)
        y = frame.y(share["value"])
        tip = f"seat {seat + 1}: {share['value']:.1%}"
        if share["low"] is not None:
            tip += f" (95 % CI {share['low']:.1%}–{share['high']:.1%})"
        marks.append(Mark("rect", x - slot * 0.3, y, slot * 0.6, frame.y(0) - y, fill=BAR, role="bar",
                          text=tip, data={"seat": seat, **share}))
        if share["low"] is not None:
            marks += _whisker(x, frame, share["low"], share["high"])
        marks.append(Mark("text", x, frame.y(0) + 12, text=str(seat + 1), fill=INK))
    marks.append(Mark("line", LEFT, frame.y(fair), LEFT + frame.plot_w, frame.y(fair), stroke="#b5475a",
                      dash=True, role="fair", data={"value": fair}))
    return Chart(f"wins-{section['id']}", f"Win share by seat: {section['label']}", tuple(marks))


def distribution(section: Mapping[str, Any], name: str, title: str) -> Chart | None:
    """How often each value came up (games for a length, players for scores)."""
    counts = section["distributions"].get(name)
    if not counts:
        return None
    total = sum(c for _, c in counts)
    frame = _Frame(_nice_top(max(c for _, c in counts) / total * 1.05), percent=True)
    low, high = counts[0][0], counts[-1][0]
    marks = frame.axes(title)
    slot = frame.plot_w / (high - low + 1)
    for value, count in counts:
        x = LEFT + slot * (value - low)
        y = frame.y(count / total)
        marks.append(Mark("rect", x + slot * 0.05, y, slot * 0.9, frame.y(0) - y, fill=BAR, role="bar",
                          text=f"{value}: {count:,} ({count / total:.1%})",
                          data={"x": value, "count": count}))
    ticks = sorted({low, high, *(v for v, _ in counts[:: max(1, len(counts) // 6)])})
    for value in ticks:
        marks.append(Mark("text", LEFT + slot * (value - low + 0.5), frame.y(0) + 12, text=str(value),
                          fill=INK, size=8))
    return Chart(f"{name}-{section['id']}", f"{title}: {section['label']}", tuple(marks))


def _figure(section: Mapping[str, Any], metric: str) -> Mapping[str, Any] | None:
    group, _, key = metric.partition(".")
    found = section.get(group, {}).get(key)
    return found if isinstance(found, Mapping) and "value" in found else None


def against_swept(data: Mapping[str, Any], metric: str, title: str) -> Chart | None:
    """A metric against the first swept value (or the player count), one line per player count
    (per other setting when two rules are swept), 95 % whiskers on each point."""
    sections = data["settings"]
    swept = data["swept"]
    first = swept[0]["path"] if swept else None

    def x_of(s: Mapping[str, Any]) -> Any:
        return s["rules"][first] if first else s["players"]

    def series_of(s: Mapping[str, Any]) -> tuple[Any, ...]:
        return (s["players"], *(v for p, v in s["rules"].items() if p != first)) if first else ()

    xs = list(swept[0]["values"]) if swept else sorted({s["players"] for s in sections})
    figures = [(s, _figure(s, metric)) for s in sections]
    points = [(s, f) for s, f in figures if f is not None and f["value"] is not None]
    if len(xs) < 2 or not points or not all(isinstance(x, (int, float)) for x in xs):
        return None
    values = [v for _, f in points for v in (f["low"], f["high"], f["value"]) if v is not None]
    low, top = min(values), max(values)
    if low == top:
        return None  # the same in every setting, intervals and all: nothing to look at
    pad = (top - low) * 0.05
    bottom, top, steps = _nice_range(low - pad, top + pad)
    frame = _Frame(top, bottom, steps=steps)
    marks = frame.axes(swept[0]["path"].removeprefix("rules.") if swept else "players")
    slot = frame.plot_w / len(xs)
    lines: dict[tuple[Any, ...], list[tuple[float, float]]] = {}
    for s, f in points:
        x = LEFT + slot * (xs.index(x_of(s)) + 0.5)
        lines.setdefault(series_of(s), []).append((x, frame.y(f["value"])))
    for i, (series, pts) in enumerate(lines.items()):
        colour = SERIES[i % len(SERIES)]
        for (x1, y1), (x2, y2) in zip(pts, pts[1:], strict=False):
            marks.append(Mark("line", x1, y1, x2, y2, stroke=colour, role="series"))
        name = ", ".join(str(v) for v in series[1:])
        label = f"{series[0]} players{', ' + name if name else ''}" if series else ""
        marks.append(Mark("text", WIDTH - RIGHT, 10 + 9 * i, text=label, anchor="end", fill=colour, size=8))
    for s, f in points:
        x = LEFT + slot * (xs.index(x_of(s)) + 0.5)
        if f["low"] is not None:
            marks += _whisker(x, frame, f["low"], f["high"])
        colour = SERIES[list(lines).index(series_of(s)) % len(SERIES)]
        marks.append(Mark("circle", x, frame.y(f["value"]), 3.0, fill=colour, role="point",
                          text=f"{s['label']}: {_fmt(f['value'])}", data={"setting": s["id"], **f}))
    for x_value in xs:
        marks.append(Mark("text", LEFT + slot * (xs.index(x_value) + 0.5), frame.y(frame.low) + 12,
                          text=str(x_value), fill=INK))
    return Chart(f"{metric}-swept", title, tuple(marks))


# --------------------------------------------------------------------------------------------
# SVG


def _attrs(mark: Mark) -> str:
    parts = [f'fill="{mark.fill}"', f'stroke="{mark.stroke}"']
    if mark.role:
        parts.append(f'class="{mark.role}"')
    if mark.dash:
        parts.append('stroke-dasharray="4 3"')
    parts += [f'data-{key}="{"" if value is None else value}"' for key, value in mark.data.items()]
    return " ".join(parts)


def _r(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def svg(chart: Chart) -> str:
    """The chart as one ``<svg>`` element (no external reference: it is inlined in the page)."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" id="{escape(chart.name)}" class="chart" '
           f'width="{_r(chart.width)}" height="{_r(chart.height)}" viewBox="0 0 {_r(chart.width)} '
           f'{_r(chart.height)}" role="img" aria-label="{escape(chart.title)}">',
           f'<text x="{_r(LEFT)}" y="12" font-size="11" font-weight="bold" fill="{INK}">{escape(chart.title)}</text>']
    for m in chart.marks:
        tip = f"<title>{escape(m.text)}</title>" if m.text and m.kind != "text" else ""
        if m.kind == "rect":
            out.append(f'<rect x="{_r(m.x)}" y="{_r(m.y)}" width="{_r(m.w)}" height="{_r(max(0.0, m.h))}" '
                       f'{_attrs(m)}>{tip}</rect>')
        elif m.kind == "line":
            out.append(f'<line x1="{_r(m.x)}" y1="{_r(m.y)}" x2="{_r(m.w)}" y2="{_r(m.h)}" {_attrs(m)}/>')
        elif m.kind == "circle":
            out.append(f'<circle cx="{_r(m.x)}" cy="{_r(m.y)}" r="{_r(m.w)}" {_attrs(m)}>{tip}</circle>')
        else:
            out.append(f'<text x="{_r(m.x)}" y="{_r(m.y)}" font-size="{_r(m.size)}" text-anchor="{m.anchor}" '
                       f'fill="{m.fill}">{escape(m.text)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def report_charts(data: Mapping[str, Any]) -> list[Chart]:
    """Every chart of a report, in the order the report shows them."""
    charts: list[Chart] = []
    for metric, title in (("scores.winning", "Winning score"), ("scores.spread", "Score spread"),
                          *((f"length.{k}", f"Game length ({k.replace('_', ' ')})")
                            for k in data["settings"][0]["length"])):
        chart = against_swept(data, metric, title)
        if chart:
            charts.append(chart)
    for section in data["settings"]:
        charts.append(seat_wins(section))
        for name, title in (("scores.all", "Scores"), *((f"length.{k}", k.replace('_', ' '))
                                                        for k in section["length"])):
            chart = distribution(section, name, title)
            if chart and len(section["distributions"][name] or []) > 1:
                charts.append(chart)
    return charts

