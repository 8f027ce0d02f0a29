"""Printed tables against the rules: recompute with the engine, diff cell by cell, update.

card_data keeps each printed table as literal rows, exactly what gets printed. The engine
recomputes them from the rules parameters in game.yaml; any cell that differs is a
``CellDiff`` naming the table, row and column. ``update_tables`` rewrites the values that
differ in tables.yaml, in place (comments, blank lines and layout stay), for the designer to
review in a diff.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import yaml

from pnp.core import files
from pnp.core.choices import LANGS
from pnp.core.errors import DataError
from pnp.core.records import record
from pnp.data.load import TABLES_FILE
from pnp.data.model import Game, PrintedTable
from pnp.data.textfile import shown
from pnp.games.base import TableColumn, TableRows
from pnp.games.registry import get_game, has_game
from pnp.games.ruleset import game_rules
from pnp.text.convert import make_converter


@record
class CellDiff:
    """One disagreement between a printed table and the engine.

    ``kind`` is ``cell`` (one value differs), ``row-missing`` / ``row-extra`` (whole rows;
    ``column`` is ``*``), ``table-not-computed`` (the engine has no such table), or one of
    ``column_diffs``' kinds (``label-differs``, ``column-unknown``, ``column-missing``,
    ``not-integer``).
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
    """Every table the engine computes from the game's rules parameters, and each printed
    variant table (tables.yaml ``variant:``) under its printed name, computed from that
    variant's rules; a variant the engine does not know computes nothing (the table is then
    reported as not computed)."""
    if not has_game(game.slug):
        return {}
    plugin = get_game(game.slug)
    tables = dict(plugin.tables.compute(game_rules(plugin, game)))
    by_variant: dict[str, dict[str, TableRows]] = {}
    for name, printed in game.tables.items():
        if printed.variant is None:
            continue
        tables.pop(name, None)  # the printed name is the variant's table, whatever else it is
        if printed.variant not in plugin.rules.variant_names(game.info.rules):
            continue
        if printed.variant not in by_variant:
            by_variant[printed.variant] = plugin.tables.compute(game_rules(plugin, game, printed.variant))
        if printed.computed_as in by_variant[printed.variant]:
            tables[name] = by_variant[printed.variant][printed.computed_as]
    return tables


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


def column_diffs(game: Game, declared: Mapping[str, tuple[TableColumn, ...]],
                 computed: Mapping[str, TableRows],
                 converters: Sequence[Callable[[str], str]]) -> list[CellDiff]:
    """Every printed heading and cell type that disagrees with the engine's columns.

    ``label-differs``: a heading differs from the engine's label for that key in every printed
    script (``converters`` turn a source-script text into each printed script), so swapping two
    headings is caught; ``column-unknown`` / ``column-missing``: tables.yaml shows a column the
    engine does not declare, or leaves out one it does; ``not-integer``: a cell of an integer
    column is not a whole number (``6.0`` would print as "6.0"). An integer column is one the
    engine declares ``int``, or, for a table it declares nothing for, one whose computed
    values are all integers.
    """
    diffs: list[CellDiff] = []
    for name, printed in game.tables.items():
        if name not in computed:
            continue  # reported as table-not-computed
        columns = {declared_column.key: declared_column
                   for declared_column in declared.get(printed.computed_as, ())}
        if columns:
            shown = {column.key for column in printed.columns}
            # A declared column these rules give no row of (a variant without question
            # markers) is none of this table's.
            given = {key for row in computed[name] for key in row}
            for key, declared_column in columns.items():
                if key not in shown and key in given:
                    diffs.append(CellDiff(name, 0, key, None, declared_column.label, printed.where,
                                          "column-missing"))
        for column in printed.columns:
            where = column.label.where
            want = columns.get(column.key)
            if columns and want is None:
                diffs.append(CellDiff(name, 0, column.key, column.label.value, None, where,
                                      "column-unknown"))
                continue
            # The same words in either printed script are the same heading (an engine may
            # declare its labels in the other script); a swap differs in both.
            if want is not None and all(convert(column.label.value) != convert(want.label)
                                        for convert in converters):
                diffs.append(CellDiff(name, 0, column.key, column.label.value, want.label, where,
                                      "label-differs"))
            values = [row.get(column.key) for row in computed[name]]
            integer = (want.kind == "int" if want is not None
                       else bool(values) and all(_is_int(v) for v in values))
            if not integer:
                continue
            for index, row in enumerate(printed.rows):
                value = row.get(column.key)
                if not _is_int(value):
                    diffs.append(CellDiff(name, index, column.key, value, None,
                                          _row_where(printed, index), "not-integer"))
    return diffs


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _row_where(printed: PrintedTable, index: int) -> str:
    return printed.row_where[index] if index < len(printed.row_where) else printed.where


