"""Pictures as PDF forms: each file drawn once per canvas, then placed by every ``image`` element.

A picture becomes the form ``img-<sha256 of the file, 16 hex>`` the first time a face shows it,
so two names for the same bytes share one form and a deck of 54 cards showing one picture holds
it once. The form is the whole picture in its own units (one pixel, or one SVG point, per unit);
an element places it turned, scaled and clipped as :func:`pnp.data.images.element_placement`
says, the same placement the checks measure.

Rasters reach the PDF in sRGB: a picture with an ICC profile (an Adobe RGB photo, a CMYK JPEG
from a print workflow) is converted from its profile with LittleCMS; a CMYK picture without one
from naive CMYK. A JPEG already in sRGB or grey and untagged is embedded as it is (DCT, no
re-encoding); it keeps its pixels in every ink mode. On a canvas that prints in a press's CMYK
(a print shop's PDF/X-4 file, whose canvas enforces :class:`~pnp.render.colour.CmykInk`) a
raster is converted from sRGB to that CMYK by the same transform as every design colour, its
alpha kept as a soft mask: PDF/X-4 takes RGB only as ICC-based colour, and converting keeps
pictures and vectors on one rendering of the output intent. An SVG is drawn as vector paths by svglib,
its colours taken through the ink mode as a layout's shapes are, after the guard of
:mod:`pnp.data.imagefiles` (the file is read again here and its digest compared, so what is
drawn is what was checked).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import Color
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDFResourceDictionary, xObjectName
from reportlab.pdfgen.canvas import Canvas

from pnp.core import files
from pnp.core.errors import BuildError
from pnp.core.limits import MAX_IMAGE_BYTES
from pnp.data.imagefiles import svg_drawing
from pnp.data.model import ImageFile
from pnp.render.ink import ink_color

if TYPE_CHECKING:
    from pnp.data.imagefit import Placement
    from pnp.render.colour import CmykInk


def image_form_name(image: ImageFile) -> str:
    return f"img-{image.digest[:16]}"


def _srgb(image: Any) -> Any:
    """A decoded Pillow image as sRGB (or grey), alpha kept."""
    from PIL import Image, ImageCms

    icc = image.info.get("icc_profile")
    if icc and image.mode in ("RGB", "RGBA", "CMYK", "L"):
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        target = ImageCms.createProfile("sRGB")
        mode = "RGBA" if image.mode == "RGBA" else "RGB"
        converted = ImageCms.profileToProfile(image, source, target, outputMode=mode,
                                              renderingIntent=ImageCms.Intent.PERCEPTUAL)
        assert isinstance(converted, Image.Image)
        return converted
    if image.mode in ("RGB", "RGBA", "L"):
        return image
    has_alpha = image.mode in ("LA", "PA", "RGBa") or "transparency" in image.info
    return image.convert("RGBA" if has_alpha else "RGB")


def raster_reader(data: bytes, fmt: str) -> ImageReader:
    """What reportlab embeds for a raster file: the JPEG itself when it is plain sRGB or grey,
    else the decoded picture in sRGB."""
    from PIL import Image

    with Image.open(io.BytesIO(data), formats=(fmt,)) as image:
        if fmt == "JPEG" and image.mode in ("RGB", "L") and not image.info.get("icc_profile"):
            return ImageReader(io.BytesIO(data))
        image.load()
        return ImageReader(_srgb(image))


class _PressReader(ImageReader):  # type: ignore[misc]  # reportlab is untyped
    """A CMYK picture with its alpha as a soft mask: reportlab's reader takes a mask only from
    an RGBA or LA picture, and writes a CMYK one as DeviceCMYK."""

    def __init__(self, cmyk: Any, alpha: Any) -> None:
        super().__init__(cmyk)
        self._alpha = alpha

    def getRGBData(self) -> Any:  # noqa: N802 - reportlab's name
        data = super().getRGBData()
        self._dataA = None if self._alpha is None else ImageReader(self._alpha)
        return data


def press_reader(data: bytes, fmt: str, press: CmykInk) -> ImageReader:
    """What reportlab embeds for a raster file on a CMYK canvas: its sRGB pixels (as
    :func:`raster_reader` has them) in the press's CMYK, and its alpha, if any, as the mask."""
    from PIL import Image

    with Image.open(io.BytesIO(data), formats=(fmt,)) as image:
        image.load()
        srgb = _srgb(image)
        alpha = srgb.getchannel("A") if srgb.mode == "RGBA" else None
        return _PressReader(press.picture(srgb), alpha)


def _read_checked(image: ImageFile) -> bytes:
    data = files.read_bytes(Path(image.path), limit=MAX_IMAGE_BYTES)
    if hashlib.sha256(data).hexdigest() != image.digest:
        raise BuildError([f"{image.name} changed while the build was running: build again"])
    return data


def _shapes_renderer() -> Any:
    """reportlab's PDF renderer, less the font it sets at the start of every drawing: the guard
    lets no text into an SVG, and the default face (Helvetica, not embedded) would otherwise
    become a font of the PDF."""
    from reportlab.graphics import renderPDF

    class ShapesRenderer(renderPDF._PDFRenderer):  # type: ignore[misc]
        def applyStateChanges(self, delta: dict[str, Any], newState: dict[str, Any]) -> None:  # noqa: N802, N803
            shapes_only = {k: v for k, v in delta.items() if k not in ("fontName", "fontSize")}
            super().applyStateChanges(shapes_only, newState)

    return ShapesRenderer()


