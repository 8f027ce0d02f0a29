"""Sheet furniture: what a components sheet prints besides the pieces. Crop marks, the sheet
label along the foot, and the rulers placed wherever the sheet has room for them, all inside
the hardware margin (a stroke's half width included)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp.core.records import record
from pnp.core.units import MM
from pnp.data.model import Game
from pnp.layout.marks import back_marks, crop_marks
from pnp.layout.presets import SheetSpec
from pnp.layout.sheetplan import Rect, Segment, SheetPlan, Slot
from pnp.render.face_text import EM_ASCENT
from pnp.text.fitcache import fit_text
from pnp.text.fonts import FontFamily, measure_for
from pnp.text.linetypes import Run
from pnp.text.strings import ui

MARK_COLOR = HexColor("#000000")
MARK_WIDTH, HALO_WIDTH = 0.25, 1.2  # points: a crop mark, and the white under one on a bleed
LABEL_COLOR = HexColor("#555555")
PAPER_COLOR = HexColor("#ffffff")


def draw_marks(canvas: Canvas, plan: SheetPlan, back: bool) -> list[Segment]:
    segments = back_marks(plan) if back else crop_marks(plan)
    canvas.saveState()
    height = plan.spec.height
    # A mark on a dark bleed gets a white halo first.
    for width, color, which in ((HALO_WIDTH, PAPER_COLOR, True), (MARK_WIDTH, MARK_COLOR, None)):
        canvas.setStrokeColor(color)
        canvas.setLineWidth(width)
        for s in segments:
            if which is None or s.on_bleed:
                canvas.line(s.x1 * MM, (height - s.y1) * MM, s.x2 * MM, (height - s.y2) * MM)
    canvas.restoreState()
    return segments


@record
class Furniture:
    """What every sheet prints the same way, laid out once per build: the sheet label's font
    size (fitted to the longest label) and the ruler's caption with its width."""

    label_size: float
    ruler_label: str
    ruler_width: float  # mm


LABEL_MAX, LABEL_MIN = 7.0, 4.0  # pt: the largest fits the label band (2.5 mm)
RULER_STROKE = 0.4  # pt


RULER_CLEAR = 2.0  # mm between a ruler (its caption included) and a piece's bleed or a crop mark
LABEL_CLEAR = 0.8  # mm between a ruler and the sheet label's band (and any obstacle's grown edge)


Located = tuple[str, str]  # a piece of text and where it was written


def label_parts(plan: SheetPlan, total: int, game: Game, lang: str,
                convert: Callable[[str], str], back: bool) -> list[list[Located]]:
    """The sheet label: the game, the sheet, the side, the components, the version, each part
    made of pieces that keep where they were written, so that a glyph the font lacks is
    reported there (a component's name in components.yaml, not game.yaml)."""
    strings = "pnp/text/strings.py: sheet label"
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


def label_text(parts: list[list[Located]], lang: str) -> str:
    return f" {ui(lang, 'sep')} ".join("".join(text for text, _ in part) for part in parts)


def lay_out_furniture(spec: SheetSpec, labels: list[str], fonts: FontFamily, ruler_label: str
                      ) -> Furniture:
    """One fit for the whole build: the longest label decides the size all of them use. The
    family's shared measure keeps glyph widths cached from one build to the next."""
    measure = measure_for(fonts)
    length = (spec.width - 2 * spec.hardware) * MM
    band = min(LABEL_MAX, spec.label_band * MM)
    longest = max(labels, key=lambda t: measure(t, False, 10))
    fit = fit_text([Run(longest)], length, band, band, LABEL_MIN, measure)
    return Furniture(fit.size if fit else LABEL_MIN, ruler_label,
                     measure(ruler_label, False, RULER_TEXT) / MM)


def draw_label(canvas: Canvas, spec: SheetSpec, label: str, furniture: Furniture,
               fonts: FontFamily, back: bool) -> None:
    """Along the foot of the sheet, its glyphs' em boxes standing on the hardware margin:
    from the left margin on a front, to the right margin on a back (mirrored, as the pieces
    are)."""
    size = furniture.label_size
    descent = (1 - EM_ASCENT) * size / MM  # mm below the baseline
    canvas.saveState()
    canvas.setFillColor(LABEL_COLOR)
    canvas.setFont(fonts.regular.name, size)
    baseline = (spec.hardware + descent) * MM
    if back:
        canvas.drawRightString((spec.width - spec.hardware) * MM, baseline, label)
    else:
        canvas.drawString(spec.hardware * MM, baseline, label)
    canvas.restoreState()


def _grown(rect: Rect, by: float) -> Rect:
    return Rect(rect.x - by, rect.y - by, rect.width + 2 * by, rect.height + 2 * by)


def sheet_obstacles(spec: SheetSpec, slots: tuple[Slot, ...], segments: list[Segment],
                    cut: float | None = None) -> list[Rect]:
    """What furniture must keep clear of: pieces, crop marks and a form's cut line across the
    sheet (at ``cut`` mm from the top), grown so that a ruler keeps RULER_CLEAR from them
    (room for a trimmer's blade), and the label band."""
    grow = RULER_CLEAR - LABEL_CLEAR
    rects = [_grown(slot.visible, grow) for slot in slots]
    rects += [_grown(Rect(min(s.x1, s.x2), min(s.y1, s.y2), abs(s.x2 - s.x1), abs(s.y2 - s.y1)), grow)
              for s in segments]
    if cut is not None:
        rects.append(_grown(Rect(0.0, cut, spec.width, 0.0), grow))
    rects.append(Rect(0.0, spec.height - spec.hardware - spec.label_band, spec.width, spec.label_band))
    return rects


