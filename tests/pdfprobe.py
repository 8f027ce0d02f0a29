"""Reading built PDFs back: which faces sit on which page, fonts, text, sizes.

Tests assert on what is really in the files, never on the data that produced them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import ContentStream

# A tile of a board larger than a sheet is a face of its own: face-board-board~r1c2-front.
FACE_DO = re.compile(rb"/FormXob\.(face-[A-Za-z0-9_~-]+?)-(front|back) Do")


def face_counts(path: Path) -> Counter[tuple[str, str]]:
    """(face name without side, side) -> how many times a page places it."""
    counts: Counter[tuple[str, str]] = Counter()
    for page in PdfReader(path).pages:
        data = page.get_contents().get_data()
        for name, side in FACE_DO.findall(data):
            counts[(name.decode(), side.decode())] += 1
    return counts


def component_counts(path: Path, component: str, side: str = "front") -> int:
    prefix = f"face-{component}-"
    return sum(n for (name, s), n in face_counts(path).items() if s == side and name.startswith(prefix))


def page_sizes(path: Path) -> set[tuple[float, float]]:
    return {(round(float(p.mediabox.width), 1), round(float(p.mediabox.height), 1))
            for p in PdfReader(path).pages}


def fonts(path: Path) -> dict[str, bool]:
    """BaseFont name -> embedded (has a font file), for every font pages and forms use."""
    found: dict[str, bool] = {}
    seen: set[int] = set()

    def visit(resources) -> None:  # noqa: ANN001 - a pypdf dictionary
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            embedded = descriptor is not None and any(
                key in descriptor.get_object() for key in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[str(font["/BaseFont"])] = embedded
        for ref in (resources.get("/XObject") or {}).values():
            key = getattr(ref, "idnum", None)
            if key in seen:
                continue
            seen.add(key)
            visit(ref.get_object().get("/Resources"))

    for page in PdfReader(path).pages:
        visit(page.get("/Resources"))
    return found


def text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)


def outline_titles(path: Path) -> list[str]:
    titles: list[str] = []

    def walk(items: list) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                titles.append(item.title)

    walk(PdfReader(path).outline)
    return titles


def matrix_times(a: list[float], b: list[float]) -> list[float]:
    """The PDF matrix product a × b (a applied first), for walking a content stream's cm/Tm."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


IDENTITY = [1.0, 0, 0, 1.0, 0, 0]


def moved_text_line(op: bytes, operands: list, line: list[float]) -> list[float] | None:
    """The text line matrix after a text-positioning operator (BT, Tm, Td, TD), or None when
    ``op`` is not one: what a content-stream walker needs to know where a string starts."""
    if op == b"BT":
        return list(IDENTITY)
    if op == b"Tm":
        return [float(v) for v in operands]
    if op in (b"Td", b"TD"):
        return matrix_times([1.0, 0, 0, 1.0, float(operands[0]), float(operands[1])], line)
    return None


def invert(matrix: list[float]) -> list[float]:
    """The inverse of a PDF matrix [a b c d e f]."""
    a, b, c, d, e, f = matrix
    det = a * d - b * c
    return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det]


def apply(matrix: list[float], x: float, y: float) -> tuple[float, float]:
    return x * matrix[0] + y * matrix[2] + matrix[4], x * matrix[1] + y * matrix[3] + matrix[5]


# The form a sheet places for one side of one face: /FormXob.face-action-rose-rush-front Do
_FACE_FORM = re.compile(r"^/FormXob\.(face-[A-Za-z0-9_~-]+?)-(front|back)$")


def face_placements(page) -> list[tuple[str, str, list[float], tuple[float, float]]]:  # noqa: ANN001 - pypdf page
    """(face name without side, side, the matrix that places it, its form's width and height
    in points) of every face form the page itself places."""
    from pypdf.generic import ContentStream

    xobjects = page.get("/Resources", {}).get("/XObject", {})
    ctm, stack = list(IDENTITY), []
    found = []
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = matrix_times([float(v) for v in operands], ctm)
        elif op == b"Do":
            match = _FACE_FORM.match(str(operands[0]))
            if match:
                box = [float(v) for v in xobjects[operands[0]].get_object()["/BBox"]]
                found.append((match[1], match[2], ctm, (box[2] - box[0], box[3] - box[1])))
    return found


