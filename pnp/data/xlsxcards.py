"""The rows of a spreadsheet saved as .xlsx, as the text a CSV export of it would hold.

Only the first worksheet is read, and only values: a formula gives the result the
spreadsheet program saved with it. Cells a card cannot hold as text (dates, TRUE/FALSE,
error values, a formula with no saved result) are errors placed at ``file:row:column:
sheet!cell``, so the designer finds the cell whichever way they count.
"""

from __future__ import annotations

import datetime
import zipfile
from pathlib import Path
from typing import Any

from pnp.core.errors import DataError
from pnp.core.problems import Place, Problem
from pnp.data.yamlmarks import display_path

MAX_BYTES = 20 * 1024 * 1024  # far beyond a deck of 1000 cards
MAX_UNPACKED = 200 * 1024 * 1024  # what the parts may unpack to: keeps a zip bomb out
MAX_COLUMNS = 100
Rows = list[tuple[int, list[str]]]


def cell_name(sheet: str, row: int, column: int) -> str:
    """``Sheet1!E4``: the cell as a spreadsheet program names it."""
    letters = ""
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    quoted = sheet if sheet.replace("_", "").isalnum() else "'" + sheet.replace("'", "''") + "'"
    return f"{quoted}!{letters}{row}"


def _text(value: Any) -> str | None:
    """A cell's value as CSV text; None for a value a card field cannot be."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, str):
        return value
    return None


def _why(value: Any) -> str:
    if isinstance(value, bool):
        return "a TRUE/FALSE cell; write the text you want printed"
    if isinstance(value, datetime.date | datetime.time | datetime.timedelta):
        return "a date or time cell; format the column as text so the card prints what you typed"
    return f"a cell pnp cannot read as text ({type(value).__name__})"


def read_xlsx_rows(file: Path, max_rows: int) -> tuple[str, Rows]:
    """The first worksheet's title and its non-blank rows (sheet row number, cells as text);
    DataError naming each cell that is not text, or the file when it is no workbook."""
    import openpyxl  # only a game with an .xlsx deck pays for importing it
    from openpyxl.utils.exceptions import InvalidFileException

    where = display_path(file)
    if file.stat().st_size > MAX_BYTES:
        raise DataError(Problem(f"{file.stat().st_size // 1024} KiB is more than the "
                        f"{MAX_BYTES // (1024 * 1024)} MiB a card spreadsheet may be", str(where)))
    try:
        with zipfile.ZipFile(file) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
        if unpacked > MAX_UNPACKED:
            raise DataError(Problem(f"unpacks to {unpacked // (1024 * 1024)} MiB, more than the "
                            f"{MAX_UNPACKED // (1024 * 1024)} MiB a card spreadsheet may", str(where)))
        values = openpyxl.load_workbook(file, read_only=True, data_only=True)
        formulas = openpyxl.load_workbook(file, read_only=True, data_only=False)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise DataError(Problem(f"not a readable .xlsx workbook ({exc}); save it again from your "
                                "spreadsheet program as Excel Workbook (.xlsx), or as CSV UTF-8", str(where))) from None
    if not values.worksheets or not formulas.worksheets:
        raise DataError(Problem("the workbook has no worksheet: the cards are read from its first "
                                "sheet; add one with a header row, or save the cards as CSV UTF-8",
                                str(where)))
    try:
        sheet, raw = values.worksheets[0], formulas.worksheets[0]
        title = sheet.title
        rows: Rows = []
        problems: list[Problem] = []
        limit = max_rows + 1  # the header, then one more row than allowed to say so
        for cells, written in zip(sheet.iter_rows(max_col=MAX_COLUMNS + 1),
                                  raw.iter_rows(max_col=MAX_COLUMNS + 1), strict=False):
            texts: list[str] = []
            for cell, source in zip(cells, written, strict=False):
                if not hasattr(cell, "column") or cell.value is None and source.value is None:
                    texts.append("")
                    continue
                row, column = cell.row, cell.column
                place = Place(str(where), row, column=column, cell=cell_name(title, row, column))
                if column > MAX_COLUMNS:
                    problems.append(place.problem(f"more than {MAX_COLUMNS} columns"))
                    break
                if source.data_type == "f" and cell.value is None:
                    problems.append(place.problem("a formula with no saved result; open the file in your "
                                                 "spreadsheet program and save it (or paste the values)"))
                    texts.append("")
                    continue
                if getattr(cell, "data_type", "") == "e":
                    problems.append(place.problem(f"the spreadsheet shows an error here ({cell.value})"))
                    texts.append("")
                    continue
                text = _text(cell.value)
                if text is None:
                    problems.append(place.problem(_why(cell.value)))
                    text = ""
                texts.append(text)
            if any(text.strip() for text in texts):
                number = next(c.row for c in cells if hasattr(c, "row"))
                rows.append((number, texts))
                if len(rows) > limit:
                    break
    finally:
        values.close()
        formulas.close()
    if problems:
        raise DataError(problems)
    return title, rows
