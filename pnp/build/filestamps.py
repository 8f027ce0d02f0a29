"""The hashes of the files a build reads, kept in the build record by each file's stamp, as
git's index keeps them: a file whose stamp is as recorded is not read again."""

from __future__ import annotations

import hashlib
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pnp.core import diskcache
from pnp.core.fingerprint import ABSENT

# Files this big (the fonts) keep their hash in pnp's disk cache too, so a build into a new
# output folder does not read them all again; smaller files are cheaper to hash than to look up.
BIG_FILE = 1 << 20



def is_entry(value: Any) -> bool:
    """Whether ``value`` (read from a build record) is an entry :class:`Hasher` keeps: a file's
    stamp (:func:`pnp.core.diskcache.file_stamp`, four numbers) and its hash."""
    return isinstance(value, list) and len(value) == 5


class Hasher:
    """sha256 of files, reusing a cached hash while a file's stamp is unchanged."""

    def __init__(self, cache_: Mapping[str, list[Any]]) -> None:
        self.old = dict(cache_)
        self.used: dict[str, list[Any]] = {}

    def file(self, path: Path) -> str:
        try:
            st = path.stat()
        except OSError:
            return ABSENT
        if not stat.S_ISREG(st.st_mode):
            return ABSENT
        # Named as reached, links not followed: the stamp (inode and times) already tells
        # whether the file reached is the one hashed, and following the links of every input
        # cost a plan more than all its other stats.
        key = str(path.absolute())
        stamped = diskcache.file_stamp(st)
        stamp = list(stamped)
        # Every output of a script reads the same fonts: each file is hashed once per plan.
        cached = self.used.get(key) or self.old.get(key)
        if cached is not None and cached[:-1] == stamp:
            digest = str(cached[-1])
        elif st.st_size >= BIG_FILE:
            digest = diskcache.file_sha256(path)  # the fonts: remembered across output folders
        else:
            digest = sha256_file(path)
        if diskcache.settled(stamped):
            self.used[key] = [*stamp, digest]
        return digest


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
