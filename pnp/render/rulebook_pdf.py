"""Typesetting rulebook blocks into a PDF with Chinese line breaking, outline and page numbers."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)

from pnp.data.model import Figure, Game, PrintedTable, Text
from pnp.fonts import FontFamily, measure_for, squeeze_for
from pnp.render.flow import MIN_ROWS, IntroTable, take_introduction
from pnp.render.glyphs import GlyphCheck
from pnp.render.grid import display_grid
from pnp.render.sheets import FaceForms, face_geometry
from pnp.render.table_figure import TableFigureFlowable
from pnp.rulebook import MarkdownBlock
from pnp.strings import ui
from pnp.textlayout import Run, SetLine, break_lines, place, set_lines
from pnp.units import MM

log = logging.getLogger(__name__)
INK = HexColor("#231f2b")
ACCENT = HexColor("#6b2d3a")
QUOTE_BG = HexColor("#f3eee4")
RULE = HexColor("#b9ad98")
EM_ASCENT = 0.88


@dataclass(frozen=True)
class TextStyle:
    size: float
    leading: float
    color: object = INK
    bold: bool = False
    space_before: float = 0.0
    space_after: float = 4.0


BODY = TextStyle(10.5, 17.5)
H1 = TextStyle(22, 30, ACCENT, True, 0, 10)
H2 = TextStyle(15, 22, ACCENT, True, 14, 6)
H3 = TextStyle(12, 18, INK, True, 8, 3)


# A heading this many lines long is a paragraph typed as a heading: refused, not typeset.
HEADING_MAX_LINES = 4
AID_WHOLE_ROWS = 17

@dataclass(frozen=True)
class BookStyles:
    body: TextStyle
    h1: TextStyle
    h2: TextStyle
    h3: TextStyle
    cell: TextStyle


RULEBOOK = BookStyles(BODY, H1, H2, H3, TextStyle(9.5, 14, space_after=0))
# The player aid: one sheet, two columns, so everything is a size smaller and tighter.
AID = BookStyles(TextStyle(8.5, 12.5, space_after=2.5), TextStyle(15, 20, ACCENT, True, 0, 4),
                 TextStyle(11, 15, ACCENT, True, 6, 2), TextStyle(9.5, 13, INK, True, 4, 1),
                 TextStyle(8, 11, space_after=0))
# A heading keeps at least this many lines of what follows it on its page.
LINES_AFTER_HEADING = 3


class CJKParagraph(Flowable):
    """A paragraph broken at ICU line-break units, justified (inter-character spacing, with
    punctuation squeezed where that lets a line hold one more unit); splits between lines."""

    def __init__(self, runs: Sequence[Run], style: TextStyle, fonts: FontFamily,
                 glyphs: GlyphCheck, where: str, indent: float = 0.0, marker: str = "",
                 bar: bool = False, outline: tuple[str, int, str] | None = None,
                 lines: tuple[SetLine, ...] | None = None, first: bool = True,
                 pad: tuple[float, float] = (0.0, 0.0), justify: bool = False) -> None:
        super().__init__()
        self.runs = tuple(Run(r.text, r.bold or style.bold) for r in runs)
        self.style = style
        self.fonts = fonts
        self.glyphs = glyphs
        self.where = where
        self.indent = indent
        self.marker = marker
        self.bar = bar
        # Inner space above and below the lines; consecutive paragraphs of one quote share a
        # background, so only the first pads its top and only the last its bottom.
        self.pad_top, self.pad_bottom = pad if bar else (0.0, 0.0)
        self.outline = outline  # (title, level, key) for headings
        self.lines = lines
        self._fixed = lines is not None  # the part of a split paragraph: never re-broken
        self._broken_for = -1.0
        self.first = first
        self.justify = justify
        self.measure = measure_for(fonts)
        self.squeeze = squeeze_for(fonts) if justify else None
        self.spaceBefore = style.space_before if first else 0
        self.spaceAfter = style.space_after
        if outline:
            self.keepWithNext = True

    def _inset(self) -> float:
        return 6.0 if self.bar else 0.0

    def _usable(self, avail_width: float) -> float:
        return avail_width - self.indent - 2 * self._inset()

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width = avail_width
        usable = self._usable(avail_width)
        if not self._fixed and usable != self._broken_for:
            # Break units and their widths are cached by text, so a re-wrap costs one greedy pass.
            lines = set_lines(self.runs, usable, self.style.size, self.measure, self.squeeze)
            if self.outline and len(lines) > HEADING_MAX_LINES:
                self.glyphs.overflow(f"{self.where}: a heading {len(lines)} lines long "
                                     f"(at most {HEADING_MAX_LINES}); shorten it or make it a paragraph")
                lines = lines[:HEADING_MAX_LINES]
            self.lines = tuple(lines)
            self._broken_for = usable
        assert self.lines is not None
        self.height = len(self.lines) * self.style.leading + self.pad_top + self.pad_bottom
        return avail_width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        self.wrap(avail_width, avail_height)
        assert self.lines is not None
        fit = int((avail_height - self.pad_top) // self.style.leading)
        if fit < 2 or len(self.lines) < 4 or len(self.lines) - fit < 2:
            return []  # keep at least two lines on each side of a break
        head = CJKParagraph(self.runs, self.style, self.fonts, self.glyphs, self.where,
                            self.indent, self.marker, self.bar, self.outline, self.lines[:fit], self.first,
                            (self.pad_top, 4.0), self.justify)
        tail = CJKParagraph(self.runs, self.style, self.fonts, self.glyphs, self.where,
                            self.indent, "", self.bar, None, self.lines[fit:], False,
                            (4.0, self.pad_bottom), self.justify)
        head.spaceAfter = 0
        tail.spaceAfter = self.spaceAfter
        return [head, tail]

    def draw(self) -> None:
        canvas = self.canv
        assert self.lines is not None
        if self.outline:
            title, level, key = self.outline
            canvas.bookmarkPage(key)
            canvas.addOutlineEntry(title, key, level=level, closed=False)
        inset = self._inset()
        if self.bar:
            canvas.setFillColor(QUOTE_BG)
            canvas.rect(0, 0, self.width, self.height, stroke=0, fill=1)
            canvas.setFillColor(ACCENT)
            canvas.rect(0, 0, 2.2, self.height, stroke=0, fill=1)
        size, leading = self.style.size, self.style.leading
        usable = self._usable(self.width)
        top = self.height - self.pad_top
        left = self.indent + inset * 2
        for index, line in enumerate(self.lines):
            baseline = top - index * leading - (leading - size) / 2 - size * EM_ASCENT
            if index == 0 and self.marker:
                canvas.setFillColor(ACCENT)
                canvas.setFont(self.fonts.bold.name, size)
                canvas.drawRightString(left - 4, baseline, self.marker)
            for run in line.runs:
                self.glyphs.check(run.text, run.bold, self.where)
            text = canvas.beginText()
            text.setFillColor(self.style.color)
            font, char_space = "", 0.0
            for stretch in place(line, usable, size, self.measure, self.squeeze, self.justify):
                name = self.fonts.bold.name if stretch.bold else self.fonts.regular.name
                if name != font:
                    text.setFont(name, size)
                    font = name
                if stretch.char_space != char_space:
                    text.setCharSpace(stretch.char_space)
                    char_space = stretch.char_space
                text.setTextOrigin(left + stretch.x, baseline)
                text.textOut(stretch.text)
            if char_space:
                text.setCharSpace(0)  # Tc outlives the text object; later strings start from 0
            canvas.drawText(text)


FIGURE_GAP = 2.5 * MM  # between miniatures, and between rows
FIGURE_INDENT = 16.0  # figures start at the list indent, left-aligned so a series lines up
HEADING_ROOM = 48.0  # points: an H2 with its spacing
LABEL_STYLE = TextStyle(10.5, 14, INK, True)
CAPTION_STYLE = TextStyle(9, 13, HexColor("#5d5348"))


class FigureFlowable(Flowable):
    """Rows of card-face miniatures drawn from the cards' own PDF forms, a label at the end
    of each row and a caption below; shrunk as a whole if a row is wider than the page."""

    def __init__(self, figure: Figure, builder: _Builder, number: int) -> None:
        super().__init__()
        self.figure = figure
        self.builder = builder
        game = builder.game
        self.component = game.component(figure.component)
        self.labels = [Text(builder.convert(t.value), t.where) for t in figure.labels]
        caption = builder.convert(figure.caption.value) if figure.caption else ""
        text = ui(builder.lang, "figure_caption", number=number, caption=caption).rstrip()
        self.caption = Text(text, figure.caption.where if figure.caption else figure.where)
        self.spaceBefore = 6
        self.spaceAfter = 10
        self.scale = 1.0

    def _cards(self, row: tuple[str, ...]) -> list[tuple[str, float, float, float]]:
        """(card id, trim width, trim height, bleed) of each card in a row, in points at full size."""
        out = []
        for card_id in row:
            width, height, bleed, _ = face_geometry(self.component, self.builder.game.card(self.component.id,
                                                                                            card_id))
            out.append((card_id, width * MM, height * MM, bleed * MM))
        return out

    def _miniature_width(self, row: tuple[str, ...]) -> float:
        target = self.figure.card_height * MM
        cards = self._cards(row)
        return sum(w * target / h for _, w, h, _ in cards) + FIGURE_GAP * (len(cards) - 1)

    def _label_width(self) -> float:
        font = self.builder.fonts.bold.name
        return max((stringWidth(t.value, font, LABEL_STYLE.size) for t in self.labels), default=0.0)

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        # Figures of one series (same cards, same size) share their label column, so the same
        # rows shown before and after a move line up from one figure to the next.
        rows_w = max(self._miniature_width(row) for other in self.builder.game.figures.values()
                     if other.component == self.figure.component
                     and other.card_height == self.figure.card_height
                     for row in other.rows)
        label_w = self._label_width()
        natural = rows_w + (FIGURE_GAP * 2 + label_w if label_w else 0)
        count = len(self.figure.rows)
        caption_h = CAPTION_STYLE.leading + 3 if self.caption else 0.0
        natural_h = count * self.figure.card_height * MM + (count - 1) * FIGURE_GAP
        # A figure never splits, so one taller than a whole page must shrink to fit one,
        # leaving room for the heading that keeps with it.
        room = self.builder.frame_height - caption_h - self.spaceBefore - self.spaceAfter - HEADING_ROOM
        self.scale = min(1.0, avail_width / natural, room / natural_h)
        self.rows_width = rows_w * self.scale
        self.block_width = natural * self.scale
        self.width = avail_width
        row_h = self.figure.card_height * MM * self.scale
        self.height = count * row_h + (count - 1) * FIGURE_GAP * self.scale + caption_h
        return avail_width, self.height

    def draw(self) -> None:
        canvas = self.canv
        builder = self.builder
        forms = builder.face_forms(canvas)
        scale = self.scale
        row_h = self.figure.card_height * MM * scale
        left = min(FIGURE_INDENT, max(0.0, self.width - self.block_width))
        top = self.height
        for index, row in enumerate(self.figure.rows):
            bottom = top - row_h
            x = left
            for card_id, width, height, bleed in self._cards(row):
                factor = row_h / height
                card = builder.game.card(self.component.id, card_id)
                name = forms.face(self.component, card, self.figure.side)
                canvas.saveState()
                clip = canvas.beginPath()
                if self.component.shape == "round":
                    clip.circle(x + width * factor / 2, bottom + row_h / 2, min(width, height) * factor / 2)
                else:
                    clip.roundRect(x, bottom, width * factor, row_h, 1.2 * MM * scale)
                canvas.clipPath(clip, stroke=0, fill=0)
                canvas.translate(x - bleed * factor, bottom - bleed * factor)
                canvas.scale(factor, factor)
                canvas.doForm(name)
                canvas.restoreState()
                canvas.saveState()
                canvas.setStrokeColor(RULE)
                canvas.setLineWidth(0.5)
                canvas.drawPath(clip, stroke=1, fill=0)
                canvas.restoreState()
                x += width * factor + FIGURE_GAP * scale
            if self.labels:
                label = self.labels[index]
                builder.glyphs.check(label.value, True, label.where)
                canvas.setFillColor(LABEL_STYLE.color)
                canvas.setFont(builder.fonts.bold.name, LABEL_STYLE.size)
                baseline = bottom + row_h / 2 - LABEL_STYLE.size * (EM_ASCENT - 0.5)
                canvas.drawString(left + self.rows_width + FIGURE_GAP * 2 * scale, baseline, label.value)
            top = bottom - FIGURE_GAP * scale
        if self.caption:
            builder.glyphs.check(self.caption.value, False, self.caption.where)
            canvas.setFillColor(CAPTION_STYLE.color)
            canvas.setFont(builder.fonts.regular.name, CAPTION_STYLE.size)
            canvas.drawString(left, CAPTION_STYLE.size * (1 - EM_ASCENT) + 1, self.caption.value)


NUMERIC = re.compile(r"^[−+$]?[\d,]+(?:[./]\d+)?%?$|^[–—-]$")
CELL_PAD = 5.0
TABLE_CAPTION_STYLE = TextStyle(9, 13, ACCENT, True, 4, 2)


class CellText(Flowable):
    """A table cell: one line aligned in its column; text wider than the column wraps."""

    def __init__(self, text: str, style: TextStyle, builder: _Builder, where: str,
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


class CornerCell(Flowable):
    """The corner of a two-way table: a ruled diagonal, the across heading above it on the
    right and the down heading below it on the left."""

    def __init__(self, down: Text, across: Text, style: TextStyle, builder: _Builder) -> None:
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


class WholeTable(Table):
    """A table that never splits. Not a KeepTogether: reportlab leaves those out of the
    keep-with-next chains that tie a table to its heading and introduction."""

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        return []


def build_table(printed: PrintedTable, builder: _Builder, style: TextStyle, whole: bool = False) -> Table:
    """The printed table sized to its content: numbers right-aligned, headings on one line,
    a ruled diagonal in the corner of a two-way table, rules between rows only."""
    grid = display_grid(printed, builder.convert)
    head = TextStyle(style.size, style.leading, HexColor("#ffffff"), True, space_after=0)
    columns = len(grid[0])
    numeric = [all(NUMERIC.match(row[c].value.strip()) for row in grid[1:]) for c in range(columns)]
    cells: list[list[Flowable]] = []
    for r, row in enumerate(grid):
        line: list[Flowable] = []
        for c, cell in enumerate(row):
            align = "right" if numeric[c] else "left"
            line.append(CellText(cell.value, head if r == 0 else style, builder, cell.where, align))
        cells.append(line)
    if printed.pivot is not None:
        labels = {col.key: Text(builder.convert(col.label.value), col.label.where) for col in printed.columns}
        down, across, _ = printed.pivot
        cells[0][0] = CornerCell(labels[down], labels[across], head, builder)
    natural = [max(cells[r][c].natural_width() for r in range(len(cells))) + 2 * CELL_PAD  # type: ignore[attr-defined]
               for c in range(columns)]
    floor = [cells[0][c].natural_width() + 2 * CELL_PAD for c in range(columns)]  # type: ignore[attr-defined]
    # Number columns get a little air so a column of one-digit values does not look cramped.
    natural = [max(w, 11 * MM) if numeric[c] else w for c, w in enumerate(natural)]
    widths = _column_widths(natural, floor, builder.text_width)
    table = (WholeTable if whole else Table)(cells, colWidths=widths, hAlign="LEFT", repeatRows=1)
    commands: list[tuple] = [
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


def _keep_introduction(out: list[Flowable]) -> None:
    """The text just before a table or figure ("見下表：", or the last item of a list that
    ends with it) travels with it to a new page, with the space after a list."""
    for flowable in reversed(out):
        if isinstance(flowable, IntroTable | Table | FigureFlowable | TableFigureFlowable):
            break  # one table or figure right after another: each moves on its own
        flowable.keepWithNext = True
        if not isinstance(flowable, Spacer):
            break


def _one_box(flowables: list[Flowable]) -> list[Flowable]:
    """Join a quote's paragraphs into one continuous shaded box."""
    boxed = [f for f in flowables if isinstance(f, CJKParagraph) and f.bar]
    for index, paragraph in enumerate(boxed):
        last = index == len(boxed) - 1
        paragraph.pad_top = 6.0 if index == 0 else 0.0
        paragraph.pad_bottom = 6.0 if last else 4.0
        paragraph.spaceBefore = 0
        paragraph.spaceAfter = paragraph.spaceAfter if last else 0
    return flowables


