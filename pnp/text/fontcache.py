"""A disk cache of reportlab's parsed TrueType faces, so a new process skips re-parsing them.

reportlab reads the cmap and the horizontal metrics of every face it registers, in pure
Python: about 80 ms for each of pnp's 17,000-glyph faces, paid again by every ``pnp build``.
What it extracts is plain data (numbers, names, the table directory), kept here one file per
font: a JSON header, then the per-glyph tables as packed integers. An entry is named after
the SHA-256 of the font's bytes together with reportlab's version and this format's version:
an edited or regenerated font, or another reportlab, finds no entry and is parsed again.

Entries are signed files of :mod:`pnp.core.diskcache`, under ``fonts/`` in pnp's cache folder:
only an entry pnp wrote is read; anything else and the font is parsed as before. Nothing in
an entry is code (no pickle): JSON and arrays of integers, and the payload repeats the font's
hash.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import sys
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from reportlab.pdfbase.ttfonts import TTFontFace

from pnp.core import diskcache
from pnp.text import reportlab_fonts, subsetcache
from pnp.text.fontfile import FontFile, Reader

log = logging.getLogger(__name__)

AREA = "fonts"
# 5: charWidths as its characters, the width most of them have, and the others' (a CJK face's
# 17,000 characters are nearly all one em wide: restored with dict.fromkeys, a third the work).
FORMAT = 5
# Faces bigger than this are not what pnp ships; parse them without caching.
_MAX_ENTRY = 64 * 1024 * 1024


def _reportlab_version() -> str:
    import reportlab

    return str(reportlab.Version)


def entry_name(font_digest: str) -> str:
    """The file name of a font's entry: its bytes, reportlab's version and this format."""
    key = f"{font_digest}\0{_reportlab_version()}\0{FORMAT}".encode()
    return hashlib.sha256(key).hexdigest() + ".face"


def _encode(value: Any) -> Any:
    """Plain data as JSON; tuples, bytes, name strings and dicts with any keys tagged."""
    from reportlab.pdfbase.ttfonts import TTFNameBytes

    if isinstance(value, TTFNameBytes):
        return {"n": value.ustr}
    if isinstance(value, bytes):
        return {"b": value.decode("latin-1")}
    if isinstance(value, tuple):
        return {"t": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {"d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"cannot cache a {type(value).__name__}")


def _decode(value: Any) -> Any:
    from reportlab.pdfbase.ttfonts import TTFNameBytes

    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        (tag, inner), = value.items()
        if tag == "n":
            return TTFNameBytes(inner.encode("utf-8"), "utf-8")
        if tag == "b":
            return inner.encode("latin-1")
        if tag == "t":
            return tuple(_decode(v) for v in inner)
        if tag == "d":
            return {_decode(k): _decode(v) for k, v in inner}
        raise ValueError(f"unknown tag {tag!r}")
    return value


_TYPECODES = ("i", "q")  # 32- and 64-bit signed


def _ints(values: list[Any]) -> array[Any] | None:
    """Whole numbers as a compact array, or None when some are not ints (kept as JSON then)."""
    # One pass in C over the types (bools and floats are kept as JSON, as before).
    if values and set(map(type, values)) != {int}:
        return None
    # 32-bit when every value fits (they all do in pnp's faces): half the bytes to read and
    # to check the signature of.
    for typecode in _TYPECODES:
        try:
            return array(typecode, values)
        except OverflowError:
            continue
    return None


def _usual(values: list[Any]) -> Any:
    """The value most of ``values`` have (the first of the most common), None for none."""
    return Counter(values).most_common(1)[0][0] if values else None


def _same(value: Any, usual: Any) -> bool:
    # Of the same type too: a width of 1000.0 restored as 1000 would not be the parse's.
    return type(value) is type(usual) and value == usual


def face_state(face: Any) -> tuple[dict[str, Any], list[array[Any]]]:
    """What reportlab's parse left on a face: JSON-ready data and, for the large per-glyph
    tables, arrays of 32- or 64-bit ints it refers to by position (the font's bytes and the scale
    function aside: they come from the file and ``unitsPerEm``)."""
    state = reportlab_fonts.parse_results(face)
    glyph_to_char = state.pop("glyphToChar")
    widths = state.pop("charWidths")
    usual = _usual(list(widths.values()))
    unusual = {char: width for char, width in widths.items() if not _same(width, usual)}
    columns = {
        "charToGlyph.keys": list(state["charToGlyph"]),
        "charToGlyph.values": list(state.pop("charToGlyph").values()),
        "charWidths.keys": list(widths),
        "charWidths.unusual.keys": list(unusual),
        "charWidths.unusual.values": list(unusual.values()),
        "glyphToChar.keys": list(glyph_to_char),
        "glyphToChar.counts": [len(chars) for chars in glyph_to_char.values()],
        "glyphToChar.chars": [ch for chars in glyph_to_char.values() for ch in chars],
        "hmetrics": [v for pair in state.pop("hmetrics") for v in pair],
        "glyphPos": state.pop("glyphPos"),
    }
    arrays: list[array[Any]] = []
    header: dict[str, Any] = {"other": {name: _encode(value) for name, value in state.items()},
                              "usualWidth": _encode(usual), "columns": {}}
    for name, values in columns.items():
        packed = _ints(values)
        if packed is None:
            header["columns"][name] = {"json": _encode(values)}
        else:
            header["columns"][name] = {"array": len(arrays), "length": len(packed), "type": packed.typecode}
            arrays.append(packed)
    return header, arrays


def restore_state(header: dict[str, Any], body: bytes) -> dict[str, Any]:
    """The inverse of :func:`face_state`, from its header and the arrays' bytes in order."""
    state = {name: _decode(value) for name, value in header["other"].items()}
    columns: dict[str, Any] = {}
    offset = 0
    for name, column in header["columns"].items():
        if "json" in column:
            columns[name] = _decode(column["json"])
            continue
        if column["type"] not in _TYPECODES:
            raise ValueError(f"column {name} has an unknown type")
        values = array(column["type"])
        size = column["length"] * values.itemsize
        values.frombytes(body[offset:offset + size])
        if len(values) != column["length"]:
            raise ValueError(f"column {name} is cut short")
        offset += size
        # The tables only subsetting reads stay packed until first read (see LAZY).
        columns[name] = values if name in _PACKED else values.tolist()
    if offset != len(body):
        raise ValueError("trailing bytes after the columns")
    if len(columns["charToGlyph.keys"]) != len(columns["charToGlyph.values"]):
        raise ValueError("charToGlyph has not as many glyphs as characters")
    if len(columns["charWidths.unusual.keys"]) != len(columns["charWidths.unusual.values"]):
        raise ValueError("charWidths has not as many unusual widths as characters")
    if len(columns["charWidths.unusual.keys"]) > len(columns["charWidths.keys"]):
        raise ValueError("charWidths has widths for characters it does not list")
    keys, counts, chars = (columns[f"glyphToChar.{part}"] for part in ("keys", "counts", "chars"))
    if len(keys) != len(counts) or sum(counts) != len(chars):
        raise ValueError("glyphToChar does not add up")
    if len(columns["hmetrics"]) % 2:
        raise ValueError("hmetrics is not made of pairs")
    state[LAZY] = {"glyphToChar": (keys, counts, chars), "hmetrics": (columns["hmetrics"],),
                   "glyphPos": (columns["glyphPos"],),
                   "charToGlyph": (columns["charToGlyph.keys"], columns["charToGlyph.values"]),
                   "charWidths": (columns["charWidths.keys"], _decode(header["usualWidth"]),
                                  columns["charWidths.unusual.keys"], columns["charWidths.unusual.values"])}
    return state


