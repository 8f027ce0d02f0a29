"""The CJK fonts at run time: register them with reportlab and check text against them.

The fonts are pre-built TrueType subsets of Noto Sans CJK (see pnp/core/faces/README.md), made
by ``python scripts/build_fonts.py`` and installed with pnp; a workspace's own fonts/ may hold
its own build of them (pnp.core.workspace.Workspace.fonts picks the folder). A character
outside them would print as a blank box with no error from reportlab, so every string must be
checked with :func:`missing_characters` before it is drawn.
"""

from __future__ import annotations

import struct
import threading
import unicodedata
from collections.abc import Callable
from functools import cache
from itertools import compress
from pathlib import Path
from typing import Any

from pnp.core import files
from pnp.core.errors import FontError
from pnp.core.limits import MAX_FONT_BYTES
from pnp.core.records import record
from pnp.text import reportlab_fonts
from pnp.text.fontcheck import font_damage_cached, known_sound
from pnp.text.fontfile import FontFile, Reader
from pnp.text.linetypes import ICON

__all__ = [
    "BUILD_COMMAND",
    "EXTRA_CHARS_FILE",
    "FACE_FILES",
    "FontFace",
    "FontFamily",
    "MISSING_GLYPH_ADVICE",
    "after_registering",
    "check_text",
    "coverage",
    "describe_missing",
    "load_family",
    "measure_for",
    "missing_characters",
    "squeeze_for",
    "kern_for",
]

BUILD_COMMAND = "python scripts/build_fonts.py"
EXTRA_CHARS_FILE = "pnp/core/faces/extra-chars.txt"
# What a designer with only the installed package can do about a character the faces lack: the
# build script and its character list are in pnp's source (the sdist holds them too).
MISSING_GLYPH_ADVICE = (
    "use another character, or give the workspace a fonts/ folder with a build of the faces that "
    f"has it ({BUILD_COMMAND} --extra-chars FILE --out-dir fonts, from pnp's source; see "
    "pnp/core/faces/README.md there)"
)

# lang -> (regular file, bold file). zh-Hant must use the TC faces and zh-Hans the SC faces:
# they draw many shared code points differently (骨 角 述 草 ...) and place ，。 differently.
FACE_FILES: dict[str, tuple[str, str]] = {
    "zh-Hant": ("PnpSansTC-Regular.ttf", "PnpSansTC-Bold.ttf"),
    "zh-Hans": ("PnpSansSC-Regular.ttf", "PnpSansSC-Bold.ttf"),
}

# Characters that are never drawn as glyphs, so a font need not have them.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
_VARIATION_SELECTORS = frozenset(range(0xFE00, 0xFE10)) | frozenset(range(0xE0100, 0xE01F0))


@record
class FontFace:
    """One registered font file; ``name`` is both its reportlab name and its PostScript name."""

    name: str
    path: Path
    bold: bool
    # For a face game.yaml chose (pnp.text.fontchoice): how messages name it, with its line.
    chosen: str = ""

    @property
    def shown(self) -> str:
        """The face as a message names it: the designer's choice, else its PostScript name."""
        return self.chosen or self.name

    @property
    def advice(self) -> str:
        """What to do about a character the face lacks."""
        if self.chosen:
            return "use another character, or choose a face that has it in game.yaml `fonts:`"
        return MISSING_GLYPH_ADVICE


@record
class FontFamily:
    """The regular and bold faces for one written language (``zh-Hant`` or ``zh-Hans``)."""

    regular: FontFace
    bold: FontFace
    lang: str
    # The families of the text roles a game gave faces of their own (pnp.text.fontchoice);
    # a role not listed prints in this family.
    roles: tuple[tuple[str, FontFamily], ...] = ()

    def role(self, name: str) -> FontFamily:
        """The family text of role ``name`` (``title``, ``body``, ``numbers``) prints in."""
        return next((family for role, family in self.roles if role == name), self)

    @property
    def family_name(self) -> str:
        """The name registered with ``registerFontFamily`` (e.g. ``PnpSansTC``)."""
        return self.regular.name.rsplit("-", 1)[0]

    def face(self, bold: bool = False) -> FontFace:
        return self.bold if bold else self.regular


