#!/usr/bin/env python3
"""Regenerate the committed CJK fonts in pnp/core/faces/ from Debian's ``fonts-noto-cjk``.

For each of Noto Sans CJK TC/SC Regular/Bold this script

1. picks the face inside the .ttc collection by its family name (name ID 1), never by index;
2. subsets it (fontTools) to every character of Big5 (+cp950) and GB2312, CJK/fullwidth and
   general punctuation, Latin-1, common symbols, and the characters of pnp/core/faces/extra-chars.txt,
   with no layout tables or features, desubroutinized, keeping .notdef;
3. converts the CFF outlines to TrueType quadratic outlines (the fontTools ``otf2ttf`` recipe),
   because reportlab refuses PostScript outlines;
4. renames it (``PnpSansTC-Regular`` ...), so reportlab never confuses it with another font;
5. saves it with ``recalcTimestamp=False``: the same inputs always give the same bytes.

Usage::

    python scripts/build_fonts.py [--extra-chars FILE] [--out-dir DIR] [--jobs N]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
import time
import unicodedata
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, TTFont, newTable

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT_DIR = REPO / "pnp" / "core" / "faces"  # installed with pnp as package data
DEFAULT_EXTRA_CHARS = DEFAULT_OUT_DIR / "extra-chars.txt"
DEFAULT_SOURCE_DIR = Path("/usr/share/fonts/opentype/noto")
DEBIAN_PACKAGE = "fonts-noto-cjk"

MAX_ERR = 1.0  # font units, for the cubic -> quadratic conversion
REVERSE_DIRECTION = True  # CFF contours run counter-clockwise, TrueType clockwise
POST_FORMAT = 2.0

LAYOUT_TABLES = ["GSUB", "GPOS", "GDEF", "BASE", "JSTF"]
KEEP_NAME_IDS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]


@dataclass(frozen=True)
class FaceSpec:
    """One output font: which face of which collection, and the names it gets."""

    source_file: str  # file name inside the source dir
    source_family: str  # name ID 1 of the wanted face inside the collection
    family: str  # new name ID 1
    style: str  # name ID 2: "Regular" or "Bold"

    @property
    def ps_name(self) -> str:
        return f"{self.family}-{self.style}"

    @property
    def file_name(self) -> str:
        return f"{self.ps_name}.ttf"


FACES: tuple[FaceSpec, ...] = (
    FaceSpec("NotoSansCJK-Regular.ttc", "Noto Sans CJK TC", "PnpSansTC", "Regular"),
    FaceSpec("NotoSansCJK-Bold.ttc", "Noto Sans CJK TC", "PnpSansTC", "Bold"),
    FaceSpec("NotoSansCJK-Regular.ttc", "Noto Sans CJK SC", "PnpSansSC", "Regular"),
    FaceSpec("NotoSansCJK-Bold.ttc", "Noto Sans CJK SC", "PnpSansSC", "Bold"),
)

# Blocks taken whole (only the code points the face actually has end up in the font).
SYMBOL_RANGES: tuple[tuple[int, int, str], ...] = (
    (0x0020, 0x00FF, "Basic Latin + Latin-1"),
    (0x0100, 0x017F, "Latin Extended-A"),
    (0x2000, 0x206F, "General Punctuation"),
    (0x2100, 0x214F, "Letterlike Symbols"),
    (0x2150, 0x218F, "Number Forms"),
    (0x2190, 0x21FF, "Arrows"),
    (0x2200, 0x22FF, "Mathematical Operators"),
    (0x2460, 0x24FF, "Enclosed Alphanumerics"),
    (0x2500, 0x257F, "Box Drawing"),
    (0x2580, 0x259F, "Block Elements"),
    (0x25A0, 0x25FF, "Geometric Shapes"),
    (0x2600, 0x26FF, "Miscellaneous Symbols"),
    (0x2700, 0x27BF, "Dingbats"),
    (0x3000, 0x303F, "CJK Symbols and Punctuation"),
    (0x3100, 0x312F, "Bopomofo"),
    (0x31A0, 0x31BF, "Bopomofo Extended"),
    (0x3200, 0x32FF, "Enclosed CJK Letters and Months"),
    (0xFE30, 0xFE4F, "CJK Compatibility Forms"),
    (0xFE50, 0xFE6F, "Small Form Variants"),
    (0xFF00, 0xFFEF, "Halfwidth and Fullwidth Forms"),
)

_CODEPOINT_TOKEN = re.compile(r"^U\+([0-9A-Fa-f]{4,6})$")


# --------------------------------------------------------------------------- character sets


def decode_double_byte(codec: str, leads: Iterable[int], trails: Iterable[int]) -> set[str]:
    """Every character a 2-byte code of ``codec`` decodes to."""
    trails = list(trails)
    found: set[str] = set()
    for lead in leads:
        for trail in trails:
            try:
                text = bytes((lead, trail)).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(text) == 1:
                found.add(text)
    return found


def is_han(ch: str) -> bool:
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH"))


def charset_characters() -> dict[str, set[str]]:
    """The characters of Big5, cp950 (Big5 + Microsoft's extras) and GB2312."""
    return {
        "big5": decode_double_byte("big5", range(0x81, 0xFF), range(0x40, 0xFF)),
        "cp950": decode_double_byte("cp950", range(0x81, 0xFF), range(0x40, 0xFF)),
        "gb2312": decode_double_byte("gb2312", range(0xA1, 0xFF), range(0xA1, 0xFF)),
    }


def read_extra_chars(path: Path) -> list[str]:
    """Characters listed in an extra-chars file, in order of first appearance.

    Format: any characters, one or more per line; whitespace is ignored; ``#`` starts a comment
    that runs to the end of the line; a whitespace-separated token ``U+XXXX`` stands for that
    code point (for characters that are hard to type or see).
    """
    seen: dict[str, None] = {}
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0]
        for token in line.split():
            match = _CODEPOINT_TOKEN.match(token)
            if match:
                value = int(match.group(1), 16)
                if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
                    raise SystemExit(f"{path}:{lineno}: {token} is not a valid code point")
                seen.setdefault(chr(value), None)
                continue
            for ch in token:
                seen.setdefault(ch, None)
    return list(seen)


