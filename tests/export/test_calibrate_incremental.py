"""`pnp calibrate` is an output of the build pipeline: recorded at the output root, written again
only when its paper, back offset, script or fonts changed — run twice for real, read back from the
file and the record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pnp.build.manifest import MANIFEST_NAME
from pnp.cli import cli
from pnp.core.workspace import Workspace
from pnp.export.calibrate import calibration_pdf
from pnp.text.fonts import load_family


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A workspace with no games: the calibration sheet is no game's."""
    ws = tmp_path / "ws"
    (ws / "card_data").mkdir(parents=True)
    (ws / "templates").mkdir()
    return ws


def calibrate(root: Path, *args: str) -> Result:
    result = CliRunner().invoke(cli, ["--root", str(root), "calibrate", *args])
    assert result.exit_code == 0, result.output
    return result


def stamp(path: Path) -> tuple[bytes, int, int]:
    """Bytes, inode and mtime: a file written again with the same bytes still shows."""
    status = path.stat()
    return path.read_bytes(), status.st_ino, status.st_mtime_ns


def record(output: Path) -> dict[str, dict]:
    return json.loads((output / MANIFEST_NAME).read_text(encoding="utf-8"))["outputs"]


def test_a_second_calibrate_is_up_to_date_and_leaves_the_file(root: Path) -> None:
    sheet = root / "output" / "calibrate-a4.pdf"
    first = calibrate(root)
    assert "wrote" in first.output and "print it double-sided" in first.output
    before = stamp(sheet)
    # The pipeline writes exactly what the sheet's render draws.
    assert before[0] == calibration_pdf("a4", load_family(Workspace(root).fonts, "zh-Hant"), "zh-Hant")
    inputs = record(root / "output")["calibrate-a4.pdf"]["inputs"]
    assert inputs["option:paper"] == "a4" and inputs["option:lang"] == "zh-Hant"
    assert "option:back_offset" not in inputs  # at its default, as the build records it
    assert not any(name.startswith("card_data/") for name in inputs)  # no game's data

    again = calibrate(root)
    assert "up to date" in again.output and "wrote" not in again.output
    assert stamp(sheet) == before
    forced = calibrate(root, "--force")
    assert "wrote" in forced.output
    assert stamp(sheet)[0] == before[0] and stamp(sheet)[1:] != before[1:]


def test_a_changed_back_offset_or_script_remakes_the_sheet(root: Path) -> None:
    sheet = root / "output" / "calibrate-a4.pdf"
    calibrate(root)
    plain = stamp(sheet)
    calibrate(root, "--back-offset", "1,-0.5")
    moved = stamp(sheet)
    assert moved[0] != plain[0]
    assert record(root / "output")["calibrate-a4.pdf"]["inputs"]["option:back_offset"] == "1,-0.5"
    assert "up to date" in calibrate(root, "--back-offset", "1,-0.5").output
    assert stamp(sheet) == moved
    calibrate(root, "--lang", "zh-Hans")
    assert stamp(sheet)[0] not in (plain[0], moved[0])
    # Back to the first arguments: the first bytes again.
    calibrate(root)
    assert stamp(sheet)[0] == plain[0]


def test_each_paper_keeps_its_own_file_and_record(root: Path) -> None:
    calibrate(root)
    calibrate(root, "--paper", "letter")
    outputs = record(root / "output")
    assert set(outputs) == {"calibrate-a4.pdf", "calibrate-letter.pdf"}
    assert outputs["calibrate-letter.pdf"]["files"].keys() == {"calibrate-letter.pdf"}
    assert "up to date" in calibrate(root).output


def test_format_json_lists_the_output(root: Path) -> None:
    first = json.loads(calibrate(root, "--format", "json").stdout)
    assert first["path"] == "output/calibrate-a4.pdf"
    assert first["outputs"] == [{"game": None, "lang": "zh-Hant", "output": "calibrate", "status": "rebuilt",
                                 "reason": "no earlier build recorded"}]
    assert [item["path"] for item in first["written"]] == ["output/calibrate-a4.pdf"]
    second = json.loads(calibrate(root, "--format", "json").stdout)
    assert second["outputs"][0]["status"] == "up-to-date" and second["written"] == []
    moved = json.loads(calibrate(root, "--format", "json", "--back-offset", "0,2").stdout)
    assert moved["outputs"][0]["reason"] == "--back-offset option changed"


def test_a_file_pnp_did_not_write_is_replaced_as_before(root: Path) -> None:
    sheet = root / "output" / "calibrate-a4.pdf"
    sheet.parent.mkdir()
    sheet.write_bytes(b"a file of the user's")
    report = json.loads(calibrate(root, "--format", "json").stdout)
    assert report["outputs"][0]["status"] == "rebuilt"
    assert sheet.read_bytes().startswith(b"%PDF")
    # Changed by hand after pnp wrote it: written again.
    sheet.write_bytes(b"edited")
    assert "wrote" in calibrate(root).output and sheet.read_bytes().startswith(b"%PDF")


def test_out_elsewhere_is_written_every_time_and_leaves_no_record(root: Path, tmp_path: Path) -> None:
    folder = tmp_path / "elsewhere"  # a folder pnp did not make
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n", encoding="utf-8")
    target = folder / "sheet.pdf"
    calibrate(root, "--out", str(target))
    first = stamp(target)
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt", "sheet.pdf"]
    assert "wrote" in calibrate(root, "--out", str(target)).output  # nowhere to record it: made again
    assert stamp(target)[0] == first[0]
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt", "sheet.pdf"]
    assert not (root / "output").exists()


def test_out_inside_the_output_root_is_recorded_there(root: Path) -> None:
    target = root / "output" / "sheets" / "duplex.pdf"
    calibrate(root, "--out", str(target))
    assert "sheets/duplex.pdf" in record(root / "output")
    before = stamp(target)
    assert "up to date" in calibrate(root, "--out", str(target)).output
    assert stamp(target) == before


def test_out_may_not_name_the_record(root: Path) -> None:
    calibrate(root)
    kept = (root / "output" / MANIFEST_NAME).read_bytes()
    result = CliRunner().invoke(cli, ["--root", str(root), "calibrate", "--out", str(root / "output" / MANIFEST_NAME)])
    assert result.exit_code == 1 and "pnp's own record" in result.output
    assert (root / "output" / MANIFEST_NAME).read_bytes() == kept
