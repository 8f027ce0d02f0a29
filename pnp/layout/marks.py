"""Crop marks: where the trim lines of each imposed block are extended into the margins and
gutters, and their mirror on a back sheet. Pure math, like the imposition it reads."""

from __future__ import annotations

from dataclasses import replace

from pnp.layout.presets import SheetSpec
from pnp.layout.sheetplan import MARK_SHORT, MIN_MARK, PieceBlock, Rect, Segment, SheetPlan


def mark_limits(spec: SheetSpec) -> tuple[float, float, float, float]:
    """How far out (left, top, right, bottom; mm from the top-left) a printed mark may reach:
    the hardware margin, and at the foot half the gap before the sheet label."""
    left, top, right, bottom = spec.printable
    return left, top, right, bottom + spec.label_gap / 2


def back_marks(plan: SheetPlan) -> list[Segment]:
    """The crop marks of a plan's back sheet: the front's mirrored, or on a template's sheet
    with declared backs, those of the back slots."""
    if plan.backs is None:
        return mirror_segments(plan, crop_marks(plan))
    blocks = tuple(PieceBlock((slot,), 1, 1, slot.visible) for slot in plan.backs)
    return crop_marks(replace(plan, blocks=blocks, backs=None))


def crop_marks(plan: SheetPlan) -> list[Segment]:
    """Every block's crop marks (see :func:`block_marks`); on a template's sheet each slot's,
    less those that would cross another slot, and each line once."""
    if not plan.declared:
        return [segment for block in plan.blocks for segment in block_marks(plan.spec, block)]
    kept: dict[Segment, None] = {}
    for block in plan.blocks:
        others = [other.box for other in plan.blocks if other is not block]
        for segment in block_marks(plan.spec, block):
            if not any(_crosses(segment, box) for box in others):
                kept[_rounded(segment)] = None
    return list(kept)


def _rounded(segment: Segment) -> Segment:
    return Segment(round(segment.x1, 4), round(segment.y1, 4), round(segment.x2, 4), round(segment.y2, 4),
                   segment.on_bleed)


def _crosses(segment: Segment, box: Rect, eps: float = 1e-6) -> bool:
    """Whether a mark (a vertical or a horizontal segment) runs over a box, along its edge
    included: a mark between two butted slots would run along their shared cut, over both
    faces. Meeting the box at one end is not running over it."""
    x0, x1 = sorted((segment.x1, segment.x2))
    y0, y1 = sorted((segment.y1, segment.y2))
    if x0 == x1:
        return box.x - eps <= x0 <= box.right + eps and y0 < box.bottom - eps and y1 > box.y + eps
    return box.y - eps <= y0 <= box.bottom + eps and x0 < box.right - eps and x1 > box.x + eps


def block_marks(spec: SheetSpec, block: PieceBlock) -> list[Segment]:
    """Trim-line extensions at both ends of every trim line of a block: outside the
    block's bleed, in the margins and gutters, where the printable area leaves MIN_MARK of
    room for them; elsewhere across the block's own outer bleed (which is cut away), from
    MARK_SHORT short of the trim out as far as the printable area reaches. The imposition
    leaves every block room for one or the other (a side without it has no marks)."""
    near, far = spec.mark_offset, spec.mark_offset + spec.mark_length
    lim_left, lim_top, lim_right, lim_bottom = mark_limits(spec)
    piece = block.slots[0].piece
    if not piece.marks or piece.write_on:
        return []
    segments: list[Segment] = []
    box = block.box
    inset = piece.bleed - MARK_SHORT  # across the bleed, short of the trim
    trims = [s.trim_box for s in block.slots]
    xs = sorted({round(v, 4) for t in trims for v in (t.x, t.right)})
    ys = sorted({round(v, 4) for t in trims for v in (t.y, t.bottom)})
    # (outer edge, direction outwards, limit) for top, bottom, left, right.
    sides = ((box.y, -1, lim_top, xs, True), (box.bottom, 1, lim_bottom, xs, True),
             (box.x, -1, lim_left, ys, False), (box.right, 1, lim_right, ys, False))
    for edge, out, limit, positions, vertical in sides:
        reach = max(edge + out * far, limit) if out < 0 else min(edge + out * far, limit)
        start, on_bleed = edge + out * near, False
        if (reach - start) * out < MIN_MARK - 1e-9:
            start, on_bleed = edge - out * inset, True
            if inset <= 0 or (reach - start) * out < MIN_MARK - 1e-9:
                continue
        for v in positions:
            segments.append(Segment(v, start, v, reach, on_bleed) if vertical
                            else Segment(start, v, reach, v, on_bleed))
    return segments


def mirror_segments(plan: SheetPlan, segments: list[Segment]) -> list[Segment]:
    width = plan.spec.width
    return [Segment(width - s.x1, s.y1, width - s.x2, s.y2, s.on_bleed) for s in segments]
