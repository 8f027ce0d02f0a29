"""Filling a sheet template (pnp.data.sheettemplate) instead of imposing: pure math, pieces to
the declared slots, sheet after sheet.

Each piece goes to the first free slot of its trim size, in the template's order (upright in a
slot of ``rotate: 0``, turned a quarter in one of ``rotate: 90``); a sheet is full when no free
slot takes the next piece of the queue. A face shows its bleed round its slot up to the
template's ``bleed``, and only halfway to a neighbour nearer than twice that: slots that butt
share their cut lines, as butted cards of the imposition do. Each slot has its own crop marks,
kept off every other slot. Backs go to the declared back slots, or the front slots mirrored
left-right (long-edge duplex) when the template declares none.
"""

from __future__ import annotations

from pnp.data.sheettemplate import SheetTemplate, TemplateSlot
from pnp.layout.presets import SheetSpec
from pnp.layout.sheetplan import Piece, PieceBlock, Rect, SheetPlan, Slot

FIT = 0.01  # mm: a card fits a slot of its size to within this


def template_spec(template: SheetTemplate) -> SheetSpec:
    """The sheet a template's page is, with the furniture of any other sheet."""
    return SheetSpec(template.paper, template.width, template.height, bleed=template.bleed)


def fits(piece: Piece, slot: TemplateSlot) -> bool:
    width, height = slot.card_size
    return abs(piece.width - width) <= FIT and abs(piece.height - height) <= FIT


def misfits(pieces: list[Piece], template: SheetTemplate) -> list[Piece]:
    """The pieces no slot of the template takes."""
    return [piece for piece in pieces if not any(fits(piece, slot) for slot in template.slots)]


def fill_template(pieces: list[Piece], template: SheetTemplate) -> list[SheetPlan]:
    """Sheets of the template holding every piece (each must fit a slot: see :func:`misfits`)."""
    spec = template_spec(template)
    queue = list(pieces)
    fronts = _cells(template.slots, template)
    backs = None if template.backs is None else _cells(template.backs, template)
    plans: list[SheetPlan] = []
    while queue:
        placed: list[tuple[int, Piece]] = []
        for index, slot in enumerate(template.slots):
            piece = next((p for p in queue if fits(p, slot)), None)
            if piece is not None:
                queue.remove(piece)
                placed.append((index, piece))
        if not placed:  # nothing left fits: misfits() says which (the caller checks first)
            raise ValueError(f"{len(queue)} pieces fit no slot of {template.name}")
        front = tuple(_slot(piece, template.slots[i], fronts[i]) for i, piece in placed)
        back = None if backs is None or template.backs is None else \
            tuple(_slot(piece, template.backs[i], backs[i]) for i, piece in placed)
        plans.append(SheetPlan(len(plans) + 1, spec, tuple(_block(slot) for slot in front),
                               declared=True, backs=back))
    return plans


def _slot(piece: Piece, declared: TemplateSlot, cell: Rect) -> Slot:
    bleed = piece.bleed
    box = Rect(declared.x - bleed, declared.y - bleed, declared.width + 2 * bleed, declared.height + 2 * bleed)
    return Slot(piece, box, declared.rotated, cell)


def _block(slot: Slot) -> PieceBlock:
    return PieceBlock((slot,), 1, 1, slot.visible)


def _cells(slots: tuple[TemplateSlot, ...], template: SheetTemplate) -> list[Rect]:
    """What of each face shows: its trim grown by the bleed on each side, but only halfway to
    a neighbour nearer than twice the bleed, and never past the page."""
    cells = []
    for slot in slots:
        left = top = right = bottom = template.bleed
        for other in slots:
            if other is slot:
                continue
            beside = other.y < slot.bottom and slot.y < other.bottom
            above = other.x < slot.right and slot.x < other.right
            if beside and other.right <= slot.x:
                left = min(left, (slot.x - other.right) / 2)
            if beside and other.x >= slot.right:
                right = min(right, (other.x - slot.right) / 2)
            if above and other.bottom <= slot.y:
                top = min(top, (slot.y - other.bottom) / 2)
            if above and other.y >= slot.bottom:
                bottom = min(bottom, (other.y - slot.bottom) / 2)
        x0, y0 = max(0.0, slot.x - left), max(0.0, slot.y - top)
        x1, y1 = min(template.width, slot.right + right), min(template.height, slot.bottom + bottom)
        cells.append(Rect(x0, y0, x1 - x0, y1 - y0))
    return cells
