"""Vertical text on a face (``direction: vertical``): the columns pnp.text.vertical sets,
drawn right to left, each top to bottom, its punctuation in the face's vertical forms.

A cell is an em square. An upright character is drawn centred across the column with its em
box in the cell (the ideographic em of Noto CJK: 0.88 em above the baseline, 0.12 below); a
character the face's ``vert`` feature substitutes is drawn in the companion font of its
vertical forms (pnp.text.vertforms), under its own code point. 縱中橫 (``across``) sets a
number across the cell, pressed to the em when wider; a turned run reads down the column,
turned a quarter clockwise, its baseline 0.12 em right of the column's left edge. An inline
icon stands upright in its cell, the em square it fills on a horizontal line.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.core.units import MM
from pnp.data.model import Element, Text
from pnp.render.face_context import FaceContext, face_color
from pnp.text.fonts import FontFace, FontFamily, measure_for
from pnp.text.linetypes import Run
from pnp.text.vertforms import vertical_face, vertical_forms
from pnp.text.vertical import Cell, EmMeasure, VerticalFit, fit_columns

EM_ASCENT = 0.88  # as pnp.render.face_text: the ideographic em box of Noto CJK
EM_DESCENT = 1 - EM_ASCENT


@cache
def em_measure(family: FontFamily) -> EmMeasure:
    """Advance widths in ems for a family's faces (one function per family, so fits are
    cached by it)."""
    measure = measure_for(family)

    def em(text: str, bold: bool) -> float:
        return measure(text, bold, 1000.0) / 1000.0

    return em


def fit_vertical(ctx: FaceContext, text: Text, runs: Sequence[Run], box: tuple[float, float, float, float],
                 size: float, min_size: float) -> VerticalFit | None:
    """The text's columns fitted to a box in trim millimetres; below ``min_size`` a problem
    naming the text's place is recorded (the build then writes nothing) and None returned."""
    _, _, w, h = box
    fit = fit_columns(runs, w * MM, h * MM, size, min_size, em_measure(ctx.fonts))
    if fit is None:
        ctx.glyphs.overflow(
            f"{text.where}: vertical text {text.value!r} does not fit its {w:g}×{h:g} mm box even at "
            f"the smallest allowed size {min_size:g}pt ({ctx.describe()}); shorten the text, "
            "lengthen or widen the box or lower min_size"
        )
    return fit


def draw_vertical(canvas: Canvas, ctx: FaceContext, element: Element, text: Text, bold: bool,
                  box: tuple[float, float, float, float], size: float, min_size: float,
                  color: Any) -> None:
    """Draw a ``direction: vertical`` text element: columns from the right, aligned across the
    box by ``align`` and along it by ``valign`` (the longest column decides). Its markup is
    read as a horizontal text's: bold cells in the bold face, a colour span's cells (and the
    single-colour icons in it) in its colour, an icon upright in a cell of its own."""
    runs = ctx.runs(text.value, bold, markup=True)
    for run in runs:
        if run.icon is None:
            ctx.glyphs.check(run.text, run.bold, text.where, ctx.fonts)
    fit = fit_vertical(ctx, text, runs, box, size, min_size)
    if fit is None:
        return
    x, y, w, h = box
    size_mm, pitch_mm = fit.size / MM, fit.pitch / MM
    block_w = (len(fit.columns) - 1) * pitch_mm + size_mm
    block_h = max(fit.column_length(i) for i in range(len(fit.columns))) / MM
    align, valign = element.get("align", "left"), element.get("valign", "top")
    left = {"left": x, "center": x + (w - block_w) / 2, "right": x + w - block_w}[align]
    top = {"top": y, "middle": y + (h - block_h) / 2, "bottom": y + h - block_h}[valign]
    canvas.setFillColor(color)
    colour: str | None = None  # the colour span the fill colour was last set for
    for index, column in enumerate(fit.columns):
        column_left = left + block_w - size_mm - index * pitch_mm
        cell_top = top
        for cell in column:
            if cell.colour != colour:
                canvas.setFillColor(face_color(ctx, cell.colour, "text") if cell.colour else color)
                colour = cell.colour
            if cell.icon is not None:
                assert ctx.icons is not None  # a run names an icon only when the game has it
                ctx.icons.place(cell.icon, ctx.x(column_left), ctx.y(cell_top + EM_ASCENT * size_mm), fit.size,
                                face_color(ctx, cell.colour, "text") if cell.colour else None, color)
            else:
                face = ctx.fonts.face(cell.bold)
                form_face = vertical_face(face, ctx.fonts.lang) if cell.text in vertical_forms(face, ctx.fonts.lang) \
                    else None
                _draw_cell(canvas, ctx, cell, face, form_face, column_left, cell_top, fit.size)
            cell_top += cell.length * size_mm
    if colour is not None:
        canvas.setFillColor(color)


def _draw_cell(canvas: Canvas, ctx: FaceContext, cell: Cell, face: FontFace, form_face: FontFace | None,
               left: float, top: float, size: float) -> None:
    """One cell whose em square's top-left corner is at (left, top) trim millimetres."""
    size_mm = size / MM
    if cell.kind == "turned":
        if not cell.text.strip(" "):
            return
        canvas.saveState()
        canvas.translate(ctx.x(left + EM_DESCENT * size_mm), ctx.y(top))
        canvas.rotate(-90)  # the run's baseline runs down the column, its letters' tops face right
        canvas.setFont(face.name, size)
        canvas.drawString(0, 0, cell.text)
        canvas.restoreState()
        return
    name = form_face.name if form_face is not None else face.name
    advance = canvas.stringWidth(cell.text, name, size) / MM
    scale = min(1.0, size_mm / advance) if advance else 1.0
    text = canvas.beginText()
    text.setFont(name, size)
    if scale < 1.0:  # 縱中橫 wider than the em: pressed across, as a typesetter does
        text.setHorizScale(scale * 100)
    text.setTextOrigin(ctx.x(left + (size_mm - advance * scale) / 2), ctx.y(top + EM_ASCENT * size_mm))
    text.textOut(cell.text)
    canvas.drawText(text)
