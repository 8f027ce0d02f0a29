"""Every file pnp reads, read in one place, and every place it writes, checked in one place.

A game folder is downloaded and shared, so its links and special files are hostile input:

- a path inside a workspace (or inside the installed pnp package) must still be inside it once
  every link is followed: a link that stays inside is fine, one that leads out is refused;
- a FIFO, a device or a socket is refused by name, before it is opened for reading (a FIFO
  would block the read, a device could be endless);
- a file is refused by its size before it is read, and the read itself stops one byte past the
  limit, so a file that grows (or lies about its size) is never read whole.

A path outside every workspace is one the user named on the command line or a system font
found through fontconfig: it is the user's own choice, and only the special-file and size rules
apply to it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from pnp.core.errors import DataError
from pnp.core.problems import Problem

# A card-data file or template is a few hundred kilobytes at most; a larger one is a mistake
# (or an attack) and is refused before it is read into memory.
MAX_FILE_BYTES = 8 * 1024 * 1024

# The installed package (its bundled faces, sheet templates and scaffold files).
PACKAGE_ROOT = Path(__file__).resolve().parents[1]
# What marks a workspace's root (as pnp.core.workspace.find_workspace looks for it).
_MARKER = "card_data"


def shown(file: Path) -> Path:
    """A file as the user would type it: relative to the current folder when inside it."""
    here = Path.cwd()
    # As named (links not followed): a link out of the workspace is shown where it lies.
    named = Path(os.path.abspath(file))
    if named.is_relative_to(here):
        return named.relative_to(here)
    try:
        return file.resolve().relative_to(here)
    except (ValueError, OSError, RuntimeError):
        return file


def special_kind(mode: int) -> str | None:
    """What a file that is neither a regular file nor a folder is, in words; None for those two."""
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return "not a regular file"


def anchor_of(path: Path) -> Path | None:
    """The folder ``path`` must stay inside once its links are followed: the installed package
    when it names a file in it, else the nearest workspace root (a folder holding card_data/) it
    names a file in, else None (a path of the user's own choosing). Only the part before a
    first ``..`` counts, so ``card_data/g/../../../etc`` is still a path into the workspace."""
    parts = (Path.cwd() / path).parts
    if ".." in parts:
        parts = parts[: parts.index("..")]
    prefix = Path(*parts)
    if prefix.is_relative_to(PACKAGE_ROOT):
        return PACKAGE_ROOT
    for folder in (prefix, *prefix.parents):
        if (folder / _MARKER).is_dir():
            return folder
    return None


def _refuse(path: Path, message: str) -> DataError:
    return DataError(Problem(message, str(shown(path))))


def confined(path: Path, what: str = "", within: Path | None = None) -> Path:
    """``path`` with every link followed, if it stays inside ``within`` (by default its own
    workspace or the package, :func:`anchor_of`); a DataError naming the file otherwise."""
    label = f"{what} " if what else ""
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # a link loop; a NUL in the name
        raise _refuse(path, f"{label}cannot be followed ({exc})") from None
    anchor = within if within is not None else anchor_of(path)
    if anchor is not None and not resolved.is_relative_to(anchor.resolve()):
        raise _refuse(path, f"{label}leads out of the workspace (to {resolved}); pnp reads and writes "
                            "only inside it: replace the link by a file or folder of its own")
    return resolved


def check_kind(path: Path, *, folder_ok: bool = False, named: Path | None = None) -> os.stat_result | None:
    """The stat of ``path`` (followed), None if it does not exist; a DataError naming a FIFO,
    device or socket (or a folder, unless ``folder_ok``) as ``named`` (default: ``path``)."""
    named = named or path
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _refuse(named, f"cannot be read ({exc.strerror or exc})") from None
    kind = special_kind(st.st_mode)
    if kind is not None:
        raise _refuse(named, f"is {kind}, not a file; pnp reads and writes only regular files")
    if stat.S_ISDIR(st.st_mode) and not folder_ok:
        raise _refuse(named, "is a folder, expected a file")
    return st


def read_bytes(path: Path, *, limit: int = MAX_FILE_BYTES, what: str = "") -> bytes:
    """The bytes of a regular file inside its workspace, at most ``limit`` of them; a DataError
    naming the file for a link out, a special file, a missing or an oversized file."""
    resolved = confined(path, what)
    st = check_kind(resolved, named=path)
    if st is None:
        raise _refuse(path, "file not found")
    if st.st_size > limit:
        raise _refuse(path, f"{st.st_size:,} bytes is too large for a pnp file (at most {_size(limit)})")
    try:
        # O_NONBLOCK: should the file have become a FIFO since the stat, opening it returns at
        # once and the fstat below refuses it.
        fd = os.open(resolved, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise _refuse(path, "file not found") from None
    except OSError as exc:
        raise _refuse(path, f"cannot be read ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as handle:
        kind = special_kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise _refuse(path, f"is {kind}, not a file; pnp reads only regular files")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise _refuse(path, f"more than {_size(limit)}, too large for a pnp file")
    return data


def writable(path: Path, what: str = "") -> Path:
    """``path`` checked before pnp writes it (or a file in it): inside its workspace once links
    are followed, and not a FIFO, device or socket (writing one would block or reach a device)."""
    resolved = confined(path, what)
    check_kind(resolved, folder_ok=True, named=path)
    return resolved


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit:,} bytes"
