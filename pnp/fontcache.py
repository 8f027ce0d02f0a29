"""A disk cache of reportlab's parsed TrueType faces, so a new process skips re-parsing them.

reportlab reads the cmap and the horizontal metrics of every face it registers, in pure
Python: about 80 ms for each of pnp's 17,000-glyph faces, paid again by every ``pnp build``.
What it extracts is plain data (numbers, names, the table directory), kept here one file per
font: a JSON header, then the per-glyph tables as packed integers. An entry is named after
the SHA-256 of the font's bytes together with reportlab's version and this format's version:
an edited or regenerated font, or another reportlab, finds no entry and is parsed again.

An entry is only ever read back if pnp wrote it: each file starts with an HMAC-SHA256 of its
payload under a random key kept beside the entries (readable by its owner only), and the
payload repeats the font's hash. A file pnp did not write, a copied or truncated one, or one
for other bytes is ignored and the font parsed as before. Nothing in an entry is code (no
pickle): JSON and arrays of integers.
The cache is an optimisation only: any problem reading or writing it is logged and skipped.

The folder is ``$PNP_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/pnp`` or ``~/.cache/pnp``,
with entries under ``fonts/``; ``PNP_CACHE_DIR=`` (empty) turns the cache off.
"""

from __future__ import annotations

import gc
import hashlib
import hmac
import json
import logging
import os
import secrets
import sys
import tempfile
from array import array
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FORMAT = 3
KEY_NAME = "key"
_KEY_BYTES = 32
# Faces bigger than this are not what pnp ships; parse them without caching.
_MAX_ENTRY = 64 * 1024 * 1024



def cache_dir() -> Path | None:
    """The folder for cached faces, or None when caching is turned off."""
    configured = os.environ.get("PNP_CACHE_DIR")
    if configured is not None:
        return Path(configured) / "fonts" if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pnp" / "fonts"


def _reportlab_version() -> str:
    import reportlab

    return reportlab.Version


def entry_name(font_digest: str) -> str:
    """The file name of a font's entry: its bytes, reportlab's version and this format."""
    key = f"{font_digest}\0{_reportlab_version()}\0{FORMAT}".encode()
    return hashlib.sha256(key).hexdigest() + ".face"


def _own_file(path: Path) -> bool:
    """A file this user owns that nobody else may write: only then is it trusted."""
    try:
        info = path.lstat()
    except OSError:
        return False
    if not path.is_file() or path.is_symlink():
        return False
    return not (hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022))


def _key(folder: Path, create: bool) -> bytes | None:
    """The HMAC key of ``folder``: made (random, owner-only) when missing and ``create``."""
    path = folder / KEY_NAME
    if _own_file(path):
        data = path.read_bytes()
        if len(data) == _KEY_BYTES:
            return data
        log.debug("font cache key %s is damaged; ignoring the cache", path)
        return None
    if not create or path.exists() or path.is_symlink():
        return None
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = secrets.token_bytes(_KEY_BYTES)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it just now: use theirs
        return _key(folder, create=False)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
    return key


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


def _ints(values: list[Any]) -> array | None:
    """Whole numbers as a compact array, or None when some are not ints (kept as JSON then)."""
    if not all(type(v) is int for v in values):
        return None
    try:
        return array("q", values)
    except OverflowError:
        return None


def face_state(face: Any) -> tuple[dict[str, Any], list[array]]:
    """What reportlab's parse left on a face: JSON-ready data and, for the large per-glyph
    tables, arrays of 64-bit ints it refers to by position (the font's bytes and the scale
    function aside: they come from the file and ``unitsPerEm``)."""
    state = {name: value for name, value in vars(face).items()
             if name not in ("_ttf_data", "_pdfScale", "filename")}
    glyph_to_char = state.pop("glyphToChar")
    columns = {
        "charToGlyph.keys": list(state["charToGlyph"]),
        "charToGlyph.values": list(state.pop("charToGlyph").values()),
        "charWidths.keys": list(state["charWidths"]),
        "charWidths.values": list(state.pop("charWidths").values()),
        "glyphToChar.keys": list(glyph_to_char),
        "glyphToChar.counts": [len(chars) for chars in glyph_to_char.values()],
        "glyphToChar.chars": [ch for chars in glyph_to_char.values() for ch in chars],
        "hmetrics": [v for pair in state.pop("hmetrics") for v in pair],
        "glyphPos": state.pop("glyphPos"),
    }
    arrays: list[array] = []
    header: dict[str, Any] = {"other": {name: _encode(value) for name, value in state.items()}, "columns": {}}
    for name, values in columns.items():
        packed = _ints(values)
        if packed is None:
            header["columns"][name] = {"json": _encode(values)}
        else:
            header["columns"][name] = {"array": len(arrays), "length": len(packed)}
            arrays.append(packed)
    return header, arrays


