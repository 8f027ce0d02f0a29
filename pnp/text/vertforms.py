"""The vertical forms of a face: the glyphs its OpenType ``vert`` feature puts in a column
(「 → ﹁, 。 → ︒ in a zh-Hans face, （ → ︵, … → ︙), and a companion font to draw them.

reportlab embeds a TrueType font by characters, never by glyph id, so a glyph the ``vert``
feature substitutes cannot be asked of the face itself. The companion is that face cut down with
fontTools to just those glyphs, each under the code point of the character it stands for: text
drawn in it is the original characters (a reader copying 「 from the PDF gets 「), printed in
their vertical forms. It is built once per face's bytes and kept in pnp's disk cache.

Which forms a face has is its own business: a zh-Hant face centres ，。、：；！？ and keeps them
upright as they are, so its ``vert`` leaves them alone; a zh-Hans face moves them to the top
right. The feature is read for the face's script and language (``hani``, ``ZHT``/``ZHS``).
"""

from __future__ import annotations

import hashlib
import io
import threading
from functools import cache
from typing import Any

from pnp.core import diskcache, files
from pnp.core.errors import FontError
from pnp.core.limits import MAX_FONT_BYTES
from pnp.text import reportlab_fonts
from pnp.text.fontcheck import font_damage_cached
from pnp.text.fonts import FontFace

AREA = "fonts"
FORMAT = 1
_MAX_ENTRY = 4 * 1024 * 1024
_LANGS = {"zh-Hant": "ZHT ", "zh-Hans": "ZHS "}
_lock = threading.Lock()


def _tools_font(face: FontFace) -> Any:
    """The face as fontTools reads it, from the bytes reportlab registered (a face of a
    collection by its index, a converted CFF face as converted)."""
    from fontTools.ttLib import TTCollection, TTFont

    parsed = reportlab_fonts.registered(face.name)
    if parsed is None:
        raise FontError(f"font {face.name} is not registered")
    data = reportlab_fonts.file_bytes(parsed.face)
    if data[:4] == b"ttcf":
        index = int(getattr(parsed.face, "subfontNameX", b"-0").decode("ascii").lstrip("-") or 0)
        return TTCollection(io.BytesIO(data), lazy=True).fonts[index]
    return TTFont(io.BytesIO(data), lazy=True)


def _vert_lookups(gsub: Any, lang: str) -> list[int]:
    """The lookups of the ``vert`` feature for Han text in ``lang`` (a language system of
    the ``hani`` script, else its default one, else the ``DFLT`` script's)."""
    table = gsub.table
    if table.ScriptList is None or table.FeatureList is None:
        return []
    scripts = {record.ScriptTag: record.Script for record in table.ScriptList.ScriptRecord}
    script = scripts.get("hani") or scripts.get("DFLT")
    if script is None:
        return []
    langsys = next((record.LangSys for record in script.LangSysRecord
                    if record.LangSysTag == _LANGS.get(lang)), script.DefaultLangSys)
    if langsys is None:
        return []
    features = table.FeatureList.FeatureRecord
    return sorted({index for feature in langsys.FeatureIndex if features[feature].FeatureTag == "vert"
                   for index in features[feature].Feature.LookupListIndex})


def _single_substitutions(gsub: Any, lookups: list[int]) -> dict[str, str]:
    mapping: dict[str, str] = {}
    for index in lookups:
        lookup = gsub.table.LookupList.Lookup[index]
        for sub in lookup.SubTable:
            if lookup.LookupType == 7:  # an extension wraps the real subtable
                sub = sub.ExtSubTable
            if hasattr(sub, "mapping"):  # single substitution; others do not make vertical forms
                for source, target in sub.mapping.items():
                    mapping.setdefault(source, target)
    return mapping


@cache
def _forms(face: FontFace, lang: str) -> tuple[dict[str, int], dict[int, str]]:
    """(character → glyph id of its vertical form, code point → glyph name) for the face."""
    font = _tools_font(face)
    if "GSUB" not in font:
        return {}, {}
    substitutions = _single_substitutions(font["GSUB"], _vert_lookups(font["GSUB"], lang))
    order = font.getGlyphOrder()
    ids = {name: index for index, name in enumerate(order)}
    cmap = font.getBestCmap() or {}
    by_char = {chr(code): ids[substitutions[name]] for code, name in cmap.items()
               if name in substitutions and code > 0x20}
    names = {ord(ch): order[gid] for ch, gid in by_char.items()}
    return by_char, names


