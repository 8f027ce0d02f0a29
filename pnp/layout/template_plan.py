"""Filling a sheet template (pnp.data.sheettemplate) instead of imposing: pure math, pieces to
the declared slots, sheet after sheet.

Each piece goes to the first free slot of its trim size, in the template's order (upright in a
slot of ``rotate: 0``, turned a quarter in one of ``rotate: 90``); a sheet is full when no free
slot takes the next piece of the queue. A face shows its bleed round its slot up to the
template's ``bleed``, and only halfway to a neighbour nearer than twice that: slots that butt
share their cut lines, as butted cards of the imposition do. Each slot has its own crop marks,
kept off every other slot. Backs go to the declared back slots, or the front slots mirrored
left-right (long-edge duplex) when the template declares none.

Only a whole piece cut along straight lines goes in a slot (a card, a tent card): never a
round token, a die net, a write-on form or one tile of a board. What no slot takes is imposed as
usual on sheets of the template's paper, after the template's sheets (:func:`plan_with_template`).
"""

from __future__ import annotations

from dataclasses import replace

from pnp.core.records import record
from pnp.data.sheettemplate import SheetTemplate, TemplateSlot
from pnp.layout.impose import impose
from pnp.layout.presets import SheetSpec, sheet_spec
from pnp.layout.sheetplan import Piece, PieceBlock, Rect, SheetPlan, Slot

FIT = 0.01  # mm: a card fits a slot of its size to within this


def template_spec(template: SheetTemplate) -> SheetSpec:
    """The sheet a template's page is, with the furniture of any other sheet."""
    return SheetSpec(template.paper, template.width, template.height, bleed=template.bleed)


def template_paper(template: SheetTemplate, spec: SheetSpec) -> SheetSpec:
    """The sheet the pieces no slot takes are imposed on: the template's paper, with the
    imposition's furniture and ``spec``'s gutter, so the whole PDF is one paper."""
    return replace(sheet_spec(template.paper), card_gutter=spec.card_gutter)


def fits(piece: Piece, slot: TemplateSlot) -> bool:
    if piece.tile is not None or not piece.marks or piece.write_on or piece.outline:
        return False
    width, height = slot.card_size
    return abs(piece.width - width) <= FIT and abs(piece.height - height) <= FIT


def misfits(pieces: list[Piece], template: SheetTemplate) -> list[Piece]:
    """The pieces no slot of the template takes."""
    return [piece for piece in pieces if not any(fits(piece, slot) for slot in template.slots)]


@record
class TemplateShare:
    """Which pieces of a game a sheet template takes and which go on computed sheets: each
    component's id with its number of copies, in the order of components.yaml."""

    template: str  # the template's name
    file: str  # as messages show it
    on_template: tuple[tuple[str, int], ...]
    on_computed: tuple[tuple[str, int], ...]


def template_share(pieces: list[Piece], template: SheetTemplate) -> TemplateShare:
    slotted, rest = split_pieces(pieces, template)
    return TemplateShare(template.name, template.file, _copies(slotted), _copies(rest))


def _copies(pieces: list[Piece]) -> tuple[tuple[str, int], ...]:
    """Copies per component: a board's tiles are one copy."""
    copies: dict[str, set[tuple[str, int]]] = {}
    for piece in pieces:
        copies.setdefault(piece.component, set()).add((piece.card, piece.copy))
    return tuple((component, len(found)) for component, found in copies.items())


def split_pieces(pieces: list[Piece], template: SheetTemplate) -> tuple[list[Piece], list[Piece]]:
    """The pieces some slot of the template takes, and the rest, each in their order."""
    rest = misfits(pieces, template)
    leftover = set(map(id, rest))
    return [piece for piece in pieces if id(piece) not in leftover], rest


def plan_with_template(pieces: list[Piece], template: SheetTemplate, spec: SheetSpec) -> list[SheetPlan]:
    """The template's sheets holding every piece a slot takes, then the rest imposed on
    ``spec`` (the template's paper, as the imposition's furniture and gutter), numbered on."""
    slotted, rest = split_pieces(pieces, template)
    plans = fill_template(slotted, template) if slotted else []
    imposed = impose(rest, spec) if rest else []
    return plans + [replace(plan, number=len(plans) + plan.number) for plan in imposed]


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
