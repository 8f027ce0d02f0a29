"""The swap journal: what a write is about to do to an output root, so a killed one is undone or finished.

A :class:`pnp.build.staging.Transaction` writes ``<root>/.pnp-swap.<tag>.json`` (and fsyncs it
and the folder) before it creates its first temporary file. The journal lists every file the
write touches, by its path under the root, and whether a new version is staged for it and
whether an old one was there; every other name follows from the path and the tag:
``.<file>.<tag>.tmp`` (the new version), ``.<file>.<tag>.old`` (a hard link to, or copy of, the
old one). Once every temporary is written and fsynced and every backup made, an empty
``.pnp-swap.<tag>.commit`` says the swap may start; the renames follow; then the backups, the
commit mark and the journal are deleted, in that order.

The next write to the root, and every ``pnp`` command for the workspace's output folder, first
recovers any journal it finds there (under the root's lock, so never a live writer's): with
the commit mark and every new version still at hand the swap is finished (replayed), otherwise
every file is put back as it was (rolled back). Either way the root then holds one write's
files, never a mix of two.

This is the only way pnp removes a file it did not just write: a name the journal implies, in
the folder of a path the journal lists, that stays inside the root. Nothing is removed for
matching a pattern (earlier versions of pnp did that, and deleted a user's ``.x.abcdefgh.tmp``
files from any folder they wrote to).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePosixPath

from pnp.core.records import record

log = logging.getLogger(__name__)

FORMAT = "pnp-swap-journal"
_TAG = r"pnp-(\d+)-[0-9a-f]{8}"
_JOURNAL = re.compile(rf"^\.pnp-swap\.({_TAG})\.json$")
_LIMIT = 16 * 1024 * 1024  # a journal of 100,000 PNG faces is some 10 MB


@record
class Entry:
    """One file of a write: ``new``, a new version is staged for it (else it is removed), whose
    SHA-256 is ``digest``; ``old``, a file was there (and is kept as the backup until the swap
    is done)."""

    path: PurePosixPath
    new: bool
    old: bool
    digest: str = ""


@record
class Recovery:
    """A journal found at an output root and what was done with it: ``finished`` or ``rolled back``."""

    journal: Path
    outcome: str


def journal_name(tag: str) -> str:
    return f".pnp-swap.{tag}.json"


def side(target: Path, tag: str, suffix: str) -> Path:
    """The temporary (``tmp``) or backup (``old``) name of ``target`` in a write tagged ``tag``."""
    return target.with_name(f".{target.name}.{tag}.{suffix}")


def fsync_folder(folder: Path) -> None:
    """Make a folder's entries (names created, renamed, removed) durable; a no-op where folders
    cannot be opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def _holds(path: Path, digest: str) -> bool:
    """``path`` is a file with exactly the bytes the journal staged (so it is pnp's own)."""
    try:
        return path.is_file() and not path.is_symlink() and _digest(path) == digest
    except OSError:
        return False


def _write_new(path: Path, data: bytes) -> None:
    """Create ``path`` (never over an existing file) with ``data``, durably; a half-written
    one (a full disk, Ctrl-C) is removed again."""
    with open(path, "xb") as handle:
        try:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        except BaseException:
            path.unlink(missing_ok=True)
            raise


