"""Boards larger than a sheet, printed as tiles glued edge over strip.

The geometry (pnp.layout.tiles) is checked against invariants over every board size up to
the limit; a small fixture game (tests/fixtures/tiling_game: a 300×200 mm board and one
card) is built and its PDF read back with pypdf.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf.generic import ContentStream

from pnp.build.pipeline import build
from pnp.core.choices import MAX_TILED_BOARD
from pnp.core.errors import DataError
from pnp.core.units import MM
from pnp.core.workspace import Workspace
from pnp.data.load import load_game
from pnp.games.registry import tables_from_engine
from pnp.layout.impose import fits_on_sheet, impose
from pnp.layout.marks import crop_marks
from pnp.layout.presets import SHEETS
from pnp.layout.sheetplan import Piece, Rect
from pnp.layout.tilemarks import tile_marks
from pnp.layout.tiles import OVERLAP, Tile, plan_tiles
from pnp.render.sheets import pieces_for
from tests.conftest import edit
from tests.pdfprobe import apply, face_counts, matrix_times, page_sizes

FIXTURES = Path(__file__).parents[1] / "fixtures"
SLUG = "tiling_game"
LANG = "zh-Hant"
A4 = (595.3, 841.9)
LETTER = (612.0, 792.0)
BLEED = 3.0
EPS = 1e-6


# -- geometry ------------------------------------------------------------------------------

def _covers_exactly(tiling) -> None:
    """Tiles form a grid over the whole board; neighbours overlap by exactly the strip."""
    W, H, ov = tiling.board_width, tiling.board_height, tiling.overlap
    grid = {(t.row, t.col): t for t in tiling.tiles}
    assert len(grid) == tiling.cols * tiling.rows == len(tiling.tiles)
    for (r, c), t in grid.items():
        assert (t.width, t.height) == (tiling.tile_width, tiling.tile_height)  # one block
        assert t.x >= -EPS and t.y >= -EPS
        assert t.x + t.width <= W + EPS and t.y + t.height <= H + EPS
        if c == 0:
            assert t.x == 0 and t.left == "outer"
        else:
            left = grid[(r, c - 1)]
            assert left.x + left.width - t.x == pytest.approx(ov)
            assert (left.right, t.left) == ("strip", "seam")
            assert left.y == t.y
        if c == tiling.cols - 1:
            assert t.x + t.width == pytest.approx(W) and t.right == "outer"
        if r == 0:
            assert t.y == 0 and t.top == "outer"
        else:
            up = grid[(r - 1, c)]
            assert up.y + up.height - t.y == pytest.approx(ov)
            assert (up.bottom, t.top) == ("strip", "seam")
            assert up.x == t.x
        if r == tiling.rows - 1:
            assert t.y + t.height == pytest.approx(H) and t.bottom == "outer"
        # A tile's share (without its strip) is at least a strip: two strips never meet.
        if tiling.cols > 1:
            assert t.width - ov >= ov - EPS
        if tiling.rows > 1:
            assert t.height - ov >= ov - EPS


def _in_strip(tile: Tile, x: float, y: float) -> bool:
    w, h, ov = tile.width, tile.height, tile.overlap
    right = tile.right == "strip" and w - ov - EPS <= x <= w + EPS and -EPS <= y <= h + EPS
    bottom = tile.bottom == "strip" and h - ov - EPS <= y <= h + EPS and -EPS <= x <= w + EPS
    return right or bottom


def _marks_hidden_in_strips(tile: Tile) -> None:
    marks = tile_marks(tile, BLEED)
    points = [p for line in marks.glue_lines for p in line] + [p for tri in marks.triangles for p in tri]
    assert all(_in_strip(tile, *p) for p in points), tile
    for label in marks.labels:
        along, across = label.extent
        dx, dy = (along / 2, across / 2) if label.angle == 0 else (across / 2, along / 2)
        corners = [(label.x + sx * dx, label.y + sy * dy) for sx in (-1, 1) for sy in (-1, 1)]
        if tile.right == "strip" or tile.bottom == "strip":
            # The label with its white pad lies inside a strip, clear of the glue line.
            assert all(_in_strip(tile, *corner) for corner in corners), (tile, label)
        else:
            # The last tile has no strip: its label is in the bleed the cutter takes off.
            assert all(-BLEED - EPS <= x <= tile.width + EPS and -BLEED - EPS <= y <= tile.height + EPS
                       and (x <= EPS or y <= EPS) for x, y in corners), (tile, label)
        assert label.text == tile.label
    strips = (tile.right == "strip") + (tile.bottom == "strip")
    assert len(marks.labels) == max(1, strips)


boards = st.tuples(st.floats(5, MAX_TILED_BOARD[0]), st.floats(5, MAX_TILED_BOARD[1]))


@settings(max_examples=150, deadline=None)
@given(boards, st.sampled_from(["a4", "letter"]))
def test_tiles_cover_the_board_and_fit_the_paper(size, paper):
    spec = SHEETS[paper]
    tiling = plan_tiles(*size, spec, BLEED)
    _covers_exactly(tiling)
    assert fits_on_sheet(spec, tiling.tile_width + 2 * BLEED, tiling.tile_height + 2 * BLEED, BLEED)
    # The fewest tiles: no grid with fewer tiles fits the paper.
    n = len(tiling.tiles)
    for cols in range(1, n):
        for rows in range(1, (n - 1) // cols + 1):
            tw = (size[0] + (cols - 1) * OVERLAP) / cols
            th = (size[1] + (rows - 1) * OVERLAP) / rows
            assert not fits_on_sheet(spec, tw + 2 * BLEED, th + 2 * BLEED, BLEED), (cols, rows)
    if tiling.tiled:
        for tile in tiling.tiles:
            _marks_hidden_in_strips(tile)


@settings(max_examples=60, deadline=None)
@given(st.lists(boards, min_size=1, max_size=3), st.sampled_from(["a4", "letter"]))
def test_tiles_impose_with_marks_outside_every_bleed_box(sizes, paper):
    spec = SHEETS[paper]
    pieces = [Piece(f"b{i}", "b", 0, t.width, t.height, BLEED, False, tile=t)
              for i, size in enumerate(sizes) for t in plan_tiles(*size, spec, BLEED).tiles]
    pieces += [Piece("card", "card", i, 63, 88, BLEED, True) for i in range(3)]
    plans = impose(pieces, spec)
    assert sum(len(plan.slots) for plan in plans) == len(pieces)
    for plan in plans:
        for slot in plan.slots:
            box = slot.bleed_box
            assert box.x >= 0 and box.y >= 0 and box.right <= spec.width and box.bottom <= spec.height
        _marks_clear_of_pieces(plan)


def _marks_clear_of_pieces(plan) -> None:
    """A crop mark touches no piece; one drawn on a block's outer bleed (where the paper edge
    leaves no printable room outside it) still stops 0.5 mm short of every trim."""
    for s in crop_marks(plan):
        mark = Rect(min(s.x1, s.x2), min(s.y1, s.y2), abs(s.x2 - s.x1), abs(s.y2 - s.y1))
        for slot in plan.slots:
            trim = slot.trim_box
            assert not mark.overlaps(Rect(trim.x - 0.5, trim.y - 0.5, trim.width + 1, trim.height + 1))
            assert s.on_bleed or not mark.overlaps(slot.bleed_box)


def test_boards_that_fit_a_sheet_are_not_tiled():
    for paper in ("a4", "letter"):
        for size in ((180, 250), (250, 180), (150, 100)):
            assert not plan_tiles(*size, SHEETS[paper]).tiled


def test_a_300_by_200_board_is_two_tiles_with_a_10_mm_strip():
    tiling = plan_tiles(300, 200, SHEETS["a4"])
    assert (tiling.cols, tiling.rows) == (2, 1)
    left, right = tiling.tiles
    assert (left.x, left.width, right.x, right.width) == (0, 155, 145, 155)
    assert (left.left, left.right, right.left, right.right) == ("outer", "strip", "seam", "outer")
    assert (left.key, right.label) == ("r1c1", "1-2")


def test_the_largest_board_tiles_on_both_papers():
    for paper in ("a4", "letter"):
        tiling = plan_tiles(*MAX_TILED_BOARD, SHEETS[paper])
        assert len(tiling.tiles) == 12
        _covers_exactly(tiling)


def test_a_back_shows_the_mirrored_columns():
    tiling = plan_tiles(400, 300, SHEETS["a4"])
    grid = {(t.row, t.col): t for t in tiling.tiles}
    # After a flip about the vertical axis the first column's back is the board back's last.
    assert grid[(0, 0)].back_x(400) == pytest.approx(grid[(0, tiling.cols - 1)].x)
    assert grid[(1, 0)].back_x(400) == pytest.approx(grid[(1, tiling.cols - 1)].x)


# -- size rules ----------------------------------------------------------------------------

def make_workspace(root: Path) -> Path:
    root.mkdir(parents=True)
    shutil.copytree(FIXTURES / SLUG, root / "card_data" / SLUG)
    return root


@pytest.fixture
def game_dir(tmp_path: Path) -> Path:
    return make_workspace(tmp_path / "ws") / "card_data" / SLUG


def problems_of(game_dir: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_game(game_dir, tables_from_engine)
    return caught.value.problems


def test_a_board_beyond_the_limit_is_a_problem_at_its_line(game_dir):
    edit(game_dir / "components.yaml", "size: [300, 200]", "size: [601, 200]")
    (problem,) = problems_of(game_dir)
    assert "components.yaml:5: components[0].size" in problem
    assert "601×200 mm is larger than the largest board 600×600 mm" in problem


def test_only_rect_pieces_tile(game_dir):
    edit(game_dir / "components.yaml", "size: [300, 200]\n", "shape: round\n    size: [300, 200]\n")
    (problem,) = problems_of(game_dir)
    assert "components[0].size" in problem and "largest printable piece 180×250 mm" in problem


def test_a_landscape_board_no_longer_needs_turning_by_hand(game_dir):
    # 250 mm wide was refused before boards could tile; it fits a sheet whole, turned.
    edit(game_dir / "components.yaml", "size: poker", "size: [250, 180]")
    assert load_game(game_dir, tables_from_engine).card("card", "card").size == (250, 180)
    assert not plan_tiles(250, 180, SHEETS["a4"]).tiled


# -- the built PDF -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = make_workspace(tmp_path_factory.mktemp("tiling") / "ws")
    out = {}
    for paper in ("a4", "letter"):
        build(Workspace(root), SLUG, LANG, paper, root / paper, png=paper == "a4")
        out[paper] = root / paper / SLUG / LANG
    return out


def _bbox(matrix: list[float], width: float, height: float) -> Rect:
    """The page rectangle (points, y up) that a form of this size covers under ``cm``."""
    a, b, c, d, e, f = matrix
    xs = [a * x + c * y + e for x, y in ((0, 0), (width, 0), (0, height), (width, height))]
    ys = [b * x + d * y + f for x, y in ((0, 0), (width, 0), (0, height), (width, height))]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def page_objects(page: pypdf.PageObject) -> tuple[dict[str, list[Rect]], list[Rect]]:
    """Form name -> page boxes where it is placed, and every stroked line's bounding box."""
    forms = page["/Resources"].get("/XObject", {})
    placed: dict[str, list[Rect]] = {}
    lines: list[Rect] = []
    ctm = [1.0, 0, 0, 1.0, 0, 0]
    stack: list[list[float]] = []
    path: list[tuple[float, float]] = []
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = matrix_times([float(v) for v in operands], ctm)
        elif op in (b"m", b"l"):
            x, y = (float(v) for v in operands)
            path.append(apply(ctm, x, y))
        elif op == b"S":
            xs, ys = [p[0] for p in path], [p[1] for p in path]
            lines.append(Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
            path = []
        elif op == b"n":
            path = []
        elif op == b"Do":
            name = str(operands[0])
            box = [float(v) for v in forms[name].get_object()["/BBox"]]
            placed.setdefault(name.removeprefix("/FormXob."), []).append(_bbox(ctm, box[2], box[3]))
    return placed, lines


def test_each_tile_is_one_form_placed_once(built):
    # A tile leaves no room for the card on either paper inside the margins: on A4 the 161 x
    # 206 mm tile (bleed included) leaves a 63.5 mm band below it, a card needs 69 mm turned.
    for paper, size, sheets in (("a4", A4, 3), ("letter", LETTER, 3)):
        pdf = built[paper] / "components.pdf"
        counts = face_counts(pdf)
        assert counts == {("face-board-board~r1c1", "front"): 1, ("face-board-board~r1c2", "front"): 1,
                          ("face-card-card", "front"): 1, ("face-card-card", "back"): 1}
        assert page_sizes(pdf) == {size}
        # One tile to a sheet; each front followed by its back.
        assert len(pypdf.PdfReader(pdf).pages) == 2 * sheets


WHOLE_DO = re.compile(rb"1 0 0 1 (\S+) (\S+) cm\s+/FormXob\.face-board-board-(front|back) Do")


def board_offset(reader: pypdf.PdfReader, page: int, tile: str) -> tuple[float, float]:
    """How far (mm) a tile form moves the board's whole face form: minus the tile's corner."""
    form = reader.pages[page]["/Resources"]["/XObject"][f"/FormXob.{tile}"].get_object()
    content = form.get_data()
    assert b" re W" in content  # clipped to the tile before the board is placed
    (match,) = WHOLE_DO.findall(content)
    return round(float(match[0]) / MM, 3), round(float(match[1]) / MM, 3)


def test_a_tile_places_the_whole_board_clipped(built):
    reader = pypdf.PdfReader(built["a4"] / "components.pdf")
    tile = reader.pages[2]["/Resources"]["/XObject"]["/FormXob.face-board-board~r1c2-front"]
    assert [round(float(v) / MM, 3) for v in tile.get_object()["/BBox"]] == [0, 0, 161, 206]
    # The second tile shows the board from 145 mm: its form moves the board 145 mm left.
    assert board_offset(reader, 0, "face-board-board~r1c1-front") == (0, 0)
    assert board_offset(reader, 2, "face-board-board~r1c2-front") == (-145, 0)


def test_no_crop_mark_lies_inside_a_tile(built):
    """From the PDF: every stroked line on a page (crop marks, ruler) against every placed
    form's box less the outer 2.5 mm of its 3 mm bleed (where a crop mark may be drawn when
    the paper edge is too near); and the exact check for the imposer's own plan."""
    inset = 2.5 * MM
    for paper in ("a4", "letter"):
        reader = pypdf.PdfReader(built[paper] / "components.pdf")
        tiles_seen = 0
        for page in reader.pages:
            placed, lines = page_objects(page)
            assert lines, "every sheet has crop marks and a ruler"
            for name, boxes in placed.items():
                for box in boxes:
                    tiles_seen += "~" in name
                    inner = Rect(box.x + inset, box.y + inset, box.width - 2 * inset,
                                 box.height - 2 * inset)
                    for line in lines:
                        assert not line.overlaps(inner, eps=0.01), (name, line, box)
        assert tiles_seen == 2
        game = load_game(FIXTURES / SLUG, tables_from_engine)
        spec = SHEETS[paper]
        plans = impose(pieces_for(game, spec), spec)
        tiles = [slot for plan in plans for slot in plan.slots if slot.piece.tile is not None]
        assert [slot.piece.tile.key for slot in tiles] == ["r1c1", "r1c2"]
        for plan in plans:
            _marks_clear_of_pieces(plan)


def test_png_is_the_whole_board(built):
    from PIL import Image

    names = sorted(p.name for p in (built["a4"] / "png").iterdir())
    assert names == ["board-board-front.png", "card-card-back.png", "card-card-front.png"]
    with Image.open(built["a4"] / "png" / "board-board-front.png") as image:
        # 306×206 mm with its bleed at 300 dpi: 3614.2×2433.1 px, rounded up as PDFium does.
        assert image.size == (3615, 2434)


def test_a_tiled_board_with_a_back_mirrors_its_columns(game_dir, tmp_path):
    edit(game_dir / "components.yaml", "    front: board_front\n", "    front: board_front\n    back: card_back\n")
    build(Workspace(game_dir.parent.parent), SLUG, LANG, "a4", tmp_path)
    pdf = tmp_path / SLUG / LANG / "components.pdf"
    counts = face_counts(pdf)
    assert counts[("face-board-board~r1c1", "back")] == counts[("face-board-board~r1c2", "back")] == 1
    reader = pypdf.PdfReader(pdf)
    front, _ = page_objects(reader.pages[0])
    back, _ = page_objects(reader.pages[1])
    (f,) = front["face-board-board~r1c1-front"]
    (b,) = back["face-board-board~r1c1-back"]
    assert b.x == pytest.approx(SHEETS["a4"].width * MM - f.right, abs=0.01) and b.y == pytest.approx(f.y)
    # The first column's back shows the right-hand part of the board's back, and the other way.
    assert board_offset(reader, 1, "face-board-board~r1c1-back") == (-145, 0)
    assert board_offset(reader, 3, "face-board-board~r1c2-back") == (0, 0)
