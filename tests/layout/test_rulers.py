"""The scale rulers on component sheets, read back from the built PDFs: each keeps a trimmer's
blade of room (2 mm) from every piece's bleed and every crop mark, and every sheet that has
room for one carries one."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnp.build.pipeline import build
from pnp.core.workspace import Workspace
from pnp.layout.sheetplan import Rect
from tests.conftest import ROOT
from tests.pdfprobe import matrix_times, moved_text_line

GAMES = ("tisigui", "wurenshenghuan", "niutouwang", "aizhewudi")
MM = 72 / 25.4
RULER_WIDTH, MARK_WIDTH = 0.4, 0.25  # points: the stroke of a ruler and of a crop mark
CAPTION_SIZE = 5.0  # points
CLEAR = 2.0  # mm


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rulers")
    for paper in ("a4", "letter"):
        build(Workspace(ROOT), "all", "zh-Hans", paper, out / paper)
    return out



def _point(m: list[float], x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4]) / MM, (m[1] * x + m[3] * y + m[5]) / MM


def _box(points: list[tuple[float, float]]) -> Rect:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def sheet_items(page) -> tuple[list[Rect], list[Rect], list[Rect], list[tuple[float, float]]]:  # noqa: ANN001
    """In mm, y up: ruler strokes, crop-mark strokes, placed forms (pieces with their bleed),
    and where each 5 pt text object (a ruler's caption, one per font subset) starts."""
    forms = page["/Resources"].get("/XObject", {})
    ctm, stack = [1.0, 0, 0, 1.0, 0, 0], []
    width, line = 1.0, [1.0, 0, 0, 1.0, 0, 0]
    size = 0.0
    clip: Rect | None = None  # what of a form shows: a write-on form's trim, a butted card's cell
    path: list[tuple[float, float]] = []
    rulers, marks, pieces, captions = [], [], [], []
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append((ctm, width, clip))
        elif op == b"Q":
            ctm, width, clip = stack.pop()
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            path = [_point(ctm, x, y), _point(ctm, x + w, y + h)]
        elif op in (b"W", b"W*"):
            clip = _box(path)
        elif op == b"cm":
            ctm = matrix_times([float(v) for v in operands], ctm)
        elif op == b"w":
            width = float(operands[0])
        elif op in (b"m", b"l"):
            path.append(_point(ctm, float(operands[0]), float(operands[1])))
        elif op == b"S":
            if abs(width - RULER_WIDTH) < 1e-3:
                rulers.append(_box(path))
            elif abs(width - MARK_WIDTH) < 1e-3:
                marks.append(_box(path))
            path = []
        elif op == b"n":
            path = []
        elif op == b"Do":
            box = [float(v) for v in forms[operands[0]].get_object()["/BBox"]]
            shown = _box([_point(ctm, x, y) for x in (box[0], box[2]) for y in (box[1], box[3])])
            if clip is not None:
                left, low = max(shown.x, clip.x), max(shown.y, clip.y)
                shown = Rect(left, low, min(shown.right, clip.right) - left, min(shown.bottom, clip.bottom) - low)
            pieces.append(shown)
        elif op == b"Tf":
            size = float(operands[1])
        elif (moved := moved_text_line(op, operands, line)) is not None:
            line = moved
        elif op in (b"Tj", b"TJ") and abs(size - CAPTION_SIZE) < 1e-3:
            captions.append(_point(matrix_times(line, ctm), 0, 0))
    return rulers, marks, pieces, captions


def rulers_on(page) -> tuple[list[Rect], list[Rect]]:  # noqa: ANN001 - a pypdf page
    """The horizontal and the vertical rulers of a sheet, each as the box of its bar, its
    ticks and (a horizontal one's) caption, in mm."""
    strokes, _, _, captions = sheet_items(page)
    horizontal, vertical = [], []
    for bar in strokes:
        if abs(bar.width - 50) < 0.01 and bar.height < 0.01:
            ticks = [s for s in strokes if s.height > 0 and bar.x - 0.01 <= s.x <= bar.right + 0.01
                     and s.y - 0.01 <= bar.y <= s.bottom + 0.01]
            caption = {(x, y) for x, y in captions if abs(x - bar.x) < 0.01 and bar.y - 4 < y < bar.y}
            assert len(ticks) == 11 and len(caption) == 1
            ((x, y),) = caption
            # The caption's em box: 5 pt, its baseline 0.88 em above its foot.
            foot = y - 0.12 * CAPTION_SIZE / MM
            horizontal.append(_box([(bar.x, foot), *((t.right, t.bottom) for t in ticks)]))
        elif abs(bar.height - 50) < 0.01 and bar.width < 0.01:
            ticks = [s for s in strokes if s.width > 0 and bar.y - 0.01 <= s.y <= bar.bottom + 0.01
                     and s.x - 0.01 <= bar.x <= s.right + 0.01]
            assert len(ticks) == 11
            vertical.append(_box([(bar.x, bar.y), (bar.x, bar.bottom), *((t.x, t.y) for t in ticks),
                                  *((t.right, t.y) for t in ticks)]))
    return horizontal, vertical


def gap(a: Rect, b: Rect) -> float:
    """How far apart two boxes are along the axis that parts them (negative: they overlap)."""
    return max(a.x - b.right, b.x - a.right, a.y - b.bottom, b.y - a.bottom)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_rulers_keep_2_mm_from_every_piece_and_crop_mark(built, game, paper):
    """aizhewudi's A4 ruler sat in a 4 mm gap, its caption 0.5 mm from a bleed and its end
    tick 0.8 mm from a crop mark; wurenshenghuan's caption 0.8 mm above a crop mark."""
    reader = PdfReader(built / paper / game / "zh-Hans" / "components.pdf")
    for number, page in enumerate(reader.pages, start=1):
        horizontal, vertical = rulers_on(page)
        _, marks, pieces, _ = sheet_items(page)
        for ruler in horizontal + vertical:
            for other in marks + pieces:
                assert gap(ruler, other) >= CLEAR - 0.01, (number, ruler, other)


def test_every_sheet_with_room_carries_both_rulers(built):
    """Only a sheet with no 50 mm of room 2 mm clear of everything goes without a horizontal
    ruler (tisigui's A4 shields fill the width); every sheet has a vertical one, a score pad's
    sheet too (niutouwang's A4 sheet 14 had none)."""
    without = {}
    for paper in ("a4", "letter"):
        for game in GAMES:
            reader = PdfReader(built / paper / game / "zh-Hans" / "components.pdf")
            for number, page in enumerate(reader.pages, start=1):
                horizontal, vertical = rulers_on(page)
                assert len(horizontal) <= 1 and len(vertical) <= 1
                for kind, found in (("horizontal", horizontal), ("vertical", vertical)):
                    if not found:
                        without.setdefault((paper, game, kind), []).append(number)
    # tisigui's shields fill the width of the sheet (A4 fronts 3, 5, 7; on Letter, page 5 has
    # its shields over tokens); a write-on form fills the height of its page, and
    # wurenshenghuan's A4 record sheet the whole page.
    assert without == {
        ("a4", "tisigui", "horizontal"): [3, 5, 7],
        ("letter", "tisigui", "horizontal"): [5],
        ("a4", "wurenshenghuan", "horizontal"): [21],
        ("a4", "wurenshenghuan", "vertical"): [21],
        ("letter", "wurenshenghuan", "horizontal"): [25],
        ("a4", "niutouwang", "horizontal"): [27],
        ("letter", "niutouwang", "horizontal"): [37],
    }
