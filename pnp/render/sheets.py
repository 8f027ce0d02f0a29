"""The components PDF: every face drawn once as a form, placed on imposed sheets.

Each face is a PDF form XObject named ``face-<component>-<card>-<side>``; a sheet places
it once per copy. Identical copies cost nothing extra, and the PDF itself says which face
sits where, so tests can count cards from the file instead of trusting the code.

A board larger than a sheet is placed as tiles (pnp.layout.tiles): each tile is its own form,
``face-<component>-<card>~r<row>c<col>-<side>``, which shows the board's whole face form
clipped to the tile, plus the tile's glue marks. The whole face is drawn once; the tiles only
place it, so a tiled board is drawn by the same code as every other face.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp.data.model import Card, Component, Game
from pnp.fonts import FontFamily
from pnp.layout.impose import Piece, Segment, SheetPlan, Slot, crop_marks, impose, mirror_segments
from pnp.layout.nets import Net, build_net
from pnp.layout.presets import SheetSpec
from pnp.layout.tiles import GLUE_LINE_WIDTH, LABEL_PAD, Tile, plan_tiles, tile_marks
from pnp.render.faces import EM_ASCENT, FaceContext, draw_fold, draw_layout, draw_net
from pnp.render.glyphs import GlyphCheck
from pnp.render.symbols import SymbolForms
from pnp.strings import ui
from pnp.textlayout import Run, fit_text
from pnp.units import MM

MARK_COLOR = HexColor("#000000")
LABEL_COLOR = HexColor("#555555")
PAPER_COLOR = HexColor("#ffffff")


@dataclass(frozen=True)
class ComponentsPdf:
    data: bytes
    sheets: int
    log: tuple[str, ...]  # one line per placed face: a reviewable record of the layout


def face_name(component: str, card: str, side: str) -> str:
    return f"face-{component}-{card}-{side}"


def _net_for(component: Component) -> Net:
    face = component.cards[0].size[0]
    return build_net(component.shape, face, tuple(t.value for t in component.faces))


def tile_name(component: str, card: str, tile: Tile, side: str) -> str:
    """``~`` never occurs in an id, so a tile's form cannot clash with another card's."""
    return face_name(component, f"{card}~{tile.key}", side)


def pieces_for(game: Game, spec: SheetSpec | None = None) -> list[Piece]:
    """Every physical copy of every component, in the order of components.yaml.

    Given the paper, a rect piece too large for one sheet becomes its tiles, copy by copy.
    """
    pieces = []
    for component in game.components:
        for card in component.cards:
            width, height, bleed, net = face_geometry(component, card)
            tiling = plan_tiles(width, height, spec, bleed) \
                if spec is not None and component.shape == "rect" else None
            for copy in range(card.count):
                if tiling is not None and tiling.tiled:
                    pieces.extend(
                        Piece(component=component.id, card=card.id, copy=copy, width=tile.width,
                              height=tile.height, bleed=bleed, double_sided=component.double_sided,
                              tile=tile)
                        for tile in tiling.tiles)
                    continue
                pieces.append(Piece(
                    component=component.id, card=card.id, copy=copy, width=width, height=height,
                    bleed=bleed, double_sided=component.double_sided,
                    marks=net is None,
                ))
    return pieces


def face_geometry(component: Component, card: Card) -> tuple[float, float, float, Net | None]:
    """Trim width, height and bleed (mm) of a card's face form, and its net if it is one."""
    width, height = card.size
    if component.shape == "fold":
        height *= 2
    net = _net_for(component) if component.shape.endswith("_net") else None
    if net is not None:
        width, height = net.width, net.height
    return width, height, 0.0 if net else 3.0, net


