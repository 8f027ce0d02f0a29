#!/usr/bin/env python3
"""Write pnp/core/faces/vertical-forms.json: the bundled faces' vertical forms, read from the
OpenType ``vert`` feature of the Noto Sans CJK faces they are made from.

The bundled faces keep no layout tables (scripts/build_fonts.py drops GSUB: with it, every
glyph of vertical text would be in them, and every PDF pnp makes would change). The glyphs
``vert`` substitutes are in them all the same, as the vertical presentation forms
(U+FE10–FE19, U+FE30–FE4F: ﹁ ︒ ︵ ︙): for each face this records, for every character
whose ``vert`` glyph (script ``hani``, language ``ZHT`` or ``ZHS``) is also one such code
point of the face, that code point. pnp.text.vertforms draws the glyph of that code point under
the original character. A zh-Hant face's ``vert`` leaves ，。、：；！？ alone (they stand
centred in a column as in a line); a zh-Hans face's moves them to the top right.

Usage::

    python scripts/build_vertical_forms.py [--source-dir DIR] [--out FILE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_fonts import otf_to_ttf  # noqa: E402  the same outline conversion as the faces'

REPO = Path(__file__).resolve().parent.parent
FACES_DIR = REPO / "pnp" / "core" / "faces"
DEFAULT_SOURCE_DIR = Path("/usr/share/fonts/opentype/noto")
SUFFIX = "-Vert"  # PnpSansTC-Regular-Vert.ttf: pnp.text.vertforms.COMPANION_SUFFIX
FACES = (  # bundled face -> (collection, family in it, language system)
    ("PnpSansTC-Regular", "NotoSansCJK-Regular.ttc", "Noto Sans CJK TC", "ZHT "),
    ("PnpSansTC-Bold", "NotoSansCJK-Bold.ttc", "Noto Sans CJK TC", "ZHT "),
    ("PnpSansSC-Regular", "NotoSansCJK-Regular.ttc", "Noto Sans CJK SC", "ZHS "),
    ("PnpSansSC-Bold", "NotoSansCJK-Bold.ttc", "Noto Sans CJK SC", "ZHS "),
)


def vert_substitutions(font: TTFont, lang: str) -> dict[str, str]:
    """glyph name -> glyph name, the single substitutions of ``vert`` for Han text in ``lang``."""
    table = font["GSUB"].table
    script = next(r.Script for r in table.ScriptList.ScriptRecord if r.ScriptTag == "hani")
    langsys = next((r.LangSys for r in script.LangSysRecord if r.LangSysTag == lang), script.DefaultLangSys)
    features = table.FeatureList.FeatureRecord
    lookups = sorted({i for f in langsys.FeatureIndex if features[f].FeatureTag == "vert"
                      for i in features[f].Feature.LookupListIndex})
    mapping: dict[str, str] = {}
    for index in lookups:
        lookup = table.LookupList.Lookup[index]
        for sub in lookup.SubTable:
            sub = sub.ExtSubTable if lookup.LookupType == 7 else sub
            if hasattr(sub, "mapping"):
                for source, target in sub.mapping.items():
                    mapping.setdefault(source, target)
    return mapping


def companion(source: TTFont, lang: str, bundled: set[int], name: str) -> TTFont:
    """The source face cut down to its vertical forms, each under the code point of the
    character it stands for (those the bundled face has), TrueType outlines, named ``name``."""
    cmap = source.getBestCmap()
    substitutions = vert_substitutions(source, lang)
    forms = {code: substitutions[glyph] for code, glyph in cmap.items()
             if code in bundled and code > 0x20 and glyph in substitutions}
    options = subset.Options()
    options.layout_features = []
    options.drop_tables = sorted(set(options.drop_tables) | {"GSUB", "GPOS", "GDEF", "BASE", "JSTF", "VORG"})
    options.desubroutinize = True
    options.notdef_outline = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 10, 13, 14]
    options.name_languages = [0x0409]
    options.name_legacy = False
    options.recalc_timestamp = False
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(glyphs=sorted(set(forms.values())))
    subsetter.subset(source)
    table = CmapSubtable.newSubtable(4)
    table.platformID, table.platEncID, table.language = 3, 1, 0
    table.cmap = dict(sorted(forms.items()))
    source["cmap"].tables = [table]
    otf_to_ttf(source)
    family = name.rsplit("-", 1)[0]
    for record in list(source["name"].names):
        if record.nameID in (1, 4, 6):
            record.string = {1: family, 4: name.replace("-", " "), 6: name}[record.nameID]
        elif record.nameID == 3:
            record.string = f"{name} (pnp)"
        elif record.nameID == 10:
            record.string = (f"The vertical forms (OpenType vert, {lang.strip()}) of {source_family(source)}, "
                             "under the characters they stand for; made by pnp's scripts/build_vertical_forms.py")
    return source


def source_family(font: TTFont) -> str:
    return str(font["name"].getDebugName(4))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--source-dir", type=Path, default=DEFAULT_SOURCE_DIR)
    parser.add_argument("--out-dir", type=Path, default=FACES_DIR)
    args = parser.parse_args(argv)
    for face, collection, family, lang in FACES:
        path = args.source_dir / collection
        index = next(i for i, f in enumerate(TTCollection(str(path), lazy=True).fonts)
                     if f["name"].getDebugName(1) == family)
        bundled = set(TTFont(str(FACES_DIR / f"{face}.ttf"), lazy=True).getBestCmap())
        font = companion(TTFont(str(path), fontNumber=index), lang, bundled, f"{face}{SUFFIX}")
        out = args.out_dir / f"{face}{SUFFIX}.ttf"
        font.recalcTimestamp = False  # the same source, the same bytes
        font.save(str(out))
        chars = "".join(chr(c) for c in sorted(font.getBestCmap()))
        print(f"{out.name}: {len(chars)} vertical forms: {chars}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
