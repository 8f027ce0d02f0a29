"""Exports are outputs like the build's: made again only when what they are built from changed,
written through the build's staging writer with the build's record. What was rendered is read
from the report and the files (their bytes, inodes and mtimes), never from timing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.build.manifest import MANIFEST_NAME
from pnp.cli import cli
from pnp.core.workspace import Workspace
from pnp.export.exports import export
from tests.conftest import ROOT, edit

FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """tisigui and the small tiling game, which has a deck of one card."""
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "card_data" / "tisigui", root / "card_data" / "tisigui")
    shutil.copytree(FIXTURES / "tiling_game", root / "card_data" / "tiling_game")
    return root


def snapshot(folder: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file's bytes, inode and mtime: a file rewritten with the same bytes still shows."""
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def statuses(report) -> dict[str, str]:
    return {outcome.output.key: outcome.status for outcome in report.outcomes}


def test_an_unchanged_export_is_not_made_again_and_an_edit_remakes_only_what_it_reaches(workspace):
    ws = Workspace(workspace)
    first = export(ws, "contact", "all", "zh-Hant")
    assert set(statuses(first).values()) == {"rebuilt"}
    output = workspace / "output"
    assert (output / "tisigui/zh-Hant/contact/identity.png").is_file()
    assert (output / "tiling_game/zh-Hant/contact/card.png").is_file()
    record = json.loads((output / MANIFEST_NAME).read_text(encoding="utf-8"))["outputs"]
    assert "tisigui/zh-Hant/contact/identity.png" in record["tisigui/zh-Hant/contact"]["files"]
    before = snapshot(output)

    again = export(ws, "contact", "all", "zh-Hant")
    assert set(statuses(again).values()) == {"up-to-date"}
    assert again.written == [] and again.removed == []
    assert snapshot(output) == before

    edit(workspace / "card_data/tiling_game/components.yaml", "name: 行動牌", "name: 行動卡")
    edited = export(ws, "contact", "all", "zh-Hant")
    assert statuses(edited) == {"tisigui/zh-Hant/contact": "up-to-date", "tiling_game/zh-Hant/contact": "rebuilt"}
    assert [o.reason for o in edited.outcomes if o.status == "rebuilt"] == \
        ["card_data/tiling_game/components.yaml changed"]
    after = snapshot(output)
    assert {k: v for k, v in after.items() if k.startswith("tisigui/")} == \
        {k: v for k, v in before.items() if k.startswith("tisigui/")}

    forced = export(ws, "contact", "tisigui", "zh-Hant", force=True)
    assert {o.reason for o in forced.outcomes} == {"forced"}
    assert {w.path.name for w in forced.written} >= {"identity.png"}
    # The same bytes: an export is deterministic.
    assert {k: v[0] for k, v in snapshot(output).items() if k.startswith("tisigui/")} == \
        {k: v[0] for k, v in before.items() if k.startswith("tisigui/")}


def test_only_the_tuck_boxes_depend_on_the_paper(workspace):
    ws = Workspace(workspace)
    out = workspace / "boxes"
    export(ws, "tuckbox", "tisigui", "zh-Hans", out=out)
    letter = export(ws, "tuckbox", "tisigui", "zh-Hans", out=out, paper="letter")
    assert [o.reason for o in letter.outcomes] == ["--paper option changed"]
    export(ws, "contact", "tisigui", "zh-Hans", out=workspace / "chat")
    assert statuses(export(ws, "contact", "tisigui", "zh-Hans", out=workspace / "chat", paper="letter")) == \
        {"tisigui/zh-Hans/contact": "up-to-date"}


def test_a_file_changed_or_added_in_the_folder_remakes_the_export(workspace):
    ws = Workspace(workspace)
    out = workspace / "chat"
    export(ws, "contact", "tiling_game", "zh-Hans", out=out)
    made = snapshot(out)
    (out / "card.png").write_bytes(b"not a picture")
    (out / "holiday.jpg").write_bytes(b"x")
    report = export(ws, "contact", "tiling_game", "zh-Hans", out=out)
    assert [o.reason for o in report.outcomes] == ["an output file is missing or was changed"]
    assert report.removed == [out / "holiday.jpg"]
    assert {k: v[0] for k, v in snapshot(out).items() if k != MANIFEST_NAME} == \
        {k: v[0] for k, v in made.items() if k != MANIFEST_NAME}


def test_the_command_says_what_was_up_to_date(workspace):
    command = ["--root", str(workspace), "export", "contact", "tiling_game", "--lang", "zh-Hant"]
    first = CliRunner().invoke(cli, command)
    assert first.exit_code == 0, first.output
    assert "tiling_game zh-Hant: contact/ rebuilt (no earlier build recorded)" in first.output
    assert "wrote 2 files" in first.output
    second = CliRunner().invoke(cli, [*command, "--format", "json"])
    assert second.exit_code == 0, second.output
    doc = json.loads(second.stdout)
    assert doc["outputs"] == [{"game": "tiling_game", "lang": "zh-Hant", "output": "contact",
                               "status": "up-to-date", "reason": ""}]
    assert doc["written"] == []
    third = CliRunner().invoke(cli, [*command, "--force"])
    assert "contact/ rebuilt (forced)" in third.output
