"""The designer's loop around a build: duplex calibration and --back-offset, tuck boxes,
`pnp new`, cards from CSV and pnp.toml defaults — each read back from the files written."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli
from tests.conftest import ROOT
from tests.pdfprobe import face_counts

PT_PER_MM = 72 / 25.4


def invoke(root: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--root", str(root), *args])
    assert result.exit_code == 0, result.output
    return result.output


def contents(pdf: Path) -> list[bytes]:
    return [page.get_contents().get_data() for page in PdfReader(pdf).pages]


@pytest.fixture
def bare_workspace(tmp_path: Path) -> Path:
    """An empty workspace: no games yet, the shipped fonts."""
    root = tmp_path / "ws"
    (root / "card_data").mkdir(parents=True)
    (root / "templates").mkdir()
    return root


# --- calibration -----------------------------------------------------------------------------


@pytest.mark.parametrize(("paper", "size_mm"), [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_calibrate_writes_a_two_sided_sheet(tmp_path: Path, paper: str, size_mm: tuple[float, float]) -> None:
    out = tmp_path / f"cal-{paper}.pdf"
    invoke(ROOT, "calibrate", "--paper", paper, "--out", str(out))
    reader = PdfReader(out)
    assert len(reader.pages) == 2
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(size_mm[0] * PT_PER_MM, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(size_mm[1] * PT_PER_MM, abs=0.01)
    # The front's scales are labelled from -4 to +4 mm at each of five spots.
    text = reader.pages[0].extract_text()
    for label in ("-4", "+4", "-2", "+2"):
        assert text.count(label) >= 10, label


def test_calibrate_default_path_and_offset_moves_only_the_back(tmp_path: Path, bare_workspace: Path) -> None:
    invoke(bare_workspace, "calibrate")
    plain = bare_workspace / "output" / "calibrate-a4.pdf"
    assert plain.is_file()
    shifted = tmp_path / "shifted.pdf"
    invoke(bare_workspace, "calibrate", "--back-offset", "1,-0.5", "--out", str(shifted))
    front_a, back_a = contents(plain)
    front_b, back_b = contents(shifted)
    assert front_a == front_b
    assert back_a != back_b
    assert f"1 0 0 1 {PT_PER_MM:.6f} {0.5 * PT_PER_MM:.6f} cm".encode() in back_b


def test_build_back_offset_changes_back_sheets_only(tmp_path: Path) -> None:
    invoke(ROOT, "build", "tisigui", "--lang", "zh-Hant", "--out", str(tmp_path / "plain"))
    invoke(ROOT, "build", "tisigui", "--lang", "zh-Hant", "--out", str(tmp_path / "moved"), "--back-offset", "1,-0.5")
    plain = contents(tmp_path / "plain" / "tisigui" / "zh-Hant" / "components.pdf")
    moved = contents(tmp_path / "moved" / "tisigui" / "zh-Hant" / "components.pdf")
    assert len(plain) == len(moved) >= 4
    for number, (a, b) in enumerate(zip(plain, moved, strict=True)):
        if number % 2 == 0:  # a front sheet: byte for byte the same
            assert a == b, number
        else:  # its back sheet: 1 mm right, 0.5 mm up (Y counts down)
            assert a != b, number
            assert f"1 0 0 1 {PT_PER_MM:.6f} {0.5 * PT_PER_MM:.6f} cm".encode() in b


@pytest.mark.parametrize("bad", ["1", "1,2,3", "x,1", "25,0", "1;2"])
def test_bad_back_offset_is_a_usage_error(bad: str) -> None:
    result = CliRunner().invoke(cli, ["--root", str(ROOT), "build", "tisigui", "--back-offset", bad])
    assert result.exit_code == 2
    assert "--back-offset" in result.output


# --- tuck boxes -----------------------------------------------------------------------------


def test_tuck_box_per_deck_sized_to_its_cards(tmp_path: Path) -> None:
    out = tmp_path / "boxes"
    invoke(ROOT, "export", "tuckbox", "niutouwang", "--lang", "zh-Hant", "--out", str(out))
    reader = PdfReader(out / "tuckboxes.pdf")
    assert len(reader.pages) == 1  # the number cards; the reference card and score pad are no deck
    text = reader.pages[0].extract_text()
    # 63×88 mm cards: +3 mm sleeve, +1 mm ease; 104 cards × (0.3 + 0.08) mm + 1 mm ease.
    assert "67×92×40.5 mm" in text
    assert "誰是牛頭王" in text and "104 張" in text and "黏貼" in text
    assert float(reader.pages[0].mediabox.width) == pytest.approx(210 * PT_PER_MM, abs=0.01)


def test_tuck_boxes_for_every_deck_in_both_scripts(tmp_path: Path) -> None:
    invoke(ROOT, "export", "tuckbox", "aizhewudi", "--lang", "all", "--paper", "letter", "--out", str(tmp_path))
    for lang, word in (("zh-Hant", "張"), ("zh-Hans", "张")):
        reader = PdfReader(tmp_path / lang / "tuckboxes.pdf")
        # action 42, bill 40, ability 12, flower 6 copies: four decks.
        assert len(reader.pages) == 4
        assert f"40 {word}" in "".join(page.extract_text() for page in reader.pages)


# --- pnp new -------------------------------------------------------------------------------


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pnp", *args], cwd=root, capture_output=True, text=True,
                          timeout=600)


def test_new_game_builds_and_checks_at_once(bare_workspace: Path) -> None:
    for args in (("new", "demo"), ("build", "demo"), ("check", "demo")):
        result = run(bare_workspace, *args)
        assert result.returncode == 0, (args, result.stdout, result.stderr)
    # No engine can recompute the printed set-up table: check says so, without failing.
    tables = bare_workspace / "card_data" / "demo" / "tables.yaml"
    line = tables.read_text(encoding="utf-8").splitlines().index("  setup:") + 1
    assert result.stdout.splitlines() == [
        "demo: ok",
        f"  note table-unverified: card_data/demo/tables.yaml:{line}: tables.setup: table 'setup' "
        "is printed as written: demo has no rules engine to recompute it"]
    # The table is printed in the rulebook, in each script.
    for lang, title, cell in (("zh-Hant", "開局設定", "每人手牌"), ("zh-Hans", "开局设定", "每人手牌")):
        text = "".join(page.extract_text() for page in
                       PdfReader(bare_workspace / "output" / "demo" / lang / "rulebook.pdf").pages)
        assert title in text and cell in text, lang
    pdf = bare_workspace / "output" / "demo" / "zh-Hans" / "components.pdf"
    counts = face_counts(pdf)
    # 12 action cards with one shared back, 12 markers (alike on both sides), a score pad.
    assert sum(n for (name, side), n in counts.items() if side == "front" and name.startswith("face-cards-")) == 12
    assert counts[("face-cards-move", "front")] == 6
    assert counts[("face-cards-_all", "back")] == 12
    assert counts[("face-marker-marker", "front")] == 12
    assert counts[("face-scorepad-scorepad", "front")] == 1
    assert (bare_workspace / "output" / "demo" / "zh-Hant" / "rulebook.pdf").is_file()


@pytest.mark.parametrize(("slug", "needle"), [("Demo", "not a usable game name"), ("../x", "not a usable game name"),
                                               ("all", "not a usable game name"), ("a-b", "not a usable game name")])
def test_new_refuses_bad_names(bare_workspace: Path, slug: str, needle: str) -> None:
    result = CliRunner().invoke(cli, ["--root", str(bare_workspace), "new", slug])
    assert result.exit_code == 1 and needle in result.output
    assert not any((bare_workspace / "card_data").iterdir())


def test_new_refuses_a_taken_name(bare_workspace: Path) -> None:
    invoke(bare_workspace, "new", "demo")
    before = (bare_workspace / "card_data" / "demo" / "game.yaml").read_bytes()
    result = CliRunner().invoke(cli, ["--root", str(bare_workspace), "new", "demo"])
    assert result.exit_code == 1 and "already exists" in result.output
    assert (bare_workspace / "card_data" / "demo" / "game.yaml").read_bytes() == before


def test_a_template_sum_that_fails_on_a_table_row_names_the_row(bare_workspace: Path) -> None:
    """Arithmetic on a printed table's value that fails is reported at the row and field in
    tables.yaml (with the template line after it), by build and check alike."""
    invoke(bare_workspace, "new", "demo")
    template = bare_workspace / "templates" / "demo" / "rulebook.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n{% for row in tables.setup %}\n"
                        "每人每輪約 {{ 12 // row.hand }} 回合。\n{% endfor %}\n", encoding="utf-8")
    line = template.read_text(encoding="utf-8").splitlines().index("每人每輪約 {{ 12 // row.hand }} 回合。") + 1
    tables = bare_workspace / "card_data" / "demo" / "tables.yaml"
    tables.write_text(tables.read_text(encoding="utf-8").replace("{players: 3, hand: 3,", "{players: 3, hand: 0,"),
                      encoding="utf-8")
    row = tables.read_text(encoding="utf-8").splitlines().index("      - {players: 3, hand: 0, markers: 10}") + 1
    where = (f"card_data/demo/tables.yaml:{row}: tables.setup.rows[1].hand: 0: "
             f"templates/demo/rulebook.md.j2:{line} computes from it and fails: ZeroDivisionError")
    built = run(bare_workspace, "build", "demo", "--lang", "zh-Hant")
    assert built.returncode == 1 and where in built.stderr, built.stderr
    checked = run(bare_workspace, "check", "demo")
    assert checked.returncode == 1 and where in checked.stdout, checked.stdout
    assert not (bare_workspace / "output").exists()


# --- cards from CSV --------------------------------------------------------------------------

CSV = ("id,count,title,text,color\n"
       "move,6,前進,把你的標記往前移一格。,#2f6f9f\n"
       "swap,4,交換,和一位玩家交換一張手牌。,#3f8f5f\n"
       "score,2,得分,拿一個分數標記。,#b8862f\n")


def _csv_deck(root: Path, csv_text: str) -> None:
    components = root / "card_data" / "demo" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    start = text.index("    cards:\n      - {id: move")
    end = text.index("\n\n  - id: marker")
    components.write_text(text[:start] + "    cards: cards.csv" + text[end:], encoding="utf-8")
    (root / "card_data" / "demo" / "cards.csv").write_text(csv_text, encoding="utf-8")


def test_csv_deck_builds_the_same_faces_as_the_yaml_deck(bare_workspace: Path) -> None:
    invoke(bare_workspace, "new", "demo")
    invoke(bare_workspace, "build", "demo", "--lang", "zh-Hant", "--out", str(bare_workspace / "yaml"))
    _csv_deck(bare_workspace, CSV)
    invoke(bare_workspace, "build", "demo", "--lang", "zh-Hant", "--out", str(bare_workspace / "csv"))
    yaml_pdf = (bare_workspace / "yaml" / "demo" / "zh-Hant" / "components.pdf").read_bytes()
    csv_pdf = (bare_workspace / "csv" / "demo" / "zh-Hant" / "components.pdf").read_bytes()
    assert yaml_pdf == csv_pdf


def test_an_edited_card_file_is_rebuilt(bare_workspace: Path) -> None:
    """The build record counts a deck's CSV (or workbook) as an input, like components.yaml."""
    invoke(bare_workspace, "new", "demo")
    _csv_deck(bare_workspace, CSV)
    invoke(bare_workspace, "build", "demo", "--lang", "zh-Hant")
    pdf = bare_workspace / "output" / "demo" / "zh-Hant" / "components.pdf"
    before = pdf.read_bytes()
    (bare_workspace / "card_data" / "demo" / "cards.csv").write_text(CSV.replace("前進", "後退"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(bare_workspace), "build", "demo", "--lang", "zh-Hant"])
    assert result.exit_code == 0, result.output
    assert "components.pdf rebuilt (card_data/demo/cards.csv" in result.output
    assert pdf.read_bytes() != before
    assert "後退" in "".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_bad_csv_cells_are_located_by_row_and_column(bare_workspace: Path) -> None:
    invoke(bare_workspace, "new", "demo")
    _csv_deck(bare_workspace, CSV.replace("swap,4,", "swap,four,").replace(",#b8862f", ",gold"))
    result = CliRunner().invoke(cli, ["--root", str(bare_workspace), "build", "demo"])
    assert result.exit_code == 1
    assert "cards.csv:3:2: components[0].cards[1].count: expected a whole number" in result.output
    assert "cards.csv:4:5: components[0].cards[2].fields.color" in result.output
    assert not (bare_workspace / "output").exists()