@dataclass(frozen=True)
class FaceChar:
    """One character a face prints, read back from a sheet: where its origin lies on the face
    (millimetres from the trim's top-left corner), whether it is set upright on the face (not
    turned a half or a quarter), its size in points and its fill colour (0–255 each)."""

    face: str
    side: str
    page: int
    placement: int  # which of the page's placed faces, in the order the page places them
    x: float
    y: float
    ch: str
    size: float
    upright: bool
    color: tuple[int, int, int]


def face_chars(path: Path, bleed: float = 3.0) -> list[FaceChar]:
    """Every character drawn inside a placed face's trim, in the face's own coordinates, in
    the order the PDF draws them: pdfium finds each glyph on the page, the page's content
    stream says which face form sits where, and the inverse of that placement takes the glyph
    back onto the face (so a card turned a quarter on its sheet reads like any other)."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    mm = 72 / 25.4
    reader = PdfReader(path)
    document = pdfium.PdfDocument(path)
    out = []
    for number, page in enumerate(reader.pages):
        placements = [(face, side, invert(ctm), size) for face, side, ctm, size in face_placements(page)]
        textpage = document[number].get_textpage()
        x, y = ctypes.c_double(), ctypes.c_double()
        matrix = raw.FS_MATRIX()
        r, g, b, a = (ctypes.c_uint() for _ in range(4))
        for index in range(textpage.count_chars()):
            ch = textpage.get_text_range(index, 1)
            if not ch.strip() or raw.FPDFText_IsGenerated(textpage, index) == 1:
                continue
            raw.FPDFText_GetCharOrigin(textpage, index, x, y)
            raw.FPDFText_GetMatrix(textpage, index, matrix)
            raw.FPDFText_GetFillColor(textpage, index, r, g, b, a)
            for placed, (face, side, inverse, (width, height)) in enumerate(placements):
                fx, fy = apply(inverse, x.value, y.value)
                trim_x, trim_y = fx / mm - bleed, (height - fy) / mm - bleed
                if not (0 <= trim_x <= width / mm - 2 * bleed and 0 <= trim_y <= height / mm - 2 * bleed):
                    continue
                # The glyph's direction on the page, taken back onto the face.
                dx = matrix.a * inverse[0] + matrix.b * inverse[2]
                dy = matrix.a * inverse[1] + matrix.b * inverse[3]
                out.append(FaceChar(face, side, number, placed, trim_x, trim_y, ch,
                                    raw.FPDFText_GetFontSize(textpage, index),
                                    dx > 0 and abs(dy) < 1e-6 * abs(dx), (r.value, g.value, b.value)))
                break
    return out


@dataclass(frozen=True)
class Mark:
    """One painted shape of a page, in page points (y up): a filled area or a stroked path,
    with its colour (r, g, b to three places) and, for a stroke, its line width."""
    filled: bool
    color: tuple[float, ...]
    width: float
    left: float
    bottom: float
    right: float
    top: float


def painted(page) -> list[Mark]:  # noqa: ANN001 - a pypdf page
    """Every rectangle filled and every path stroked by the page's own content stream (what
    forms placed on it draw inside themselves is left out), in drawing order."""
    ctm, stack = list(IDENTITY), []
    fill: tuple[float, ...] = (0.0, 0.0, 0.0)
    stroke: tuple[float, ...] = (0.0, 0.0, 0.0)
    width = 1.0
    paths: list[list[tuple[float, float]]] = []
    marks: list[Mark] = []

    def point(x: float, y: float) -> tuple[float, float]:
        moved = matrix_times([1.0, 0, 0, 1.0, x, y], ctm)
        return moved[4], moved[5]

    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append((ctm, fill, stroke, width))
        elif op == b"Q":
            ctm, fill, stroke, width = stack.pop()
        elif op == b"cm":
            ctm = matrix_times([float(v) for v in operands], ctm)
        elif op == b"rg":
            fill = tuple(round(float(v), 3) for v in operands)
        elif op == b"RG":
            stroke = tuple(round(float(v), 3) for v in operands)
        elif op == b"w":
            width = float(operands[0])
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            paths.append([point(x, y), point(x + w, y + h)])
        elif op == b"m":
            paths.append([point(float(operands[0]), float(operands[1]))])
        elif op == b"l" and paths:
            paths[-1].append(point(float(operands[0]), float(operands[1])))
        elif op in (b"f", b"f*", b"F", b"S", b"s", b"B", b"B*", b"b", b"b*", b"n"):
            if op != b"n":
                filled = op not in (b"S", b"s")
                for points in paths:
                    xs, ys = [p[0] for p in points], [p[1] for p in points]
                    marks.append(Mark(filled, fill if filled else stroke, width,
                                      min(xs), min(ys), max(xs), max(ys)))
            paths = []
    return marks


def hex_color(value: str) -> tuple[float, ...]:
    """"#6b2d3a" as a content stream's rg operands read by ``painted``."""
    return tuple(round(int(value[i:i + 2], 16) / 255, 3) for i in (1, 3, 5))


