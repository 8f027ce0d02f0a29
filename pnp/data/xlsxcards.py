"""The rows of a spreadsheet saved as .xlsx, as the text a CSV export of it would hold.

Only the first worksheet is read, and only values: a formula gives the result the
spreadsheet program saved with it. Cells a card cannot hold as text (dates, TRUE/FALSE,
error values, a formula with no saved result) are errors placed at ``file:row:column:
sheet!cell``, so the designer finds the cell whichever way they count.

The sheet is streamed (pnp.data.xlsxparts: defused XML, unpacked bytes counted) and its rows
and cells, blank ones too, are counted as they are read: a hostile workbook is refused within
its limits, never read to its end.
"""

from __future__ import annotations

import math
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from xml.etree.ElementTree import Element

from pnp.core.errors import DataError
from pnp.core.limits import MAX_NUMBER_CHARS
from pnp.core.problems import Place, Problem
from pnp.core.records import record
from pnp.data.xlsxparts import DOC_RELS, MAIN, Workbook, WorkbookRefused, relationship_targets, text_of
from pnp.data.yamlmarks import display_path

MAX_BYTES = 20 * 1024 * 1024  # far beyond a deck of 1000 cards
MAX_COLUMNS = 100
# Counted as they are read, blank or not, so that a sheet of empty rows or cells cannot make
# pnp read for minutes: a deck of 1,000 cards with formatted blank rows stays far below both.
MAX_ROWS_READ = 10_000
MAX_CELLS_READ = 200_000
MAX_SHARED_STRINGS = 200_000
LAST_ROW, LAST_COLUMN = 1_048_576, 16_384  # a spreadsheet's own last row and column (XFD)
# Number formats ECMA-376 reserves for dates and times in the East Asian locales (Chinese
# Excel writes them without a format code), besides those openpyxl knows by code.
_EAST_ASIAN_DATES = frozenset(range(27, 37)) | frozenset(range(50, 59))
_CELL_REF = re.compile(r"([A-Z]{1,3})([0-9]{1,10})")
Rows = list[tuple[int, list[str]]]


def cell_name(sheet: str, row: int, column: int) -> str:
    """``Sheet1!E4``: the cell as a spreadsheet program names it."""
    letters = ""
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    quoted = sheet if sheet.replace("_", "").isalnum() else "'" + sheet.replace("'", "''") + "'"
    return f"{quoted}!{letters}{row}"


def _number(text: str) -> float | int | None:
    """A number cell's saved text as the spreadsheet meant it (an int unless it has a point or
    an exponent, as openpyxl reads it); None when it is no finite number pnp can print."""
    text = text.strip()
    if len(text) > MAX_NUMBER_CHARS:
        return None
    try:
        value: float | int = float(text) if any(c in text for c in ".Ee") else int(text)
    except ValueError:
        return None
    return value if not isinstance(value, float) or math.isfinite(value) else None


