"""Drawing one component face (a layout filled with a card's fields) on a reportlab canvas.

A face is drawn in its own coordinate system: origin at the bottom-left of the bleed box,
points as units. Layout coordinates are millimetres from the top-left of the trim.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp.core.units import MM
from pnp.data.icons import place_icons
from pnp.data.model import Component, Element, Layout, PrintedTable, Text
from pnp.data.schema import FIELD_REF, font_size, resolve_coord
from pnp.data.spec import ELEMENTS, prop
from pnp.layout.nets import Net
from pnp.render.glyphs import GlyphCheck
from pnp.render.grid import display_grid
from pnp.render.ink import Role, ink_color
from pnp.render.symbols import SymbolForms
from pnp.text.fitcache import fit_text
from pnp.text.fonts import FontFamily, kern_for, measure_for, squeeze_for
from pnp.text.place import place
from pnp.text.setting import EPS, Kern, Run, Squeeze, set_lines
from pnp.text.shrink import Fit

EM_ASCENT = 0.88  # ideographic em box of Noto CJK: 880 above the baseline, 120 below


@dataclass(frozen=True)
class FaceContext:
    """What drawing a face needs besides its layout: size, text, fonts and tables."""

    component: Component
    card_id: str
    fields: Mapping[str, Text]
    width: float  # trim, mm
    height: float
    bleed: float
    fonts: FontFamily
    convert: Callable[[str], str]
    tables: Mapping[str, PrintedTable]
    glyphs: GlyphCheck
    symbols: SymbolForms | None = None  # needed by faces with symbol / icons elements
    ink: str = "full"  # pnp.render.ink.INKS: as designed, or light fills for a home printer

    def font(self, bold: bool) -> str:
        return self.fonts.bold.name if bold else self.fonts.regular.name

    @property
    def measure(self) -> Callable[[str, bool, float], float]:
        # One measure per font family, so break-unit widths cached by textlayout are shared
        # by every card and sheet that sets the same text.
        return measure_for(self.fonts)

    @property
    def squeeze(self) -> Squeeze:
        return squeeze_for(self.fonts)

    @property
    def kern(self) -> Kern:
        return kern_for(self.fonts)

    def fit(self, text: str, bold: bool, box_w: float, box_h: float, size: float,
            min_size: float) -> Fit | None:
        """``text`` fitted to a box of millimetres, its lines set as the rulebook sets a
        paragraph: adjacent punctuation closed up, a line taking one more unit by compressing
        its punctuation (drawn justified by :func:`draw_fitted`)."""
        return fit_text([Run(text, bold)], box_w * MM, box_h * MM, size, min_size, self.measure,
                        squeeze=self.squeeze, kern=self.kern)

    def x(self, mm_from_left: float) -> float:
        return (self.bleed + mm_from_left) * MM

    def y(self, mm_from_top: float) -> float:
        return (self.bleed + self.height - mm_from_top) * MM

    def substitute(self, value: str) -> str:
        return FIELD_REF.sub(lambda m: self.fields[m.group(1)].value, value)

    def text_of(self, element: Element, key: str = "text") -> Text:
        """The converted text of an element and where its words came from."""
        raw = element.props[key]
        refs = FIELD_REF.findall(raw)
        where = self.fields[refs[0]].where if len(refs) == 1 and raw == "{" + refs[0] + "}" \
            else f"{element.where}.{key}"
        return Text(self.convert(self.substitute(raw)), where)

    def describe(self) -> str:
        return f"component {self.component.id!r}, card {self.card_id!r}"


def _color(ctx: FaceContext, value: str | None, role: Role = "fill") -> Any:
    if value is None:
        return None
    return _hex_color(ctx.substitute(value), role, ctx.ink)


@lru_cache(maxsize=4096)
def _hex_color(value: str, role: Role, ink: str) -> Any:
    # Parsing a colour costs more than drawing with it; a face uses a handful, thousands of times.
    return HexColor(ink_color(value, role, ink))


def _saved_fill(ctx: FaceContext, value: str | None) -> bool:
    """Whether a designed fill prints as a light tint in this ink mode."""
    return value is not None and ink_color(ctx.substitute(value), "fill", ctx.ink) \
        != ctx.substitute(value)


def _box(ctx: FaceContext, element: Element) -> tuple[float, float, float, float]:
    x, y, w, h = element.get("box")
    return (resolve_coord(x, ctx.width), resolve_coord(y, ctx.height),
            resolve_coord(w, ctx.width), resolve_coord(h, ctx.height))


def _point(ctx: FaceContext, point: list[Any]) -> tuple[float, float]:
    return ctx.x(resolve_coord(point[0], ctx.width)), ctx.y(resolve_coord(point[1], ctx.height))


OUTLINE = 0.35  # mm: the edge a dark shape keeps when its fill prints as a tint


def _stroke_fill(canvas: Canvas, ctx: FaceContext, element: Element) -> tuple[int, int]:
    fill = _color(ctx, element.get("fill"))
    stroke = _color(ctx, element.get("stroke"), "stroke")
    if fill is not None:
        canvas.setFillColor(fill)
    if stroke is not None:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(float(prop(element, "stroke_width")) * MM)
    elif _saved_fill(ctx, element.get("fill")):
        # The shape keeps its edge in its designed colour.
        canvas.setStrokeColor(HexColor(ctx.substitute(element.get("fill"))))
        canvas.setLineWidth(OUTLINE * MM)
        stroke = fill
    return int(stroke is not None), int(fill is not None)


def draw_fitted(canvas: Canvas, ctx: FaceContext, fit: Fit, box: tuple[float, float, float, float],
                align: str, valign: str, color: Any, where: str) -> None:
    """Draw already-fitted lines inside a box given in trim millimetres, as the rulebook sets
    a paragraph: a wrapped line is justified to the box's width, adjacent punctuation closes
    up; the last line of a paragraph (and a line ended by a newline, so a text of one short
    line) keeps its natural width and the declared alignment."""
    x, y, w, h = box
    size_mm = fit.size / MM
    leading_mm = fit.leading / MM
    block = (len(fit.setting) - 1) * leading_mm + size_mm
    top = {"top": y, "middle": y + (h - block) / 2, "bottom": y + h - block}[valign]
    canvas.setFillColor(color)
    for index, line in enumerate(fit.setting):
        stretches = place(line, w * MM, fit.size, ctx.measure, ctx.squeeze, True, ctx.kern)
        if not stretches:
            continue
        for run in line.runs:
            ctx.glyphs.check(run.text, run.bold, where)
        # A justified line spans the box; so does one whose punctuation was squeezed to fit it.
        spans = line.width > w * MM + EPS or any(stretch.char_space for stretch in stretches)
        width = w if spans else line.width / MM
        left = {"left": x, "center": x + (w - width) / 2, "right": x + w - width}[align]
        baseline = top + index * leading_mm + size_mm * EM_ASCENT
        text = canvas.beginText()
        font, char_space = "", 0.0
        for stretch in stretches:
            name = ctx.font(stretch.bold)
            if name != font:
                text.setFont(name, fit.size)
                font = name
            if stretch.char_space != char_space:
                text.setCharSpace(stretch.char_space)
                char_space = stretch.char_space
            text.setTextOrigin(ctx.x(left) + stretch.x, ctx.y(baseline))
            text.textOut(stretch.text)
        if char_space:
            text.setCharSpace(0)  # Tc outlives the text object; later strings start from 0
        canvas.drawText(text)


def fit_or_fail(ctx: FaceContext, text: Text, bold: bool, box_w: float, box_h: float,
                size: float, min_size: float, what: str) -> Fit:
    """The fitted text; below ``min_size`` a problem is recorded and the text overflows."""
    fit = ctx.fit(text.value, bold, box_w, box_h, size, min_size)
    if fit is None:
        ctx.glyphs.overflow(
            f"{text.where}: {what} {text.value!r} does not fit its {box_w:g}×{box_h:g} mm box "
            f"even at the smallest allowed size {min_size:g}pt ({ctx.describe()}); "
            "shorten the text, enlarge the box or lower min_size"
        )
        lines = set_lines([Run(text.value, bold)], box_w * MM, min_size, ctx.measure, ctx.squeeze,
                          kern=ctx.kern)
        fit = Fit(min_size, min_size * 1.3, tuple(lines))
    return fit


def _draw_text(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    box = _box(ctx, element)
    size = font_size(element.get("size"))
    min_size = font_size(element.get("min_size", size))
    bold = bool(prop(element, "bold"))
    text = ctx.text_of(element)
    fit = fit_or_fail(ctx, text, bold, box[2], box[3], size, min_size, "text")
    draw_fitted(canvas, ctx, fit, box, prop(element, "align"), prop(element, "valign"),
                _color(ctx, prop(element, "color"), "text"), text.where)


def _draw_boxes(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    x, y, w, h = _box(ctx, element)
    labels = [Text(ctx.convert(ctx.substitute(label)), f"{element.where}.labels")
              for label in element.get("labels")]
    gap = 1.0
    cell = (w - gap * (len(labels) - 1)) / len(labels)
    size = font_size(element.get("size"))
    min_size = font_size(element.get("min_size", size))
    fits = [fit_or_fail(ctx, label, True, cell - 1, h - 1, size, min_size, "box label")
            for label in labels]
    common = min(fit.size for fit in fits)
    fits = [fit_or_fail(ctx, label, True, cell - 1, h - 1, common, common, "box label")
            for label in labels]
    for index, fit in enumerate(fits):
        left = x + index * (cell + gap)
        stroke, fill = _stroke_fill(canvas, ctx, element)
        canvas.roundRect(ctx.x(left), ctx.y(y + h), cell * MM, h * MM, 0.8 * MM,
                         stroke=stroke, fill=fill)
        draw_fitted(canvas, ctx, fit, (left + 0.5, y + 0.5, cell - 1, h - 1), "center", "middle",
                    _color(ctx, prop(element, "color"), "text"), labels[index].where)


def _draw_table(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    table = ctx.tables[element.get("table")]
    x, y, w, h = _box(ctx, element)
    grid = display_grid(table, ctx.convert)
    header = grid[0]
    # A card is narrow: a table with more rows than columns is printed turned on its side.
    transposed = len(grid) > len(header)
    if transposed:
        grid = [list(col) for col in zip(*grid, strict=True)]
    n_rows, n_cols = len(grid), len(grid[0])
    label_w = w * 0.4 if transposed else w / n_cols
    other_w = (w - label_w) / max(1, n_cols - 1)
    col_w = [label_w] + [other_w] * (n_cols - 1)
    row_h = h / n_rows
    size = font_size(element.get("size"))
    min_size = font_size(element.get("min_size", size))
    def fits_at(candidate: float) -> bool:
        return all(
            ctx.fit(cell.value, r == 0 or c == 0, col_w[c] - 1.2, row_h - 0.8, candidate,
                    candidate) is not None
            for r, row in enumerate(grid) for c, cell in enumerate(row)
        )

    chosen = size
    fitting = fits_at(chosen)
    while chosen > min_size and not fitting:
        chosen = round(chosen - 0.25, 4)
        fitting = fits_at(chosen)
    if not fitting:
        # One problem for the table, not one per cell: the cure is a bigger box or a smaller
        # table, whichever cell overflows first.
        need_w = sum(max(ctx.measure(row[c].value, r == 0 or c == 0, chosen) for r, row in enumerate(grid))
                     / MM + 1.2 for c in range(n_cols))
        need_h = n_rows * (chosen * 1.3 / MM + 0.8)
        ctx.glyphs.overflow(
            f"{element.where}: printed table {table.name!r} ({n_rows}×{n_cols} cells) does not fit its "
            f"{w:g}×{h:g} mm box even at {chosen:g}pt ({ctx.describe()}); it needs about "
            f"{need_w:.0f}×{need_h:.0f} mm: enlarge the box, lower min_size or shorten the table")
        return
    fits = [[fit_or_fail(ctx, cell, r == 0 or c == 0, col_w[c] - 1.2, row_h - 0.8,
                         chosen, chosen, "table cell")
             for c, cell in enumerate(row)] for r, row in enumerate(grid)]
    stroke = _color(ctx, prop(element, "stroke"), "stroke")
    header_fill = _color(ctx, element.get("header_fill"))
    text_color = _color(ctx, prop(element, "color"), "text")
    header_color = _color(ctx, element.get("header_color"), "text") or text_color
    for r in range(n_rows):
        left = x
        for c in range(n_cols):
            is_header = (c == 0) if transposed else (r == 0)
            top = y + r * row_h
            canvas.setStrokeColor(stroke)
            canvas.setLineWidth(0.25 * MM)
            if is_header and header_fill is not None:
                canvas.setFillColor(header_fill)
                canvas.rect(ctx.x(left), ctx.y(top + row_h), col_w[c] * MM, row_h * MM, stroke=1, fill=1)
            else:
                canvas.rect(ctx.x(left), ctx.y(top + row_h), col_w[c] * MM, row_h * MM, stroke=1, fill=0)
            draw_fitted(canvas, ctx, fits[r][c], (left + 0.6, top + 0.4, col_w[c] - 1.2, row_h - 0.8),
                        "center", "middle", header_color if is_header else text_color,
                        grid[r][c].where)
            left += col_w[c]


def _symbol_colors(ctx: FaceContext, element: Element) -> tuple[str | None, str | None]:
    fill, stroke = element.get("fill"), element.get("stroke")
    return (ctx.substitute(fill) if fill else None, ctx.substitute(stroke) if stroke else None)


def _draw_symbol(ctx: FaceContext, element: Element) -> None:
    assert ctx.symbols is not None, "faces with symbols need FaceContext.symbols"
    x, y, w, h = _box(ctx, element)
    fill, stroke = _symbol_colors(ctx, element)
    ctx.symbols.place(ctx.substitute(element.get("symbol")), ctx.x(x), ctx.y(y + h), w * MM, h * MM,
                      fill, stroke)


def _draw_icons(ctx: FaceContext, element: Element) -> None:
    """``count`` copies of a symbol, wrapped and centred exactly as validation placed them."""
    assert ctx.symbols is not None, "faces with icons need FaceContext.symbols"
    x, y, w, h = _box(ctx, element)
    name = ctx.substitute(element.get("symbol"))
    raw = element.get("count")
    count = raw if isinstance(raw, int) else int(ctx.substitute(raw).strip())
    size = float(element.get("size"))
    icon_w = size * ctx.symbols.symbols[name].aspect
    spots = place_icons(count, w, h, icon_w, size, float(prop(element, "gap")))
    assert spots is not None, f"{element.where}: icons that do not fit passed validation"
    fill, stroke = _symbol_colors(ctx, element)
    for left, top in spots:
        ctx.symbols.place(name, ctx.x(x + left), ctx.y(y + top + size), icon_w * MM, size * MM,
                          fill, stroke)


def _draw_grid(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    """A blank form: a header row of column labels, optional row labels down the first column."""
    x, y, w, h = _box(ctx, element)
    columns = [Text(ctx.convert(ctx.substitute(label)), f"{element.where}.columns")
               for label in element.get("columns")]
    row_labels = [Text(ctx.convert(ctx.substitute(label)), f"{element.where}.row_labels")
                  for label in element.get("row_labels", [])]
    rows = int(element.get("rows"))
    weights = element.get("column_widths") or [1] * len(columns)
    col_w = [w * float(weight) / sum(weights) for weight in weights]
    header_h = float(element.get("header_height", h / (rows + 1)))
    row_h = (h - header_h) / rows
    cells = [(label, True, 0, c) for c, label in enumerate(columns)]
    cells += [(label, False, r + 1, 0) for r, label in enumerate(row_labels)]
    cells = [cell for cell in cells if cell[0].value]

    def box_of(r: int, c: int) -> tuple[float, float, float, float]:
        top = y if r == 0 else y + header_h + (r - 1) * row_h
        return (x + sum(col_w[:c]) + 0.6, top + 0.4, col_w[c] - 1.2, (header_h if r == 0 else row_h) - 0.8)

    size = font_size(element.get("size"))
    min_size = font_size(element.get("min_size", size))

    def fits_at(candidate: float) -> bool:
        return all(ctx.fit(label.value, bold, box_of(r, c)[2], box_of(r, c)[3], candidate,
                           candidate) is not None
                   for label, bold, r, c in cells)

    # One size for every label: a form whose headings shrink one by one looks broken.
    chosen = size
    while chosen > min_size and not fits_at(chosen):
        chosen = max(min_size, round(chosen - 0.25, 4))
    header_fill = _color(ctx, element.get("header_fill"))
    if header_fill is not None:
        canvas.setFillColor(header_fill)
        canvas.rect(ctx.x(x), ctx.y(y + header_h), w * MM, header_h * MM, stroke=0, fill=1)
    canvas.setStrokeColor(_color(ctx, prop(element, "stroke"), "stroke"))
    canvas.setLineWidth(float(prop(element, "stroke_width")) * MM)
    canvas.rect(ctx.x(x), ctx.y(y + h), w * MM, h * MM, stroke=1, fill=0)
    for r in range(rows):  # under the header, then between body rows
        line_y = y + header_h + r * row_h
        canvas.line(ctx.x(x), ctx.y(line_y), ctx.x(x + w), ctx.y(line_y))
    left = x
    for width in col_w[:-1]:
        left += width
        canvas.line(ctx.x(left), ctx.y(y), ctx.x(left), ctx.y(y + h))
    text_color = _color(ctx, prop(element, "color"), "text")
    header_color = _color(ctx, element.get("header_color"), "text") or text_color
    for label, bold, r, c in cells:
        box = box_of(r, c)
        fit = fit_or_fail(ctx, label, bold, box[2], box[3], chosen, chosen,
                          "grid column label" if r == 0 else "grid row label")
        draw_fitted(canvas, ctx, fit, box, "center", "middle", header_color if r == 0 else text_color,
                    label.where)


def _draw_rect(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    x, y, w, h = _box(ctx, element)
    stroke, fill = _stroke_fill(canvas, ctx, element)
    radius = resolve_coord(prop(element, "radius"), min(ctx.width, ctx.height))
    canvas.roundRect(ctx.x(x), ctx.y(y + h), w * MM, h * MM, radius * MM, stroke=stroke, fill=fill)


def _draw_circle(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    cx, cy = _point(ctx, element.get("center"))
    radius = resolve_coord(element.get("r"), min(ctx.width, ctx.height))
    stroke, fill = _stroke_fill(canvas, ctx, element)
    canvas.circle(cx, cy, radius * MM, stroke=stroke, fill=fill)


def _draw_line(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    stroke = _color(ctx, element.get("stroke"), "stroke")
    if stroke is not None:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(float(prop(element, "stroke_width")) * MM)
    canvas.setLineCap(1)
    canvas.setLineJoin(1)
    if element.get("dash"):
        canvas.setDash([d * MM for d in element.get("dash")])
    path = canvas.beginPath()
    points = [_point(ctx, p) for p in element.get("points")]
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    canvas.drawPath(path, stroke=1, fill=0)


Draw = Callable[[Canvas, FaceContext, Element], None]

# One drawer per element kind of the spec (pnp/data/spec.py); the check below keeps them in step.
DRAWERS: dict[str, Draw] = {
    "rect": _draw_rect,
    "circle": _draw_circle,
    "line": _draw_line,
    "text": _draw_text,
    "boxes": _draw_boxes,
    "table": _draw_table,
    "symbol": lambda canvas, ctx, element: _draw_symbol(ctx, element),
    "icons": lambda canvas, ctx, element: _draw_icons(ctx, element),
    "grid": _draw_grid,
}
if set(DRAWERS) != set(ELEMENTS):
    raise ImportError(f"element kinds without a drawer or spec: {sorted(set(DRAWERS) ^ set(ELEMENTS))}")


def _draw_element(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    turn = element.get("turn")
    if turn != "half":
        _draw_one(canvas, ctx, element)
    if turn in ("half", "both"):
        # Half a turn about the trim's centre, which is also the bleed box's centre.
        canvas.saveState()
        canvas.translate((ctx.width + 2 * ctx.bleed) * MM, (ctx.height + 2 * ctx.bleed) * MM)
        canvas.rotate(180)
        _draw_one(canvas, ctx, element)
        canvas.restoreState()


def _draw_one(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    canvas.saveState()
    DRAWERS[element.kind](canvas, ctx, element)
    canvas.restoreState()


def draw_background(canvas: Canvas, ctx: FaceContext, layout: Layout, round_shape: bool) -> None:
    canvas.setFillColor(_color(ctx, layout.background))
    full_w = (ctx.width + 2 * ctx.bleed) * MM
    full_h = (ctx.height + 2 * ctx.bleed) * MM
    if round_shape:
        canvas.circle(full_w / 2, full_h / 2, min(full_w, full_h) / 2, stroke=0, fill=1)
    else:
        canvas.rect(0, 0, full_w, full_h, stroke=0, fill=1)


def draw_layout(canvas: Canvas, ctx: FaceContext, layout: Layout, round_shape: bool = False) -> None:
    """Background into the bleed, then every element in order."""
    canvas.saveState()
    draw_background(canvas, ctx, layout, round_shape)
    for element in layout.elements:
        _draw_element(canvas, ctx, element)
    canvas.restoreState()


def draw_net(canvas: Canvas, ctx: FaceContext, net: Net) -> None:
    """A dice net: coloured faces, grey glue tabs, solid cut lines and dashed fold lines."""
    style = ctx.component.net_style
    fill = _color(ctx, style.get("fill", "#ffffff"))
    stroke = _color(ctx, style.get("stroke", "#000000"), "stroke")
    ink = _color(ctx, style.get("color", "#000000"), "text")

    def poly(points: tuple[tuple[float, float], ...], color: Any) -> None:
        path = canvas.beginPath()
        path.moveTo(ctx.x(points[0][0]), ctx.y(points[0][1]))
        for px, py in points[1:]:
            path.lineTo(ctx.x(px), ctx.y(py))
        path.close()
        canvas.setFillColor(color)
        canvas.drawPath(path, stroke=0, fill=1)

    canvas.saveState()
    for face in net.faces:
        poly(face, fill)
    for tab in net.tabs:
        poly(tab, HexColor("#d9d4c8"))
    canvas.setStrokeColor(stroke)
    canvas.setLineWidth(0.3 * MM)
    for (x1, y1), (x2, y2) in net.cuts:
        canvas.line(ctx.x(x1), ctx.y(y1), ctx.x(x2), ctx.y(y2))
    canvas.setDash([1.2 * MM, 1.0 * MM])
    canvas.setLineWidth(0.2 * MM)
    for (x1, y1), (x2, y2) in net.folds:
        canvas.line(ctx.x(x1), ctx.y(y1), ctx.x(x2), ctx.y(y2))
    canvas.setDash([])
    canvas.setFillColor(ink)
    for label in net.labels:
        size = label.size * MM / EM_ASCENT
        text = ctx.convert(label.text)
        ctx.glyphs.check(text, True, ctx.component.where + ": faces")
        canvas.saveState()
        canvas.translate(ctx.x(label.x), ctx.y(label.y))
        canvas.rotate(label.angle)
        canvas.setFont(ctx.font(True), size)
        # Centre on the em box so the figure sits in the middle of its face.
        canvas.drawCentredString(0, -size * (EM_ASCENT - 0.5), text)
        canvas.restoreState()
    canvas.restoreState()


def dashed_line(canvas: Canvas, color: Color, x1: float, y1: float, x2: float, y2: float) -> None:
    """A line to fold or cut along (points): 0.25 mm, dashes of 2 mm with 1.5 mm gaps; a
    fold and a cut differ by colour only."""
    canvas.saveState()
    canvas.setStrokeColor(color)
    canvas.setLineWidth(0.25 * MM)
    canvas.setDash([2 * MM, 1.5 * MM])
    canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def draw_fold_line(canvas: Canvas, ctx: FaceContext, y_mm: float) -> None:
    dashed_line(canvas, HexColor("#9a9080"), 0, ctx.y(y_mm), (ctx.width + 2 * ctx.bleed) * MM, ctx.y(y_mm))


def draw_fold(canvas: Canvas, ctx: FaceContext, outer: Layout, inner: Layout) -> None:
    """A screen strip: the outer panel below the fold, the inner one above it turned half round
    so that both read upright once the strip is folded into a standing tent."""
    panel_h = ctx.height / 2
    panel = replace(ctx, height=panel_h)
    full_w = (ctx.width + 2 * ctx.bleed) * MM
    full_h = (ctx.height + 2 * ctx.bleed) * MM
    fold = (ctx.bleed + panel_h) * MM
    for layout, low, high, turned in ((outer, 0.0, fold, False), (inner, fold, full_h, True)):
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(0, low, full_w, high - low)
        canvas.clipPath(clip, stroke=0, fill=0)
        if turned:
            canvas.translate(full_w, full_h)
            canvas.rotate(180)
        draw_layout(canvas, panel, layout)
        canvas.restoreState()
    draw_fold_line(canvas, ctx, panel_h)
