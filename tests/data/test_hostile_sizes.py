"""Hostile inputs the corpus (tests/hostile/*.yaml) cannot hold as text: a 7 MB line, a number
of thousands of digits, workbooks built here with zipfile (an entity bomb, 190 MB of XML
packed under 1 MB, a row two billion down, no sheet). Each runs `pnp` in a subprocess on a
copy of the workspace, as the corpus does, and must end within seconds with exit 1, an
`Error:` naming the file (and line and field where there is one), no traceback, nothing
written."""

from __future__ import annotations

import io
import os
import time
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from tests.test_hostile import ROOT, _resolve_lines, _run_case

SECONDS = 10.0  # each case is refused in well under a second on a loaded machine; a hang is 30 s

GAME = "card_data/tisigui/game.yaml"
COMPONENTS = "card_data/tisigui/components.yaml"
BUILD = ["build", "tisigui", "--lang", "zh-Hant"]


def _refused(tmp_path: Path, files: dict[str, Any], run: list[str], message: Iterable[str],
             absent: Iterable[str] = ()) -> str:
    env = {**os.environ, "PYTHONHASHSEED": "0", "COLUMNS": "200", "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_CURRENT_TEST", None)
    started = time.monotonic()
    result = _run_case({"files": files, "run": run}, tmp_path, env)
    took = time.monotonic() - started
    assert result.returncode is not None, "no answer within the corpus's time limit (a hang)"
    output = result.output
    assert took < SECONDS, f"took {took:.1f} s:\n{output[:2000]}"
    assert "Traceback (most recent call last)" not in output, output[:4000]
    assert result.returncode == 1, output[:2000]
    assert "Error:" in output
    for fragment in message:
        fragment = _resolve_lines(fragment, result.starts)
        assert fragment in output, f"{fragment!r} not in:\n{output[:2000]}"
    for fragment in absent:
        assert fragment not in output, output[:2000]
    assert result.after == result.before, "output/ was changed"
    return output


# --- long texts ------------------------------------------------------------------------------

def test_a_7_mb_card_text_on_one_line_is_refused_as_it_is_read(tmp_path: Path) -> None:
    role = "role: 找出碟仙的替身，指认正确就得分}"
    files = {COMPONENTS: {"replace": [role, "role: " + "x" * 7_000_000 + "}"]}}
    _refused(tmp_path, files, BUILD, ["components.yaml:{line}: components[0].cards[1].fields.role: "
                                      "a value of 7,000,000 characters is longer than any pnp reads"])


def test_minutes_of_2_4_million_characters_are_refused_before_typesetting(tmp_path: Path) -> None:
    files = {GAME: {"replace": ["minutes: 10–30", "minutes: " + "分" * 2_400_000]}}
    _refused(tmp_path, files, BUILD, ["game.yaml:{line}: minutes: a value of 2,400,000 characters"],
             absent=["aid.md.j2"])


def test_minutes_of_8000_characters_are_blamed_on_game_yaml_not_the_aid(tmp_path: Path) -> None:
    files = {GAME: {"replace": ["minutes: 10–30", "minutes: " + "分" * 8000]}}
    _refused(tmp_path, files, BUILD, ["game.yaml:{line}: minutes: text of 8000 characters is longer than "
                                      "the limit of 40"], absent=["aid.md.j2"])


def test_a_component_note_past_the_text_limit_is_refused(tmp_path: Path) -> None:
    note = "    note: 按人数查大局骰、小局数和问题标记\n"
    files = {COMPONENTS: {"replace": [note, "    note: " + "按" * 1001 + "\n"]}}
    _refused(tmp_path, files, BUILD, ["components.yaml:{line}: components[1].note: text of 1001 characters "
                                      "is longer than the limit of 1000"])


def test_a_base_60_number_of_thousands_of_digits_is_refused_unbuilt(tmp_path: Path) -> None:
    # 2,500 base-60 places: an integer of some 4,400 decimal digits, which Python refuses to print.
    files = {GAME: {"replace": ["  big_die_sides: 6", "  big_die_sides: 1" + ":00" * 2500]}}
    _refused(tmp_path, files, ["check", "tisigui"],
             ["game.yaml:{line}: rules.big_die_sides: a number written with 7,501 characters"])


# --- workbooks ---------------------------------------------------------------------------------

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
TYPES = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/'
         '2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
         'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
         '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.'
         'spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="'
         'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
ROOT_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
             'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
             'officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
BOOK_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
             'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
             'officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>')
SHEETS = ('<sheets><sheet name="Cards" sheetId="1" r:id="rId1" xmlns:r="http://schemas.openxmlformats.org/'
          'officeDocument/2006/relationships"/></sheets>')
HEADER_ROW = ('<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>count'
              '</t></is></c><c r="C1" t="inlineStr"><is><t>text</t></is></c></row>')
CARD_ROW = ('<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>question</t></is></c><c r="B{r}"><v>30</v></c>'
            '<c r="C{r}" t="inlineStr"><is><t>ask</t></is></c></row>')


