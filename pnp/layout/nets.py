"""Paper dice nets as pure geometry (mm, top-left origin): faces, glue tabs, cut and fold lines."""

from __future__ import annotations

import math

from pnp.core.records import record

Point = tuple[float, float]


@record
class NetLabel:
    text: str
    x: float
    y: float
    angle: float  # degrees, counter-clockwise on paper; the text's up points away from the centre
    size: float  # mm of em height


@record
class Net:
    width: float
    height: float
    faces: tuple[tuple[Point, ...], ...]
    tabs: tuple[tuple[Point, ...], ...]
    cuts: tuple[tuple[Point, Point], ...]
    folds: tuple[tuple[Point, Point], ...]
    labels: tuple[NetLabel, ...]


def _edge_key(a: Point, b: Point) -> tuple[Point, Point]:
    ra = (round(a[0], 4), round(a[1], 4))
    rb = (round(b[0], 4), round(b[1], 4))
    return (ra, rb) if ra <= rb else (rb, ra)


def _tab(a: Point, b: Point, inward: Point, depth: float) -> tuple[Point, ...]:
    """A trapezoid glue tab on edge a-b, on the side away from ``inward``."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    length = math.hypot(ex, ey)
    nx, ny = -ey / length, ex / length
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    if (inward[0] - mx) * nx + (inward[1] - my) * ny > 0:
        nx, ny = -nx, -ny
    inset = min(depth, length / 3)
    ux, uy = ex / length, ey / length
    return (a, b,
            (b[0] - ux * inset + nx * depth, b[1] - uy * inset + ny * depth),
            (a[0] + ux * inset + nx * depth, a[1] + uy * inset + ny * depth))


def _finish(faces: list[tuple[Point, ...]], tabs: list[tuple[Point, ...]],
            labels: list[NetLabel]) -> Net:
    points = [p for poly in faces + tabs for p in poly]
    min_x = min(p[0] for p in points)
    min_y = min(p[1] for p in points)

    def move(p: Point) -> Point:
        return (p[0] - min_x, p[1] - min_y)

    faces = [tuple(move(p) for p in f) for f in faces]
    tabs = [tuple(move(p) for p in t) for t in tabs]
    labels = [NetLabel(lb.text, lb.x - min_x, lb.y - min_y, lb.angle, lb.size) for lb in labels]
    uses: dict[tuple[Point, Point], int] = {}
    ends: dict[tuple[Point, Point], tuple[Point, Point]] = {}
    for poly in faces + tabs:
        for i, a in enumerate(poly):
            b = poly[(i + 1) % len(poly)]
            key = _edge_key(a, b)
            uses[key] = uses.get(key, 0) + 1
            ends[key] = (a, b)
    cuts = tuple(ends[k] for k, n in uses.items() if n == 1)
    folds = tuple(ends[k] for k, n in uses.items() if n > 1)
    width = max(p[0] for p in points) - min_x
    height = max(p[1] for p in points) - min_y
    return Net(width, height, tuple(faces), tuple(tabs), cuts, folds, tuple(labels))


def d6_net(face: float, labels: tuple[str, ...]) -> Net:
    """A cross net: a column of four faces with one arm each side of the second.

    Labels go top, front, left, right, back, bottom, so a standard 1–6 list puts opposite
    faces on 1–6, 2–5 and 3–4 (each pair adds up to 7).
    """
    s = face
    cells = {"top": (1, 0), "front": (1, 1), "left": (0, 1), "right": (2, 1),
             "bottom": (1, 2), "back": (1, 3)}
    order = ("top", "front", "left", "right", "back", "bottom")

    def square(c: int, r: int) -> tuple[Point, ...]:
        return ((c * s, r * s), ((c + 1) * s, r * s), ((c + 1) * s, (r + 1) * s), (c * s, (r + 1) * s))

    faces = [square(*cells[name]) for name in order]
    depth = s * 0.28
    tabs = []
    for c, r in ((1, 0), (1, 2), (1, 3)):
        centre = ((c + 0.5) * s, (r + 0.5) * s)
        tabs.append(_tab((c * s, r * s), (c * s, (r + 1) * s), centre, depth))
        tabs.append(_tab(((c + 1) * s, r * s), ((c + 1) * s, (r + 1) * s), centre, depth))
    tabs.append(_tab((s, 4 * s), (2 * s, 4 * s), (1.5 * s, 3.5 * s), depth))
    text = [NetLabel(label, (cells[name][0] + 0.5) * s, (cells[name][1] + 0.5) * s, 0.0, s * 0.55)
            for name, label in zip(order, labels, strict=True)]
    return _finish(faces, tabs, text)


def d4_net(face: float, labels: tuple[str, ...]) -> Net:
    """A triangle of four triangles. The three outer corners fold into one vertex.

    A d4 is read by the number at its top vertex, so every face carries the numbers of its
    three vertices near the corners, each upright when its vertex points up. Labels name the
    vertices: the three mid-edge vertices, then the apex formed by the outer corners.
    """
    a = face
    h = a * math.sqrt(3) / 2
    p0, p1, p2 = (a, 0.0), (0.0, 2 * h), (2 * a, 2 * h)

    def mid(p: Point, q: Point) -> Point:
        return ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)

    m01, m12, m02 = mid(p0, p1), mid(p1, p2), mid(p0, p2)
    vertex = {m01: labels[0], m12: labels[1], m02: labels[2], p0: labels[3], p1: labels[3],
              p2: labels[3]}
    faces: list[tuple[Point, ...]] = [(m01, m12, m02), (p0, m01, m02), (p1, m12, m01), (p2, m02, m12)]
    depth = a * 0.22
    centre = (a, 4 * h / 3)
    tabs = [_tab(p0, m01, centre, depth), _tab(p1, m12, centre, depth), _tab(p2, m02, centre, depth)]
    text = []
    for tri in faces:
        cx = sum(p[0] for p in tri) / 3
        cy = sum(p[1] for p in tri) / 3
        for corner in tri:
            # Up on paper is -y; the label's up points from the face centre to its corner.
            dx, dy = corner[0] - cx, corner[1] - cy
            angle = math.degrees(math.atan2(dx, -dy))
            text.append(NetLabel(vertex[corner], cx + dx * 0.5, cy + dy * 0.5, -angle, a * 0.2))
    return _finish(faces, tabs, text)


def build_net(shape: str, face: float, labels: tuple[str, ...]) -> Net:
    return d6_net(face, labels) if shape == "d6_net" else d4_net(face, labels)
