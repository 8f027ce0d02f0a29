"""Incremental builds: an output is rendered again only when something it is built from changed.

What was rendered is observed by wrapping ``render_game`` (every render goes through it) and
by reading the build record, never by timing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pnp.build.kinds
import pnp.build.pipeline
from pnp.build.manifest import MANIFEST_NAME, noting_game, rulebook_view
from pnp.build.pipeline import build, load_games
from pnp.core import diskcache
from pnp.core.workspace import Workspace
from pnp.games.registry import tables_from_engine
from tests.conftest import ROOT, edit
from tests.pdfprobe import text

FIXTURES = ROOT / "tests" / "fixtures"
# A card field no rulebook figure shows: the set-up figure seats five players, so the number
# on screen 6 is drawn on the components only. The workspace writes the screens out one by
# one (the shipped data generates them from a range) so that one card can be edited.
GENERATED_SHIELDS = """    generate:
      range: [1, 6]
      id: "shield-{n}"
      fields: {number: "{n}"}
"""
LISTED_SHIELDS = "    cards:\n" + "".join(
    f'      - {{id: shield-{n}, fields: {{number: "{n}"}}}}\n' for n in range(1, 7))
CARD = '{id: shield-6, fields: {number: "6"}}'
EDITED_CARD = '{id: shield-6, fields: {number: "7"}}'



@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """tisigui (with a rulebook) and the small tiling game (without one)."""
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "card_data" / "tisigui", root / "card_data" / "tisigui")
    shutil.copytree(FIXTURES / "tiling_game", root / "card_data" / "tiling_game")
    shutil.copytree(ROOT / "templates" / "tisigui", root / "templates" / "tisigui")
    edit(root / "card_data/tisigui/components.yaml", GENERATED_SHIELDS, LISTED_SHIELDS)
    return root


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, tuple[str, ...]]]:
    """Every render_game call: (game, script, kinds)."""
    calls: list[tuple[str, str, tuple[str, ...]]] = []
    real = pnp.build.kinds.render_game

    def spy(workspace, game, lang, paper, png=False, kinds=None, **options):
        calls.append((game.info.slug, lang, tuple(kinds or ())))
        return real(workspace, game, lang, paper, png, kinds, **options)

    monkeypatch.setattr(pnp.build.kinds, "render_game", spy)
    return calls


def snapshot(folder: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file's bytes, inode and mtime: a file rewritten with the same bytes still shows."""
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def statuses(report) -> dict[str, str]:
    return {outcome.output.key: outcome.status for outcome in report.outcomes}


def test_a_no_op_rebuild_renders_and_writes_nothing(workspace, renders):
    ws = Workspace(workspace)
    first = build(ws, "all")
    assert {(slug, lang) for slug, lang, _ in renders} == {
        (slug, lang) for slug in ("tisigui", "tiling_game") for lang in ("zh-Hant", "zh-Hans")}
    assert (workspace / "output" / MANIFEST_NAME).is_file()
    # tisigui: components, rulebook and aid in each script; tiling_game has no rulebook template
    assert len(first.written) == 8
    before = snapshot(workspace / "output")
    renders.clear()
    again = build(ws, "all")
    assert renders == []
    assert again.written == [] and again.removed == []
    assert {key for key, status in statuses(again).items() if status != "up-to-date"} == {
        f"tiling_game/{lang}/{kind}" for lang in ("zh-Hant", "zh-Hans") for kind in ("rulebook", "aid")}
    assert snapshot(workspace / "output") == before


