"""A font file known by the SHA-256 of its bytes, read only when they are first needed.

A face restored from the disk cache of parsed faces (:mod:`pnp.text.fontcache`) needs its
file's bytes only to cut a subset the subset cache does not hold, or for the few headers
pnp reads itself (the ink of punctuation marks): reading all four 5.5 MB faces in every build
that renders cost some 20 ms, mostly for faces whose bytes were then never used.

The digest that named the face in the cache was taken for the file as it was then (its
:func:`pnp.core.diskcache.file_stamp`: size, times and inode). Bytes read later are taken for
those bytes while the file still has that stamp, as :func:`pnp.core.diskcache.file_sha256`
takes a stamp for a content; otherwise they must hash to the digest. A file that changed or
went away in the meantime is a :class:`FontError`, never a font drawn from other bytes.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pnp.core import diskcache, files
from pnp.core.errors import DataError, FontError
from pnp.core.limits import MAX_FONT_BYTES
from pnp.core.records import record

T = TypeVar("T")

# A process keeps the faces it registered (reportlab keeps the first font of a name): a
# long-running one must start again to load the new file.
_AGAIN = "build again (restart a running `pnp serve` or `pnp build --watch`)"

# read(offset, length): those bytes of a font file.
Reader = Callable[[int, int], bytes]


def bytes_reader(data: bytes) -> Reader:
    """A :data:`Reader` of bytes already read (each part a copy of just that slice)."""
    view = memoryview(data)
    return lambda offset, length: bytes(view[offset:offset + length])


class _CutShort(Exception):
    """The file ended before the bytes asked for: it changed since its stamp was taken."""


@record
class FontFile:
    """The font file at ``path``, whose bytes hashed to ``digest`` when it had ``stamp``."""

    path: Path
    digest: str
    stamp: diskcache.FileStamp

    def read(self) -> bytes:
        """The whole file: the bytes ``digest`` names, else a FontError."""
        try:
            before = diskcache.file_stamp(self.path.stat())
            data = files.read_bytes(self.path, limit=MAX_FONT_BYTES)
            after = diskcache.file_stamp(self.path.stat())
        except (OSError, DataError) as exc:
            reason = "; ".join(exc.problems) if isinstance(exc, DataError) else exc.strerror or str(exc)
            raise FontError(f"cannot read the font {self.path} again ({reason}): it changed or was "
                            f"removed while pnp was using it; {_AGAIN}") from exc
        if not (before == after == self.stamp and diskcache.settled(self.stamp)) \
                and hashlib.sha256(data).hexdigest() != self.digest:
            raise FontError(f"the font {self.path} changed while pnp was using it (its bytes are "
                            f"not the ones pnp loaded); {_AGAIN}")
        return data

    def peek(self, use: Callable[[Reader], T]) -> T:
        """``use(read)``, where ``read(offset, length)`` gives those bytes of the file: read
        alone while the file keeps its stamp (the rest of it stays unread), else cut from
        :meth:`read`."""
        fd = _opened(self.path)
        if fd >= 0:
            try:
                if self._unchanged(os.fstat(fd)):
                    result = use(lambda offset, length: _read_at(fd, offset, length))
                    if self._unchanged(os.fstat(fd)):
                        return result
            except (_CutShort, OSError):
                pass  # read it whole below, which says what happened to it
            finally:
                os.close(fd)
        data = self.read()
        return use(bytes_reader(data))

    def _unchanged(self, st: os.stat_result) -> bool:
        return (stat.S_ISREG(st.st_mode) and diskcache.file_stamp(st) == self.stamp
                and diskcache.settled(self.stamp))


def _opened(path: Path) -> int:
    """A descriptor of ``path`` to read parts of, or -1 (not there; no positioned reads on
    Windows: the caller reads the file whole)."""
    if not hasattr(os, "pread"):
        return -1
    try:
        # Non-blocking: a FIFO put in the file's place must not block the open (its fstat is
        # then refused).
        return os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return -1


def _read_at(fd: int, offset: int, length: int) -> bytes:
    data = os.pread(fd, length, offset)
    if len(data) != length:
        raise _CutShort
    return data
