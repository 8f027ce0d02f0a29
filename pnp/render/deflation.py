"""Deflated PDF streams remembered by a process that builds again and again.

reportlab deflates every stream of a PDF (pages, forms, font files, cmaps) as the document is
written, through one filter object, ``pdfdoc.PDFZCompress``, which it looks up by name each
time. After a card edit most of those streams are the bytes of the round before: the pages of a
book the card does not reach, the faces replayed from pnp.render.facecache. Inside
:func:`remembered_deflates` that filter looks the raw bytes up by their SHA-256 and hands back
what zlib made of them the last time, so the bytes written are the ones deflating makes (zlib
gives the same output for the same input, level and library, and the memo lives no longer than
the process).

Putting the filter in reportlab's place (:func:`install_filter`) changes reportlab for the whole
process, so pnp's core never does it: the program that owns the process does (pnp's command
line, for ``build --watch`` and ``serve``). Outside the block the filter deflates as reportlab's
own does, and without it installed the block deflates as reportlab does, remembering nothing. The memo
is shared by every build of the process (``pnp build --watch``, ``pnp serve``) and holds at
most :data:`LIMIT` bytes of deflated output, dropping the longest unused first.
"""

from __future__ import annotations

import hashlib
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from reportlab.pdfbase import pdfdoc

LIMIT = 32 * 1024 * 1024


class DeflateMemo:
    """Deflated bytes by the SHA-256 of the bytes deflated, at most ``limit`` bytes of them."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self.held = 0
        self.made = 0  # streams deflated, not remembered
        self._deflated: OrderedDict[bytes, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def deflate(self, data: bytes) -> bytes:
        key = hashlib.sha256(data).digest()
        with self._lock:
            known = self._deflated.get(key)
            if known is not None:
                self._deflated.move_to_end(key)
                return known
        deflated = zlib.compress(data)
        with self._lock:
            self.made += 1
            if key not in self._deflated and len(deflated) <= self.limit:
                self._deflated[key] = deflated
                self.held += len(deflated)
                while self.held > self.limit:
                    _, dropped = self._deflated.popitem(last=False)
                    self.held -= len(dropped)
        return deflated


_memo = DeflateMemo()
_active: ContextVar[DeflateMemo | None] = ContextVar("pnp_deflate_memo", default=None)


class _RememberingDeflate(pdfdoc.PDFStreamFilterZCompress):  # type: ignore[misc]  # reportlab is untyped
    """reportlab's deflate filter, answering from the memo of the block it runs in."""

    def encode(self, text: str | bytes) -> bytes:
        memo = _active.get()
        if memo is None:
            deflated: bytes = super().encode(text)
            return deflated
        return memo.deflate(text.encode("utf8") if isinstance(text, str) else text)


def install_filter() -> None:
    """Put the remembering filter in reportlab's place, for the rest of the process (installing
    again changes nothing). For the program that owns the process, not for pnp's core."""
    if not isinstance(pdfdoc.PDFZCompress, _RememberingDeflate):
        pdfdoc.PDFZCompress = _RememberingDeflate()


@contextmanager
def remembered_deflates(memo: DeflateMemo | None = None) -> Iterator[DeflateMemo]:
    """PDFs written inside the block deflate each distinct stream once (``memo``: the
    process's own unless given), once :func:`install_filter` has put the filter in place."""
    used = _memo if memo is None else memo
    token = _active.set(used)
    try:
        yield used
    finally:
        _active.reset(token)