def test_a_card_edit_renders_only_that_games_components_in_each_script(workspace, renders, tmp_path):
    ws = Workspace(workspace)
    build(ws, "all")
    record = json.loads((workspace / "output" / MANIFEST_NAME).read_text(encoding="utf-8"))
    renders.clear()
    before = (workspace / "output/tisigui/zh-Hant/components.pdf").read_bytes()
    edit(workspace / "card_data/tisigui/components.yaml", CARD, EDITED_CARD)
    report = build(ws, "all")
    assert renders == [("tisigui", "zh-Hant", ("components",)), ("tisigui", "zh-Hans", ("components",))]
    assert {str(w.path.relative_to(workspace / "output")) for w in report.written} == {
        "tisigui/zh-Hant/components.pdf", "tisigui/zh-Hans/components.pdf"}
    assert (workspace / "output/tisigui/zh-Hant/components.pdf").read_bytes() != before
    # The rulebooks were kept, and their record renewed: the next build has nothing to do.
    after = json.loads((workspace / "output" / MANIFEST_NAME).read_text(encoding="utf-8"))
    for lang in ("zh-Hant", "zh-Hans"):
        key = f"tisigui/{lang}/rulebook"
        assert after["outputs"][key]["files"] == record["outputs"][key]["files"]
        assert after["outputs"][key]["build"] == record["outputs"][key]["build"]
    renders.clear()
    build(ws, "all")
    assert renders == []
    # The same bytes as a build from scratch of the edited game.
    fresh = tmp_path / "fresh"
    build(ws, "tisigui", out=fresh)
    for lang in ("zh-Hant", "zh-Hans"):
        for name in ("components.pdf", "rulebook.pdf"):
            assert (fresh / "tisigui" / lang / name).read_bytes() == \
                (workspace / "output" / "tisigui" / lang / name).read_bytes()


def test_a_template_edit_renders_only_rulebooks(workspace, renders):
    ws = Workspace(workspace)
    build(ws, "all")
    renders.clear()
    path = workspace / "templates/tisigui/rulebook.md.j2"
    path.write_text(path.read_text(encoding="utf-8") + "\n增补的一段说明。\n", encoding="utf-8")
    report = build(ws, "all")
    assert renders == [("tisigui", "zh-Hant", ("rulebook",)), ("tisigui", "zh-Hans", ("rulebook",))]
    assert "增補的一段說明" in text(workspace / "output/tisigui/zh-Hant/rulebook.pdf")
    reasons = {o.output.key: o.reason for o in report.outcomes if o.status == "rebuilt"}
    assert reasons == {f"tisigui/{lang}/rulebook": "templates/tisigui/rulebook.md.j2 changed"
                       for lang in ("zh-Hant", "zh-Hans")}


def test_an_option_change_rebuilds(workspace, renders):
    ws = Workspace(workspace)
    build(ws, "tiling_game", "zh-Hant")
    renders.clear()
    report = build(ws, "tiling_game", "zh-Hant", paper="letter")
    assert renders == [("tiling_game", "zh-Hant", ("components",)), ("tiling_game", "zh-Hant", ("rulebook",)),
                       ("tiling_game", "zh-Hant", ("aid",))]
    assert "--paper option changed" in {o.reason for o in report.outcomes}


def test_an_edit_of_the_same_size_in_the_same_clock_tick_is_seen(workspace, renders):
    ws = Workspace(workspace)
    path = workspace / "card_data/tisigui/components.yaml"
    os.utime(path)  # just saved, as in an editor
    build(ws, "tisigui", "zh-Hant")
    stamp = path.stat()
    edit(path, CARD, EDITED_CARD)  # same length
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (stamp.st_size, stamp.st_mtime_ns)
    renders.clear()
    build(ws, "tisigui", "zh-Hant")
    assert renders == [("tisigui", "zh-Hant", ("components",))]


def test_an_edit_with_its_size_and_modification_time_put_back_is_seen(workspace, renders, monkeypatch):
    """A file rewritten long after it was recorded, at its old size, with its old mtime put back
    (``touch -r``, a copy that keeps times): the change time still differs."""
    monkeypatch.setattr(diskcache, "RACY_NS", 0)  # every stamp settled: the record keeps them all
    ws = Workspace(workspace)
    path = workspace / "card_data/tisigui/components.yaml"
    long_ago = path.stat().st_mtime_ns - 60 * 10**9
    os.utime(path, ns=(long_ago, long_ago))
    build(ws, "tisigui", "zh-Hant")
    stamp = path.stat()
    edit(path, CARD, EDITED_CARD)  # same length, same inode
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    now = path.stat()
    assert (now.st_size, now.st_mtime_ns, now.st_ino) == (stamp.st_size, stamp.st_mtime_ns, stamp.st_ino)
    renders.clear()
    build(ws, "tisigui", "zh-Hant")
    assert renders == [("tisigui", "zh-Hant", ("components",))]


