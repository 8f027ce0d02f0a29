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
from dataclasses import dataclass, field, replace

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp.data.model import Card, Component, Game
from pnp.fonts import FontFamily, measure_for
from pnp.layout.impose import (
    Piece,
    Rect,
    Segment,
    SheetPlan,
    Slot,
    crop_marks,
    impose,
    mirror_segments,
)
from pnp.layout.nets import Net, build_net
from pnp.layout.presets import SheetSpec
from pnp.layout.tent import BaseTab, base_tab
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
                    marks=net is None, butt=component.shape == "rect",
                    group=f"{component.id}/{card.id}" if min(width, height) < TINY else "",
                    outline="round" if component.shape == "round" else "",
                    write_on=is_write_on(game, component),
                ))
    return pieces


TINY = 30.0  # mm: a piece this small butts only with copies of its own face
WRITE_ON_SIZE = 100.0  # mm: a single-sided form at least this big both ways is a sheet


def is_write_on(game: Game, component: Component) -> bool:
    """A record sheet or score pad: a one-sided form (it has a `grid`) the size of a page
    rather than a slip. It prints full page, with no bleed or crop marks."""
    if component.back or component.shape != "rect":
        return False
    if any(min(card.size) < WRITE_ON_SIZE for card in component.cards):
        return False
    layouts = [game.layouts[lid] for lid in (component.front,) if lid]
    return any(element.kind == "grid" for layout in layouts for element in layout.elements)


def face_geometry(component: Component, card: Card) -> tuple[float, float, float, Net | None]:
    """Trim width, height and bleed (mm) of a card's face form, and its net if it is one."""
    width, height = card.size
    if component.shape == "fold":
        height = 2 * height + base_tab(height).depth
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
    ink: str = "full"
    symbols: SymbolForms = field(init=False)
    defined: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.symbols = SymbolForms(self.canvas, self.game.symbols, self.ink)

    def face(self, component: Component, card: Card, side: str) -> str:
        name = face_name(component.id, self._face_key(component, card, side), side)
        if name in self.defined:
            return name
        self.defined.add(name)
        width, height, bleed, net = face_geometry(component, card)
        ctx = FaceContext(component, card.id, card.fields, width, height, bleed, self.fonts,
                          self.convert, self.game.tables, self.glyphs, self.symbols, self.ink)
        layouts = self.game.layouts
        canvas = self.canvas
        canvas.beginForm(name, 0, 0, (width + 2 * bleed) * MM, (height + 2 * bleed) * MM)
        if net is not None:
            draw_net(canvas, ctx, net)
        elif component.shape == "fold" and side == "front":
            tab = base_tab(card.size[1])
            canvas.saveState()
            canvas.translate(0, tab.depth * MM)
            draw_fold(canvas, replace(ctx, height=2 * card.size[1]), layouts[component.front],
                      layouts[component.inner])
            canvas.restoreState()
            _draw_base_tab(canvas, ctx, tab)
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


TAB_FILL = HexColor("#ece8e0")
FOLD_COLOR = HexColor("#9a9080")


def _draw_base_tab(canvas: Canvas, ctx: FaceContext, tab: BaseTab) -> None:
    """The base and glue flap below a tent's outer panel, into the bottom bleed: a plain light
    base, a hatched flap, and dashed lines where they fold."""
    full_w = (ctx.width + 2 * ctx.bleed) * MM
    top = (ctx.bleed + tab.depth) * MM  # the outer panel's foot
    glue_top = (ctx.bleed + tab.glue) * MM
    canvas.saveState()
    canvas.setFillColor(TAB_FILL)
    canvas.rect(0, 0, full_w, top, stroke=0, fill=1)
    clip = canvas.beginPath()
    clip.rect(0, 0, full_w, glue_top)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setStrokeColor(FOLD_COLOR)
    canvas.setLineWidth(0.2 * MM)
    step = 2.5 * MM
    for k in range(int((full_w + glue_top) / step) + 1):
        canvas.line(k * step - glue_top, 0, k * step, glue_top)
    canvas.restoreState()
    canvas.saveState()
    canvas.setStrokeColor(FOLD_COLOR)
    canvas.setLineWidth(0.25 * MM)
    canvas.setDash([2 * MM, 1.5 * MM])
    for y in (top, glue_top):
        canvas.line(0, y, full_w, y)
    canvas.restoreState()


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


CUT_LINE = HexColor("#3a3a3a")


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
    y = (spec.height - plan.cut) * MM
    canvas.saveState()
    canvas.setStrokeColor(CUT_LINE)
    canvas.setLineWidth(0.25 * MM)
    canvas.setDash([2.0 * MM, 1.5 * MM])
    canvas.line((spec.hardware + spec.label_band + 0.5) * MM, y,
                (spec.width - spec.hardware) * MM, y)
    canvas.restoreState()