def restore_state(header: dict[str, Any], body: bytes) -> dict[str, Any]:
    """The inverse of :func:`face_state`, from its header and the arrays' bytes in order."""
    state = {name: _decode(value) for name, value in header["other"].items()}
    columns: dict[str, Any] = {}
    offset = 0
    width = array("q").itemsize
    for name, column in header["columns"].items():
        if "json" in column:
            columns[name] = _decode(column["json"])
            continue
        values = array("q")
        size = column["length"] * width
        values.frombytes(body[offset:offset + size])
        if len(values) != column["length"]:
            raise ValueError(f"column {name} is cut short")
        offset += size
        columns[name] = values.tolist()
    if offset != len(body):
        raise ValueError("trailing bytes after the columns")
    state["charToGlyph"] = dict(zip(columns["charToGlyph.keys"], columns["charToGlyph.values"], strict=True))
    state["charWidths"] = dict(zip(columns["charWidths.keys"], columns["charWidths.values"], strict=True))
    chars = columns["glyphToChar.chars"]
    glyph_to_char, at = {}, 0
    for glyph, count in zip(columns["glyphToChar.keys"], columns["glyphToChar.counts"], strict=True):
        glyph_to_char[glyph] = chars[at:at + count]
        at += count
    if at != len(chars):
        raise ValueError("glyphToChar does not add up")
    state["glyphToChar"] = glyph_to_char
    flat = columns["hmetrics"]
    state["hmetrics"] = list(zip(flat[::2], flat[1::2], strict=True))
    state["glyphPos"] = columns["glyphPos"]
    return state


def load(font_digest: str) -> dict[str, Any] | None:
    """The cached state of the font whose bytes hash to ``font_digest``, if pnp wrote one."""
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / entry_name(font_digest)
    try:
        if not _own_file(path):
            return None
        key = _key(folder, create=False)
        if key is None:
            return None
        blob = path.read_bytes()
        if len(blob) > _MAX_ENTRY:
            return None
        tag, _, payload = blob.partition(b"\n")
        expected = hmac.new(key, payload, hashlib.sha256).hexdigest().encode()
        if not hmac.compare_digest(tag, expected):
            log.debug("font cache entry %s was not written by pnp; ignoring it", path)
            return None
        head, _, body = payload.partition(b"\n")
        data = json.loads(head)
        if (data.get("font") != font_digest or data.get("format") != FORMAT
                or data.get("reportlab") != _reportlab_version() or data.get("byteorder") != sys.byteorder):
            return None
        # Rebuilding the tables makes ~150,000 objects, none of them garbage: a collection
        # pass in the middle would only walk them (it costs about as much as the rest).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return restore_state(data["face"], body)
        finally:
            if collecting:
                gc.enable()
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.debug("font cache entry %s unusable: %s", path, exc)
        return None


def store(font_digest: str, face: Any) -> None:
    """Keep a parsed face for the next process; silently skipped if the cache cannot be written."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        key = _key(folder, create=True)
        if key is None:
            return
        header, arrays = face_state(face)
        head = json.dumps({"format": FORMAT, "font": font_digest, "reportlab": _reportlab_version(),
                           "byteorder": sys.byteorder, "face": header},
                          separators=(",", ":"), ensure_ascii=True).encode()
        payload = b"".join([head, b"\n", *(values.tobytes() for values in arrays)])
        tag = hmac.new(key, payload, hashlib.sha256).hexdigest().encode()
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-")  # owner-only, 0600
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(tag + b"\n" + payload)
            os.replace(temporary, folder / entry_name(font_digest))
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except (OSError, TypeError, ValueError) as exc:
        log.debug("font cache not written: %s", exc)
