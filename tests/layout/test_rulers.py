"""The scale rulers on component sheets, read back from the built PDFs: each keeps a trimmer's
blade of room (2 mm) from every piece's bleed and every crop mark, every sheet carries one, and
both where it has room."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from pnp.build.pipeline import render_game
from pnp.core.workspace import Workspace
from pnp.data.load import load_game
from pnp.games.registry import tables_from_engine
from pnp.layout.sheetplan import Rect
from tests.conftest import ROOT
from tests.sheetprobe import Rect as ProbeRect
from tests.sheetprobe import sheet_items as probe_items

GAMES = ("tisigui", "wurenshenghuan", "niutouwang", "aizhewudi")
MM = 72 / 25.4
RULER_WIDTH, MARK_WIDTH = 0.4, 0.25  # points: the stroke of a ruler and of a crop mark
CAPTION_SIZE = 5.0  # points
CLEAR = 2.0  # mm


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rulers")
    for paper in ("a4", "letter"):
        for game in GAMES:
            loaded = load_game(ROOT / "card_data" / game, tables_from_engine)
            (artifact,) = render_game(Workspace(ROOT), loaded, "zh-Hans", paper, kinds=("components",))
            target = out / paper / game / "zh-Hans" / "components.pdf"
            target.parent.mkdir(parents=True)
            target.write_bytes(artifact.data)
    return out

def _box(points: list[tuple[float, float]]) -> Rect:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def sheet_items(page) -> tuple[list[Rect], list[Rect], list[Rect], list[tuple[float, float]]]:  # noqa: ANN001
    """In mm, y up: ruler strokes, crop-mark strokes, placed forms (pieces with their bleed,
    as far as they show), and where each 5 pt text object (a ruler's caption, one per font
    subset) starts."""
    items = probe_items(page)

    def rect(r: ProbeRect) -> Rect:
        return Rect(r.x, r.y, r.width, r.height)

    rulers = [rect(s.box) for s in items.strokes if abs(s.width - RULER_WIDTH) < 1e-3]
    marks = [rect(s.box) for s in items.strokes if abs(s.width - MARK_WIDTH) < 1e-3]
    pieces = [rect(f.shown) for f in items.forms]
    captions = [(x, y) for x, y, size in items.texts if abs(size - CAPTION_SIZE) < 1e-3]
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


def test_every_sheet_carries_a_ruler_and_both_where_it_has_room(built):
    """No sheet goes without a ruler: a form to write on leaves a strip at the right of its
    page for the vertical one (niutouwang's A4 sheet 14 once had none). A sheet goes without
    the other only where its pieces leave no 50 mm of room 2 mm clear of everything: nine
    butted poker cards fill the width of A4 (no vertical ruler), eight turned fill the height
    of Letter, as aizhewudi's twelve bills and tisigui's seven cards do, and so does a
    write-on form standing on its page (no horizontal one)."""
    without = {}
    for paper in ("a4", "letter"):
        for game in GAMES:
            reader = PdfReader(built / paper / game / "zh-Hans" / "components.pdf")
            for number, page in enumerate(reader.pages, start=1):
                horizontal, vertical = rulers_on(page)
                assert len(horizontal) <= 1 and len(vertical) <= 1
                assert horizontal or vertical, (paper, game, number)
                for kind, found in (("horizontal", horizontal), ("vertical", vertical)):
                    if not found:
                        without.setdefault((paper, game, kind), []).append(number)

    def pages(*spans: tuple[int, int]) -> list[int]:
        return [n for first, last in spans for n in range(first, last + 1)]

    assert without == {
        ("a4", "wurenshenghuan", "horizontal"): [19],  # the record sheet
        ("a4", "wurenshenghuan", "vertical"): pages((5, 18)),  # sheets of nine
        ("a4", "niutouwang", "horizontal"): [25],  # the score pad
        ("a4", "niutouwang", "vertical"): pages((1, 22)),
        ("a4", "aizhewudi", "horizontal"): pages((19, 24)),  # bills
        ("a4", "aizhewudi", "vertical"): pages((3, 3), (5, 14), (17, 18)),  # tents, nine cards
        ("letter", "tisigui", "horizontal"): pages((1, 2)),
        ("letter", "wurenshenghuan", "horizontal"): pages((5, 18), (21, 21)),  # eight cards, record
        ("letter", "niutouwang", "horizontal"): pages((1, 26)),
        ("letter", "aizhewudi", "horizontal"): pages((5, 18)),
    }