# Where addSubsetObjects leaves the subset it has for reportlab's own, which makes it by name.
_MADE = "_pnp_subset_made"

# The state's key for the packed columns of the tables a face from the cache builds when they
# are first read, by name. reportlab reads glyphToChar only while it parses a face and when
# HarfBuzz shapes text, which pnp never asks for (rebuilding its 17,000 lists was a third of
# restoring a face); it reads hmetrics and glyphPos only to cut a subset, which most faces of
# a build after a small edit take from the subset cache; charToGlyph and charWidths only to
# draw or measure text that no cache holds.
LAZY = "_pnp_packed_tables"


def glyph_to_char(keys: Sequence[int], counts: Sequence[int], chars: Sequence[int]) -> dict[int, list[int]]:
    """glyphToChar (glyph -> its code points) from its three columns."""
    listed = list(chars)
    table, at = {}, 0
    for glyph, count in zip(keys, counts, strict=True):
        table[glyph] = listed[at:at + count]
        at += count
    return table


def _listed(column: array[Any] | list[Any]) -> list[Any]:
    """A column as a list (one kept as JSON is one already)."""
    return column.tolist() if isinstance(column, array) else list(column)


def _hmetrics(flat: array[Any] | list[Any]) -> list[tuple[Any, Any]]:
    """hmetrics ((advance, left side bearing) of each glyph) from its column of both in turn."""
    listed = _listed(flat)
    return list(zip(listed[::2], listed[1::2], strict=True))


