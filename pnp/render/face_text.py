"""Text on a face: fitted to its box in trim millimetres (shrunk no further than its min_size,
or recorded as overflowing) and drawn as the rulebook sets a paragraph; the ``text`` and
``boxes`` (labelled boxes) elements.
"""

from __future__ import annotations

from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.core.units import MM
from pnp.data.model import Element, Text
from pnp.data.schema import font_size
from pnp.data.spec import prop
from pnp.render.face_context import FaceContext, element_box, face_color, stroke_fill
from pnp.text.linetypes import EPS
from pnp.text.place import place
from pnp.text.setting import set_lines
from pnp.text.shrink import Fit

EM_ASCENT = 0.88  # ideographic em box of Noto CJK: 880 above the baseline, 120 below


def draw_fitted(canvas: Canvas, ctx: FaceContext, fit: Fit, box: tuple[float, float, float, float],
                align: str, valign: str, color: Any, where: str) -> None:
    """Draw already-fitted lines inside a box given in trim millimetres, as the rulebook sets
    a paragraph: a wrapped line is justified to the box's width, adjacent punctuation closes
    up; the last line of a paragraph (and a line ended by a newline, so a text of one short
    line) keeps its natural width and the declared alignment. A run's own colour prints in
    place of ``color``; an inline icon is drawn in its em square, after the line's text."""
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
            if run.icon is None:
                ctx.glyphs.check(run.text, run.bold, where, ctx.fonts)
        # A justified line spans the box; so does one whose punctuation was squeezed to fit it.
        spans = line.width > w * MM + EPS or any(stretch.char_space for stretch in stretches)
        width = w if spans else line.width / MM
        left = {"left": x, "center": x + (w - width) / 2, "right": x + w - width}[align]
        baseline = top + index * leading_mm + size_mm * EM_ASCENT
        text = canvas.beginText()
        font, char_space, colour = "", 0.0, None
        icons: list[tuple[str, float, str | None]] = []
        for stretch in stretches:
            if stretch.icon is not None:
                icons.append((stretch.icon, ctx.x(left) + stretch.x, stretch.colour))
                continue
            name = ctx.font(stretch.bold)
            if name != font:
                text.setFont(name, fit.size)
                font = name
            if stretch.char_space != char_space:
                text.setCharSpace(stretch.char_space)
                char_space = stretch.char_space
            if stretch.colour != colour:
                text.setFillColor(face_color(ctx, stretch.colour, "text") if stretch.colour else color)
                colour = stretch.colour
            text.setTextOrigin(ctx.x(left) + stretch.x, ctx.y(baseline))
            text.textOut(stretch.text)
        if char_space:
            text.setCharSpace(0)  # Tc outlives the text object; later strings start from 0
        if colour is not None:
            text.setFillColor(color)  # so does the fill colour
        canvas.drawText(text)
        for name, at, span in icons:
            assert ctx.icons is not None  # a run names an icon only when the game has it
            ctx.icons.place(name, at, ctx.y(baseline), fit.size,
                            face_color(ctx, span, "text") if span else None, color)


def fit_or_fail(ctx: FaceContext, text: Text, bold: bool, box_w: float, box_h: float,
                size: float, min_size: float, what: str, markup: bool = False) -> Fit:
    """The fitted text; below ``min_size`` a problem is recorded and the text overflows."""
    fit = ctx.fit(text.value, bold, box_w, box_h, size, min_size, markup)
    if fit is None:
        ctx.glyphs.overflow(
            f"{text.where}: {what} {text.value!r} does not fit its {box_w:g}×{box_h:g} mm box "
            f"even at the smallest allowed size {min_size:g}pt ({ctx.describe()}); "
            "shorten the text, enlarge the box or lower min_size"
        )
        lines = set_lines(ctx.runs(text.value, bold, markup), box_w * MM, min_size, ctx.measure,
                          ctx.squeeze, kern=ctx.kern)
        fit = Fit(min_size, min_size * 1.3, tuple(lines))
    return fit


def draw_text(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    ctx = ctx.with_font(element.get("font"))
    box = element_box(ctx, element)
    size = font_size(element.get("size"))
    min_size = font_size(element.get("min_size", size))
    bold = bool(prop(element, "bold"))
    text = ctx.text_of(element)
    if prop(element, "direction") == "vertical":
        # Vertical setting (its fitter, the fonts' vert forms) is imported by the first face
        # that sets a column: most faces and most builds have none.
        from pnp.render.face_vertical import draw_vertical

        draw_vertical(canvas, ctx, element, text, bold, box, size, min_size,
                      face_color(ctx, prop(element, "color"), "text"))
        return
    fit = fit_or_fail(ctx, text, bold, box[2], box[3], size, min_size, "text", markup=True)
    draw_fitted(canvas, ctx, fit, box, prop(element, "align"), prop(element, "valign"),
                face_color(ctx, prop(element, "color"), "text"), text.where)


def draw_boxes(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    ctx = ctx.with_font(element.get("font"))
    x, y, w, h = element_box(ctx, element)
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
        stroke, fill = stroke_fill(canvas, ctx, element)
        canvas.roundRect(ctx.x(left), ctx.y(y + h), cell * MM, h * MM, 0.8 * MM,
                         stroke=stroke, fill=fill)
        draw_fitted(canvas, ctx, fit, (left + 0.5, y + 0.5, cell - 1, h - 1), "center", "middle",
                    face_color(ctx, prop(element, "color"), "text"), labels[index].where)