def _workbook(sheet: Iterable[bytes] | None, sheets: str = SHEETS) -> bytes:
    """An .xlsx made of the parts a spreadsheet program writes, the sheet's XML given in pieces
    (streamed into the zip, so 190 MB of it never sits in memory)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", TYPES)
        archive.writestr("_rels/.rels", ROOT_RELS)
        archive.writestr("xl/workbook.xml", f'<?xml version="1.0" encoding="UTF-8"?><workbook '
                                            f'xmlns="{MAIN_NS}">{sheets}</workbook>')
        archive.writestr("xl/_rels/workbook.xml.rels", BOOK_RELS)
        if sheet is not None:
            with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
                for piece in sheet:
                    part.write(piece)
    return buffer.getvalue()


def _sheet(rows: str, prolog: str = "") -> list[bytes]:
    return [(f'<?xml version="1.0" encoding="UTF-8"?>{prolog}<worksheet xmlns="{MAIN_NS}"><sheetData>'
             f"{rows}</sheetData></worksheet>").encode()]


def _deck(workbook: bytes) -> dict[str, Any]:
    """tisigui's question markers read from q.xlsx, the workbook given."""
    return {COMPONENTS: {"replace": ["    back: question_face\n    count: 30", "    back: question_face\n"
                                                                            "    cards: q.xlsx"]},
            "card_data/tisigui/q.xlsx": {"bytes_hex": workbook.hex()}}


def test_the_workbook_helper_makes_a_deck_pnp_builds(tmp_path: Path) -> None:
    """The hostile workbooks below differ from this one only in what makes them hostile."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "COLUMNS": "200", "PYTHONPATH": str(ROOT)}
    good = _workbook(_sheet(HEADER_ROW + CARD_ROW.format(r=2)))
    result = _run_case({"files": _deck(good), "run": ["check", "tisigui"]}, tmp_path, env)
    assert result.returncode == 0, result.output


def test_a_billion_laughs_entity_in_the_sheet_is_refused_unexpanded(tmp_path: Path) -> None:
    laughs = '<!DOCTYPE worksheet [<!ENTITY a0 "ha">' + "".join(
        f'<!ENTITY a{i} "{("&a" + str(i - 1) + ";") * 10}">' for i in range(1, 10)) + "]>"
    row = HEADER_ROW + '<row r="2"><c r="A2" t="inlineStr"><is><t>&a9;</t></is></c></row>'
    _refused(tmp_path, _deck(_workbook(_sheet(row, laughs))), BUILD,
             ["q.xlsx: not a readable .xlsx workbook: xl/worksheets/sheet1.xml declares a document type"])


def test_malformed_sheet_xml_is_refused(tmp_path: Path) -> None:
    _refused(tmp_path, _deck(_workbook([b'<worksheet xmlns="' + MAIN_NS.encode() + b'"><sheetData><row>'])),
             BUILD, ["q.xlsx: not a readable .xlsx workbook: xl/worksheets/sheet1.xml is not well-formed XML"])


def test_a_row_two_billion_down_is_refused_not_walked_to(tmp_path: Path) -> None:
    rows = HEADER_ROW + CARD_ROW.format(r=2_000_000_000)
    _refused(tmp_path, _deck(_workbook(_sheet(rows))), BUILD,
             ["q.xlsx: not a readable .xlsx workbook: row 2,000,000,000 is past a spreadsheet's last row"])


def _blank_rows(megabytes: int) -> Iterable[bytes]:
    yield f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN_NS}"><sheetData>'.encode()
    yield HEADER_ROW.encode()
    chunk = b"<row/>" * (1024 * 1024 // 6)
    for _ in range(megabytes):
        yield chunk
    yield b"</sheetData></worksheet>"


@pytest.fixture(scope="module")
def packed_190_mb() -> bytes:
    workbook = _workbook(_blank_rows(190))
    assert len(workbook) < 1024 * 1024
    with zipfile.ZipFile(io.BytesIO(workbook)) as archive:
        assert archive.getinfo("xl/worksheets/sheet1.xml").file_size > 190_000_000
    return workbook


def test_190_mb_of_sheet_xml_packed_under_1_mb_is_refused(tmp_path: Path, packed_190_mb: bytes) -> None:
    _refused(tmp_path, _deck(packed_190_mb), BUILD,
             ["q.xlsx: not a readable .xlsx workbook: unpacks to 190 MiB, more than the 64 MiB"])


def test_blank_rows_under_the_size_limit_count_toward_the_row_limit(tmp_path: Path) -> None:
    # 30 MB of empty rows: within the unpacked size, but 5 million rows read for nothing.
    _refused(tmp_path, _deck(_workbook(_blank_rows(30))), BUILD,
             ["q.xlsx: not a readable .xlsx workbook: more than 10,000 rows in the sheet, blank ones included"])


def test_blank_cells_count_toward_the_cell_limit(tmp_path: Path) -> None:
    cells = "".join(f'<row r="{r}">' + "<c/>" * 90 + "</row>" for r in range(2, 3000))
    _refused(tmp_path, _deck(_workbook(_sheet(HEADER_ROW + cells))), BUILD,
             ["q.xlsx: not a readable .xlsx workbook: more than 200,000 cells in the sheet"])


def test_a_workbook_with_no_sheet_is_refused(tmp_path: Path) -> None:
    _refused(tmp_path, _deck(_workbook(None, sheets="<sheets/>")), BUILD,
             ["q.xlsx: not a readable .xlsx workbook: it has no sheet"])
