"""Printed tables against the rules: recompute with the engine, diff cell by cell, update.

card_data keeps each printed table as literal rows, exactly what gets printed. The engine
recomputes them from the rules parameters in game.yaml; any cell that differs is a
``CellDiff`` naming the table, row and column. ``update_tables`` rewrites the literal rows
in tables.yaml (and nothing else in the file) for the designer to review in a diff.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.data.load import TABLES_FILE
from pnp.data.model import Game
from pnp.data.yamlmarks import load_yaml
from pnp.games.base import TableRows
from pnp.games.registry import get_game, has_game
from pnp.games.rules import game_rules


@dataclass(frozen=True)
class CellDiff:
    """One disagreement between a printed table and the engine.

    ``kind`` is ``cell`` (one value differs), ``row-missing`` / ``row-extra`` (whole rows;
    ``column`` is ``*``) or ``table-not-computed`` (the engine has no such table).
    """

    table: str
    row: int  # 0-based index into the table's rows
    column: str
    printed: Any
    computed: Any
    where: str
    kind: str = "cell"

    def describe(self) -> str:
        if self.kind == "table-not-computed":
            return f"{self.where}: table {self.table!r} is printed but the engine computes no such table"
        return (f"{self.where}: table {self.table!r}, row {self.row + 1}, column {self.column!r}: "
                f"printed {self.printed!r}, the rules give {self.computed!r}")


def computed_tables(game: Game) -> dict[str, TableRows]:
    """Every table the engine computes from the game's rules parameters."""
    if not has_game(game.slug):
        return {}
    plugin = get_game(game.slug)
    return plugin.compute_tables(game_rules(plugin, game))


def diff_tables(game: Game) -> list[CellDiff]:
    """Every printed cell that differs from the engine, plus missing and extra rows."""
    computed = computed_tables(game)
    diffs: list[CellDiff] = []
    for name, printed in game.tables.items():
        if name not in computed:
            diffs.append(CellDiff(name, 0, "*", None, None, printed.where, "table-not-computed"))
            continue
        expected = computed[name]
        for index in range(max(len(printed.rows), len(expected))):
            where = printed.row_where[index] if index < len(printed.row_where) else printed.where
            if index >= len(printed.rows):
                diffs.append(CellDiff(name, index, "*", None, dict(expected[index]), where, "row-missing"))
                continue
            if index >= len(expected):
                diffs.append(CellDiff(name, index, "*", dict(printed.rows[index]), None, where, "row-extra"))
                continue
            for column in printed.columns:
                have = printed.rows[index].get(column.key)
                want = expected[index].get(column.key)
                if have != want:
                    diffs.append(CellDiff(name, index, column.key, have, want, where))
    return diffs


def _flow_row(row: dict[str, Any], keys: list[str]) -> str:
    parts = []
    for key in keys:
        value = row[key]
        text = json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)
        parts.append(f"{key}: {text}")
    return "{" + ", ".join(parts) + "}"


def update_tables(game_dir: Path, game: Game) -> list[str]:
    """Rewrite the rows of every printed table from the engine; returns the tables changed."""
    computed = computed_tables(game)
    stale = {diff.table for diff in diff_tables(game) if diff.kind != "table-not-computed"}
    changed = [name for name in game.tables if name in stale]
    if not changed:
        return []
    path = game_dir / TABLES_FILE
    doc = load_yaml(path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    # Replace from the bottom up so earlier line numbers stay valid.
    spans = []
    for name in changed:
        start = doc.lines[("tables", name, "rows")] - 1
        indent = len(lines[start]) - len(lines[start].lstrip())
        end = start + 1
        while end < len(lines):
            stripped = lines[end].strip()
            if stripped and not stripped.startswith("#") and \
                    len(lines[end]) - len(lines[end].lstrip()) <= indent:
                break
            end += 1
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1
        keys = [c.key for c in game.tables[name].columns]
        body = [f"{' ' * indent}rows:\n"] + [
            f"{' ' * (indent + 2)}- {_flow_row(dict(row), keys)}\n" for row in computed[name]
        ]
        spans.append((start, end, body))
    for start, end, body in sorted(spans, reverse=True):
        lines[start:end] = body
    tmp = path.with_suffix(".yaml.tmp")
    tmp.write_text("".join(lines), encoding="utf-8")
    tmp.replace(path)
    return changed
