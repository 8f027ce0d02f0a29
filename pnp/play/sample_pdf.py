"""A sample game's transcript typeset like the rulebook (``pnp sample --format pdf``).

Kept apart from pnp.play.narrate so the rulebook (which embeds narrated worked examples) can use
narration without narration depending back on the rulebook's typesetting.
"""

from __future__ import annotations

from pathlib import Path

from pnp.core.errors import BuildError, FontError, PnpError
from pnp.core.units import MM
from pnp.core.workspace import Workspace
from pnp.games.base import Sample
from pnp.layout.presets import SHEETS
from pnp.play.narrate import narration, template_path
from pnp.render.glyphs import GlyphCheck
from pnp.rulebook.pdf import render_rulebook
from pnp.rulebook.source import parse_markdown
from pnp.text.convert import converter_for
from pnp.text.fontchoice import game_fonts


def narration_pdf(workspace: Workspace, sample: Sample, lang: str, paper: str = "a4") -> bytes:
    """The transcript typeset like the rulebook (same fonts, page furniture and checks)."""
    if paper not in SHEETS:
        raise PnpError(f"unknown paper {paper!r} (expected one of: {', '.join(SHEETS)})")
    spec = SHEETS[paper]
    markdown = narration(workspace, sample, lang)
    fonts = game_fonts(workspace.fonts, lang, sample.game.info.fonts)
    glyphs = GlyphCheck(fonts)
    source = str(template_path(workspace.templates, sample.game.slug))
    data = render_rulebook(sample.game, lang, parse_markdown(markdown), fonts,
                           converter_for(sample.game, lang), glyphs, source,
                           (spec.width * MM, spec.height * MM))
    if glyphs.missing:
        raise FontError(glyphs.problems)
    if glyphs.overflows:
        raise BuildError(glyphs.overflows)
    return data


def default_pdf_path(workspace: Workspace, sample: Sample, lang: str) -> Path:
    return (workspace.output / sample.game.slug / lang /
            f"sample-seed{sample.seed}-p{sample.players}.pdf")
