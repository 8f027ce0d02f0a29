"""Printed tables in the rulebook: cells that align numbers and wrap long text, the ruled
corner of a two-way table, and column widths sized to the content."""

from __future__ import annotations

import re
from typing import Protocol

from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable, Table, TableStyle

from pnp.core.units import MM
from pnp.data.model import PrintedTable, Text
from pnp.render.glyphs import GlyphCheck
from pnp.render.grid import display_grid
from pnp.rulebook.style import ACCENT, EM_ASCENT, QUOTE_BG, RULE, TextStyle
from pnp.text.fonts import FontFamily
from pnp.text.linetypes import Run
from pnp.text.setting import break_lines


class TableBuilder(Protocol):
    """What a table asks of the rulebook being built: its fonts, measure and script."""

    fonts: FontFamily
    glyphs: GlyphCheck
    text_width: float

    def convert(self, text: str) -> str: ...

    def measure(self, text: str, bold: bool, size: float) -> float: ...


NUMERIC = re.compile(r"^[−+$]?[\d,]+(?:[./]\d+)?%?$|^[–—-]$")
CELL_PAD = 5.0
TABLE_CAPTION_STYLE = TextStyle(9, 13, ACCENT, True, 4, 2)


class CellText(Flowable):  # type: ignore[misc]  # reportlab is untyped
    """A table cell: one line aligned in its column; text wider than the column wraps."""

    def __init__(self, text: str, style: TextStyle, builder: TableBuilder, where: str,
                 align: str = "left") -> None:
        super().__init__()
        self.text, self.style, self.builder, self.where, self.align = text, style, builder, where, align
        self.lines: list[str] = []

    def natural_width(self) -> float:
        return self.builder.measure(self.text, self.style.bold, self.style.size)

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width = avail_width
        if self.natural_width() <= avail_width + 1e-6:
            self.lines = [self.text]
        else:
            broken = break_lines([Run(self.text, self.style.bold)], avail_width, self.style.size,
                                 lambda t, b, z: self.builder.measure(t, b, z))
            self.lines = ["".join(r.text for r in line) for line in broken]
        self.height = len(self.lines) * self.style.leading
        return avail_width, self.height

    def draw(self) -> None:
        canvas = self.canv
        size, leading = self.style.size, self.style.leading
        font = self.builder.fonts.bold.name if self.style.bold else self.builder.fonts.regular.name
        canvas.setFillColor(self.style.color)
        canvas.setFont(font, size)
        for index, line in enumerate(self.lines):
            self.builder.glyphs.check(line, self.style.bold, self.where)
            baseline = self.height - index * leading - (leading - size) / 2 - size * EM_ASCENT
            if self.align == "right":
                canvas.drawRightString(self.width, baseline, line)
            elif self.align == "center":
                canvas.drawCentredString(self.width / 2, baseline, line)
            else:
                canvas.drawString(0, baseline, line)


class CornerCell(Flowable):  # type: ignore[misc]
    """The corner of a two-way table: a ruled diagonal, the across heading above it on the
    right and the down heading below it on the left."""

    def __init__(self, down: Text, across: Text, style: TextStyle, builder: TableBuilder) -> None:
        super().__init__()
        self.down, self.across, self.style, self.builder = down, across, style, builder

    def _widths(self) -> tuple[float, float]:
        measure = self.builder.measure
        return (measure(self.down.value, True, self.style.size),
                measure(self.across.value, True, self.style.size))

    def natural_height(self) -> float:
        return 2 * self.style.leading + 3 * CELL_PAD

    def natural_width(self) -> float:
        # The diagonal runs corner to corner, so each heading must clear it: a heading of
        # width w at one end needs the cell to be w / (1 - share of height it takes) wide.
        share = (CELL_PAD + self.style.leading) / self.natural_height()
        return (max(self._widths()) + CELL_PAD) / (1 - share) + CELL_PAD

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width, self.height = avail_width, self.natural_height()
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        size, leading = self.style.size, self.style.leading
        canvas.saveState()
        canvas.setStrokeColor(self.style.color)
        canvas.setLineWidth(0.6)
        canvas.line(0, self.height, self.width, 0)
        canvas.setFillColor(self.style.color)
        canvas.setFont(self.builder.fonts.bold.name, size)
        for text in (self.down, self.across):
            self.builder.glyphs.check(text.value, True, text.where)
        top = self.height - CELL_PAD - (leading - size) / 2 - size * EM_ASCENT
        canvas.drawRightString(self.width - CELL_PAD, top, self.across.value)
        bottom = CELL_PAD + (leading - size) / 2 + size * (1 - EM_ASCENT)
        canvas.drawString(CELL_PAD, bottom, self.down.value)
        canvas.restoreState()