# --- cards from .xlsx ------------------------------------------------------------------------

SHEET = "牌組"


def _xlsx_deck(root: Path, rows: list[list[object]], name: str = "cards.xlsx") -> Path:
    """The demo deck as a workbook made here with openpyxl (no binary in the repository)."""
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = SHEET
    for row in rows:
        sheet.append(row)
    _csv_deck(root, CSV)  # point components.yaml at a card file, then swap the file in
    components = root / "card_data" / "demo" / "components.yaml"
    components.write_text(components.read_text(encoding="utf-8").replace("cards: cards.csv", f"cards: {name}"),
                          encoding="utf-8")
    (root / "card_data" / "demo" / "cards.csv").unlink()
    path = root / "card_data" / "demo" / name
    workbook.save(path)
    return path


XLSX_ROWS: list[list[object]] = [[cell if not cell.isdigit() else int(cell) for cell in line.split(",")]
                                 for line in CSV.splitlines()]


def test_xlsx_deck_builds_the_same_faces_as_the_yaml_deck(bare_workspace: Path) -> None:
    invoke(bare_workspace, "new", "demo")
    invoke(bare_workspace, "build", "demo", "--lang", "zh-Hant", "--out", str(bare_workspace / "yaml"))
    assert XLSX_ROWS[1][:2] == ["move", 6]  # counts are number cells, as a spreadsheet keeps them
    _xlsx_deck(bare_workspace, XLSX_ROWS)
    invoke(bare_workspace, "build", "demo", "--lang", "zh-Hant", "--out", str(bare_workspace / "xlsx"))
    yaml_pdf = (bare_workspace / "yaml" / "demo" / "zh-Hant" / "components.pdf").read_bytes()
    xlsx_pdf = (bare_workspace / "xlsx" / "demo" / "zh-Hant" / "components.pdf").read_bytes()
    assert yaml_pdf == xlsx_pdf
    assert face_counts(bare_workspace / "xlsx" / "demo" / "zh-Hant" / "components.pdf")[
        ("face-cards-move", "front")] == 6


