from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# The same examples on every run: CI must not pass or fail by the draw. A search for new
# counterexamples is a deliberate run: HYPOTHESIS_PROFILE=explore python -m pytest
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

ROOT = Path(__file__).resolve().parents[1]
# pnp's disk cache (parsed fonts, compiled templates) goes to a folder of this test run, so
# tests neither read nor fill the user's ~/.cache/pnp; subprocesses inherit it; removed when the run ends.
if "PNP_CACHE_DIR" not in os.environ:
    os.environ["PNP_CACHE_DIR"] = tempfile.mkdtemp(prefix="pnp-test-cache-")
    atexit.register(shutil.rmtree, os.environ["PNP_CACHE_DIR"], ignore_errors=True)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A disk cache of this test alone (the folder pnp's PNP_CACHE_DIR names; made on first use)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def drawn_layouts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, str]]:
    """Every face the components renderer lays out (not replays from the face cache), as
    (component, card, layout), in order; the test clears it between builds."""
    from pnp.render.faces import draw_layout

    drawn: list[tuple[str, str, str]] = []

    def noting(canvas: object, ctx: object, layout: object, **options: object) -> None:
        drawn.append((ctx.component.id, ctx.card_id, layout.id))  # type: ignore[attr-defined]
        draw_layout(canvas, ctx, layout, **options)  # type: ignore[arg-type]

    monkeypatch.setattr("pnp.render.sheets.draw_layout", noting)
    return drawn


@pytest.fixture
def workspace_copy(tmp_path: Path) -> Path:
    """A private copy of the workspace (card data, templates) to mutate; its fonts are the bundled faces."""
    root = tmp_path / "ws"
    root.mkdir()
    shutil.copytree(ROOT / "card_data", root / "card_data")
    shutil.copytree(ROOT / "templates", root / "templates")
    return root


def game_workspace(tmp_path: Path, slug: str, templates: bool = False) -> Path:
    """A workspace holding a copy of one shipped game's data (and its templates if asked) with
    the bundled fonts: the other games are not the test's subject, and copying them costs time."""
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "card_data" / slug, root / "card_data" / slug)
    if templates:
        shutil.copytree(ROOT / "templates" / slug, root / "templates" / slug)
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def book_markdown(root: Path, slug: str, aid: bool = False) -> str | None:
    """The rulebook's (or the aid's) Markdown of a game of the workspace at ``root``, rendered
    as the build renders it: the game loaded with its engine's tables, the engine handed in."""
    from pnp.core.workspace import Workspace
    from pnp.data.load import load_game
    from pnp.games.registry import tables_from_engine
    from pnp.play.examples import book_engine
    from pnp.rulebook.source import aid_markdown, rulebook_markdown

    workspace = Workspace(root)
    game = load_game(root / "card_data" / slug, tables_from_engine)
    render = aid_markdown if aid else rulebook_markdown
    return render(workspace, game, book_engine(workspace, game))


@pytest.fixture(scope="session")
def built_books(tmp_path_factory) -> Path:
    """Every shipped game built in both scripts on A4 and on Letter, as `pnp build` writes
    them: ``built_books / paper / game / lang / "rulebook.pdf"`` (and aid.pdf)."""
    from pnp.build.pipeline import build
    from pnp.core.workspace import Workspace

    out = tmp_path_factory.mktemp("books")
    for paper in ("a4", "letter"):
        build(Workspace(ROOT), "all", "all", paper, out / paper)
    return out