@dataclass
class _Builder:
    game: Game
    lang: str
    fonts: FontFamily
    convert: Callable[[str], str]
    glyphs: GlyphCheck
    source: str
    frame_height: float = 0.0  # points: the tallest a flowable that never splits may be
    text_width: float = 0.0  # points: the measure of a body line
    styles: BookStyles = field(default_factory=lambda: RULEBOOK)
    # A table of 2 * MIN_ROWS rows or more may split at a page's foot; in the two-column aid
    # the next column is just there, so only one of AID_WHOLE_ROWS or more splits.
    split_tables: bool = True
    headings: int = 0
    # The PDF outline nests one level at a time: a book opening on "##", or jumping from
    # "#" to "###", gets its entry at the deepest level the outline can reach there.
    outline_level: int = -1
    tables: int = 0
    figures: int = 0
    _forms: FaceForms | None = None

    def measure(self, text: str, bold: bool, size: float) -> float:
        return stringWidth(text, self.fonts.bold.name if bold else self.fonts.regular.name, size)

    def face_forms(self, canvas: object) -> FaceForms:
        """The face forms of the rulebook's canvas, made when the first figure is drawn."""
        if self._forms is None or self._forms.canvas is not canvas:
            self._forms = FaceForms(canvas, self.game, self.fonts, self.convert, self.glyphs)  # type: ignore[arg-type]
        return self._forms

    def where(self, block: MarkdownBlock) -> str:
        return f"{self.source} (rendered Markdown line {block.line})"

    def para(self, runs: Sequence[Run], style: TextStyle, block: MarkdownBlock, **kw: object) -> CJKParagraph:
        return CJKParagraph(runs, style, self.fonts, self.glyphs, self.where(block), **kw)

    def flowables(self, blocks: Sequence[MarkdownBlock], in_quote: bool = False) -> list[Flowable]:
        out: list[Flowable] = []
        for block in blocks:
            if block.kind == "heading":
                style = {1: self.styles.h1, 2: self.styles.h2}.get(block.level, self.styles.h3)
                title = "".join(r.text for r in block.runs)
                self.headings += 1
                self.outline_level = min(max(0, block.level - 1), self.outline_level + 1)
                outline = (title, self.outline_level, f"h{self.headings}")
                out.append(self.para(block.runs, style, block, outline=outline))
            elif block.kind == "paragraph":
                out.append(self.para(block.runs, self.styles.body, block, bar=in_quote, justify=True))
            elif block.kind in ("bullets", "numbers"):
                body = self.styles.body
                for item, marker, level in zip(block.items, block.markers, block.levels, strict=True):
                    style = TextStyle(body.size, body.leading, space_after=body.space_after / 2)
                    out.append(self.para(item, style, block, indent=16 + 16 * level, marker=marker,
                                         bar=in_quote, justify=True))
                if not in_quote:
                    out.append(Spacer(1, 3))
            elif block.kind == "quote":
                out.extend(_one_box(self.flowables(block.children, in_quote=True)))
                out.append(Spacer(1, 4))
            elif block.kind == "table":
                caption, table = self.table(block)
                if isinstance(table, WholeTable):
                    _keep_introduction(out)
                    out.extend((caption, table))
                else:  # its introduction and caption go with its first rows; the rest may follow
                    head = take_introduction(out, lambda f: bool(getattr(f, "outline", None)) or isinstance(
                        f, IntroTable | Table | FigureFlowable | TableFigureFlowable))
                    out.append(IntroTable([*head, caption], table))
            elif block.kind == "figure":
                figure = self.game.figures[block.figure]
                if figure.table is None:  # a table set-up shrinks into the room left instead
                    _keep_introduction(out)
                self.figures += 1
                maker = TableFigureFlowable if figure.table else FigureFlowable
                out.append(maker(figure, self, self.figures))
        return out

    def table(self, block: MarkdownBlock) -> tuple[Flowable, Table]:
        """A numbered caption and the table, sized to its content."""
        printed = self.game.tables[block.table]
        self.tables += 1
        caption_text = ui(self.lang, "table_caption", number=self.tables,
                          title=self.convert(printed.title.value))
        caption = CJKParagraph([Run(caption_text)], TABLE_CAPTION_STYLE, self.fonts, self.glyphs,
                               printed.title.where)
        caption.keepWithNext = True
        # A short table reads as one thing: it moves whole rather than splits. A longer one
        # splits, MIN_ROWS rows at least on each side, under a repeated header.
        shortest = 2 * MIN_ROWS if self.split_tables else AID_WHOLE_ROWS
        whole = len(printed.rows) < shortest or printed.pivot is not None
        flowable = build_table(printed, self, self.styles.cell, whole)
        flowable.spaceAfter = 8
        return caption, flowable


