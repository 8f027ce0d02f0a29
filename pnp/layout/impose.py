"""Imposition: pure math that puts pieces onto sheets and says where every crop mark goes.

Pieces of one size form a block: a grid whose bleed boxes touch, so a cutter follows one
trim line across the whole block. Blocks stack down the sheet with a gutter between them;
crop marks sit in the margins and gutters, outside every bleed box, so no mark ever lands
on a neighbouring piece. A block turns its pieces a quarter turn when that fits more of them
on a sheet. Backs are the same slots mirrored left-right, for long-edge duplex printing.
A board larger than a sheet arrives as its tiles (pnp.layout.tiles), pieces like any other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pnp.layout.presets import SheetSpec

if TYPE_CHECKING:
    from pnp.layout.tiles import Tile


@dataclass(frozen=True)
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

    @property
    def size_key(self) -> tuple[float, float, float, bool]:
        return (self.width, self.height, self.bleed, self.marks)


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Slot:
    """Where one piece lands on a sheet (top-left origin, mm); ``rotated`` = quarter turn."""

    piece: Piece
    bleed_box: Rect
    rotated: bool

    @property
    def trim_box(self) -> Rect:
        b = self.piece.bleed
        return Rect(self.bleed_box.x + b, self.bleed_box.y + b,
                    self.bleed_box.width - 2 * b, self.bleed_box.height - 2 * b)


@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Block:
    slots: tuple[Slot, ...]
    columns: int
    rows: int
    box: Rect  # the union of the grid's bleed boxes


@dataclass(frozen=True)
class SheetPlan:
    number: int
    spec: SheetSpec
    blocks: tuple[Block, ...]

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(slot for block in self.blocks for slot in block.slots)

    @property
    def components(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(slot.piece.component for slot in self.slots))

    def back_slots(self) -> tuple[Slot, ...]:
        """The double-sided slots mirrored left-right, turned the other way round."""
        return tuple(
            Slot(slot.piece,
                 replace(slot.bleed_box, x=self.spec.width - slot.bleed_box.right),
                 slot.rotated)
            for slot in self.slots if slot.piece.double_sided
        )


class ImposeError(ValueError):
    """A piece cannot fit on the chosen paper at all."""


def _capacity(spec: SheetSpec, width: float, height: float) -> tuple[int, int]:
    usable_w = spec.width - 2 * spec.margin_x
    usable_h = spec.height - 2 * spec.margin_y
    return int((usable_w + 1e-9) // width), int((usable_h + 1e-9) // height)


def fits_on_sheet(spec: SheetSpec, width: float, height: float) -> bool:
    """Whether one slot of this size (bleed included) fits the sheet's usable area, either way
    round: the same test the imposer applies, so a tile that passes it is always placed."""
    return any(all(_capacity(spec, w, h)) for w, h in ((width, height), (height, width)))


def _orientation(spec: SheetSpec, piece: Piece) -> tuple[bool, float, float, int]:
    """(rotated, slot width, slot height, columns) that fits most pieces on a whole sheet."""
    w = piece.width + 2 * piece.bleed
    h = piece.height + 2 * piece.bleed
    best: tuple[int, bool, float, float, int] | None = None
    for rotated, sw, sh in ((False, w, h), (True, h, w)):
        cols, rows = _capacity(spec, sw, sh)
        if cols and rows and (best is None or cols * rows > best[0]):
            best = (cols * rows, rotated, sw, sh, cols)
    if best is None:
        raise ImposeError(
            f"{piece.component}/{piece.card}: {piece.width:g}×{piece.height:g} mm with "
            f"{piece.bleed:g} mm bleed does not fit on {spec.name} paper"
        )
    return best[1], best[2], best[3], best[4]


def _runs(pieces: list[Piece]) -> list[list[Piece]]:
    runs: list[list[Piece]] = []
    for piece in pieces:
        if runs and runs[-1][0].size_key == piece.size_key:
            runs[-1].append(piece)
        else:
            runs.append([piece])
    return runs


@dataclass
class _Shelf:
    """A band of the sheet holding blocks side by side, each with a gutter between."""

    y: float
    height: float
    blocks: list[Block]

    @property
    def right(self) -> float:
        return self.blocks[-1].box.right if self.blocks else 0.0


def impose(pieces: list[Piece], spec: SheetSpec) -> list[SheetPlan]:
    """Pack same-size blocks into shelves down the sheets, in the pieces' order.

    A block joins the current shelf, to the right of the blocks already there, when it fits
    in the shelf's height and the width left; otherwise it opens a new shelf below. Each
    shelf is then centred across the sheet and the whole stack between top and bottom.
    """
    sheets: list[list[_Shelf]] = [[]]
    left, top = spec.margin_x, spec.margin_y
    right, bottom = spec.width - spec.margin_x, spec.height - spec.margin_y
    for run in _runs(pieces):
        rotated, sw, sh, cols = _orientation(spec, run[0])
        queue = list(run)
        while queue:
            shelves = sheets[-1]
            shelf = shelves[-1] if shelves else None
            fits_beside = 0
            if shelf is not None and sh <= shelf.height + 1e-9:
                room = right - (shelf.right + spec.gutter)
                fits_beside = max(0, int((room + 1e-9) // sw)) * int((shelf.height + 1e-9) // sh)
            if shelf is not None and fits_beside:
                x0, y0 = shelf.right + spec.gutter, shelf.y
                width_cols = int((right - x0 + 1e-9) // sw)
                take = queue[:fits_beside]
            else:
                start = (shelf.y + shelf.height + spec.gutter) if shelf else top
                rows_fit = int((bottom - start + 1e-9) // sh)
                if rows_fit < 1:
                    sheets.append([])
                    continue
                take = queue[: rows_fit * cols]
                x0, y0, width_cols = left, start, cols
                shelf = _Shelf(start, 0.0, [])
                shelves.append(shelf)
            queue = queue[len(take):]
            used_cols = min(width_cols, len(take))
            rows = math.ceil(len(take) / width_cols)
            slots = tuple(
                Slot(piece, Rect(x0 + (i % width_cols) * sw, y0 + (i // width_cols) * sh, sw, sh),
                     rotated)
                for i, piece in enumerate(take)
            )
            block = Block(slots, used_cols, rows, Rect(x0, y0, used_cols * sw, rows * sh))
            shelf.blocks.append(block)
            shelf.height = max(shelf.height, block.box.height)
    plans = []
    for number, shelves in enumerate((s for s in sheets if s), start=1):
        last = shelves[-1]
        dy = (bottom - (last.y + last.height)) / 2
        blocks = []
        for shelf in shelves:
            dx = (right - shelf.right) / 2
            blocks.extend(_moved(block, dx, dy) for block in shelf.blocks)
        plans.append(SheetPlan(number, spec, tuple(blocks)))
    return plans


def _moved(block: Block, dx: float, dy: float) -> Block:
    def move(rect: Rect) -> Rect:
        return Rect(rect.x + dx, rect.y + dy, rect.width, rect.height)

    slots = tuple(Slot(s.piece, move(s.bleed_box), s.rotated) for s in block.slots)
    return Block(slots, block.columns, block.rows, move(block.box))


def crop_marks(plan: SheetPlan) -> list[Segment]:
    """Trim-line extensions around each block, in the margins and gutters only."""
    spec = plan.spec
    near, far = spec.mark_offset, spec.mark_offset + spec.mark_length
    segments: list[Segment] = []
    for block in plan.blocks:
        if not block.slots[0].piece.marks:
            continue
        box = block.box
        xs = sorted({round(v, 4) for s in block.slots for v in (s.trim_box.x, s.trim_box.right)})
        ys = sorted({round(v, 4) for s in block.slots for v in (s.trim_box.y, s.trim_box.bottom)})
        for x in xs:
            segments.append(Segment(x, box.y - far, x, box.y - near))
            segments.append(Segment(x, box.bottom + near, x, box.bottom + far))
        for y in ys:
            segments.append(Segment(box.x - far, y, box.x - near, y))
            segments.append(Segment(box.right + near, y, box.right + far, y))
    return segments


def mirror_segments(plan: SheetPlan, segments: list[Segment]) -> list[Segment]:
    width = plan.spec.width
    return [Segment(width - s.x1, s.y1, width - s.x2, s.y2) for s in segments]