def _companion_bytes(face: FontFace, lang: str, name: str) -> bytes:
    """The face cut down to its vertical forms, each under its character's code point."""
    from fontTools import subset
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

    font = _tools_font(face)
    names = _forms(face, lang)[1]
    options = subset.Options()
    options.layout_features = []
    # FFTM (FontForge's timestamps) would be dropped with a warning on stderr; drop it quietly.
    options.drop_tables = sorted(set(options.drop_tables) | {"GSUB", "GPOS", "GDEF", "BASE", "vhea", "vmtx", "FFTM"})
    options.notdef_outline = True
    options.recalc_timestamp = False
    options.name_IDs = [1, 2, 3, 4, 6]
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(glyphs=sorted(set(names.values())))
    subsetter.subset(font)
    table = CmapSubtable.newSubtable(4)
    table.platformID, table.platEncID, table.language = 3, 1, 0
    table.cmap = dict(sorted(names.items()))
    font["cmap"].tables = [table]
    for record in font["name"].names:
        if record.nameID in (1, 4, 6):
            record.string = name
        elif record.nameID == 3:
            record.string = f"pnp vertical forms of {face.name}"
    font.recalcTimestamp = False
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


COMPANION_SUFFIX = "-Vert"  # PnpSansTC-Regular-Vert.ttf beside PnpSansTC-Regular.ttf


def _gsub_companion(face: FontFace, lang: str, name: str) -> bytes | None:
    """A face's companion made from its own ``vert`` feature (cached on disk), or None when
    it has no vertical forms."""
    registered = reportlab_fonts.registered(face.name)
    if registered is None:
        raise FontError(f"font {face.name} is not registered")
    import fontTools

    source = hashlib.sha256(reportlab_fonts.file_bytes(registered.face)).hexdigest()
    entry = hashlib.sha256(f"{source}\0{lang}\0{fontTools.version}\0{FORMAT}".encode()).hexdigest() + ".vert"
    data = diskcache.read(AREA, entry, _MAX_ENTRY)
    if data is None:
        if not _forms(face, lang)[0]:
            return None
        data = _companion_bytes(face, lang, name)
        diskcache.write(AREA, entry, data)
    return data


@cache
def vertical_face(face: FontFace, lang: str) -> FontFace | None:
    """The companion font drawing the face's vertical forms under the original characters,
    registered with reportlab; None when the face has none. A face file may come with its
    companion (the bundled faces' are made by scripts/build_vertical_forms.py from the
    ``vert`` feature of the Noto faces they were cut from, which they do not keep); another
    face's is made from its own ``vert`` feature."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    beside = face.path.with_name(face.name + COMPANION_SUFFIX + ".ttf")
    if face.path.stem == face.name and beside.is_file():
        name, data = beside.stem, files.read_bytes(beside, limit=MAX_FONT_BYTES)
        damage = font_damage_cached(data, hashlib.sha256(data).hexdigest())
        if damage:
            raise FontError(f"the font {beside} is damaged: {damage}")
    else:
        digest = hashlib.sha256(f"{face.name}\0{lang}".encode()).hexdigest()[:12]
        name = f"{face.name}{COMPANION_SUFFIX}-{digest}"
        made = _gsub_companion(face, lang, name)
        if made is None:
            return None
        data = made
    with _lock:
        if reportlab_fonts.registered(name) is None:
            try:
                pdfmetrics.registerFont(TTFont(name, _NamedBytes(data, f"{face.path}{COMPANION_SUFFIX}")))
            except Exception as exc:  # a broken companion is the font folder's problem
                raise FontError(f"cannot read the vertical forms of {face.name} ({beside}): {exc}") from exc
    return FontFace(name=name, path=face.path, bold=face.bold)


@cache
def vertical_forms(face: FontFace, lang: str) -> frozenset[str]:
    """The characters the face draws in a vertical form in a column."""
    companion = vertical_face(face, lang)
    if companion is None:
        return frozenset()
    registered = reportlab_fonts.registered(companion.name)
    assert registered is not None  # vertical_face registered it
    return frozenset(chr(code) for code, glyph in registered.face.charToGlyph.items() if glyph and code != 0xFFFF)


class _NamedBytes(io.BytesIO):
    """Font bytes that reportlab takes for a file of this name."""

    def __init__(self, data: bytes, name: str) -> None:
        super().__init__(data)
        self.name = name
