"""Ink modes: the colours a face is drawn in, as designed or kinder to a home printer.

``saver`` keeps every shape and every word but moves dark fills to light tints of their own
hue, and so light text and light lines, which were legible only on those fills, to dark shades
of theirs. A filled shape that turns light keeps its edge as an outline in its designed
colour, so a panel still reads as a panel. The rule follows a colour's role, not the face:
a dark back, a dark header row and a dark box on a pale card all print the same way.
"""

from __future__ import annotations

from typing import Literal

INKS = ("full", "saver")
Role = Literal["fill", "text", "stroke"]

DARK = 0.30  # relative luminance below which a fill is heavy on ink
LIGHT = 0.45  # above which text or a line needs a dark fill under it to be read
TINT = 0.12  # how much of its colour a dark fill keeps, mixed with the paper
SHADE = 0.28  # how much of its colour light text keeps, mixed with black


def _rgb(hex_color: str) -> tuple[int, int, int]:
    value = hex_color.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(min(255.0, max(0.0, c))):02x}" for c in rgb)


def luminance(hex_color: str) -> float:
    """Relative luminance (WCAG) of a #rrggbb colour, 0 black to 1 white."""
    def linear(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in _rgb(hex_color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def is_dark(hex_color: str) -> bool:
    return luminance(hex_color) < DARK


def tint(hex_color: str) -> str:
    """The colour as a light wash: a little of it on white paper."""
    r, g, b = _rgb(hex_color)
    return _hex((255 - TINT * (255 - r), 255 - TINT * (255 - g), 255 - TINT * (255 - b)))


def shade(hex_color: str) -> str:
    """The colour deepened enough to read on white."""
    r, g, b = _rgb(hex_color)
    return _hex((SHADE * r, SHADE * g, SHADE * b))


def ink_color(hex_color: str, role: Role, ink: str) -> str:
    """The colour to print for one role (``fill``, ``text`` or ``stroke``) in an ink mode."""
    if ink == "full":
        return hex_color
    if role == "fill":
        return tint(hex_color) if is_dark(hex_color) else hex_color
    return shade(hex_color) if luminance(hex_color) > LIGHT else hex_color
