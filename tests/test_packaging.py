"""What `pip install pnp-zh` gets: a name of its own, one declared version that `pnp --version`
prints, and every file a build needs (faces, licences, scaffold) declared as package data. The
wheel itself is built, installed and run in a fresh venv by .ci/wheel_smoke.sh (from .ci/run)."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib

from tests.conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = re.search(r'^__version__ = "([^"]+)"$', (ROOT / "pnp" / "__init__.py").read_text(encoding="utf-8"),
                    re.M)


def test_the_distribution_has_a_name_of_its_own_and_the_command_stays_pnp() -> None:
    project = PYPROJECT["project"]
    assert project["name"] == "pnp-zh"  # "pnp" in the package index is an unrelated project
    assert project["scripts"] == {"pnp": "pnp.__main__:run"}


def test_the_version_is_declared_once_and_printed_by_pnp_version() -> None:
    assert VERSION is not None
    assert "version" not in PYPROJECT["project"] and "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "pnp.__version__"}
    printed = subprocess.run([sys.executable, "-m", "pnp", "--version"], capture_output=True, text=True,
                             cwd=ROOT, timeout=60)
    assert printed.returncode == 0 and printed.stdout == f"pnp, version {VERSION.group(1)}\n"
    assert importlib.metadata.version("pnp-zh") == VERSION.group(1)


def test_every_file_of_the_package_that_is_not_code_is_package_data() -> None:
    """A data file no package-data pattern names would be missing from the wheel."""
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]
    data = [p for p in (ROOT / "pnp").rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
            and "__pycache__" not in p.parts]
    # setuptools globs each pattern in its package's folder
    listed = {match for package, globs in patterns.items() for pattern in globs
              for match in ROOT.joinpath(*package.split(".")).glob(pattern)}
    unlisted = sorted(p.relative_to(ROOT).as_posix() for p in data if p not in listed)
    assert unlisted == []
    names = {p.relative_to(ROOT).as_posix() for p in data}
    for face in ("TC-Regular", "TC-Bold", "SC-Regular", "SC-Bold"):
        assert f"pnp/core/faces/PnpSans{face}.ttf" in names
    assert {"pnp/core/faces/OFL.txt", "pnp/core/faces/README.md", "pnp/scaffold/files/workspace/pnp.toml",
            "pnp/scaffold/files/zh-Hans/game.yaml", "pnp/scaffold/files/zh-Hant/rulebook.md.j2",
            "pnp/core/sheets/poker-3x3-a4.yaml", "pnp/core/sheets/poker-3x3-letter.yaml",
            "pnp/py.typed"} <= names  # py.typed: a designer's mypy reads pnp's types (PEP 561)
    # The engine starter is Python in a folder that is no package: only package data ships it.
    engine = ROOT / "pnp/scaffold/files/kit/engine"
    assert {engine / "game.py", engine / "pyproject.toml", engine / "gitignore"} <= listed
    licences = PYPROJECT["tool"]["setuptools"]["license-files"]
    assert all((ROOT / name).is_file() for name in licences) and "LICENSE" in licences
