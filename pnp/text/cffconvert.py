"""An OpenType face with CFF (PostScript) outlines turned into TrueType outlines, which is
what reportlab can embed; kept in pnp's disk cache by the bytes it was made from.

reportlab refuses CFF outlines ("postscript outlines are not supported"). fontTools converts
them (its otf2ttf recipe: cubic curves to quadratic within one font unit). A whole CJK face
of 65,000 glyphs takes 40 s and 700 MB to convert, so a face that big is first subset to the
characters a Chinese game prints: what Big5 and GB2312 encode, with Latin and punctuation.
The conversion is deterministic (no timestamps), so the same face gives the same bytes.
"""

from __future__ import annotations

import hashlib
import io
from functools import cache
from pathlib import Path
from typing import Any

from pnp.core import diskcache

AREA = "converted-fonts"
FORMAT = 1
_MAX_ENTRY = 64 * 1024 * 1024
# A face with more glyphs than this is subset before it is converted.
_SUBSET_ABOVE = 5000
_MAX_ERR = 1.0  # font units: the largest distance of a quadratic curve from the cubic one
_LAYOUT_TABLES = ("GSUB", "GPOS", "GDEF", "BASE", "JSTF", "VORG")


def truetype_bytes(path: Path, index: int, data: bytes) -> bytes:
    """The TrueType-outlined font for face ``index`` of ``path`` (whose bytes are ``data``),
    from the disk cache when pnp converted these bytes before."""
    name = hashlib.sha256(f"{hashlib.sha256(data).hexdigest()}\0{index}\0{FORMAT}".encode()).hexdigest()
    cached = diskcache.read(AREA, name, _MAX_ENTRY)
    if cached is not None:
        return cached
    converted = _convert(data, index)
    diskcache.write(AREA, name, converted)
    return converted


def _convert(data: bytes, index: int) -> bytes:
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(data), fontNumber=index, lazy=False, recalcTimestamp=False)
    if len(font.getGlyphOrder()) > _SUBSET_ABOVE:
        _subset(font, set(font.getBestCmap() or {}) & _chinese_repertoire())
    _cff_to_glyf(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


@cache
def _chinese_repertoire() -> frozenset[int]:
    """Latin, punctuation and every character Big5 or GB2312 encode."""
    codes = set(range(0x20, 0x250)) | set(range(0x2000, 0x2070)) | set(range(0x2190, 0x2700)) \
        | set(range(0x3000, 0x3040)) | set(range(0xFF00, 0xFFF0))
    for codec, leads, trails in (("big5", range(0x81, 0xFF), range(0x40, 0xFF)),
                                 ("gb2312", range(0xA1, 0xFF), range(0xA1, 0xFF))):
        for lead in leads:
            for trail in trails:
                try:
                    text = bytes((lead, trail)).decode(codec)
                except UnicodeDecodeError:
                    continue
                codes.update(ord(ch) for ch in text)
    return frozenset(codes)


def _subset(font: Any, codepoints: set[int]) -> None:
    from fontTools import subset

    font["cmap"].tables = [t for t in font["cmap"].tables if t.format != 14]
    options = subset.Options()
    options.layout_features = []
    options.drop_tables = sorted(set(options.drop_tables) | set(_LAYOUT_TABLES))
    options.desubroutinize = True
    options.notdef_glyph = True
    options.notdef_outline = True
    options.recalc_timestamp = False
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)


def _cff_to_glyf(font: Any) -> None:
    """fontTools' Snippets/otf2ttf.py, in place."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    tt = font  # a fontTools TTFont
    glyph_order = tt.getGlyphOrder()
    glyph_set = tt.getGlyphSet()
    glyphs = {}
    for name in glyph_order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, _MAX_ERR, reverse_direction=True))
        glyphs[name] = pen.glyph()
    tt["loca"] = newTable("loca")
    tt["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder = glyph_order
    glyf.glyphs = glyphs
    for tag in ("CFF ", "CFF2", "VORG"):
        if tag in tt:
            del tt[tag]
    glyf.compile(tt)
    hmtx = tt["hmtx"]
    for name, glyph in glyf.glyphs.items():
        if hasattr(glyph, "xMin"):
            hmtx[name] = (hmtx[name][0], glyph.xMin)
    tt["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.maxZones = 1
    for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions"):
        setattr(maxp, field, 0)
    maxp.maxComponentElements = max((len(getattr(g, "components", [])) for g in glyphs.values()), default=0)
    maxp.compile(tt)
    post = tt["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = glyph_order
    tt.sfntVersion = "\x00\x01\x00\x00"
