"""Deflated content streams kept between builds: a PDF made again deflates only what is new.

reportlab deflates every page's and every form's content stream when the document is saved.
After a card edit, a components PDF made again holds the same streams but a few: the faces
replayed from pnp.render.facecache are mostly byte for byte what they were, and the sheets
place them where they were. Inside :func:`kept_streams` the pages and forms of a canvas handed
to :func:`deflate_through_entry` look their content up by its SHA-256 in the entry of the last
rendering of the same document, and deflate only what it does not hold; the entry then keeps
what this rendering deflated and, in as many bytes again, what earlier ones did
(:func:`pnp.core.diskcache.asked_then_earlier`: an edit undone finds its streams).

zlib makes the same bytes of the same input at the same level, so a kept stream is what
deflating makes: the entry is named by reportlab's version (which picks the level) and zlib's,
and signed by :mod:`pnp.core.diskcache`. The other steps of a stream's encoding (ASCII85, when
reportlab is set to use it) run as usual. Outside the block, or with the cache off
(``PNP_CACHE_DIR=``), reportlab deflates as it always does.
"""

from __future__ import annotations

import hashlib
import logging
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc

from pnp.core import diskcache
from pnp.text.reportlab_fonts import deflate, deflated_entry_name

log = logging.getLogger(__name__)

AREA = "streams"
FORMAT = 1
_MAX_ENTRY = 64 * 1024 * 1024

_session: ContextVar[diskcache.Rendering[bytes, bytes] | None] = ContextVar("pnp_stream_session", default=None)


@contextmanager
def kept_streams(what: str) -> Iterator[None]:
    """Streams deflated inside the block through :func:`deflate_through_entry` come from, and
    after a block that ended without an exception go to, the entry for ``what`` (e.g.
    ``tisigui/zh-Hant/components``)."""
    name = deflated_entry_name(AREA, FORMAT, what)
    with diskcache.rendering(_session, name, _load, _store, diskcache.asked_then_earlier):
        yield


class _KeptDeflate:
    """reportlab's deflate step for one document, answered from the entry where it can be."""

    pdfname = "FlateDecode"

    def __init__(self, session: diskcache.Rendering[bytes, bytes]) -> None:
        self.session = session

    def encode(self, content: str | bytes) -> bytes:
        data = content.encode("utf8") if isinstance(content, str) else content
        key = hashlib.sha256(data).digest()
        session = self.session
        deflated = session.asked.get(key) or session.known.get(key)
        if deflated is None:
            deflated = deflate(data)
        session.asked[key] = deflated
        return deflated

    def decode(self, encoded: bytes) -> bytes:
        return zlib.decompress(encoded)


def deflate_through_entry(canvas: Any) -> None:
    """Have the pages and forms drawn on ``canvas`` so far deflate their content through the
    entry of :func:`kept_streams` when the canvas is saved (call right before ``save``);
    nothing outside the block.

    reportlab makes a page's or form's content stream when it writes the object, with its
    module's deflate filter (``pdfdoc.PDFZCompress``), unless the object has its stream already
    (``Contents``): each is given here the stream reportlab would make, as reportlab makes it
    (``PDFPage.check_format``, ``PDFFormXObject.format``), with this document's deflate step
    in place of the module's. A form's ``compression`` is then cleared, which only tells its
    ``format`` to set the module's filters on its stream."""
    session = _session.get()
    if session is None:
        return
    doc = canvas._doc
    if not doc.compression:
        return
    kept = _KeptDeflate(session)
    filters = [pdfdoc.PDFBase85Encode, kept] if rl_config.useA85 else [kept]
    for obj in doc.idToObject.values():
        if type(obj) is pdfdoc.PDFFormXObject and obj.compression and obj.Contents is None and obj.stream:
            obj.Contents = _stream(obj.stream, filters, "xobject form stream")
            obj.compression = 0
    for page in doc.Pages.pages:
        if type(page) is pdfdoc.PDFPage and page.compression and page.Contents is None and page.stream \
                and not page.Override_default_compilation:
            page.Contents = _stream(page.stream, filters, "page stream")


def _stream(content: str | bytes, filters: list[Any], comment: str) -> Any:
    stream = pdfdoc.PDFStream(content=content, filters=list(filters))
    stream.__Comment__ = comment
    return stream


def _load(name: str) -> dict[bytes, bytes]:
    payload = diskcache.read(AREA, name, _MAX_ENTRY)
    if payload is None:
        return {}
    try:
        known: dict[bytes, bytes] = {}
        for (digest,), stream in diskcache.unpacked(payload):
            if not isinstance(digest, str):
                raise ValueError("not a stream's key")
            key = bytes.fromhex(digest)
            if len(key) != hashlib.sha256().digest_size:
                raise ValueError("not a SHA-256")
            known[key] = stream
        return known
    except (ValueError, TypeError) as exc:
        log.debug("stream cache entry %s unusable: %s", name, exc)
        return {}


def _store(name: str, streams: dict[bytes, bytes]) -> None:
    payload = diskcache.packed([([key.hex()], deflated) for key, deflated in streams.items()])
    if len(payload) <= _MAX_ENTRY:
        diskcache.write(AREA, name, payload)
