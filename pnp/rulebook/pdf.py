"""Typesetting rulebook blocks into a PDF with Chinese line breaking, outline and page numbers."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
    Spacer,
    Table,
)

from pnp.core.units import MM
from pnp.data.model import Figure, Game, Text
from pnp.render.glyphs import GlyphCheck
from pnp.render.sheets import FaceForms, face_geometry
from pnp.rulebook.flow import IntroTable, take_introduction
from pnp.rulebook.source import MarkdownBlock
from pnp.rulebook.style import (
    ACCENT,
    EM_ASCENT,
    HEADING_MAX_LINES,
    INK,
    LINES_AFTER_HEADING,
    MARK,
    QUOTE_BG,
    QUOTE_PAD,
    RULE,
    RULEBOOK,
    BookStyles,
    TextStyle,
)
from pnp.rulebook.table_figure import TableFigureFlowable
from pnp.rulebook.tables import TABLE_CAPTION_STYLE, build_table
from pnp.text.fonts import FontFamily, kern_for, measure_for, squeeze_for
from pnp.text.place import place
from pnp.text.setting import Run, SetLine, set_lines
from pnp.text.strings import ui

# CJKParagraph.wrap's lines by (runs, usable width, size, fonts, justified): a pure function
# of those (set_lines with the family's measure, squeeze and kern); capped for long-lived
# processes (pnp serve, --watch).
_SET_LINES: dict[tuple[Any, ...], tuple[SetLine, ...]] = {}
_SET_LINES_CAP = 50_000


class CJKParagraph(Flowable):  # type: ignore[misc]  # reportlab is untyped
    """A paragraph broken at ICU line-break units, adjacent punctuation closed up (」， ）。),
    justified (inter-character spacing, with punctuation squeezed where that lets a line hold
    one more unit); splits between lines."""

    def __init__(self, runs: Sequence[Run], style: TextStyle, fonts: FontFamily,
                 glyphs: GlyphCheck, where: str, indent: float = 0.0, marker: str = "",
                 bar: bool = False, outline: tuple[str, int, str] | None = None,
                 lines: tuple[SetLine, ...] | None = None, first: bool = True,
                 pad: tuple[float, float] = (0.0, 0.0), justify: bool = False) -> None:
        super().__init__()
        self.runs = tuple(Run(r.text, r.bold or style.bold, r.mark) for r in runs)
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
        self.level = 0  # a heading's Markdown level (1 for "#"), set by the book builder
        self.prose = False  # a Markdown paragraph (not a list item, caption or heading)
        self.lines = lines
        self._fixed = lines is not None  # the part of a split paragraph: never re-broken
        self._broken_for = -1.0
        self.first = first
        self.justify = justify
        self.measure = measure_for(fonts)
        self.squeeze = squeeze_for(fonts) if justify else None
        self.kern = kern_for(fonts)  # adjacent punctuation closes up in every paragraph
        self.spaceBefore = style.space_before if first else 0
        self.spaceAfter = style.space_after
        if outline:
            self.keepWithNext = True

    def _inset(self) -> float:
        return QUOTE_PAD if self.bar else 0.0

    def _usable(self, avail_width: float) -> float:
        return avail_width - self.indent - 2 * self._inset()

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width = avail_width
        usable = self._usable(avail_width)
        if not self._fixed and usable != self._broken_for:
            # Break units and their widths are cached by text, so a re-wrap costs one greedy
            # pass; the lines themselves are remembered by everything they depend on, since
            # the aid's trial settings (and the other paper size's rulebook) set the same
            # paragraph at the same width again and again.
            key = (self.runs, usable, self.style.size, self.fonts, self.justify)
            lines = _SET_LINES.get(key)
            if lines is None:
                if len(_SET_LINES) >= _SET_LINES_CAP:
                    _SET_LINES.clear()
                lines = _SET_LINES[key] = tuple(set_lines(
                    self.runs, usable, self.style.size, self.measure, self.squeeze, kern=self.kern))
            if self.outline and len(lines) > HEADING_MAX_LINES:
                self.glyphs.overflow(f"{self.where}: a heading {len(lines)} lines long "
                                     f"(at most {HEADING_MAX_LINES}); shorten it or make it a paragraph")
                lines = lines[:HEADING_MAX_LINES]
            self.lines = lines
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
        left = self.indent + inset
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
            font, char_space, marked = "", 0.0, False
            for stretch in place(line, usable, size, self.measure, self.squeeze, self.justify, self.kern):
                name = self.fonts.bold.name if stretch.bold else self.fonts.regular.name
                if name != font:
                    text.setFont(name, size)
                    font = name
                if stretch.mark != marked:
                    text.setFillColor(MARK if stretch.mark else self.style.color)
                    marked = stretch.mark
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


class FigureFlowable(Flowable):  # type: ignore[misc]
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
        self.label_size = LABEL_STYLE.size

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
        label_gap = FIGURE_GAP * 2 if label_w else 0.0
        natural = rows_w + label_gap + label_w
        count = len(self.figure.rows)
        caption_h = CAPTION_STYLE.leading + 3 if self.caption else 0.0
        natural_h = count * self.figure.card_height * MM + (count - 1) * FIGURE_GAP
        # A figure never splits, so one taller than a whole page must shrink to fit one,
        # leaving room for the heading that keeps with it.
        room = self.builder.frame_height - caption_h - self.spaceBefore - self.spaceAfter - HEADING_ROOM
        # A figure too wide shrinks its miniatures; its labels keep their size, so that they
        # stay legible and end inside the frame. Only a label wider than half the measure
        # shrinks with them.
        label_room = avail_width - label_w
        if label_room >= avail_width / 2:
            self.scale = min(1.0, label_room / (rows_w + label_gap), room / natural_h)
            self.label_size = LABEL_STYLE.size
        else:
            self.scale = min(1.0, avail_width / natural, room / natural_h)
            self.label_size = LABEL_STYLE.size * self.scale
        self.rows_width = rows_w * self.scale
        self.block_width = (rows_w + label_gap) * self.scale + label_w * self.label_size / LABEL_STYLE.size
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
                canvas.setFont(builder.fonts.bold.name, self.label_size)
                baseline = bottom + row_h / 2 - self.label_size * (EM_ASCENT - 0.5)
                canvas.drawString(left + self.rows_width + FIGURE_GAP * 2 * scale, baseline, label.value)
            top = bottom - FIGURE_GAP * scale
        if self.caption:
            builder.glyphs.check(self.caption.value, False, self.caption.where)
            canvas.setFillColor(CAPTION_STYLE.color)
            canvas.setFont(builder.fonts.regular.name, CAPTION_STYLE.size)
            canvas.drawString(left, CAPTION_STYLE.size * (1 - EM_ASCENT) + 1, self.caption.value)


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
    headings: int = 0
    # The PDF outline nests one level at a time: a book opening on "##", or jumping from
    # "#" to "###", gets its entry at the deepest level the outline can reach there.
    outline_level: int = -1
    tables: int = 0
    figures: int = 0
    _forms: FaceForms | None = None

    def measure(self, text: str, bold: bool, size: float) -> float:
        width: float = stringWidth(text, self.fonts.bold.name if bold else self.fonts.regular.name, size)
        return width

    def face_forms(self, canvas: Canvas) -> FaceForms:
        """The face forms of the rulebook's canvas, made when the first figure is drawn."""
        if self._forms is None or self._forms.canvas is not canvas:
            self._forms = FaceForms(canvas, self.game, self.fonts, self.convert, self.glyphs)
        return self._forms

    def where(self, block: MarkdownBlock) -> str:
        return f"{self.source} (rendered Markdown line {block.line})"

    def para(self, runs: Sequence[Run], style: TextStyle, block: MarkdownBlock, **kw: Any) -> CJKParagraph:
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
                heading = self.para(block.runs, style, block, outline=outline)
                heading.level = block.level
                out.append(heading)
            elif block.kind == "paragraph":
                paragraph = self.para(block.runs, self.styles.body, block, bar=in_quote, justify=True)
                paragraph.prose = True
                out.append(paragraph)
            elif block.kind in ("bullets", "numbers"):
                body = self.styles.body
                # A sentence that ends in a colon introduces the list: it never ends a page alone.
                last = out[-1] if out else None
                if isinstance(last, CJKParagraph) and getattr(last, "prose", False) \
                        and "".join(r.text for r in last.runs).rstrip().endswith(("：", ":")):
                    last.keepWithNext = True
                items: list[CJKParagraph] = []
                for item, marker, level in zip(block.items, block.markers, block.levels, strict=True):
                    style = TextStyle(body.size, body.leading, space_after=body.space_after / 2)
                    items.append(self.para(item, style, block, indent=16 + 16 * level, marker=marker,
                                           bar=in_quote, justify=True))
                if len(items) >= 2:  # the last item never opens a page alone: the one before goes with it
                    items[-2].keepWithNext = True
                out.extend(items)
                if not in_quote:
                    out.append(Spacer(1, 3))
            elif block.kind == "quote":
                out.extend(_one_box(self.flowables(block.children, in_quote=True)))
                out.append(Spacer(1, 4))
            elif block.kind == "table":
                # Its introduction and caption go with it: on one page when it fits on one,
                # else with its first rows, the rest following under its repeated header.
                caption, table = self.table(block)
                head = take_introduction(out, lambda f: bool(getattr(f, "outline", None)) or isinstance(
                    f, IntroTable | Table | FigureFlowable | TableFigureFlowable))
                out.append(IntroTable([*head, caption], table, self.frame_height))
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
        flowable = build_table(printed, self, self.styles.cell)
        flowable.spaceAfter = 8
        return caption, flowable


