"""reportlab's encoding of PDF text and names, the same bytes by a shorter way.

reportlab writes a str into a PDF through ``pdfdoc.pdfdocEnc``, its PDFDocEncoding codec
("extpdfdoc"): every name, number and keyword of every object, and each form's content stream.
The codec is a character map walked in Python's slow general path, 2-3 times as long as ASCII's
on a short string and 150 times on a long one, while PDFDocEncoding writes every ASCII
character but eight as ASCII does (:func:`pdfdoc_bytes`). It escapes each name
(``pdfdoc.PDFName``) character by character, the same few dozen names thousands of times.
Writing a components PDF whose faces were replayed from pnp.render.facecache, those calls were
a third of the time.

pnp's face cache encodes a replayed form's stream with :func:`pdfdoc_bytes`. :func:`install`
puts that function and a remembering ``PDFName`` in reportlab's place, which changes reportlab
for the whole process, so pnp's core never calls it: the program that owns the process does
(pnp's command line, once it has registered a font family: pnp.cli.process).
"""

from __future__ import annotations

import re
from typing import Any

from reportlab.pdfbase import pdfdoc

# What PDFDocEncoding writes other than ASCII does: anything past ASCII, and 0x18-0x1F, where it
# keeps accents (the codec refuses those control characters).
_NOT_AS_ASCII = re.compile(r"[^\x00-\x17\x20-\x7f]")

NAMES_LIMIT = 100_000  # names remembered per process; any after those are escaped every time

_reportlab_encoding = pdfdoc.pdfdocEnc
_reportlab_name = pdfdoc.PDFName
_names: dict[str, str] = {}


def pdfdoc_bytes(value: Any) -> Any:
    """What ``pdfdoc.pdfdocEnc`` makes of ``value``: a str as PDFDocEncoding encodes it
    (UnicodeError where it cannot), anything else as it is."""
    if isinstance(value, str):
        return _reportlab_encoding(value) if _NOT_AS_ASCII.search(value) else value.encode("ascii")
    return value


def _remembered_name(data: Any, lo: str = chr(0x21), hi: str = chr(0x7E)) -> Any:
    """``pdfdoc.PDFName``: a str name with reportlab's bounds escaped once per process."""
    if type(data) is not str or lo != chr(0x21) or hi != chr(0x7E):
        return _reportlab_name(data, lo, hi)
    known = _names.get(data)
    if known is None:
        known = _reportlab_name(data)
        if len(_names) < NAMES_LIMIT:
            _names[data] = known
    return known


def install() -> None:
    """Put :func:`pdfdoc_bytes` and the remembering ``PDFName`` in reportlab's place for the rest
    of the process (installing again changes nothing). For the program that owns the process,
    not for pnp's core."""
    pdfdoc.pdfdocEnc = pdfdoc_bytes
    pdfdoc.PDFName = _remembered_name