def _recolour(node: Any, ink: str) -> None:
    """An SVG's colours in an ink mode, as a layout's own shapes take it (pnp.render.ink): its
    dark fills turn to light tints, its light lines to dark shades. A raster keeps its pixels."""
    for attr, role in (("fillColor", "fill"), ("strokeColor", "stroke")):
        colour = getattr(node, attr, None)
        if isinstance(colour, Color):
            designed = "#" + "".join(f"{round(v * 255):02x}" for v in colour.rgb())
            printed = ink_color(designed, role, ink)  # type: ignore[arg-type]
            if printed != designed:
                red, green, blue = (int(printed[i:i + 2], 16) / 255 for i in (1, 3, 5))
                setattr(node, attr, Color(red, green, blue, alpha=colour.alpha))
    for child in getattr(node, "contents", ()):
        _recolour(child, ink)


def end_form(canvas: Canvas, name: str) -> None:
    """End the open form, giving it the graphics states it uses.

    reportlab writes a form's fonts and XObjects into its resources but not its graphics states
    (the transparency ``setFillAlpha`` sets, which an SVG's ``opacity`` also uses): a viewer then
    finds ``/gRLs0 gs`` naming nothing. The form's resources are written here in full instead.
    """
    canvas.endForm()
    form = canvas._doc.idToObject[xObjectName(name)]
    state = getattr(form, "ExtGState", None)
    if state:
        resources = PDFResourceDictionary()  # no basicFonts(): a picture sets no text
        resources.allProcs()
        if form.XObjects:
            resources.XObject = form.XObjects
        resources.ExtGState = state
        form.Resources = resources


class ImageForms:
    """The picture forms of one canvas, each defined on first use. A holder,
    so a plain class (docs/architecture.md, "Start-up")."""

    def __init__(self, canvas: Canvas, images: Mapping[str, ImageFile], ink: str = "full") -> None:
        self.canvas = canvas
        self.images = images
        self.ink = ink  # one ink mode per canvas, so a form's name need not say it
        self.defined: set[str] = set()

    def form(self, image: ImageFile) -> str:
        name = image_form_name(image)
        if name in self.defined:
            return name
        data = _read_checked(image)
        canvas = self.canvas
        canvas.beginForm(name, 0, 0, image.width, image.height)
        if image.raster:
            # The canvas's colour enforcer is how a PDF/X file converts every colour it sets;
            # its pictures follow it (pnp.render.pdfx).
            from pnp.render.colour import CmykInk  # with LittleCMS: a raster picture's, not every face's

            press = getattr(canvas, "_enforceColorSpace", None)
            reader = press_reader(data, image.format, press) if isinstance(press, CmykInk) \
                else raster_reader(data, image.format)
            canvas.drawImage(reader, 0, 0, image.width, image.height, mask="auto")
        else:
            from reportlab.graphics.renderbase import renderScaledDrawing

            drawing = svg_drawing(image.name, data)
            if self.ink != "full":
                _recolour(drawing, self.ink)
            _shapes_renderer().draw(renderScaledDrawing(drawing), canvas, 0, 0)
        end_form(canvas, name)
        self.defined.add(name)
        return name

    def faded(self, image: ImageFile, opacity: float) -> str:
        """The picture's form shown at ``opacity``: its own form, so the transparency it needs
        is a resource of a form this module ends (see :func:`end_form`)."""
        base = self.form(image)
        name = f"{base}-a{round(opacity * 1000):03d}"
        if name not in self.defined:
            canvas = self.canvas
            canvas.beginForm(name, 0, 0, image.width, image.height)
            canvas.setFillAlpha(opacity)
            canvas.doForm(base)
            end_form(canvas, name)
            self.defined.add(name)
        return name

    def place(self, image: ImageFile, placement: Placement, to_x: Any, to_y: Any, unit: float,
              opacity: float) -> None:
        """Draw ``image`` as placed: ``to_x``/``to_y`` turn layout millimetres into the face's
        points (y up), ``unit`` is a millimetre in points."""
        form = self.form(image) if opacity >= 1 else self.faded(image, opacity)
        canvas = self.canvas
        clip, drawn, crop = placement.clip, placement.drawn, placement.crop
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(to_x(clip.left), to_y(clip.bottom), clip.width * unit, clip.height * unit)
        canvas.clipPath(path, stroke=0, fill=0)
        canvas.translate(to_x(drawn.left + drawn.width / 2), to_y(drawn.top + drawn.height / 2))
        canvas.rotate(-placement.rotate)  # clockwise, with y up
        turned = placement.rotate in (90, 270)
        width, height = (drawn.height, drawn.width) if turned else (drawn.width, drawn.height)
        canvas.scale(width * unit / crop.width, height * unit / crop.height)
        # The crop's centre, in the form's units (y up from the picture's bottom).
        canvas.translate(-(crop.left + crop.width / 2), -(image.height - crop.top - crop.height / 2))
        canvas.doForm(form)
        canvas.restoreState()
