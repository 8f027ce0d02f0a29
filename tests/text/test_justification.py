"""Rulebook body text is justified: read back from the built PDF, every wrapped line of a
paragraph ends at the right edge of the text column, and no line starts with closing
punctuation. (Before justification about half the wrapped lines ended short, some by 3 ems.)"""

from __future__ import annotations

import ctypes
from collections import defaultdict
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.build.pipeline import build
from pnp.core.units import MM
from pnp.core.workspace import BUNDLED_FONTS, Workspace
from pnp.text.fonts import load_family
from tests.pdfprobe import Mark, hex_color, painted

ROOT = Path(__file__).resolve().parents[2]
BODY_SIZE, BODY_LEADING = 10.5, 17.5
A4_WIDTH = 210 * MM
RIGHT_EDGE = A4_WIDTH - 20 * MM - 6  # page margin, then the frame's padding
CLOSING = set("，。、；：？！）」』》〉…”’")
CALLOUT = hex_color("#f3eee4")


@pytest.fixture(scope="module")
def rulebooks(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("justified")
    build(Workspace(ROOT), "tisigui", "all", "a4", out)
    return {lang: out / "tisigui" / lang / "rulebook.pdf" for lang in ("zh-Hant", "zh-Hans")}


def body_lines(path: Path) -> list[tuple[int, float, list[tuple[float, str]]]]:
    """(page, baseline, [(origin x, character)]) of every line set in the body size."""
    pdf = pdfium.PdfDocument(path)
    lines = []
    for number in range(len(pdf)):
        textpage = pdf[number].get_textpage()
        rows: dict[float, list[tuple[float, str]]] = defaultdict(list)
        x, y = ctypes.c_double(), ctypes.c_double()
        for index in range(textpage.count_chars()):
            ch = textpage.get_text_range(index, 1)
            if not ch.strip() or abs(raw.FPDFText_GetFontSize(textpage, index) - BODY_SIZE) > 0.01:
                continue
            raw.FPDFText_GetCharOrigin(textpage, index, x, y)
            rows[round(y.value, 2)].append((x.value, ch))
        lines += [(number, baseline, sorted(chars)) for baseline, chars in sorted(rows.items(), reverse=True)]
    return lines


def callout_boxes(path: Path) -> dict[int, list[Mark]]:
    """Each page's callout boxes (the beige panels of 「小提示」, examples and the like)."""
    return {number: [m for m in painted(page) if m.filled and m.color == CALLOUT]
            for number, page in enumerate(PdfReader(path).pages)}


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_wrapped_lines_reach_the_right_edge(rulebooks, lang):
    """Inside a callout box the edge is the box's, less the room its text keeps on the left."""
    font = load_family(BUNDLED_FONTS, lang).regular.name
    lines = body_lines(rulebooks[lang])
    boxes = callout_boxes(rulebooks[lang])
    wrapped = boxed = 0
    for (page, y, chars), (next_page, next_y, _) in zip(lines, lines[1:], strict=False):
        # A line followed one leading below by another is wrapped, not a paragraph's last.
        if page != next_page or abs(y - next_y - BODY_LEADING) > 0.01:
            continue
        wrapped += 1
        x, ch = chars[-1]
        end = x + stringWidth(ch, font, BODY_SIZE)
        edge = RIGHT_EDGE
        box = next((b for b in boxes[page] if b.bottom < y < b.top), None)
        if box is not None:
            boxed += 1
            edge = box.right - (chars[0][0] - box.left)
        # A squeezed closing mark may overhang by the blank half it gave up.
        assert edge - 0.3 <= end <= edge + BODY_SIZE / 2, \
            (page + 1, "".join(c for _, c in chars), round(edge - end, 2))
    assert wrapped > 60 and boxed > 5


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_no_body_line_starts_with_closing_punctuation(rulebooks, lang):
    starts = [chars[0][1] for _, _, chars in body_lines(rulebooks[lang])]
    assert starts and not [ch for ch in starts if ch in CLOSING]
