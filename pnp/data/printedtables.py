"""tables.yaml read into PrintedTables: each table's columns and their formats, its rows of
plain values, an optional pivot, and the variant and engine table it is checked against."""

from __future__ import annotations

from pnp.core.limits import MAX_NAME_CHARS, MAX_TABLE_COLUMNS, MAX_TABLE_ROWS
from pnp.data.model import Column, PrintedTable, frozen_mapping
from pnp.data.plaintext import is_plain_text, located_text, within_text_limit
from pnp.data.schema import IDENT, Reader, describe
from pnp.data.yamlmarks import PathKey

COLUMN_FORMATS = ("", "thousands")


def read_tables(r: Reader) -> dict[str, PrintedTable]:
    """tables.yaml: each printed table by its name."""
    top = r.mapping(r.doc.value, (), ("tables",), required=("tables",))
    tables_raw = r.mapping(top.get("tables", {}), ("tables",), allowed=top.get("tables", {}) or ())
    tables: dict[str, PrintedTable] = {}
    for name, raw in tables_raw.items():
        path: PathKey = ("tables", name)
        table = r.mapping(raw, path, ("title", "columns", "rows", "pivot", "variant", "engine_table"),
                          required=("columns", "rows"))
        variant = (r.string(table, "variant", path, pattern=IDENT, what="a variant's name, as the "
                            "engine knows it") or None) if "variant" in table else None
        engine_table = r.string(table, "engine_table", path, pattern=IDENT, what="the name of a "
                                "table the engine computes") if "engine_table" in table else ""
        if engine_table and variant is None:
            r.fail((*path, "engine_table"), "`engine_table:` names a table of a variant's rules; "
                                            "give the variant too (`variant:`)")
        columns: list[Column] = []
        raw_columns = r.sequence(table.get("columns", []), (*path, "columns"))
        raw_rows = r.sequence(table.get("rows", []), (*path, "rows"))
        if len(raw_columns) > MAX_TABLE_COLUMNS or len(raw_rows) > MAX_TABLE_ROWS:
            r.fail(path, f"{len(raw_rows)} rows of {len(raw_columns)} columns is more than the limit of "
                         f"{MAX_TABLE_ROWS} rows and {MAX_TABLE_COLUMNS} columns for a printed table")
            continue
        for i, col in enumerate(raw_columns):
            cpath = (*path, "columns", i)
            col = r.mapping(col, cpath, ("key", "label", "format"), required=("key", "label"))
            fmt = r.string(col, "format", cpath, default="")
            if fmt not in COLUMN_FORMATS:
                r.fail((*cpath, "format"), f"expected one of {', '.join(COLUMN_FORMATS[1:])}, got {fmt!r}")
            label = located_text(r, col, "label", cpath, max_chars=MAX_NAME_CHARS)
            columns.append(Column(r.string(col, "key", cpath), label, fmt))
        keys = [c.key for c in columns]
        rows = []
        row_where = []
        for i, row in enumerate(raw_rows):
            rpath = (*path, "rows", i)
            row = r.mapping(row, rpath, keys, required=keys)
            for key, value in row.items():
                if not is_plain_text(value):
                    r.fail((*rpath, key), f"expected a number or text, got {describe(value)}")
                elif isinstance(value, str):
                    within_text_limit(r, value, (*rpath, key))
            rows.append(frozen_mapping(row))
            row_where.append(r.where(rpath))
        pivot: tuple[str, str, str] | None = None
        if "pivot" in table:
            spec = r.mapping(table["pivot"], (*path, "pivot"), ("down", "across", "value"),
                             required=("down", "across", "value"))
            picked = tuple(str(spec.get(k, "")) for k in ("down", "across", "value"))
            for key, value in zip(("down", "across", "value"), picked, strict=True):
                if key in spec and value not in keys:
                    r.fail((*path, "pivot", key), f"unknown column {value!r} (columns: {', '.join(keys)})")
            if len(spec) == 3 and all(v in keys for v in picked):
                pivot = (picked[0], picked[1], picked[2])
        tables[name] = PrintedTable(
            name, located_text(r, table, "title", path, default=name, max_chars=MAX_NAME_CHARS),
            tuple(columns), tuple(rows),
            r.where(path), tuple(row_where), pivot, variant, engine_table or name,
        )
    return tables
