"""The faces a game chose for its text roles (game.yaml ``fonts:``): found, checked, registered.

A face is named by family (``title: AR PL UKai TW``) or by a file in the workspace's own
fonts/ (``Workspace.own_fonts``; ``Workspace.fonts`` is where the default faces come from, the
bundled ones unless fonts/ holds a build of them). Nothing is read through a link out of the
workspace, and a look-up by family reads within :mod:`pnp.text.fontscan`'s limits.
A family is looked for in the workspace's fonts/, then among the default faces, then among
the system's fonts as fontconfig finds them (``fc-match``, the same search every program on
the machine makes), so a face installed with the system's packages (Debian's
``fonts-arphic-ukai``) needs no copying. TrueType faces and collections register as they are;
CFF-outlined OpenType faces are converted (:mod:`pnp.text.cffconvert`, cached).

With no choice made the script's family from :func:`pnp.text.fonts.load_family` is returned
unchanged, so every output stays as it was.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import re
import shutil
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from pnp.core import diskcache, files
from pnp.core.choices import FONT_ROLES
from pnp.core.errors import FontError, PnpError
from pnp.core.limits import MAX_FONT_BYTES
from pnp.core.records import record
from pnp.core.workspace import Workspace
from pnp.data.model import FontPick
from pnp.text.fontcheck import font_damage_cached
from pnp.text.fonts import FontFace, FontFamily, coverage

__all__ = ["FoundFace", "choose_fonts", "chosen_font_files", "faces_having", "elsewhere", "find_pick", "game_fonts"]

# A body face must print Chinese: one with fewer Han characters than this has none to speak of.
MIN_BODY_HAN = 1000
_FC_TIMEOUT = 30  # seconds: fontconfig builds its cache on a first run
_HAN = range(0x4E00, 0xA000)


@record
class FoundFace:
    """One face of a font file: the file, its index in a collection, the family it was found by."""

    path: Path
    index: int
    family: str
    source: str  # "fonts/", "bundled" or "fontconfig": where it was found, for messages


# -- looking a face up ------------------------------------------------------------------------

def own_fonts(workspace: Workspace, where: object) -> Path | None:
    """The workspace's own fonts/ folder, resolved, or None when it has none; a fonts/ that
    is a link out of the workspace is refused."""
    folder = workspace.own_fonts
    if not (folder.is_dir() or folder.is_symlink()):
        return None
    try:
        resolved = workspace.contained(folder, "the fonts/ folder")
    except PnpError as exc:
        raise FontError(f"{where}: {exc.message}") from None
    return resolved if resolved.is_dir() else None


def _in_folder(folder: Path, family: str, source: str,
               workspace: Workspace | None = None) -> tuple[FoundFace, FoundFace] | None:
    """The regular and bold (or regular again) faces of ``family`` among the files of ``folder``
    (the workspace's own, when ``workspace`` is given: a file there that links out of it is refused)."""
    if not folder.is_dir():
        return None
    from pnp.text import fontscan  # a look-up by family only: a build of named files never scans

    wanted = fontscan.normal(family)
    found: list[tuple[Path, fontscan.Entry]] = []
    faces = 0
    for path in fontscan.font_files(folder):
        if workspace is not None:
            try:
                path = workspace.contained(path, "a font file in fonts/")
            except PnpError as exc:
                raise FontError(exc.message) from None
        if not path.is_file():
            continue
        entries = fontscan.faces_of(path)
        faces += len(entries)
        if faces > fontscan.MAX_SCANNED_FACES:
            raise FontError(f"{folder}: more than {fontscan.MAX_SCANNED_FACES} font faces; pnp looks a family up "
                            f"among at most {fontscan.MAX_SCANNED_FACES}: name the face's file with `file:`")
        found += [(path, entry) for entry in entries if wanted in entry.names and not entry.italic]
    if not found:
        return None
    regular = min(found, key=lambda f: (f[1].bold, abs(f[1].weight - 400), str(f[0]), f[1].index))
    bolds = [f for f in found if f[1].bold]
    bold = min(bolds, key=lambda f: (abs(f[1].weight - 700), str(f[0]), f[1].index)) if bolds else regular
    return (FoundFace(regular[0], regular[1].index, family, source),
            FoundFace(bold[0], bold[1].index, family, source))


def _fc_escape(family: str) -> str:
    return re.sub(r"([\\\-:,])", r"\\\1", family)


def _fontconfig(args: Sequence[str]) -> str | None:
    """The output of a fontconfig program, or None when fontconfig is not installed."""
    exe = shutil.which(args[0])
    if exe is None:
        return None
    import subprocess  # only when fontconfig is asked: most builds find every face without it

    try:
        done = subprocess.run([exe, *args[1:]], capture_output=True, timeout=_FC_TIMEOUT, check=False)
    except (OSError, ValueError, subprocess.TimeoutExpired):  # ValueError: a NUL in an argument
        return None
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None


@cache
def _fc_match(family: str, weight: str) -> FoundFace | None:
    """fontconfig's best face for ``family`` at ``weight``, if it really is that family
    (fc-match always answers, with a fallback face when nothing has the name)."""
    out = _fontconfig(["fc-match", "-f", "%{file}\n%{index}\n%{family}\n%{fontformat}",
                       f"{_fc_escape(family)}:weight={weight}"])
    if not out:
        return None
    parts = out.split("\n")
    if len(parts) < 3 or not parts[1].strip().isdigit():
        return None
    from pnp.text.fontscan import normal

    families = {normal(name.replace("\\,", ",")) for name in re.split(r"(?<!\\),", parts[2])}
    if normal(family) not in families:
        return None
    return FoundFace(Path(parts[0]), int(parts[1]), family, "fontconfig")


def _system(family: str) -> tuple[FoundFace, FoundFace] | None:
    regular = _fc_match(family, "regular")
    if regular is None:
        return None
    bold = _fc_match(family, "bold")
    # fontconfig answers a bold request with the regular face (to be emboldened) when the
    # family has no bold: that face prints regular.
    return regular, bold if bold is not None else regular


@cache
def system_families() -> tuple[str, ...]:
    out = _fontconfig(["fc-list", "-f", "%{family}\n"]) or ""
    return tuple(sorted({name.strip() for line in out.splitlines() for name in re.split(r"(?<!\\),", line)
                         if name.strip()}))


def find_pick(pick: FontPick, workspace: Workspace, bundled_dir: Path) -> tuple[FoundFace, FoundFace]:
    """The regular and bold faces ``pick`` names: a file of the workspace's own fonts/, or a
    family looked for there, then in ``bundled_dir`` (where the default faces are), then
    through fontconfig; raises :class:`FontError` naming its line."""
    folder = own_fonts(workspace, pick.where)
    if pick.file:
        faces = []
        for name in (pick.file, pick.bold_file or pick.file):
            path = (workspace.own_fonts / name)
            if folder is not None and (path.exists() or path.is_symlink()):
                try:
                    path = workspace.contained(path, f"the font file {name!r}")
                except PnpError as exc:
                    raise FontError(f"{pick.where}: {exc.message}") from None
            if folder is None or not path.is_relative_to(folder) or not path.is_file():
                raise FontError(f"{pick.where}: no font file {name!r} in the workspace's fonts/ "
                                f"({workspace.own_fonts})")
            faces.append(FoundFace(path, 0, name, "fonts/"))
        return faces[0], faces[1]
    try:
        found = _in_folder(folder, pick.family, "fonts/", workspace) if folder is not None else None
        found = found or _in_folder(bundled_dir, pick.family, "bundled")
    except FontError as exc:
        raise FontError([f"{pick.where}: {problem}" for problem in exc.problems]) from None
    if found:
        return found
    found = _system(pick.family)
    if found:
        return found
    import difflib  # only for the message of a face not found

    close = difflib.get_close_matches(pick.family, system_families(), n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
    where_fc = "the system's fonts (fc-list)" if shutil.which("fc-list") else \
        "the system's fonts (fontconfig is not installed here: put the file in fonts/ and name it by `file:`)"
    raise FontError(f"{pick.where}: no font has the family name {pick.family!r}{hint}: looked in the "
                    f"workspace's fonts/, the bundled faces and {where_fc}; `fc-list : family` lists "
                    "the families this machine has")


# -- registering --------------------------------------------------------------------------------

_registered: dict[tuple[str, int], str] = {}
_lock = threading.Lock()


class _NamedBytes(io.BytesIO):
    """Converted font bytes that reportlab takes for the file they were made from."""

    def __init__(self, data: bytes, name: str) -> None:
        super().__init__(data)
        self.name = name


def _register(found: FoundFace, bold: bool, where: str, chosen: str) -> FontFace:
    from reportlab.pdfbase import pdfmetrics

    try:
        size = found.path.stat().st_size  # before reading: a huge file is never read whole
        if size > MAX_FONT_BYTES:
            raise FontError(f"{where}: the font {found.path} is {size // 2**20} MB; "
                            f"pnp reads fonts up to {MAX_FONT_BYTES // 2**20} MB")
        data = files.read_bytes(found.path, limit=MAX_FONT_BYTES)
    except OSError as exc:
        raise FontError(f"{where}: cannot read the font {found.path}: {exc}") from exc
    digest = hashlib.sha256(data).hexdigest()
    with _lock:
        name = _registered.get((digest, found.index))
        if name is None:
            damage = font_damage_cached(data, digest)
            if damage:
                raise FontError(f"{where}: {found.path} is not a font pnp can read ({damage})")
            # One name per face's bytes: reportlab keeps the first font registered by a name.
            name = f"Pick-{digest[:16]}-{found.index}"
            try:
                font = _parse(name, found, data)
            except FontError:
                raise
            except Exception as exc:  # hostile or broken bytes: any parse error is the file's
                raise FontError(f"{where}: {found.path} is not a font pnp can read "
                                f"({_reason(exc)})") from exc
            pdfmetrics.registerFont(font)
            _registered[(digest, found.index)] = name
    face = FontFace(name=name, path=found.path, bold=bold, chosen=chosen)
    try:
        coverage(face)  # read now, so a broken cmap is this line's error, not a crash mid-render
    except Exception as exc:
        raise FontError(f"{where}: {found.path} is not a font pnp can read ({_reason(exc)})") from exc
    return face


def _reason(exc: BaseException) -> str:
    """What went wrong, even for an exception with no text (a failed assertion in a parser)."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else f"{type(exc).__name__} while parsing it"


def _parse(name: str, found: FoundFace, data: bytes) -> Any:
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    from pnp.text import cffconvert

    try:
        return TTFont(name, str(found.path), subfontIndex=found.index)
    except TTFError as exc:
        if "postscript outlines" not in str(exc):
            raise
    converted = cffconvert.truetype_bytes(found.path, found.index, data)
    return TTFont(name, _NamedBytes(converted, str(found.path)))


def _family(role: str, faces: tuple[FoundFace, FoundFace], lang: str, where: str) -> FontFamily:
    from reportlab.pdfbase import pdfmetrics

    chosen = [f"{face.family!r} (chosen for {role} at {where})" for face in faces]
    regular = _register(faces[0], False, where, chosen[0])
    bold = _register(faces[1], True, where, chosen[1]) if faces[1] != faces[0] else \
        dataclasses.replace(regular, bold=True)
    family = FontFamily(regular=regular, bold=bold, lang=lang)
    pdfmetrics.registerFontFamily(family.family_name, normal=regular.name, bold=bold.name,
                                  italic=regular.name, boldItalic=bold.name)
    if role == "body":
        for found, face in zip(faces, (regular, bold), strict=True):
            han = sum(1 for code in coverage(face) if code in _HAN)
            if han < MIN_BODY_HAN:
                raise FontError(f"{where}: {found.family!r} ({found.path}) has {han} Chinese characters; "
                                "the body text needs a Chinese face, bold too: give this face to `title:` or "
                                "`numbers:`, or choose a Chinese face for `body:`")
    return family


def choose_fonts(default: FontFamily, picks: Sequence[FontPick], workspace: Workspace) -> FontFamily:
    """The game's families: ``default`` (the script's bundled faces, from load_family) for
    every role the game gives no face, the chosen faces for the rest. The body's family is
    returned; the others hang from it (:meth:`FontFamily.role`). Every problem is raised at
    once, each naming its game.yaml line."""
    if not picks:
        return default
    bundled_dir = default.regular.path.parent
    families: dict[str, FontFamily] = {}
    problems: list[Any] = []
    for pick in picks:
        try:
            families[pick.role] = _family(pick.role, find_pick(pick, workspace, bundled_dir),
                                          default.lang, pick.where)
        except FontError as exc:
            problems.extend(exc.records)
    if problems:
        raise FontError(problems)
    body = families.get("body", default)
    roles = tuple((role, families[role]) for role in FONT_ROLES if role in families and role != "body")
    return dataclasses.replace(body, roles=roles)


def chosen_font_files(game_yaml: Path, workspace: Workspace, bundled_dir: Path) -> list[Path]:
    """The files the faces game.yaml chooses resolve to now, for the build record: a face
    that changes, or a name that now finds another file, rebuilds. game.yaml is read for its
    ``fonts:`` alone; a problem in it, or a pick that finds nothing, adds nothing (the build
    says why)."""
    try:
        stamp = game_yaml.stat()
    except OSError:
        return []
    files: list[Path] = []
    for pick in _picks_of(game_yaml, diskcache.file_stamp(stamp)):
        try:
            files += [face.path for face in find_pick(pick, workspace, bundled_dir)]
        except FontError:
            continue
    return list(dict.fromkeys(files))


@cache
def _picks_of(game_yaml: Path, stamp: diskcache.FileStamp) -> tuple[FontPick, ...]:
    """game.yaml's ``fonts:`` (read once per version of the file: its ``stamp``)."""
    from pnp.core.errors import DataError
    from pnp.data.gameinfo import read_font_picks
    from pnp.data.schema import Problems, Reader
    from pnp.data.textfile import read_text
    from pnp.data.yamlmarks import load_yaml

    try:
        text = read_text(game_yaml)
        # Most game.yaml choose no face, and parsing one with its marks cost every build 1-3 ms
        # a game: a key can be "fonts" only if the text spells it, or escapes a character
        # ("\x66onts" in double quotes), so any other text is not parsed.
        if "fonts" not in text and "\\" not in text:
            return ()
        doc = load_yaml(game_yaml)
    except (DataError, OSError):
        return ()
    top = doc.value if isinstance(doc.value, dict) else {}
    if "fonts" not in top:
        return ()
    return read_font_picks(Reader(doc, Problems()), top["fonts"])


@cache
def faces_having(ch: str, limit: int = 3) -> tuple[str, ...]:
    """Families on this machine, as fontconfig lists them, that have ``ch``."""
    out = _fontconfig(["fc-list", "-f", "%{family[0]}\n", f":charset={ord(ch):x}"]) or ""
    return tuple(sorted({line.strip() for line in out.splitlines() if line.strip()}))[:limit]


def game_fonts(workspace: Workspace, lang: str, picks: Sequence[FontPick]) -> FontFamily:
    """The script's faces (:func:`pnp.text.fonts.load_family`, from ``workspace.fonts``: the
    bundled faces or the workspace's own build of them) with the game's choices made (found in
    the workspace's own fonts/, ``workspace.own_fonts``, and beyond)."""
    from pnp.text.fonts import load_family

    return choose_fonts(load_family(workspace.fonts, lang), picks, workspace)


def elsewhere(ch: str) -> str:
    """The faces on this machine that have ``ch`` (fontconfig), one of which game.yaml
    ``fonts:`` can name, as the end of a missing-glyph message; empty when none has it."""
    faces = faces_having(ch)
    if not faces:
        return ""
    return f"; or print it in a face that has it (here: {', '.join(faces)}), named in game.yaml `fonts:`"
