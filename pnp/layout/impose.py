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
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from pnp.layout.presets import SheetSpec
from pnp.layout.sheetplan import (
    MARK_SHORT,
    MIN_MARK,
    Piece,
    PieceBlock,
    Rect,
    SheetPlan,
    Slot,
)


class ImposeError(ValueError):
    """A piece cannot fit on the chosen paper at all."""


EPS = 1e-6
SPARSE = 0.40  # a sheet less full than this (of its printable area) is emptied into the others
MIN_FREE = 5.0  # free space narrower than this (mm) holds nothing worth tracking


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


def _clip(rect: Rect, area: Rect) -> Rect:
    x, y = max(rect.x, area.x), max(rect.y, area.y)
    return Rect(x, y, min(rect.right, area.right) - x, min(rect.bottom, area.bottom) - y)


def _gap(spec: SheetSpec, piece: Piece) -> float:
    """Space between neighbouring trims in a block of this piece."""
    own = 2 * piece.bleed
    if spec.card_gutter < own and not piece.butt:
        return own
    return spec.card_gutter


@dataclass(frozen=True)
class _Grid:
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

    def turned(self) -> _Grid:
        return _Grid(not self.rotated, self.trim_h, self.trim_w, self.bleed, self.gap)


def _grids(spec: SheetSpec, piece: Piece) -> tuple[_Grid, _Grid]:
    grid = _Grid(False, piece.width, piece.height, piece.bleed, _gap(spec, piece))
    return grid, grid.turned()


def fits_on_sheet(spec: SheetSpec, width: float, height: float, bleed: float) -> bool:
    """Whether one slot of this size (a piece with crop marks, its bleed included) fits the
    sheet's usable area, either way round: the same test the imposer applies, so a tile that
    passes it is always placed."""
    area = usable_area(spec, Piece("", "", 0, width - 2 * bleed, height - 2 * bleed, bleed, False))
    return any(w <= area.width + EPS and h <= area.height + EPS
               for w, h in ((width, height), (height, width)))


def _full_grid(spec: SheetSpec, piece: Piece) -> tuple[_Grid, int, int]:
    """The orientation, columns and rows that fit most pieces on an empty sheet."""
    area = usable_area(spec, piece)
    best: tuple[int, _Grid, int, int] | None = None
    for grid in _grids(spec, piece):
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


def _block(grid: _Grid, pieces: list[Piece], x0: float, y0: float, cols: int) -> PieceBlock:
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


@dataclass
class _Sheet:
    blocks: list[PieceBlock]
    free: list[Rect]
    write_on: bool = False
    cut: float | None = None  # y (mm) of the line parting a form from pieces on its page

    def used(self) -> float:
        return sum(s.trim_box.width * s.trim_box.height for b in self.blocks for s in b.slots)


def _positive(rects: list[Rect]) -> list[Rect]:
    return [r for r in rects if r.width >= MIN_FREE - EPS and r.height >= MIN_FREE - EPS]


def _short_row(block: PieceBlock, gutter: float) -> list[Rect]:
    """The empty cells beside a partial last row, inside the block's box."""
    last = block.slots[-1].visible
    # The row above needs no marks there, but what goes in needs room for its own.
    x, y = last.right + gutter, last.y + gutter / 2
    return _positive([Rect(x, y, block.box.right - x, block.box.bottom - y)])


def _around(area: Rect, box: Rect, gutter: float) -> list[Rect]:
    """The free space of an empty area once ``box`` is placed in it: bands above and below
    across the whole width, and the sides beside the box."""
    return _positive([
        Rect(area.x, area.y, area.width, box.y - gutter - area.y),
        Rect(area.x, box.bottom + gutter, area.width, area.bottom - box.bottom - gutter),
        Rect(area.x, box.y, box.x - gutter - area.x, box.height),
        Rect(box.right + gutter, box.y, area.right - box.right - gutter, box.height),
    ])


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


def _occupy(free: list[Rect], box: Rect, gutter: float) -> list[Rect]:
    """Free space after placing ``box``: every free rect it touches loses it (maximal rects,
    so space beside a block stays one piece with the space above or below it)."""
    return _maximal([part for rect in free for part in _subtract(rect, box, gutter)])