@dataclass(frozen=True)
class TextLine:
    """A run of characters drawn on one baseline, left to right, with the left of its first
    and the right of its last character's advance (PDFium's loose boxes), in page points."""
    text: str
    left: float
    right: float
    bottom: float
    top: float


def _line_of(chars: list[tuple[str, tuple[float, float, float, float]]]) -> TextLine:
    boxes = [box for _, box in chars]
    return TextLine("".join(c for c, _ in chars), boxes[0][0], boxes[-1][2],
                    min(b[1] for b in boxes), max(b[3] for b in boxes))


def text_lines(path: Path) -> list[list[TextLine]]:
    """Each page's lines of text as PDFium reads them: a new line wherever it breaks one,
    or the next character sits on another baseline or left of the last."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(path)
    pages: list[list[TextLine]] = []
    try:
        for page in document:
            textpage = page.get_textpage()
            text = textpage.get_text_range()
            lines: list[TextLine] = []
            chars: list[tuple[str, tuple[float, float, float, float]]] = []
            for index in range(textpage.count_chars()):
                char = text[index] if index < len(text) else ""
                box = textpage.get_charbox(index, loose=True)
                if chars and (char in ("\r", "\n", "") or abs(box[1] - chars[-1][1][1]) > 1
                              or box[0] < chars[-1][1][0] - 1):
                    lines.append(_line_of(chars))
                    chars = []
                if char not in ("\r", "\n", ""):
                    chars.append((char, box))
            if chars:
                lines.append(_line_of(chars))
            pages.append(lines)
    finally:
        document.close()
    return pages


def styled_chars(path: Path) -> list[tuple[str, tuple[int, int, int], str]]:
    """Every character PDFium reads on every page: (character, fill colour as 0–255 RGB, font
    name), in reading order."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    found = []
    red, green, blue, alpha = (ctypes.c_uint() for _ in range(4))
    name = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    doc = pdfium.PdfDocument(path)
    try:
        for page in doc:
            textpage = page.get_textpage()
            for index in range(textpage.count_chars()):
                raw.FPDFText_GetFillColor(textpage.raw, index, red, green, blue, alpha)
                raw.FPDFText_GetFontInfo(textpage.raw, index, name, len(name), flags)
                found.append((chr(raw.FPDFText_GetUnicode(textpage.raw, index)),
                              (red.value, green.value, blue.value), name.value.decode()))
    finally:
        doc.close()
    return found
