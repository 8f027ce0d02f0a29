"""Imposition: pure math that puts pieces onto sheets and says where every crop mark goes.

Pieces of one size form a block: a grid in which a cutter follows one trim line across the
whole block. By default (``SheetSpec.card_gutter`` 0) rect pieces are butted on shared cut
lines and only the block has bleed around it (each piece's face is clipped to its cell);
round pieces, and small tokens of different faces, keep their own bleeds, which touch. A
larger gutter gives every piece its own bleed. Nothing is printed within the hardware margin:
every block's bleed keeps room inside it for its crop marks, outside the bleed where there is
room and across the block's own outer bleed (which is cut away) where there is not. A block
turns its pieces a quarter turn when that fits more of them on a sheet. Backs are the same
slots mirrored left-right, for long-edge duplex printing. A board larger than a sheet arrives
as its tiles (pnp.layout.tiles), pieces like any other.

Packing, run by run (pieces of one size in a row): a run a little larger than one grid that
one sheet holds in blocks of both orientations goes there whole; otherwise whole sheets first,
each grid at the same origin, so full sheets stack-cut together; then the rest goes into the
best-fitting free space already opened on earlier sheets, or onto a new sheet at that same
origin. A sheet left less than SPARSE full is emptied into the others' free space when its
blocks fit there.

The steps live beside this module: where a block may go (pnp.layout.printable), free space
(pnp.layout.freespace), grids and blocks (pnp.layout.blocks), filling open space
(pnp.layout.backfill) and forms to write on (pnp.layout.forms).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from pnp.layout.backfill import OpenSheet, backfill, is_sparse, pieces_of
from pnp.layout.blocks import Grid, grids, place_block
from pnp.layout.forms import share_form_pages, write_on_sheet
from pnp.layout.freespace import occupy, short_row
from pnp.layout.presets import SheetSpec
from pnp.layout.printable import EPS, outside_room, printable_area, usable_area
from pnp.layout.sheetplan import Piece, Rect, SheetPlan


class ImposeError(ValueError):
    """A piece cannot fit on the chosen paper at all."""


def fits_on_sheet(spec: SheetSpec, width: float, height: float, bleed: float) -> bool:
    """Whether one slot of this size (a piece with crop marks, its bleed included) fits the
    sheet's usable area, either way round: the same test the imposer applies, so a tile that
    passes it is always placed."""
    area = usable_area(spec, Piece("", "", 0, width - 2 * bleed, height - 2 * bleed, bleed, False))
    return any(w <= area.width + EPS and h <= area.height + EPS
               for w, h in ((width, height), (height, width)))


def impose(pieces: Sequence[Piece], spec: SheetSpec) -> list[SheetPlan]:
    """Pack pieces onto sheets run by run; see the module docstring.

    Largest pieces first, so small ones fill the space the large ones leave: by area, or by
    longest side, or as listed. Of the three packings, the one with the fewest sheets wins,
    then the one with the fewest nearly empty sheets (the first on a tie).
    """
    return list(_imposed(tuple(pieces), spec))


# The pieces of a game do not depend on the script: a build imposes the same pieces on the
# same paper for each, and the second takes the first's plans (every value here is frozen).
@lru_cache(maxsize=16)
def _imposed(pieces: tuple[Piece, ...], spec: SheetSpec) -> tuple[SheetPlan, ...]:
    runs = _runs(list(pieces))
    orders = (sorted(runs, key=lambda run: -run[0].width * run[0].height),
              sorted(runs, key=lambda run: -max(run[0].width, run[0].height)),
              runs)
    packings = [_pack(order, spec) for order in orders]
    sheets = min(packings, key=lambda packed: (len(packed), sum(is_sparse(spec, s) for s in packed)))
    return tuple(SheetPlan(number, spec, tuple(sheet.blocks), sheet.cut)
                 for number, sheet in enumerate(sheets, start=1))


def _pack(runs: list[list[Piece]], spec: SheetSpec) -> list[OpenSheet]:
    sheets: list[OpenSheet] = []
    for run in runs:
        if run[0].write_on:
            sheets.extend(write_on_sheet(spec, piece) for piece in run)
            continue
        area = usable_area(spec, run[0])
        grid, cols, rows = _full_grid(spec, run[0])
        full_w, full_h = grid.size(cols, rows)
        # Every sheet this run opens puts its block at the full grid's corner: a partial
        # sheet then stack-cuts with the full ones.
        # Centred across; near the top, so what is left of the sheet is one band below.
        x0 = area.x + (area.width - full_w) / 2
        y0 = _grid_top(spec, area, full_h, run[0])
        queue = list(run)
        if cols * rows < len(queue) <= 2 * cols * rows:
            # More than one grid holds, yet perhaps not more than a sheet: blocks of both
            # orientations may take the whole run together (six tents on A4: four turned and
            # two upright beside them) instead of leaving its last pieces to other sheets.
            whole = OpenSheet([], [printable_area(spec)])
            if not backfill(spec, [whole], queue, partial=True):
                sheets.append(whole)
                continue
        while len(queue) >= cols * rows:
            block = place_block(grid, queue[:cols * rows], x0, y0, cols)
            sheets.append(OpenSheet([block], occupy([printable_area(spec)], block.box, spec.gutter)))
            queue = queue[cols * rows:]
        queue = backfill(spec, sheets, queue)
        if queue:
            block = place_block(grid, queue, x0, y0, cols)
            sheets.append(OpenSheet([block], occupy([printable_area(spec)], block.box, spec.gutter)
                                 + short_row(block, spec.gutter)))
    sheets = _empty_sparse_sheets(spec, sheets)
    sheets = share_form_pages(spec, sheets)
    sheets.sort(key=lambda sheet: sheet.write_on)  # forms to write on after the pieces
    return sheets


def _full_grid(spec: SheetSpec, piece: Piece) -> tuple[Grid, int, int]:
    """The orientation, columns and rows that fit most pieces on an empty sheet."""
    area = usable_area(spec, piece)
    best: tuple[int, Grid, int, int] | None = None
    for grid in grids(spec, piece):
        cols, rows = grid.capacity(area)
        if cols and rows and (best is None or cols * rows > best[0]):
            best = (cols * rows, grid, cols, rows)
    if best is None:
        raise ImposeError(
            f"{piece.component}/{piece.card}: {piece.width:g}×{piece.height:g} mm with "
            f"{piece.bleed:g} mm bleed does not fit on {spec.name} paper"
        )
    return best[1], best[2], best[3]


def _runs(pieces: list[Piece]) -> list[list[Piece]]:
    runs: list[list[Piece]] = []
    for piece in pieces:
        if runs and runs[-1][0].size_key == piece.size_key:
            runs[-1].append(piece)
        else:
            runs.append([piece])
    return runs


def _grid_top(spec: SheetSpec, area: Rect, height: float, piece: Piece) -> float:
    """Where a run's grid starts down the sheet: low enough for its top crop marks to print
    outside its bleed, or centred when there is less room than that, so that what is left of
    the sheet is one band below it."""
    wanted = printable_area(spec).y + outside_room(spec) - area.y if piece.marks else 0.0
    return area.y + max(0.0, min((area.height - height) / 2, wanted))


def _empty_sparse_sheets(spec: SheetSpec, sheets: list[OpenSheet]) -> list[OpenSheet]:
    """Move the pieces of a nearly empty sheet into the others' free space, if they all fit."""
    index = len(sheets) - 1
    while index >= 0:
        sheet = sheets[index]
        if is_sparse(spec, sheet):
            others = [replace(s, blocks=list(s.blocks), free=list(s.free))
                      for i, s in enumerate(sheets) if i != index]
            if all(not backfill(spec, others, pieces_of(block)) for block in sheet.blocks):
                sheets = others
        index -= 1
    return sheets
