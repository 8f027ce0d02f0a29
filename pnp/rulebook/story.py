"""The story of a book: rendered Markdown blocks made into the flowables (reportlab's story)
that the rulebook and the player aid set on their pages. ``StoryBuilder`` owns what a book
being built shares with everything in it (the game, its script, fonts, glyph check, the
frame's measure, the running numbers of headings, tables and figures, the face forms figures
draw); the figures and tables are handed it. The keeps live here too: a heading holds its
first lines, a table or figure its introduction, a quote's paragraphs one shaded box."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Spacer, Table

from pnp.core.errors import DataError
from pnp.data.model import Game
from pnp.render.glyphs import GlyphCheck
from pnp.render.inline_icons import IconForms
from pnp.render.sheets import FaceForms
from pnp.rulebook.card_figure import FigureFlowable
from pnp.rulebook.flow import IntroTable, take_introduction
from pnp.rulebook.paragraph import CJKParagraph
from pnp.rulebook.source import MarkdownBlock
from pnp.rulebook.style import LINES_AFTER_HEADING, RULEBOOK, BookStyles, TextStyle
from pnp.rulebook.table_figure import TableFigureFlowable
from pnp.rulebook.tables import TABLE_CAPTION_STYLE, build_table
from pnp.text.fonts import FontFamily
from pnp.text.linetypes import Run
from pnp.text.strings import ui


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
class StoryBuilder:
    """One book being built (a rulebook, or one copy of an aid): what its flowables ask of it,
    and the running numbers of its headings, tables and figures."""

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
        self.check_icons(runs, block)
        return CJKParagraph(runs, style, self.fonts, self.glyphs, self.where(block), icons=self.icon_forms, **kw)

    def icon_forms(self, canvas: Canvas) -> IconForms:
        """The inline icons of the book's canvas: the face forms' own, so a figure's card and
        the text beside it share one form per icon."""
        return self.face_forms(canvas).icons

    def check_icons(self, runs: Sequence[Run], block: MarkdownBlock) -> None:
        """Every ``:name:`` the book prints is one of the game's icons."""
        for run in runs:
            if run.icon is not None and run.icon not in self.game.icons:
                known = ", ".join(sorted(self.game.icons)) or "none: add icons/NAME.svg or icons/NAME.png"
                raise DataError(f"{self.where(block)}: unknown icon ':{run.icon}:' (icons: {known})")

    def flowables(self, blocks: Sequence[MarkdownBlock], in_quote: bool = False) -> list[Flowable]:
        out: list[Flowable] = []
        for block in blocks:
            if block.kind == "heading":
                style = {1: self.styles.h1, 2: self.styles.h2}.get(block.level, self.styles.h3)
                title = "".join(r.text for r in block.runs if r.icon is None)
                self.headings += 1
                self.outline_level = min(max(0, block.level - 1), self.outline_level + 1)
                outline = (title, self.outline_level, f"h{self.headings}")
                self.check_icons(block.runs, block)
                heading = CJKParagraph(block.runs, style, self.fonts.role("title"), self.glyphs,
                                       self.where(block), outline=outline, icons=self.icon_forms)
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


def build_story(builder: StoryBuilder, blocks: Sequence[MarkdownBlock]) -> list[Flowable]:
    story = builder.flowables(blocks)
    keep_headings_with_text(story, builder.text_width)
    return story