_families: dict[tuple[Path, str], FontFamily] = {}
_lock = threading.Lock()
_after_registering: list[Callable[[], None]] = []


def _regenerate_hint() -> str:
    # The faces are installed with pnp; a workspace's fonts/ that holds any of them holds its own
    # build, which must be whole (Workspace.fonts).
    return ("a workspace's fonts/ that holds any PnpSans face must hold all four; remove them "
            f"from it to use the faces installed with pnp (or reinstall pnp), or run {BUILD_COMMAND} "
            "--out-dir fonts from pnp's source to rebuild them")


def load_family(fonts_dir: Path, lang: str) -> FontFamily:
    """Register the regular and bold faces for ``lang`` with reportlab, once per process.

    Calling it again with the same (resolved) folder and language returns the same object
    without touching reportlab. Raises :class:`FontError` for an unknown language, a missing
    or unreadable file, or a file whose PostScript name is not the expected one.
    """
    from reportlab.pdfbase import pdfmetrics  # reportlab loads when fonts are first needed

    key = (Path(fonts_dir).resolve(), lang)
    with _lock:
        cached = _families.get(key)
        if cached is not None:
            return cached
        if lang not in FACE_FILES:
            known = ", ".join(sorted(FACE_FILES))
            raise FontError(f"no fonts for language {lang!r} (known: {known})")
        folder = key[0]
        regular_file, bold_file = FACE_FILES[lang]
        paths = [folder / regular_file, folder / bold_file]
        missing = [f"font file {p} is missing; {_regenerate_hint()}" for p in paths if not p.is_file()]
        if missing:
            raise FontError(missing)
        regular = _register(paths[0], bold=False)
        bold = _register(paths[1], bold=True)
        family = FontFamily(regular=regular, bold=bold, lang=lang)
        pdfmetrics.registerFontFamily(
            family.family_name,
            normal=regular.name,
            bold=bold.name,
            italic=regular.name,
            boldItalic=bold.name,
        )
        _families[key] = family
        for hook in _after_registering:
            hook()
        return family


def after_registering(hook: Callable[[], None]) -> None:
    """Call ``hook`` each time :func:`load_family` has registered a new family, before it
    returns (a hook given again is not added twice). This is where the program that uses
    pnp does what it wants done then to the whole process (the command line freezes the
    garbage collector: pnp.cli.process); pnp itself changes no process-wide setting."""
    with _lock:
        if hook not in _after_registering:
            _after_registering.append(hook)


def _register(path: Path, bold: bool) -> FontFace:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError

    name = path.stem  # the build script names each file after its PostScript name
    registered = reportlab_fonts.registered(name)
    if registered is not None:
        other = Path(getattr(registered.face, "filename", "")).resolve()
        if other != path and not _same_bytes(other, path):
            raise FontError(
                f"font {name} is already registered from {other}; cannot also use {path} "
                "(reportlab keeps the first font of a name)"
            )
        return FontFace(name=name, path=path, bold=bold)
    try:
        font = _parse(name, path)
    except FontError:
        raise
    except (TTFError, OSError) as exc:
        raise FontError(f"cannot read font {path}: {exc}; {_regenerate_hint()}") from exc
    except Exception as exc:  # noqa: BLE001 - damage the checksums could not see is the file's too
        raise FontError(f"cannot read font {path}: {type(exc).__name__}: {exc}; {_regenerate_hint()}") from exc
    ps_name = font.face.name.decode("latin-1") if isinstance(font.face.name, bytes) else font.face.name
    if ps_name != name:
        # reportlab would silently reuse another font registered under the same PS name.
        raise FontError(f"font {path} has PostScript name {ps_name!r}, expected {name!r}; {_regenerate_hint()}")
    pdfmetrics.registerFont(font)
    return FontFace(name=name, path=path, bold=bold)


