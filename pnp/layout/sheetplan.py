"""What an imposition plan is made of: pieces, the rectangles they take, the slots they land in,
blocks of one size and whole sheets (millimetres, top-left origin).

:mod:`pnp.layout.impose` makes these plans and :mod:`pnp.layout.marks` finds their crop marks;
the renderer draws them. Backs are the front's slots mirrored left-right (long-edge duplex).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from pnp.core.records import record
from pnp.layout.presets import SheetSpec

if TYPE_CHECKING:
    from pnp.layout.tiles import Tile

MIN_MARK = 3.0  # mm: the shortest crop mark printed, long enough to lay a ruler on
MARK_SHORT = 0.5  # a crop mark drawn across a block's bleed stops this far short of the trim


@record
class Piece:
    """One physical copy to print: trim size in mm, with its bleed."""

    component: str
    card: str
    copy: int
    width: float
    height: float
    bleed: float
    double_sided: bool
    marks: bool = True  # crop marks; nets carry their own cut lines instead
    # One tile of a board larger than a sheet (its size is the tile's); None for a whole piece.
    # The imposer treats a tile like any piece: all tiles of a board are the same size.
    tile: Tile | None = None
    # May share cut lines with its neighbours when the sheet butts pieces (straight-edged
    # faces only: a round token needs room round it for the scissors).
    butt: bool = False
    # Pieces butt only within one group: tiny tokens butt only with copies of the same face,
    # whose bleeds are the same colour, so a cut a little off the line shows nothing wrong.
    group: str = ""
    outline: str = ""  # "round": the renderer draws the trim circle as a thin cut line
    write_on: bool = False  # a form to write on: printed alone, full page, no bleed or marks

    @property
    def size_key(self) -> tuple[float, float, float, bool, bool, str, bool]:
        return (self.width, self.height, self.bleed, self.marks, self.butt, self.group,
                self.write_on)


@record
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    def overlaps(self, other: Rect, eps: float = 1e-6) -> bool:
        return (self.x < other.right - eps and other.x < self.right - eps
                and self.y < other.bottom - eps and other.y < self.bottom - eps)


@record
class Slot:
    """Where one piece lands on a sheet (top-left origin, mm); ``rotated`` = quarter turn."""

    piece: Piece
    bleed_box: Rect  # the face form's box: it overlaps its neighbours' when pieces are butted
    rotated: bool
    cell: Rect | None = None  # what of the form shows, when less than the bleed box
    scale: float = 1.0  # a write-on form is scaled to the page

    @property
    def visible(self) -> Rect:
        return self.cell if self.cell is not None else self.bleed_box

    @property
    def trim_box(self) -> Rect:
        b = self.piece.bleed * self.scale
        return Rect(self.bleed_box.x + b, self.bleed_box.y + b,
                    self.bleed_box.width - 2 * b, self.bleed_box.height - 2 * b)


@record
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float
    on_bleed: bool = False  # drawn over a block's outer bleed: needs a light halo to show


@record
class PieceBlock:
    slots: tuple[Slot, ...]
    columns: int
    rows: int
    box: Rect  # the union of the grid's cells


@record
class SheetPlan:
    number: int
    spec: SheetSpec
    blocks: tuple[PieceBlock, ...]
    cut: float | None = None  # y (mm) of a dashed line across the page: cut a form free
    # A sheet template's sheet (pnp.layout.template_plan): each block one declared slot, whose
    # crop marks keep off the other slots; ``backs`` the declared back of each slot, in order,
    # or None for the slots mirrored.
    declared: bool = False
    backs: tuple[Slot, ...] | None = None

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(slot for block in self.blocks for slot in block.slots)

    @property
    def components(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(slot.piece.component for slot in self.slots))

    def back_slots(self) -> tuple[Slot, ...]:
        """The double-sided slots mirrored left-right, turned the other way round (or, on a
        template's sheet that declares them, their declared backs)."""
        if self.backs is not None:
            return tuple(slot for slot in self.backs if slot.piece.double_sided)
        return tuple(
            Slot(slot.piece, _mirror(slot.bleed_box, self.spec.width), slot.rotated,
                 None if slot.cell is None else _mirror(slot.cell, self.spec.width), slot.scale)
            for slot in self.slots if slot.piece.double_sided
        )

    def used_area(self) -> float:
        """Trim area of the pieces, mm²."""
        return sum(s.trim_box.width * s.trim_box.height for s in self.slots)


def _mirror(rect: Rect, width: float) -> Rect:
    return replace(rect, x=width - rect.right)
