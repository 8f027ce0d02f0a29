"""Colour for print: the design's sRGB colours as the CMYK a press prints, and the profiles
that say what each file's numbers mean.

A design colour (``#rrggbb``) is sRGB. For a print shop's CMYK file every colour a face sets
goes through :class:`CmykInk`, handed to reportlab as the canvas's ``enforceColorSpace``, so no
drawing code changes and no colour escapes conversion (text objects take the canvas's too).
Greys (red = green = blue) print in black ink alone, so black text and hairlines stay sharp
on a press however its plates register; every other colour is converted through the press
profile, relative colorimetric with black point compensation: paper white stays paper, a
colour the press can reach is matched, and one it cannot is brought to the nearest it can.
The profiles themselves, and where they come from, are in ``icc/README.md``.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageCms
from reportlab.lib.colors import CMYKColor, Color, toColor

from pnp.core import files
from pnp.core.records import record

ICC_DIR = Path(__file__).parent / "icc"
# sRGB IEC 61966-2.1 (ArgyllCMS reference profile, public domain): what a PNG's pixels and a
# design's #rrggbb mean.
SRGB_PROFILE = ICC_DIR / "sRGB.icm"


@record
class PressCondition:
    """A printing condition as a PDF/X output intent names it, with the profile that prints it."""

    identifier: str  # OutputConditionIdentifier, as registered with the ICC
    registry: str  # where the identifier is registered
    condition: str  # the printing condition in words
    profile: Path  # an ICC output profile (CMYK)

    def profile_bytes(self) -> bytes:
        return _read(self.profile)


FOGRA39 = PressCondition(
    identifier="FOGRA39",
    registry="http://www.color.org",
    condition="Offset printing, according to ISO 12647-2:2004/Amd 1, OFCOM, paper type 1 or 2 = coated art, "
              "115 g/m2, tone value increase curves A (CMY) and B (K)",
    profile=ICC_DIR / "FOGRA39-pnp.icc",
)


@cache
def _read(path: Path) -> bytes:
    return files.read_bytes(path)


def srgb_profile() -> bytes:
    return _read(SRGB_PROFILE)


class CmykInk:
    """The CMYK that prints each design colour on one press; a reportlab colour enforcer.

    Called with any colour reportlab accepts, it returns a :class:`CMYKColor`: a colour given
    in CMYK is kept as it is, an sRGB one is converted (and remembered, since a deck sets the
    same few colours thousands of times)."""

    def __init__(self, press: PressCondition) -> None:
        self.press = press
        source = ImageCms.ImageCmsProfile(io.BytesIO(srgb_profile()))
        target = ImageCms.ImageCmsProfile(io.BytesIO(press.profile_bytes()))
        self._to_press = ImageCms.buildTransform(
            source, target, "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        # The lightness of black ink alone from none to full, to print a grey in K as light as
        # its four-ink conversion would print.
        self._to_lab = ImageCms.buildTransform(target, ImageCms.createProfile("LAB"), "CMYK", "LAB",
                                               renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        ramp = Image.new("CMYK", (256, 1))
        ramp.putdata([(0, 0, 0, k) for k in range(256)])
        self._k_lightness = self._lightness_of(ramp)
        self._known: dict[tuple[int, int, int], tuple[float, float, float, float]] = {}

    def __call__(self, color: Any) -> CMYKColor:
        color = toColor(color)
        if isinstance(color, CMYKColor):
            return color
        if not isinstance(color, Color):
            raise ValueError(f"not a colour: {color!r}")
        rgb = (round(color.red * 255), round(color.green * 255), round(color.blue * 255))
        return CMYKColor(*self.cmyk(rgb), alpha=color.alpha)

    def cmyk(self, rgb: tuple[int, int, int]) -> tuple[float, float, float, float]:
        """Ink fractions (0–1) of cyan, magenta, yellow and black for an sRGB colour (0–255)."""
        known = self._known.get(rgb)
        if known is None:
            known = self._grey(rgb[0]) if rgb[0] == rgb[1] == rgb[2] else self._convert(rgb)
            self._known[rgb] = known
        return known

    def picture(self, image: Image.Image) -> Image.Image:
        """An sRGB (or grey) picture's pixels in the press's CMYK, through the same transform as
        every design colour (relative colorimetric, black point compensation); alpha dropped
        (the caller keeps it as the picture's soft mask)."""
        press = ImageCms.applyTransform(image.convert("RGB"), self._to_press)
        assert press is not None
        return press

    def _press_pixel(self, rgb: tuple[int, int, int]) -> Image.Image:
        pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), self._to_press)
        assert pixel is not None
        return pixel

    def _lightness_of(self, cmyk: Image.Image) -> list[float]:
        lab = ImageCms.applyTransform(cmyk, self._to_lab)
        assert lab is not None
        return [lab.getpixel((x, 0))[0] * 100 / 255 for x in range(cmyk.width)]  # type: ignore[index]

    def _convert(self, rgb: tuple[int, int, int]) -> tuple[float, float, float, float]:
        c, m, y, k = self._press_pixel(rgb).getpixel((0, 0))  # type: ignore[misc]
        return round(c / 255, 4), round(m / 255, 4), round(y / 255, 4), round(k / 255, 4)

    def _grey(self, value: int) -> tuple[float, float, float, float]:
        # As light as the grey's four-ink conversion prints (so a grey sits among the colours
        # as it did on screen), in black ink; a grey darker than black ink alone can print,
        # black itself, gets all of it.
        target = self._lightness_of(self._press_pixel((value, value, value)))[0]
        ramp = self._k_lightness
        for k in range(1, 256):
            if ramp[k] <= target:
                # Between k - 1 and k: interpolate (the ramp falls as k rises).
                span = ramp[k - 1] - ramp[k]
                fraction = (ramp[k - 1] - target) / span if span else 1.0
                return 0.0, 0.0, 0.0, round(max(0.0, k - 1 + fraction) / 255, 4)
        return 0.0, 0.0, 0.0, 1.0


def png_bytes(image: Image.Image, dpi: float | None = None) -> bytes:
    """The image as PNG bytes tagged sRGB (an embedded profile), so a print shop's software
    reads the colours as the screen showed them. No timestamps and a fixed encoder setting:
    the same image gives the same bytes."""
    out = io.BytesIO()
    options: dict[str, Any] = {"optimize": False, "icc_profile": srgb_profile()}
    if dpi:
        options["dpi"] = (dpi, dpi)
    image.save(out, format="PNG", **options)
    return out.getvalue()
