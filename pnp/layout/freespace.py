"""A sheet's free space as rectangles: what stays free once a block is placed (maximal
rects, which may overlap), the empty cells beside a block's short last row, and the
guillotine split a block's corner leaves. Space narrower than MIN_FREE is not kept."""

from __future__ import annotations

from pnp.layout.printable import EPS
from pnp.layout.sheetplan import PieceBlock, Rect

MIN_FREE = 5.0  # free space narrower than this (mm) holds nothing worth tracking


def clip(rect: Rect, area: Rect) -> Rect:
    x, y = max(rect.x, area.x), max(rect.y, area.y)
    return Rect(x, y, min(rect.right, area.right) - x, min(rect.bottom, area.bottom) - y)


def _positive(rects: list[Rect]) -> list[Rect]:
    return [r for r in rects if r.width >= MIN_FREE - EPS and r.height >= MIN_FREE - EPS]


def short_row(block: PieceBlock, gutter: float) -> list[Rect]:
    """The empty cells beside a partial last row, inside the block's box."""
    last = block.slots[-1].visible
    # The row above needs no marks there, but what goes in needs room for its own.
    x, y = last.right + gutter, last.y + gutter / 2
    return _positive([Rect(x, y, block.box.right - x, block.box.bottom - y)])


def _subtract(free: Rect, box: Rect, gutter: float) -> list[Rect]:
    """What stays free of a rect once ``box`` (kept ``gutter`` clear) is placed: the largest
    rects left of, right of, above and below it, which may overlap one another."""
    if not free.overlaps(Rect(box.x - gutter, box.y - gutter, box.width + 2 * gutter,
                              box.height + 2 * gutter)):
        return [free]
    return _positive([
        Rect(free.x, free.y, box.x - gutter - free.x, free.height),
        Rect(box.right + gutter, free.y, free.right - box.right - gutter, free.height),
        Rect(free.x, free.y, free.width, box.y - gutter - free.y),
        Rect(free.x, box.bottom + gutter, free.width, free.bottom - box.bottom - gutter),
    ])


def _contains(outer: Rect, inner: Rect) -> bool:
    return (outer.x <= inner.x + EPS and outer.y <= inner.y + EPS
            and inner.right <= outer.right + EPS and inner.bottom <= outer.bottom + EPS)


def _maximal(rects: list[Rect]) -> list[Rect]:
    """The rects not inside another (the first of equal ones kept), in a stable order."""
    kept: list[Rect] = []
    for i, rect in enumerate(rects):
        if any(_contains(other, rect) and (not _contains(rect, other) or j < i)
               for j, other in enumerate(rects) if j != i):
            continue
        kept.append(rect)
    return kept


def occupy(free: list[Rect], box: Rect, gutter: float) -> list[Rect]:
    """Free space after placing ``box``: every free rect it touches loses it (maximal rects,
    so space beside a block stays one piece with the space above or below it)."""
    return _maximal([part for rect in free for part in _subtract(rect, box, gutter)])


def guillotine_split(free: Rect, box: Rect, gutter: float) -> list[Rect]:
    """Guillotine split of a free rect whose top-left corner now holds ``box``: the cut that
    leaves the larger single piece of free space."""
    x, y = box.right + gutter, box.bottom + gutter
    across = [Rect(x, free.y, free.right - x, box.height),
              Rect(free.x, y, free.width, free.bottom - y)]
    down = [Rect(x, free.y, free.right - x, free.height),
            Rect(free.x, y, box.width, free.bottom - y)]

    def largest(rects: list[Rect]) -> float:
        return max((r.width * r.height for r in _positive(rects)), default=0.0)

    return _positive(across if largest(across) >= largest(down) else down)
