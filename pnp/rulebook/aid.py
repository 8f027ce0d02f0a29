"""The one-sheet player aid: the same renderer as the rulebook, set on the paper and in the
columns that let a short aid use its sheet (a few trial layouts, positioned but not drawn).

A short aid is a card of half the sheet (A5 on A4, half-letter on Letter); it is printed two
to a sheet turned landscape, with a dashed cut line between them, so the file prints at actual
size on the paper the designer chose and one sheet gives two seats their card."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    PageTemplate,
)
from reportlab.platypus.doctemplate import LayoutError

from pnp.core.records import record
from pnp.core.units import MM
from pnp.data.model import Game
from pnp.render.folding import dashed_line
from pnp.render.glyphs import GlyphCheck
from pnp.render.sheetpage import CUT_LINE
from pnp.rulebook.source import MarkdownBlock
from pnp.rulebook.story import StoryBuilder, build_story
from pnp.rulebook.style import (
    AID,
    AID_BODY,
    AID_GAP,
    AID_MARGIN,
    BALANCE_SLACK,
    BALANCE_STEP,
    RULE,
    BookStyles,
    scaled,
)
from pnp.text.fonts import FontFamily
from pnp.text.strings import ui

# Where the cut line between two cards ends: 1 mm inside the 6.5 mm band many printers
# cannot reach, so its dashes never fall off the printable area.
CUT_END = 7.5 * MM

log = logging.getLogger(__name__)


@record
class AidLayout:
    """One way to set the player aid: the page, its columns, the type, and how tall the
    columns run from the top margin (None: down to the bottom margin). ``copies`` pages of
    ``pagesize`` are printed side by side on one sheet (2: a half-sheet card, twice)."""
    pagesize: tuple[float, float]
    columns: int
    styles: BookStyles
    column_height: float | None = None
    copies: int = 1


@record
class _SetAid:
    data: bytes
    pages: int
    used: tuple[float, ...]  # points: how far down from the top margin each column of page 1 runs


def _no_drawing(*args: Any, **kwargs: Any) -> None:
    pass


class _TrialFrame(Frame):  # type: ignore[misc]  # reportlab is untyped
    """A frame that places flowables without drawing them: a trial setting needs to know
    only where everything goes, and drawing was half of its time."""

    def _add(self, flowable: Flowable, canv: Canvas, trySplit: int = 0) -> int:  # noqa: N803 - reportlab's name
        flowable.drawOn = _no_drawing
        try:
            return int(super()._add(flowable, canv, trySplit))
        finally:
            del flowable.drawOn

    add = _add


def _typeset_aid(game: Game, lang: str, blocks: Sequence[MarkdownBlock], fonts: FontFamily,
                 convert: Callable[[str], str], glyphs: GlyphCheck, source: str,
                 layout: AidLayout, trial: bool = False) -> _SetAid:
    """The aid set in ``layout``; a ``trial`` is placed but neither drawn nor saved (its
    data is empty)."""
    buffer = io.BytesIO()
    title = f"{convert(game.info.name.value)} {ui(lang, 'aid')}"
    margin, gap = AID_MARGIN, AID_GAP
    width, height = layout.pagesize
    copies = 1 if trial else layout.copies  # a trial needs one copy to know where things go
    doc = BaseDocTemplate(
        buffer, pagesize=(width * copies, height), invariant=1, lang=lang, title=title, author="pnp",
        subject=f"{title} {game.info.version}", creator=f"pnp {game.slug}",
        initialFontName=fonts.regular.name, pageCompression=1,
        leftMargin=margin, rightMargin=margin, topMargin=margin, bottomMargin=margin,
    )
    full = height - 2 * margin
    column_height = min(full, layout.column_height or full)
    top = height - margin
    pages = [0]

    def furniture(canvas: Canvas, document: BaseDocTemplate) -> None:
        pages[0] = document.page
        canvas.saveState()
        canvas.setFont(fonts.regular.name, 7)
        canvas.setFillColor(HexColor("#7a6f60"))
        foot = f"{title} {ui(lang, 'sep')} {ui(lang, 'version', version=game.info.version, date=game.info.date)}"
        glyphs.check(foot, False, "pnp/text/strings.py: page furniture")
        for copy in range(copies):
            left = copy * width
            # Its descenders (the brackets round the date) clear the 6.5 mm band along the
            # paper edge that many printers cannot reach; at 7 mm they came to 6.4 mm.
            canvas.drawCentredString(left + width / 2, 8 * MM, foot)
            canvas.setStrokeColor(RULE)
            canvas.setLineWidth(0.4)
            for k in range(1, layout.columns):  # a rule between columns, as tall as they run
                x = left + margin + k * (column + gap) - gap / 2
                canvas.line(x, top - column_height + 4, x, top - 4)
        canvas.restoreState()
        for copy in range(1, copies):  # where the sheet is cut into its cards, inside the printable area
            dashed_line(canvas, CUT_LINE, copy * width, CUT_END, copy * width, height - CUT_END)

    columns = layout.columns
    column = (width - 2 * margin - gap * (columns - 1)) / columns
    kind = _TrialFrame if trial else Frame
    # The first copy's frames are "col<k>", whose ends the trials read; the others "copy<n>-col<k>".
    frames = [kind(copy * width + margin + k * (column + gap), top - column_height, column,
                   column_height, id=f"col{k}" if copy == 0 else f"copy{copy}-col{k}")
              for copy in range(copies) for k in range(columns)]
    lowest = [top] * columns

    def after(flowable: Flowable) -> None:
        frame = getattr(doc, "frame", None)  # none between a frame's end and the next one's start
        if doc.page == 1 and frame is not None and str(frame.id).startswith("col"):
            k = int(frame.id[3:])
            lowest[k] = min(lowest[k], frame._y)  # noqa: SLF001 - where the flowable ended
    doc.afterFlowable = after
    doc._doSave = not trial  # noqa: SLF001 - reportlab's switch for writing the file at the end
    doc.addPageTemplates([PageTemplate("aid", frames, onPage=furniture)])
    # Figures are sized for a column that runs the whole page, whatever the columns' height.
    story: list[Flowable] = []
    for copy in range(copies):
        builder = StoryBuilder(game, lang, fonts, convert, glyphs, source,
                               full - frames[0].topPadding - frames[0].bottomPadding,
                               frames[0].width - frames[0].leftPadding - frames[0].rightPadding,
                               layout.styles)
        if copy:
            story.append(FrameBreak())  # each copy starts in its own card's first column
        story.extend(build_story(builder, blocks))
    doc.build(story)
    return _SetAid(buffer.getvalue(), pages[0], tuple(top - y for y in lowest))


@dataclass
class _AidTrials:
    """Trial settings of one aid: each is placed, not drawn, its problems noted nowhere (the
    chosen layout is set again for real), a few milliseconds for a page."""
    game: Game
    lang: str
    blocks: Sequence[MarkdownBlock]
    fonts: FontFamily
    convert: Callable[[str], str]
    source: str

    def fits(self, layout: AidLayout) -> _SetAid | None:
        """The setting in ``layout`` if everything fits one page, else None."""
        try:
            trial = _typeset_aid(self.game, self.lang, self.blocks, self.fonts, self.convert,
                                 GlyphCheck(self.fonts), self.source, layout, trial=True)
        except LayoutError:  # something taller than the column: this layout cannot hold it
            return None
        return trial if trial.pages == 1 else None

    def balanced(self, layout: AidLayout, first: _SetAid) -> tuple[AidLayout, _SetAid]:
        """The columns of a layout that fits one page, made as short as they can be: bisected
        between their mean (no shorter can hold everything) and the page's full column (not
        the longest column set there: a paragraph split for a shorter column may not fit)."""
        low, best = sum(first.used) / len(first.used), first
        high = layout.pagesize[1] - 2 * AID_MARGIN
        while high - low > BALANCE_STEP:
            middle = (low + high) / 2
            trial = self.fits(replace(layout, column_height=middle))
            if trial is None:
                low = middle
            else:
                high, best = middle, trial
        return replace(layout, column_height=high), best


def aid_layout(game: Game, lang: str, blocks: Sequence[MarkdownBlock], fonts: FontFamily,
               convert: Callable[[str], str], source: str, pagesize: tuple[float, float]) -> AidLayout:
    """How the aid is set, found by trial settings of its one page, in the largest type of
    AID_BODY that works:
    - one column on half the sheet (A5 on A4, half-letter on Letter) when it fits there: a
      card beside each player's seat from half the paper, rather than one column of a sheet
      whose other half is blank (sizes are tried from the smallest up, and the first that
      does not fit ends the search);
    - else two columns on the sheet, balanced (as short as they can be with everything still
      on the page), in the largest type whose last column then runs below the first by no
      more than BALANCE_SLACK of its length: a table or a heading with its lines moves on
      whole, so columns cannot always end level, but a short first column beside a long
      second one reads as a gap; if no size does that, the one that overshoots least;
    - else (it runs onto the back) two full columns, the smallest type, on each side."""
    trials = _AidTrials(game, lang, blocks, fonts, convert, source)
    width, height = pagesize
    half: AidLayout | None = None
    for body in sorted(AID_BODY):
        layout = AidLayout((height / 2, width), 1, scaled(AID, body / AID.body.size), copies=2)
        if trials.fits(layout) is None:
            break
        half = layout
    if half is not None:
        return half
    fallback: tuple[float, AidLayout] | None = None
    for body in sorted(AID_BODY, reverse=True):
        styles = scaled(AID, body / AID.body.size)
        first = trials.fits(AidLayout(pagesize, 2, styles))
        if first is None:
            continue
        layout, setting = trials.balanced(AidLayout(pagesize, 2, styles), first)
        overshoot = (setting.used[-1] - setting.used[0]) / max(*setting.used, 1.0)
        if overshoot <= BALANCE_SLACK:
            return layout
        if fallback is None or overshoot < fallback[0]:
            fallback = (overshoot, layout)
    return fallback[1] if fallback else AidLayout(pagesize, 2, scaled(AID, min(AID_BODY) / AID.body.size))


def render_aid(game: Game, lang: str, blocks: Sequence[MarkdownBlock], fonts: FontFamily,
               convert: Callable[[str], str], glyphs: GlyphCheck, source: str,
               pagesize: tuple[float, float]) -> tuple[bytes, int]:
    """The player aid: the rulebook's typesetting, a size smaller, on half the sheet (two
    copies on the sheet turned landscape) or in two balanced columns on it (aid_layout), with
    the game's version at the foot. Returns the PDF and its page count (one sheet is at most
    two)."""
    layout = aid_layout(game, lang, blocks, fonts, convert, source, pagesize)
    aid = _typeset_aid(game, lang, blocks, fonts, convert, glyphs, source, layout)
    width, height = layout.pagesize
    log.info("%s %s player aid: %d × %.1f × %.1f mm, %d column(s), %g pt type", game.slug, lang,
             layout.copies, width / MM, height / MM, layout.columns, round(layout.styles.body.size, 2))
    return aid.data, aid.pages