def _split(free: Rect, box: Rect, gutter: float) -> list[Rect]:
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


def _fit(spec: SheetSpec, piece: Piece, free: Rect, n: int) -> tuple[_Grid, int, int] | None:
    """The grid, columns and number of pieces (up to n) that best use a free rect: as many
    pieces as fit, in the block shape that leaves the largest single free rect behind."""
    best: tuple[tuple[int, float, float], _Grid, int, int] | None = None
    for grid in _grids(spec, piece):
        max_cols, max_rows = grid.capacity(free)
        take = min(n, max_cols * max_rows)
        if not take:
            continue
        for cols in range(1, min(max_cols, take) + 1):
            rows = math.ceil(take / cols)
            if rows > max_rows:
                continue
            w, h = grid.size(cols, rows)
            left = _split(free, Rect(free.x, free.y, w, h), spec.gutter)
            largest = max((r.width * r.height for r in left), default=0.0)
            key = (take, largest, -(w * h))
            if best is None or key > best[0]:
                best = (key, grid, cols, take)
    return None if best is None else (best[1], best[2], best[3])


def _roomiest_fit(spec: SheetSpec, piece: Piece, free: Rect, area: Rect,
                  n: int) -> tuple[Rect, tuple[_Grid, int, int] | None]:
    """The part of a free rect a block goes in, and its fit there: kept clear of the paper
    edges for printable crop marks whenever that costs no piece (a free rect beside the
    margin would otherwise put the block's marks where a printer cannot print)."""
    def fit_in(margin: tuple[float, float]) -> tuple[Rect, tuple[_Grid, int, int] | None]:
        room = _clip(free, marked_area(spec, area, margin))
        return room, _fit(spec, piece, room, n) if room.width > 0 and room.height > 0 else None

    plain = fit_in((0.0, 0.0))
    if plain[1] is None or not piece.marks:
        return plain
    for margin in mark_rooms(spec):
        room, fit = fit_in(margin)
        if fit is not None and fit[2] == plain[1][2]:
            return room, fit
    return plain


