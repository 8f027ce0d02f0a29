"""How a printed table is laid out as a grid of cells, shared by cards and rulebooks.

Tables are stored as rows of named values (what the engine computes). A table may ask to
be shown pivoted — one column's values down the side, another's across the top — which is
how a person reads a score matrix.
"""

from __future__ import annotations

from collections.abc import Callable

from pnp.data.model import PrintedTable, Text


def display_grid(table: PrintedTable, convert: Callable[[str], str]) -> list[list[Text]]:
    """Rows of cells, the first row being the header."""
    labels = {c.key: Text(convert(c.label.value), c.label.where) for c in table.columns}
    formats = {c.key: c.format for c in table.columns}

    def cell(key: str, value: object, where: str) -> Text:
        # Cells can hold words too (a card's name), written in the source script.
        return Text(convert(format_value(value, formats.get(key, ""))), where)

    if table.pivot is None:
        header = [labels[c.key] for c in table.columns]
        body = [[cell(c.key, row[c.key], where) for c in table.columns]
                for row, where in zip(table.rows, table.row_where, strict=True)]
        return [header, *body]
    down, across, value = table.pivot
    downs = list(dict.fromkeys(row[down] for row in table.rows))
    acrosses = list(dict.fromkeys(row[across] for row in table.rows))
    cells = {(row[down], row[across]): cell(value, row[value], where)
             for row, where in zip(table.rows, table.row_where, strict=True)}
    corner = Text(f"{labels[down].value}＼{labels[across].value}", labels[down].where)
    header = [corner, *(cell(across, a, labels[across].where) for a in acrosses)]
    body = [[cell(down, d, labels[down].where),
             *(cells.get((d, a), Text("–", table.where)) for a in acrosses)] for d in downs]
    return [header, *body]


def format_value(value: object, style: str) -> str:
    """How a printed value is written: ``thousands`` groups digits (20,000)."""
    if style == "thousands" and isinstance(value, int):
        return f"{value:,}"
    return str(value)