SENTENCE_END = "。！？!?"
RUN_IN_RANK = 9  # a run-in heading ranks below every Markdown heading level


def _heading_rank(item: Flowable, width: float) -> int | None:
    """A heading's Markdown level; RUN_IN_RANK for a run-in heading: a one-line paragraph
    outside quotes and lists that opens in bold and ends no sentence (「計分範例」,
    「一、殺人」, 「退縮的人：」, 「1. 教堂東主（遊戲結束時翻開）」), which introduces what
    follows just as a heading does; None for anything else."""
    if not isinstance(item, CJKParagraph):
        return None
    if item.outline:
        return item.level
    if not item.prose or item.bar or not item.runs or not item.runs[0].bold:
        return None
    if "".join(r.text for r in item.runs).rstrip()[-1:] in SENTENCE_END:
        return None
    item.wrap(width, 1e9)
    return RUN_IN_RANK if len(item.lines or ()) == 1 else None


def _unchain_last(chain: list[Flowable]) -> None:
    """Drops the last paragraph of a heading's chain, and the spaces after it: the chain
    keeps what comes before it, and ends there."""
    while chain and not isinstance(chain[-1], CJKParagraph):
        chain.pop()
    del chain[-1:]


def keep_headings_with_text(story: list[Flowable], width: float) -> None:
    """A heading keeps with it at least LINES_AFTER_HEADING lines of what follows (or all of
    its section, if shorter), so no heading ends a page with one line or none under it.
    A subheading right under it chains on; but a section shorter than that ends at the next
    heading of its own rank or higher, and does not drag that section along to the next
    page, which would leave the foot of this one blank."""
    for index, item in enumerate(story):
        rank = _heading_rank(item, width)
        if rank is None:
            continue
        item.keepWithNext = True
        lines = 0
        chain: list[Flowable] = []
        for following in story[index + 1:]:
            if isinstance(following, CJKParagraph):
                below = _heading_rank(following, width)
                if below is not None:
                    if lines and below <= rank:  # the section is whole: the next one starts
                        _unchain_last(chain)
                        break
                    rank = max(rank, below)
                    continue  # a subheading chains on; count the text under it
                following.wrap(width, 1e9)
                lines += len(following.lines or ())
            elif not isinstance(following, Spacer):
                # A table or figure travels with its introduction already. A table carries
                # its introduction in one block that moves on whole when the page is too
                # short for it: chained to the heading, it would drag the heading and its
                # lines over too, leaving the page foot blank.
                if lines and isinstance(following, IntroTable):
                    _unchain_last(chain)
                break
            if lines >= LINES_AFTER_HEADING:
                break
            chain.append(following)
        for following in chain:
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

    def furniture(canvas: Canvas, document: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont(fonts.regular.name, 8)
        canvas.setFillColor(HexColor("#7a6f60"))
        page = ui(lang, "page", number=document.page)
        running = f"{title} {ui(lang, 'sep')} {ui(lang, 'version', version=game.info.version, date=game.info.date)}"
        glyphs.check(page + running, False, "pnp/text/strings.py: page furniture")
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
