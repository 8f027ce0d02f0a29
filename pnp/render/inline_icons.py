"""Inline icons (``:name:`` in text) as PDF forms: each drawn once per PDF, then placed in its
line's em square wherever a text prints it.

An SVG icon stays vector (read by svglib into a reportlab drawing, its paths drawn into the
form); a PNG icon is an image XObject inside its form. Every use is one ``Do`` of the form
``icon-<name>``, so a deck that prints a die on forty cards holds one die, and tests can find
an icon's place in the page by the form's name. The icon keeps its aspect, centred in the
square from the line's ideographic bottom (0.12 em below the baseline) to its top (0.88
above), the box a CJK glyph fills.

A single-colour icon (an SVG whose every fill and stroke is one colour, or ``currentColor``)
takes the colour of the text around it: in a colour span it is drawn in the span's colour, and
a ``currentColor`` icon elsewhere in the text's colour; a one-colour icon outside a span keeps
its colour. Its form is drawn without colour of its own (a form paints in the colour it is
placed with), so one form serves every colour. A multi-colour SVG and a PNG keep their colours.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Mapping
from functools import cache
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from pnp.core.errors import DataError
from pnp.core.records import record
from pnp.data.imagefiles import kept_svg
from pnp.data.model import IconFile

EM_DESCENT = 0.12  # the ideographic em box of Noto CJK: 880 above the baseline, 120 below
_FORM_SIZE = 100.0  # a form is drawn in a 100 × 100 point square, scaled to the em


def icon_form_name(name: str) -> str:
    return f"icon-{name}"


@record
class OneColour:
    """How a single-colour icon is drawn when no colour span asks for another: in its own
    colour, or (``current``) in the text's."""

    colour: Any  # a reportlab colour
    current: bool


class IconForms:
    """The inline icons of one canvas: a form per icon, defined the first time it is placed.
    A holder, so a plain class (docs/architecture.md, "Start-up")."""

    def __init__(self, canvas: Canvas, icons: Mapping[str, IconFile]) -> None:
        self.canvas = canvas
        self.icons = icons
        self.defined: set[str] = set()
        self.one_colour: dict[str, OneColour | None] = {}  # by form

    def place(self, name: str, x: float, baseline: float, size: float, colour: Any = None,
              text_colour: Any = None) -> None:
        """Draw icon ``name`` in the em square of a line at ``baseline``, its left at ``x``
        (canvas points, in the current coordinate system); ``colour`` is the colour span's it
        stands in (a reportlab colour, or None), ``text_colour`` the text's around it."""
        form = icon_form_name(name)
        if form not in self.defined:
            self._define(name, form)
        canvas = self.canvas
        canvas.saveState()
        single = self.one_colour.get(form)
        if single is not None:
            paint = colour or (text_colour if single.current and text_colour is not None else single.colour)
            canvas.setFillColor(paint)
            canvas.setStrokeColor(paint)
        canvas.translate(x, baseline - EM_DESCENT * size)
        canvas.scale(size / _FORM_SIZE, size / _FORM_SIZE)
        canvas.doForm(form)
        canvas.restoreState()

    def _define(self, name: str, form: str) -> None:
        icon = self.icons.get(name)
        if icon is None:  # the loader checks every icon a text names; a book names its own
            raise DataError(f"unknown icon {name!r} (icons: {', '.join(sorted(self.icons)) or 'none'})")
        # A form's contents are written where it is defined: outside any open text object,
        # and in the page's own state (begin/endForm save and restore none of it).
        canvas = self.canvas
        canvas.beginForm(form, 0, 0, _FORM_SIZE, _FORM_SIZE)
        if icon.kind == "svg":
            self.one_colour[form] = _draw_svg(canvas, icon)
        else:
            _draw_png(canvas, icon)
        canvas.endForm()
        self.defined.add(form)


def _fit(width: float, height: float) -> tuple[float, float, float]:
    """(scale, dx, dy): a width × height picture fitted into the form's square, centred."""
    scale = _FORM_SIZE / max(width, height)
    return scale, (_FORM_SIZE - width * scale) / 2, (_FORM_SIZE - height * scale) / 2


def _draw_svg(canvas: Canvas, icon: IconFile) -> OneColour | None:
    """Draw an SVG icon into the open form; its colour when it has one only (then the form is
    drawn without it, to be placed in a colour)."""
    from svglib.svglib import svg2rlg

    # svglib reports what it cannot draw on its logger; the loader has already refused what
    # could be harmful, and an unsupported detail is not the reader's concern.
    svglib_log = logging.getLogger("svglib.svglib")
    level = svglib_log.level
    svglib_log.setLevel(logging.ERROR)
    try:
        # Read once in a process that builds again and again (pnp.data.imagefiles.keeping).
        drawing = kept_svg("icon", icon.data, lambda: svg2rlg(io.BytesIO(icon.data)))
    finally:
        svglib_log.setLevel(level)
    if drawing is None or not drawing.width or not drawing.height:
        raise DataError(f"{icon.path}: icon {icon.name!r} could not be drawn")
    colours = _paints(drawing)
    single = OneColour(HexColor(colours.pop()), b"currentColor" in icon.data) if len(colours) == 1 else None
    scale, dx, dy = _fit(drawing.width, drawing.height)
    canvas.saveState()
    canvas.translate(dx, dy)
    canvas.scale(scale, scale)
    from reportlab.graphics import renderPDF

    shapes_only, uncoloured = _renderers()
    renderer = uncoloured() if single is not None else shapes_only()
    renderer.draw(renderPDF.renderScaledDrawing(drawing), canvas, 0, 0)
    canvas.restoreState()
    return single


def _paints(drawing: Any) -> set[str]:
    """Every colour ('0xrrggbb') a drawing fills or strokes with (svglib resolves
    ``currentColor`` to the SVG's ``color``, black by default)."""
    from reportlab.graphics.shapes import Group

    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, Group):
            for child in node.contents:
                walk(child)
            return
        for attr in ("fillColor", "strokeColor"):
            value = getattr(node, attr, None)
            if value is not None:
                found.add(value.hexval())

    walk(drawing)
    return found


@cache
def _renderers() -> tuple[type[Any], type[Any]]:
    """reportlab's drawing renderer for icons, as (all colours, no colours of its own): made on
    first use, as only an SVG icon needs reportlab.graphics, a large import that a build whose
    faces draw no SVG icon should not pay for at start-up."""
    from reportlab.graphics import renderPDF

    class ShapesOnly(renderPDF._PDFRenderer):  # type: ignore[misc]  # reportlab is untyped
        """The renderer without its default font: it would name Helvetica, a font the PDF
        does not embed, in a form that prints no text (an icon has none: the loader refuses
        SVG text, which would need a font of its own)."""

        def applyStateChanges(self, delta: dict[str, Any], newState: dict[str, Any]) -> None:
            super().applyStateChanges({k: v for k, v in delta.items() if k not in ("fontName", "fontSize")},
                                      newState)

    class Uncoloured(ShapesOnly):
        """The renderer for a single-colour icon: its shapes filled and stroked as the SVG
        says, in whatever colour the form is placed with."""

        def setFillColor(self, c: Any) -> None:
            pass

        def setStrokeColor(self, c: Any) -> None:
            pass

    return ShapesOnly, Uncoloured


def _draw_png(canvas: Canvas, icon: IconFile) -> None:
    image = ImageReader(io.BytesIO(icon.data))
    width, height = image.getSize()
    scale, dx, dy = _fit(width, height)
    canvas.drawImage(image, dx, dy, width * scale, height * scale, mask="auto")
