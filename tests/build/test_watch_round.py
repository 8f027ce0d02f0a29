"""A card edit in a process that builds again and again (``pnp build --watch``, ``pnp serve``):
the rulebook's figures draw the edited card's face and replay the others from the face cache,
the PDFs deflate only streams that are new, and every file is what a cold build writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from reportlab.pdfbase import pdfdoc

from pnp.build.pipeline import build
from pnp.core.workspace import Workspace
from pnp.data.gameset import KeptGames
from pnp.games.registry import tables_from_engine
from pnp.render import deflation, facecache
from pnp.rulebook import pdf
from tests.conftest import edit, game_workspace

GAME = "tisigui"
# The human identity card's role text, which the rulebook's figure 1 prints.
EDITED_FACE = "face-identity-human-front"


def _files(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for path in sorted((root / GAME).rglob("*")) if path.is_file()}


def test_a_card_edit_replays_the_books_other_faces_and_writes_a_cold_builds_files(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = game_workspace(tmp_path, GAME, templates=True)
    workspace = Workspace(root)
    out = tmp_path / "out"
    kept = KeptGames(tables_from_engine)
    memo = deflation.DeflateMemo()
    monkeypatch.setattr(deflation, "_memo", memo)
    monkeypatch.setattr(pdfdoc, "PDFZCompress", pdfdoc.PDFZCompress)
    deflation.install_filter()  # as pnp build --watch does for its process
    build(workspace, GAME, out=out, kept=kept)
    first = memo.made

    in_book = [False]
    book_faces: dict[str, bool] = {}  # face name → replayed, for the faces the books asked for
    replay, render_rulebook = facecache.FaceKeeper.replay, pdf.render_rulebook

    def noted_replay(self: facecache.FaceKeeper, key: str, name: str, box: Any) -> bool:
        done = replay(self, key, name, box)
        if in_book[0]:
            book_faces[name] = book_faces.get(name, False) or done
        return done

    def noted_book(*args: Any, **kwargs: Any) -> bytes:
        in_book[0] = True
        try:
            return render_rulebook(*args, **kwargs)
        finally:
            in_book[0] = False

    monkeypatch.setattr(facecache.FaceKeeper, "replay", noted_replay)
    monkeypatch.setattr(pdf, "render_rulebook", noted_book)

    edit(root / "card_data" / GAME / "components.yaml", "指认正确就得分", "指认对了就得分")
    build(workspace, GAME, out=out, kept=kept)

    assert book_faces.get(EDITED_FACE) is False, "the edited card's face is drawn again"
    assert sum(book_faces.values()) >= 2, f"the books' other faces are replayed: {book_faces}"
    assert 0 < memo.made - first < first / 2, "most streams are as the round before wrote them"

    cold = tmp_path / "cold"
    subprocess.run([sys.executable, "-m", "pnp", "--root", str(root), "-q", "build", GAME, "--lang", "all",
                    "--out", str(cold)], check=True, capture_output=True)
    assert _files(out) == _files(cold)