def test_a_rulebook_depends_on_the_card_fields_it_reads():
    game = load_games(Workspace(ROOT), ["tisigui"], tables_from_engine)[0]
    noted, seen = noting_game(game)
    identity = next(c for c in noted.components if c.id == "identity")
    assert identity.cards[1].fields["title"].value == "活人"
    assert seen == {"identity/human/title"}
    view = rulebook_view(game, seen)
    import dataclasses

    def with_field(key: str, value: str):
        component = next(c for c in game.components if c.id == "identity")
        card = dataclasses.replace(component.cards[1], fields={
            **component.cards[1].fields, key: dataclasses.replace(component.cards[1].fields[key], value=value)})
        changed = dataclasses.replace(component, cards=(component.cards[0], card, *component.cards[2:]))
        return dataclasses.replace(game, components=tuple(
            changed if c.id == "identity" else c for c in game.components))

    assert rulebook_view(with_field("role", "另一段文字"), seen) == view  # never read
    assert rulebook_view(with_field("title", "死人"), seen) != view  # read


def test_a_corrupt_or_missing_record_means_a_full_rebuild(workspace, renders):
    ws = Workspace(workspace)
    build(ws, "tisigui", "zh-Hant")
    manifest = workspace / "output" / MANIFEST_NAME
    for damage in (b"{not json", b"\xff\xfe", b'{"format": 1, "outputs": {"x": 3}}', b"[]", None):
        if damage is None:
            manifest.unlink()
        else:
            manifest.write_bytes(damage)
        renders.clear()
        report = build(ws, "tisigui", "zh-Hant")
        assert renders == [("tisigui", "zh-Hant", ("components",)), ("tisigui", "zh-Hant", ("rulebook",)),
                       ("tisigui", "zh-Hant", ("aid",))], damage
        assert set(statuses(report).values()) == {"rebuilt"}
        json.loads(manifest.read_text(encoding="utf-8"))  # whole again


def test_a_changed_or_deleted_output_is_rebuilt(workspace, renders):
    ws = Workspace(workspace)
    build(ws, "tisigui", "zh-Hant")
    (workspace / "output/tisigui/zh-Hant/rulebook.pdf").write_bytes(b"%PDF- edited by hand")
    renders.clear()
    build(ws, "tisigui", "zh-Hant")
    assert renders == [("tisigui", "zh-Hant", ("rulebook",))]
    (workspace / "output/tisigui/zh-Hant/components.pdf").unlink()
    renders.clear()
    build(ws, "tisigui", "zh-Hant")
    assert renders == [("tisigui", "zh-Hant", ("components",))]


def test_force_rebuilds_everything(workspace, renders):
    ws = Workspace(workspace)
    build(ws, "tisigui", "zh-Hant")
    renders.clear()
    report = build(ws, "tisigui", "zh-Hant", force=True)
    assert renders == [("tisigui", "zh-Hant", ("components",)), ("tisigui", "zh-Hant", ("rulebook",)),
                       ("tisigui", "zh-Hant", ("aid",))]
    assert {o.reason for o in report.outcomes} == {"forced"}
    assert len(report.written) == 3  # components, rulebook and the player aid


def test_png_faces_are_their_own_output(workspace, renders):
    ws = Workspace(workspace)
    build(ws, "tiling_game", "zh-Hant")
    renders.clear()
    build(ws, "tiling_game", "zh-Hant", png=True)
    assert renders == [("tiling_game", "zh-Hant", ("png",))]
    pngs = sorted(p.name for p in (workspace / "output/tiling_game/zh-Hant/png").iterdir())
    assert pngs and all(name.endswith(".png") for name in pngs)
    renders.clear()
    build(ws, "tiling_game", "zh-Hant", png=True, paper="letter")  # faces do not depend on paper
    assert renders == [("tiling_game", "zh-Hant", ("components",)), ("tiling_game", "zh-Hant", ("rulebook",)),
                       ("tiling_game", "zh-Hant", ("aid",))]


