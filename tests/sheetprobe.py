"""Reading component sheets back from their PDFs: every drawing operation of a page, forms
entered and clips applied (what a printer is asked to put on the paper), and what a sheet's page
places and strokes itself (pieces, crop marks, rulers, cut lines).

Tests assert on what is really in the files, never on the data that produced them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ContentStream

from tests.pdfprobe import IDENTITY, apply, matrix_times, moved_text_line

MM = 72 / 25.4  # points per millimetre

# Path-painting operators: what each one does to the current path.
STROKES = {b"S", b"s", b"B", b"B*", b"b", b"b*"}
FILLS = {b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"}
NO_PAINT = {b"n"}


@dataclass(frozen=True)
class DrawingOp:
    """The box (page points, y up) one drawing operation marks on the page: a stroked or
    filled path, a glyph run, an image, each cut to the clip in force."""

    kind: str  # "stroke", "fill", "text" or "image"
    x0: float
    y0: float
    x1: float
    y1: float
    where: str  # the operator, and the forms it was drawn inside ("Tj in page": the page's own)
    size: float = 0.0  # a glyph run's font size (points)

    def edge_distance(self, width: float, height: float) -> float:
        """How near (points) this comes to the nearest paper edge of a width × height page."""
        return min(self.x0, self.y0, width - self.x1, height - self.y1)


Box = tuple[float, float, float, float]


def _bounds(points: list[tuple[float, float]]) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _cut(box: Box, clip: Box | None) -> Box | None:
    if clip is None:
        return box
    x0, y0 = max(box[0], clip[0]), max(box[1], clip[1])
    x1, y1 = min(box[2], clip[2]), min(box[3], clip[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


@dataclass
class _State:
    ctm: list[float]
    clip: Box | None = None  # the clip's bounding box, page points; None: the whole page
    line_width: float = 1.0
    cap: int = 0
    font: Any = None
    size: float = 0.0
    char_space: float = 0.0
    word_space: float = 0.0
    scale: float = 100.0
    leading: float = 0.0
    rise: float = 0.0

    def copy(self) -> _State:
        return replace(self, ctm=list(self.ctm))


def _stroke_box(state: _State, subpaths: list[list[tuple[str, list[tuple[float, float]]]]]) -> Box | None:
    """The page box a stroke covers: each straight segment with its line width across it
    (and along it too unless the caps are butt), each curve's control points and each
    corner grown by half the width. User-space points are turned to page space first."""
    m = state.ctm
    # Half the line width in page space: the larger of the two axes' scales.
    half = state.line_width / 2 * max(math.hypot(m[0], m[1]), math.hypot(m[2], m[3]))
    boxes: list[Box] = []
    for subpath in subpaths:
        for index, (kind, segment) in enumerate(subpath):
            if kind == "c":
                x0, y0, x1, y1 = _bounds([apply(m, *p) for p in segment])
                boxes.append((x0 - half, y0 - half, x1 + half, y1 + half))
            elif kind == "l":
                (ax, ay), (bx, by) = (apply(m, *p) for p in segment)
                length = math.hypot(bx - ax, by - ay)
                if length == 0:
                    continue
                ux, uy = (bx - ax) / length, (by - ay) / length
                ends = (ax, ay, bx, by)
                if state.cap != 0:
                    ends = (ax - ux * half, ay - uy * half, bx + ux * half, by + uy * half)
                nx, ny = -uy * half, ux * half
                corners = [(ends[0] + nx, ends[1] + ny), (ends[0] - nx, ends[1] - ny),
                           (ends[2] + nx, ends[3] + ny), (ends[2] - nx, ends[3] - ny)]
                boxes.append(_bounds(corners))
            if index > 1 and kind in ("l", "c"):  # a join with the segment before (not the move)
                x, y = apply(m, *segment[0])
                boxes.append((x - half, y - half, x + half, y + half))
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def _widths(font: Any) -> tuple[int, list[float], float]:
    """A simple font's first code, advance widths (thousandths of an em) and default width:
    one byte a glyph, as the subsets reportlab embeds are (a composite font would need its
    CMap; it fails here rather than be measured wrong)."""
    assert "/Widths" in font, f"not a simple font: {font.get('/Subtype')}"
    descriptor = font["/FontDescriptor"].get_object()
    return (int(font.get("/FirstChar", 0)), [float(w) for w in font.get("/Widths", [])],
            float(descriptor.get("/MissingWidth", 0)))


def _raw(string: Any) -> bytes:
    """The codes of a PDF string operand, as written in the stream."""
    original = getattr(string, "original_bytes", None)
    return bytes(original) if original is not None else bytes(string)


def drawing_ops(page: Any) -> list[DrawingOp]:
    """Every drawing operation of a page, forms entered, as the box it marks (clipped)."""
    found: list[DrawingOp] = []
    _walk(page.get_contents(), page["/Resources"].get_object(), page.pdf, _State([1.0, 0, 0, 1.0, 0, 0]),
          "page", found)
    return found


def _walk(contents: Any, resources: Any, pdf: Any, state: _State, where: str, found: list[DrawingOp]) -> None:
    stack: list[_State] = []
    subpaths: list[list[tuple[str, list[tuple[float, float]]]]] = []
    current: tuple[float, float] = (0.0, 0.0)
    start: tuple[float, float] = (0.0, 0.0)
    pending_clip = False
    line = list(IDENTITY)
    line_start = list(IDENTITY)
    fonts_ = resources.get("/Font")
    xobjects = resources.get("/XObject")

    def emit(kind: str, box: Box | None, op: bytes, size: float = 0.0) -> None:
        if box is None:
            return
        shown = _cut(box, state.clip)
        if shown is not None:
            found.append(DrawingOp(kind, *shown, f"{op.decode()} in {where}", size))

    def path_points() -> list[tuple[float, float]]:
        return [apply(state.ctm, *p) for sub in subpaths for _, seg in sub for p in seg]

    def show(codes: bytes, op: bytes) -> None:
        nonlocal line
        first, widths, missing = _widths(state.font)
        h = state.scale / 100
        advance = 0.0
        for code in codes:
            index = code - first
            w = widths[index] if 0 <= index < len(widths) else missing
            advance += (w / 1000 * state.size + state.char_space + (state.word_space if code == 32 else 0)) * h
        # From the face's descent below the baseline to its ascent above it, along the run.
        trm = matrix_times(line, state.ctm)
        descriptor = state.font["/FontDescriptor"].get_object()
        low = state.rise + float(descriptor["/Descent"]) / 1000 * state.size
        high = state.rise + float(descriptor["/Ascent"]) / 1000 * state.size
        corners = [apply(trm, x, y) for x in (0.0, advance) for y in (low, high)]
        emit("text", _bounds(corners), op, state.size)
        line = matrix_times([1.0, 0, 0, 1.0, advance, 0], line)

    for operands, op in ContentStream(contents, pdf).operations:
        if op == b"q":
            stack.append(state.copy())
        elif op == b"Q":
            state = stack.pop()
        elif op == b"cm":
            state.ctm = matrix_times([float(v) for v in operands], state.ctm)
        elif op == b"w":
            state.line_width = float(operands[0])
        elif op == b"J":
            state.cap = int(operands[0])
        elif op == b"m":
            current = start = (float(operands[0]), float(operands[1]))
            subpaths.append([("m", [current])])
        elif op == b"l":
            point = (float(operands[0]), float(operands[1]))
            subpaths[-1].append(("l", [current, point]))
            current = point
        elif op in (b"c", b"v", b"y"):
            values = [float(v) for v in operands]
            points = [(values[i], values[i + 1]) for i in range(0, len(values), 2)]
            subpaths[-1].append(("c", [current, *points]))
            current = points[-1]
        elif op == b"h":
            if subpaths and current != start:
                subpaths[-1].append(("l", [current, start]))
            current = start
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
            subpaths.append([("m", [corners[0]])] + [("l", [corners[i], corners[(i + 1) % 4]])
                                                    for i in range(4)])
            current = start = (x, y)
        elif op in (b"W", b"W*"):
            pending_clip = True
        elif op in STROKES | FILLS | NO_PAINT:
            if op in (b"s", b"b", b"b*"):
                for sub in subpaths:
                    first_point = sub[0][1][0]
                    last_point = sub[-1][1][-1]
                    if first_point != last_point:
                        sub.append(("l", [last_point, first_point]))
            points = path_points()
            if points and op in FILLS:
                emit("fill", _bounds(points), op)
            if points and op in STROKES:
                emit("stroke", _stroke_box(state, subpaths), op)
            if pending_clip and points:
                state.clip = _cut(_bounds(points), state.clip) or (0.0, 0.0, 0.0, 0.0)
            pending_clip = False
            subpaths = []
        elif op == b"BT":
            line = list(IDENTITY)
            line_start = list(IDENTITY)
        elif op == b"Tf":
            state.font = fonts_[operands[0]].get_object()
            state.size = float(operands[1])
        elif op == b"Tc":
            state.char_space = float(operands[0])
        elif op == b"Tw":
            state.word_space = float(operands[0])
        elif op == b"Tz":
            state.scale = float(operands[0])
        elif op == b"TL":
            state.leading = float(operands[0])
        elif op == b"Ts":
            state.rise = float(operands[0])
        elif op == b"Tm":
            line = line_start = [float(v) for v in operands]
        elif op in (b"Td", b"TD"):
            if op == b"TD":
                state.leading = -float(operands[1])
            line = line_start = matrix_times([1.0, 0, 0, 1.0, float(operands[0]), float(operands[1])],
                                             line_start)
        elif op in (b"T*", b"'", b'"'):
            line = line_start = matrix_times([1.0, 0, 0, 1.0, 0, -state.leading], line_start)
            if op == b"'":
                show(_raw(operands[0]), op)
            elif op == b'"':
                state.word_space, state.char_space = float(operands[0]), float(operands[1])
                show(_raw(operands[2]), op)
        elif op == b"Tj":
            show(_raw(operands[0]), op)
        elif op == b"TJ":
            for item in operands[0]:
                if isinstance(item, (int, float)) or hasattr(item, "as_numeric"):
                    line = matrix_times([1.0, 0, 0, 1.0, -float(item) / 1000 * state.size * state.scale / 100, 0],
                                        line)
                else:
                    show(_raw(item), op)
        elif op == b"Do":
            name = operands[0]
            xobject = xobjects[name].get_object()
            if xobject["/Subtype"] == "/Image":
                emit("image", _bounds([apply(state.ctm, x, y) for x in (0, 1) for y in (0, 1)]), op)
                continue
            inner = state.copy()
            matrix = [float(v) for v in xobject.get("/Matrix", IDENTITY)]
            inner.ctm = matrix_times(matrix, state.ctm)
            x0, y0, x1, y1 = (float(v) for v in xobject["/BBox"])
            bbox = _bounds([apply(inner.ctm, x, y) for x in (x0, x1) for y in (y0, y1)])
            inner.clip = _cut(bbox, inner.clip) or (0.0, 0.0, 0.0, 0.0)
            own = xobject.get("/Resources")
            _walk(xobject, own.get_object() if own is not None else resources, pdf, inner,
                  f"{str(name)[1:]} < {where}", found)
        elif op == b"sh":  # a shading fills the clip
            emit("fill", state.clip or (-math.inf, -math.inf, math.inf, math.inf), op)


@dataclass(frozen=True)
class Rect:
    """A box in millimetres from the page's bottom-left corner, y up (as a PDF page is)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    def grown(self, by: float) -> Rect:
        return Rect(self.x - by, self.y - by, self.width + 2 * by, self.height + 2 * by)

    def overlaps(self, other: Rect, eps: float = 1e-6) -> bool:
        return (self.x < other.right - eps and other.x < self.right - eps
                and self.y < other.top - eps and other.y < self.top - eps)


