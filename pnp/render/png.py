"""One PNG per card face, at 300 dpi with bleed, for designers who proof on screen or send
faces to a print shop one by one.

Each face is drawn by the same FaceForms code as the sheets, on a page exactly its bleed box,
and rasterised with PDFium; the pixels are the PDF's pixels. A board that the sheets print in
tiles is one PNG of the whole board (a print shop prints it in one piece; 600×600 mm at 300 dpi
is about 7100 px square).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field

from reportlab.pdfgen.canvas import Canvas

from pnp.core.units import MM
from pnp.data.model import Component, Game
from pnp.render.colour import png_bytes
from pnp.render.glyphs import GlyphCheck
from pnp.render.raster import pdf_pages
from pnp.render.sheets import FaceForms, face_geometry
from pnp.text.fonts import FontFamily

log = logging.getLogger(__name__)

DPI = 300


@dataclass
class FaceRasters:
    """The PNGs of the last faces drawn, by the digest of each face's one-page PDF, for a
    process that builds again and again (``pnp serve``, ``pnp build --watch``): a face whose PDF
    has the same bytes as last time has the same pixels, so its PNG is taken, not made again.
    Rasterising and encoding is most of a face's cost; a one-card edit changes one face.

    Only the faces of the latest build of each game and script are kept, so it holds no more
    than that build's PNGs. ``drawn`` and ``reused`` count the faces of the last build."""

    kept: dict[tuple[str, str], dict[str, bytes]] = field(default_factory=dict)
    drawn: int = 0
    reused: int = 0


_RASTERS: ContextVar[FaceRasters | None] = ContextVar("face_rasters", default=None)


@contextlib.contextmanager
def reusing(rasters: FaceRasters) -> Iterator[FaceRasters]:
    """Within the block (in this thread), faces are rasterised through ``rasters``."""
    rasters.drawn = rasters.reused = 0
    token = _RASTERS.set(rasters)
    try:
        yield rasters
    finally:
        _RASTERS.reset(token)
        log.info("face PNGs: %d drawn, %d as before", rasters.drawn, rasters.reused)


def _rasterise(pdf: bytes, dpi: int) -> bytes:
    (image,) = pdf_pages(pdf, dpi)  # a face's PDF is its one page
    return png_bytes(image, dpi)


def _sides(component: Component) -> tuple[str, ...]:
    # A back drawn from the front's own layout (a token printed the same on both sides) is the
    # front again: one PNG says it.
    two_faced = component.back and component.back != component.front
    return ("front", "back") if two_faced else ("front",)


def png_pixels(game: Game, dpi: int = DPI) -> tuple[int, int]:
    """(faces, pixels) ``render_face_pngs`` draws at most: what ``build --png`` will cost,
    known before anything is drawn."""
    faces = pixels = 0
    per_mm = dpi / 25.4
    for component in game.components:
        sides = len(_sides(component))
        for card in component.cards:
            width, height, bleed, _ = face_geometry(component, card)
            faces += sides
            pixels += sides * round((width + 2 * bleed) * per_mm) * round((height + 2 * bleed) * per_mm)
    return faces, pixels


def render_face_pngs(game: Game, fonts: FontFamily, convert: Callable[[str], str],
                     glyphs: GlyphCheck, dpi: int = DPI) -> dict[str, bytes]:
    """``<component>-<card>-<side>.png`` -> PNG bytes for every distinct face of the game."""
    pngs: dict[str, bytes] = {}
    rasters = _RASTERS.get()
    before = rasters.kept.get((game.slug, fonts.regular.name), {}) if rasters is not None else {}
    made: dict[str, bytes] = {}
    for component in game.components:
        sides = _sides(component)
        for card in component.cards:
            width, height, bleed, _ = face_geometry(component, card)
            size = ((width + 2 * bleed) * MM, (height + 2 * bleed) * MM)
            for side in sides:
                buffer = io.BytesIO()
                canvas = Canvas(buffer, pagesize=size, invariant=1, initialFontName=fonts.regular.name)
                name = FaceForms(canvas, game, fonts, convert, glyphs).face(component, card, side)
                # A face every card shares is named for its component alone (identity-back.png).
                file_name = name.removeprefix("face-").replace("-_all-", "-") + ".png"
                if file_name in pngs:
                    continue  # a face every card shares (a deck's back) is written once
                canvas.doForm(name)
                canvas.showPage()
                canvas.save()
                pdf = buffer.getvalue()
                key = f"{dpi}:{hashlib.sha256(pdf).hexdigest()}"
                found = made.get(key) or before.get(key)  # two cards drawn alike are one PNG too
                if rasters is not None:
                    if found is None:
                        rasters.drawn += 1
                    else:
                        rasters.reused += 1
                if found is None:
                    found = _rasterise(pdf, dpi)
                made[key] = pngs[file_name] = found
    if rasters is not None:  # the script's fonts tell its faces apart from the other script's
        rasters.kept[(game.slug, fonts.regular.name)] = made
    return pngs