def _column_widths(natural: list[float], floor: list[float], avail: float) -> list[float]:
    """Natural widths; when they do not fit, the columns that can wrap (body text wider than
    their heading) give up width first, never below their heading."""
    widths = list(natural)
    excess = sum(widths) - avail
    if excess <= 0:
        return widths
    slack = [w - f for w, f in zip(widths, floor, strict=True)]
    total = sum(slack)
    if total >= excess:
        return [w - excess * sl / total for w, sl in zip(widths, slack, strict=True)]
    return [w * avail / sum(widths) for w in widths]


def build_table(printed: PrintedTable, builder: TableBuilder, style: TextStyle) -> Table:
    """The printed table sized to its content: numbers right-aligned, headings on one line,
    a ruled diagonal in the corner of a two-way table, rules between rows only."""
    grid = display_grid(printed, builder.convert)
    head = TextStyle(style.size, style.leading, HexColor("#ffffff"), True, space_after=0)
    columns = len(grid[0])
    numeric = [all(NUMERIC.match(row[c].value.strip()) for row in grid[1:]) for c in range(columns)]
    cells: list[list[CellText | CornerCell]] = []
    for r, row in enumerate(grid):
        line: list[CellText | CornerCell] = []
        for c, cell in enumerate(row):
            align = "right" if numeric[c] else "left"
            line.append(CellText(cell.value, head if r == 0 else style, builder, cell.where, align))
        cells.append(line)
    if printed.pivot is not None:
        labels = {col.key: Text(builder.convert(col.label.value), col.label.where) for col in printed.columns}
        down, across, _ = printed.pivot
        cells[0][0] = CornerCell(labels[down], labels[across], head, builder)
    natural = [max(cells[r][c].natural_width() for r in range(len(cells))) + 2 * CELL_PAD
               for c in range(columns)]
    floor = [cells[0][c].natural_width() + 2 * CELL_PAD for c in range(columns)]
    # Number columns get a little air so a column of one-digit values does not look cramped.
    natural = [max(w, 11 * MM) if numeric[c] else w for c, w in enumerate(natural)]
    widths = _column_widths(natural, floor, builder.text_width)
    # A table longer than a page carries on over the next under its header row again.
    table = Table(cells, colWidths=widths, hAlign="LEFT", repeatRows=1)
    commands: list[tuple[object, ...]] = [
        # Cells draw their own text; naming the face keeps reportlab from setting Helvetica.
        ("FONT", (0, 0), (-1, -1), builder.fonts.regular.name, style.size),
        ("BACKGROUND", (0, 0), (-1, 0), ACCENT),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LINEBELOW", (0, 1), (-1, -1), 0.4, RULE),
        ("LINEBELOW", (0, -1), (-1, -1), 0.8, ACCENT),
    ]
    if printed.pivot is not None:
        commands += [("LEFTPADDING", (0, 0), (0, 0), 0), ("RIGHTPADDING", (0, 0), (0, 0), 0),
                     ("TOPPADDING", (0, 0), (0, 0), 0), ("BOTTOMPADDING", (0, 0), (0, 0), 0),
                     ("LINEAFTER", (0, 1), (0, -1), 0.6, ACCENT),
                     ("BACKGROUND", (0, 1), (0, -1), QUOTE_BG)]
    table.setStyle(TableStyle(commands))
    table.spaceBefore = 2
    return table
