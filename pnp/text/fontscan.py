"""The family names of the font files in a folder, read cheaply and within limits, so that a
hostile fonts/ folder cannot make a family look-up take minutes.

Only what a look-up needs is read: a collection's header (its face count, checked before any
face is opened), then each face's table directory and its ``name`` and ``OS/2`` tables
(fontTools, lazily: no outlines, no cmap). The limits (README "Fonts of your choice"):

- a file over :data:`MAX_FONT_BYTES` is not read;
- a collection (.ttc/.otc) of more than :data:`MAX_COLLECTION_FACES` faces is refused;
- at most :data:`MAX_SCANNED_FILES` font files of a folder are looked at, and at most
  :data:`MAX_SCANNED_FACES` faces in all: beyond that the look-up is refused and the
  designer names the file with ``file:``.
"""

from __future__ import annotations

import os
import struct
from functools import cache
from pathlib import Path

from pnp.core import diskcache
from pnp.core.choices import FONT_SUFFIXES
from pnp.core.errors import FontError
from pnp.core.limits import MAX_FONT_BYTES
from pnp.core.records import record

MAX_COLLECTION_FACES = 64  # Noto's CJK collections hold 10 faces, AR PL UKai 4
MAX_SCANNED_FILES = 200
MAX_SCANNED_FACES = 1000
# Folder entries listed before giving up (a folder of a million non-font files is refused too).
MAX_FOLDER_ENTRIES = 10_000
_COLLECTIONS = (".ttc", ".otc")


@record
class Entry:
    """One face of a font file, with the names it can be looked up by."""

    index: int
    names: frozenset[str]
    bold: bool
    italic: bool
    weight: int


def normal(name: str) -> str:
    return " ".join(name.lower().split())


def font_files(folder: Path) -> list[Path]:
    """The font files of ``folder`` (by suffix), sorted; refused past the limits."""
    found: list[Path] = []
    with os.scandir(folder) as entries:
        for count, entry in enumerate(entries):
            if count >= MAX_FOLDER_ENTRIES:
                raise FontError(f"{folder}: more than {MAX_FOLDER_ENTRIES:,} entries; pnp looks a family up "
                                "in a folder of fonts only: name the face's file with `file:`")
            if entry.name.lower().endswith(FONT_SUFFIXES):
                found.append(Path(entry.path))
                if len(found) > MAX_SCANNED_FILES:
                    raise FontError(f"{folder}: more than {MAX_SCANNED_FILES} font files; pnp looks a family "
                                    f"up among at most {MAX_SCANNED_FILES}: name the face's file with `file:`")
    return sorted(found)


def faces_of(path: Path) -> tuple[Entry, ...]:
    """The faces of one font file with their names; nothing for a file that is not a font.
    Raises :class:`FontError` for a collection over the limit."""
    try:
        stamp = path.stat()
    except OSError:
        return ()
    return _faces_stamped(path, diskcache.file_stamp(stamp))


def collection_size(path: Path) -> int:
    """How many faces a collection file says it holds (1 for a single face); 0 when unreadable."""
    if path.suffix.lower() not in _COLLECTIONS:
        return 1
    try:
        with path.open("rb") as handle:
            head = handle.read(12)
    except OSError:
        return 0
    if len(head) < 12 or head[:4] != b"ttcf":
        return 0
    return int(struct.unpack(">I", head[8:12])[0])


@cache
def _faces_stamped(path: Path, stamp: diskcache.FileStamp) -> tuple[Entry, ...]:
    from fontTools.ttLib import TTFont

    if stamp[0] > MAX_FONT_BYTES:  # its size
        return ()
    count = collection_size(path)
    if count > MAX_COLLECTION_FACES:
        raise FontError(f"{path}: a collection of {count:,} faces; pnp reads collections of at most "
                        f"{MAX_COLLECTION_FACES} faces")
    entries = []
    for index in range(count):
        try:
            font = TTFont(str(path), fontNumber=index if path.suffix.lower() in _COLLECTIONS else -1, lazy=True)
            try:
                names = {normal(str(record.toUnicode())) for record in font["name"].names
                         if record.nameID in (1, 4, 6, 16) and record.langID in (0, 0x409)}
                os2 = font.get("OS/2")
            finally:
                font.close()
        except Exception:  # a face that is not a font names no family; a pick by file says why
            continue
        selection = getattr(os2, "fsSelection", 0)
        weight = getattr(os2, "usWeightClass", 400)
        entries.append(Entry(index, frozenset(names), bool(selection & 0x20) or weight >= 600,
                             bool(selection & 0x01), weight))
    return tuple(entries)
