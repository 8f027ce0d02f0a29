"""Sheet pages kept with the faces (pnp.render.facecache, pnp.render.sheets): a components PDF
made again replays every page whose drawing reads nothing an edit changed, its text renumbered
for the glyphs the edit brought or moved, and the PDF is still a cold build's, byte for byte.

Each page prints text of its own (the sheet label, the rulers' caption) after every face is
defined, so any edit that changes which glyphs the cards print first renumbers the glyphs of
every replayed page; a component's new name changes the labels of the sheets it is on, and only
those pages are drawn again.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from pnp.build.pipeline import build
from pnp.core import diskcache
from pnp.core.workspace import Workspace
from pnp.render import facecache
from tests.conftest import ROOT, edit
from tests.render.test_facecache import _files, _subsets

GAME = "aizhewudi"
CARDS = f"card_data/{GAME}/components.yaml"
PDF = f"{GAME}/zh-Hant/components.pdf"
NEW_WORDING = ("必須亮出這張牌", "必須翻開這張牌")  # the ability edit
NEW_GLYPHS = ("如果你還在場", "春夏秋冬，如果你還在場")  # four characters no card printed
NEW_NAME = ("name: 被愛標記", "name: 被愛記號")  # the round "loved" markers' component


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    for part in ("card_data", "templates"):
        shutil.copytree(ROOT / part / GAME, root / part / GAME)
    return root


@pytest.fixture
def drawn_pages(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """Every sheet page drawn (not replayed), as (sheet number, back), in order."""
    from pnp.render.sheetpage import draw_page

    drawn: list[tuple[int, bool]] = []

    def noting(canvas: Any, plan: Any, back: bool, *rest: Any) -> int:
        drawn.append((plan.number, back))
        return draw_page(canvas, plan, back, *rest)

    monkeypatch.setattr("pnp.render.sheets.draw_page", noting)
    return drawn


def _pages(pdf: Path) -> list[tuple[bytes, list[str]]]:
    """Each page's content stream and the forms it places."""
    return [(page.get_contents().get_data(), sorted(page["/Resources"].get("/XObject", {})))
            for page in PdfReader(pdf).pages]


def _cold(workspace: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    with monkeypatch.context() as cold_build:
        cold_build.setenv("PNP_CACHE_DIR", "")
        build(Workspace(workspace), GAME, "all", out=out, force=True)
    return _files(out)


def test_pages_are_replayed_renumbered_and_only_a_renamed_components_sheets_drawn_again(
        workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, drawn_pages: list[tuple[int, bool]]) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))

    def pages_drawn(force: bool = False) -> list[tuple[int, bool]]:
        drawn_pages.clear()
        build(Workspace(workspace), GAME, "all", out=workspace / "output", force=force)
        return list(drawn_pages)

    first = pages_drawn()
    sheets = len(_pages(workspace / "output" / PDF)) // 2
    assert sorted(first) == sorted(2 * [(number, back) for number in range(1, sheets + 1) for back in (False, True)])
    # Every page and every face replayed: reportlab is asked for PDF 1.4 by the replays alone.
    assert pages_drawn(force=True) == []
    assert _files(workspace / "output") == _cold(workspace, tmp_path / "cold-0", monkeypatch)
    for index, (old, new) in enumerate([NEW_WORDING, NEW_GLYPHS, NEW_NAME], 1):
        edit(workspace / CARDS, old, new)
        drawn = pages_drawn()
        after = _cold(workspace, tmp_path / f"cold-{index}", monkeypatch)
        incremental = _files(workspace / "output")
        assert sorted(incremental) == sorted(after)
        assert [file for file in after if incremental[file] != after[file]] == [], new
        pages_before = _pages(tmp_path / f"cold-{index - 1}" / PDF)
        pages_after = _pages(tmp_path / f"cold-{index}" / PDF)
        changed = [number for number, (was, now) in enumerate(zip(pages_before, pages_after, strict=True))
                   if was != now]
        if (old, new) == NEW_NAME:
            # The loved markers' pages, front and back, in both scripts, and no other.
            loved = sorted({number // 2 + 1 for number, (_, placed) in enumerate(pages_after)
                            if any("face-loved-" in name for name in placed)})
            assert loved
            assert sorted(drawn) == sorted(2 * [(number, back) for number in loved for back in (False, True)])
        else:
            assert drawn == [], new
            # Pages the edit did not touch whose text is numbered otherwise now: replayed renumbered.
            assert changed, new


