"""What the before-and-after benchmarks share: the pnp package of this checkout or of a
revision, copied apart so a timed process imports exactly that code, and an edit of a
workspace copy that fails loudly when the text it replaces is gone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def package_copy(revision: str | None, into: Path) -> Path:
    """A folder holding the pnp package of ``revision`` (None: this checkout as it is now,
    without __pycache__, so a timed run compiles it as a fresh install would); run with
    PYTHONPATH set to it."""
    into.mkdir(parents=True)
    if revision is None:
        shutil.copytree(ROOT / "pnp", into / "pnp", ignore=shutil.ignore_patterns("__pycache__"))
        return into
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "pnp"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def plain_python(into: Path) -> Path:
    """A Python of a new venv under ``into`` that sees this interpreter's installed packages
    through a ``.pth`` line but runs none of their ``.pth`` hooks: pnp's editable install adds a
    finder that every process imports at start-up (≈ 10 ms), which a pnp installed from a wheel
    does not have. Run pnp in it with PYTHONPATH set to a :func:`package_copy`."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(into)], check=True)
    python = into / "bin" / "python"
    paths = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                           check=True, capture_output=True, text=True).stdout.strip()
    ours = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (Path(paths) / "installed.pth").write_text("".join(f"{path}\n" for path in ours), encoding="utf-8")
    return python


BYTECODE_MODES = ("compiled", "cached")


def child_env(code: Path, mode: str, pycache: Path) -> dict[str, str]:
    """The environment of a child running the pnp under ``code``. ``compiled``: the child compiles
    pnp's modules from source in every process (``PYTHONDONTWRITEBYTECODE=1``, as this machine
    sets it; the standard library and installed packages keep their own ``.pyc`` files).
    ``cached``: as on a designer's machine, where pip compiled the wheel at install or Python
    wrote the ``.pyc`` files on the first run: they are kept under ``pycache``
    (``PYTHONPYCACHEPREFIX``), so run one unmeasured step first to fill it."""
    env = {name: value for name, value in os.environ.items()
           if name not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    env["PYTHONPATH"] = str(code)
    if mode == "compiled":
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in ``path`` by ``new`` (a benchmark whose edit no longer
    applies must stop, not time a build that changed nothing)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