def keep_headings_with_text(story: list[Flowable], width: float) -> None:
    """A heading keeps with it at least LINES_AFTER_HEADING lines of what follows (or all of
    it, if shorter), so no heading ends a page with one line or none under it."""
    for index, item in enumerate(story):
        if not (isinstance(item, CJKParagraph) and item.outline):
            continue
        lines = 0
        for following in story[index + 1:]:
            if isinstance(following, CJKParagraph):
                if following.outline:
                    continue  # a subheading chains on; count the text under it
                following.wrap(width, 1e9)
                lines += len(following.lines or ())
            elif not isinstance(following, Spacer):
                break  # a table or figure: it travels with its introduction already
            if lines >= LINES_AFTER_HEADING:
                break
            following.keepWithNext = True


def _story(builder: _Builder, blocks: Sequence[MarkdownBlock]) -> list[Flowable]:
    story = builder.flowables(blocks)
    keep_headings_with_text(story, builder.text_width)
    return story


def render_rulebook(game: Game, lang: str, blocks: Sequence[MarkdownBlock], fonts: FontFamily,
                    convert: Callable[[str], str], glyphs: GlyphCheck, source: str,
                    pagesize: tuple[float, float]) -> bytes:
    """The rulebook PDF: A4/Letter, running header, page numbers, an outline of headings."""
    buffer = io.BytesIO()
    title = convert(game.info.name.value)
    margin = 20 * MM
    doc = BaseDocTemplate(
        buffer, pagesize=pagesize, invariant=1, lang=lang, title=title, author="pnp",
        subject=f"{title} {game.info.version}", creator=f"pnp {game.slug}",
        initialFontName=fonts.regular.name, pageCompression=1,
        leftMargin=margin, rightMargin=margin, topMargin=margin, bottomMargin=margin,
    )
    width, height = pagesize

    def furniture(canvas, document) -> None:  # noqa: ANN001 - reportlab's callback signature
        canvas.saveState()
        canvas.setFont(fonts.regular.name, 8)
        canvas.setFillColor(HexColor("#7a6f60"))
        page = ui(lang, "page", number=document.page)
        running = f"{title} {ui(lang, 'sep')} {ui(lang, 'version', version=game.info.version, date=game.info.date)}"
        glyphs.check(page + running, False, "pnp/strings.py: page furniture")
        canvas.drawCentredString(width / 2, 11 * MM, page)
        canvas.drawString(margin, height - 12 * MM, running)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        canvas.line(margin, height - 13.5 * MM, width - margin, height - 13.5 * MM)
        canvas.restoreState()

    frame = Frame(margin, margin, width - 2 * margin, height - 2 * margin, id="body")
    doc.addPageTemplates([PageTemplate("page", [frame], onPage=furniture)])
    builder = _Builder(game, lang, fonts, convert, glyphs, source,
                       frame.height - frame.topPadding - frame.bottomPadding,
                       frame.width - frame.leftPadding - frame.rightPadding)
    doc.build(_story(builder, blocks))
    return buffer.getvalue()


