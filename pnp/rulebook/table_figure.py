"""A table set-up figure in the rulebook: the table from above, to scale, with every piece drawn
from its own face form (the very form the components PDF places), so it shows the real pieces.
Where things go is pnp.layout.table_plan; this draws the plan and its caption."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from pnp.core.units import MM
from pnp.data.model import Card, Component, Figure, FigurePiece, Text
from pnp.layout.table_plan import Group, Item, Placed, TablePlan, layout_group, plan_table
from pnp.render.face_context import FaceContext
from pnp.render.faces import draw_layout
from pnp.render.sheets import FaceForms, face_geometry
from pnp.text.linetypes import Run
from pnp.text.setting import break_lines
from pnp.text.strings import ui

if TYPE_CHECKING:
    from pnp.rulebook.story import StoryBuilder

SEAT = "{seat}"
TABLE_FILL = HexColor("#efe8da")
TABLE_EDGE = HexColor("#b9ad98")
OUTLINE = HexColor("#8d8170")
LABEL_COLOR = HexColor("#231f2b")
CAPTION_COLOR = HexColor("#5d5348")
LABEL_SIZE = 9.0
CAPTION_SIZE = 9.0
CAPTION_LEADING = 13.0
CAPTION_INDENT = 16.0  # points: where the other figures' captions start, the list indent
LABEL_GAP = 4.0  # points between the table's edge and a seat label
HEADING_ROOM = 48.0  # points: a heading keeps with the figure, so the figure leaves it room
MAX_HEIGHT = 0.62  # of the frame: a set-up figure leaves room for the text about it
EM_ASCENT = 0.88
PANEL_BLEED = 3.0  # mm round the outer panel's form, as round every face
SHRINK = 0.55  # the smallest a figure gets, against its natural size, to fit a page's foot


class TableFigureFlowable(Flowable):  # type: ignore[misc]  # reportlab is untyped
    """The table as an oval, the shared pieces in the middle, each seat's pieces at its edge
    turned towards that player, an optional label outside each seat, the caption below."""

    def __init__(self, figure: Figure, builder: StoryBuilder, number: int) -> None:
        super().__init__()
        assert figure.table is not None
        self.figure, self.builder = figure, builder
        self.table = figure.table
        self.labels = [Text(builder.convert(t.value), t.where) for t in figure.labels]
        caption = builder.convert(figure.caption.value) if figure.caption else ""
        text = ui(builder.lang, "figure_caption", number=number, caption=caption).rstrip()
        self.caption = Text(text, figure.caption.where if figure.caption else figure.where)
        centre = layout_group([[self._item(p, 0) for p in row] for row in self.table.centre])
        self.plan: TablePlan = plan_table(centre, self._seat_group, self.table.seats)
        self.spaceBefore = 6
        self.spaceAfter = 10
        self.scale = 1.0
        self.lines: list[str] = []

    def _seat_group(self, seat: int) -> Group:
        rows = self.table.first_seat if seat == 1 and self.table.first_seat else self.table.seat
        return layout_group([[self._item(p, seat) for p in row] for row in rows])

    def _item(self, piece: FigurePiece, seat: int) -> Item:
        card_id = piece.card.replace(SEAT, str(seat))
        game = self.builder.game
        component = game.component(piece.component)
        card = game.card(component.id, card_id)
        if component.shape == "fold":  # a standing screen: its outer panel, as others see it
            width, height = card.size
        else:
            width, height, _, _ = face_geometry(component, card)
        return Item((piece.component, card_id, piece.side), width, height, piece.count, piece.spread,
                    piece.over)

    def _label_room(self) -> tuple[float, float]:
        """Points a label may need beyond the table's edge, across and up/down."""
        if not self.labels:
            return 0.0, 0.0
        font = self.builder.fonts.bold.name
        widest = max(stringWidth(t.value, font, LABEL_SIZE) for t in self.labels)
        return widest + LABEL_GAP, LABEL_SIZE * 1.3 + LABEL_GAP

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        limit = min(avail_width, self.table.width * MM) if self.table.width else avail_width
        room_x, room_y = self._label_room()
        left, bottom, right, top = self.plan.bounds
        font = self.builder.fonts.regular.name
        measure = lambda t, b, z: stringWidth(t, font, z)  # noqa: E731 - one-line measure
        self.lines = ["".join(r.text for r in line)
                      for line in break_lines([Run(self.caption.value)], avail_width - CAPTION_INDENT,
                                              CAPTION_SIZE, measure)]
        caption_h = len(self.lines) * CAPTION_LEADING + 3
        room = self.builder.frame_height * MAX_HEIGHT - caption_h - 2 * room_y - HEADING_ROOM
        self.scale = min((limit - 2 * room_x) / ((right - left) * MM), room / ((top - bottom) * MM))
        # Rather than leave the rest of a page blank, the figure shrinks into it, within
        # reason: its caption tells what it shows, so it needs no sentence kept with it.
        fitted = (avail_height - caption_h - 2 * room_y - self.spaceBefore - self.spaceAfter) \
            / ((top - bottom) * MM)
        if SHRINK * self.scale <= fitted < self.scale:
            self.scale = fitted
        self.drawing_h = (top - bottom) * MM * self.scale + 2 * room_y
        self.width = avail_width
        self.height = self.drawing_h + caption_h
        return avail_width, self.height

    def draw(self) -> None:
        canvas = self.canv
        builder = self.builder
        scale = self.scale * MM  # points per real millimetre
        left, bottom, right, top = self.plan.bounds
        _, room_y = self._label_room()
        canvas.saveState()
        canvas.translate(self.width / 2, self.height - room_y - top * scale)
        rx, ry = self.plan.radii
        canvas.setFillColor(TABLE_FILL)
        canvas.setStrokeColor(TABLE_EDGE)
        canvas.setLineWidth(0.8)
        canvas.ellipse(-rx * scale, -ry * scale, rx * scale, ry * scale, stroke=1, fill=1)
        self._group(self.plan.centre, scale)
        for seat in self.plan.seats:
            canvas.saveState()
            canvas.translate(seat.x * scale, seat.y * scale)
            canvas.rotate(seat.angle)
            self._group(seat.group, scale)
            canvas.restoreState()
        if self.labels:
            self._labels(scale)
        canvas.restoreState()
        builder.glyphs.check(self.caption.value, False, self.caption.where)
        canvas.setFillColor(CAPTION_COLOR)
        canvas.setFont(builder.fonts.regular.name, CAPTION_SIZE)
        baseline = self.height - self.drawing_h - CAPTION_SIZE * EM_ASCENT - 3
        for line in self.lines:
            canvas.drawString(CAPTION_INDENT, baseline, line)
            baseline -= CAPTION_LEADING

    def _group(self, group: Group, scale: float) -> None:
        for placed in group.placed:
            self._piece(placed, scale)

    def _piece(self, placed: Placed, scale: float) -> None:
        canvas: Any = self.canv
        key: tuple[str, str, str] = placed.key  # type: ignore[assignment]  # the figure's own handle
        component_id, card_id, side = key
        game = self.builder.game
        component = game.component(component_id)
        card = game.card(component_id, card_id)
        forms = self.builder.face_forms(canvas)
        if component.shape == "fold":
            name, bleed = _outer_panel(forms, component, card), PANEL_BLEED
        else:
            name = forms.face(component, card, side)
            _, _, bleed, _ = face_geometry(component, card)
        x, y, w, h = (v * scale for v in (placed.x, placed.y, placed.width, placed.height))
        canvas.saveState()
        clip = canvas.beginPath()
        if component.shape == "round":
            clip.circle(x + w / 2, y + h / 2, min(w, h) / 2)
        else:
            clip.roundRect(x, y, w, h, min(w, h) * 0.045)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.translate(x - bleed * scale, y - bleed * scale)
        canvas.scale(self.scale, self.scale)
        canvas.doForm(name)
        canvas.restoreState()
        canvas.saveState()
        canvas.setStrokeColor(OUTLINE)
        canvas.setLineWidth(0.4)
        canvas.drawPath(clip, stroke=1, fill=0)
        canvas.restoreState()

    def _labels(self, scale: float) -> None:
        canvas = self.canv
        font = self.builder.fonts.bold.name
        rx, ry = self.plan.radii
        canvas.setFillColor(LABEL_COLOR)
        canvas.setFont(font, LABEL_SIZE)
        for seat, label in zip(self.plan.seats, self.labels, strict=True):
            self.builder.glyphs.check(label.value, True, label.where)
            nx, ny = seat.normal
            # Out from the seat to where that line leaves the table (the root s >= 0 of
            # ((x + s nx) / rx)^2 + ((y + s ny) / ry)^2 = 1), then clear of the edge.
            qa = (nx / rx) ** 2 + (ny / ry) ** 2
            qb = 2 * (seat.x * nx / rx ** 2 + seat.y * ny / ry ** 2)
            qc = (seat.x / rx) ** 2 + (seat.y / ry) ** 2 - 1
            out = (-qb + math.sqrt(max(0.0, qb * qb - 4 * qa * qc))) / (2 * qa)
            width = stringWidth(label.value, font, LABEL_SIZE)
            reach = abs(nx) * width / 2 + abs(ny) * LABEL_SIZE / 2 + LABEL_GAP
            cx = (seat.x + nx * out) * scale + nx * reach
            cy = (seat.y + ny * out) * scale + ny * reach
            canvas.drawCentredString(cx, cy - LABEL_SIZE * (EM_ASCENT - 0.5), label.value)


def _outer_panel(forms: FaceForms, component: Component, card: Card) -> str:
    """A form of a folding screen's outer panel alone, drawn by the same layout code: the
    whole strip's form would carry the inner panel's words too, unseen but still text."""
    name = f"panel-{component.id}-{card.id}"
    if name not in forms.defined:
        forms.defined.add(name)
        width, height = card.size
        ctx = FaceContext(component, card.id, card.fields, width, height, PANEL_BLEED, forms.fonts,
                          forms.convert, forms.game.tables, forms.glyphs, forms.symbols, forms.ink,
                          forms.icons, forms.images)
        forms.canvas.beginForm(name, 0, 0, (width + 2 * PANEL_BLEED) * MM, (height + 2 * PANEL_BLEED) * MM)
        assert component.front is not None  # a fold piece always has a front layout
        draw_layout(forms.canvas, ctx, forms.game.layouts[component.front])
        forms.canvas.endForm()
    return name