def test_a_page_whose_label_glyph_moved_into_another_subset_is_replayed_to_a_cold_builds_bytes(
        workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, drawn_pages: list[tuple[int, bool]]) -> None:
    """Enough new characters on one card that the label's glyphs (numbered after every face's)
    cross a subset's end: the kept pages print them in another subset now."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    build(Workspace(workspace), GAME, "all", out=workspace / "output")
    _cold(workspace, tmp_path / "cold-0", monkeypatch)
    label = "被愛標記花心標記能力牌角色牌行動牌鈔票正面背面版"
    subsets_before = _subsets(tmp_path / "cold-0" / PDF)
    # Characters the fonts have (other games written in Traditional print them) that no aizhewudi
    # file holds.
    ours = "".join(path.read_text(encoding="utf-8") for path in workspace.rglob("*.yaml"))
    others = "".join(path.read_text(encoding="utf-8") for slug in ("wurenshenghuan", "niutouwang")
                     for path in sorted((ROOT / "card_data" / slug).rglob("*.yaml")))
    new = "".join(dict.fromkeys(char for char in others if "\u4e00" <= char <= "\u9fff" and char not in ours))
    assert len(new) >= 120
    moved: set[str] = set()
    for count in (3, 40, 120):
        edit(workspace / CARDS, NEW_GLYPHS[0], new[:count] + NEW_GLYPHS[0])
        drawn_pages.clear()
        build(Workspace(workspace), GAME, "all", out=workspace / "output")
        assert drawn_pages == [], count
        after = _cold(workspace, tmp_path / f"cold-{count}", monkeypatch)
        incremental = _files(workspace / "output")
        assert [file for file in after if incremental[file] != after[file]] == [], count
        subsets_after = _subsets(tmp_path / f"cold-{count}" / PDF)
        moved |= {char for (font, char), subset in subsets_after.items()
                  if char in label and subsets_before.get((font, char), subset) != subset}
        edit(workspace / CARDS, new[:count] + NEW_GLYPHS[0], NEW_GLYPHS[0])
    assert moved


def _kept_pages(name: str) -> dict[str, facecache.FaceRecord]:
    """The entry's pages: only a page places faces (a face places symbols, icons, pictures)."""
    return {key: record for key, record in facecache._load(name).items()
            if any(form.startswith("face-") for form in record.forms)}


@pytest.mark.parametrize("damage", ["undecodable", "unfit", "foreign"])
def test_a_damaged_or_foreign_entry_is_ignored(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              drawn_pages: list[tuple[int, bool]], damage: str) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    build(Workspace(workspace), GAME, "all", out=workspace / "output")
    name = facecache._entry_name(f"{GAME}/zh-Hant/components")
    assert name is not None
    pages = _kept_pages(name)
    assert len(pages) == len(_pages(workspace / "output" / PDF))
    if damage == "undecodable":  # signed by pnp, but a page's tally is no number: nothing is read
        payload = diskcache.read(facecache.AREA, name, 1 << 26)
        assert payload is not None
        key = next(iter(pages)).encode("ascii")
        rows = [row.removesuffix(b"]") + b',"x"]' if row.startswith(key) else row for row in
                (row.rpartition(b",")[0] + b"]" if row.startswith(key) else row for row in payload.split(b"\n"))]
        diskcache.write(facecache.AREA, name, b"\n".join(rows))
        assert facecache._load(name) == {}
    elif damage == "unfit":  # every page under its own key, but placing a form or a font this PDF lacks
        kept = facecache._load(name)
        for number, key in enumerate(pages):
            record = kept[key]
            kept[key] = dataclasses.replace(record, forms=(*record.forms, "face-nobody-none-front"), row=b"") \
                if number % 2 else dataclasses.replace(
                    record, fonts=tuple(dataclasses.replace(use, font="Nobody") for use in record.fonts), row=b"")
        facecache._store(name, kept)
        assert all(record.fonts or number % 2 for number, record in enumerate(_kept_pages(name).values()))
    else:  # the other script's genuine entry copied over this one
        other = facecache._entry_name(f"{GAME}/zh-Hans/components")
        assert other is not None
        shutil.copyfile(tmp_path / "cache" / facecache.AREA / other, tmp_path / "cache" / facecache.AREA / name)
    cold = _cold(workspace, tmp_path / "cold", monkeypatch)
    drawn_pages.clear()
    build(Workspace(workspace), GAME, "all", out=workspace / "output", force=True)
    assert len(drawn_pages) == len(pages)  # every zh-Hant page drawn again, no zh-Hans one
    incremental = _files(workspace / "output")
    assert [file for file in cold if incremental[file] != cold[file]] == []


def test_edits_in_new_processes_write_a_cold_builds_bytes(workspace: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The edits above, each built by a new process with the disk cache on, and without it."""
    def built(out: str, cache: str) -> dict[str, bytes]:
        env = {**os.environ, "PNP_CACHE_DIR": cache}
        subprocess.run([sys.executable, "-m", "pnp", "--root", str(workspace), "build", GAME, "--lang", "all",
                        "--out", str(tmp_path / out)], check=True, env=env, cwd=ROOT, capture_output=True)
        return _files(tmp_path / out)

    folder = str(tmp_path / "cache")
    previous = built("kept", folder)
    for step, (old, new) in enumerate([NEW_WORDING, NEW_GLYPHS, NEW_NAME]):
        edit(workspace / CARDS, old, new)
        after = built("kept", folder)
        assert after == built(f"plain{step}", ""), new
        assert after[PDF] != previous[PDF]
        previous = after
    monkeypatch.setenv("PNP_CACHE_DIR", folder)
    assert _kept_pages(facecache._entry_name(f"{GAME}/zh-Hant/components") or "")
