"""Reading built PDFs back: which faces sit on which page, fonts, text, sizes.

Tests assert on what is really in the files, never on the data that produced them.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from pypdf import PdfReader

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
