"""pnp's modules import each other in one direction: no cycle at module level, and no import
inside a function that would close one (a function-local import is for loading late, such
as an engine or ICU only when needed, never for hiding a cycle).

The graph is read from the source with ``ast``: ``if TYPE_CHECKING:`` blocks are left out
(annotations only), ``from package import submodule`` counts as importing the submodule.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "pnp"


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _owner(name: str) -> str | None:
    """The pnp module ``name`` is, or the one it lives in (``pnp.a.b.func`` -> ``pnp.a.b``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _targets(node: ast.Import | ast.ImportFrom, module: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".")
        if MODULES[module].name != "__init__.py":
            package.pop()
        package = package[:len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    # ``from pkg import sub`` imports pkg.sub; ``from mod import name`` imports mod.
    return [f"{base}.{alias.name}" for alias in node.names]


def _edges() -> tuple[dict[str, set[str]], list[tuple[str, int, str]]]:
    top: dict[str, set[str]] = {name: set() for name in MODULES}
    local: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, module: str, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, module, True)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                for target in _targets(child, module):
                    owner = _owner(target) if target.startswith("pnp") else None
                    if owner is None or owner == module:
                        continue
                    if in_function:
                        local.append((module, child.lineno, owner))
                    else:
                        top[module].add(owner)
            visit(child, module, in_function)

    for name, path in MODULES.items():
        visit(ast.parse(path.read_text(encoding="utf-8")), name, False)
    return top, local


def _reachable(start: str, graph: dict[str, set[str]]) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        for nxt in graph.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def test_the_graph_sees_the_package() -> None:
    top, local = _edges()
    assert "pnp.build.pipeline" in MODULES and "pnp.data.load" in top["pnp.games.ruleset"]
    assert local, "the CLI loads its commands late: some function-local imports must be seen"


def test_no_module_level_import_cycle() -> None:
    top, _ = _edges()
    cyclic = sorted(name for name in MODULES if name in _reachable(name, top))
    assert cyclic == []


def test_no_function_local_import_closes_a_cycle() -> None:
    top, local = _edges()
    closing = [f"{module}:{line} imports {target}, which imports {module}"
               for module, line, target in local if module in _reachable(target, top)]
    assert closing == []