def wanted_codepoints(extra: Iterable[str]) -> tuple[set[int], dict[str, int]]:
    """All code points to keep, and a breakdown by source for the report."""
    sets = charset_characters()
    encoded = sets["big5"] | sets["cp950"] | sets["gb2312"]
    han = {ch for ch in encoded if is_han(ch)}
    wanted = {ord(ch) for ch in encoded}
    for start, stop, _label in SYMBOL_RANGES:
        wanted.update(range(start, stop + 1))
    extra_cps = {ord(ch) for ch in extra}
    wanted |= extra_cps
    breakdown = {
        "han_big5": sum(1 for ch in sets["big5"] if is_han(ch)),
        "han_gb2312": sum(1 for ch in sets["gb2312"] if is_han(ch)),
        "han_union": len(han),
        "encoded_non_han": len(encoded - han),
        "extra": len(extra_cps),
    }
    return wanted, breakdown


# --------------------------------------------------------------------------- font building


def open_face(collection_path: Path, family: str) -> TTFont:
    """The face of a .ttc whose name ID 1 is ``family`` (fully loadable, not lazy)."""
    collection = TTCollection(str(collection_path), lazy=True)
    matches = [index for index, font in enumerate(collection.fonts) if font["name"].getDebugName(1) == family]
    if len(matches) != 1:
        found = sorted({font["name"].getDebugName(1) for font in collection.fonts})
        raise SystemExit(
            f"{collection_path}: expected exactly one face named {family!r}, "
            f"found {len(matches)} (faces: {', '.join(found)})"
        )
    return TTFont(str(collection_path), fontNumber=matches[0], lazy=False, recalcTimestamp=False)


def face_cmap(collection_path: Path, family: str) -> dict[int, str]:
    collection = TTCollection(str(collection_path), lazy=True)
    for font in collection.fonts:
        if font["name"].getDebugName(1) == family:
            return font.getBestCmap()
    raise SystemExit(f"{collection_path}: no face named {family!r}")