def _marks(canvas: Canvas, plan: SheetPlan, back: bool) -> list[Segment]:
    segments = crop_marks(plan)
    if back:
        segments = mirror_segments(plan, segments)
    canvas.saveState()
    height = plan.spec.height
    # A mark on a dark bleed gets a white halo first.
    for width, color, which in ((1.2, PAPER_COLOR, True), (0.25, MARK_COLOR, None)):
        canvas.setStrokeColor(color)
        canvas.setLineWidth(width)
        for s in segments:
            if which is None or s.on_bleed:
                canvas.line(s.x1 * MM, (height - s.y1) * MM, s.x2 * MM, (height - s.y2) * MM)
    canvas.restoreState()
    return segments


@dataclass(frozen=True)
class Furniture:
    """What every sheet prints the same way, laid out once per build: the sheet label's font
    size (fitted to the longest label) and the ruler's caption with its width."""

    label_size: float
    ruler_label: str
    ruler_width: float  # mm


LABEL_MAX, LABEL_MIN = 7.0, 4.0  # pt: the largest fits the label band (2.5 mm)


Located = tuple[str, str]  # a piece of text and where it was written


def _label_parts(plan: SheetPlan, total: int, game: Game, lang: str,
                 convert: Callable[[str], str], back: bool) -> list[list[Located]]:
    """The sheet label: the game, the sheet, the side, the components, the version, each part
    made of pieces that keep where they were written, so that a glyph the font lacks is
    reported there (a component's name in components.yaml, not game.yaml)."""
    strings = "pnp/strings.py: sheet label"
    names: list[Located] = []
    for component in (game.component(c) for c in plan.components):
        if names:
            names.append((ui(lang, "list_sep"), strings))
        names.append((convert(component.name.value), component.name.where))
    parts = [[(convert(game.info.name.value), game.info.name.where)],
             [(ui(lang, "sheet", number=plan.number, total=total), strings)],
             [(ui(lang, "back" if back else "front"), strings)],
             names,
             [(ui(lang, "version", version=game.info.version, date=game.info.date),
               f"{game.info.where}: version")]]
    if back and not plan.back_slots():
        parts.append([(ui(lang, "no_backs"), strings)])
    return parts


def _label_text(parts: list[list[Located]], lang: str) -> str:
    return f" {ui(lang, 'sep')} ".join("".join(text for text, _ in part) for part in parts)


def _furniture(spec: SheetSpec, labels: list[str], fonts: FontFamily, ruler_label: str
               ) -> Furniture:
    """One fit for the whole build: the longest label decides the size all of them use. The
    family's shared measure keeps glyph widths cached from one build to the next."""
    measure = measure_for(fonts)
    length = (spec.height - 2 * spec.hardware) * MM
    band = min(LABEL_MAX, spec.label_band * MM)
    longest = max(labels, key=lambda t: measure(t, False, 10))
    fit = fit_text([Run(longest)], length, band, band, LABEL_MIN, measure)
    return Furniture(fit.size if fit else LABEL_MIN, ruler_label,
                     measure(ruler_label, False, RULER_TEXT) / MM)


def _label(canvas: Canvas, spec: SheetSpec, label: str, furniture: Furniture,
           fonts: FontFamily, back: bool) -> None:
    """Up the left edge of a front (the right edge of a back), read bottom to top, its glyphs
    inside the band that starts at the hardware margin."""
    size = furniture.label_size
    ascent = EM_ASCENT * size / MM  # mm
    band_start = spec.width - spec.hardware - spec.label_band if back else spec.hardware
    canvas.saveState()
    canvas.setFillColor(LABEL_COLOR)
    canvas.setFont(fonts.regular.name, size)
    # Turned a quarter anticlockwise, a glyph rises towards the left of its baseline.
    canvas.translate((band_start + ascent) * MM, spec.hardware * MM)
    canvas.rotate(90)
    canvas.drawString(0, 0, label)
    canvas.restoreState()


def _obstacles(spec: SheetSpec, slots: tuple[Slot, ...], segments: list[Segment],
               back: bool) -> list[Rect]:
    """What furniture must keep clear of: pieces, crop marks and the label band."""
    rects = [slot.visible for slot in slots]
    rects += [Rect(min(s.x1, s.x2), min(s.y1, s.y2), abs(s.x2 - s.x1), abs(s.y2 - s.y1))
              for s in segments]
    band_x = spec.width - spec.hardware - spec.label_band if back else spec.hardware
    rects.append(Rect(band_x, 0.0, spec.label_band, spec.height))
    return rects


def _free_spot(spec: SheetSpec, obstacles: list[Rect], width: float, height: float,
               horizontal: bool) -> tuple[float, float] | None:
    """Top-left of a width × height box inside the printable area that touches nothing:
    for a horizontal ruler the lowest such place, for a vertical one the rightmost."""
    clear = 0.8
    lo_x, lo_y = spec.hardware, spec.hardware
    hi_x, hi_y = spec.width - spec.hardware - width, spec.height - spec.hardware - height
    if horizontal:
        outer = [lo_y, hi_y] + [o.bottom + clear for o in obstacles] \
            + [o.y - clear - height for o in obstacles]
        inner = [lo_x] + [o.right + clear for o in obstacles]
        bounds, cross = (lo_y, hi_y), (lo_x, hi_x)
    else:
        outer = [lo_x, hi_x] + [o.right + clear for o in obstacles] \
            + [o.x - clear - width for o in obstacles]
        inner = [lo_y] + [o.bottom + clear for o in obstacles]
        bounds, cross = (lo_x, hi_x), (lo_y, hi_y)
    for a in sorted({round(v, 3) for v in outer if bounds[0] - 1e-6 <= v <= bounds[1] + 1e-6},
                    reverse=True):
        size_a = height if horizontal else width
        near = [o for o in obstacles
                if (o.y if horizontal else o.x) < a + size_a + clear
                and (o.bottom if horizontal else o.right) > a - clear]
        for b in sorted({round(v, 3) for v in inner if cross[0] - 1e-6 <= v <= cross[1] + 1e-6}):
            box = Rect(b, a, width, height) if horizontal else Rect(a, b, width, height)
            grown = Rect(box.x - clear, box.y - clear, box.width + 2 * clear,
                         box.height + 2 * clear)
            if not any(grown.overlaps(o) for o in near):
                return box.x, box.y
    return None