class Journal:
    """The journal of one write under ``root``; see the module's docstring."""

    def __init__(self, root: Path, tag: str, entries: Sequence[Entry]) -> None:
        self.root = root
        self.tag = tag
        self.entries = tuple(entries)
        self.path = root / journal_name(tag)
        self.mark = self.path.with_suffix(".commit")

    def target(self, entry: Entry) -> Path:
        return self.root / entry.path

    def tmp(self, entry: Entry) -> Path:
        return side(self.target(entry), self.tag, "tmp")

    def old(self, entry: Entry) -> Path:
        return side(self.target(entry), self.tag, "old")

    def write(self) -> None:
        """Write and fsync the journal, before anything it names exists."""
        body = {"format": FORMAT, "tag": self.tag,
                "entries": [{"path": str(e.path), "new": e.new, "old": e.old, "sha256": e.digest}
                            for e in self.entries]}
        _write_new(self.path, json.dumps(body, ensure_ascii=False, indent=0).encode())
        fsync_folder(self.root)

    def commit_mark(self) -> None:
        """Every temporary and backup is on disk: from here a killed swap is finished, not undone."""
        for folder in {self.target(entry).parent for entry in self.entries}:
            fsync_folder(folder)
        _write_new(self.mark, b"")
        fsync_folder(self.root)

    def committed(self) -> bool:
        return self.mark.exists()

    def _swapped(self, entry: Entry) -> bool:
        """Whether ``entry``'s rename (or removal) has happened; valid only after the commit mark."""
        target = self.target(entry)
        if not entry.new:
            return not (target.is_file() or target.is_symlink())
        return not self.tmp(entry).exists() and _holds(target, entry.digest)

    def can_finish(self) -> bool:
        """Committed, and each file not yet swapped has its new version (or backup) at hand."""
        if not self.committed():
            return False
        return all(self._swapped(entry) or (_holds(self.tmp(entry), entry.digest) if entry.new
                                            else self.old(entry).exists())
                   for entry in self.entries)

    def finish(self) -> None:
        """Make every rename and removal not yet made, then clean up."""
        for entry in self.entries:
            target, tmp = self.target(entry), self.tmp(entry)
            if entry.new and tmp.is_file():
                os.replace(tmp, target)
            elif not entry.new and entry.old and self.old(entry).exists():
                with contextlib.suppress(FileNotFoundError):
                    target.unlink()
        self.discard()

    def roll_back(self) -> None:
        """Put every file back as it was before the write, from any step of it, then clean up."""
        committed = self.committed()
        for entry in reversed(self.entries):
            target, tmp, old = self.target(entry), self.tmp(entry), self.old(entry)
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            present = target.is_file() or target.is_symlink()
            if entry.old and old.exists():
                if present and os.path.samefile(old, target):
                    old.unlink()  # never replaced (renaming one hard link onto another does nothing)
                else:
                    os.replace(old, target)
            elif entry.new and not entry.old and committed and _holds(target, entry.digest):
                target.unlink()  # it was not there before: the swap put it there (its bytes say so)
        self._forget()

    def discard(self) -> None:
        """The write is done: delete the backups, then the commit mark, then the journal."""
        for entry in self.entries:
            with contextlib.suppress(FileNotFoundError):
                self.old(entry).unlink()
        self._forget()

    def _forget(self) -> None:
        for folder in {self.target(entry).parent for entry in self.entries}:
            fsync_folder(folder)
        with contextlib.suppress(FileNotFoundError):
            self.mark.unlink()
        fsync_folder(self.root)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def _entry(root: Path, item: object) -> Entry | None:
    """An entry as the journal file holds it, if it is one pnp could have written: a relative
    path without ``..`` whose folder stays inside the root."""
    if not isinstance(item, dict) or not isinstance(item.get("path"), str):
        return None
    path = PurePosixPath(item["path"])
    if path.is_absolute() or not path.parts or any(part in ("..", ".", "") for part in path.parts) or "\\" in str(path):
        return None
    if not (root / path).parent.resolve().is_relative_to(root.resolve()):
        return None
    new, old, digest = item.get("new"), item.get("old"), item.get("sha256", "")
    if not isinstance(new, bool) or not isinstance(old, bool) or not isinstance(digest, str):
        return None
    if new and re.fullmatch(r"[0-9a-f]{64}", digest) is None:
        return None
    return Entry(path, new, old, digest)


def read_journal(root: Path, name: str) -> Journal | None:
    """The journal ``root/name``, or None when it is not one (a foreign or damaged file is left
    alone: pnp removes nothing it cannot show it wrote)."""
    match = _JOURNAL.match(name)
    path = root / name
    if match is None or path.is_symlink() or not path.is_file() or path.stat().st_size > _LIMIT:
        return None
    try:
        body = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(body, dict) or body.get("format") != FORMAT or body.get("tag") != match.group(1):
        return None
    items = body.get("entries")
    if not isinstance(items, list):
        return None
    entries = [_entry(root, item) for item in items]
    if any(entry is None for entry in entries):
        return None
    return Journal(root, match.group(1), [entry for entry in entries if entry is not None])


def journals(root: Path) -> Iterator[Journal]:
    """Every journal at ``root`` left by a writer no longer running."""
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return
    for name in names:
        match = _JOURNAL.match(name)
        if match is None or _alive(int(match.group(2))):
            continue
        journal = read_journal(root, name)
        if journal is None:
            log.warning("%s: not a journal pnp can read; left as it is", root / name)
            continue
        yield journal


def _alive(pid: int) -> bool:
    """A writer's process still runs (the lock already keeps them apart; this guards where
    there is no lock, or two roots nest)."""
    if pid == os.getpid():
        return False  # the caller holds the lock: nothing of ours is in flight
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def recover(root: Path) -> list[Recovery]:
    """Finish or roll back every write a killed process left at ``root``; call it under the
    root's lock."""
    done = []
    for journal in journals(root):
        if journal.can_finish():
            journal.finish()
            outcome = "finished"
        else:
            journal.roll_back()
            outcome = "rolled back"
        log.info("%s: a write that did not finish was %s", journal.path.parent, outcome)
        done.append(Recovery(journal.path, outcome))
    return done
