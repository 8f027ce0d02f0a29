"""Where on a sheet a block may go: the printable area inside the hardware margin, less the
room a block's crop marks need, and the rooms to try so the marks print outside the bleed
where the sheet allows it. Every comparison of the imposition allows EPS."""

from __future__ import annotations

from pnp.layout.presets import SheetSpec
from pnp.layout.sheetplan import MARK_SHORT, MIN_MARK, Piece, Rect

EPS = 1e-6


def edge_room(spec: SheetSpec, piece: Piece) -> float:
    """How far a piece's bleed box keeps inside the printable area: room for its crop marks
    to reach MIN_MARK across the bleed and beyond it (none for a piece without marks, whose
    own cut lines are inside its box)."""
    if not piece.marks or piece.write_on:
        return 0.0
    across = piece.bleed - MARK_SHORT  # of a mark drawn across the bleed
    if across <= 0:  # no bleed to draw on: a mark wholly outside, past its offset
        return spec.mark_offset + MIN_MARK
    return max(spec.mark_room, MIN_MARK - across)


def printable_area(spec: SheetSpec) -> Rect:
    left, top, right, bottom = spec.printable
    return Rect(left, top, right - left, bottom - top)


def usable_area(spec: SheetSpec, piece: Piece | None = None) -> Rect:
    """Where bleed boxes may go: the printable area, less the piece's room for its marks
    (without a piece, the least any piece needs: the printable area itself)."""
    area = printable_area(spec)
    room = 0.0 if piece is None else edge_room(spec, piece)
    return Rect(area.x + room, area.y + room, area.width - 2 * room, area.height - 2 * room)


def outside_room(spec: SheetSpec) -> float:
    """How far inside the printable area a block's bleed keeps for its crop marks to be drawn
    outside the bleed, at their full length."""
    return spec.mark_offset + spec.mark_length


def marked_area(spec: SheetSpec, area: Rect, room: tuple[float, float]) -> Rect:
    """``area`` kept further from the printable area's edges, ``room`` mm (top and bottom,
    left and right), where it reaches them: with outside_room a block's crop marks print
    outside its bleed there rather than across it."""
    down, across = room
    printable = printable_area(spec)
    left = max(area.x, printable.x + across)
    top = max(area.y, printable.y + down)
    right = min(area.right, printable.right - across)
    bottom = min(area.bottom, printable.bottom - down)
    return Rect(left, top, right - left, bottom - top)


def mark_rooms(spec: SheetSpec) -> tuple[tuple[float, float], ...]:
    """The rooms (top and bottom, left and right) to try for a block, most room for its marks
    outside the bleed first."""
    room = outside_room(spec)
    return ((room, room), (room, 0.0), (0.0, room), (0.0, 0.0))
