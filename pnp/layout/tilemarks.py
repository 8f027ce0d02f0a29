"""What the front of a board's tile carries besides the board: dashed glue lines, alignment
triangles and the tile's coordinate, in the tile's trim millimetres (origin top-left, y
down), as :mod:`pnp.layout.tiles` cuts the board.

Kept apart from the tiling, which plans every face a build places: only a board printed in
more than one tile needs marks, so only such a build imports this module.
"""

from __future__ import annotations

from pnp.core.records import record
from pnp.layout.tiles import Point, Tile

# A label's character advance as a share of its size: digits and '-' are at most 0.56 em in
# the CJK faces, and the size is 0.88 em (the ideographic ascent). A white pad of a fifth of
# the size surrounds the text.
LABEL_ADVANCE = 0.65
LABEL_PAD = 0.2


@record
class Label:
    text: str
    x: float  # centre, tile trim mm
    y: float
    angle: float  # degrees anticlockwise, as on the page: 0 reads along x, 90 up along y
    size: float  # mm, the height of the em box

    @property
    def extent(self) -> tuple[float, float]:
        """Length along its reading direction and across it (mm), white pad included."""
        return (self.size * (LABEL_ADVANCE * len(self.text) + 2 * LABEL_PAD),
                self.size * (1 + 2 * LABEL_PAD))


def _label_size(text: str, size: float, room_along: float, room_across: float) -> float:
    """``size``, or less when the label would not fit the room it has."""
    along = LABEL_ADVANCE * len(text) + 2 * LABEL_PAD
    return max(0.0, min(size, room_along / along, room_across / (1 + 2 * LABEL_PAD)))


@record
class TileMarks:
    """What a tile's front carries besides the board: in tile trim mm (origin top-left)."""

    # Dashed, in the strip against the seam: the neighbour's edge goes on the line's seam side,
    # so the glued board shows none of it.
    glue_lines: tuple[tuple[Point, Point], ...]
    triangles: tuple[tuple[Point, Point, Point], ...]  # tip on the seam, inside the strip
    labels: tuple[Label, ...]


GLUE_LINE_WIDTH = 0.6  # the dashed line's white edge; the line lies just inside the strip
TRIANGLE_DEPTH = 2.5
TRIANGLE_HALF = 1.5
STRIP_LABEL = 4.0
BLEED_LABEL = 2.0


def _along(length: float) -> list[float]:
    """Where the two alignment triangles sit along a seam of this length, kept on the tile."""
    if length < 2 * TRIANGLE_HALF:
        return []
    return sorted({min(max(length * f, TRIANGLE_HALF), length - TRIANGLE_HALF) for f in (0.25, 0.75)})


def tile_marks(tile: Tile, bleed: float = 3.0) -> TileMarks:
    """Glue lines, alignment triangles and the coordinate label of one tile.

    Everything but the label of a strip-less tile lies in the tile's strips, so the glued
    board shows none of it. The last tile (bottom right) has no strip: its label sits in
    the bleed beyond a seam edge, which the cutter takes off.
    """
    w, h, ov = tile.width, tile.height, tile.overlap
    inset = GLUE_LINE_WIDTH / 2
    lines: list[tuple[Point, Point]] = []
    triangles: list[tuple[Point, Point, Point]] = []
    labels: list[Label] = []
    text = tile.label
    if tile.right == "strip":
        seam = w - ov
        lines.append(((seam + inset, 0.0), (seam + inset, h)))
        triangles += [((seam, y), (seam + TRIANGLE_DEPTH, y - TRIANGLE_HALF),
                       (seam + TRIANGLE_DEPTH, y + TRIANGLE_HALF)) for y in _along(h)]
        size = _label_size(text, STRIP_LABEL, h, ov - GLUE_LINE_WIDTH)
        labels.append(Label(text, w - (ov - GLUE_LINE_WIDTH) / 2, h / 2, 90.0, size))
    if tile.bottom == "strip":
        seam = h - ov
        lines.append(((0.0, seam + inset), (w, seam + inset)))
        triangles += [((x, seam), (x - TRIANGLE_HALF, seam + TRIANGLE_DEPTH),
                       (x + TRIANGLE_HALF, seam + TRIANGLE_DEPTH)) for x in _along(w)]
        size = _label_size(text, STRIP_LABEL, w, ov - GLUE_LINE_WIDTH)
        labels.append(Label(text, w / 2, h - (ov - GLUE_LINE_WIDTH) / 2, 0.0, size))
    if not labels and bleed > 0:
        if tile.top == "seam":
            size = _label_size(text, BLEED_LABEL, w, bleed)
            labels.append(Label(text, w / 2, -bleed / 2, 0.0, size))
        elif tile.left == "seam":
            size = _label_size(text, BLEED_LABEL, h, bleed)
            labels.append(Label(text, -bleed / 2, h / 2, 90.0, size))
    return TileMarks(tuple(lines), tuple(triangles), tuple(label for label in labels if label.size > 0))
