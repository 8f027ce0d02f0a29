"""A printable tuck box for every deck, sized to its cards and their count.

The net, left to right: front, side, back, side, glue strip; above the back a lid with its
tuck flap, dust flaps above and below the sides, a floor below the front and a glue flap below
the back that the floor closes over. Solid lines are cut, dashed lines are folded, grey areas
take glue. The back panel shows the deck's own back face (drawn by the sheets' face forms);
the front names the game and the deck.

Sizes allow for a sleeved deck: each card is taken as 0.3 mm thick plus 0.08 mm of sleeve,
3 mm wider and taller in its sleeve, with 1 mm of ease all round.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp.core.errors import BuildError
from pnp.core.records import record
from pnp.core.units import MM
from pnp.data.model import Component, Game
from pnp.layout.presets import sheet_spec
from pnp.render.glyphs import GlyphCheck
from pnp.render.sheets import FaceForms, face_geometry
from pnp.text.fonts import FontFamily

CARD_THICKNESS = 0.3  # mm, a common 300 gsm card
SLEEVE_THICKNESS = 0.08  # mm per card: both walls of a penny sleeve
SLEEVE_ROOM = 3.0  # mm a sleeve adds to a card's width and height
EASE = 1.0  # mm of play so the deck slides out
TUCK = 12.0  # mm, the lid's tuck flap
GLUE = 8.0  # mm, the side glue strip
NOTCH = 9.0  # mm, radius of the thumb notch on the front
MARGIN = 8.0  # mm kept clear at the paper edge
MIN_DECK = 6  # fewer copies than this is not a deck worth a box
MAX_CARD = (100.0, 130.0)  # larger pieces are boards and mats, not decks

CUT = HexColor("#000000")
FOLD = HexColor("#555555")
GLUE_FILL = HexColor("#d9d9d9")
PANEL = HexColor("#f7f4ee")
INK = HexColor("#222222")

GLUE_WORD = {"zh-Hant": "黏貼", "zh-Hans": "粘贴"}
COUNT_WORD = {"zh-Hant": "{count} 張", "zh-Hans": "{count} 张"}


@record
class BoxSize:
    width: float  # inner, mm
    height: float
    depth: float

    @property
    def net(self) -> tuple[float, float]:
        """Width and height of the flat net, mm."""
        return 2 * self.width + 2 * self.depth + GLUE, TUCK + 2 * self.depth + self.height


def box_size(component: Component) -> BoxSize:
    width = max(card.size[0] for card in component.cards)
    height = max(card.size[1] for card in component.cards)
    depth = component.count * (CARD_THICKNESS + SLEEVE_THICKNESS) + EASE
    return BoxSize(width + SLEEVE_ROOM + EASE, height + SLEEVE_ROOM + EASE, round(depth, 1))


def boxed_decks(game: Game) -> list[Component]:
    return [c for c in game.components
            if c.shape == "rect" and c.count >= MIN_DECK
            and all(card.size[0] <= MAX_CARD[0] and card.size[1] <= MAX_CARD[1] for card in c.cards)]


class _Net:
    """Draws one box net in mm from its top-left corner, y pointing down."""

    def __init__(self, canvas: Canvas, size: BoxSize) -> None:
        self.canvas = canvas
        self.size = size
        w, d = size.width, size.depth
        self.x = (0.0, w, w + d, 2 * w + d, 2 * w + 2 * d, 2 * w + 2 * d + GLUE)
        self.y = (0.0, TUCK, TUCK + d, TUCK + d + size.height, TUCK + 2 * d + size.height)
        self.dust = min(0.8 * d, w / 2)
        self.back_flap = min(0.6 * d, d - 2)

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return x * MM, -y * MM

    def polygon(self, points: list[tuple[float, float]], stroke: bool, fill: bool) -> None:
        path = self.canvas.beginPath()
        path.moveTo(*self.pt(*points[0]))
        for point in points[1:]:
            path.lineTo(*self.pt(*point))
        path.close()
        self.canvas.drawPath(path, stroke=int(stroke), fill=int(fill))

    def glue_areas(self) -> None:
        x, y = self.x, self.y
        self.canvas.setFillColor(GLUE_FILL)
        self.polygon([(x[4], y[2]), (x[5], y[2] + 5), (x[5], y[3] - 5), (x[4], y[3])], False, True)
        self.polygon([(x[3], y[3]), (x[3] - 2, y[3] + self.back_flap), (x[2] + 2, y[3] + self.back_flap),
                      (x[2], y[3])], False, True)

    def outline(self) -> None:
        x, y, dust, flap = self.x, self.y, self.dust, self.back_flap
        canvas = self.canvas
        canvas.setStrokeColor(CUT)
        canvas.setLineWidth(0.5)
        path = canvas.beginPath()
        path.moveTo(*self.pt(x[0], y[2]))
        middle = x[1] / 2
        path.lineTo(*self.pt(middle - NOTCH, y[2]))
        # The thumb notch: a half circle cut down into the front's top edge.
        path.arcTo(*self.pt(middle - NOTCH, y[2] - NOTCH), *self.pt(middle + NOTCH, y[2] + NOTCH),
                   startAng=180, extent=180)
        points = [
            (x[1], y[2]), (x[1] + 1, y[2] - dust), (x[2] - 4, y[2] - dust), (x[2], y[2]),
            (x[2], y[1]), (x[2] + 1, y[1]), (x[2] + 3, y[0]), (x[3] - 3, y[0]), (x[3] - 1, y[1]),
            (x[3], y[1]), (x[3], y[2]),
            (x[3] + 4, y[2] - dust), (x[4] - 1, y[2] - dust), (x[4], y[2]),
            (x[5], y[2] + 5), (x[5], y[3] - 5), (x[4], y[3]),
            (x[4] - 1, y[3] + dust), (x[3] + 4, y[3] + dust), (x[3], y[3]),
            (x[3] - 2, y[3] + flap), (x[2] + 2, y[3] + flap), (x[2], y[3]),
            (x[2] - 4, y[3] + dust), (x[1] + 1, y[3] + dust), (x[1], y[3]),
            (x[1], y[4]), (x[0], y[4]),
        ]
        for point in points:
            path.lineTo(*self.pt(*point))
        path.close()
        canvas.drawPath(path, stroke=1, fill=0)

    def folds(self) -> None:
        x, y = self.x, self.y
        canvas = self.canvas
        canvas.setStrokeColor(FOLD)
        canvas.setLineWidth(0.4)
        canvas.setDash([2 * MM, 1.5 * MM])
        lines = [((xi, y[2]), (xi, y[3])) for xi in x[1:5]]
        lines += [((x[1], y[2]), (x[4], y[2])), ((x[2], y[1]), (x[3], y[1])), ((x[0], y[3]), (x[4], y[3]))]
        for start, end in lines:
            canvas.line(*self.pt(*start), *self.pt(*end))
        canvas.setDash([])


def _fitted_size(canvas: Canvas, text: str, font: str, width_mm: float, largest: float) -> float:
    natural = canvas.stringWidth(text, font, largest)
    return largest if natural <= width_mm * MM else largest * width_mm * MM / natural


def _draw_box(canvas: Canvas, forms: FaceForms, component: Component, size: BoxSize,
              words: tuple[str, str, str, str], fonts: FontFamily) -> None:
    net = _Net(canvas, size)
    x, y = net.x, net.y
    title, deck, count, glue = words
    # Panels: a pale ground, and the deck's own back face on the back panel.
    canvas.setFillColor(PANEL)
    canvas.rect(x[0] * MM, -y[3] * MM, (x[4] - x[0]) * MM, size.height * MM, stroke=0, fill=1)
    card = component.cards[0]
    side = "back" if component.back else "front"
    name = forms.face(component, card, side)
    width, height, bleed, _ = face_geometry(component, card)
    scale = min(size.width / (width + 2 * bleed), size.height / (height + 2 * bleed)) * 1.0
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x[2] * MM, -y[3] * MM, size.width * MM, size.height * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate((x[2] + (size.width - (width + 2 * bleed) * scale) / 2) * MM,
                     -(y[3] - (size.height - (height + 2 * bleed) * scale) / 2) * MM)
    canvas.scale(scale, scale)
    canvas.doForm(name)
    canvas.restoreState()
    net.glue_areas()
    canvas.setFillColor(INK)
    canvas.setFont(fonts.regular.name, 7)
    for gx, gy, angle in ((x[4] + GLUE / 2, (y[2] + y[3]) / 2, 90),
                          ((x[2] + x[3]) / 2, y[3] + net.back_flap / 2, 0)):
        canvas.saveState()
        canvas.translate(gx * MM, -gy * MM)
        canvas.rotate(angle)
        canvas.drawCentredString(0, -2.5, glue)
        canvas.restoreState()
    # The front: game, deck and count; each side: the game's name along the box.
    inner = size.width - 8
    middle = x[1] / 2
    for text, font, largest, at in ((title, fonts.bold.name, 20, 0.40), (deck, fonts.regular.name, 12, 0.55),
                                    (count, fonts.regular.name, 10, 0.65)):
        canvas.setFont(font, _fitted_size(canvas, text, font, inner, largest))
        canvas.drawCentredString(middle * MM, -(y[2] + size.height * at) * MM, text)
    for left in (x[1], x[3]):
        label = f"{title} {deck}"
        font_size = _fitted_size(canvas, label, fonts.bold.name, size.height - 8, min(14, size.depth * 0.5 * 2.8))
        canvas.saveState()
        canvas.translate((left + size.depth / 2) * MM, -(y[2] + size.height / 2) * MM)
        canvas.rotate(-90)
        canvas.setFont(fonts.bold.name, font_size)
        canvas.drawCentredString(0, -font_size * 0.35, label)
        canvas.restoreState()
    net.folds()
    net.outline()


def tuckbox_pdf(game: Game, lang: str, paper: str, fonts: FontFamily,
                convert: Callable[[str], str]) -> bytes:
    """One page per deck, the net centred and turned a quarter when that is what fits."""
    spec = sheet_spec(paper)
    decks = boxed_decks(game)
    if not decks:
        raise BuildError(f"{game.info.where}: {game.slug} has no deck to box (a rect component of at "
                         f"least {MIN_DECK} cards no larger than {MAX_CARD[0]:g}×{MAX_CARD[1]:g} mm)")
    glyphs = GlyphCheck(fonts)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(spec.width * MM, spec.height * MM), invariant=1,
                    initialFontName=fonts.regular.name, pageCompression=1)
    title = convert(game.info.name.value)
    canvas.setTitle(title)
    canvas.setAuthor("pnp")
    canvas.setCreator(f"pnp {game.slug}")
    forms = FaceForms(canvas, game, fonts, convert, glyphs)
    problems = []
    for component in decks:
        size = box_size(component)
        net_w, net_h = size.net
        room_w, room_h = spec.width - 2 * MARGIN, spec.height - 2 * MARGIN
        if net_w <= room_w and net_h <= room_h:
            turned = False
        elif net_h <= room_w and net_w <= room_h:
            turned = True
        else:
            problems.append(f"{component.where}: the tuck box of {component.count} cards "
                            f"({size.width:g}×{size.height:g}×{size.depth:g} mm, net {net_w:.0f}×{net_h:.0f} mm)"
                            f" does not fit on {paper} paper")
            continue
        deck = convert(component.name.value)
        count = COUNT_WORD[lang].format(count=component.count)
        for text, bold in ((title, True), (deck, True), (count, False), (GLUE_WORD[lang], False)):
            glyphs.check(text, bold, f"{component.where}: tuck box")
        canvas.saveState()
        if not turned:
            canvas.translate((spec.width - net_w) / 2 * MM, (spec.height + net_h) / 2 * MM)
        else:
            # A quarter turn clockwise: the net's top-left goes to the top-right of its place.
            canvas.translate((spec.width + net_h) / 2 * MM, (spec.height + net_w) / 2 * MM)
            canvas.rotate(-90)
        _draw_box(canvas, forms, component, size, (title, deck, count, GLUE_WORD[lang]), fonts)
        canvas.restoreState()
        canvas.setFont(fonts.regular.name, 6)
        canvas.setFillColor(FOLD)
        note = f"{title}  {deck}  {size.width:g}×{size.height:g}×{size.depth:g} mm"
        glyphs.check(note, False, f"{component.where}: tuck box")
        canvas.drawString(MARGIN * MM, (MARGIN / 2) * MM, note)
        canvas.showPage()
    if problems:
        raise BuildError(problems)
    if glyphs.problems:
        raise BuildError(glyphs.problems)
    canvas.save()
    return buffer.getvalue()