def _scalar(value: Any, flow: bool, style: str = "") -> str:
    """``value`` as YAML text that reads back as itself, a string in the quotes the file used
    for it (``style``: "", "'" or '"'): plain only where that reads back the same."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if style == "'" and "\n" not in text:
        return "'" + text.replace("'", "''") + "'"
    if not style and text.strip() == text and text and "\n" not in text:
        probe = f"[{text}]" if flow else f"k: {text}"
        try:
            back = yaml.safe_load(probe)
        except yaml.YAMLError:
            back = None
        if back == ([text] if flow else {"k": text}):
            return text
    return json.dumps(text, ensure_ascii=False)


def _flow_row(row: Mapping[str, Any], keys: list[str], styles: Mapping[str, str] | None = None) -> str:
    styles = styles or {}
    return "{" + ", ".join(f"{key}: {_scalar(row[key], True, styles.get(key, ''))}" for key in keys) + "}"


def _styles(row: yaml.Node) -> dict[str, str]:
    """How a printed row quotes each of its values, for new rows to follow."""
    if not isinstance(row, yaml.MappingNode):
        return {}
    return {k.value: v.style or "" for k, v in row.value
            if isinstance(k, yaml.ScalarNode) and isinstance(v, yaml.ScalarNode)}


def _value_node(row: yaml.Node | None, key: str) -> yaml.Node:
    """The value of ``key`` in a mapping node of a file that was validated just before."""
    if isinstance(row, yaml.MappingNode):
        for key_node, value_node in row.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
                return cast(yaml.Node, value_node)
    raise DataError(f"tables.yaml changed while pnp was updating it: {key!r} is gone; run again")


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _line_end(text: str, index: int) -> int:
    """Just past the line break ending the line that holds ``index``."""
    end = text.find("\n", index)
    return len(text) if end < 0 else end + 1


def _row_edits(text: str, rows: yaml.Node, printed: tuple[Mapping[str, Any], ...],
               computed: TableRows, keys: list[str]) -> list[tuple[int, int, str]]:
    """(start, end, replacement) spans that turn the printed rows into the computed ones,
    touching only the values that differ and the rows that are added or dropped."""
    newline = "\r\n" if "\r\n" in text else "\n"
    if not isinstance(rows, yaml.SequenceNode) or rows.flow_style or not rows.value:
        # `rows: []` or a one-line list: the rows become a block list under the key.
        indent = " " * (_key_column(text, rows) + 2)
        body = "".join(f"{newline}{indent}- {_flow_row(row, keys)}" for row in computed)
        return [(rows.start_mark.index, rows.end_mark.index, body)]
    edits = []
    items = rows.value
    for index, item in enumerate(items[:len(computed)]):
        want = computed[index]
        if not isinstance(item, yaml.MappingNode):
            edits.append((item.start_mark.index, item.end_mark.index, _flow_row(want, keys)))
            continue
        missing = [key for key in keys if _value_node(item, key) is None]
        if missing:
            # A row without some column: write the whole row again, in the file's flow style.
            edits.append((item.start_mark.index, item.end_mark.index, _flow_row(want, keys)))
            continue
        for key in keys:
            node = _value_node(item, key)
            assert node is not None
            if not _same(printed[index].get(key), want.get(key)):
                style = (node.style or "") if isinstance(node, yaml.ScalarNode) else ""
                edits.append((node.start_mark.index, node.end_mark.index,
                              _scalar(want.get(key), bool(item.flow_style), style)))
    for item in items[len(computed):]:  # rows the rules no longer give: their lines go
        start = _line_start(text, item.start_mark.index)
        end = _line_end(text, max(item.start_mark.index, item.end_mark.index - 1))
        edits.append((start, end, ""))
    if len(computed) > len(items):
        last = items[-1]
        dash = _line_start(text, last.start_mark.index)
        prefix = text[dash:last.start_mark.index]  # "      - " as the file writes it
        at = _line_end(text, max(last.start_mark.index, last.end_mark.index - 1))
        lead = "" if text[:at].endswith("\n") else newline
        styles = _styles(last)
        added = "".join(f"{prefix}{_flow_row(row, keys, styles)}{newline}" for row in computed[len(items):])
        edits.append((at, at, lead + added))
    return edits


def _key_column(text: str, node: yaml.Node) -> int:
    """The column of the key whose value ``node`` is (the start of its line's text)."""
    start = _line_start(text, node.start_mark.index)
    line = text[start:node.start_mark.index]
    return len(line) - len(line.lstrip(" "))


def update_tables(game_dir: Path, game: Game) -> list[str]:
    """Rewrite every printed table from the engine; returns the tables changed.

    Rows and cells take the engine's values (a ``6.0`` becomes ``6``), and headings the
    engine's labels (in the game's source script). Only what differs changes, and rows the
    rules add or drop: every comment, blank line, key order and quoting style of tables.yaml
    stays as the designer wrote it. A tables.yaml that is a link is written through, so the
    file it points to is updated, if it stays inside the workspace (a link out is refused).
    """
    computed = computed_tables(game)
    declared = get_game(game.slug).tables.columns if has_game(game.slug) else {}
    source = make_converter(game.info.source_lang, game.info.source_lang, game.glossary)
    converters = [make_converter(game.info.source_lang, lang, game.glossary) for lang in LANGS]
    columns = column_diffs(game, declared, computed, converters)
    stale = {diff.table for diff in diff_tables(game) if diff.kind != "table-not-computed"}
    stale |= {diff.table for diff in columns if diff.kind == "not-integer"}
    headings = {(diff.table, diff.column): source(str(diff.computed)) for diff in columns
                if diff.kind == "label-differs"}
    changed = [name for name in game.tables
               if name in stale or any(table == name for table, _ in headings)]
    if not changed:
        return []
    path = files.writable(game_dir / TABLES_FILE, "tables.yaml")
    raw = files.read_bytes(path)
    bom = raw.startswith(codecs.BOM_UTF8)
    text = raw.decode("utf-8-sig")
    # The file was loaded and validated just now; composing only finds where each value is.
    tables_node = _value_node(yaml.compose(text, Loader=yaml.SafeLoader), "tables")
    edits = []
    for name in changed:
        table_node = _value_node(tables_node, name)
        keys = [c.key for c in game.tables[name].columns]
        if name in stale:
            rows = _value_node(table_node, "rows")
            edits += _row_edits(text, rows, game.tables[name].rows, computed[name], keys)
        column_nodes = _value_node(table_node, "columns")
        for key, item in zip(keys, getattr(column_nodes, "value", []), strict=False):
            if (name, key) in headings:
                node = _value_node(item, "label")
                style = (node.style or "") if isinstance(node, yaml.ScalarNode) else ""
                edits.append((node.start_mark.index, node.end_mark.index,
                              _scalar(headings[name, key], bool(item.flow_style), style)))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    reread = yaml.safe_load(text)["tables"]
    for name in changed:
        labels = {column["key"]: column["label"] for column in reread[name]["columns"]}
        if not (all(_same_row(a, b) for a, b in zip(reread[name]["rows"], computed[name], strict=False))
                and len(reread[name]["rows"]) == len(computed[name])
                and all(labels[key] == label for (table, key), label in headings.items() if table == name)):
            raise DataError(f"{shown(path)}: could not rewrite table {name!r} in place; "
                            "nothing was changed (please report this with the file)")
    _write_in_place(path, (codecs.BOM_UTF8 if bom else b"") + text.encode("utf-8"))
    return changed


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same type: 6.0 is not 6 (it would print as "6.0")."""
    return bool(a == b) and type(a) is type(b)


def _same_row(printed: Mapping[str, Any], computed: Mapping[str, Any]) -> bool:
    return printed.keys() == computed.keys() and all(_same(printed[k], computed[k]) for k in computed)


def _write_in_place(path: Path, data: bytes) -> None:
    """Replace ``path``'s content atomically, keeping its permissions."""
    tmp = path.with_name(f".{path.name}.pnp-{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise DataError(f"{shown(path)}: cannot write: {exc.strerror or exc}") from None