def subset_face(font: TTFont, codepoints: set[int]) -> None:
    # Unicode variation sequences (cmap format 14) would pull in hundreds of variant glyphs
    # reportlab can never select: drop them before subsetting.
    font["cmap"].tables = [table for table in font["cmap"].tables if table.format != 14]
    options = subset.Options()
    options.layout_features = []
    options.drop_tables = sorted(set(options.drop_tables) | set(LAYOUT_TABLES))
    options.desubroutinize = True
    # hinting stays on: removing CFF hints costs ~5 s a face and the pen ignores them anyway
    options.notdef_glyph = True
    options.notdef_outline = True
    options.name_IDs = KEEP_NAME_IDS
    options.name_languages = [0x0409]
    options.name_legacy = False
    options.recalc_timestamp = False
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)


def glyphs_to_quadratic(glyph_set, max_err: float, reverse_direction: bool) -> dict:
    quad_glyphs = {}
    for name in glyph_set:
        tt_pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(tt_pen, max_err, reverse_direction=reverse_direction))
        quad_glyphs[name] = tt_pen.glyph()
    return quad_glyphs


def otf_to_ttf(font: TTFont) -> None:
    """fontTools' Snippets/otf2ttf.py, in place."""
    if font.sfntVersion != "OTTO" or "CFF " not in font:
        raise SystemExit("expected a CFF-flavoured OpenType font")
    glyph_order = font.getGlyphOrder()

    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder = glyph_order
    glyf.glyphs = glyphs_to_quadratic(font.getGlyphSet(), MAX_ERR, REVERSE_DIRECTION)
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    glyf.compile(font)

    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():
        if hasattr(glyph, "xMin"):
            hmtx[name] = (hmtx[name][0], glyph.xMin)

    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.maxZones = 1
    maxp.maxTwilightPoints = 0
    maxp.maxStorage = 0
    maxp.maxFunctionDefs = 0
    maxp.maxInstructionDefs = 0
    maxp.maxStackElements = 0
    maxp.maxSizeOfInstructions = 0
    maxp.maxComponentElements = max(
        (len(getattr(glyph, "components", [])) for glyph in glyf.glyphs.values()), default=0
    )
    maxp.compile(font)

    post = font["post"]
    post.formatType = POST_FORMAT
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = glyph_order

    font.sfntVersion = "\x00\x01\x00\x00"


def rename(font: TTFont, spec: FaceSpec) -> None:
    name = font["name"]
    version = name.getDebugName(5) or "Version ?"
    short_version = version.split(";", 1)[0].replace("Version ", "")
    credits = name.getDebugName(10) or ""
    provenance = (
        f"{spec.ps_name} is a modified version of {spec.source_family} {spec.style} "
        f"({version}): a subset (Big5, GB2312, punctuation, Latin, symbols) converted to "
        "TrueType outlines by the pnp project's scripts/build_fonts.py."
    )
    records = {
        1: spec.family,
        2: spec.style,
        3: f"{short_version};PNP;{spec.ps_name}",
        4: f"{spec.family} {spec.style}",
        6: spec.ps_name,
        10: f"{provenance} {credits}".strip(),
    }
    for name_id in (16, 17, 21, 22):  # typographic names would point back to Noto
        name.removeNames(nameID=name_id)
    for name_id, value in records.items():
        name.removeNames(nameID=name_id)
        name.setName(value, name_id, 3, 1, 0x0409)


@dataclass(frozen=True)
class BuildResult:
    file_name: str
    chars: int
    glyphs: int
    size: int
    seconds: float
    sha256: str


