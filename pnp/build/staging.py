"""All-or-nothing writes of a whole build: stage every file, then swap them all in.

Staging writes each new file to a temporary name beside its target, so a full disk, a folder
that cannot be made (``output/<game>`` is a file) or a target that is a folder fails before
any earlier output is touched. The swap keeps a hard link (or copy) of every file it replaces
or removes, and on any failure puts every one of them back. Only then are the backups deleted.

A build killed mid-way leaves temporaries and backups named ``.<file>.pnp-<pid>-<tag>.tmp`` /
``.old``; the next write to the same output root removes them (and the ``.<file>.<random>.tmp``
names earlier versions of pnp left). Writers to one output root take an exclusive lock on it
for the whole stage-and-swap, so the files they find are never another live writer's.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pnp.core.errors import PnpError

try:
    import fcntl
except ImportError:  # Windows: writers are not serialised, the staging still holds
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

_OURS = re.compile(r"^\..+\.pnp-(\d+)-[0-9a-f]{8}\.(tmp|old)$")
_LEGACY = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")  # tempfile.mkstemp names, pnp ≤ 0.1
_SCAN_DEPTH = 3  # <root>/<game>/<lang>/png


@dataclass(frozen=True)
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


def _leftovers(root: Path) -> Iterator[Path]:
    base_depth = len(root.parts)
    for folder, dirs, files in os.walk(root):
        if len(Path(folder).parts) - base_depth >= _SCAN_DEPTH:
            dirs[:] = []
        for name in files:
            match = _OURS.match(name)
            if (match is None and _LEGACY.match(name)) or (match and not _alive(int(match.group(1)))):
                yield Path(folder) / name


def has_stale(root: Path) -> bool:
    return next(_leftovers(root), None) is not None


def remove_stale(root: Path) -> list[Path]:
    """Delete temporaries and backups a killed writer left under ``root``; call it locked."""
    removed = []
    for path in list(_leftovers(root)):
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
            log.info("removed %s, left by a build that did not finish", path)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # we hold the lock: nothing of ours is in flight yet
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


class Transaction:
    """Files to write and remove under one root, applied together or not at all."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.tag = f"pnp-{os.getpid()}-{secrets.token_hex(4)}"
        self.staged: list[tuple[Path, Path, int]] = []  # (target, temporary, size)
        self.removals: list[Path] = []

    def _side(self, target: Path, suffix: str) -> Path:
        return target.with_name(f".{target.name}.{self.tag}.{suffix}")

    def stage(self, relpath: Path, data: bytes) -> Path:
        """Write ``data`` beside its target; returns the temporary file (it keeps its inode and
        mtime when swapped in)."""
        target = self.root / relpath
        try:
            for parent in reversed([target.parent, *target.parent.parents]):
                if parent.exists() and not parent.is_dir():
                    raise _cannot(target, f"{parent} is a file, not a folder")
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_dir() and not target.is_symlink():
                raise _cannot(target, "a folder is in the way")
            tmp = self._side(target, "tmp")
            with open(tmp, "xb") as handle:
                self.staged.append((target, tmp, len(data)))
                handle.write(data)
            os.chmod(tmp, _file_mode())
        except OSError as exc:
            self.abort()
            raise _cannot(target, exc) from None
        except BaseException:
            self.abort()
            raise
        return tmp

    def remove(self, relpath: Path) -> None:
        self.removals.append(self.root / relpath)

    def abort(self) -> None:
        for _, tmp, _ in self.staged:
            with contextlib.suppress(OSError):
                tmp.unlink()
        self.staged.clear()

    def _backup(self, target: Path) -> Path | None:
        if not target.is_file() and not target.is_symlink():
            return None
        backup = self._side(target, "old")
        try:
            os.link(target, backup, follow_symlinks=False)
        except OSError:
            shutil.copy2(target, backup, follow_symlinks=False)
        return backup

    def commit(self) -> list[Written]:
        """Swap every staged file in and make every removal; on failure put everything back."""
        done: list[tuple[Path, Path | None]] = []  # (target, its backup or None if it was new)
        try:
            for target, tmp, _ in self.staged:
                backup = self._backup(target)
                done.append((target, backup))
                os.replace(tmp, target)
            for target in self.removals:
                if target.is_file() or target.is_symlink():
                    backup = self._backup(target)
                    done.append((target, backup))
                    target.unlink()
        except BaseException as exc:
            self._roll_back(done)
            self.abort()
            if isinstance(exc, OSError):
                failed = exc.filename or self.root
                raise _cannot(Path(failed), exc) from None
            raise
        for _, backup in done:
            if backup is not None:
                with contextlib.suppress(OSError):
                    backup.unlink()
        written = [Written(target, size) for target, _, size in self.staged]
        self.staged.clear()
        return written

    @staticmethod
    def _roll_back(done: list[tuple[Path, Path | None]]) -> None:
        for target, backup in reversed(done):
            with contextlib.suppress(OSError):
                if backup is None:
                    target.unlink()
                elif target.exists() and os.path.samefile(backup, target):
                    # Never replaced: renaming one hard link onto another does nothing (POSIX).
                    backup.unlink()
                else:
                    os.replace(backup, target)


def prepare_root(root: Path) -> None:
    """Make the output root, or say plainly why it cannot be."""
    if root.exists() and not root.is_dir():
        raise _cannot(root, "it is a file, not a folder")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _cannot(root, exc) from None
