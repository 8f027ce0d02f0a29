"""What pnp's own outputs depend on besides their inputs: pnp's code and the libraries that draw.

Any change to the code that draws an output, or to a library it draws with, changes the
fingerprint; the build record and the caches of fitted text key their entries by it.
"""

from __future__ import annotations

import hashlib
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
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(p for p in package.rglob("*") if p.suffix in SOURCE_SUFFIXES):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    versions = library_versions()
    for name in LIBRARIES:
        digest.update(f"{name}={versions[name]}\n".encode())
    return digest.hexdigest()


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
