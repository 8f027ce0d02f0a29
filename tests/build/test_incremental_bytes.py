"""An incremental build writes the very bytes a cold build of the same workspace writes.

Two games (niutouwang: a 104-card deck whose rulebook draws its cards; aizhewudi: ability
cards no book prints) are built cold; then, edit by edit (a card's text, a layout's colour, a
rules number, a book's text), the same output folder is built again incrementally and every
file in it is compared byte for byte with a cold build (``force``, a folder of its own, pnp's
disk cache turned off) of the edited workspace. Each edit must change at least one file, or
the comparison would prove nothing. No timing is measured.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnp.build.manifest import MANIFEST_NAME
from pnp.build.pipeline import build
from pnp.core.workspace import Workspace
from tests.conftest import ROOT, edit

GAMES = ("niutouwang", "aizhewudi")

NIUTOUWANG_BOOKS = {f"niutouwang/{lang}/{name}" for lang in ("zh-Hant", "zh-Hans") for name in ("rulebook", "aid")}

# (what is edited, file under the workspace, old text, new text, the files that must change,
# outputs the incremental build must keep as they were: a layout no book draws rebuilds no book)
EDITS: list[tuple[str, str, str | None, str, set[str], set[str]]] = [
    ("an ability card's text (printed in no book)", "card_data/aizhewudi/components.yaml",
     "必須亮出這張牌", "必須翻開這張牌",
     {"aizhewudi/zh-Hant/components.pdf", "aizhewudi/zh-Hans/components.pdf"},
     {"aizhewudi/zh-Hant/rulebook", "aizhewudi/zh-Hans/aid"}),
    ("a colour of the deck's back layout", "card_data/niutouwang/components.yaml",
     'fill: "#742a37"', 'fill: "#2a5b74"',
     {"niutouwang/zh-Hant/components.pdf", "niutouwang/zh-Hans/components.pdf"}, NIUTOUWANG_BOOKS),
    ("a colour of the deck's front layout, which the rulebook's figures draw",
     "card_data/niutouwang/components.yaml",
     'stroke: "{color}", stroke_width: 0.8}\n      - {type: text, box: [15, 28',
     'stroke: "#3a6e2f", stroke_width: 0.8}\n      - {type: text, box: [15, 28',
     {"niutouwang/zh-Hant/components.pdf", "niutouwang/zh-Hant/rulebook.pdf"},
     {"niutouwang/zh-Hant/aid", "niutouwang/zh-Hans/aid"}),
    ("a rules number, which an ability card, the rulebook and the aid print", "card_data/aizhewudi/game.yaml",
     "chapel_owner: 10000", "chapel_owner: 12000",
     {f"aizhewudi/{lang}/{name}" for lang in ("zh-Hant", "zh-Hans")
      for name in ("components.pdf", "rulebook.pdf", "aid.pdf")}, set()),
    ("a book's text", "templates/aizhewudi/rulebook.md.j2", None, "\n多一句說明。\n",
     {"aizhewudi/zh-Hant/rulebook.pdf", "aizhewudi/zh-Hans/rulebook.pdf"}, {"niutouwang/zh-Hant/rulebook"}),
]


def _files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and path.name != MANIFEST_NAME}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bytes") / "ws"
    for slug in GAMES:
        shutil.copytree(ROOT / "card_data" / slug, root / "card_data" / slug)
        shutil.copytree(ROOT / "templates" / slug, root / "templates" / slug)
    return root


def test_every_kind_of_edit_builds_incrementally_to_the_bytes_of_a_cold_build(workspace: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    out = workspace / "output"
    build(Workspace(workspace), "all", "all", out=out)
    before = _files(out)
    assert len(before) == 2 * 2 * 3  # two games, two scripts, sheets + rulebook + aid
    for index, (what, name, old, new, changing, kept) in enumerate(EDITS):
        path = workspace / name
        if old is None:  # appended
            path.write_text(path.read_text(encoding="utf-8") + new, encoding="utf-8")
        else:
            edit(path, old, new)
        report = build(Workspace(workspace), "all", "all", out=out)
        up_to_date = {f"{o.output.slug}/{o.output.lang}/{o.output.kind.name}" for o in report.outcomes
                      if o.status == "up-to-date"}
        assert kept <= up_to_date, f"after {what}: {sorted(kept - up_to_date)} were made again"
        incremental = _files(out)
        cold_out = workspace.parent / f"cold-{index}"
        with monkeypatch.context() as cold_build:
            # Nothing kept from earlier builds (fits, line settings, font subsets): the
            # reference owes nothing to pnp's disk cache, which the incremental builds use.
            cold_build.setenv("PNP_CACHE_DIR", "")
            build(Workspace(workspace), "all", "all", out=cold_out, force=True)
        cold = _files(cold_out)
        assert sorted(incremental) == sorted(cold), what
        differing = [file for file in cold if incremental[file] != cold[file]]
        assert differing == [], f"after {what}: {differing} differ from a cold build"
        changed = {file for file in cold if before.get(file) != cold[file]}
        assert changing <= changed, f"{what} changed only {sorted(changed)}"
        before = incremental


# Components before aizhewudi's ability cards in components.yaml: their faces are drawn before
# the edited card's, so no glyph of theirs can be numbered differently after the edit.
BEFORE_ABILITY = {"character", "action", "bill", "loved", "fickle"}


def test_a_rebuilt_components_pdf_replays_unchanged_faces_from_the_face_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, drawn_layouts: list[tuple[str, str, str]]) -> None:
    """The per-face cache (pnp.render.facecache): after an edit, the faces it did not touch are
    not laid out again, and the PDF is still a cold build's, byte for byte."""
    root = tmp_path / "ws"
    for slug in GAMES:
        shutil.copytree(ROOT / "card_data" / slug, root / "card_data" / slug)
        shutil.copytree(ROOT / "templates" / slug, root / "templates" / slug)
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    drawn = drawn_layouts

    def faces_drawn(force: bool = False) -> set[tuple[str, str, str]]:
        drawn.clear()
        build(Workspace(root), "all", "all", out=root / "output", force=force)
        return set(drawn)

    everything = faces_drawn()
    # Made again with nothing changed, only the faces that are first to place a symbol, icon or
    # picture are drawn (that form is defined while the face is drawn); the rest are replayed.
    always = faces_drawn(force=True)
    assert always < everything and len(always) < len(everything) // 4

    edit(root / "card_data/niutouwang/components.yaml", 'fill: "#742a37"', 'fill: "#2a5b74"')
    back_edit = faces_drawn()
    assert "number_back" in {layout for _, _, layout in back_edit}
    assert {layout for _, _, layout in back_edit - always} <= {"number_back"}

    edit(root / "card_data/aizhewudi/components.yaml", "必須亮出這張牌", "必須翻開這張牌")
    card_edit = faces_drawn()
    assert "ability" in {component for component, _, _ in card_edit}
    assert not BEFORE_ABILITY & {component for component, _, _ in card_edit - always}

    monkeypatch.setenv("PNP_CACHE_DIR", "")
    cold_out = tmp_path / "cold"
    build(Workspace(root), "all", "all", out=cold_out, force=True)
    incremental, cold = _files(root / "output"), _files(cold_out)
    assert sorted(incremental) == sorted(cold)
    assert [file for file in cold if incremental[file] != cold[file]] == []
