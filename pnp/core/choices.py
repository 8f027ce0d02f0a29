"""What a designer chooses from, declared once: scripts (and the tags people write for
them), papers, inks, and the component vocabulary (card sizes, shapes, board limits in mm).

The loader validates against these, the command line and pnp.toml accept them, the schema
and the layout vocabulary document them, and the imposer and renderer draw what they allow.
"""

from __future__ import annotations

import re

# The two scripts pnp prints, by their canonical tags (output folders use these names).
LANGS = ("zh-Hant", "zh-Hans")
ALL = "all"  # every script, where a command can make both
# What people write for a script, any case: the region tags map to the script used there.
LANG_ALIASES = {
    "zh-hant": "zh-Hant", "zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-mo": "zh-Hant",
    "zh-hans": "zh-Hans", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans", "zh-my": "zh-Hans",
}


def canonical_lang(value: str, allow_all: bool = False) -> str | None:
    """The canonical tag of ``value`` (``zh-TW`` -> ``zh-Hant``), ``all`` where allowed, or
    None for a name pnp does not know."""
    key = value.strip().lower()
    if allow_all and key == ALL:
        return ALL
    return LANG_ALIASES.get(key.replace("_", "-"))


def lang_names(allow_all: bool = False) -> str:
    """The accepted names, for an error message."""
    tags = sorted({alias for alias in LANG_ALIASES if alias not in ("zh-hant", "zh-hans")})
    return ", ".join([*LANGS, *([ALL] if allow_all else []), *tags]) + " (any case)"


# The text roles a game may give a face of its own (game.yaml `fonts:`): the rulebook's and
# aid's headings, everything else, and the card elements that name a role (`font: numbers`).
FONT_ROLES = ("title", "body", "numbers")
# The font files pnp reads: TrueType and OpenType (CFF outlines are converted), single or collections.
FONT_SUFFIXES = (".ttf", ".otf", ".ttc", ".otc")

# Paper sizes by name, width × height in mm, portrait. The ISO B sizes are ISO 216's (JIS B5,
# common on copiers in Taiwan and Japan, is 182x257: give it as a custom size).
PAPER_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "a5": (148.0, 210.0),
    "b5": (176.0, 250.0),
    "b4": (250.0, 353.0),
    "legal": (215.9, 355.6),
    "tabloid": (279.4, 431.8),
}
PAPERS = tuple(PAPER_SIZES)
# A custom paper, ``WxH`` in mm: from a little smaller than A6 (a poker card with its bleed,
# crop marks and a printer's margin still fits) to a large-format print service's sheet.
MIN_PAPER_MM = 100.0
MAX_PAPER_MM = 1000.0
_CUSTOM_PAPER = re.compile(r"^\s*(\d{1,4}(?:\.\d{1,2})?)\s*[x×*]\s*(\d{1,4}(?:\.\d{1,2})?)\s*(?:mm)?\s*$")


def canonical_paper(value: str) -> str | None:
    """The canonical name of a paper as people write it: a name in any case (``B5`` -> ``b5``)
    or a custom ``WxH`` in mm (``200X280``, ``200 × 280 mm`` -> ``200x280``); None for anything
    else, or a custom size outside the limits. Output folders and the build record use it."""
    key = value.strip().lower()
    if key in PAPER_SIZES:
        return key
    custom = _CUSTOM_PAPER.match(key)
    if custom is None:
        return None
    width, height = float(custom.group(1)), float(custom.group(2))
    if not all(MIN_PAPER_MM <= side <= MAX_PAPER_MM for side in (width, height)):
        return None
    return f"{width:g}x{height:g}"


def paper_size(paper: str) -> tuple[float, float]:
    """Width and height (mm) of a canonical paper name (see :func:`canonical_paper`)."""
    if paper in PAPER_SIZES:
        return PAPER_SIZES[paper]
    width, _, height = paper.partition("x")
    return float(width), float(height)


def paper_names() -> str:
    """The accepted papers, for an error message or a command's help."""
    return (", ".join(PAPERS) + f" (any case), or WxH in mm ({MIN_PAPER_MM:g} to {MAX_PAPER_MM:g}"
            " each side, e.g. 200x280)")
INKS = ("full", "saver")  # as designed, or light tints of dark fills for a home printer

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}

SAFE_ZONE = 3.0  # text stays this far inside the trim
BLEED_MM = 3.0  # the bleed round a face drawn with one (pnp.render.sheets.face_geometry)
MAX_BOARD = (180.0, 250.0)  # fits the printable area of A4 and Letter with bleed and marks
# A rect board may be larger, in either orientation: it is then printed in tiles across
# sheets (pnp.layout.tiles). Beyond this it would be a poster, not a board: 12 tiles to glue.
MAX_TILED_BOARD = (600.0, 600.0)
SHAPES = ("rect", "round", "fold", "d6_net", "d4_net")
