"""Reading a designer's text files: UTF-8 only, but a file saved in another encoding gets an
error that says which one it looks like and how to convert it.

Chinese Windows tools still save Big5, GBK or UTF-16 by default; converting silently would
hide which bytes the designer really has, so pnp names the encoding and stops instead.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from pnp.core.errors import DataError
from pnp.core.files import read_bytes, shown

__all__ = ["guess_encoding", "read_text", "shown"]
from pnp.core.problems import Problem

_CONVERT = "save it as UTF-8 (in most editors: Save As… › Encoding: UTF-8), or run `iconv -f {enc} -t UTF-8`"


def guess_encoding(data: bytes) -> str | None:
    """The likeliest legacy encoding of bytes that are not UTF-8, or None if none fits."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "UTF-16"
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "UTF-32"
    candidates: dict[str, str] = {}
    for name in ("big5", "gbk"):
        try:
            candidates[name] = data.decode(name)
        except UnicodeDecodeError:
            continue
    if len(candidates) == 1:
        return next(iter(candidates)).upper()
    if not candidates:
        return None
    # Both decode: the reading whose Han characters belong to one script is the real one.
    import hanzidentifier  # loaded only on this error path

    def script_score(text: str, wanted: int) -> int:
        return sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff" and hanzidentifier.identify(ch) == wanted)

    big5 = script_score(candidates["big5"], hanzidentifier.TRADITIONAL)
    gbk = script_score(candidates["gbk"], hanzidentifier.SIMPLIFIED)
    return "BIG5" if big5 >= gbk else "GBK"


def read_text(file: Path) -> str:
    """The text of a UTF-8 file (a BOM and CRLF line ends are fine); DataError otherwise (and for
    anything :func:`pnp.core.files.read_bytes` refuses: a link out, a special or oversized file)."""
    where = shown(file)
    data = read_bytes(file)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        guess = guess_encoding(data)
        line = data[: exc.start].count(b"\n") + 1
        if guess:
            raise DataError(Problem(f"not UTF-8 text; it looks like {guess}: "
                            + _CONVERT.format(enc=guess), str(where), line)) from None
        raise DataError(Problem(f"not UTF-8 text ({exc.reason} at byte {exc.start}): "
                        + _CONVERT.format(enc="ENCODING"), str(where), line)) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")