@dataclass
class FaceForms:
    """The face forms of one canvas, each drawn once on first use.

    The components PDF defines them all up front; a rulebook figure defines only the faces
    it shows, with this same code, so a miniature is always the real card.
    """

    canvas: Canvas
    game: Game
    fonts: FontFamily
    convert: Callable[[str], str]
    glyphs: GlyphCheck
    symbols: SymbolForms = field(init=False)
    defined: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.symbols = SymbolForms(self.canvas, self.game.symbols)

    def face(self, component: Component, card: Card, side: str) -> str:
        name = face_name(component.id, self._face_key(component, card, side), side)
        if name in self.defined:
            return name
        self.defined.add(name)
        width, height, bleed, net = face_geometry(component, card)
        ctx = FaceContext(component, card.id, card.fields, width, height, bleed, self.fonts,
                          self.convert, self.game.tables, self.glyphs, self.symbols)
        layouts = self.game.layouts
        canvas = self.canvas
        canvas.beginForm(name, 0, 0, (width + 2 * bleed) * MM, (height + 2 * bleed) * MM)
        if net is not None:
            draw_net(canvas, ctx, net)
        elif component.shape == "fold" and side == "front":
            draw_fold(canvas, ctx, layouts[component.front], layouts[component.inner])
        else:
            layout_id = component.front if side == "front" else component.back
            draw_layout(canvas, ctx, layouts[layout_id], round_shape=component.shape == "round")
        canvas.endForm()
        return name

    def tile_face(self, component: Component, card: Card, side: str, tile: Tile) -> str:
        """One tile of a board: the board's face form clipped to the tile, with glue marks."""
        whole = self.face(component, card, side)
        name = tile_name(component.id, self._face_key(component, card, side), tile, side)
        if name in self.defined:
            return name
        self.defined.add(name)
        width, height, bleed, _ = face_geometry(component, card)
        full_w, full_h = (tile.width + 2 * bleed) * MM, (tile.height + 2 * bleed) * MM
        # The tile's bleed box, in the whole face form's coordinates (origin bottom-left of
        # the board's bleed box): the back shows the mirrored columns, see Tile.back_x.
        x = tile.x if side == "front" else tile.back_x(width)
        bottom = height - tile.y - tile.height
        canvas = self.canvas
        canvas.beginForm(name, 0, 0, full_w, full_h)
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(0, 0, full_w, full_h)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.translate(-x * MM, -bottom * MM)
        canvas.doForm(whole)
        canvas.restoreState()
        if side == "front":  # the glue strip is on the front; its back is part of the board
            self._glue_marks(component, tile, bleed)
        canvas.endForm()
        return name

    def _glue_marks(self, component: Component, tile: Tile, bleed: float) -> None:
        """Dashed glue lines, alignment triangles and the tile's coordinate, each drawn dark
        on a white edge so they show on any board art."""
        canvas = self.canvas
        marks = tile_marks(tile, bleed)

        def at(point: tuple[float, float]) -> tuple[float, float]:
            return (bleed + point[0]) * MM, (bleed + tile.height - point[1]) * MM

        canvas.saveState()
        canvas.setLineCap(0)
        for width, color, dash in ((GLUE_LINE_WIDTH, PAPER_COLOR, None),
                                   (GLUE_LINE_WIDTH / 2, MARK_COLOR, [2.0, 1.5])):
            canvas.setLineWidth(width * MM)
            canvas.setStrokeColor(color)
            canvas.setDash([d * MM for d in dash] if dash else [])
            for start, end in marks.glue_lines:
                canvas.line(*at(start), *at(end))
        canvas.setDash([])
        canvas.setLineWidth(0.25 * MM)
        canvas.setStrokeColor(PAPER_COLOR)
        canvas.setFillColor(MARK_COLOR)
        for triangle in marks.triangles:
            path = canvas.beginPath()
            path.moveTo(*at(triangle[0]))
            for point in triangle[1:]:
                path.lineTo(*at(point))
            path.close()
            canvas.drawPath(path, stroke=1, fill=1)
        font = self.fonts.regular.name
        for label in marks.labels:
            self.glyphs.check(label.text, False, f"{component.where}: tile label")
            size = label.size * MM / EM_ASCENT
            text_w = canvas.stringWidth(label.text, font, size)
            pad = LABEL_PAD * label.size * MM
            canvas.saveState()
            canvas.translate(*at((label.x, label.y)))
            canvas.rotate(label.angle)
            canvas.setFillColor(PAPER_COLOR)
            canvas.roundRect(-text_w / 2 - pad, -label.size * MM / 2 - pad, text_w + 2 * pad,
                             label.size * MM + 2 * pad, pad, stroke=0, fill=1)
            canvas.setFillColor(MARK_COLOR)
            canvas.setFont(font, size)
            # Centre on the em box, as dice labels do.
            canvas.drawCentredString(0, -size * (EM_ASCENT - 0.5), label.text)
            canvas.restoreState()
        canvas.restoreState()

    def _face_key(self, component: Component, card: Card, side: str) -> str:
        """The card id, or ``_all`` when every card of the component shows the same face.

        A deck's shared back is then one form, not one per card (104 of them for a deck).
        """
        layout_ids = [component.front, component.inner] if side == "front" else [component.back]
        layouts = [self.game.layouts[lid] for lid in layout_ids if lid]
        # A face's geometry follows from the component's shape and the card's size alone.
        sizes = {other.size for other in component.cards}
        shared = (
            len(component.cards) > 1
            and not component.shape.endswith("_net")
            and len(sizes) == 1
            and not any(layout.uses_fields for layout in layouts)
        )
        return "_all" if shared else card.id


