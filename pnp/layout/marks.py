"""Crop marks: where the trim lines of each imposed block are extended into the margins and
gutters, and their mirror on a back sheet. Pure math, like the imposition it reads."""

from __future__ import annotations

from pnp.layout.presets import SheetSpec
from pnp.layout.sheetplan import MARK_SHORT, MIN_ON_BLEED, Segment, SheetPlan


def _mark_limits(spec: SheetSpec) -> tuple[float, float, float, float]:
    """How far out (left, top, right, bottom; mm from the top-left) a printed mark may reach:
    the hardware margin, and on the left the sheet label's band too."""
    return (spec.hardware + spec.label_band + 0.5, spec.hardware,
            spec.width - spec.hardware, spec.height - spec.hardware)


MIN_MARK = 1.5  # a mark shorter than this outside the bleed is drawn on the bleed instead


def crop_marks(plan: SheetPlan) -> list[Segment]:
    """Trim-line extensions around each block: in the margins and gutters, outside every
    bleed box, as far as the printable area reaches; where it leaves less than MIN_MARK, over
    the block's own outer bleed instead, stopping short of the trim and, like every mark,
    inside the printable area (a side without room for either has no marks)."""
    spec = plan.spec
    near, far = spec.mark_offset, spec.mark_offset + spec.mark_length
    lim_left, lim_top, lim_right, lim_bottom = _mark_limits(spec)
    segments: list[Segment] = []
    for block in plan.blocks:
        piece = block.slots[0].piece
        if not piece.marks or piece.write_on:
            continue
        box = block.box
        inset = max(piece.bleed - MARK_SHORT, 0.0)  # on the bleed, short of the trim
        trims = [s.trim_box for s in block.slots]
        xs = sorted({round(v, 4) for t in trims for v in (t.x, t.right)})
        ys = sorted({round(v, 4) for t in trims for v in (t.y, t.bottom)})
        # (outer edge, direction outwards, limit) for top, bottom, left, right.
        sides = ((box.y, -1, lim_top, xs, True), (box.bottom, 1, lim_bottom, xs, True),
                 (box.x, -1, lim_left, ys, False), (box.right, 1, lim_right, ys, False))
        for edge, out, limit, positions, vertical in sides:
            start, end = edge + out * near, edge + out * far
            if out < 0:
                end = max(end, limit)
            else:
                end = min(end, limit)
            on_bleed = (end - start) * out < MIN_MARK
            if on_bleed:
                if inset <= 0:
                    continue  # no bleed to draw on: the edge itself is the cut
                # Only the part a printer prints: a block squeezed against the bleed margin
                # has its edge where no printer reaches, and a mark there would not show.
                start, end = edge - out * inset, (max(edge, limit) if out < 0 else min(edge, limit))
                if (end - start) * out < MIN_ON_BLEED:
                    continue
            for v in positions:
                segments.append(Segment(v, start, v, end, on_bleed) if vertical
                                else Segment(start, v, end, v, on_bleed))
    return segments


def mirror_segments(plan: SheetPlan, segments: list[Segment]) -> list[Segment]:
    width = plan.spec.width
    return [Segment(width - s.x1, s.y1, width - s.x2, s.y2, s.on_bleed) for s in segments]