def test_bad_xlsx_cells_are_located_by_row_column_and_cell(bare_workspace: Path) -> None:
    invoke(bare_workspace, "new", "demo")
    rows = [list(row) for row in XLSX_ROWS]
    rows[2][1] = "four"
    rows[3][4] = "gold"
    _xlsx_deck(bare_workspace, rows)
    result = CliRunner().invoke(cli, ["--root", str(bare_workspace), "build", "demo"])
    assert result.exit_code == 1
    assert f"cards.xlsx:3:2: {SHEET}!B3: components[0].cards[1].count: expected a whole number" in result.output
    assert f"cards.xlsx:4:5: {SHEET}!E4: components[0].cards[2].fields.color" in result.output
    assert not (bare_workspace / "output").exists()
    # check reports the same places.
    checked = CliRunner().invoke(cli, ["--root", str(bare_workspace), "check", "demo"])
    assert checked.exit_code == 1
    assert f"cards.xlsx:3:2: {SHEET}!B3: components[0].cards[1].count" in checked.output


def test_xlsx_cells_that_are_not_text_are_each_located(bare_workspace: Path) -> None:
    import datetime

    invoke(bare_workspace, "new", "demo")
    rows = [list(row) for row in XLSX_ROWS]
    rows[1][2] = datetime.date(2026, 12, 1)
    rows[2][3] = True
    rows[3][2] = "=UPPER(A4)"  # written by openpyxl: a formula with no saved result
    rows.append(["extra", 1, "多", "一格", "#000000", "no column"])
    _xlsx_deck(bare_workspace, rows)
    result = CliRunner().invoke(cli, ["--root", str(bare_workspace), "build", "demo"])
    assert result.exit_code == 1, result.output
    assert f"cards.xlsx:2:3: {SHEET}!C2: a date or time cell" in result.output
    assert f"cards.xlsx:3:4: {SHEET}!D3: a TRUE/FALSE cell" in result.output
    assert f"cards.xlsx:4:3: {SHEET}!C4: a formula with no saved result" in result.output
    assert "Traceback" not in result.output
    assert not (bare_workspace / "output").exists()


