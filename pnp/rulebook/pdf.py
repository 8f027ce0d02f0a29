"""The rulebook PDF: the story of its blocks (pnp.rulebook.story) set on A4 or Letter pages
with a running header, page numbers and an outline of its headings."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate

from pnp.core.units import MM
from pnp.data.model import Game
from pnp.render.glyphs import GlyphCheck
from pnp.rulebook.source import MarkdownBlock
from pnp.rulebook.story import StoryBuilder, build_story
from pnp.rulebook.style import RULE
from pnp.text.fonts import FontFamily
from pnp.text.strings import ui


def render_rulebook(game: Game, lang: str, blocks: Sequence[MarkdownBlock], fonts: FontFamily,
                    convert: Callable[[str], str], glyphs: GlyphCheck, source: str,
                    pagesize: tuple[float, float],
                    story: Callable[[StoryBuilder, Sequence[MarkdownBlock]], list[Flowable]] = build_story) -> bytes:
    """The rulebook PDF: A4/Letter, running header, page numbers, an outline of headings;
    ``story`` turns the blocks into flowables (a report that sets charts between them passes
    its own)."""
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
    builder = StoryBuilder(game, lang, fonts, convert, glyphs, source,
                           frame.height - frame.topPadding - frame.bottomPadding,
                           frame.width - frame.leftPadding - frame.rightPadding)
    doc.build(story(builder, blocks))
    return buffer.getvalue()