def render_aid(game: Game, lang: str, blocks: Sequence[MarkdownBlock], fonts: FontFamily,
               convert: Callable[[str], str], glyphs: GlyphCheck, source: str,
               pagesize: tuple[float, float]) -> tuple[bytes, int]:
    """The player aid: the same typesetting in two columns, a size smaller, with the game's
    version at the foot. Returns the PDF and its page count (one sheet is at most two)."""
    buffer = io.BytesIO()
    title = f"{convert(game.info.name.value)} {ui(lang, 'aid')}"
    margin, gap = 12 * MM, 7 * MM
    doc = BaseDocTemplate(
        buffer, pagesize=pagesize, invariant=1, lang=lang, title=title, author="pnp",
        subject=f"{title} {game.info.version}", creator=f"pnp {game.slug}",
        initialFontName=fonts.regular.name, pageCompression=1,
        leftMargin=margin, rightMargin=margin, topMargin=margin, bottomMargin=margin,
    )
    width, height = pagesize
    pages = [0]

    def furniture(canvas, document) -> None:  # noqa: ANN001 - reportlab's callback signature
        pages[0] = document.page
        canvas.saveState()
        canvas.setFont(fonts.regular.name, 7)
        canvas.setFillColor(HexColor("#7a6f60"))
        foot = f"{title} {ui(lang, 'sep')} {ui(lang, 'version', version=game.info.version, date=game.info.date)}"
        glyphs.check(foot, False, "pnp/strings.py: page furniture")
        canvas.drawCentredString(width / 2, 7 * MM, foot)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        canvas.line(width / 2, margin + 4, width / 2, height - margin - 4)
        canvas.restoreState()

    column = (width - 2 * margin - gap) / 2
    frames = [Frame(margin + k * (column + gap), margin, column, height - 2 * margin, id=f"col{k}")
              for k in range(2)]
    doc.addPageTemplates([PageTemplate("aid", frames, onPage=furniture)])
    builder = _Builder(game, lang, fonts, convert, glyphs, source,
                       frames[0].height - frames[0].topPadding - frames[0].bottomPadding,
                       frames[0].width - frames[0].leftPadding - frames[0].rightPadding, AID,
                       split_tables=False)
    doc.build(_story(builder, blocks))
    return buffer.getvalue(), pages[0]
