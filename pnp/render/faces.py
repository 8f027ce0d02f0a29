"""Drawing one component face (a layout filled with a card's fields) on a reportlab canvas:
its background into the bleed, then each element by the drawer of its kind (shapes and
symbols here; text in pnp.render.face_text, tables and forms in pnp.render.face_tables),
turned half round when the element asks. What a face is drawn with is
pnp.render.face_context; faces that fold are pnp.render.folding.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.core.units import MM
from pnp.data.icons import place_icons
from pnp.data.images import element_placement
from pnp.data.model import Element, Layout
from pnp.data.schema import resolve_coord
from pnp.data.spec import ELEMENTS, prop
from pnp.render.face_context import FaceContext, element_box, face_color, stroke_fill
from pnp.render.face_tables import draw_grid, draw_table
from pnp.render.face_text import draw_boxes, draw_text


def _point(ctx: FaceContext, point: list[Any]) -> tuple[float, float]:
    return ctx.x(resolve_coord(point[0], ctx.width)), ctx.y(resolve_coord(point[1], ctx.height))


def _draw_rect(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    x, y, w, h = element_box(ctx, element)
    stroke, fill = stroke_fill(canvas, ctx, element)
    radius = resolve_coord(prop(element, "radius"), min(ctx.width, ctx.height))
    canvas.roundRect(ctx.x(x), ctx.y(y + h), w * MM, h * MM, radius * MM, stroke=stroke, fill=fill)


def _draw_circle(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    cx, cy = _point(ctx, element.get("center"))
    radius = resolve_coord(element.get("r"), min(ctx.width, ctx.height))
    stroke, fill = stroke_fill(canvas, ctx, element)
    canvas.circle(cx, cy, radius * MM, stroke=stroke, fill=fill)


def _draw_line(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    stroke = face_color(ctx, element.get("stroke"), "stroke")
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


def _symbol_colors(ctx: FaceContext, element: Element) -> tuple[str | None, str | None]:
    fill, stroke = element.get("fill"), element.get("stroke")
    return (ctx.substitute(fill) if fill else None, ctx.substitute(stroke) if stroke else None)


def _draw_symbol(ctx: FaceContext, element: Element) -> None:
    assert ctx.symbols is not None, "faces with symbols need FaceContext.symbols"
    x, y, w, h = element_box(ctx, element)
    fill, stroke = _symbol_colors(ctx, element)
    ctx.symbols.place(ctx.substitute(element.get("symbol")), ctx.x(x), ctx.y(y + h), w * MM, h * MM,
                      fill, stroke)


def _draw_icons(ctx: FaceContext, element: Element) -> None:
    """``count`` copies of a symbol, wrapped and centred exactly as validation placed them."""
    assert ctx.symbols is not None, "faces with icons need FaceContext.symbols"
    x, y, w, h = element_box(ctx, element)
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


def _draw_image(ctx: FaceContext, element: Element) -> None:
    """The picture the element (or the card's field) names, placed as the checks measured it."""
    assert ctx.images is not None, "faces with images need FaceContext.images"
    image = ctx.images.images[ctx.substitute(str(element.get("file"))).strip()]
    placement = element_placement(element, image, (ctx.width, ctx.height), ctx.bleed)
    ctx.images.place(image, placement, ctx.x, ctx.y, MM, float(prop(element, "opacity")))


Draw = Callable[[Canvas, FaceContext, Element], None]

# One drawer per element kind of the spec (pnp/data/spec.py); the check below keeps them in step.
DRAWERS: dict[str, Draw] = {
    "rect": _draw_rect,
    "circle": _draw_circle,
    "line": _draw_line,
    "text": draw_text,
    "boxes": draw_boxes,
    "table": draw_table,
    "symbol": lambda canvas, ctx, element: _draw_symbol(ctx, element),
    "icons": lambda canvas, ctx, element: _draw_icons(ctx, element),
    "grid": draw_grid,
    "image": lambda canvas, ctx, element: _draw_image(ctx, element),
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
    canvas.setFillColor(face_color(ctx, layout.background))
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