def test_xlsx_extra_column_and_a_file_that_is_no_workbook(bare_workspace: Path) -> None:
    invoke(bare_workspace, "new", "demo")
    rows = [list(row) for row in XLSX_ROWS]
    rows[2].append("stray")
    path = _xlsx_deck(bare_workspace, rows)
    result = CliRunner().invoke(cli, ["--root", str(bare_workspace), "build", "demo"])
    assert result.exit_code == 1
    assert f"cards.xlsx:3:6: {SHEET}!F3: a value in a column with no name in row 1" in result.output
    path.write_bytes(b"id,count\nmove,1\n")  # a CSV saved under the wrong name
    result = CliRunner().invoke(cli, ["--root", str(bare_workspace), "build", "demo"])
    assert result.exit_code == 1
    assert "cards.xlsx: not a readable .xlsx workbook" in result.output
    assert "Traceback" not in result.output


# --- pnp.toml --------------------------------------------------------------------------------


def test_pnp_toml_sets_defaults_and_the_command_line_wins(bare_workspace: Path) -> None:
    invoke(bare_workspace, "new", "demo")
    (bare_workspace / "pnp.toml").write_text('paper = "letter"\nlang = "zh-Hans"\nout = "prints"\n',
                                             encoding="utf-8")
    invoke(bare_workspace, "build", "demo")
    built = list((bare_workspace / "prints" / "demo").iterdir())
    assert [p.name for p in built] == ["zh-Hans"]
    page = PdfReader(bare_workspace / "prints" / "demo" / "zh-Hans" / "components.pdf").pages[0]
    assert float(page.mediabox.width) == pytest.approx(215.9 * PT_PER_MM, abs=0.01)
    invoke(bare_workspace, "build", "demo", "--paper", "a4", "--lang", "zh-Hant")
    page = PdfReader(bare_workspace / "prints" / "demo" / "zh-Hant" / "components.pdf").pages[0]
    assert float(page.mediabox.width) == pytest.approx(210 * PT_PER_MM, abs=0.01)


