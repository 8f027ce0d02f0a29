"""What pnp's own outputs depend on besides their inputs: pnp's code and the libraries that draw.

Any change to the code that draws an output, or to a library it draws with, changes the
fingerprint; the build record and the caches of fitted text key their entries by it.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

from pnp import __version__
from pnp.core import diskcache

LIBRARIES = ("reportlab", "pillow", "fonttools", "opencc", "icu4py", "jinja2", "markdown-it-py",
             "PyYAML", "pypdfium2")
ABSENT = "absent"


SOURCE_SUFFIXES = (".py", ".icc", ".icm")


@cache
def pnp_fingerprint() -> str:
    """pnp's version, a hash of every source file of the package (and of the colour profiles
    its PNGs embed) and the library versions: any change to the code that draws an output
    rebuilds it."""
    return source_fingerprint(Path(__file__).resolve().parents[1])


FINGERPRINT_AREA = "fingerprint"
_DIGEST_LEN = 64


def source_fingerprint(package: Path) -> str:
    """The fingerprint of the package in ``package`` (see :func:`pnp_fingerprint`).

    Hashing its 2 MB of sources cost every build ≈ 6 ms, so the answer is kept in pnp's disk
    cache under every source file's path and stamp (:func:`diskcache.file_stamp`: size, times
    and inode, as git's index keeps them). A file changed in the last moments could change
    again within the same clock tick and keep its stamp, so the answer is kept only once every
    file is older than that (:func:`diskcache.settled`)."""
    sources = _source_files(package)
    versions = library_versions()
    stamps = _stamps(package, sources)
    key = hashlib.sha256(f"{__version__}\0{package}\0".encode("utf-8", "surrogateescape"))
    key.update(repr(list(zip(sources, stamps, strict=True))).encode("utf-8", "surrogateescape"))
    for name in LIBRARIES:
        key.update(f"{name}={versions[name]}\n".encode())
    name = key.hexdigest()
    found = diskcache.read(FINGERPRINT_AREA, name, _DIGEST_LEN)
    if found is not None and len(found) == _DIGEST_LEN:
        return found.decode("ascii")
    digest = hashlib.sha256(__version__.encode())
    for relative in sources:
        digest.update(relative.encode("utf-8", "surrogateescape"))
        digest.update(b"\0")
        digest.update((package / relative).read_bytes())
        digest.update(b"\0")
    for lib in LIBRARIES:
        digest.update(f"{lib}={versions[lib]}\n".encode())
    fingerprint = digest.hexdigest()
    # Kept only if no file changed while it was read, and none could still change unseen.
    if all(map(diskcache.settled, stamps)) and _stamps(package, sources) == stamps:
        diskcache.write(FINGERPRINT_AREA, name, fingerprint.encode("ascii"))
    return fingerprint


def _source_files(package: Path) -> list[str]:
    """The source files under ``package``, as paths relative to it, in the order of their parts
    (as sorted paths are)."""
    found = []
    top = str(package)
    for folder, _dirs, names in os.walk(top):
        inner = os.path.relpath(folder, top)
        prefix = "" if inner == "." else inner + os.sep
        found += [prefix + name for name in names if os.path.splitext(name)[1] in SOURCE_SUFFIXES]
    return sorted(found, key=lambda relative: relative.split(os.sep))


def _stamps(package: Path, sources: list[str]) -> list[diskcache.FileStamp]:
    return [diskcache.file_stamp(os.stat(os.path.join(package, relative))) for relative in sources]


LIBRARY_AREA = "libraries"


def library_versions() -> dict[str, str]:
    """The installed version of each of LIBRARIES (``absent`` if not installed), as
    :mod:`importlib.metadata` reads them. The answer is kept in pnp's disk cache
    (:func:`pnp.core.diskcache.for_installed`): importing importlib.metadata and searching the path
    for nine distributions cost every build ≈ 25 ms, a tenth of a no-op build."""
    versions: dict[str, str] = diskcache.for_installed(
        LIBRARY_AREA, LIBRARIES, 4096, _read_versions,
        lambda found: isinstance(found, dict) and all(isinstance(found.get(lib), str) for lib in LIBRARIES))
    return {lib: versions[lib] for lib in LIBRARIES}


def _read_versions() -> dict[str, str]:
    from importlib import metadata  # only when the installed packages changed

    versions = {}
    for lib in LIBRARIES:
        try:
            versions[lib] = metadata.version(lib)
        except metadata.PackageNotFoundError:
            versions[lib] = ABSENT
    return versions
