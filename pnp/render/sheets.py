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
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp.core import diskcache
from pnp.core.choices import BLEED_MM
from pnp.core.records import record
from pnp.core.units import MM
from pnp.data.model import Card, Component, Game
from pnp.layout.presets import SheetSpec
from pnp.layout.sheetplan import Piece
from pnp.layout.tent import BaseTab, base_tab
from pnp.layout.tiles import Tile, plan_tiles
from pnp.render.face_context import FaceContext
from pnp.render.face_text import EM_ASCENT
from pnp.render.facecache import FaceKeeper, keeper
from pnp.render.faces import draw_layout
from pnp.render.folding import draw_fold, draw_net
from pnp.render.formentries import format_shared_entries
from pnp.render.furniture import (
    MARK_COLOR,
    PAPER_COLOR,
    Located,
    label_parts,
    label_text,
    lay_out_furniture,
)
from pnp.render.glyphs import GlyphCheck
from pnp.render.keptplans import kept_impose
from pnp.render.sheetpage import draw_page, label_covered
from pnp.render.streamcache import deflate_through_entry
from pnp.render.symbols import SymbolForms
from pnp.text.fonts import FontFamily
from pnp.text.strings import ui

if TYPE_CHECKING:
    from pnp.data.sheettemplate import SheetTemplate
    from pnp.layout.nets import Net
    from pnp.render.images import ImageForms
    from pnp.render.inline_icons import IconForms


@record
class ComponentsPdf:
    data: bytes
    sheets: int
    log: tuple[str, ...]  # one line per placed face: a reviewable record of the layout


SHARED = "_all"  # the card part of the name of a face every card of a component shows


def face_name(component: str, card: str, side: str) -> str:
    return f"face-{component}-{card}-{side}"


def _net_for(component: Component) -> Net:
    from pnp.layout.nets import build_net  # only a die's net: most games print none

    face = component.cards[0].size[0]
    return build_net(component.shape, face, tuple(t.value for t in component.faces))


def tile_name(component: str, card: str, tile: Tile, side: str) -> str:
    """``~`` never occurs in an id, so a tile's form cannot clash with another card's."""
    return face_name(component, f"{card}~{tile.key}", side)


def pieces_for(game: Game, spec: SheetSpec | None = None) -> list[Piece]:
    """Every physical copy of every component, in the order of components.yaml.

    Given the paper, a rect piece too large for one sheet becomes its tiles, copy by copy.
    """
    pieces: list[Piece] = []
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
                    marks=net is None, butt=component.shape in BUTTING,
                    group=f"{component.id}/{card.id}" if min(width, height) < TINY else "",
                    outline="round" if component.shape == "round" else "",
                    write_on=is_write_on(game, component),
                ))
    return pieces


TINY = 30.0  # mm: a piece this small butts only with copies of its own face
# Shapes cut along straight trim lines, which may be shared: cards, boards, tent strips. A
# round token needs room round it for the scissors.
BUTTING = ("rect", "fold")
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
    return width, height, 0.0 if net else BLEED_MM, net


class FaceForms:
    """The face forms of one canvas, each drawn once on first use.

    The components PDF defines them all up front; a rulebook figure defines only the faces
    it shows, with this same code, so a miniature is always the real card. A holder, so a
    plain class (docs/architecture.md, "Start-up").
    """

    def __init__(self, canvas: Canvas, game: Game, fonts: FontFamily, convert: Callable[[str], str],
                 glyphs: GlyphCheck, ink: str = "full") -> None:
        self.canvas, self.game, self.fonts, self.convert, self.glyphs = canvas, game, fonts, convert, glyphs
        self.ink = ink
        self.defined: set[str] = set()
        self._shared: dict[tuple[str, str], bool] = {}
        self.symbols = SymbolForms(self.canvas, self.game.symbols, self.ink)
        families = [self.fonts, *(family for _, family in self.fonts.roles)]
        faces = [face for family in families for face in (family.regular, family.bold)]

        def context() -> tuple[Any, ...]:
            """What any face may read besides its component, card and layouts (pnp.render.facecache)."""
            return (self.fonts, [diskcache.file_sha256(face.path) for face in faces], self.convert, self.ink,
                    self.game.tables, self.game.symbols, self.game.icons, self.game.images)

        self.keeper: FaceKeeper | None = keeper(self.canvas, context, [face.name for face in faces],
                                                self.symbols.is_form, self.symbols.defined.add)

    # Made when first asked for: a face is given them only when its game has icons (pictures),
    # so a build of a game with neither never imports their modules.
    @cached_property
    def icons(self) -> IconForms:
        from pnp.render.inline_icons import IconForms

        return IconForms(self.canvas, self.game.icons)

    @cached_property
    def images(self) -> ImageForms:
        from pnp.render.images import ImageForms

        return ImageForms(self.canvas, self.game.images, self.ink)

    def face(self, component: Component, card: Card, side: str) -> str:
        shown = self._face_key(component, card, side)
        name = face_name(component.id, shown, side)
        if name in self.defined:
            return name
        self.defined.add(name)
        width, height, bleed, net = face_geometry(component, card)
        layouts = self.game.layouts
        box = (0.0, 0.0, (width + 2 * bleed) * MM, (height + 2 * bleed) * MM)
        kept = self.keeper
        drawn = (component.front, component.inner) if side == "front" else (component.back,)
        # A face every card shares reads no card's fields: its key must not change with them.
        key = None if kept is None else kept.key(name, component, card.size if shown == SHARED else card,
                                                  [layouts[lid] for lid in drawn if lid], side, box)
        if kept is not None and key is not None and kept.replay(key, name, box):
            return name
        ctx = FaceContext(component, card.id, card.fields, width, height, bleed, self.fonts,
                          self.convert, self.game.tables, self.glyphs, self.symbols, self.ink,
                          self.icons if self.game.icons else None, self.images if self.game.images else None)
        canvas = self.canvas
        problems = len(self.glyphs.problems)
        canvas.beginForm(name, *box)
        if kept is not None and key is not None:
            kept.start()
        if net is not None:
            draw_net(canvas, ctx, net)
        elif component.shape == "fold" and side == "front":
            tab = base_tab(card.size[1])
            canvas.saveState()
            canvas.translate(0, tab.depth * MM)
            # A fold has both panels (checked at load).
            assert component.front is not None and component.inner is not None
            draw_fold(canvas, replace(ctx, height=2 * card.size[1]), layouts[component.front],
                      layouts[component.inner])
            canvas.restoreState()
            _draw_base_tab(canvas, ctx, tab)
        else:
            layout_id = component.front if side == "front" else component.back
            assert layout_id is not None  # backs are drawn only for components that have one
            draw_layout(canvas, ctx, layouts[layout_id], round_shape=component.shape == "round")
        if kept is not None and key is not None:
            kept.finish(key, problems, len(self.glyphs.problems))
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
        from pnp.layout.tilemarks import GLUE_LINE_WIDTH, LABEL_PAD, tile_marks  # boards in tiles only

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
        shared = self._shared.get((component.id, side))
        if shared is None:  # asked for every copy placed: decided once per component and side
            layout_ids = [component.front, component.inner] if side == "front" else [component.back]
            layouts = [self.game.layouts[lid] for lid in layout_ids if lid]
            # A face's geometry follows from the component's shape and the card's size alone.
            sizes = {other.size for other in component.cards}
            shared = self._shared[(component.id, side)] = (
                len(component.cards) > 1
                and not component.shape.endswith("_net")
                and len(sizes) == 1
                and not any(layout.uses_fields for layout in layouts)
            )
        return SHARED if shared else card.id


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


