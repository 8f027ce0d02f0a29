"""Where pnp reaches into reportlab's font objects beyond its public API, in one place.

reportlab (no type information, no stable promise below ``pdfmetrics.registerFont``,
``getFont`` and ``TTFont``) is used through its public names everywhere else; these are the
few places it offers no public way, each with why. The disk cache of parsed faces is keyed
by reportlab's version (:mod:`pnp.text.fontcache`), and tests/text/test_font_cache.py holds a
face rebuilt here to the one reportlab parses, so a reportlab that changes any of this fails
there first.

- ``pdfmetrics._fonts``, the registry of fonts by name (:func:`registered`): the public
  ``getFont`` goes looking for a Type 1 font of a name it does not know, and raises; pnp
  asks only whether a name is registered, and from which file.
- ``TTFontFace._ttf_data``, the font file's bytes as the face read them (:func:`file_bytes`,
  :func:`read_parts`): pnp checks that the bytes parsed are the bytes it hashed, and reads
  the ``head``, ``loca`` and ``glyf`` tables reportlab does not keep parsed (the ink of
  punctuation marks) without reading the file again. A face from the disk cache reads them
  only when first asked (:mod:`pnp.text.fontfile`), and :func:`read_parts` reads a few
  headers of its file without reading it whole.
- What ``TTFont.__init__`` sets (:func:`font_from_parse`, :func:`parse_results`): a face
  restored from the disk cache skips the parse, so it is built as ``__init__`` builds one,
  private attributes included (``_ttf_data``, ``_pdfScale``, ``_asciiReadable``).
- The stream of a font subset (:func:`subset_stream`, :func:`deflated_already`): reportlab's
  ``TTFontFace.addSubsetObjects`` registers it under ``fontFile:<file>(<subset name>)`` and
  deflates it when the document is written; a subset from pnp's disk cache is deflated
  already (:mod:`pnp.text.subsetcache`), so its stream is given a filter that hands back those
  bytes, for that content only.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pnp.text.fontfile import FontFile, Reader, bytes_reader

T = TypeVar("T")

# Attributes of a parsed face that come from the file rather than from the parse: its bytes,
# the scale function reportlab makes from unitsPerEm, the file's name.
_FROM_THE_FILE = ("_ttf_data", "_pdfScale", "filename")


def registered(name: str) -> Any | None:
    """The font registered with reportlab under ``name``, or None."""
    from reportlab.pdfbase import pdfmetrics

    return pdfmetrics._fonts.get(name)


def file_bytes(face: Any) -> bytes:
    """The font file's bytes as a parsed face read them."""
    data: bytes = face._ttf_data
    return data


def read_parts(face: Any, use: Callable[[Reader], T]) -> T:
    """``use(read)``, where ``read(offset, length)`` gives those bytes of a parsed face's file:
    cut from its bytes when it has read them, else read alone from its file (a face from the
    disk cache: :meth:`pnp.text.fontfile.FontFile.peek`). A CJK face is megabytes, of which
    a reader may need a few glyphs' headers."""
    source: FontFile | None = getattr(face, "source", None)
    if source is not None and "_ttf_data" not in vars(face):
        return source.peek(use)
    return use(bytes_reader(face._ttf_data))


def parse_results(face: Any) -> dict[str, Any]:
    """What reportlab's parse left on a face, without what comes from the file itself."""
    return {name: value for name, value in vars(face).items() if name not in _FROM_THE_FILE}


def font_from_parse(name: str, path: Path, data: bytes | None, results: dict[str, Any], face_class: Any) -> Any:
    """A TTFont as ``TTFont(name, str(path))`` makes it, its face a ``face_class`` (a
    ``TTFontFace``) holding ``results`` (:func:`parse_results` of an earlier parse of the
    file's bytes, ``data``; None when ``face_class`` reads them itself when they are needed)."""
    from fnmatch import fnmatch
    from weakref import WeakKeyDictionary

    from reportlab import rl_config
    from reportlab.pdfbase.ttfonts import TTEncoding, TTFont, unShapedFontGlob

    face = face_class.__new__(face_class)
    face.__dict__.update(results)
    if data is not None:
        face._ttf_data = data
    face.filename = str(path)
    units = results["unitsPerEm"]
    face._pdfScale = (lambda x: x) if units == 1000 else (lambda x, m=1000 / units: x * m)
    font = TTFont.__new__(TTFont)
    font.fontName = name
    font.face = face
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(name, pattern) for pattern in unShapedFontGlob)
    return font


def deflated_entry_name(area: str, format_: int, what: str) -> str | None:
    """The disk cache entry of ``what`` (e.g. ``tisigui/zh-Hant/components``) in ``area``, for
    bytes reportlab deflated: named by reportlab's version (which picks the level) and zlib's
    too, which those bytes depend on; None with the disk cache off."""
    import hashlib
    import zlib

    import reportlab

    from pnp.core import diskcache

    if diskcache.root() is None:
        return None
    key = "\0".join([area, str(format_), str(reportlab.Version), zlib.ZLIB_RUNTIME_VERSION, what])
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


def deflate(data: bytes) -> bytes:
    """The bytes reportlab writes for a stream it deflates."""
    from reportlab.pdfbase.pdfdoc import PDFZCompress

    deflated: bytes = PDFZCompress.encode(data)
    return deflated


def subset_stream(doc: Any, filename: str, fontname: str) -> Any:
    """The font file stream ``TTFontFace.addSubsetObjects`` made for subset ``fontname``."""
    return doc.idToObject[f"fontFile:{filename}({fontname})"]


class _Deflated:
    """reportlab's deflate filter for one content whose deflated bytes are known."""

    pdfname = "FlateDecode"

    def __init__(self, data: bytes, deflated: bytes) -> None:
        self.data = data
        self.deflated = deflated

    def encode(self, content: bytes) -> bytes:
        return self.deflated if content is self.data or content == self.data else deflate(content)


def deflated_already(stream: Any, data: bytes, deflated: bytes) -> None:
    """Have ``stream`` (a deflated stream whose content is ``data``) write ``deflated``."""
    if stream.content is not data or [getattr(f, "pdfname", None) for f in stream.filters or ()] != ["FlateDecode"]:
        return  # not what reportlab made as pnp knows it: let it deflate as usual
    stream.filters = [_Deflated(data, deflated)]
