"""Where a table set-up figure puts everything: pure math in millimetres, to scale.

Each group of pieces (one seat's, or the shared ones) is laid out as rows: pieces side by
side, rows stacked, centred; rows of the same number of pieces line up column by column. The
shared group sits in the middle of an oval table. Seats are spaced evenly along an oval
around it, seat 1 nearest the reader and the others clockwise (as players number their seats
round a table), each group turned so that its last row faces its player. The oval grows
until no seat touches the middle or a neighbour; the table's edge then clears every seat.
Coordinates have the y axis up (as on a PDF page), the origin at the table's centre.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from pnp.core.records import record

GAP = 6.0  # mm between pieces, rows and groups
PILE = 1.2  # mm each copy of a squared-up pile shows beneath the one above it
EDGE = 14.0  # mm of bare table between the outermost piece and the edge
SAMPLES = 720
WIDE = 4 / 3  # points on an oval, for spacing seats by distance along it


@record
class Item:
    """What to place: a stack of ``count`` copies of a w x h face, each ``spread`` further right
    (0: a pile), or, with ``over``, laid centred on the item before it."""

    key: object  # the caller's handle on the piece
    width: float
    height: float
    count: int = 1
    spread: float = 0.0
    over: bool = False

    @property
    def box(self) -> tuple[float, float]:
        if self.spread:
            return self.width + (self.count - 1) * self.spread, self.height
        pile = (self.count - 1) * PILE
        return self.width + pile, self.height + pile


@record
class Placed:
    """One copy of a face: its trim's lower-left corner and size, in its group's frame."""

    key: object
    x: float
    y: float
    width: float
    height: float


@record
class Group:
    placed: tuple[Placed, ...]
    width: float
    height: float  # the group is centred on its frame's origin


@record
class Seat:
    number: int
    group: Group
    x: float
    y: float
    angle: float  # degrees anticlockwise: the group's foot faces out from the table
    normal: tuple[float, float]  # the outward direction at the seat


@record
class TablePlan:
    centre: Group
    seats: tuple[Seat, ...]
    radii: tuple[float, float]  # the table's half width and half height
    bounds: tuple[float, float, float, float]  # left, bottom, right, top of table and seats


def layout_group(rows: Sequence[Sequence[Item]]) -> Group:
    """Rows of items, centred on the origin; the first row on top."""
    def cells(row: Sequence[Item]) -> list[tuple[float, float]]:
        return [item.box for item in row if not item.over]

    columns: dict[int, list[float]] = {}
    for row in rows:
        widths = [w for w, _ in cells(row)]
        best = columns.setdefault(len(widths), [0.0] * len(widths))
        columns[len(widths)] = [max(a, b) for a, b in zip(best, widths, strict=True)]
    heights = [max((h for _, h in cells(row)), default=0.0) for row in rows]
    widths = [sum(columns[len(cells(row))]) + GAP * (len(cells(row)) - 1) for row in rows]
    width = max(widths, default=0.0)
    height = sum(heights) + GAP * max(0, len(rows) - 1)
    placed: list[Placed] = []
    top = height / 2
    for row, row_h, row_w in zip(rows, heights, widths, strict=True):
        slots = columns[len(cells(row))]
        x = -row_w / 2
        column = 0
        last: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
        for item in row:
            if item.over:
                cx, cy = last[0] + last[2] / 2, last[1] + last[3] / 2
                placed.append(Placed(item.key, cx - item.width / 2, cy - item.height / 2,
                                     item.width, item.height))
                continue
            box_w, box_h = item.box
            left = x + (slots[column] - box_w) / 2
            bottom = top - row_h + (row_h - box_h) / 2
            placed.extend(_copies(item, left, bottom))
            last = (left, bottom, box_w, box_h)
            x += slots[column] + GAP
            column += 1
        top -= row_h + GAP
    return Group(tuple(placed), width, height)


def _copies(item: Item, left: float, bottom: float) -> list[Placed]:
    """The copies of a stack, bottom-most first, so the top copy is drawn last."""
    out = []
    for i in range(item.count):
        if item.spread:
            x, y = left + i * item.spread, bottom
        else:  # a pile: each copy above sits a little up and to the right
            x, y = left + i * PILE, bottom + i * PILE
        out.append(Placed(item.key, x, y, item.width, item.height))
    return out


def _corners(cx: float, cy: float, w: float, h: float, angle: float) -> list[tuple[float, float]]:
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [(cx + dx * c - dy * s, cy + dx * s + dy * c)
            for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))]


def _overlap(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    """Whether two convex polygons overlap (separating axis test)."""
    for poly in (a, b):
        for i, (x1, y1) in enumerate(poly):
            x2, y2 = poly[(i + 1) % len(poly)]
            nx, ny = y1 - y2, x2 - x1
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return False
    return True


@lru_cache(maxsize=64)
def _oval(a: float, b: float) -> tuple[tuple[tuple[float, float, float], ...], tuple[float, ...]]:
    """Points (x, y, parameter) of an oval from its bottom, clockwise, and the distance along
    it to each. Kept for the ovals asked last: a book made again (the other script, another
    round of pnp serve or --watch) seats its tables on the same ovals."""
    points, along, total = [], [], 0.0
    previous = None
    for i in range(SAMPLES + 1):
        t = -math.pi / 2 - 2 * math.pi * i / SAMPLES
        point = (a * math.cos(t), b * math.sin(t), t)
        if previous is not None:
            total += math.hypot(point[0] - previous[0], point[1] - previous[1])
        points.append(point)
        along.append(total)
        previous = point
    return tuple(points), tuple(along)


def _seat_spots(a: float, b: float, count: int) -> list[tuple[float, float, float, tuple[float, float]]]:
    """(x, y, angle, outward normal) of ``count`` seats spaced evenly along an oval."""
    points, along = _oval(a, b)
    out = []
    j = 0
    for n in range(count):
        target = along[-1] * n / count
        while along[j] < target:
            j += 1
        x, y, t = points[j]
        nx, ny = math.cos(t) / a, math.sin(t) / b
        length = math.hypot(nx, ny)
        nx, ny = nx / length, ny / length
        out.append((x, y, math.degrees(math.atan2(ny, nx)) + 90, (nx, ny)))
    return out


def plan_table(centre: Group, seat_group: Callable[[int], Group], seats: int) -> TablePlan:
    """Seats round the shared pieces, spaced so nothing touches."""
    groups = [seat_group(n) for n in range(1, seats + 1)]
    deep = max(g.height for g in groups)
    half_w = centre.width / 2 + GAP if centre.placed else 0.0
    half_h = centre.height / 2 + GAP if centre.placed else 0.0
    middle = _corners(0, 0, 2 * half_w, 2 * half_h, 0)
    a, b = half_w + deep / 2, half_h + deep / 2
    if seats > 1:  # seats far enough apart to sit side by side, even round an empty middle
        wide = max(g.width for g in groups) + GAP
        a = max(a, wide * seats / (2 * math.pi))
        b = max(b, wide * seats / (2 * math.pi))
    # A page is wider than the room it leaves a figure: the table is an oval at least 4:3.
    a = max(a, b * WIDE)
    for _ in range(400):
        spots = _seat_spots(a, b, seats)
        boxes = [_corners(x, y, g.width + GAP, g.height, angle)
                 for (x, y, angle, _), g in zip(spots, groups, strict=True)]
        clash = any(_overlap(box, middle) for box in boxes) if centre.placed else False
        clash = clash or any(_overlap(boxes[i], boxes[(i + 1) % seats]) for i in range(seats) if seats > 1)
        if not clash:
            break
        a, b = a * 1.015 + 0.5, b * 1.015 + 0.5
    corners = [p for box in boxes for p in box]
    edge = deep / 2 + EDGE
    while any((x / (a + edge)) ** 2 + (y / (b + edge)) ** 2 > 1 for x, y in corners):
        edge += 2
    radii = (a + edge, b + edge)
    placed = tuple(Seat(n, g, x, y, angle, normal)
                   for n, ((x, y, angle, normal), g) in enumerate(zip(spots, groups, strict=True), start=1))
    return TablePlan(centre, placed, radii, (-radii[0], -radii[1], radii[0], radii[1]))
