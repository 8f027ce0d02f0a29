"""Cells of text on a face, every cell at one size: a printed table of the game's (turned on
its side when it has more rows than columns) and a blank form to write in (the ``grid``
element: column labels, optional row labels, ruled rows).
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from pnp.core.units import MM
from pnp.data.model import Element, Text
from pnp.data.schema import font_size
from pnp.data.spec import prop
from pnp.render.face_context import FaceContext, element_box, face_color
from pnp.render.face_text import draw_fitted, fit_or_fail
from pnp.render.grid import display_grid


def draw_table(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    table = ctx.tables[element.get("table")]
    x, y, w, h = element_box(ctx, element)
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
    stroke = face_color(ctx, prop(element, "stroke"), "stroke")
    header_fill = face_color(ctx, element.get("header_fill"))
    text_color = face_color(ctx, prop(element, "color"), "text")
    header_color = face_color(ctx, element.get("header_color"), "text") or text_color
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


def draw_grid(canvas: Canvas, ctx: FaceContext, element: Element) -> None:
    """A blank form: a header row of column labels, optional row labels down the first column."""
    x, y, w, h = element_box(ctx, element)
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
    header_fill = face_color(ctx, element.get("header_fill"))
    if header_fill is not None:
        canvas.setFillColor(header_fill)
        canvas.rect(ctx.x(x), ctx.y(y + header_h), w * MM, header_h * MM, stroke=0, fill=1)
    canvas.setStrokeColor(face_color(ctx, prop(element, "stroke"), "stroke"))
    canvas.setLineWidth(float(prop(element, "stroke_width")) * MM)
    canvas.rect(ctx.x(x), ctx.y(y + h), w * MM, h * MM, stroke=1, fill=0)
    for r in range(rows):  # under the header, then between body rows
        line_y = y + header_h + r * row_h
        canvas.line(ctx.x(x), ctx.y(line_y), ctx.x(x + w), ctx.y(line_y))
    left = x
    for width in col_w[:-1]:
        left += width
        canvas.line(ctx.x(left), ctx.y(y), ctx.x(left), ctx.y(y + h))
    text_color = face_color(ctx, prop(element, "color"), "text")
    header_color = face_color(ctx, element.get("header_color"), "text") or text_color
    for label, bold, r, c in cells:
        box = box_of(r, c)
        fit = fit_or_fail(ctx, label, bold, box[2], box[3], chosen, chosen,
                          "grid column label" if r == 0 else "grid row label")
        draw_fitted(canvas, ctx, fit, box, "center", "middle", header_color if r == 0 else text_color,
                    label.where)
