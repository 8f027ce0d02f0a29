"""Lengths as designers write them ("63mm", "2.5in", "9pt") converted to PDF points."""

from __future__ import annotations

import re

MM = 72.0 / 25.4
INCH = 72.0

_UNITS = {"mm": MM, "cm": 10 * MM, "in": INCH, "pt": 1.0}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)\s*$")


def parse_length(value: object) -> float:
    """Points for a length string; a bare number means millimetres (the designer's unit)."""
    if isinstance(value, bool):
        raise ValueError(f"expected a length such as '63mm', got {value!r}")
    if isinstance(value, int | float):
        return float(value) * MM
    if isinstance(value, str):
        match = _LENGTH.match(value)
        if match:
            return float(match.group(1)) * _UNITS[match.group(2)]
    raise ValueError(f"expected a length such as '63mm', '2.5in' or '9pt', got {value!r}")


def mm(value: float) -> float:
    return value * MM
