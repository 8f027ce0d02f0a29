"""What drawing one face needs besides its layout (its component, card, size, fields, fonts,
tables, glyph check and ink), and how a face resolves what its elements ask for: a box or point
in trim millimetres to canvas points, a designed colour to the ink chosen, and the fill and
stroke of a shape (a dark fill saved as a tint keeps its edge in its designed colour).

A face is drawn in its own coordinate system: origin at the bottom-left of the bleed box,
points as units. Layout coordinates are millimetres from the top-left of the trim.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp.core.errors import DataError
from pnp.core.records import record
from pnp.core.units import MM
from pnp.data.markup import MarkupError, has_markup, parse_markup
from pnp.data.model import Component, Element, PrintedTable, Text
from pnp.data.schema import FIELD_REF, resolve_coord
from pnp.data.spec import prop
from pnp.render.glyphs import GlyphCheck
from pnp.render.ink import Role, ink_color
from pnp.render.symbols import SymbolForms
from pnp.text.fitcache import fit_text
from pnp.text.fonts import FontFamily, kern_for, measure_for, squeeze_for
from pnp.text.linetypes import ICON, Kern, Run, Squeeze
from pnp.text.shrink import Fit

if TYPE_CHECKING:
    from pnp.render.images import ImageForms
    from pnp.render.inline_icons import IconForms


@record
class FaceContext:
    """What drawing a face needs besides its layout: size, text, fonts and tables."""

    component: Component
    card_id: str
    fields: Mapping[str, Text]
    width: float  # trim, mm
    height: float
    bleed: float
    fonts: FontFamily
    convert: Callable[[str], str]
    tables: Mapping[str, PrintedTable]
    glyphs: GlyphCheck
    symbols: SymbolForms | None = None  # needed by faces with symbol / icons elements
    ink: str = "full"  # pnp.render.ink.INKS: as designed, or light fills for a home printer
    icons: IconForms | None = None  # the game's inline icons, for text that prints them
    images: ImageForms | None = None  # needed by faces with image elements

    def with_font(self, role: str | None) -> FaceContext:
        """This context with the family of the text role an element names (its ``font:``)."""
        family = self.fonts.role(role or "body")
        return self if family is self.fonts else dataclasses.replace(self, fonts=family)

    def font(self, bold: bool) -> str:
        return self.fonts.bold.name if bold else self.fonts.regular.name

    @property
    def measure(self) -> Callable[[str, bool, float], float]:
        # One measure per font family, so break-unit widths cached by textlayout are shared
        # by every card and sheet that sets the same text.
        return measure_for(self.fonts)

    @property
    def squeeze(self) -> Squeeze:
        return squeeze_for(self.fonts)

    @property
    def kern(self) -> Kern:
        return kern_for(self.fonts)

    def fit(self, text: str, bold: bool, box_w: float, box_h: float, size: float,
            min_size: float, markup: bool = False) -> Fit | None:
        """``text`` fitted to a box of millimetres, its lines set as the rulebook sets a
        paragraph: adjacent punctuation closed up, a line taking one more unit by compressing
        its punctuation (drawn justified by :func:`draw_fitted`). With ``markup``, the text's
        bold, colours, icons and line breaks (:mod:`pnp.data.markup`) are read first."""
        return fit_text(self.runs(text, bold, markup), box_w * MM, box_h * MM, size, min_size,
                        self.measure, squeeze=self.squeeze, kern=self.kern)

    def runs(self, text: str, bold: bool, markup: bool = False) -> list[Run]:
        """The styled runs ``text`` prints as: one plain run unless ``markup`` reads more."""
        if not markup or not has_markup(text):
            return [Run(text, bold)]
        names = self.icons.icons if self.icons is not None else {}
        try:
            spans = parse_markup(text, names, bold)
        except MarkupError as exc:  # the loader read every card's markup; a converted text too
            raise DataError(f"{self.describe()}: {exc}") from exc
        return [Run(ICON, s.bold, colour=s.colour, icon=s.icon) if s.icon is not None
                else Run(s.text, s.bold, colour=s.colour) for s in spans]

    def x(self, mm_from_left: float) -> float:
        return (self.bleed + mm_from_left) * MM

    def y(self, mm_from_top: float) -> float:
        return (self.bleed + self.height - mm_from_top) * MM

    def substitute(self, value: str) -> str:
        return FIELD_REF.sub(lambda m: self.fields[m.group(1)].value, value)

    def text_of(self, element: Element, key: str = "text") -> Text:
        """The converted text of an element and where its words came from."""
        raw = element.props[key]
        refs = FIELD_REF.findall(raw)
        where = self.fields[refs[0]].where if len(refs) == 1 and raw == "{" + refs[0] + "}" \
            else f"{element.where}.{key}"
        return Text(self.convert(self.substitute(raw)), where)

    def describe(self) -> str:
        return f"component {self.component.id!r}, card {self.card_id!r}"


def face_color(ctx: FaceContext, value: str | None, role: Role = "fill") -> Any:
    if value is None:
        return None
    return _hex_color(ctx.substitute(value), role, ctx.ink)


@lru_cache(maxsize=4096)
def _hex_color(value: str, role: Role, ink: str) -> Any:
    # Parsing a colour costs more than drawing with it; a face uses a handful, thousands of times.
    return HexColor(ink_color(value, role, ink))


def _saved_fill(ctx: FaceContext, value: str | None) -> bool:
    """Whether a designed fill prints as a light tint in this ink mode."""
    return value is not None and ink_color(ctx.substitute(value), "fill", ctx.ink) \
        != ctx.substitute(value)


def element_box(ctx: FaceContext, element: Element) -> tuple[float, float, float, float]:
    x, y, w, h = element.get("box")
    return (resolve_coord(x, ctx.width), resolve_coord(y, ctx.height),
            resolve_coord(w, ctx.width), resolve_coord(h, ctx.height))


OUTLINE = 0.35  # mm: the edge a dark shape keeps when its fill prints as a tint


def stroke_fill(canvas: Canvas, ctx: FaceContext, element: Element) -> tuple[int, int]:
    fill = face_color(ctx, element.get("fill"))
    stroke = face_color(ctx, element.get("stroke"), "stroke")
    if fill is not None:
        canvas.setFillColor(fill)
    if stroke is not None:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(float(prop(element, "stroke_width")) * MM)
    elif _saved_fill(ctx, element.get("fill")):
        # The shape keeps its edge in its designed colour.
        canvas.setStrokeColor(HexColor(ctx.substitute(element.get("fill"))))
        canvas.setLineWidth(OUTLINE * MM)
        stroke = fill
    return int(stroke is not None), int(fill is not None)
