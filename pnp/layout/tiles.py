"""Tiling: a board larger than one sheet, printed as a grid of tiles glued edge over strip.

Pure geometry, in millimetres of the board's trim (origin top-left, y down), like layouts.

A board of W × H mm in ``cols`` × ``rows`` tiles: every tile is the same size, so the tiles
of a board form one block on the sheets, share crop marks and need nothing special from the
imposer. Neighbours overlap by ``overlap`` mm. Of two neighbours, the left (upper) one
carries the overlap as a glue strip on its right (bottom) edge; the right (lower) one is cut
at the seam and glued over that strip, so its edge lands on the dashed glue line. Tiles are
``(W + (cols - 1) · overlap) / cols`` wide, and tile ``c`` starts at ``c · (width - overlap)``.

The strip shows the board's art continued past the seam, so a tile glued a little short
still shows the right picture beneath it; the tile's coordinate is printed in the strip,
where the neighbour hides it. Every tile has the usual bleed all round: beyond the board's
edge it is the board's own bleed, beyond a seam or strip edge it is the neighbouring art,
so a cut a little outside any line never shows white paper.
"""

from __future__ import annotations

from typing import Literal

from pnp.core.records import record
from pnp.layout.impose import ImposeError, fits_on_sheet
from pnp.layout.presets import SheetSpec

Edge = Literal["outer", "strip", "seam"]
"""``outer``: the board's own edge. ``strip``: carries the glue strip the neighbour is glued
over. ``seam``: cut at the seam and glued over the neighbour's strip."""

OVERLAP = 10.0  # mm of glue strip where two tiles meet
MAX_TILES_PER_SIDE = 32  # far more than a 600 mm board needs on either paper

Point = tuple[float, float]


@record
class Tile:
    """One tile: the region of the board it shows (its trim) and what each edge is."""

    row: int  # from 0, top to bottom
    col: int  # from 0, left to right
    x: float
    y: float
    width: float
    height: float
    left: Edge
    top: Edge
    right: Edge
    bottom: Edge
    overlap: float

    @property
    def key(self) -> str:
        """The tile's part of its form name: ``r1c2`` (row and column from 1)."""
        return f"r{self.row + 1}c{self.col + 1}"

    @property
    def label(self) -> str:
        """The coordinate printed on the tile, row-column from 1: digits only, so it prints
        in any font and script."""
        return f"{self.row + 1}-{self.col + 1}"

    def back_x(self, board_width: float) -> float:
        """Left edge of the region of the board's back this tile's back shows.

        The back is seen after a flip about the vertical axis (long-edge duplex on portrait
        paper, and how every card's back is drawn), so columns swap sides and rows stay.
        """
        return board_width - self.x - self.width


@record
class Tiling:
    board_width: float
    board_height: float
    cols: int
    rows: int
    overlap: float
    tiles: tuple[Tile, ...]  # row by row

    @property
    def tiled(self) -> bool:
        return len(self.tiles) > 1

    @property
    def tile_width(self) -> float:
        return self.tiles[0].width

    @property
    def tile_height(self) -> float:
        return self.tiles[0].height


class TilingError(ImposeError):
    """No grid of tiles fits the paper (a board far beyond the size the loader allows)."""


def _span(length: float, parts: int, overlap: float) -> float:
    return (length + (parts - 1) * overlap) / parts


def _grid(width: float, height: float, cols: int, rows: int, overlap: float) -> Tiling:
    tw, th = _span(width, cols, overlap), _span(height, rows, overlap)

    def edge(index: int, count: int, low: bool) -> Edge:
        if low:
            return "outer" if index == 0 else "seam"
        return "outer" if index == count - 1 else "strip"

    tiles = tuple(
        Tile(row=r, col=c, x=c * (tw - overlap), y=r * (th - overlap), width=tw, height=th,
             left=edge(c, cols, True), top=edge(r, rows, True),
             right=edge(c, cols, False), bottom=edge(r, rows, False), overlap=overlap)
        for r in range(rows) for c in range(cols)
    )
    return Tiling(width, height, cols, rows, overlap, tiles)


def plan_tiles(width: float, height: float, spec: SheetSpec, bleed: float = 3.0,
               overlap: float = OVERLAP) -> Tiling:
    """The fewest tiles whose slots (tile plus bleed all round) fit the sheet, either way round.

    A board that fits whole is one tile. Among grids with as few tiles, the one with the
    least seam to glue wins, then the one with fewer columns: a stable, predictable choice.
    """
    if fits_on_sheet(spec, width + 2 * bleed, height + 2 * bleed, bleed):
        return _grid(width, height, 1, 1, overlap)  # every card and small board: no search
    best: tuple[tuple[int, float, int], int, int] | None = None
    for cols in range(1, MAX_TILES_PER_SIDE + 1):
        for rows in range(1, MAX_TILES_PER_SIDE + 1):
            tw, th = _span(width, cols, overlap), _span(height, rows, overlap)
            # Two strips of one tile must not meet: a tile's own share is at least a strip.
            if (cols > 1 and tw < 2 * overlap) or (rows > 1 and th < 2 * overlap):
                continue
            if not fits_on_sheet(spec, tw + 2 * bleed, th + 2 * bleed, bleed):
                continue
            rank = (cols * rows, (cols - 1) * height + (rows - 1) * width, cols)
            if best is None or rank < best[0]:
                best = (rank, cols, rows)
    if best is None:
        raise TilingError(f"{width:g}×{height:g} mm cannot be tiled onto {spec.name} paper")
    return _grid(width, height, best[1], best[2], overlap)
