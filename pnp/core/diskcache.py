"""Signed files in pnp's cache folder: only what pnp wrote is ever read back.

Caches save a new process work that depends only on its inputs (parsed font tables, compiled
templates). Each entry is named by what it was made from, and starts with an HMAC-SHA256 of
its payload under a random key kept in the cache folder, readable and writable by its owner
only. A file pnp did not write (copied from another machine, planted, edited, truncated), a
file others may write, or any entry once the key is gone, is ignored: the caller does the
work again. The cache is an optimisation only: a problem reading or writing it is logged and
skipped, never an error.

The folder is ``$PNP_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/pnp`` or ``~/.cache/pnp``;
``PNP_CACHE_DIR=`` (empty) turns caching off. Each cache keeps its entries in a subfolder.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)

KEY_NAME = "key"
_KEY_BYTES = 32
_TAG_BYTES = 64  # the HMAC in hex


def root() -> Path | None:
    """pnp's cache folder, or None when caching is turned off."""
    configured = os.environ.get("PNP_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pnp"


def _own_file(path: Path) -> os.stat_result | None:
    """The status of a file (not a link) this user owns that nobody else may write: only then is
    it trusted; None for any other."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):  # a folder, a link, a device
        return None
    if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
        return None
    return info


# The key last read from each folder, with the status of its file then: a process reads many
# entries, and the key file is read again only when it is another file or was written since.
# Only a key written long enough ago is remembered (see RACY_NS): one replaced within the same
# clock tick, at the same size and in the same inode, would keep the status it replaced.
_keys: dict[Path, tuple[FileStamp, bytes]] = {}


def _key(folder: Path, create: bool) -> bytes | None:
    """The HMAC key of ``folder``: made (random, owner-only) when missing and ``create``."""
    path = folder / KEY_NAME
    info = _own_file(path)
    if info is not None:
        stamp = file_stamp(info)
        known = _keys.get(folder)
        if known is not None and known[0] == stamp:
            return known[1]
        data = path.read_bytes()
        if len(data) == _KEY_BYTES:
            if settled(stamp):
                _keys[folder] = (stamp, data)
            return data
        log.debug("cache key %s is damaged; ignoring the cache", path)
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


def _tag(key: bytes, area: str, name: str, payload: bytes) -> bytes:
    # The entry's own name is signed too: a genuine entry copied under another name is refused.
    message = f"{area}/{name}\0".encode() + payload
    return hmac.new(key, message, hashlib.sha256).hexdigest().encode()


def read(area: str, name: str, max_size: int) -> bytes | None:
    """The payload of entry ``name`` of ``area`` if pnp wrote it, else None."""
    folder = root()
    if folder is None:
        return None
    path = folder / area / name
    try:
        info = _own_file(path)
        if info is None or info.st_size > max_size + _TAG_BYTES + 1:
            return None
        key = _key(folder, create=False)
        if key is None:
            return None
        tag, newline, payload = path.read_bytes().partition(b"\n")
        if not newline or not hmac.compare_digest(tag, _tag(key, area, name, payload)):
            log.debug("cache entry %s was not written by pnp; ignoring it", path)
            return None
        return payload
    except OSError as exc:
        log.debug("cache entry %s unreadable: %s", path, exc)
        return None


def write(area: str, name: str, payload: bytes) -> None:
    """Sign and keep ``payload`` as entry ``name`` of ``area`` (atomically); skipped on any problem."""
    folder = root()
    if folder is None:
        return
    try:
        key = _key(folder, create=True)
        if key is None:
            return
        target = folder / area
        target.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, temporary = tempfile.mkstemp(dir=target, prefix=".tmp-")  # owner-only, 0600
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(_tag(key, area, name, payload) + b"\n" + payload)
            os.replace(temporary, target / name)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        log.debug("cache entry %s/%s not written: %s", area, name, exc)


HASH_AREA = "hashes"
# A file written in the last moments could be written again within the same clock tick at
# the same size (git's "racy" files): its stamp cannot stand for its content yet.
RACY_NS = 2_000_000_000
_DIGEST_LEN = 64

# What a file's content is taken to be unchanged by, as git's index takes it: size, mtime,
# inode and change time (nanoseconds). The change time is there because nothing sets it back:
# a file rewritten at its old size with its mtime put back (``touch -r``, a copy that keeps
# times) still shows as changed.
FileStamp = tuple[int, int, int, int]


def file_stamp(st: os.stat_result) -> FileStamp:
    """The stamp of the file ``st`` describes."""
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def settled(stamp: FileStamp) -> bool:
    """Whether ``stamp`` can stand for the file's content: not while either of its times is
    within :data:`RACY_NS` of now."""
    return time.time_ns() - max(stamp[1], stamp[3]) > RACY_NS


def _hash_entry(path: Path, stamp: FileStamp) -> str:
    key = "\0".join([str(path.resolve()), *map(str, stamp)])
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


def _remembered(name: str) -> str | None:
    found = read(HASH_AREA, name, _DIGEST_LEN)
    return found.decode("ascii") if found is not None and len(found) == _DIGEST_LEN else None


def remembered_sha256(path: Path) -> tuple[str, FileStamp] | None:
    """What :func:`file_sha256` remembered for the file as it stands now, with the stamp it
    was remembered under; None when it has nothing for that stamp. The file is not read."""
    stamp = file_stamp(path.stat())
    found = _remembered(_hash_entry(path, stamp))
    return None if found is None else (found, stamp)


def file_sha256(path: Path, data: bytes | None = None, read_under: FileStamp | None = None) -> str:
    """SHA-256 of a file's bytes (``data``, when the caller has read them already: then
    ``read_under`` is the stamp the file had before they were read), remembered by path and
    :func:`file_stamp` as git's index does: the fonts (22 MB) are hashed once per machine, not
    in every process that plans a build or loads them. Bytes the caller read are remembered
    only under the stamp they were read under (a file rewritten between the read and this
    call must not have the old bytes' hash taken for the new ones)."""
    stamp = file_stamp(path.stat())
    name = _hash_entry(path, stamp)
    found = _remembered(name)
    if found is not None:
        return found
    if data is None:
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
        hexdigest = digest.hexdigest()
    else:
        hexdigest = hashlib.sha256(data).hexdigest()
    if settled(stamp) and file_stamp(path.stat()) == stamp and (data is None or read_under == stamp):
        write(HASH_AREA, name, hexdigest.encode("ascii"))
    return hexdigest


_DIST_SUFFIXES = (".dist-info", ".egg-info", ".egg", ".egg-link")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def distributions_stamp(names: tuple[str, ...]) -> str:
    """A name for what :mod:`importlib.metadata` would find about the distributions ``names``:
    for every folder on ``sys.path``, the names of the distributions installed there, and the
    size, mtime and inode of the metadata of those that could be one of ``names`` (anything
    else on the path, by its own stamp). Installing, upgrading or removing a package renames
    or removes its ``.dist-info`` folder, which changes it. The SHA-256 of all that, in hex."""
    wanted = tuple(_normal(name) for name in names)
    parts = [sys.version, "\0".join(names)]
    for entry in sys.path:
        folder = entry or "."
        parts.append(f"\0{entry}")
        try:
            found = sorted(os.listdir(folder))
        except OSError:  # a zip file, or nothing there
            try:
                st = os.stat(folder)
                parts.append(f"={st.st_size},{st.st_mtime_ns},{st.st_ino}")
            except OSError:
                parts.append("=absent")
            continue
        for name in found:
            if not name.endswith(_DIST_SUFFIXES):
                continue
            parts.append(f"\0{name}")
            if _normal(name).startswith(wanted):
                for inner in ("", "METADATA", "PKG-INFO", "EGG-INFO/PKG-INFO"):
                    try:
                        st = os.stat(os.path.join(folder, name, inner) if inner else os.path.join(folder, name))
                    except OSError:
                        continue
                    parts.append(f"\0{inner}={st.st_size},{st.st_mtime_ns},{st.st_ino}")
    return hashlib.sha256("".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def for_installed(area: str, libraries: tuple[str, ...], max_size: int, compute: Callable[[], Any],
                  usable: Callable[[Any], bool]) -> Any:
    """``compute()`` (JSON data that depends only on the installed ``libraries``), kept in
    ``area`` under :func:`distributions_stamp`: computed again only when one of them is
    installed, upgraded or removed, or the entry is not ``usable``."""
    name = distributions_stamp(libraries)
    payload = read(area, name, max_size)
    if payload is not None:
        try:
            found = json.loads(payload)
        except ValueError:
            found = None
        if found is not None and usable(found):
            return found
    value = compute()
    write(area, name, json.dumps(value, sort_keys=True, ensure_ascii=False).encode())
    return value


K = TypeVar("K")
V = TypeVar("V")


class Rendering(Generic[K, V]):
    """One document's rendering against its cache entry: what the entry held (``known``) and
    what the rendering asked for (``asked``), which becomes the entry when it differs. A holder,
    so a plain class (docs/architecture.md, "Start-up")."""

    def __init__(self, known: dict[K, V]) -> None:
        self.known = known
        self.asked: dict[K, V] = {}


@contextmanager
def rendering(current: ContextVar[Rendering[K, V] | None], name: str | None,
              load: Callable[[str], dict[K, V]],
              store: Callable[[str, dict[K, V]], None],
              kept: Callable[[Rendering[K, V]], dict[K, V]] | None = None) -> Iterator[None]:
    """Inside the block ``current`` is the rendering of entry ``name`` (loaded by ``load``);
    after a block that ended without an exception, what the entry is to keep is stored, if that
    is not what it held: what the rendering asked for, or what ``kept`` makes of the rendering
    (e.g. :func:`asked_then_earlier`). With no entry name (the cache is off) the block runs
    with none."""
    if name is None:
        yield
        return
    session: Rendering[K, V] = Rendering(load(name))
    token = current.set(session)
    try:
        yield
    finally:
        current.reset(token)
    entry = session.asked if kept is None else kept(session)
    if entry != session.known:
        store(name, entry)


def asked_then_earlier(session: Rendering[K, bytes]) -> dict[K, bytes]:
    """What a rendering asked for, then what its entry held that it did not ask for, in the
    entry's order (the most recently asked first, as far as the entry was last rewritten), while
    those add up to no more bytes than what was asked: a document edited and then edited back
    (an undo, a wording tried and dropped) finds what it asked for two renderings ago, and the
    entry stays within twice the size of one rendering's."""
    entry = dict(session.asked)
    room = sum(len(value) for value in entry.values())
    for key, value in session.known.items():
        if key not in entry:
            if len(value) > room:
                break
            entry[key] = value
            room -= len(value)
    return entry


def packed(blobs: list[tuple[list[Any], bytes]]) -> bytes:
    """An entry of blobs, each with its key (a list of JSON values): one JSON line listing each
    key with its blob's length appended, then the blobs in that order."""
    head = json.dumps([[*key, len(blob)] for key, blob in blobs], separators=(",", ":")).encode()
    return b"".join([head, b"\n", *(blob for _, blob in blobs)])


def unpacked(payload: bytes) -> list[tuple[list[Any], bytes]]:
    """The keys and blobs of a :func:`packed` entry; ValueError (or TypeError) unless its rows
    are lists ending in lengths that add up to the blobs."""
    head, _, body = payload.partition(b"\n")
    blobs, at = [], 0
    for row in json.loads(head):
        if not (isinstance(row, list) and row and isinstance(row[-1], int) and row[-1] >= 0):
            raise ValueError("a blob without its length")
        length = row[-1]
        blobs.append((row[:-1], body[at:at + length]))
        at += length
    if at != len(body):
        raise ValueError("the blobs do not add up to the entry")
    return blobs
