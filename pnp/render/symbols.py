"""Symbols as PDF forms: each drawn once, then placed by every ``symbol`` and ``icons`` element.

A symbol becomes the form ``sym-<name>`` the first time a face uses it; every icon on every
card is one ``Do`` of that form, so the PDF stays small however many icons a deck prints,
and tests can count icons in the file itself. A layout that overrides a symbol's colours
gets its own form, ``sym-<name>.f<rrggbb>.s<rrggbb>`` (only the overridden parts named):
a form's colours are fixed when it is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas

from pnp.data.model import Symbol
from pnp.render.ink import LIGHT, luminance, shade

_FORM_PREFIX = "sym-"


def symbol_form_name(name: str, fill: str | None = None, stroke: str | None = None) -> str:
    suffix = (f".f{fill[1:].lower()}" if fill else "") + (f".s{stroke[1:].lower()}" if stroke else "")
    return f"{_FORM_PREFIX}{name}{suffix}"


def _margin(symbol: Symbol) -> float:
    # A form clips to its box; strokes reach half their width (more at joins) outside the path.
    return max((p.stroke_width for p in symbol.paths if p.stroke), default=0.0)


OUTLINE = 0.025  # of the viewbox: the edge a light part gets in ink-saver mode


def _saver_edge(fill: str | None, stroke: str | None) -> str | None:
    """In ink-saver mode, the outline colour a symbol's path needs, if any. Symbols are small,
    so their dark parts stay; a light part with no dark edge was drawn to stand out on a dark
    fill that now prints as a tint, so it gets an edge in a deep shade of its own colour."""
    if fill is None or luminance(fill) <= LIGHT:
        return None
    if stroke is not None and luminance(stroke) <= LIGHT:
        return None
    return shade(fill)


def _draw_symbol(canvas: Canvas, symbol: Symbol, fill: str | None, stroke: str | None,
                 ink: str = "full") -> None:
    """The symbol in viewbox units with y turned up: one viewbox unit is one point."""
    vx, vy, _, vh = symbol.viewbox
    canvas.setLineJoin(1)
    canvas.setLineCap(1)
    for item in symbol.paths:
        path = canvas.beginPath()
        for segment in item.segments:
            points = [(x - vx, vh - (y - vy)) for x, y in segment.points]
            if segment.op == "M":
                path.moveTo(*points[0])
            elif segment.op == "L":
                path.lineTo(*points[0])
            elif segment.op == "C":
                path.curveTo(*points[0], *points[1], *points[2])
            else:
                path.close()
        paint_fill = item.fill is not None
        paint_stroke = item.stroke is not None and item.stroke_width > 0
        path_fill = (fill or item.fill) if paint_fill else None
        path_stroke = (stroke or item.stroke) if paint_stroke else None
        width = item.stroke_width
        edge = _saver_edge(path_fill, path_stroke) if ink == "saver" else None
        if edge is not None:
            path_stroke, paint_stroke = edge, True
            width = max(width, OUTLINE * max(symbol.viewbox[2], symbol.viewbox[3]))
        if path_fill is not None:
            canvas.setFillColor(HexColor(path_fill))
        if path_stroke is not None:
            canvas.setStrokeColor(HexColor(path_stroke))
            canvas.setLineWidth(width)
        canvas.drawPath(path, stroke=int(paint_stroke), fill=int(paint_fill),
                        fillMode=FILL_EVEN_ODD if item.even_odd else FILL_NON_ZERO)


class SymbolForms:
    """The symbol forms of one canvas, each defined on first use. A holder,
    so a plain class (docs/architecture.md, "Start-up")."""

    def __init__(self, canvas: Canvas, symbols: Mapping[str, Symbol], ink: str = "full") -> None:
        self.canvas = canvas
        self.symbols = symbols
        self.ink = ink  # one ink mode per canvas, so a form's name need not say it
        self.defined: set[str] = set()

    def form(self, name: str, fill: str | None = None, stroke: str | None = None) -> str:
        form = symbol_form_name(name, fill, stroke)
        if form not in self.defined:
            symbol = self.symbols[name]
            margin = _margin(symbol)
            _, _, vw, vh = symbol.viewbox
            # Defining a form while another is open is fine: reportlab stacks the open one.
            self.canvas.beginForm(form, -margin, -margin, vw + margin, vh + margin)
            _draw_symbol(self.canvas, symbol, fill, stroke, self.ink)
            self.canvas.endForm()
            self.defined.add(form)
        return form

    def is_form(self, form: str) -> bool:
        """Whether ``form`` names a form of this module (a symbol in some colours)."""
        return form.startswith(_FORM_PREFIX) and form.removeprefix(_FORM_PREFIX).split(".", 1)[0] in self.symbols

    def place(self, name: str, x: float, y: float, width: float, height: float,
              fill: str | None = None, stroke: str | None = None) -> None:
        """One symbol scaled into the box (points, y up, (x, y) its bottom-left), aspect kept,
        centred."""
        symbol = self.symbols[name]
        form = self.form(name, fill, stroke)
        _, _, vw, vh = symbol.viewbox
        scale = min(width / vw, height / vh)
        canvas = self.canvas
        canvas.saveState()
        canvas.translate(x + (width - vw * scale) / 2, y + (height - vh * scale) / 2)
        canvas.scale(scale, scale)
        canvas.doForm(form)
        canvas.restoreState()
