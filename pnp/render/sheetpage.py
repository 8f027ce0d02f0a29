"""One side of a components sheet: its faces placed, crop marks, a form's cut line, the sheet
label and the rulers (pnp.render.sheets draws or replays one per page)."""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp.core.units import MM
from pnp.layout.presets import SheetSpec
from pnp.layout.sheetplan import SheetPlan, Slot
from pnp.render.folding import dashed_line
from pnp.render.furniture import Furniture, draw_label, draw_marks, draw_rulers, sheet_obstacles
from pnp.text.fonts import FontFamily


def _place(canvas: Canvas, spec: SheetSpec, slot: Slot, name: str, back: bool) -> None:
    box = slot.bleed_box
    x0 = box.x * MM
    y0 = (spec.height - box.bottom) * MM
    canvas.saveState()
    if slot.cell is not None:
        # Butted pieces and write-on forms show only their cell of the form.
        cell = slot.cell
        clip = canvas.beginPath()
        clip.rect(cell.x * MM, (spec.height - cell.bottom) * MM, cell.width * MM, cell.height * MM)
        canvas.clipPath(clip, stroke=0, fill=0)
    if not slot.rotated:
        canvas.translate(x0, y0)
    elif not back:
        # A quarter turn anticlockwise: the face's top points to the sheet's left edge.
        canvas.translate(x0 + box.width * MM, y0)
        canvas.rotate(90)
    else:
        # Seen from the back after a long-edge flip, that same edge points right.
        canvas.translate(x0, y0 + box.height * MM)
        canvas.rotate(-90)
    if slot.scale != 1.0:
        canvas.scale(slot.scale, slot.scale)
    canvas.doForm(name)
    canvas.restoreState()
    if slot.piece.outline == "round":
        _cut_circle(canvas, spec, slot)


CUT_LINE = HexColor("#3a3a3a")  # what is cut along: a form's edge, a round token, a player aid's cards


def _cut_circle(canvas: Canvas, spec: SheetSpec, slot: Slot) -> None:
    """The trim circle of a round token as a thin line, so scissors follow the true size and
    not the edge of the bleed."""
    trim = slot.trim_box
    canvas.saveState()
    canvas.setStrokeColor(CUT_LINE)
    canvas.setLineWidth(0.2 * MM)
    canvas.circle((trim.x + trim.width / 2) * MM, (spec.height - trim.y - trim.height / 2) * MM,
                  trim.width / 2 * MM, stroke=1, fill=0)
    canvas.restoreState()


def _form_cut(canvas: Canvas, plan: SheetPlan) -> None:
    """The dashed line across a form's page that parts the form from the pieces below it."""
    spec = plan.spec
    assert plan.cut is not None
    y = (spec.height - plan.cut) * MM
    dashed_line(canvas, CUT_LINE, spec.hardware * MM, y, (spec.width - spec.hardware) * MM, y)


def label_covered(spec: SheetSpec, slots: tuple[Slot, ...]) -> bool:
    """Whether a piece reaches into the sheet label's band (a template's slots may)."""
    top = spec.height - spec.hardware - spec.label_band - spec.label_gap
    return any(slot.visible.bottom > top for slot in slots)


def draw_page(canvas: Canvas, plan: SheetPlan, back: bool, slots: tuple[Slot, ...], names: list[str],
               label: str | None, furniture: Furniture, fonts: FontFamily, back_offset: tuple[float, float]) -> int:
    """One side of a sheet: its faces placed, crop marks, cut line, label and rulers (the
    number drawn is returned). It reads nothing but its arguments: a kept page's key is made of
    them (pnp.render.facecache)."""
    if back and back_offset != (0.0, 0.0):
        canvas.translate(back_offset[0] * MM, -back_offset[1] * MM)
    for slot, name in zip(slots, names, strict=True):
        _place(canvas, plan.spec, slot, name, back)
    segments = draw_marks(canvas, plan, back)
    if plan.cut is not None and not back:
        _form_cut(canvas, plan)
    if label is not None:
        draw_label(canvas, plan.spec, label, furniture, fonts, back)
    # A write-on form is an obstacle like any piece: a sheet it leaves room on (a score
    # pad above a card) carries the rulers that check the card's scale.
    obstacles = sheet_obstacles(plan.spec, slots, segments, None if back else plan.cut)
    return draw_rulers(canvas, plan.spec, obstacles, fonts, furniture)