def _parse(name: str, path: Path) -> Any:
    """reportlab's TTFont for ``path``, from the disk cache of parsed faces when pnp has one
    for these exact bytes (:mod:`pnp.text.fontcache`), else parsed and then cached.

    When pnp remembers the file's hash for its stamp and has found those bytes sound, the file
    is not read here: the face reads it when its bytes are first needed (:mod:`pnp.text.fontfile`)."""
    from reportlab.pdfbase.ttfonts import TTFont

    from pnp.core import diskcache
    from pnp.text import fontcache

    remembered = diskcache.remembered_sha256(path)
    if remembered is not None and known_sound(remembered[0]):
        state = fontcache.load(remembered[0])
        if state is not None:
            files.confined(path)  # what reading it would refuse: a link out of the workspace
            font = reportlab_fonts.font_from_parse(name, path, None, state, fontcache.CachedFace)
            font.face.digest = remembered[0]
            font.face.source = FontFile(path, *remembered)
            return font
    before = diskcache.file_stamp(path.stat())
    data = files.read_bytes(path, limit=MAX_FONT_BYTES)
    digest = diskcache.file_sha256(path, data, read_under=before)
    damage = font_damage_cached(data, digest)
    if damage:  # a truncated face fails in reportlab's parser; one with flipped bytes parses
        raise FontError(f"the font {path} is damaged: {damage}; {_regenerate_hint()}")
    state = fontcache.load(digest)
    if state is not None:
        font = reportlab_fonts.font_from_parse(name, path, data, state, fontcache.CachedFace)
        font.face.digest = digest  # names the font in the cache of its subsets
        return font
    font = TTFont(name, str(path))
    if reportlab_fonts.file_bytes(font.face) == data:  # the file did not change between the two reads
        fontcache.store(digest, font.face)
    return font


def _same_bytes(a: Path, b: Path) -> bool:
    try:
        return a.stat().st_size == b.stat().st_size and a.read_bytes() == b.read_bytes()
    except OSError:
        return False


@cache
def coverage(face: FontFace) -> frozenset[int]:
    """The code points the face's cmap maps to a glyph (read once per face)."""
    registered = reportlab_fonts.registered(face.name)
    if registered is not None and Path(getattr(registered.face, "filename", "")).resolve() == face.path.resolve():
        # reportlab has parsed this cmap already; fontTools would take half a second more.
        # Its table also lists the format-4 end marker U+FFFF, mapped to glyph 0 (.notdef).
        mapping = registered.face.charToGlyph
        return frozenset(compress(mapping, mapping.values()))  # the codes whose glyph is not 0
    # Imported only here: fontTools costs a quarter of a second to import, which a build
    # (whose faces reportlab has registered) never needs.
    from fontTools.ttLib import TTFont as _ToolsFont
    from fontTools.ttLib import TTLibError

    try:
        font = _ToolsFont(str(face.path), lazy=True)
    except (OSError, TTLibError) as exc:
        raise FontError(f"cannot read font {face.path}: {exc}; {_regenerate_hint()}") from exc
    try:
        cmap = font.getBestCmap() or {}
        return frozenset(cmap)
    except Exception as exc:  # a damaged cmap (hostile bytes): any decoding error is the file's
        raise FontError(f"cannot read font {face.path}: {type(exc).__name__}: {exc}") from exc
    finally:
        font.close()


def _needs_glyph(ch: str) -> bool:
    if ch.isspace() or ord(ch) in _VARIATION_SELECTORS:
        return False
    return unicodedata.category(ch) not in _INVISIBLE_CATEGORIES


