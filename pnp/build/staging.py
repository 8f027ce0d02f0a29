"""All-or-nothing writes of a whole build: stage every file, then swap them all in.

Staging checks each target as it is named (a folder that cannot be made because
``output/<game>`` is a file, a target that is a folder), before anything is written. The
commit then writes the journal (:mod:`pnp.build.journal`), every new file to a temporary name
beside its target, and a hard link (or copy) of every file it replaces or removes; only then
does it rename the new files into place. On any failure, Ctrl-C or SIGTERM included, every old
file is put back; a process killed outright leaves the journal, and the next write to the same
root (or any ``pnp`` command, for the workspace's output folder) finishes or undoes the swap
from it. Writers to one output root take an exclusive lock on it for the whole
stage-and-swap, so a journal they find is never another live writer's.

pnp removes nothing else: no file is deleted for having a name like a temporary's.

For developers: :func:`_swap_step` is called at each step of a commit (0: the journal is
written; 1: every temporary and backup is on disk and the commit is marked; 2 + k: k files
renamed or removed; then once the backups are gone). It does nothing; tests replace it to kill
the process at a chosen step (tests/build/test_kill_swap.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from pnp.build.journal import Entry, Journal, Recovery, recover, side
from pnp.core.errors import PnpError
from pnp.core.records import record

try:
    import fcntl
except ImportError:  # Windows: writers are not serialised, the staging still holds
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

__all__ = ["Recovery", "Transaction", "Written", "locked", "prepare_root", "recover", "recover_folder"]


@record
class Written:
    path: Path
    size: int


def _file_mode() -> int:
    """The mode an ordinary new file gets under the user's umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _cannot(path: Path, exc: OSError | str) -> PnpError:
    reason = exc if isinstance(exc, str) else (exc.strerror or str(exc))
    return PnpError(f"{path}: cannot write here: {reason}; nothing was changed")


@contextlib.contextmanager
def locked(root: Path) -> Iterator[None]:
    """Hold an exclusive lock on the output root folder itself (no lock file to leave behind)."""
    if fcntl is None:
        yield
        return
    fd = os.open(root, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def recover_folder(root: Path) -> list[Recovery]:
    """Finish or undo the writes a killed pnp left at ``root`` (a folder, or nothing to do)."""
    if not root.is_dir():
        return []
    with locked(root):
        return recover(root)


def _swap_step(step: int) -> None:
    """A fault point for tests (see the module's docstring); does nothing."""


class Transaction:
    """Files to write and remove under one root, applied together or not at all."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.tag = f"pnp-{os.getpid()}-{secrets.token_hex(4)}"
        self.staged: list[tuple[Path, bytes]] = []  # (target, its new bytes)
        self.removals: list[Path] = []

    def stage(self, relpath: Path, data: bytes) -> Path:
        """Schedule ``data`` to be written as ``relpath``; returns the temporary file it will be
        written to at commit (it keeps its inode and mtime when swapped in)."""
        target = self.root / relpath
        try:
            for parent in reversed([target.parent, *target.parent.parents]):
                if parent.exists() and not parent.is_dir():
                    raise _cannot(target, f"{parent} is a file, not a folder")
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_dir() and not target.is_symlink():
                raise _cannot(target, "a folder is in the way")
        except OSError as exc:
            raise _cannot(target, exc) from None
        self.staged.append((target, data))
        return side(target, self.tag, "tmp")

    def remove(self, relpath: Path) -> None:
        self.removals.append(self.root / relpath)

    def abort(self) -> None:
        self.staged.clear()
        self.removals.clear()

    def _journal(self) -> Journal:
        entries = [Entry(PurePosixPath(target.relative_to(self.root).as_posix()), True,
                         target.is_file() or target.is_symlink(), hashlib.sha256(data).hexdigest())
                   for target, data in self.staged]
        entries += [Entry(PurePosixPath(target.relative_to(self.root).as_posix()), False, True)
                    for target in self.removals if target.is_file() or target.is_symlink()]
        return Journal(self.root, self.tag, entries)

    def _prepare(self, journal: Journal) -> None:
        """Every new file at its temporary name, every old one kept at its backup name."""
        mode = _file_mode()
        for (_, data), entry in zip(self.staged, journal.entries, strict=False):
            tmp = journal.tmp(entry)
            with open(tmp, "xb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, mode)
        for entry in journal.entries:
            if entry.old:
                target, backup = journal.target(entry), journal.old(entry)
                try:
                    os.link(target, backup, follow_symlinks=False)
                except OSError:
                    shutil.copy2(target, backup, follow_symlinks=False)

    def commit(self) -> list[Written]:
        """Swap every staged file in and make every removal; on failure put everything back."""
        journal = self._journal()
        try:
            journal.write()
        except OSError as exc:
            self.abort()
            raise _cannot(Path(exc.filename or journal.path), exc) from None
        try:
            _swap_step(0)
            self._prepare(journal)
            journal.commit_mark()
            _swap_step(1)
            for step, entry in enumerate(journal.entries, start=2):
                target = journal.target(entry)
                if entry.new:
                    os.replace(journal.tmp(entry), target)
                else:
                    target.unlink()
                _swap_step(step)
        except BaseException as exc:
            try:
                journal.roll_back()
            except OSError as undo:  # the journal stays: the next write finishes the undoing
                log.warning("%s: could not put the old files back yet: %s", self.root, undo)
            self.abort()
            if isinstance(exc, OSError):
                raise _cannot(Path(exc.filename or self.root), exc) from None
            raise
        journal.discard()
        _swap_step(len(journal.entries) + 2)
        written = [Written(target, len(data)) for target, data in self.staged]
        self.abort()
        return written


def prepare_root(root: Path) -> None:
    """Make the output root, or say plainly why it cannot be."""
    if root.exists() and not root.is_dir():
        raise _cannot(root, "it is a file, not a folder")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _cannot(root, exc) from None
