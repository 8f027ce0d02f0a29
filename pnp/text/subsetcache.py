"""Font subsets kept between builds, so a PDF made again does not cut and deflate its fonts again.

reportlab embeds each font of a PDF as subsets of up to 256 glyphs: for each, it builds a
TrueType file of those glyphs in pure Python and deflates it, about a twentieth of a cold build
(88 subsets of pnp's bundled faces, 3 MB before deflating). The subset's bytes depend on the
font's bytes, the code points in the subset's order and reportlab's version; deflated, also on
zlib. A PDF rendered inside :func:`kept_subsets` takes the subsets that the last rendering of
the same document made from the disk cache, and makes the rest.

An entry holds the subsets its document's last rendering asked for and, in as many bytes again,
those earlier renderings asked for (:func:`pnp.core.diskcache.asked_then_earlier`: a card edit
undone, or a wording tried and dropped, finds the subsets it had), signed by
:mod:`pnp.core.diskcache`: a JSON line of keys and lengths, then the deflated subsets. A key
names the font by the SHA-256 of its bytes, so an edited or another font with the same name
never meets a subset of the old one.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from pnp.core import diskcache
from pnp.core.records import record
from pnp.text.reportlab_fonts import deflated_entry_name

log = logging.getLogger(__name__)

AREA = "subsets"
FORMAT = 1
_MAX_ENTRY = 64 * 1024 * 1024

# (SHA-256 of the font's bytes, the subset's code points in order)
Key = tuple[str, tuple[int, ...]]


_session: ContextVar[diskcache.Rendering[Key, bytes] | None] = ContextVar("pnp_subset_session", default=None)


@record
class Subset:
    """One subset's TrueType file, as reportlab makes it and as reportlab deflates it."""

    data: bytes
    deflated: bytes


def subset(font_digest: str, codes: Sequence[int], make: Callable[[], bytes],
           deflate: Callable[[bytes], bytes]) -> Subset | None:
    """The subset of ``codes`` of the font whose bytes hash to ``font_digest``: from the disk
    cache inside :func:`kept_subsets`, else made by ``make`` and deflated by ``deflate``
    (reportlab's own steps). None outside :func:`kept_subsets`: the caller makes it as usual."""
    session = _session.get()
    if session is None:
        return None
    key = (font_digest, tuple(codes))
    deflated = session.asked.get(key) or session.known.get(key)
    if deflated is not None:
        try:
            data = zlib.decompress(deflated)
        except zlib.error:
            deflated = None
    if deflated is None:
        data = make()
        deflated = deflate(data)
    session.asked[key] = deflated
    return Subset(data, deflated)


@contextmanager
def kept_subsets(what: str) -> Iterator[None]:
    """Subsets made inside the block come from, and after a block that ended without an
    exception go to, the entry for ``what`` (e.g. ``tisigui/zh-Hant/rulebook``)."""
    name = deflated_entry_name(AREA, FORMAT, what)
    with diskcache.rendering(_session, name, _load, _store, diskcache.asked_then_earlier):
        yield


def _load(name: str) -> dict[Key, bytes]:
    payload = diskcache.read(AREA, name, _MAX_ENTRY)
    if payload is None:
        return {}
    try:
        known: dict[Key, bytes] = {}
        for (digest, codes), deflated in diskcache.unpacked(payload):
            if not (isinstance(digest, str) and all(isinstance(code, int) for code in codes)):
                raise ValueError("not a subset's key")
            known[(digest, tuple(codes))] = deflated
        return known
    except (ValueError, TypeError) as exc:
        log.debug("subset cache entry %s unusable: %s", name, exc)
        return {}


def _store(name: str, subsets: dict[Key, bytes]) -> None:
    payload = diskcache.packed([([digest, list(codes)], deflated) for (digest, codes), deflated in subsets.items()])
    if len(payload) <= _MAX_ENTRY:
        diskcache.write(AREA, name, payload)
