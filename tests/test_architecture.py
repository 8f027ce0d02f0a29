"""The package's shape, held: ``ls pnp`` shows the pipeline, modules and functions stay small,
no module reaches into another's private names, and a game package draws and parses nothing.

The layers themselves (which package may import which) are import-linter's contract in
pyproject.toml, run by .ci/run; tests/test_import_cycles.py holds the module graph acyclic.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "pnp"
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def test_the_top_of_the_package_holds_packages_only() -> None:
    loose = sorted(p.name for p in PACKAGE.iterdir()
                   if p.suffix == ".py" and p.name not in ("__init__.py", "__main__.py"))
    assert loose == []
    packages = sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").is_file())
    for name in packages:
        assert ast.get_docstring(ast.parse((PACKAGE / name / "__init__.py").read_text("utf-8"))), \
            f"pnp/{name}/__init__.py should say what the package is for"


def test_no_module_is_too_long() -> None:
    long = {str(p.relative_to(ROOT)): n for p in _sources()
            if (n := len(p.read_text("utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}


def test_no_function_is_too_long() -> None:
    long = {}
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"] = lines
    assert long == {}


def test_no_private_name_is_imported_across_modules() -> None:
    found = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pnp"):
                found += [f"{_module_name(path)} imports {node.module}.{alias.name}" for alias in node.names
                          if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert found == []


def test_game_packages_import_no_command_line_and_no_drawing() -> None:
    forbidden = ("click", "reportlab", "pnp.cli", "PIL", "pypdfium2")
    found = []
    for path in (PACKAGE / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(ROOT)} imports {n}" for n in names
                      if any(n == f or n.startswith(f + ".") for f in forbidden)]
    assert found == []


def test_every_test_folder_is_collected_by_the_plain_run() -> None:
    """`python -m pytest` skips folders its `norecursedirs` names (by default `build`, which
    tests/build/ is, mirroring pnp/build/): no folder of tests may match one."""
    import fnmatch
    import tomllib

    options = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["pytest"]["ini_options"]
    assert "norecursedirs" in options, "pytest's default norecursedirs skips tests/build/"
    folders = {path.parent for path in (ROOT / "tests").rglob("test_*.py")}
    skipped = [folder for folder in folders for part in folder.relative_to(ROOT).parts
               for pattern in options["norecursedirs"] if fnmatch.fnmatch(part, pattern)]
    assert skipped == []