# --------------------------------------------------------------------------------------------
# All or nothing


def test_a_build_that_cannot_write_one_file_changes_none(workspace, renders):
    ws = Workspace(workspace)
    build(ws, "tisigui", "zh-Hant")
    before = snapshot(workspace / "output")
    blocked = workspace / "output/tisigui/zh-Hans/rulebook.pdf"
    blocked.mkdir(parents=True)  # a folder where a new output must go
    edit(workspace / "card_data/tisigui/components.yaml", CARD, EDITED_CARD)
    with pytest.raises(pnp.build.pipeline.PnpError, match="rulebook.pdf: cannot write here: a folder is in the way"):
        build(ws, "tisigui", "all")
    blocked.rmdir()
    assert snapshot(workspace / "output") == before  # old outputs, old record, no temporaries


def test_a_failure_while_swapping_puts_every_old_file_back(workspace, monkeypatch):
    ws = Workspace(workspace)
    build(ws, "tisigui", "zh-Hant")
    before = snapshot(workspace / "output")
    edit(workspace / "card_data/tisigui/components.yaml", CARD, EDITED_CARD)
    path = workspace / "templates/tisigui/rulebook.md.j2"
    path.write_text(path.read_text(encoding="utf-8") + "\n多一段。\n", encoding="utf-8")
    real_replace = os.replace
    swapped = []

    def failing_replace(src, dst):
        if str(src).endswith(".tmp"):
            swapped.append(dst)
            if len(swapped) == 2:  # the first new file is already in place
                raise OSError(28, "No space left on device", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(pnp.build.pipeline.PnpError, match="No space left on device"):
        build(ws, "tisigui", "zh-Hant")
    monkeypatch.setattr(os, "replace", real_replace)
    after = snapshot(workspace / "output")
    assert {k: v[0] for k, v in after.items()} == {k: v[0] for k, v in before.items()}


def test_an_output_root_that_is_a_file_is_a_clear_error(workspace):
    (workspace / "output").mkdir()
    (workspace / "output" / "tiling_game").write_text("not a folder", encoding="utf-8")
    with pytest.raises(pnp.build.pipeline.PnpError, match="is a file, not a folder"):
        build(Workspace(workspace), "tiling_game", "zh-Hant")
    assert sorted(p.name for p in (workspace / "output").iterdir()) == ["tiling_game"]


def test_files_named_like_temporaries_are_never_removed_without_a_journal(workspace):
    """pnp removes only what a journal it wrote names (pnp.build.journal): a file shaped like a
    temporary of pnp's, of an earlier pnp, or of a dead writer, is someone's file."""
    ws = Workspace(workspace)
    build(ws, "tiling_game", "zh-Hant")
    folder = workspace / "output/tiling_game/zh-Hant"
    names = [".components.pdf.pnp-999999999-0123abcd.tmp", ".components.pdf.k2j4_x9q.tmp",
             ".components.pdf.pnp-999999999-0123abcd.old", ".x.abcdefgh.tmp", "notes.tmp"]
    for name in names:
        (folder / name).write_bytes(b"someone's")
    report = build(ws, "tiling_game", "zh-Hant", force=True)  # rewrites every file of that folder
    assert report.written and report.recovered == []
    assert all((folder / name).read_bytes() == b"someone's" for name in names)


def test_a_missing_rulebook_template_removes_the_old_rulebook(workspace, renders):
    ws = Workspace(workspace)
    build(ws, "tisigui", "zh-Hant")
    (workspace / "templates/tisigui/rulebook.md.j2").unlink()
    renders.clear()
    report = build(ws, "tisigui", "zh-Hant")
    assert renders == [("tisigui", "zh-Hant", ("rulebook",))]
    assert not (workspace / "output/tisigui/zh-Hant/rulebook.pdf").exists()
    # The player aid is an output of its own, from its own template: it stays.
    assert report.removed == [workspace / "output/tisigui/zh-Hant/rulebook.pdf"]
    assert (workspace / "output/tisigui/zh-Hant/aid.pdf").is_file()
    assert statuses(report)["tisigui/zh-Hant/rulebook"] == "no-template"
    # A stray rulebook.pdf put back by hand goes too.
    (workspace / "output/tisigui/zh-Hant/rulebook.pdf").write_bytes(b"%PDF-old")
    build(ws, "tisigui", "zh-Hant")
    assert not (workspace / "output/tisigui/zh-Hant/rulebook.pdf").exists()


@pytest.mark.parametrize("out", ["card_data", "card_data/tisigui", "templates", "fonts", "."])
def test_out_into_the_sources_is_refused(workspace, out):
    with pytest.raises(pnp.build.pipeline.PnpError, match="--out"):
        build(Workspace(workspace), "tiling_game", "zh-Hant", out=workspace / out)
    assert not (workspace / "output").exists()


# --------------------------------------------------------------------------------------------
# What the command says


def test_the_command_says_what_it_rebuilt_and_what_was_up_to_date(workspace):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pnp", "--root", str(workspace), "build", "tiling_game", "--lang", "zh-Hant"]
    first = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert first.returncode == 0, first.stderr
    lines = first.stderr.splitlines()
    # Piped: plain lines, no carriage returns or terminal escapes.
    assert "\r" not in first.stderr and "\x1b" not in first.stderr
    assert "[1/1] rendering tiling_game zh-Hant: components.pdf, rulebook.pdf, aid.pdf" in lines
    assert any(line.startswith("tiling_game zh-Hant: components.pdf rebuilt (no earlier build recorded)")
               for line in lines), lines
    second = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert second.returncode == 0 and second.stdout == ""
    assert second.stderr.startswith("tiling_game zh-Hant: components.pdf up to date"), second.stderr
    forced = subprocess.run([*command, "--force"], capture_output=True, text=True, env=env, timeout=300)
    assert "components.pdf rebuilt (forced)" in forced.stderr and "wrote " in forced.stderr  # messages: stderr


def test_templates_a_rulebook_names_are_its_inputs(tmp_path):
    from pnp.build.templatewalk import template_files

    (tmp_path / "a").mkdir()
    (tmp_path / "shared").mkdir()
    (tmp_path / "a" / "rulebook.md.j2").write_text("# 規則\n{% include 'shared/part.md.j2' %}\n", encoding="utf-8")
    (tmp_path / "shared" / "part.md.j2").write_text("共用段落\n", encoding="utf-8")
    (tmp_path / "shared" / "other.md.j2").write_text("無關\n", encoding="utf-8")
    assert template_files(tmp_path, "a") == [tmp_path / "a" / "rulebook.md.j2", tmp_path / "shared" / "part.md.j2"]
    # A name computed while rendering could be any template.
    (tmp_path / "a" / "rulebook.md.j2").write_text("{% include rules.part %}\n", encoding="utf-8")
    assert len(template_files(tmp_path, "a")) == 3


def test_a_template_name_made_from_the_games_slug_is_resolved(tmp_path):
    from pnp.build.templatewalk import template_files

    for slug in ("a", "b"):
        (tmp_path / slug).mkdir()
        (tmp_path / slug / "aid.md.j2").write_text("速查\n", encoding="utf-8")
    (tmp_path / "a" / "rulebook.md.j2").write_text('{% include game.slug ~ "/aid.md.j2" %}\n', encoding="utf-8")
    # Rendered with `game` naming game a, the include can only be a's own aid: b's is no input.
    assert template_files(tmp_path, "a") == [tmp_path / "a" / "aid.md.j2", tmp_path / "a" / "rulebook.md.j2"]
    # A template that rebinds `game` could name anything.
    (tmp_path / "a" / "rulebook.md.j2").write_text(
        '{% set game = other %}{% include game.slug ~ "/aid.md.j2" %}\n', encoding="utf-8")
    assert tmp_path / "b" / "aid.md.j2" in template_files(tmp_path, "a")


def test_the_player_aid_is_an_output_of_its_own(workspace, renders):
    ws = Workspace(workspace)
    build(ws, "tisigui", "zh-Hant")
    record = json.loads((workspace / "output" / MANIFEST_NAME).read_text(encoding="utf-8"))["outputs"]
    assert record["tisigui/zh-Hant/aid"]["files"].keys() == {"tisigui/zh-Hant/aid.pdf"}
    assert record["tisigui/zh-Hant/rulebook"]["files"].keys() == {"tisigui/zh-Hant/rulebook.pdf"}
    # The aid reads its own template (and what that names), not the rulebook's.
    assert "templates/tisigui/aid.md.j2" in record["tisigui/zh-Hant/aid"]["inputs"]
    assert "templates/tisigui/rulebook.md.j2" not in record["tisigui/zh-Hant/aid"]["inputs"]
    renders.clear()
    path = workspace / "templates/tisigui/aid.md.j2"
    path.write_text(path.read_text(encoding="utf-8") + "\n速查补记。\n", encoding="utf-8")
    report = build(ws, "tisigui", "zh-Hant")
    # tisigui's rulebook prints the aid too (it includes the aid's template): both are made again.
    assert renders == [("tisigui", "zh-Hant", ("rulebook",)), ("tisigui", "zh-Hant", ("aid",))]
    assert statuses(report)["tisigui/zh-Hant/aid"] == "rebuilt"
    assert [o.reason for o in report.outcomes if o.output.kind.name == "aid"] == \
        ["templates/tisigui/aid.md.j2 changed"]
    assert "速查補記" in text(workspace / "output/tisigui/zh-Hant/aid.pdf")
    # Deleting the aid by hand rebuilds the aid alone.
    (workspace / "output/tisigui/zh-Hant/aid.pdf").unlink()
    renders.clear()
    report = build(ws, "tisigui", "zh-Hant")
    assert renders == [("tisigui", "zh-Hant", ("aid",))]
    assert [w.path.name for w in report.written] == ["aid.pdf"]


def test_a_record_of_before_the_aid_was_its_own_output_keeps_the_aid(workspace):
    """A record written when the rulebook's entry listed aid.pdf: the rebuilt rulebook must not
    remove the file the aid now writes."""
    ws = Workspace(workspace)
    build(ws, "tisigui", "zh-Hant")
    path = workspace / "output" / MANIFEST_NAME
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["outputs"]["tisigui/zh-Hant/aid"]
    doc["outputs"]["tisigui/zh-Hant/rulebook"]["files"]["tisigui/zh-Hant/aid.pdf"] = "0" * 64
    doc["outputs"]["tisigui/zh-Hant/rulebook"]["inputs"]["pnp"] = "an older pnp"
    path.write_text(json.dumps(doc), encoding="utf-8")
    report = build(ws, "tisigui", "zh-Hant")
    assert report.removed == []
    assert (workspace / "output/tisigui/zh-Hant/aid.pdf").is_file()


def test_a_game_without_book_templates_says_so_when_nothing_changed(workspace, renders):
    """A no-op rebuild does not call an output the game has no template for "up to date": no
    file of it exists, and the build that found the template missing said why."""
    ws = Workspace(workspace)
    build(ws, "tiling_game", "zh-Hant")
    renders.clear()
    report = build(ws, "tiling_game", "zh-Hant")
    assert renders == []
    found = {outcome.output.kind.name: (outcome.status, outcome.reason) for outcome in report.outcomes}
    assert found["components"] == ("up-to-date", "")
    for kind, template in (("rulebook", "rulebook.md.j2"), ("aid", "aid.md.j2")):
        assert found[kind] == ("no-template", f"templates/tiling_game/{template} not found")
    assert sorted(p.name for p in (workspace / "output/tiling_game/zh-Hant").iterdir()) == ["components.pdf"]