def missing_characters(text: str, face: FontFace) -> list[str]:
    """Distinct characters of ``text`` the face cannot draw, in order of first appearance.

    Whitespace, control and format characters (``\\n``, ``\\t``, spaces, U+200B ...) and
    variation selectors are ignored: they are never drawn as glyphs.
    """
    codes = coverage(face)
    absent = {ch for ch in set(text) if ord(ch) not in codes}
    if not absent:
        return []  # nearly always: one set difference instead of a look-up per character
    missing: dict[str, None] = {}
    for ch in text:
        if ch in absent and ch not in missing and _needs_glyph(ch):
            missing[ch] = None
    return list(missing)


def describe_missing(ch: str, where: str, face: FontFace | str) -> str:
    """One problem line for a character the face lacks, saying how to add it."""
    face_name = face.shown if isinstance(face, FontFace) else face
    advice = face.advice if isinstance(face, FontFace) else MISSING_GLYPH_ADVICE
    return f"{where}: character {ch!r} (U+{ord(ch):04X}) is not in the font {face_name}; {advice}"


def check_text(text: str, face: FontFace, where: str) -> list[str]:
    """Problem lines (see :func:`describe_missing`) for every character ``face`` lacks."""
    return [describe_missing(ch, where, face) for ch in missing_characters(text, face)]


# Full-width punctuation whose blank side may be given up when a justified line needs room.
# ！ and ？ keep their space: squeezed, they crowd the next sentence.
_SQUEEZABLE = "，。、；：「」『』（）《》〈〉【】〔〕“”‘’"
# Blank a squeezed mark always keeps on each side, and the most it gives up in all, in ems.
_SQUEEZE_KEEP = 0.06
_SQUEEZE_MAX = 0.5
# Punctuation compression (JIS X 4051, clreq): a closing mark followed by a closing or an
# opening mark, or an opening mark followed by an opening mark, close up by the blank half of
# one of them (at most _PAIR_CUT em in all, never more than the sides facing each other have).
_OPENING = "「『（《〈【〔“‘"
_CLOSING = "，。、；：」』）》〉】〕”’"
_DIVIDING = "？！"  # a closing mark before them closes up too; they give nothing themselves
_PAIR_CUT = 0.5


def measure_for(family: FontFamily) -> Callable[[str, bool, float], float]:
    """``measure(text, bold, size)``: advance width in points, as reportlab will draw it; an
    inline icon (:data:`pnp.text.linetypes.ICON`) is one em."""
    return _measures(family)


@cache
def _measures(family: FontFamily) -> Callable[[str, bool, float], float]:
    from reportlab.pdfbase import pdfmetrics

    # pdfmetrics.stringWidth(text, name, size) is getFont(name).stringWidth(text, size): the
    # registered fonts' own methods give the same widths without the lookup on every call.
    widths = {False: pdfmetrics.getFont(family.regular.name).stringWidth,
              True: pdfmetrics.getFont(family.bold.name).stringWidth}

    def measure(text: str, is_bold: bool, size: float) -> float:
        if ICON in text:  # an inline icon is one em wide, whatever the face
            return float(widths[is_bold](text.replace(ICON, ""), size)) + text.count(ICON) * size
        return float(widths[is_bold](text, size))

    return measure


@cache
def squeeze_for(family: FontFamily) -> Callable[[str, bool], tuple[float, float]]:
    """``squeeze(ch, bold) -> (left, right)``: the blank, in ems, each side of a full-width
    punctuation mark may give up, read from the glyph's outline (a zh-Hant face centres
    ，。 where a zh-Hans face sets them to the left, so the blank side differs)."""
    table = _squeeze_tables(family)

    def squeeze(ch: str, bold: bool) -> tuple[float, float]:
        return table[bold].get(ch, (0.0, 0.0))

    # Line breaking asks only about these (see pnp.text.linetypes.Squeeze).
    squeeze.marks = frozenset(table[False]) | frozenset(table[True])  # type: ignore[attr-defined]
    return squeeze


