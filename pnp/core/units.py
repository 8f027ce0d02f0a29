"""Millimetres: to PDF points (layouts are written in mm, reportlab draws in points), and the
``X,Y`` offsets in mm a designer types for a printer's duplex shift (``--back-offset``)."""

from __future__ import annotations

import re

from pnp.core.errors import PnpError

MM = 72.0 / 25.4

MAX_OFFSET = 20.0  # mm; a printer off by more than this needs repair, not an offset
_OFFSET = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$")


def parse_offset(text: str, where: str = "") -> tuple[float, float]:
    """``X,Y`` in mm, each within ±MAX_OFFSET."""
    prefix = f"{where}: " if where else ""
    match = _OFFSET.match(text)
    if not match:
        raise PnpError(f"{prefix}expected X,Y in millimetres (e.g. 1,-0.5), got {text!r}")
    x, y = float(match.group(1)), float(match.group(2))
    if abs(x) > MAX_OFFSET or abs(y) > MAX_OFFSET:
        raise PnpError(f"{prefix}each of X and Y must be within ±{MAX_OFFSET:g} mm, got {text!r}")
    return x, y