def box_of(points: list[tuple[float, float]]) -> Rect:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


@dataclass(frozen=True)
class Placed:
    """A form the page places: its name, its box (the form's BBox on the page), what of it
    shows through the clip, and the scale it is placed at."""

    name: str
    box: Rect
    shown: Rect
    scale: float
    turned: bool


@dataclass(frozen=True)
class Stroke:
    """A path the page itself strokes (not inside a form): its points' box and line width
    (points). Crop marks, rulers and cut lines are such strokes."""

    box: Rect
    width: float
    dashed: bool


@dataclass(frozen=True)
class SheetItems:
    forms: list[Placed]
    strokes: list[Stroke]
    texts: list[tuple[float, float, float]]  # where each string the page draws starts (mm) and its size


def sheet_items(page: Any) -> SheetItems:
    """What a sheet's page draws itself, in mm, y up: the forms it places (pieces), the paths
    it strokes, and where its text starts. Pieces are forms; what the page draws besides is
    its furniture."""
    xobjects = page["/Resources"].get("/XObject", {})
    ctm, stack = list(IDENTITY), []
    width, dashed, line, size = 1.0, False, list(IDENTITY), 0.0
    clip: Rect | None = None
    path: list[tuple[float, float]] = []
    forms, strokes, texts = [], [], []

    def point(x: float, y: float) -> tuple[float, float]:
        px, py = apply(ctm, x, y)
        return px / MM, py / MM

    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append((ctm, width, dashed, clip))
        elif op == b"Q":
            ctm, width, dashed, clip = stack.pop()
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            path = [point(x, y), point(x + w, y + h)]
        elif op in (b"W", b"W*"):
            clip = box_of(path)
        elif op == b"cm":
            ctm = matrix_times([float(v) for v in operands], ctm)
        elif op == b"w":
            width = float(operands[0])
        elif op == b"d":
            dashed = bool(operands[0])
        elif op in (b"m", b"l"):
            path.append(point(float(operands[0]), float(operands[1])))
        elif op == b"S":
            strokes.append(Stroke(box_of(path), width, dashed))
            path = []
        elif op in (b"n", b"f", b"f*", b"B", b"B*"):
            path = []
        elif op == b"Do":
            x0, y0, x1, y1 = (float(v) for v in xobjects[operands[0]].get_object()["/BBox"])
            box = box_of([point(x, y) for x in (x0, x1) for y in (y0, y1)])
            shown = box
            if clip is not None:
                left, low = max(box.x, clip.x), max(box.y, clip.y)
                shown = Rect(left, low, min(box.right, clip.right) - left, min(box.top, clip.top) - low)
            scale = math.hypot(ctm[0], ctm[1])
            forms.append(Placed(str(operands[0]).removeprefix("/FormXob."), box, shown, scale,
                                abs(ctm[1]) > abs(ctm[0])))
        elif op == b"Tf":
            size = float(operands[1])
        elif (moved := moved_text_line(op, operands, line)) is not None:
            line = moved
        elif op in (b"Tj", b"TJ"):
            x, y = apply(matrix_times(line, ctm), 0, 0)
            texts.append((x / MM, y / MM, size))
    return SheetItems(forms, strokes, texts)


def drawn_too_near_the_edge(reader: PdfReader, margin: float) -> list[tuple[int, float, str, str]]:
    """Every drawing operation of every page that comes nearer than ``margin`` mm to the paper
    edge: (page number, distance in mm, kind, where it was drawn)."""
    near = []
    for number, page in enumerate(reader.pages, start=1):
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        ops = drawing_ops(page)
        assert ops, f"page {number} draws nothing"
        for op in ops:
            distance = op.edge_distance(width, height) / MM
            if distance < margin - 1e-3:
                near.append((number, round(distance, 2), op.kind, op.where))
    return near