def _define_faces(forms: FaceForms) -> None:
    for component in forms.game.components:
        for card in component.cards:
            for side in ("front", "back") if component.back else ("front",):
                forms.face(component, card, side)


def _place(canvas: Canvas, spec: SheetSpec, slot: Slot, name: str, back: bool) -> None:
    box = slot.bleed_box
    x0 = box.x * MM
    y0 = (spec.height - box.bottom) * MM
    canvas.saveState()
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
    canvas.doForm(name)
    canvas.restoreState()


def _marks(canvas: Canvas, plan: SheetPlan, back: bool) -> list[Segment]:
    segments = crop_marks(plan)
    if back:
        segments = mirror_segments(plan, segments)
    canvas.saveState()
    canvas.setStrokeColor(MARK_COLOR)
    canvas.setLineWidth(0.25)
    height = plan.spec.height
    for s in segments:
        canvas.line(s.x1 * MM, (height - s.y1) * MM, s.x2 * MM, (height - s.y2) * MM)
    canvas.restoreState()
    return segments


def _furniture(canvas: Canvas, plan: SheetPlan, total: int, game: Game, lang: str,
               fonts: FontFamily, convert: Callable[[str], str], glyphs: GlyphCheck,
               back: bool, segments: list[Segment]) -> None:
    """The margin label (left, read bottom to top) and the 50 mm scale ruler."""
    spec = plan.spec
    sep = ui(lang, "sep")
    names = ui(lang, "list_sep").join(convert(game.component(c).name.value) for c in plan.components)
    parts = [convert(game.info.name.value), ui(lang, "sheet", number=plan.number, total=total),
             ui(lang, "back" if back else "front"), names,
             ui(lang, "version", version=game.info.version, date=game.info.date)]
    if back and not plan.back_slots():
        parts.append(ui(lang, "no_backs"))
    label = f" {sep} ".join(parts)
    glyphs.check(label, False, f"{game.info.where}: sheet label")
    length = (spec.height - 2 * spec.margin_y) * MM
    fit = fit_text([Run(label)], length, 8, 6.5, 4.0,
                   lambda t, b, s: canvas.stringWidth(t, fonts.regular.name, s))
    size = fit.size if fit else 4.0
    canvas.saveState()
    canvas.setFillColor(LABEL_COLOR)
    canvas.setFont(fonts.regular.name, size)
    canvas.translate(5.5 * MM, spec.margin_y * MM)
    canvas.rotate(90)
    canvas.drawString(0, 0, label)
    canvas.restoreState()

    _ruler(canvas, plan, segments, fonts, lang, glyphs)


def _ruler_spot(plan: SheetPlan, segments: list[Segment]) -> tuple[float, float] | None:
    """Left end and height (mm, from the top) of a horizontal ruler in the bottom or top margin,
    in a stretch between crop marks wide enough for the bar and its label; None if none."""
    spec = plan.spec
    need = spec.ruler_length + 14.0
    lowest = max(slot.bleed_box.bottom for slot in plan.slots)
    highest = min(slot.bleed_box.y for slot in plan.slots)
    bands = (
        (lowest, spec.height, lambda s: min(s.y1, s.y2) >= lowest - 1e-6),
        (0.0, highest, lambda s: max(s.y1, s.y2) <= highest + 1e-6),
    )
    for top, bottom, in_band in bands:
        xs = sorted(x for s in segments if in_band(s) for x in (s.x1, s.x2))
        edges = [spec.margin_x, *xs, spec.width - spec.margin_x]
        clearance = 1.5
        for left, right in zip(edges, edges[1:], strict=False):
            if right - left - 2 * clearance >= need:
                middle = (top + bottom) / 2
                # Stay clear of the paper edge, which many printers cannot reach.
                y = max(5.5, min(spec.height - 5.5, middle))
                return left + clearance, y
    return None