def _column(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


@record
class _Cell:
    """One ``<c>`` of the sheet, read: where it is and what the spreadsheet saved in it."""

    row: int
    column: int
    kind: str  # the t attribute: s, str, inlineStr, n, b, e, d
    style: int
    value: str | None  # the saved <v>, or an inline string's text
    formula: bool


def _first_sheet(book: Workbook) -> tuple[str, str]:
    """The first sheet's title and part name."""
    root_rels = relationship_targets(book, "_rels/.rels") if book.has("_rels/.rels") else {}
    main = next((name for name in root_rels.values() if name.endswith(".xml") and book.has(name)),
                "xl/workbook.xml")
    if not book.has(main):
        main = "xl/workbook.xml"
    for event, element in book.elements(main):
        if event == "end" and element.tag == MAIN + "sheet":
            targets = relationship_targets(book, main)
            part = targets.get(element.get(DOC_RELS + "id", ""), "")
            if not book.has(part):
                raise WorkbookRefused(f"its first sheet ({element.get('name', '')!r}) has no worksheet part")
            return element.get("name", "Sheet1"), part
    raise WorkbookRefused("it has no sheet; add one and put the cards on the first sheet")


def _date_styles(book: Workbook) -> frozenset[int]:
    """The cell styles (indexes into cellXfs) that show a number as a date or a time."""
    from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format

    if not book.has("xl/styles.xml"):
        return frozenset()
    codes: dict[int, str] = dict(BUILTIN_FORMATS)
    dates, index, in_cell_xfs = set(), 0, False
    for event, element in book.elements("xl/styles.xml"):
        if element.tag == MAIN + "cellXfs":
            in_cell_xfs = event == "start"
        elif event == "end" and element.tag == MAIN + "numFmt":
            codes[int(element.get("numFmtId", "0") or 0)] = element.get("formatCode", "")
        elif event == "end" and element.tag == MAIN + "xf" and in_cell_xfs:
            fmt = int(element.get("numFmtId", "0") or 0)
            if fmt in _EAST_ASIAN_DATES or is_date_format(codes.get(fmt, "General")):
                dates.add(index)
            index += 1
            if index > MAX_CELLS_READ:
                raise WorkbookRefused(f"more than {MAX_CELLS_READ:,} cell styles")
    return frozenset(dates)


def _shared_strings(book: Workbook) -> list[str]:
    strings: list[str] = []
    if not book.has("xl/sharedStrings.xml"):
        return strings
    for event, element in book.elements("xl/sharedStrings.xml"):
        if event == "end" and element.tag == MAIN + "si":
            strings.append(text_of(element))
            element.clear()
            if len(strings) > MAX_SHARED_STRINGS:
                raise WorkbookRefused(f"more than {MAX_SHARED_STRINGS:,} shared strings")
    return strings


def _cells(book: Workbook, part: str) -> Iterator[_Cell]:
    """Every cell of the sheet in order, rows and cells counted (blank ones too) as they are
    read and their numbers checked against a spreadsheet's own last row and column."""
    rows = cells = row = column = 0
    for event, element in book.elements(part):
        if event == "start" and element.tag == MAIN + "row":
            rows += 1
            if rows > MAX_ROWS_READ:
                raise WorkbookRefused(f"more than {MAX_ROWS_READ:,} rows in the sheet, blank ones "
                                      "included; delete the rows below the cards")
            written = element.get("r")
            row = int(written) if written and written.isdigit() and len(written) <= 10 else row + 1
            if row > LAST_ROW:
                raise WorkbookRefused(f"row {row:,} is past a spreadsheet's last row ({LAST_ROW:,})")
            column = 0
        elif event == "end" and element.tag == MAIN + "c":
            cells += 1
            if cells > MAX_CELLS_READ:
                raise WorkbookRefused(f"more than {MAX_CELLS_READ:,} cells in the sheet, blank ones included")
            ref = _CELL_REF.fullmatch(element.get("r", ""))
            column = _column(ref.group(1)) if ref else column + 1
            if column > LAST_COLUMN:
                raise WorkbookRefused(f"a cell in row {row:,} is past a spreadsheet's last column")
            yield _cell(element, row, column)
            element.clear()
        elif event == "end" and element.tag == MAIN + "row":
            element.clear()


def _cell(element: Element, row: int, column: int) -> _Cell:
    kind = element.get("t", "n")
    style = element.get("s", "0")
    if kind == "inlineStr":
        inline = element.find(MAIN + "is")
        value = text_of(inline) if inline is not None else None
    else:
        saved = element.find(MAIN + "v")  # an empty <v/> saves nothing (openpyxl writes one for a formula)
        value = saved.text if saved is not None and saved.text else None
    return _Cell(row, column, kind, int(style) if style.isdigit() and len(style) < 10 else 0, value,
                 element.find(MAIN + "f") is not None)


_DATE = "a date or time cell; format the column as text so the card prints what you typed"


def _cell_text(cell: _Cell, strings: list[str], dates: frozenset[int]) -> tuple[str, str | None]:
    """The text a card gets from a cell, and why it gets none when the cell is no text."""
    if cell.formula and cell.value is None:
        return "", ("a formula with no saved result; open the file in your spreadsheet program and save it "
                    "(or paste the values)")
    if cell.value is None:
        return "", None
    if cell.kind == "e":
        return "", f"the spreadsheet shows an error here ({cell.value[:40]})"
    if cell.kind == "b":
        return "", "a TRUE/FALSE cell; write the text you want printed"
    if cell.kind == "d":
        return "", _DATE
    if cell.kind == "s":
        index = int(cell.value) if cell.value.strip().isdigit() and len(cell.value) < 10 else -1
        if not 0 <= index < len(strings):
            return "", "a cell whose text is missing from the workbook (a damaged file?); save it again"
        return strings[index], None
    if cell.kind in ("str", "inlineStr"):
        return cell.value, None
    if cell.style in dates:
        return "", _DATE
    number = _number(cell.value)
    if number is None:
        return "", f"a cell pnp cannot read as text ({cell.value[:40]!r})"
    if isinstance(number, float):
        return (str(int(number)) if number.is_integer() else repr(number)), None
    return str(number), None


def _read_rows(book: Workbook, part: str, title: str, where: Path, max_rows: int) -> tuple[Rows, list[Problem]]:
    dates, strings = _date_styles(book), _shared_strings(book)
    rows: Rows = []
    problems: list[Problem] = []
    limit = max_rows + 1  # the header, then one more row than allowed to say so
    current, too_wide = 0, False
    texts: dict[int, str] = {}

    def close_row() -> None:
        if any(text.strip() for text in texts.values()):
            rows.append((current, [texts.get(column, "") for column in range(1, max(texts) + 1)]))

    for cell in _cells(book, part):
        if cell.row != current:
            close_row()
            if len(rows) > limit:
                return rows, problems
            current, texts, too_wide = cell.row, {}, False
        text, why = _cell_text(cell, strings, dates)
        if too_wide or (not text and why is None):
            continue
        place = Place(str(where), cell.row, column=cell.column, cell=cell_name(title, cell.row, cell.column))
        if cell.column > MAX_COLUMNS:
            problems.append(place.problem(f"more than {MAX_COLUMNS} columns"))
            too_wide = True
            continue
        if why is not None:
            problems.append(place.problem(why))
        texts[cell.column] = text
    close_row()
    return rows, problems


def read_xlsx_rows(file: Path, max_rows: int) -> tuple[str, Rows]:
    """The first worksheet's title and its non-blank rows (sheet row number, cells as text);
    DataError naming each cell that is not text, or the file when it is no workbook or breaks
    a limit (its size unpacked, its rows, cells and columns, counted as they are read)."""
    where = display_path(file)
    if file.stat().st_size > MAX_BYTES:
        raise DataError(Problem(f"{file.stat().st_size // 1024} KiB is more than the "
                        f"{MAX_BYTES // (1024 * 1024)} MiB a card spreadsheet may be", str(where)))
    try:
        with zipfile.ZipFile(file) as archive:
            book = Workbook(archive)
            title, part = _first_sheet(book)
            rows, problems = _read_rows(book, part, title, where, max_rows)
    except WorkbookRefused as refused:
        raise DataError(Problem(f"not a readable .xlsx workbook: {refused.reason}", str(where))) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError, OSError) as exc:
        raise DataError(Problem(f"not a readable .xlsx workbook ({exc}); save it again from your "
                                "spreadsheet program as Excel Workbook (.xlsx), or as CSV UTF-8", str(where))) from None
    if problems:
        raise DataError(problems)
    return title, rows
