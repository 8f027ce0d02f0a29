"""Card faces as images for exports, rasterised by PDFium from the sheets' own face forms.

Every face is drawn by FaceForms (the code that draws the components PDF) on a page exactly
its bleed box, all in one document so a shared form is drawn once, and rasterised page by
page. An export never draws a face a second way.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from pnp.core.errors import BuildError, FontError
from pnp.core.records import record
from pnp.core.units import MM
from pnp.data.model import Card, Component, Game
from pnp.render.glyphs import GlyphCheck
from pnp.render.raster import pdf_pages
from pnp.render.sheets import FaceForms, face_geometry
from pnp.text.fonts import FontFamily


@record
class FaceRef:
    component: Component
    card: Card
    side: str  # front | back


def face_size_mm(ref: FaceRef) -> tuple[float, float, float]:
    """Trim width, height and bleed (mm) of a face."""
    width, height, bleed, _ = face_geometry(ref.component, ref.card)
    return width, height, bleed


def mm_to_px(mm: float, dpi: float) -> int:
    return round(mm / 25.4 * dpi)


class FaceRenderer:
    """Face forms of one game and script, rendered to images on demand and kept by form name."""

    def __init__(self, game: Game, fonts: FontFamily, convert: Callable[[str], str]) -> None:
        self.game = game
        self.fonts = fonts
        self.convert = convert
        self.glyphs = GlyphCheck(fonts)

    def images(self, refs: Sequence[FaceRef], dpi: float, trim: bool = False
               ) -> list[tuple[str, Image.Image]]:
        """The form name and an RGB image of each ref, at ``dpi``; with ``trim`` the bleed is
        cut off. Equal names are the same picture (a deck's shared back), rendered once.

        The pixel size is the face's size in mm at ``dpi``, rounded: a print shop's template
        (815×1110 px for 63×88 mm with 3 mm bleed at 300 dpi) is matched exactly.
        """
        buffer = io.BytesIO()
        canvas = Canvas(buffer, invariant=1, initialFontName=self.fonts.regular.name, pageCompression=1)
        forms = FaceForms(canvas, self.game, self.fonts, self.convert, self.glyphs)
        names = [forms.face(ref.component, ref.card, ref.side) for ref in refs]
        order: dict[str, FaceRef] = {}
        for name, ref in zip(names, refs, strict=True):
            order.setdefault(name, ref)
        for ref in order.values():
            width, height, bleed = face_size_mm(ref)
            canvas.setPageSize(((width + 2 * bleed) * MM, (height + 2 * bleed) * MM))
            canvas.doForm(forms.face(ref.component, ref.card, ref.side))
            canvas.showPage()
        canvas.save()
        self.raise_problems()
        rendered: dict[str, Image.Image] = {}
        for (name, ref), image in zip(order.items(), pdf_pages(buffer.getvalue(), dpi), strict=True):
            width, height, bleed = face_size_mm(ref)
            full = (mm_to_px(width + 2 * bleed, dpi), mm_to_px(height + 2 * bleed, dpi))
            if image.size != full:  # PDFium truncates where the mm size rounds up
                image = image.resize(full, Image.Resampling.LANCZOS)
            if trim and bleed:
                cut = mm_to_px(bleed, dpi)
                image = image.crop((cut, cut, cut + mm_to_px(width, dpi), cut + mm_to_px(height, dpi)))
            rendered[name] = image
        return [(name, rendered[name]) for name in names]

    def raise_problems(self) -> None:
        if self.glyphs.missing:
            raise FontError(self.glyphs.problems)
        if self.glyphs.overflows:
            raise BuildError(self.glyphs.overflows)