def _backfill(spec: SheetSpec, sheets: list[_Sheet], queue: list[Piece],
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
                room, fit = _roomiest_fit(spec, queue[0], free, area, len(queue))
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
        block = _block(grid, queue[:take], room.x, room.y, cols)
        sheet.blocks.append(block)
        sheet.free = _occupy(sheet.free, block.box, spec.gutter) + _short_row(block, spec.gutter)
        queue = queue[take:]
    return queue


FORM_RULER_ROOM = 4.0  # mm kept free at the right of a form's page: a vertical scale ruler's


def _form_area(spec: SheetSpec) -> Rect:
    """Where a form to write on may go: the page inside the furniture, less a strip at the
    right where the sheet's vertical scale ruler goes (a form fills its page otherwise)."""
    area = printable_area(spec)
    return Rect(area.x, area.y, area.width - FORM_RULER_ROOM, area.height)


def _sparse(spec: SheetSpec, sheet: _Sheet) -> bool:
    """A sheet of pieces less than SPARSE full: worth emptying into the others."""
    return not sheet.write_on and sheet.used() < SPARSE * printable_area(spec).width * printable_area(spec).height


def _write_on_sheet(spec: SheetSpec, piece: Piece, area: Rect | None = None) -> _Sheet:
    """A form to write on fills the page (or ``area``) inside the furniture, without bleed
    or marks."""
    area = area or _form_area(spec)
    rotated, w, h = _turned_for(piece, area)
    scale = min(area.width / w, area.height / h)
    trim = Rect(area.x + (area.width - w * scale) / 2, area.y + (area.height - h * scale) / 2,
                w * scale, h * scale)
    b = piece.bleed * scale
    bleed_box = Rect(trim.x - b, trim.y - b, trim.width + 2 * b, trim.height + 2 * b)
    slot = Slot(piece, bleed_box, rotated, trim, scale)
    return _Sheet([PieceBlock((slot,), 1, 1, trim)], [], write_on=True)


def impose(pieces: list[Piece], spec: SheetSpec) -> list[SheetPlan]:
    """Pack pieces onto sheets run by run; see the module docstring.

    Largest pieces first, so small ones fill the space the large ones leave: by area, or by
    longest side, or as listed. Of the three packings, the one with the fewest sheets wins,
    then the one with the fewest nearly empty sheets (the first on a tie).
    """
    runs = _runs(pieces)
    orders = (sorted(runs, key=lambda run: -run[0].width * run[0].height),
              sorted(runs, key=lambda run: -max(run[0].width, run[0].height)),
              runs)
    packings = [_pack(order, spec) for order in orders]
    sheets = min(packings, key=lambda packed: (len(packed), sum(_sparse(spec, s) for s in packed)))
    return [SheetPlan(number, spec, tuple(sheet.blocks), sheet.cut)
            for number, sheet in enumerate(sheets, start=1)]


def _pack(runs: list[list[Piece]], spec: SheetSpec) -> list[_Sheet]:
    sheets: list[_Sheet] = []
    for run in runs:
        if run[0].write_on:
            sheets.extend(_write_on_sheet(spec, piece) for piece in run)
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
            whole = _Sheet([], [printable_area(spec)])
            if not _backfill(spec, [whole], queue, partial=True):
                sheets.append(whole)
                continue
        while len(queue) >= cols * rows:
            block = _block(grid, queue[:cols * rows], x0, y0, cols)
            sheets.append(_Sheet([block], _occupy([printable_area(spec)], block.box, spec.gutter)))
            queue = queue[cols * rows:]
        queue = _backfill(spec, sheets, queue)
        if queue:
            block = _block(grid, queue, x0, y0, cols)
            sheets.append(_Sheet([block], _occupy([printable_area(spec)], block.box, spec.gutter)
                                 + _short_row(block, spec.gutter)))
    sheets = _empty_sparse_sheets(spec, sheets)
    sheets = _share_form_pages(spec, sheets)
    sheets.sort(key=lambda sheet: sheet.write_on)  # forms to write on after the pieces
    return sheets


def _grid_top(spec: SheetSpec, area: Rect, height: float, piece: Piece) -> float:
    """Where a run's grid starts down the sheet: low enough for its top crop marks to print
    outside its bleed, or centred when there is less room than that, so that what is left of
    the sheet is one band below it."""
    wanted = printable_area(spec).y + outside_room(spec) - area.y if piece.marks else 0.0
    return area.y + max(0.0, min((area.height - height) / 2, wanted))


FORM_CUT = 6.0  # mm above a strip's bleed boxes: the line that parts it from the form


def _turned_for(piece: Piece, area: Rect) -> tuple[bool, float, float]:
    """Whether a form turns a quarter to suit an area's shape, and its size as placed."""
    rotated = (piece.width > piece.height) != (area.width > area.height)
    return (rotated, *((piece.height, piece.width) if rotated else (piece.width, piece.height)))


def _form_scale(piece: Piece, area: Rect) -> float:
    """How much a form grows (or shrinks, below 1) to fill an area."""
    _, w, h = _turned_for(piece, area)
    return min(area.width / w, area.height / h)


def _share_form_pages(spec: SheetSpec, sheets: list[_Sheet]) -> list[_Sheet]:
    """A nearly empty sheet of pieces moves onto the foot of a form's page when they fit
    there in a strip and the form above keeps at least its designed size: one cut across the
    page, on the dashed line between them, parts the two, and a sheet is saved."""
    forms = [i for i, s in enumerate(sheets) if s.write_on and s.cut is None]
    sparse = sorted((i for i, s in enumerate(sheets) if _sparse(spec, s)), key=lambda i: sheets[i].used())
    for form_index in forms:
        form = sheets[form_index].blocks[0].slots[0].piece
        for index in sparse:
            shared = _form_with_strip(spec, form, sheets[index])
            if shared is not None:
                sheets[form_index] = shared
                sheets = [s for i, s in enumerate(sheets) if i != index]
                sparse = [i - (i > index) for i in sparse if i != index]
                forms = [i - (i > index) for i in forms]
                break
    return sheets


def _form_with_strip(spec: SheetSpec, form: Piece, sheet: _Sheet) -> _Sheet | None:
    """The form's page with this sheet's pieces in a strip at its foot, or None when they do
    not fit below the form at its designed size (turned to suit the page, or else the other
    way round: a portrait pad turned leaves a deeper strip). The strip leaves room for the
    rulers: the form may take the whole width."""
    area = printable_area(spec)
    _, across, down = _turned_for(form, area)
    for w, h in ((across, down), (down, across)):
        trial = _strip_below(spec, sheet, area.y + h + spec.gutter) if w <= area.width + EPS else None
        shared = None if trial is None else _fill_above(spec, form, trial)
        if shared is not None:
            return shared
    return None


def _strip_below(spec: SheetSpec, sheet: _Sheet, top: float) -> _Sheet | None:
    """This sheet's pieces packed into the strip of the page below ``top`` (the form at its
    designed size above it and the gap the cut line needs), or None when they do not fit."""
    usable = printable_area(spec)
    if top >= usable.bottom:
        return None
    trial = _Sheet([], [Rect(usable.x, top, usable.width, usable.bottom - top)])
    if any(_backfill(spec, [trial], _runs_of(block)) for block in sheet.blocks):
        return None
    return trial


def _fill_above(spec: SheetSpec, form: Piece, trial: _Sheet) -> _Sheet | None:
    """The strip's pieces moved to the foot of the page, and the form filling what is left
    above the cut line, or None when that would shrink it below its designed size."""
    area = usable = printable_area(spec)
    # Down to the foot of the page, centred across: the form gets all the room above, less
    # what the strip's crop marks need to print below it when the form can spare that.
    # (A piece without bleed keeps its trim inside the hardware margin: its own area.)
    boxes = [b.box for b in trial.blocks]
    left, right = min(b.x for b in boxes), max(b.right for b in boxes)
    for margin in mark_rooms(spec):
        areas = [marked_area(spec, usable_area(spec, b.slots[0].piece),
                             margin if b.slots[0].piece.marks else (0.0, 0.0))
                 for b in trial.blocks]
        # As near the centre as every block's area lets it go, and as low.
        lowest = max(a.x - b.x for a, b in zip(areas, boxes, strict=True))
        highest = min(a.right - b.right for a, b in zip(areas, boxes, strict=True))
        if lowest > highest + EPS:
            continue
        dx = min(max(usable.x + (usable.width - (right - left)) / 2 - left, lowest), highest)
        dy = min(a.bottom - b.bottom for a, b in zip(areas, boxes, strict=True))
        blocks = [_shift(b, dx, dy) for b in trial.blocks]
        cut = min(b.box.y for b in blocks) - FORM_CUT
        room = Rect(area.x, area.y, area.width, cut - (spec.gutter - FORM_CUT) - area.y)
        if _form_scale(form, room) >= 1.0 - EPS:
            shared = _write_on_sheet(spec, form, room)
            return _Sheet(shared.blocks + blocks, [], write_on=True, cut=cut)
    return None


def _shift(block: PieceBlock, dx: float, dy: float) -> PieceBlock:
    def moved(rect: Rect) -> Rect:
        return replace(rect, x=rect.x + dx, y=rect.y + dy)

    slots = tuple(replace(s, bleed_box=moved(s.bleed_box), cell=None if s.cell is None else moved(s.cell))
                  for s in block.slots)
    return PieceBlock(slots, block.columns, block.rows, moved(block.box))


def _empty_sparse_sheets(spec: SheetSpec, sheets: list[_Sheet]) -> list[_Sheet]:
    """Move the pieces of a nearly empty sheet into the others' free space, if they all fit."""
    index = len(sheets) - 1
    while index >= 0:
        sheet = sheets[index]
        if _sparse(spec, sheet):
            others = [replace(s, blocks=list(s.blocks), free=list(s.free))
                      for i, s in enumerate(sheets) if i != index]
            if all(not _backfill(spec, others, _runs_of(block)) for block in sheet.blocks):
                sheets = others
        index -= 1
    return sheets


def _runs_of(block: PieceBlock) -> list[Piece]:
    return [slot.piece for slot in block.slots]
