"""The serve loop does only what a save changed, and shows what a cold build would.

After each kind of edit, the files the preview serves are byte for byte those of a cold
`pnp build --png` of the edited workspace (a new process), its page images have the pixels of
that build's PDFs rendered afresh with PDFium, pages whose pixels did not change were not
encoded again (they keep their address), and faces whose drawing did not change were not
rasterised again. Each early version a save publishes (the first outputs shown while the rest
is built) shows those of the cold build too, as they were on disk when it was published, and
shows nothing of what is still being built.
"""

from __future__ import annotations

import io
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from pnp.core.workspace import Workspace
from pnp.serve.preview import PAGE_DPI, SHEET_DPI, Preview
from pnp.serve.views import State
from tests.conftest import game_workspace
from tests.liveproc import Live

GAME = "tisigui"


@dataclass(frozen=True)
class Edit:
    kind: str
    path: str
    old: str  # replaced once; "" appends ``new``
    new: str
    faces_drawn: int | None  # faces rasterised again, counted by hand (None: not counted)


EDITS = (
    # The human card's front, in each of the two scripts.
    Edit("one card's text", "card_data/tisigui/components.yaml", "指认正确就得分", "指认对了就得分", 2),
    # Nothing on a card: the rulebook alone.
    Edit("the rulebook template", "templates/tisigui/rulebook.md.j2", "", "\n多一句说明。\n", 0),
    Edit("a layout colour", "card_data/tisigui/components.yaml", 'background: "#2a2238"', 'background: "#2a2239"',
         None),
    Edit("a rules number printed on a card", "card_data/tisigui/game.yaml", "actions_per_turn: {min: 1, max: 2}",
         "actions_per_turn: {min: 1, max: 3}", None),
)


def _apply(root: Path, edit: Edit) -> None:
    path = root / edit.path
    text = path.read_text(encoding="utf-8")
    assert not edit.old or edit.old in text, f"{edit.old!r} is not in {path}"
    path.write_text(text.replace(edit.old, edit.new, 1) if edit.old else text + edit.new, encoding="utf-8")


def _files(root: Path) -> dict[str, bytes]:
    """Every file of the game's outputs under ``root``, by path (the build record left out)."""
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for path in sorted((root / GAME).rglob("*")) if path.is_file()}


def _cold_build(workspace: Path, out: Path) -> dict[str, bytes]:
    subprocess.run([sys.executable, "-m", "pnp", "--root", str(workspace), "-q", "build", GAME, "--lang", "all",
                    "--png", "--out", str(out)], check=True, capture_output=True)
    return _files(out)


