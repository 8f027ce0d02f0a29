"""Forms to write on: a form fills its page inside the furniture, without bleed or marks, and a
nearly empty sheet of pieces moves into a strip at the foot of a form's page when the form
above keeps its designed size, parted from it by one cut across the page."""

from __future__ import annotations

from dataclasses import replace

from pnp.layout.backfill import OpenSheet, backfill, is_sparse, pieces_of
from pnp.layout.presets import SheetSpec
from pnp.layout.printable import EPS, mark_rooms, marked_area, printable_area, usable_area
from pnp.layout.sheetplan import Piece, PieceBlock, Rect, Slot

FORM_RULER_ROOM = 4.0  # mm kept free at the right of a form's page: a vertical scale ruler's

FORM_CUT = 6.0  # mm above a strip's bleed boxes: the line that parts it from the form


def _form_area(spec: SheetSpec) -> Rect:
    """Where a form to write on may go: the page inside the furniture, less a strip at the
    right where the sheet's vertical scale ruler goes (a form fills its page otherwise)."""
    area = printable_area(spec)
    return Rect(area.x, area.y, area.width - FORM_RULER_ROOM, area.height)


def write_on_sheet(spec: SheetSpec, piece: Piece, area: Rect | None = None) -> OpenSheet:
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
    return OpenSheet([PieceBlock((slot,), 1, 1, trim)], [], write_on=True)


def _turned_for(piece: Piece, area: Rect) -> tuple[bool, float, float]:
    """Whether a form turns a quarter to suit an area's shape, and its size as placed."""
    rotated = (piece.width > piece.height) != (area.width > area.height)
    return (rotated, *((piece.height, piece.width) if rotated else (piece.width, piece.height)))


def _form_scale(piece: Piece, area: Rect) -> float:
    """How much a form grows (or shrinks, below 1) to fill an area."""
    _, w, h = _turned_for(piece, area)
    return min(area.width / w, area.height / h)


def share_form_pages(spec: SheetSpec, sheets: list[OpenSheet]) -> list[OpenSheet]:
    """A nearly empty sheet of pieces moves onto the foot of a form's page when they fit
    there in a strip and the form above keeps at least its designed size: one cut across the
    page, on the dashed line between them, parts the two, and a sheet is saved."""
    forms = [i for i, s in enumerate(sheets) if s.write_on and s.cut is None]
    sparse = sorted((i for i, s in enumerate(sheets) if is_sparse(spec, s)), key=lambda i: sheets[i].used())
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


def _form_with_strip(spec: SheetSpec, form: Piece, sheet: OpenSheet) -> OpenSheet | None:
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


def _strip_below(spec: SheetSpec, sheet: OpenSheet, top: float) -> OpenSheet | None:
    """This sheet's pieces packed into the strip of the page below ``top`` (the form at its
    designed size above it and the gap the cut line needs), or None when they do not fit."""
    usable = printable_area(spec)
    if top >= usable.bottom:
        return None
    trial = OpenSheet([], [Rect(usable.x, top, usable.width, usable.bottom - top)])
    if any(backfill(spec, [trial], pieces_of(block)) for block in sheet.blocks):
        return None
    return trial


def _fill_above(spec: SheetSpec, form: Piece, trial: OpenSheet) -> OpenSheet | None:
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
            shared = write_on_sheet(spec, form, room)
            return OpenSheet(shared.blocks + blocks, [], write_on=True, cut=cut)
    return None


def _shift(block: PieceBlock, dx: float, dy: float) -> PieceBlock:
    def moved(rect: Rect) -> Rect:
        return replace(rect, x=rect.x + dx, y=rect.y + dy)

    slots = tuple(replace(s, bleed_box=moved(s.bleed_box), cell=None if s.cell is None else moved(s.cell))
                  for s in block.slots)
    return PieceBlock(slots, block.columns, block.rows, moved(block.box))