def test_tool_pnp_in_pyproject_and_its_errors_are_located(bare_workspace: Path) -> None:
    (bare_workspace / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.pnp]\npaper = "b9"\n'
                                                   'back_offset = [1, 99]\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(bare_workspace), "calibrate"])
    assert result.exit_code == 1
    assert "pyproject.toml:5: tool.pnp.paper: expected a4, letter, a3" in result.output
    assert "pyproject.toml:6: tool.pnp.back_offset:" in result.output
    assert not (bare_workspace / "output").exists()


def test_pnp_toml_back_offset_reaches_calibrate(bare_workspace: Path) -> None:
    (bare_workspace / "pnp.toml").write_text("back_offset = [1, -0.5]\n", encoding="utf-8")
    invoke(bare_workspace, "calibrate")
    back = contents(bare_workspace / "output" / "calibrate-a4.pdf")[1]
    assert f"1 0 0 1 {PT_PER_MM:.6f} {0.5 * PT_PER_MM:.6f} cm".encode() in back
    shutil.rmtree(bare_workspace / "output")


def test_pnp_toml_out_is_where_export_calibrate_and_sample_write(bare_workspace: Path) -> None:
    invoke(bare_workspace, "new", "demo")
    (bare_workspace / "pnp.toml").write_text('out = "prints"\n', encoding="utf-8")
    invoke(bare_workspace, "export", "contact", "demo", "--lang", "zh-Hant")
    invoke(bare_workspace, "calibrate", "--paper", "letter")
    contact = bare_workspace / "prints" / "demo" / "zh-Hant" / "contact"
    assert sorted(p.name for p in contact.glob("*.png")) == ["cards.png", "marker.png", "scorepad.png"]
    assert len(PdfReader(bare_workspace / "prints" / "calibrate-letter.pdf").pages) == 2
    assert not (bare_workspace / "output").exists()
    # --out still wins over the setting.
    elsewhere = bare_workspace / "elsewhere"
    invoke(bare_workspace, "export", "contact", "demo", "--lang", "zh-Hant", "--out", str(elsewhere))
    assert (elsewhere / "cards.png").is_file()


@pytest.mark.parametrize("folder", ["card_data", "templates/x", "."])
def test_pnp_toml_out_may_not_be_a_source_folder(bare_workspace: Path, folder: str) -> None:
    (bare_workspace / "pnp.toml").write_text(f'paper = "a4"\nout = "{folder}"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(bare_workspace), "calibrate"])
    assert result.exit_code == 1
    assert "pnp.toml:2: out:" in result.output and "sources" in result.output
    assert not (bare_workspace / "output").exists()


def test_pnp_toml_out_is_where_a_sample_pdf_goes(workspace_copy: Path) -> None:
    (workspace_copy / "pnp.toml").write_text('out = "prints"\n', encoding="utf-8")
    invoke(workspace_copy, "sample", "niutouwang", "--format", "pdf", "--lang", "zh-Hant", "--players", "4")
    pdf = workspace_copy / "prints" / "niutouwang" / "zh-Hant" / "sample-seed1-p4.pdf"
    assert len(PdfReader(pdf).pages) >= 1
    assert not (workspace_copy / "output").exists()
