"""A component's cards from a spreadsheet saved as CSV or .xlsx, beside components.yaml.

``cards: deck.csv`` (or ``deck.xlsx``, its first sheet) in components.yaml reads one card per
row. The first row names the
columns: ``id`` (required) and ``count`` (optional, default 1) are the card's own; every other
column is a field of that name. An empty cell leaves its field unset, as leaving the key out
of YAML would. The rows become the same mappings the YAML list gives, and a location map
sends every problem to ``file:row:column`` (and, in a workbook, ``sheet!cell``), so the one
validation path reports every source alike.
"""

from __future__ import annotations

import io
import re
from dataclasses import field
from pathlib import Path
from typing import Any

from pnp.core import files
from pnp.core.errors import DataError
from pnp.core.problems import Place, Problem
from pnp.core.records import record
from pnp.data.cardfiles import CSV_NAME
from pnp.data.schema import Reader
from pnp.data.textfile import read_text
from pnp.data.yamlmarks import Located, PathKey, display_path

COLUMN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
OWN_COLUMNS = ("id", "count")
MAX_ROWS = 1000  # as many cards as one generate block may make


@record
class CsvLocated(Located):
    """A CSV file's cards as a document: paths under ``prefix`` are located by row and column,
    any other path by the YAML document that named the file."""

    parent: Located | None = None
    prefix: PathKey = ()
    cells: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    sheet: str | None = None  # a workbook's sheet: places also name the cell (Cards!E4)

    def where(self, path: PathKey) -> Place:
        if self.parent is not None and path[: len(self.prefix)] != self.prefix:
            return self.parent.where(path)
        probe = path
        while len(probe) > len(self.prefix) and probe not in self.cells:
            probe = probe[:-1]
        row, column = self.cells.get(probe, (1, 1))
        cell = _cell_name(self.sheet, row, column) if self.sheet is not None else None
        return Place(str(self.shown_file), row, path, column, cell)


def _cell_name(sheet: str, row: int, column: int) -> str:
    from pnp.data.xlsxcards import cell_name

    return cell_name(sheet, row, column)


def _value(cell: str, column: str) -> Any:
    """A cell as YAML would have read it for that key: a count is a number when it is one."""
    if column == "count" and re.fullmatch(r"\d{1,9}", cell.strip()):
        return int(cell)
    return cell


def read_csv_cards(file: Path, parent: Located, prefix: PathKey) -> tuple[list[dict[str, Any]], CsvLocated]:
    """The card mappings of a CSV or .xlsx file and their locations; DataError for a file that
    is not a table (bad quoting, a missing or repeated column, a row with the wrong number of
    cells, a workbook cell that is not text)."""
    where = display_path(file)
    sheet: str | None = None
    if file.suffix == ".xlsx":
        # The workbook reader (zip and XML parsing) is imported only for a workbook.
        from pnp.data.xlsxcards import read_xlsx_rows

        sheet, rows = read_xlsx_rows(file, MAX_ROWS)
    else:
        rows = _rows(read_text(file), where)

    def at(row: int, column: int | None = None) -> Place:
        cell = _cell_name(sheet, row, column) if sheet is not None and column is not None else None
        return Place(str(where), row, column=column, cell=cell)

    if not rows:
        raise DataError(at(1).problem("empty; the first row names the columns (id, count, then fields)"))
    header_line, header = rows[0]
    if sheet is not None:  # a workbook row runs on past its last column as empty cells
        while header and not header[-1].strip():
            header = header[:-1]
    problems: list[Problem] = []
    names = [name.strip() for name in header]
    for number, name in enumerate(names, start=1):
        if not COLUMN.fullmatch(name):
            problems.append(at(header_line, number).problem(f"column name {name!r} is not a field name "
                            "(letters, digits and _, not starting with a digit)"))
        elif names.index(name) != number - 1:
            problems.append(at(header_line, number).problem(f"column {name!r} is repeated"))
    if "id" not in names:
        problems.append(at(header_line).problem("no 'id' column; every card needs an id"))
    if len(rows) - 1 > MAX_ROWS:
        problems.append(Problem(f"{len(rows) - 1} rows is more than the {MAX_ROWS} cards one file may hold",
                                str(where)))
    if problems:
        raise DataError(problems)
    cards: list[dict[str, Any]] = []
    cells: dict[PathKey, tuple[int, int]] = {}
    for index, (line, row) in enumerate(rows[1:]):
        if sheet is not None:
            extra = [n for n, cell in enumerate(row[len(names):], start=len(names) + 1) if cell.strip()]
            if extra:
                problems.append(at(line, extra[0]).problem(f"a value in a column with no name in row {header_line}"))
                continue
            row = (row + [""] * len(names))[: len(names)]
        if len(row) != len(names):
            problems.append(at(line).problem(f"{len(row)} cells, expected {len(names)} (one per column)"))
            continue
        card_path = (*prefix, index)
        cells[card_path] = (line, 1)
        card: dict[str, Any] = {}
        fields: dict[str, Any] = {}
        for number, (name, cell) in enumerate(zip(names, row, strict=True), start=1):
            if name in OWN_COLUMNS:
                if cell.strip() or name == "id":
                    card[name] = _value(cell.strip(), name)
                cells[(*card_path, name)] = (line, number)
            elif cell != "":
                fields[name] = cell
                cells[(*card_path, "fields", name)] = (line, number)
        if fields:
            card["fields"] = fields
        cards.append(card)
    if problems:
        raise DataError(problems)
    return cards, CsvLocated(file, cards, {}, parent, prefix, cells, sheet)


def _rows(text: str, where: Path) -> list[tuple[int, list[str]]]:
    """Non-blank rows with the line each starts on."""
    import csv  # only for a component whose cards are in a .csv file

    reader = csv.reader(io.StringIO(text), strict=True)
    rows, start = [], 1
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                rows.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise DataError(Problem(f"not a readable CSV row ({exc})", str(where), reader.line_num)) from None
    return rows


def csv_cards(r: Reader, source: Any, path: PathKey) -> tuple[Reader, Any]:
    """The reader and raw card list for a component's ``cards``: unchanged for a YAML list; for
    a CSV file name, its rows and a reader that locates problems in the file; None when the
    file could not be read (the problem is already reported)."""
    if not isinstance(source, str):
        return r, source
    if not CSV_NAME.fullmatch(source):
        r.fail(path, f"expected a list of cards or the name of a .csv or .xlsx file beside "
                     f"{r.doc.file.name}, got {source!r}")
        return r, None
    folder = r.doc.file.parent
    file = folder / source
    if file.is_symlink() or not file.resolve().is_relative_to(folder.resolve()):
        r.fail(path, f"{source!r} must be a file in {display_path(folder)} itself, not a link")
        return r, None
    try:
        # A FIFO, device or socket by that name is refused as what it is, not "not found".
        if files.check_kind(file) is None:
            r.fail(path, f"{source!r}: file not found in {display_path(folder)}")
            return r, None
        cards, located = read_csv_cards(file, r.doc, path)
    except DataError as exc:
        r.problems.items.extend(exc.records)
        return r, None
    return Reader(located, r.problems), cards
