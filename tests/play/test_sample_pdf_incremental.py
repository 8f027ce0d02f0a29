"""`pnp sample --format pdf` is an output of the build pipeline: recorded at the output root with
its arguments, written again only when the game, its narration template, the fonts or an
argument changed — run twice for real, read back from the files and the record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pnp.build.manifest import MANIFEST_NAME
from pnp.cli import cli
from pnp.core.workspace import Workspace
from pnp.play.narrate import play_sample
from pnp.play.sample_pdf import narration_pdf
from tests.conftest import game_workspace

GAME = "niutouwang"
ARGS = ("sample", GAME, "--format", "pdf", "--lang", "zh-Hant", "--players", "4", "--seed", "2")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return game_workspace(tmp_path, GAME, templates=True)


def sample(root: Path, *args: str) -> Result:
    result = CliRunner().invoke(cli, ["--root", str(root), *ARGS, *args])
    assert result.exit_code == 0, result.output
    return result


def stamp(path: Path) -> tuple[bytes, int, int]:
    """Bytes, inode and mtime: a file written again with the same bytes still shows."""
    status = path.stat()
    return path.read_bytes(), status.st_ino, status.st_mtime_ns


def record(root: Path) -> dict[str, dict]:
    return json.loads((root / "output" / MANIFEST_NAME).read_text(encoding="utf-8"))["outputs"]


def pdf(root: Path, seed: int = 2) -> Path:
    return root / "output" / GAME / "zh-Hant" / f"sample-seed{seed}-p4.pdf"


def test_a_second_sample_pdf_is_up_to_date_and_leaves_the_file(root: Path) -> None:
    first = sample(root)
    assert f"wrote {pdf(root)} (" in first.output
    before = stamp(pdf(root))
    # The pipeline writes exactly what the narration's typesetting makes of the same game.
    ws = Workspace(root)
    assert before[0] == narration_pdf(ws, play_sample(ws, GAME, 4, 2), "zh-Hant")
    inputs = record(root)[f"{GAME}/zh-Hant/sample-seed2-p4.pdf"]["inputs"]
    assert {name: value for name, value in inputs.items() if name.startswith("option:")} == {
        "option:seed": "2", "option:players": "4", "option:bots": "greedy", "option:lang": "zh-Hant",
        "option:paper": "a4"}
    assert f"templates/{GAME}/narration.md.j2" in inputs and f"card_data/{GAME}/game.yaml" in inputs

    again = sample(root)
    assert f"{pdf(root)} up to date" in again.output and "wrote" not in again.output
    assert stamp(pdf(root)) == before
    forced = sample(root, "--force")
    assert "wrote" in forced.output
    assert stamp(pdf(root))[0] == before[0] and stamp(pdf(root))[1:] != before[1:]


def test_another_seed_is_another_file_and_a_changed_argument_remakes_it(root: Path) -> None:
    sample(root)
    seed2 = stamp(pdf(root))
    sample(root, "--seed", "3")
    assert pdf(root, 3).read_bytes() != seed2[0]
    assert stamp(pdf(root)) == seed2  # the other seed's file is kept, untouched
    assert {f"{GAME}/zh-Hant/sample-seed2-p4.pdf", f"{GAME}/zh-Hant/sample-seed3-p4.pdf"} <= set(record(root))
    assert "up to date" in sample(root).output
    # The same file, played by other bots: made again.
    sample(root, "--bots", "random")
    assert stamp(pdf(root))[0] != seed2[0]
    assert record(root)[f"{GAME}/zh-Hant/sample-seed2-p4.pdf"]["inputs"]["option:bots"] == "random"
    sample(root)
    assert stamp(pdf(root))[0] == seed2[0]


def test_an_edited_narration_template_remakes_it(root: Path) -> None:
    sample(root)
    before = stamp(pdf(root))
    template = root / "templates" / GAME / "narration.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n附記。\n", encoding="utf-8")
    assert "wrote" in sample(root).output
    assert stamp(pdf(root))[0] != before[0]


def test_a_build_and_a_sample_share_the_record(root: Path) -> None:
    sample(root)
    before = stamp(pdf(root))
    build = CliRunner().invoke(cli, ["--root", str(root), "build", GAME, "--lang", "zh-Hant"])
    assert build.exit_code == 0, build.output
    assert stamp(pdf(root)) == before  # the build leaves the sample's file alone
    assert "up to date" in sample(root).output
    again = CliRunner().invoke(cli, ["--root", str(root), "build", GAME, "--lang", "zh-Hant"])
    assert "rebuilt" not in again.output and "wrote" not in again.output


def test_a_file_pnp_did_not_write_is_replaced_as_before(root: Path) -> None:
    pdf(root).parent.mkdir(parents=True)
    pdf(root).write_bytes(b"a file of the user's")
    assert "wrote" in sample(root).output
    assert pdf(root).read_bytes().startswith(b"%PDF")


def test_out_elsewhere_is_written_every_time_and_leaves_no_record(root: Path, tmp_path: Path) -> None:
    folder = tmp_path / "elsewhere"  # a folder pnp did not make
    target = folder / "game.pdf"
    folder.mkdir()
    sample(root, "--out", str(target))
    first = target.read_bytes()
    assert [p.name for p in folder.iterdir()] == ["game.pdf"]
    assert "wrote" in sample(root, "--out", str(target)).output  # nowhere to record it: made again
    assert target.read_bytes() == first and [p.name for p in folder.iterdir()] == ["game.pdf"]
    assert not (root / "output").exists()


def test_out_at_a_folder_is_refused_as_before(root: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--root", str(root), *ARGS, "--out", str(tmp_path)])
    assert result.exit_code == 2 and "--out" in result.output
