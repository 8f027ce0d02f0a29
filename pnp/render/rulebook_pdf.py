"""Typesetting rulebook blocks into a PDF with Chinese line breaking, outline and page numbers."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)

from pnp.data.model import Figure, Game, Text
from pnp.fonts import FontFamily, measure_for, squeeze_for
from pnp.render.glyphs import GlyphCheck
from pnp.render.grid import display_grid
from pnp.render.sheets import FaceForms, face_geometry
from pnp.rulebook import Block
from pnp.strings import ui
from pnp.textlayout import Run, SetLine, place, set_lines
from pnp.units import MM

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
HEADING_ROOM = 48.0  # points: an H2 with its spacing
LABEL_STYLE = TextStyle(10.5, 14, INK, True)
CAPTION_STYLE = TextStyle(9, 13, HexColor("#5d5348"))


class FigureFlowable(Flowable):
    """Rows of card-face miniatures drawn from the cards' own PDF forms, a label at the end
    of each row and a caption below; shrunk as a whole if a row is wider than the page."""

    def __init__(self, figure: Figure, builder: _Builder) -> None:
        super().__init__()
        self.figure = figure
        self.builder = builder
        game = builder.game
        self.component = game.component(figure.component)
        self.labels = [Text(builder.convert(t.value), t.where) for t in figure.labels]
        self.caption = Text(builder.convert(figure.caption.value), figure.caption.where) \
            if figure.caption else None
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
        rows_w = max(self._miniature_width(row) for row in self.figure.rows)
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
        left = (self.width - self.block_width) / 2
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
            canvas.drawCentredString(self.width / 2, CAPTION_STYLE.size * (1 - EM_ASCENT) + 1, self.caption.value)


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
    headings: int = 0
    _forms: FaceForms | None = None

    def face_forms(self, canvas: object) -> FaceForms:
        """The face forms of the rulebook's canvas, made when the first figure is drawn."""
        if self._forms is None or self._forms.canvas is not canvas:
            self._forms = FaceForms(canvas, self.game, self.fonts, self.convert, self.glyphs)  # type: ignore[arg-type]
        return self._forms

    def where(self, block: Block) -> str:
        return f"{self.source} (rendered Markdown line {block.line})"

    def para(self, runs: Sequence[Run], style: TextStyle, block: Block, **kw: object) -> CJKParagraph:
        return CJKParagraph(runs, style, self.fonts, self.glyphs, self.where(block), **kw)

    def flowables(self, blocks: Sequence[Block], in_quote: bool = False) -> list[Flowable]:
        out: list[Flowable] = []
        for block in blocks:
            if block.kind == "heading":
                style = {1: H1, 2: H2}.get(block.level, H3)
                title = "".join(r.text for r in block.runs)
                self.headings += 1
                outline = (title, max(0, block.level - 1), f"h{self.headings}")
                out.append(self.para(block.runs, style, block, outline=outline))
            elif block.kind == "paragraph":
                out.append(self.para(block.runs, BODY, block, bar=in_quote, justify=True))
            elif block.kind in ("bullets", "numbers"):
                for item, marker, level in zip(block.items, block.markers, block.levels, strict=True):
                    style = TextStyle(BODY.size, BODY.leading, space_after=2)
                    out.append(self.para(item, style, block, indent=16 + 16 * level, marker=marker,
                                         bar=in_quote, justify=True))
                if not in_quote:
                    out.append(Spacer(1, 3))
            elif block.kind == "quote":
                out.extend(_one_box(self.flowables(block.children, in_quote=True)))
                out.append(Spacer(1, 4))
            elif block.kind == "table":
                # The sentence that introduces a table ("見下表") travels with it to a new page.
                if out and isinstance(out[-1], CJKParagraph):
                    out[-1].keepWithNext = True
                out.append(self.table(block))
            elif block.kind == "figure":
                out.append(FigureFlowable(self.game.figures[block.figure], self))
        return out

    def table(self, block: Block) -> Flowable:
        grid = display_grid(self.game.tables[block.table], self.convert)
        cell_style = TextStyle(9.5, 14, space_after=0)
        head_style = TextStyle(9.5, 14, HexColor("#ffffff"), True, space_after=0)
        rows = [[CJKParagraph([Run(cell.value)], head_style if r == 0 else cell_style, self.fonts,
                              self.glyphs, cell.where) for cell in row]
                for r, row in enumerate(grid)]
        columns = len(grid[0])
        width = 150 * MM
        flowable = Table(rows, colWidths=[width / columns] * columns,
                         hAlign="LEFT", repeatRows=1)
        flowable.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, -1), self.fonts.regular.name, 9.5),
            ("BACKGROUND", (0, 0), (-1, 0), ACCENT),
            ("GRID", (0, 0), (-1, -1), 0.5, RULE),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 3),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ]))
        flowable.spaceBefore = 4
        flowable.spaceAfter = 8
        # A short table reads as one thing: move it whole rather than split it across pages.
        return KeepTogether([flowable]) if len(rows) <= 16 else flowable


def render_rulebook(game: Game, lang: str, blocks: Sequence[Block], fonts: FontFamily,
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
                       frame.height - frame.topPadding - frame.bottomPadding)
    story = builder.flowables(blocks)
    doc.build(story)
    return buffer.getvalue()
