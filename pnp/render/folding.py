"""Faces that fold and the lines to fold or cut along: a dice net (faces, glue tabs, cut and
fold lines, figures), a screen strip whose two panels fold into a standing tent, and the
dashed line sheets and aids print for a fold or a cut.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp.core.units import MM
from pnp.data.model import Layout
from pnp.render.face_context import FaceContext, face_color
from pnp.render.face_text import EM_ASCENT
from pnp.render.faces import draw_layout

if TYPE_CHECKING:
    from pnp.layout.nets import Net


def draw_net(canvas: Canvas, ctx: FaceContext, net: Net) -> None:
    """A dice net: coloured faces, grey glue tabs, solid cut lines and dashed fold lines."""
    style = ctx.component.net_style
    fill = face_color(ctx, style.get("fill", "#ffffff"))
    stroke = face_color(ctx, style.get("stroke", "#000000"), "stroke")
    ink = face_color(ctx, style.get("color", "#000000"), "text")

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