def _char_to_glyph(chars: Sequence[int], glyphs: Sequence[int]) -> dict[int, int]:
    return dict(zip(chars, glyphs, strict=True))


def _char_widths(chars: Sequence[int], usual: Any, unusual_chars: Sequence[int],
                 unusual_widths: Sequence[Any]) -> dict[int, Any]:
    """charWidths: ``usual`` for each of ``chars`` but the unusual ones, in the order of ``chars``."""
    widths = dict.fromkeys(chars, usual)
    widths.update(zip(unusual_chars, unusual_widths, strict=True))
    if len(widths) != len(chars):
        raise ValueError("charWidths has widths for characters it does not list")
    return widths


_BUILDERS: dict[str, Callable[..., Any]] = {"glyphToChar": glyph_to_char, "hmetrics": _hmetrics,
                                            "glyphPos": _listed, "charToGlyph": _char_to_glyph,
                                            "charWidths": _char_widths}
_PACKED = frozenset({"glyphToChar.keys", "glyphToChar.counts", "glyphToChar.chars", "hmetrics", "glyphPos",
                     "charToGlyph.keys", "charToGlyph.values", "charWidths.keys"})


class _Parts:
    """A font file's bytes, or a table's from ``start`` on, that give ``bytes`` for each slice
    taken of them (an ``int`` for an index), each cut by ``read(offset, length)``: reportlab's
    makeSubset reads the file so, and the 'glyf' table it asks for whole, to take a few
    hundred glyphs out of megabytes."""

    def __init__(self, read: Reader, start: int = 0, length: int | None = None) -> None:
        self._read = read
        self._start = start
        self._length = length

    def part(self, start: int, length: int) -> _Parts:
        """The ``length`` bytes from ``start`` on (a table), cut as a copy of them would be:
        a slice past their end stops there."""
        return _Parts(self._read, self._start + start, length)

    def __getitem__(self, cut: slice | int) -> Any:
        if isinstance(cut, int):
            return self._read(self._start + cut, 1)[0]
        stop = cut.stop if self._length is None else min(cut.stop, self._length)
        return self._read(self._start + cut.start, max(0, stop - cut.start))