def build_face(spec: FaceSpec, source_dir: Path, out_dir: Path, codepoints: set[int]) -> BuildResult:
    started = time.perf_counter()
    font = open_face(source_dir / spec.source_file, spec.source_family)
    subset_face(font, codepoints)
    otf_to_ttf(font)
    rename(font, spec)
    out_path = out_dir / spec.file_name
    tmp_path = out_path.with_name(f".{out_path.name}.{os.getpid()}.tmp")
    font.recalcTimestamp = False  # keep head.modified from the source: reproducible bytes
    font.save(str(tmp_path), reorderTables=True)
    os.replace(tmp_path, out_path)
    data = out_path.read_bytes()
    check = TTFont(str(out_path), lazy=True)
    result = BuildResult(
        file_name=spec.file_name,
        chars=len(check.getBestCmap()),
        glyphs=check["maxp"].numGlyphs,
        size=len(data),
        seconds=time.perf_counter() - started,
        sha256=hashlib.sha256(data).hexdigest(),
    )
    check.close()
    return result


def _build_face_job(args: tuple[FaceSpec, Path, Path, set[int]]) -> BuildResult:
    return build_face(*args)


# --------------------------------------------------------------------------- command line


def debian_version() -> str:
    try:
        proc = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", DEBIAN_PACKAGE],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return "unknown (no dpkg-query)"
    return proc.stdout.strip() if proc.returncode == 0 else "unknown (not installed via dpkg)"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument(
        "--extra-chars",
        type=Path,
        default=DEFAULT_EXTRA_CHARS,
        metavar="FILE",
        help=f"extra characters to include (default: {DEFAULT_EXTRA_CHARS.relative_to(REPO)})",
    )
    parser.add_argument(
        "--out-dir",
        type=Path,
        default=DEFAULT_OUT_DIR,
        metavar="DIR",
        help=f"where to write the .ttf files (default: {DEFAULT_OUT_DIR.relative_to(REPO)})",
    )
    parser.add_argument(
        "--source-dir",
        type=Path,
        default=DEFAULT_SOURCE_DIR,
        metavar="DIR",
        help=f"where {DEBIAN_PACKAGE}'s .ttc files are (default: {DEFAULT_SOURCE_DIR})",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=min(len(FACES), os.cpu_count() or 1),
        metavar="N",
        help="faces built in parallel (default: number of CPUs, at most 4)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()

    for spec in FACES:
        if not (args.source_dir / spec.source_file).is_file():
            raise SystemExit(
                f"{args.source_dir / spec.source_file} not found: install it with `apt-get install {DEBIAN_PACKAGE}`"
            )
    extra = read_extra_chars(args.extra_chars) if args.extra_chars.is_file() else []
    if not args.extra_chars.is_file() and args.extra_chars != DEFAULT_EXTRA_CHARS:
        raise SystemExit(f"{args.extra_chars}: no such file")

    # An extra character the source face lacks cannot be added: say so before building.
    for spec in FACES:
        cmap = face_cmap(args.source_dir / spec.source_file, spec.source_family)
        absent = [ch for ch in extra if ord(ch) not in cmap]
        if absent:
            listed = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in absent)
            raise SystemExit(
                f"{args.extra_chars}: {spec.source_family} {spec.style} has no glyph for "
                f"{listed}; remove them from that file and use other characters"
            )

    codepoints, breakdown = wanted_codepoints(extra)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    jobs = [(spec, args.source_dir, args.out_dir, codepoints) for spec in FACES]
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(_build_face_job, jobs))
    else:
        results = [_build_face_job(job) for job in jobs]

    print(f"source: {DEBIAN_PACKAGE} {debian_version()} in {args.source_dir}")
    print(
        f"requested: {len(codepoints)} code points "
        f"(Han: Big5 {breakdown['han_big5']}, GB2312 {breakdown['han_gb2312']}, "
        f"union incl. cp950 {breakdown['han_union']}; other Big5/GB2312 characters "
        f"{breakdown['encoded_non_han']}; extra-chars {breakdown['extra']})"
    )
    header = f"{'file':<24} {'chars':>7} {'glyphs':>7} {'bytes':>10} {'seconds':>8}  sha256"
    print(header)
    print("-" * len(header))
    for result in results:
        print(
            f"{result.file_name:<24} {result.chars:>7} {result.glyphs:>7} {result.size:>10} "
            f"{result.seconds:>8.1f}  {result.sha256[:16]}"
        )
    print(f"total {time.perf_counter() - started:.1f} s with {args.jobs} job(s) -> {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
