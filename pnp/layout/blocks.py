"""Blocks of one run's pieces: the grid they sit in (either way round, with the gap their bleeds
need), the block placed at a corner, and the block shape that best uses a free rect, kept clear
of the paper edges for its crop marks when that costs no piece."""

from __future__ import annotations

import math

from pnp.core.records import record
from pnp.layout.freespace import clip, guillotine_split
from pnp.layout.presets import SheetSpec
from pnp.layout.printable import EPS, mark_rooms, marked_area
from pnp.layout.sheetplan import Piece, PieceBlock, Rect, Slot


def _gap(spec: SheetSpec, piece: Piece) -> float:
    """Space between neighbouring trims in a block of this piece."""
    own = 2 * piece.bleed
    if spec.card_gutter < own and not piece.butt:
        return own
    return spec.card_gutter


@record
class Grid:
    """How a run's pieces sit in a block: quarter turn, trim size as placed, bleed, gap."""

    rotated: bool
    trim_w: float
    trim_h: float
    bleed: float
    gap: float

    def count(self, room: float, trim: float) -> int:
        return max(0, int((room - 2 * self.bleed + self.gap + EPS) // (trim + self.gap)))

    def capacity(self, rect: Rect) -> tuple[int, int]:
        return self.count(rect.width, self.trim_w), self.count(rect.height, self.trim_h)

    def size(self, cols: int, rows: int) -> tuple[float, float]:
        return (cols * self.trim_w + (cols - 1) * self.gap + 2 * self.bleed,
                rows * self.trim_h + (rows - 1) * self.gap + 2 * self.bleed)

    def turned(self) -> Grid:
        return Grid(not self.rotated, self.trim_h, self.trim_w, self.bleed, self.gap)


def grids(spec: SheetSpec, piece: Piece) -> tuple[Grid, Grid]:
    grid = Grid(False, piece.width, piece.height, piece.bleed, _gap(spec, piece))
    return grid, grid.turned()


def place_block(grid: Grid, pieces: list[Piece], x0: float, y0: float, cols: int) -> PieceBlock:
    """Pieces row by row from (x0, y0), the block's top-left bleed corner."""
    b, gap = grid.bleed, grid.gap
    butted = gap < 2 * b - EPS
    n = len(pieces)
    used_cols, rows = min(cols, n), math.ceil(n / cols)
    slots = []
    for i, piece in enumerate(pieces):
        col, row = i % cols, i // cols
        trim = Rect(x0 + b + col * (grid.trim_w + gap), y0 + b + row * (grid.trim_h + gap),
                    grid.trim_w, grid.trim_h)
        bleed_box = Rect(trim.x - b, trim.y - b, trim.width + 2 * b, trim.height + 2 * b)
        cell = None
        if butted:
            # Each side reaches halfway to the next cell of the grid, or the full bleed on the
            # block's outside (a short last row's empty cells stay unprinted).
            left = b if col == 0 else gap / 2
            top = b if row == 0 else gap / 2
            right = b if col == used_cols - 1 else gap / 2
            bottom = b if row == rows - 1 else gap / 2
            cell = Rect(trim.x - left, trim.y - top, trim.width + left + right,
                        trim.height + top + bottom)
        slots.append(Slot(piece, bleed_box, grid.rotated, cell))
    width, height = grid.size(used_cols, rows)
    return PieceBlock(tuple(slots), used_cols, rows, Rect(x0, y0, width, height))


def _fit(spec: SheetSpec, piece: Piece, free: Rect, n: int) -> tuple[Grid, int, int] | None:
    """The grid, columns and number of pieces (up to n) that best use a free rect: as many
    pieces as fit, in the block shape that leaves the largest single free rect behind."""
    best: tuple[tuple[int, float, float], Grid, int, int] | None = None
    for grid in grids(spec, piece):
        max_cols, max_rows = grid.capacity(free)
        take = min(n, max_cols * max_rows)
        if not take:
            continue
        for cols in range(1, min(max_cols, take) + 1):
            rows = math.ceil(take / cols)
            if rows > max_rows:
                continue
            w, h = grid.size(cols, rows)
            left = guillotine_split(free, Rect(free.x, free.y, w, h), spec.gutter)
            largest = max((r.width * r.height for r in left), default=0.0)
            key = (take, largest, -(w * h))
            if best is None or key > best[0]:
                best = (key, grid, cols, take)
    return None if best is None else (best[1], best[2], best[3])


def roomiest_fit(spec: SheetSpec, piece: Piece, free: Rect, area: Rect,
                  n: int) -> tuple[Rect, tuple[Grid, int, int] | None]:
    """The part of a free rect a block goes in, and its fit there: kept clear of the paper
    edges for printable crop marks whenever that costs no piece (a free rect beside the
    margin would otherwise put the block's marks where a printer cannot print)."""
    def fit_in(margin: tuple[float, float]) -> tuple[Rect, tuple[Grid, int, int] | None]:
        room = clip(free, marked_area(spec, area, margin))
        return room, _fit(spec, piece, room, n) if room.width > 0 and room.height > 0 else None

    plain = fit_in((0.0, 0.0))
    if plain[1] is None or not piece.marks:
        return plain
    for margin in mark_rooms(spec):
        room, fit = fit_in(margin)
        if fit is not None and fit[2] == plain[1][2]:
            return room, fit
    return plain
