"""Sheets being packed, and filling the free space already open on them: a run goes into the
free rect it fits best, or across the roomiest ones when only together they hold it. A sheet
less than SPARSE full is worth emptying into the others."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnp.layout.blocks import place_block, roomiest_fit
from pnp.layout.freespace import occupy, short_row
from pnp.layout.presets import SheetSpec
from pnp.layout.printable import printable_area, usable_area
from pnp.layout.sheetplan import Piece, PieceBlock, Rect

SPARSE = 0.40  # a sheet less full than this (of its printable area) is emptied into the others


@dataclass
class OpenSheet:
    """A sheet while it is packed: its blocks so far and the free rects still open on it."""

    blocks: list[PieceBlock]
    free: list[Rect]
    write_on: bool = False
    cut: float | None = None  # y (mm) of the line parting a form from pieces on its page

    def used(self) -> float:
        return sum(s.trim_box.width * s.trim_box.height for b in self.blocks for s in b.slots)


def is_sparse(spec: SheetSpec, sheet: OpenSheet) -> bool:
    """A sheet of pieces less than SPARSE full: worth emptying into the others."""
    return not sheet.write_on and sheet.used() < SPARSE * printable_area(spec).width * printable_area(spec).height


def backfill(spec: SheetSpec, sheets: list[OpenSheet], queue: list[Piece],
              partial: bool = False) -> list[Piece]:
    """Put pieces into free space already open on these sheets: all of them into the free
    rect they fit best (least space left over), or, when no one rect holds them all but the
    free space together does, into the roomiest rects one after another. Returns the rest.
    ``partial``: place as many as fit even when the free space cannot take them all."""
    while queue:
        options = []
        area = usable_area(spec, queue[0])
        for sheet in sheets:
            for index, free in enumerate(sheet.free):
                room, fit = roomiest_fit(spec, queue[0], free, area, len(queue))
                if fit is not None:
                    grid, cols, take = fit
                    w, h = grid.size(cols, math.ceil(take / cols))
                    options.append((take, free.width * free.height - w * h, sheet, index, fit,
                                    room))
        if not options or (not partial and sum(o[0] for o in options) < len(queue)):
            return queue
        whole = [o for o in options if o[0] == len(queue)]
        take, _, sheet, index, (grid, cols, _), room = (
            min(whole, key=lambda o: o[1]) if whole else max(options, key=lambda o: (o[0], -o[1])))
        block = place_block(grid, queue[:take], room.x, room.y, cols)
        sheet.blocks.append(block)
        sheet.free = occupy(sheet.free, block.box, spec.gutter) + short_row(block, spec.gutter)
        queue = queue[take:]
    return queue


def pieces_of(block: PieceBlock) -> list[Piece]:
    return [slot.piece for slot in block.slots]