RULER_TEXT = 5.0  # pt


def _rulers(canvas: Canvas, spec: SheetSpec, obstacles: list[Rect], fonts: FontFamily,
            furniture: Furniture) -> int:
    """A horizontal 50 mm bar with its caption under it, and a vertical bar, each with 5 mm
    ticks, wherever the sheet has printable room clear of pieces and marks. Returns how many
    were drawn."""
    length = spec.ruler_length
    label, text_w = furniture.ruler_label, furniture.ruler_width
    text_h = RULER_TEXT / MM
    drawn = 0
    canvas.saveState()
    canvas.setStrokeColor(MARK_COLOR)
    canvas.setFillColor(LABEL_COLOR)
    canvas.setLineWidth(0.4)
    canvas.setFont(fonts.regular.name, RULER_TEXT)
    spot = _free_spot(spec, obstacles, max(length, text_w), 2.0 + 0.6 + text_h, True)
    if spot is not None:
        x, y = spot
        _bar(canvas, spec, x, y + 1.0, vertical=False)
        canvas.drawString(x * MM, (spec.height - y - 2.6 - EM_ASCENT * text_h) * MM, label)
        obstacles = [*obstacles, Rect(x, y, max(length, text_w), 2.6 + text_h)]
        drawn += 1
    spot = _free_spot(spec, obstacles, 2.0, length, False)
    if spot is not None:
        _bar(canvas, spec, spot[0] + 1.0, spot[1], vertical=True)
        drawn += 1
    canvas.restoreState()
    return drawn


def _bar(canvas: Canvas, spec: SheetSpec, x: float, y: float, vertical: bool) -> None:
    """A ruler_length bar from (x, y) (mm from the top-left), right or down, ticked every 5 mm."""
    length = spec.ruler_length
    canvas.saveState()
    canvas.translate(x * MM, (spec.height - y) * MM)
    if vertical:
        canvas.rotate(-90)
    canvas.line(0, 0, length * MM, 0)
    for tick in range(0, int(length) + 1, 5):
        half = 1.0 if tick % 10 == 0 else 0.5
        canvas.line(tick * MM, -half * MM, tick * MM, half * MM)
    canvas.restoreState()


def render_components(game: Game, lang: str, spec: SheetSpec, fonts: FontFamily,
                      convert: Callable[[str], str], glyphs: GlyphCheck,
                      back_offset: tuple[float, float] = (0.0, 0.0),
                      ink: str = "full") -> ComponentsPdf:
    """All components on imposed sheets: each front sheet followed by its back sheet.

    ``back_offset`` (mm, right and down) moves everything on a back sheet, to undo the shift
    a duplex printer gives the back side (measured with ``pnp calibrate``). ``ink``
    (pnp.render.ink.INKS) says how faces spend ink.
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
    forms = FaceForms(canvas, game, fonts, convert, glyphs, ink)
    _define_faces(forms)
    log: list[str] = []
    labels = {}
    pieces: dict[Located, None] = {(ui(lang, "sep"), "pnp/strings.py: sheet label"): None}
    for plan in plans:
        for back in (False, True):
            parts = _label_parts(plan, len(plans), game, lang, convert, back)
            pieces.update(dict.fromkeys(piece for part in parts for piece in part))
            labels[(plan.number, back)] = _label_text(parts, lang)
    for text, where in pieces:
        glyphs.check(text, False, where)
    ruler_label = ui(lang, "ruler")
    glyphs.check(ruler_label, False, "pnp/strings.py: ruler")
    furniture = _furniture(spec, list(labels.values()), fonts, ruler_label)
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
            if plan.cut is not None and not back:
                _form_cut(canvas, plan)
                log.append(f"sheet {plan.number} {side}: cut line at y {plan.cut:.2f} mm")
            _label(canvas, spec, labels[(plan.number, back)], furniture, fonts, back)
            if not any(slot.piece.write_on for slot in plan.slots):
                rulers = _rulers(canvas, spec, _obstacles(spec, slots, segments, back), fonts,
                                 furniture)
                log.append(f"sheet {plan.number} {side}: {rulers} rulers")
            canvas.showPage()
    canvas.save()
    return ComponentsPdf(buffer.getvalue(), len(plans), tuple(log))