def _ruler(canvas: Canvas, plan: SheetPlan, segments: list[Segment], fonts: FontFamily, lang: str,
           glyphs: GlyphCheck) -> None:
    """A 50 mm bar with 5 mm ticks to check the print scale, never across a crop mark."""
    spec = plan.spec
    label = ui(lang, "ruler")
    glyphs.check(label, False, "pnp/strings.py: ruler")
    spot = _ruler_spot(plan, segments)
    canvas.saveState()
    canvas.setStrokeColor(MARK_COLOR)
    canvas.setFillColor(LABEL_COLOR)
    canvas.setLineWidth(0.4)
    canvas.setFont(fonts.regular.name, 5)
    length = spec.ruler_length * MM
    if spot is not None:
        x0, y_mm = spot
        canvas.translate(x0 * MM, (spec.height - y_mm) * MM)
    else:
        # No room below or above: run up the right margin, beside the crop marks.
        canvas.translate((spec.width - 4.5) * MM, spec.margin_y * MM)
        canvas.rotate(90)
    canvas.line(0, 0, length, 0)
    for tick in range(0, int(spec.ruler_length) + 1, 5):
        half = 1.0 if tick % 10 == 0 else 0.5
        canvas.line(tick * MM, -half * MM, tick * MM, half * MM)
    canvas.drawString(length + 1.5 * MM, -0.6 * MM, label)
    canvas.restoreState()


def render_components(game: Game, lang: str, spec: SheetSpec, fonts: FontFamily,
                      convert: Callable[[str], str], glyphs: GlyphCheck,
                      back_offset: tuple[float, float] = (0.0, 0.0)) -> ComponentsPdf:
    """All components on imposed sheets: each front sheet followed by its back sheet.

    ``back_offset`` (mm, right and down) moves everything on a back sheet, to undo the shift
    a duplex printer gives the back side (measured with ``pnp calibrate``).
    """
    plans = impose(pieces_for(game, spec), spec)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(spec.width * MM, spec.height * MM), invariant=1,
                    initialFontName=fonts.regular.name, lang=lang, pageCompression=1)
    title = f"{convert(game.info.name.value)} {game.info.version}"
    canvas.setTitle(title)
    canvas.setAuthor("pnp")
    canvas.setSubject(title)
    canvas.setCreator(f"pnp {game.slug}")
    forms = FaceForms(canvas, game, fonts, convert, glyphs)
    _define_faces(forms)
    log: list[str] = []
    for plan in plans:
        for back in (False, True):
            slots = plan.back_slots() if back else plan.slots
            side = "back" if back else "front"
            if back and back_offset != (0.0, 0.0):
                canvas.translate(back_offset[0] * MM, -back_offset[1] * MM)
            for slot in slots:
                component = game.component(slot.piece.component)
                card = game.card(component.id, slot.piece.card)
                tile = slot.piece.tile
                name = forms.face(component, card, side) if tile is None \
                    else forms.tile_face(component, card, side, tile)
                _place(canvas, spec, slot, name, back)
                box = slot.bleed_box
                log.append(f"sheet {plan.number} {side}: {name} #{slot.piece.copy} at "
                           f"({box.x:.2f}, {box.y:.2f}) {box.width:.2f}x{box.height:.2f} mm"
                           f"{' turned' if slot.rotated else ''}")
            segments = _marks(canvas, plan, back)
            _furniture(canvas, plan, len(plans), game, lang, fonts, convert, glyphs, back, segments)
            canvas.showPage()
    canvas.save()
    return ComponentsPdf(buffer.getvalue(), len(plans), tuple(log))
