"""The printed-text findings of ``pnp check``: how each printed text reads in both scripts.

Every text that reaches paper (:mod:`pnp.check.printed`) is linted for typography, read for
conversion slips (:mod:`pnp.check.conversion`) and for a float printed where a whole number
belongs, then converted to each script and held against it: a character only the other script
uses (``purity``) or one the script's printing face lacks (``glyph``, the bold face for a bold
text) is reported once per character and place.
"""

from __future__ import annotations

from pnp.check.conversion import PrintedText, conversion_findings
from pnp.check.literals import FLOAT_NUMBER
from pnp.check.places import GamePlaces
from pnp.check.printed import TextItem, book_texts, printed_texts
from pnp.check.report import CheckFinding
from pnp.core.choices import LANGS
from pnp.core.errors import DataError
from pnp.core.workspace import Workspace
from pnp.data.load import GLOSSARY_FILE
from pnp.data.model import Game
from pnp.data.scripts import foreign_characters
from pnp.text import typography
from pnp.text.convert import converter_for
from pnp.text.fontchoice import elsewhere, game_fonts
from pnp.text.fonts import FontFace, FontFamily, missing_characters


def text_findings(workspace: Workspace, game: Game, places: GamePlaces) -> list[CheckFinding]:
    items = [TextItem(i.text, places.rel(i.where), i.bold, i.role) for i in printed_texts(game)]
    items += book_texts(workspace, game, places)
    findings = [CheckFinding("typography", p.code, p.message, p.where, p.extra)
                for p in typography.lint((i.text, i.where) for i in items)]
    findings += conversion_findings(game, [PrintedText(i.text, i.where) for i in items],
                                    places.rel(str(places.game_dir / GLOSSARY_FILE)), places.rel)
    floats: set[tuple[str, str, str]] = set()  # a card's text is in the rulebook too: one finding
    for item in items:  # a float where a whole number belongs, whatever produced it
        for match in FLOAT_NUMBER.finditer(item.text):
            if (match[0], item.text, str(item.where)) in floats:
                continue
            floats.add((match[0], item.text, str(item.where)))
            findings.append(CheckFinding(
                "literal", "float-number",
                f"{match[0]!r} in {_excerpt(item.text, match[0][0], 12)!r} prints a whole number "
                "as a decimal: the value behind it is a float where an integer belongs",
                item.where, {"number": match[0]}))
    for lang in LANGS:
        convert = converter_for(game, lang)
        try:
            family: FontFamily | None = game_fonts(workspace, lang, game.info.fonts)
        except DataError as exc:
            family = None
            findings.extend(CheckFinding("engine", "font-unavailable", places.rel(str(p)), "",
                                         {"lang": lang}, places.problem(p)) for p in exc.records)
        seen: set[tuple[str, str, str]] = set()
        for item in items:
            text = convert(item.text)
            for ch in foreign_characters(text, lang):
                if ("purity", ch, item.where) in seen:
                    continue
                seen.add(("purity", ch, item.where))
                other = "Simplified" if lang == "zh-Hant" else "Traditional"
                findings.append(CheckFinding(
                    "purity", "foreign-character",
                    f"{ch!r} (U+{ord(ch):04X}) is {other}-only, in the {lang} text "
                    f"{_excerpt(text, ch)!r}", item.where,
                    {"lang": lang, "char": ch, "codepoint": f"U+{ord(ch):04X}"}))
            if family is None:
                continue
            printing = family.role(item.role)  # the face game.yaml gives the text's role
            faces = [printing.regular, printing.bold] if item.bold else [printing.regular]
            lacking: dict[str, list[FontFace]] = {}
            for face in faces:
                for ch in missing_characters(text, face):
                    lacking.setdefault(ch, []).append(face)
            for ch, lacking_faces in lacking.items():
                names = [face.name for face in lacking_faces]
                if ("glyph", ch, item.where) in seen:
                    continue
                seen.add(("glyph", ch, item.where))
                findings.append(CheckFinding(
                    "glyph", "missing-glyph",
                    f"character {ch!r} (U+{ord(ch):04X}) is not in the font "
                    f"{' / '.join(dict.fromkeys(face.shown for face in lacking_faces))} "
                    f"({lang}); {lacking_faces[0].advice}{elsewhere(ch)}", item.where,
                    {"lang": lang, "char": ch, "codepoint": f"U+{ord(ch):04X}", "faces": names}))
    return findings


def _excerpt(text: str, ch: str, span: int = 12) -> str:
    at = text.index(ch)
    start = max(0, at - span)
    return ("…" if start else "") + text[start:at + span + 1].strip() + \
        ("…" if at + span + 1 < len(text) else "")
