"""Where the copies of an ``icons`` element go: pure math shared by validation and drawing.

The loader and the renderer must agree on whether N icons fit a box, so both call
:func:`place_icons`; a deck that validates is a deck that draws.
"""

from __future__ import annotations

import math

_EPS = 1e-6


def place_icons(count: int, box_w: float, box_h: float, icon_w: float, icon_h: float,
                gap: float) -> list[tuple[float, float]] | None:
    """Top-left corners (mm, from the box's top-left) of ``count`` icons, or None if they
    do not all fit.

    Icons wrap into as few rows as fit the width; rows are balanced (7 in rows of 5 go
    4 + 3, not 5 + 2) with the longer rows first, each row centred, the block centred.
    """
    if count <= 0:
        return []
    per_row = math.floor((box_w + gap + _EPS) / (icon_w + gap))
    max_rows = math.floor((box_h + gap + _EPS) / (icon_h + gap))
    if per_row < 1 or max_rows < 1:
        return None
    rows = math.ceil(count / per_row)
    if rows > max_rows:
        return None
    base, extra = divmod(count, rows)
    block_h = rows * icon_h + (rows - 1) * gap
    top = (box_h - block_h) / 2
    spots: list[tuple[float, float]] = []
    for row in range(rows):
        in_row = base + (1 if row < extra else 0)
        row_w = in_row * icon_w + (in_row - 1) * gap
        left = (box_w - row_w) / 2
        y = top + row * (icon_h + gap)
        spots.extend((left + k * (icon_w + gap), y) for k in range(in_row))
    return spots


def capacity(box_w: float, box_h: float, icon_w: float, icon_h: float, gap: float) -> int:
    """How many icons of that size the box holds at most."""
    per_row = math.floor((box_w + gap + _EPS) / (icon_w + gap))
    max_rows = math.floor((box_h + gap + _EPS) / (icon_h + gap))
    return max(0, per_row) * max(0, max_rows)