def render_components(game: Game, lang: str, spec: SheetSpec, fonts: FontFamily,
                      convert: Callable[[str], str], glyphs: GlyphCheck,
                      back_offset: tuple[float, float] = (0.0, 0.0),
                      ink: str = "full", template: SheetTemplate | None = None) -> ComponentsPdf:
    """All components on imposed sheets: each front sheet followed by its back sheet.

    ``back_offset`` (mm, right and down) moves everything on a back sheet, to undo the shift
    a duplex printer gives the back side (measured with ``pnp calibrate``). ``ink``
    (pnp.render.ink.INKS) says how faces spend ink. A sheet ``template`` is filled with every
    piece one of its slots takes; the rest are imposed after it, on the template's paper.
    """
    if template is None:
        plans = kept_impose(pieces_for(game, spec), spec)
    else:
        from pnp.layout.template_plan import plan_with_template, template_paper  # only with --sheet

        spec = template_paper(template, spec)
        plans = plan_with_template(pieces_for(game, spec), template, spec)
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
    pieces: dict[Located, None] = {(ui(lang, "sep"), "pnp/text/strings.py: sheet label"): None}
    for plan in plans:
        for back in (False, True):
            parts = label_parts(plan, len(plans), game, lang, convert, back)
            pieces.update(dict.fromkeys(piece for part in parts for piece in part))
            labels[(plan.number, back)] = label_text(parts, lang)
    for text, where in pieces:
        glyphs.check(text, False, where)
    ruler_label = ui(lang, "ruler")
    glyphs.check(ruler_label, False, "pnp/text/strings.py: ruler")
    furniture = lay_out_furniture(spec, list(labels.values()), fonts, ruler_label)
    pages = forms.keeper
    for plan in plans:
        for back in (False, True):
            slots = plan.back_slots() if back else plan.slots
            side = "back" if back else "front"
            names = [forms.face(component, card, side) if slot.piece.tile is None
                     else forms.tile_face(component, card, side, slot.piece.tile)
                     for slot in slots
                     for component in (game.component(slot.piece.component),)
                     for card in (game.card(component.id, slot.piece.card),)]
            label = None if plan.declared and label_covered(plan.spec, slots) else labels[(plan.number, back)]
            key = None if pages is None else pages.page_key(plan, back, back_offset, names, label, furniture)
            kept = None if pages is None or key is None else pages.replay_page(key)
            if kept is not None:
                rulers = kept.tally
            else:
                if pages is not None and key is not None:
                    pages.start()
                rulers = draw_page(canvas, plan, back, slots, names, label, furniture, fonts, back_offset)
                if pages is not None and key is not None:
                    problems = len(glyphs.problems)
                    pages.finish(key, problems, problems, rulers)
            for slot, name in zip(slots, names, strict=True):
                box = slot.bleed_box
                log.append(f"sheet {plan.number} {side}: {name} #{slot.piece.copy} at "
                           f"({box.x:.2f}, {box.y:.2f}) {box.width:.2f}x{box.height:.2f} mm"
                           f"{' turned' if slot.rotated else ''}")
            if plan.cut is not None and not back:
                log.append(f"sheet {plan.number} {side}: cut line at y {plan.cut:.2f} mm")
            log.append(f"sheet {plan.number} {side}: {rulers} rulers")
            canvas.showPage()
    format_shared_entries(canvas)
    deflate_through_entry(canvas)
    canvas.save()
    return ComponentsPdf(buffer.getvalue(), len(plans), tuple(log))