def _pixels(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGB").tobytes()


def _rendered(pdf: bytes, dpi: int) -> list[bytes]:
    """Each page's pixels, drawn here with PDFium itself: RGB on white paper at ``dpi``."""
    document = pdfium.PdfDocument(pdf)
    try:
        return [page.render(scale=dpi / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB").tobytes()
                for page in document]
    finally:
        document.close()


@dataclass
class Early:
    """What an early version showed, read when it was published: each shown face's and PDF's
    bytes by path, each shown PDF's page images, and the scripts whose faces it left out."""

    files: dict[str, bytes] = field(default_factory=dict)
    pages: dict[str, list[bytes]] = field(default_factory=dict)
    faces_pending: set[str] = field(default_factory=set)  # "<slug>/<lang>"
    pending: set[str] = field(default_factory=set)  # PDFs shown as being rebuilt


class Recorder:
    """Reads each early ("finishing") version of the preview as it is published."""

    def __init__(self) -> None:
        self.preview: Preview | None = None
        self.early: list[Early] = []

    def __call__(self, state: State) -> None:
        if state.activity != "finishing":
            return
        assert self.preview is not None
        root = self.preview.root
        seen = Early()
        for game in state.games:
            for script in game.scripts:
                if script.pending:
                    assert not script.groups
                    seen.faces_pending.add(f"{game.slug}/{script.lang}")
                for group in script.groups:
                    for face in group.faces:
                        seen.files[face.path] = (root / face.path).read_bytes()
                for document in script.documents:
                    if document.pending:
                        assert not document.pages
                        seen.pending.add(document.path)
                        continue
                    seen.files[document.path] = (root / document.path).read_bytes()
                    seen.pages[document.path] = [self.preview.page(key) or b"" for key in document.pages]
        self.early.append(seen)


def _check_early(kind: str, early: list[Early], cold: dict[str, bytes]) -> None:
    """Every early version shows the cold build's bytes and pixels for what it shows, all the
    faces of a script whose faces it shows, and at least one output."""
    for seen in early:
        assert seen.files, f"{kind}: an early version shows nothing"
        for path, data in seen.files.items():
            assert cold.get(path) == data, f"{kind}: an early version shows {path} unlike a cold build"
        shown_scripts = {path.rsplit("/png/", 1)[0] for path in seen.files if "/png/" in path}
        for script in shown_scripts:
            assert {path for path in cold if path.startswith(f"{script}/png/")} == \
                {path for path in seen.files if path.startswith(f"{script}/png/")}, kind
            assert script not in seen.faces_pending, kind
        for path, pngs in seen.pages.items():
            dpi = SHEET_DPI if path.endswith("components.pdf") else PAGE_DPI
            assert [_pixels(png) for png in pngs] == _rendered(cold[path], dpi), \
                f"{kind}: an early version's pages of {path} are not the PDF's"


def _pages(preview: Preview, state: State) -> dict[str, tuple[str, ...]]:
    """Each shown PDF's page keys, by the PDF's path."""
    return {document.path: document.pages for game in state.games for script in game.scripts
            for document in script.documents}


def test_each_kind_of_edit_shows_a_cold_build_and_redraws_only_what_changed(tmp_path: Path) -> None:
    root = game_workspace(tmp_path, GAME, templates=True)
    recorder = Recorder()
    preview = recorder.preview = Preview(Workspace(root), GAME, folder=tmp_path / "served", published=recorder)
    state = preview.refresh()
    assert not state.errors
    assert recorder.early, "the first build shows its first outputs before the rest"
    total_faces = preview.rasters.drawn
    assert total_faces > 0 and preview.rasters.reused == 0
    for number, edit in enumerate(EDITS):
        before = _pages(preview, state)
        before_pixels = {path: {_pixels(preview.page(key) or b"") for key in keys} for path, keys in before.items()}
        _apply(root, edit)
        recorder.early.clear()
        state = preview.refresh([edit.path])
        assert not state.errors, (edit.kind, state.errors)

        cold = _cold_build(root, tmp_path / f"cold-{number}")
        assert _files(preview.root) == cold, f"{edit.kind}: the served files differ from a cold build's"
        assert recorder.early, f"{edit.kind}: no early version"
        _check_early(edit.kind, recorder.early, cold)
        assert not any(game.scripts and any(script.pending or any(d.pending for d in script.documents)
                                            for script in game.scripts) for game in state.games), \
            f"{edit.kind}: the last version still shows outputs as being rebuilt"

        after = _pages(preview, state)
        assert after.keys() == before.keys()
        encoded = 0
        for path, keys in after.items():
            dpi = SHEET_DPI if path.endswith("components.pdf") else PAGE_DPI
            fresh = _rendered(cold[path], dpi)
            shown = [preview.page(key) for key in keys]
            assert all(shown), f"{edit.kind}: {path} names a page the preview does not serve"
            assert [_pixels(png or b"") for png in shown] == fresh, f"{edit.kind}: {path}'s pages are not the PDF's"
            for key, pixels in zip(keys, fresh, strict=True):
                if pixels in before_pixels[path]:
                    assert key in before[path], f"{edit.kind}: an unchanged page of {path} has a new address"
                else:
                    encoded += 1
        assert preview.pages_drawn == encoded, edit.kind

        rasters = preview.rasters
        if edit.faces_drawn is not None:
            assert rasters.drawn == edit.faces_drawn, edit.kind
        else:
            assert 0 < rasters.drawn < total_faces, edit.kind
        if rasters.drawn:  # the faces were made again: each drawn, or taken as it was
            assert rasters.drawn + rasters.reused == total_faces, edit.kind


def test_build_watch_keeps_the_faces_of_its_last_round(tmp_path: Path) -> None:
    """`pnp build --watch --png` rasterises again only the faces a save changed (its -v log
    counts them), and writes what a cold build writes, also after a template edit that builds
    the books from the game it kept loaded."""
    root = game_workspace(tmp_path, GAME, templates=True)
    out = tmp_path / "out"
    live = Live("-v", "build", GAME, "--png", "--watch", "--out", str(out), cwd=root)
    try:
        live.expect(r"face PNGs: \d+ drawn, 0 as before", timeout=600)
        live.expect(r"^watching card_data/", timeout=600)
        _apply(root, EDITS[0])
        found = live.expect(r"face PNGs: (\d+) drawn, (\d+) as before", timeout=600)
        live.expect(r"^done in ", timeout=600)
        live.expect(r"^watching card_data/", timeout=600)
        assert _files(out) == _cold_build(root, tmp_path / "cold"), "after a card edit"
        _apply(root, EDITS[1])
        live.expect(r"^done in ", timeout=600)
        assert live.interrupt() == 0, live.output
    finally:
        live.close()
    assert found.group(1) == "2", live.output  # the edited card's front, in each script
    assert _files(out) == _cold_build(root, tmp_path / "cold-2"), "after a template edit"


def test_a_save_whose_books_fail_after_its_sheets_were_shown_leaves_nothing_shown_as_rebuilding(
        tmp_path: Path) -> None:
    """A card edit saved together with a broken rulebook template: the card's sheets and faces
    are built and shown first, the books then fail; the last version says why, and shows the
    files as they are, none as being rebuilt (nothing is)."""
    root = game_workspace(tmp_path, GAME, templates=True)
    recorder = Recorder()
    preview = recorder.preview = Preview(Workspace(root), GAME, folder=tmp_path / "served", published=recorder)
    assert not preview.refresh().errors
    _apply(root, EDITS[0])
    _apply(root, Edit("a broken template", "templates/tisigui/rulebook.md.j2", "", "\n{% if %}\n", None))
    recorder.early.clear()
    state = preview.refresh([EDITS[0].path, "templates/tisigui/rulebook.md.j2"])
    assert recorder.early, "the sheets and faces of the card edit are shown first"
    assert state.errors and "rulebook.md.j2" in "\n".join(state.errors)
    scripts = [script for game in state.games for script in game.scripts]
    assert scripts and all(script.groups for script in scripts)
    assert not any(script.pending or any(document.pending for document in script.documents)
                   for script in scripts)