@lru_cache(maxsize=512)
def _free_spot(spec: SheetSpec, obstacles: tuple[Rect, ...], width: float, height: float,
               horizontal: bool) -> tuple[float, float] | None:
    """Top-left of a width × height box inside the printable area that touches nothing:
    for a horizontal ruler the lowest such place, for a vertical one the rightmost. Kept for
    the sheets asked last: the same sheets are laid out again in the other script and in each
    round of pnp serve or --watch."""
    clear = LABEL_CLEAR
    # The bar's stroke reaches half its width past the box of its ticks.
    edge = spec.hardware + RULER_STROKE / 2 / MM
    lo_x, lo_y = edge, edge
    hi_x, hi_y = spec.width - edge - width, spec.height - edge - height
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
    size_a = height if horizontal else width
    size_b = width if horizontal else height
    eps = 1e-6  # Rect.overlaps's
    # Each obstacle as (start, end) along the outer axis (a) and along the cross axis (b).
    spans = [((o.y, o.bottom), (o.x, o.right)) if horizontal else ((o.x, o.right), (o.y, o.bottom))
             for o in obstacles]
    bs = sorted({round(v, 3) for v in inner if cross[0] - 1e-6 <= v <= cross[1] + 1e-6})
    for a in sorted({round(v, 3) for v in outer if bounds[0] - 1e-6 <= v <= bounds[1] + 1e-6},
                    reverse=True):
        # The box grown by `clear` on every side, as Rect(b - clear, a - clear, ...).overlaps
        # would test it, split by axis: the obstacles that overlap it along a, as intervals
        # along b, tested against each candidate b in turn (most sheets have ~50 obstacles).
        lo_a = a - clear
        hi_a = lo_a + (size_a + 2 * clear)
        blocking = [(c0, c1) for (o0, o1), (c0, c1) in spans
                    if o0 < a + size_a + clear and o1 > a - clear  # what `near` kept
                    and lo_a < o1 - eps and o0 < hi_a - eps]
        span_b = size_b + 2 * clear
        for b in bs:
            lo_b = b - clear
            hi_b = lo_b + span_b
            if not any(lo_b < c1 - eps and c0 < hi_b - eps for c0, c1 in blocking):
                return (b, a) if horizontal else (a, b)
    return None


RULER_TEXT = 5.0  # pt
TICK_MAJOR, TICK_MINOR = 1.5, 0.8  # mm: ticks every 10 mm and every 5 mm, on one side of the bar
CAPTION_GAP = 0.4  # mm between the bar and its caption


def draw_rulers(canvas: Canvas, spec: SheetSpec, obstacles: list[Rect], fonts: FontFamily,
                furniture: Furniture) -> int:
    """A horizontal 50 mm bar with its caption under it, and a vertical bar, each ticked every
    5 mm, wherever the sheet has printable room RULER_CLEAR from pieces, marks and the label:
    the horizontal one as low as it fits (the foot margin, where a sheet has one), the vertical
    one as far right. Returns how many were drawn."""
    length = spec.ruler_length
    label, text_w = furniture.ruler_label, furniture.ruler_width
    text_h = RULER_TEXT / MM
    drawn = 0
    canvas.saveState()
    canvas.setStrokeColor(MARK_COLOR)
    canvas.setFillColor(LABEL_COLOR)
    canvas.setLineWidth(RULER_STROKE)
    canvas.setFont(fonts.regular.name, RULER_TEXT)
    width, height = max(length, text_w), TICK_MAJOR + CAPTION_GAP + text_h
    spot = _free_spot(spec, tuple(obstacles), width, height, True)
    if spot is not None:
        x, y = spot
        _bar(canvas, spec, x, y + TICK_MAJOR, vertical=False)
        top = y + TICK_MAJOR + CAPTION_GAP  # the caption's em box
        canvas.drawString(x * MM, (spec.height - top - EM_ASCENT * text_h) * MM, label)
        obstacles = [*obstacles, _grown(Rect(x, y, width, height), RULER_CLEAR - LABEL_CLEAR)]
        drawn += 1
    spot = _free_spot(spec, tuple(obstacles), TICK_MAJOR, length, False)
    if spot is not None:
        _bar(canvas, spec, spot[0], spot[1], vertical=True)
        drawn += 1
    canvas.restoreState()
    return drawn


def _bar(canvas: Canvas, spec: SheetSpec, x: float, y: float, vertical: bool) -> None:
    """A ruler_length bar from (x, y) (mm from the top-left), right or down, ticked every 5 mm
    on one side: above a horizontal bar, right of a vertical one."""
    length = spec.ruler_length
    canvas.saveState()
    canvas.translate(x * MM, (spec.height - y) * MM)
    if vertical:
        canvas.rotate(-90)
    canvas.line(0, 0, length * MM, 0)
    for tick in range(0, int(length) + 1, 5):
        rise = TICK_MAJOR if tick % 10 == 0 else TICK_MINOR
        canvas.line(tick * MM, 0, tick * MM, rise * MM)
    canvas.restoreState()
