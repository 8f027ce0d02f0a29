"""The components PDF: every face drawn once as a form, placed on imposed sheets.

Each face is a PDF form XObject named ``face-<component>-<card>-<side>``; a sheet places
it once per copy. Identical copies cost nothing extra, and the PDF itself says which face
sits where, so tests can count cards from the file instead of trusting the code.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp.data.model import Card, Component, Game
from pnp.fonts import FontFamily
from pnp.layout.impose import Piece, SheetPlan, Slot, crop_marks, impose, mirror_segments
from pnp.layout.nets import Net, build_net
from pnp.layout.presets import SheetSpec
from pnp.render.faces import FaceContext, draw_fold, draw_layout, draw_net
from pnp.render.glyphs import GlyphCheck
from pnp.render.symbols import SymbolForms
from pnp.strings import ui
from pnp.textlayout import Run, fit_text
from pnp.units import MM

MARK_COLOR = HexColor("#000000")
LABEL_COLOR = HexColor("#555555")


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


def pieces_for(game: Game) -> list[Piece]:
    """Every physical copy of every component, in the order of components.yaml."""
    pieces = []
    for component in game.components:
        net = _net_for(component) if component.shape.endswith("_net") else None
        for card in component.cards:
            width, height = card.size
            if component.shape == "fold":
                height *= 2
            if net is not None:
                width, height = net.width, net.height
            for copy in range(card.count):
                pieces.append(Piece(
                    component=component.id, card=card.id, copy=copy, width=width, height=height,
                    bleed=0.0 if net else 3.0, double_sided=component.double_sided,
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
        name = face_name(component.id, card.id, side)
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


def _marks(canvas: Canvas, plan: SheetPlan, back: bool) -> None:
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


def _furniture(canvas: Canvas, plan: SheetPlan, total: int, game: Game, lang: str,
               fonts: FontFamily, convert: Callable[[str], str], glyphs: GlyphCheck,
               back: bool) -> None:
    """The margin label (left, read bottom to top) and the 50 mm scale ruler (right)."""
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

    ruler = ui(lang, "ruler")
    glyphs.check(ruler, False, "pnp/strings.py: ruler")
    x = (spec.width - 5.0) * MM
    bottom = spec.margin_y * MM
    top = bottom + spec.ruler_length * MM
    canvas.saveState()
    canvas.setStrokeColor(MARK_COLOR)
    canvas.setLineWidth(0.4)
    canvas.line(x, bottom, x, top)
    for tick in range(0, int(spec.ruler_length) + 1, 5):
        half = 1.2 if tick % 10 == 0 else 0.6
        y = bottom + tick * MM
        canvas.line(x - half * MM, y, x + half * MM, y)
    canvas.setFillColor(LABEL_COLOR)
    canvas.setFont(fonts.regular.name, 5)
    canvas.translate(x - 2.2 * MM, bottom)
    canvas.rotate(90)
    canvas.drawString(0, 0, ruler)
    canvas.restoreState()


def render_components(game: Game, lang: str, spec: SheetSpec, fonts: FontFamily,
                      convert: Callable[[str], str], glyphs: GlyphCheck) -> ComponentsPdf:
    """All components on imposed sheets: each front sheet followed by its back sheet."""
    plans = impose(pieces_for(game), spec)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(spec.width * MM, spec.height * MM), invariant=1,
                    initialFontName=fonts.regular.name, lang=lang, pageCompression=1)
    title = f"{convert(game.info.name.value)} {game.info.version}"
    canvas.setTitle(title)
    canvas.setAuthor("pnp")
    canvas.setSubject(title)
    canvas.setCreator(f"pnp {game.slug}")
    _define_faces(FaceForms(canvas, game, fonts, convert, glyphs))
    log: list[str] = []
    for plan in plans:
        for back in (False, True):
            slots = plan.back_slots() if back else plan.slots
            side = "back" if back else "front"
            for slot in slots:
                name = face_name(slot.piece.component, slot.piece.card, side)
                _place(canvas, spec, slot, name, back)
                box = slot.bleed_box
                log.append(f"sheet {plan.number} {side}: {name} #{slot.piece.copy} at "
                           f"({box.x:.2f}, {box.y:.2f}) {box.width:.2f}x{box.height:.2f} mm"
                           f"{' turned' if slot.rotated else ''}")
            _marks(canvas, plan, back)
            _furniture(canvas, plan, len(plans), game, lang, fonts, convert, glyphs, back)
            canvas.showPage()
    canvas.save()
    return ComponentsPdf(buffer.getvalue(), len(plans), tuple(log))
