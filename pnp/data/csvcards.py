"""A component's cards from a spreadsheet saved as CSV, beside components.yaml.

``cards: deck.csv`` in components.yaml reads one card per row. The first row names the
columns: ``id`` (required) and ``count`` (optional, default 1) are the card's own; every other
column is a field of that name. An empty cell leaves its field unset, as leaving the key out
of YAML would. The rows become the same mappings the YAML list gives, and a location map
sends every problem to ``file:row:column``, so the one validation path reports both.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.data.schema import Reader
from pnp.data.textfile import read_text
from pnp.data.yamlmarks import Located, PathKey, display_path, format_path
from pnp.errors import DataError

CSV_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*\.csv$")
COLUMN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
OWN_COLUMNS = ("id", "count")
MAX_ROWS = 1000  # as many cards as one generate block may make


@dataclass(frozen=True)
class CsvLocated(Located):
    """A CSV file's cards as a document: paths under ``prefix`` are located by row and column,
    any other path by the YAML document that named the file."""

    parent: Located | None = None
    prefix: PathKey = ()
    cells: dict[PathKey, tuple[int, int]] = field(default_factory=dict)

    def where(self, path: PathKey) -> str:
        if self.parent is not None and path[: len(self.prefix)] != self.prefix:
            return self.parent.where(path)
        probe = path
        while len(probe) > len(self.prefix) and probe not in self.cells:
            probe = probe[:-1]
        row, column = self.cells.get(probe, (1, 1))
        return f"{display_path(self.file)}:{row}:{column}: {format_path(path)}"


def _value(cell: str, column: str) -> Any:
    """A cell as YAML would have read it for that key: a count is a number when it is one."""
    if column == "count" and re.fullmatch(r"\d{1,9}", cell.strip()):
        return int(cell)
    return cell


def read_csv_cards(file: Path, parent: Located, prefix: PathKey) -> tuple[list[dict[str, Any]], CsvLocated]:
    """The card mappings of a CSV file and their locations; DataError for a file that is not a
    table (bad quoting, a missing or repeated column, a row with the wrong number of cells)."""
    where = display_path(file)
    text = read_text(file)
    rows = _rows(text, where)
    if not rows:
        raise DataError(f"{where}:1: empty; the first row names the columns (id, count, then fields)")
    header_line, header = rows[0]
    problems: list[str] = []
    names = [name.strip() for name in header]
    for number, name in enumerate(names, start=1):
        if not COLUMN.match(name):
            problems.append(f"{where}:{header_line}:{number}: column name {name!r} is not a field name "
                            "(letters, digits and _, not starting with a digit)")
        elif names.index(name) != number - 1:
            problems.append(f"{where}:{header_line}:{number}: column {name!r} is repeated")
    if "id" not in names:
        problems.append(f"{where}:{header_line}: no 'id' column; every card needs an id")
    if len(rows) - 1 > MAX_ROWS:
        problems.append(f"{where}: {len(rows) - 1} rows is more than the {MAX_ROWS} cards one file may hold")
    if problems:
        raise DataError(problems)
    cards: list[dict[str, Any]] = []
    cells: dict[PathKey, tuple[int, int]] = {}
    for index, (line, row) in enumerate(rows[1:]):
        if len(row) != len(names):
            problems.append(f"{where}:{line}: {len(row)} cells, expected {len(names)} (one per column)")
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
    return cards, CsvLocated(file, cards, {}, parent, prefix, cells)


def _rows(text: str, where: Path) -> list[tuple[int, list[str]]]:
    """Non-blank rows with the line each starts on."""
    reader = csv.reader(io.StringIO(text), strict=True)
    rows, start = [], 1
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                rows.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise DataError(f"{where}:{reader.line_num}: not a readable CSV row ({exc})") from None
    return rows


def csv_cards(r: Reader, source: Any, path: PathKey) -> tuple[Reader, Any]:
    """The reader and raw card list for a component's ``cards``: unchanged for a YAML list; for
    a CSV file name, its rows and a reader that locates problems in the file; None when the
    file could not be read (the problem is already reported)."""
    if not isinstance(source, str):
        return r, source
    if not CSV_NAME.match(source):
        r.fail(path, f"expected a list of cards or the name of a .csv file beside {r.doc.file.name}, "
                     f"got {source!r}")
        return r, None
    folder = r.doc.file.parent
    file = folder / source
    if file.is_symlink() or not file.resolve().is_relative_to(folder.resolve()):
        r.fail(path, f"{source!r} must be a file in {display_path(folder)} itself, not a link")
        return r, None
    if not file.is_file():
        r.fail(path, f"{source!r}: file not found in {display_path(folder)}")
        return r, None
    try:
        cards, located = read_csv_cards(file, r.doc, path)
    except DataError as exc:
        r.problems.items.extend(exc.problems)
        return r, None
    return Reader(located, r.problems), cards
