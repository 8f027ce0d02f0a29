"""Where an ``image`` element puts its picture: pure math shared by the checks and the drawing.

The loader, ``pnp check`` and the renderer must agree on which part of a picture shows and how
large each pixel prints, so all three call :func:`place_image`; the resolution a check reports
is the resolution the PDF holds.

Layout coordinates: millimetres from the trim's top-left corner, y down. A picture is the part
of its file the ``crop`` keeps, turned by ``rotate`` (quarter turns clockwise), then fitted to
the box: ``contain`` shows all of it, ``cover`` fills the box and cuts what overflows (the
``focus`` point kept as near the box's centre as the cut allows), ``stretch`` fills the box
and gives up the aspect. With ``bleed: true`` each box edge lying on the trim edge reaches
out to the bleed edge.
"""

from __future__ import annotations

from pnp.core.records import record

MM_PER_INCH = 25.4
_EDGE = 1e-6  # mm: a box edge this close to the trim edge lies on it


@record
class Rect:
    left: float
    top: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def bottom(self) -> float:
        return self.top + self.height


@record
class Placement:
    """One picture on one face: what is shown, where, and how finely."""

    clip: Rect  # the box (reaching into the bleed where asked): nothing is drawn outside it
    drawn: Rect  # where the cropped, turned picture lands (may overflow the clip under cover)
    crop: Rect  # the part of the file shown, in the file's own units (pixels, y down)
    rotate: int  # quarter turns clockwise, in degrees
    dpi: float | None  # pixels per inch at print size, the coarser direction; None for vectors

    @property
    def shown(self) -> Rect:
        """What of the face the picture covers: the drawn picture within the clip."""
        left, top = max(self.clip.left, self.drawn.left), max(self.clip.top, self.drawn.top)
        right = min(self.clip.right, self.drawn.right)
        bottom = min(self.clip.bottom, self.drawn.bottom)
        return Rect(left, top, max(0.0, right - left), max(0.0, bottom - top))


def bleed_box(box: Rect, trim_w: float, trim_h: float, bleed: float) -> Rect:
    """The box with each edge lying on the trim edge moved out by ``bleed``."""
    left = box.left - bleed if box.left <= _EDGE else box.left
    top = box.top - bleed if box.top <= _EDGE else box.top
    right = box.right + bleed if box.right >= trim_w - _EDGE else box.right
    bottom = box.bottom + bleed if box.bottom >= trim_h - _EDGE else box.bottom
    return Rect(left, top, right - left, bottom - top)


def touches_trim(box: Rect, trim_w: float, trim_h: float) -> bool:
    return (box.left <= _EDGE or box.top <= _EDGE or box.right >= trim_w - _EDGE
            or box.bottom >= trim_h - _EDGE)


def _turned_focus(fx: float, fy: float, rotate: int) -> tuple[float, float]:
    """A point of the picture (fractions, y down) after turning it ``rotate`` degrees clockwise."""
    if rotate == 90:
        return 1 - fy, fx
    if rotate == 180:
        return 1 - fx, 1 - fy
    if rotate == 270:
        return fy, 1 - fx
    return fx, fy


def _cover_offset(box_start: float, box_len: float, drawn_len: float, focus: float) -> float:
    """Where the picture starts so its focus sits at the box's centre, no gap left at either end."""
    start = box_start + box_len / 2 - focus * drawn_len
    return min(box_start, max(box_start + box_len - drawn_len, start))


def place_image(clip: Rect, size: tuple[float, float], fit: str,
                crop: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0),
                focus: tuple[float, float] = (0.5, 0.5), rotate: int = 0,
                raster: bool = True) -> Placement:
    """Fit a picture of ``size`` (pixels, or points for a vector) into ``clip``: the box as
    written, reaching into the bleed where asked (see :func:`bleed_box`)."""
    width, height = size
    cx, cy, cw, ch = crop
    part = Rect(cx * width, cy * height, cw * width, ch * height)
    turned_w, turned_h = (part.height, part.width) if rotate in (90, 270) else (part.width, part.height)
    if fit == "stretch":
        drawn = clip
    else:
        scale = (min if fit == "contain" else max)(clip.width / turned_w, clip.height / turned_h)
        dw, dh = turned_w * scale, turned_h * scale
        if fit == "contain":
            drawn = Rect(clip.left + (clip.width - dw) / 2, clip.top + (clip.height - dh) / 2, dw, dh)
        else:
            # The focus is a point of the whole file; where it falls in the part kept, then turned.
            fx = min(1.0, max(0.0, (focus[0] - cx) / cw))
            fy = min(1.0, max(0.0, (focus[1] - cy) / ch))
            tx, ty = _turned_focus(fx, fy, rotate)
            drawn = Rect(_cover_offset(clip.left, clip.width, dw, tx),
                         _cover_offset(clip.top, clip.height, dh, ty), dw, dh)
    dpi = None
    if raster:
        dpi = min(turned_w / (drawn.width / MM_PER_INCH), turned_h / (drawn.height / MM_PER_INCH))
    return Placement(clip, drawn, part, rotate, dpi)