class CachedFace(TTFontFace):  # type: ignore[misc]  # reportlab has no type information
    """A face made from an entry: reportlab's own, the tables in :data:`LAZY` built when first
    read, and its subsets taken from :mod:`pnp.text.subsetcache` inside ``kept_subsets``
    (``digest``: the SHA-256 of the font's bytes, set by whoever restores the face). With a
    ``source`` and no ``_ttf_data``, the font's bytes are read from it when first needed."""

    digest: str | None = None
    source: FontFile | None = None

    def addSubsetObjects(self, doc: Any, fontname: str, subset: list[int]) -> Any:
        made = None if self.digest is None or not doc.compression else subsetcache.subset(
            self.digest, subset, lambda: self.makeSubset(subset), reportlab_fonts.deflate)
        if made is None:
            return TTFontFace.addSubsetObjects(self, doc, fontname, subset)
        self.__dict__[_MADE] = made.data
        try:
            reference = TTFontFace.addSubsetObjects(self, doc, fontname, subset)
        finally:
            del self.__dict__[_MADE]
        reportlab_fonts.deflated_already(reportlab_fonts.subset_stream(doc, self.filename, fontname),
                                         made.data, made.deflated)
        return reference

    def makeSubset(self, subset: list[int]) -> bytes:
        made: bytes | None = self.__dict__.get(_MADE)
        if made is not None:
            return made
        # Cut by a copy of the face that reads only the subset's glyphs and tables: each alone
        # from the file while it is not read (FontFile.peek: the file must keep the stamp its
        # digest was taken under, else it is read whole and checked), else from its bytes.
        return reportlab_fonts.read_parts(self, lambda read: self._cut(subset, _Parts(read)))

    def _cut(self, subset: list[int], data: _Parts) -> bytes:
        # The tables makeSubset reads, built on this face, which keeps them, not on the copy.
        self.hmetrics, self.glyphPos, self.charToGlyph  # noqa: B018
        reader = object.__new__(type(self))
        reader.__dict__.update(self.__dict__, _ttf_data=data)
        if LAZY in reader.__dict__:  # a table still packed is built on the copy alone
            reader.__dict__[LAZY] = dict(reader.__dict__[LAZY])
        return bytes(TTFontFace.makeSubset(reader, subset))

    def get_table(self, tag: str) -> Any:
        # reportlab's makeSubset takes the whole 'glyf' table to cut a few hundred glyphs out of
        # it: megabytes copied for each subset cut. Parts cut the same way give the same bytes.
        if tag == "glyf" and isinstance(data := self._ttf_data, _Parts):
            start, length = self.get_table_pos(tag)
            return data.part(start, length)
        return TTFontFace.get_table(self, tag)

    def __getattr__(self, name: str) -> Any:
        # Only for an attribute the instance does not have (yet): a built table and the read
        # bytes are set on it, so this runs once for each.
        if name == "_ttf_data" and self.source is not None:
            data = self._ttf_data = self.source.read()
            return data
        packed: dict[str, tuple[Any, ...]] | None = self.__dict__.get(LAZY)
        columns = None if packed is None else packed.get(name)
        if packed is None or columns is None:
            if name in self.__dict__:  # another thread built it just now (a preview server's)
                return self.__dict__[name]
            raise AttributeError(name)
        table = _built(name, columns)
        setattr(self, name, table)
        packed.pop(name, None)
        if not packed:
            self.__dict__.pop(LAZY, None)
        return table


def restored_table(state: dict[str, Any], name: str) -> Any:
    """Table ``name`` of a state :func:`restore_state` made, built if it is one kept packed."""
    packed = state[LAZY]
    return _built(name, packed[name]) if name in packed else state[name]


def _built(name: str, columns: tuple[Any, ...]) -> Any:
    with _no_collection():
        return _BUILDERS[name](*columns)


@contextmanager
def _no_collection() -> Iterator[None]:
    """No garbage collection inside the block. Rebuilding a face's tables makes up to ~150,000
    objects, none of them garbage: a collection pass in the middle would only walk them (it
    costs about as much as the rest, more in a process whose heap is large already)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def load(font_digest: str) -> dict[str, Any] | None:
    """The cached state of the font whose bytes hash to ``font_digest``, if pnp wrote one."""
    name = entry_name(font_digest)
    payload = diskcache.read(AREA, name, _MAX_ENTRY)
    if payload is None:
        return None
    try:
        head, _, body = payload.partition(b"\n")
        data = json.loads(head)
        if (data.get("font") != font_digest or data.get("format") != FORMAT
                or data.get("reportlab") != _reportlab_version() or data.get("byteorder") != sys.byteorder):
            return None
        with _no_collection():
            return restore_state(data["face"], body)
    except (ValueError, KeyError, TypeError) as exc:
        log.debug("font cache entry %s unusable: %s", name, exc)
        return None


def store(font_digest: str, face: Any) -> None:
    """Keep a parsed face for the next process (skipped if the cache cannot be written)."""
    if diskcache.root() is None:
        return
    try:
        header, arrays = face_state(face)
        head = json.dumps({"format": FORMAT, "font": font_digest, "reportlab": _reportlab_version(),
                           "byteorder": sys.byteorder, "face": header},
                          separators=(",", ":"), ensure_ascii=True).encode()
    except (TypeError, ValueError) as exc:
        log.debug("font cache: face not stored: %s", exc)
        return
    diskcache.write(AREA, entry_name(font_digest), b"".join([head, b"\n", *(a.tobytes() for a in arrays)]))