@cache
def kern_for(family: FontFamily) -> Callable[[str, bool, str, bool], tuple[float, float]]:
    """``kern(a, a_bold, b, b_bold) -> (a_right, b_left)``: the blank, in ems, two adjacent
    full-width marks give up between them (see pnp.text.linetypes.Kern): taken from the first
    mark's right side, then from the second's left, out of what :func:`squeeze_for` says each
    side may give. In a zh-Hans face 」， closes up by half an em (the bracket set half
    width); in a zh-Hant face, whose ，。 are centred, 。」 closes up by the quarter em the
    centred mark has on its right."""
    table = _squeeze_tables(family)

    def kern(a: str, a_bold: bool, b: str, b_bold: bool) -> tuple[float, float]:
        if not ((a in _CLOSING and (b in _CLOSING or b in _OPENING or b in _DIVIDING))
                or (a in _OPENING and b in _OPENING)):
            return (0.0, 0.0)
        a_right = min(_PAIR_CUT, table[a_bold].get(a, (0.0, 0.0))[1])
        b_left = min(_PAIR_CUT - a_right, table[b_bold].get(b, (0.0, 0.0))[0])
        return (a_right, b_left)

    kern.marks = frozenset(table[False]) | frozenset(table[True]) | frozenset(_DIVIDING)  # type: ignore[attr-defined]
    return kern


@cache
def _squeeze_tables(family: FontFamily) -> dict[bool, dict[str, tuple[float, float]]]:
    return {False: _squeeze_table(family.regular), True: _squeeze_table(family.bold)}


def _squeeze_table(face: FontFace) -> dict[str, tuple[float, float]]:
    """Ink extents of the squeezable marks, read from the raw 'glyf' headers with the table
    directory reportlab has already read (decompiling the font's cmap with fontTools would
    cost half a second per face); a face from the disk cache reads just those bytes."""
    from reportlab.pdfbase import pdfmetrics

    parsed = pdfmetrics.getFont(face.name).face
    try:
        tables = {tag: (parsed.table[tag]["offset"], parsed.table[tag]["length"]) for tag in ("head", "loca", "glyf")}
    except KeyError as exc:
        raise FontError(f"cannot read font {face.path}: no {exc} table; {_regenerate_hint()}") from exc
    return reportlab_fonts.read_parts(parsed, lambda read: _ink_extents(parsed, _TableReader(tables, read)))


class _TableReader:
    """Bytes of a face's tables, by table and offset in it; reading past a table's end is the
    ``struct.error`` unpacking the table's own bytes there would be."""

    def __init__(self, tables: dict[str, tuple[int, int]], read: Reader) -> None:
        self.tables = tables
        self.read = read

    def unpack(self, fmt: str, tag: str, at: int) -> tuple[int, ...]:
        offset, length = self.tables[tag]
        size = struct.calcsize(fmt)
        if at < 0 or at + size > length:
            raise struct.error(f"unpack_from requires a buffer of at least {at + size} bytes")
        return struct.unpack(fmt, self.read(offset + at, size))


def _ink_extents(parsed: Any, tables: _TableReader) -> dict[str, tuple[float, float]]:
    upm = tables.unpack(">H", "head", 18)[0]
    long_offsets = tables.unpack(">h", "head", 50)[0] == 1
    table: dict[str, tuple[float, float]] = {}
    for ch in _SQUEEZABLE:
        gid = parsed.charToGlyph.get(ord(ch))
        if gid is None or parsed.charWidths.get(ord(ch)) != 1000:
            continue  # absent, or proportional: nothing to take
        if long_offsets:
            start, end = tables.unpack(">II", "loca", 4 * gid)
        else:
            start, end = (2 * v for v in tables.unpack(">HH", "loca", 2 * gid))
        if end - start < 10:
            continue  # no outline
        x_min, _, x_max = tables.unpack(">hhh", "glyf", start + 2)
        left = max(0.0, x_min / upm - _SQUEEZE_KEEP)
        right = max(0.0, (upm - x_max) / upm - _SQUEEZE_KEEP)
        scale = min(1.0, _SQUEEZE_MAX / (left + right)) if left + right > 0 else 0.0
        table[ch] = (left * scale, right * scale)
    return table

