"""A process that builds again and again (``pnp build --watch``, ``pnp serve``) reads each SVG
(picture or icon) once and writes what a cold build writes: after a card edit, after an edit of a
picture or an icon, and after a build in the saver ink (which recolours the drawing it is given)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.lib.colors import Color

from pnp.build.pipeline import SheetOptions, build
from pnp.core.workspace import Workspace
from pnp.data.gameset import KeptGames
from pnp.data.imagefiles import ImageFileError, KeptDrawings, keeping, kept_svg, svg_drawing
from pnp.games.registry import tables_from_engine
from tests.conftest import edit, game_workspace

GAME = "tisigui"
# tisigui draws seven SVGs: three pictures (art/ghost.svg, human.svg, night.svg) and four
# icons that its card texts name (icons/die.svg, ghost.svg, point.svg, question.svg).
SVGS = 7


def _files(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for path in sorted((root / GAME).rglob("*")) if path.is_file()}


def _cold_build(workspace: Path, out: Path, *options: str) -> dict[str, bytes]:
    """What `pnp build` writes in a new process: nothing kept from any earlier build."""
    subprocess.run([sys.executable, "-m", "pnp", "--root", str(workspace), "-q", "build", GAME, "--lang", "all",
                    "--out", str(out), *options], check=True, capture_output=True)
    return _files(out)


def test_each_svg_is_read_once_and_the_outputs_are_a_cold_builds(tmp_path: Path) -> None:
    root = game_workspace(tmp_path, GAME, templates=True)
    workspace = Workspace(root)
    out = tmp_path / "out"
    kept = KeptGames(tables_from_engine)

    build(workspace, GAME, out=out, kept=kept)
    # The pictures read when the game loaded, the icons when first drawn; every other use took
    # them as kept (the sheets and the book of each script).
    assert kept.drawings.parsed == SVGS
    assert _files(out) == _cold_build(root, tmp_path / "cold-0")

    edit(root / "card_data" / GAME / "components.yaml", "指认正确就得分", "指认对了就得分")
    build(workspace, GAME, out=out, kept=kept)
    assert kept.drawings.parsed == SVGS  # the game was read again, its pictures were not
    assert _files(out) == _cold_build(root, tmp_path / "cold-1"), "after a card edit"

    edit(root / "card_data" / GAME / "art" / "ghost.svg", 'fill="#eef0f6"', 'fill="#e0f0f6"')
    build(workspace, GAME, out=out, kept=kept)
    assert kept.drawings.parsed == SVGS + 1  # the edited picture alone
    assert len(kept.drawings.pickled) == SVGS  # its old drawing let go
    assert _files(out) == _cold_build(root, tmp_path / "cold-2"), "after an edit of the picture"

    edit(root / "card_data" / GAME / "icons" / "die.svg", 'cx="50" cy="50" r="9"', 'cx="50" cy="50" r="11"')
    build(workspace, GAME, out=out, kept=kept)
    assert kept.drawings.parsed == SVGS + 2  # the edited icon alone
    assert len(kept.drawings.pickled) == SVGS
    assert _files(out) == _cold_build(root, tmp_path / "cold-3"), "after an edit of an icon"


def test_the_saver_ink_recolours_a_copy_never_the_kept_drawing(tmp_path: Path) -> None:
    root = game_workspace(tmp_path, GAME, templates=True)
    workspace = Workspace(root)
    kept = KeptGames(tables_from_engine)
    full, saver = tmp_path / "full", tmp_path / "saver"
    build(workspace, GAME, out=full, kept=kept)
    first = _files(full)
    build(workspace, GAME, out=saver, kept=kept, sheet=SheetOptions(ink="saver"))
    assert _files(saver) == _cold_build(root, tmp_path / "cold-saver", "--ink", "saver")
    build(workspace, GAME, out=full, kept=kept, force=True)
    assert _files(full) == first, "a full-ink build after a saver one draws the pictures in their own colours"
    assert kept.drawings.parsed == SVGS


def test_every_use_gets_a_drawing_of_its_own() -> None:
    data = (b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="20">'
            b'<rect x="1" y="2" width="3" height="4" fill="#ff0000"/></svg>')
    drawings = KeptDrawings()
    with keeping(drawings):
        first = svg_drawing("art/box.svg", data)
        first.contents[0].contents[0].fillColor = Color(0, 0, 1)  # what the saver ink does
        second = svg_drawing("art/box.svg", data)
    assert drawings.parsed == 1
    assert second is not first
    rect = second.contents[0].contents[0]
    assert (rect.x, rect.y, rect.width, rect.height) == (1, 2, 3, 4)
    assert rect.fillColor.rgb() == (1, 0, 0)  # as the file says, not as the first use changed it
    assert (second.width, second.height) == (7.5, 15)  # 10 × 20 px at 96 px an inch, in points


def test_a_picture_is_checked_even_when_an_icon_of_the_same_bytes_was_kept() -> None:
    # An icon is read by its own reader, which checks less: what it made of the bytes (here
    # nothing) must not stand in for the picture's reading, which refuses a sizeless drawing.
    sizeless = b'<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>'
    with keeping(KeptDrawings()):
        assert kept_svg("icon", sizeless, lambda: None) is None
        with pytest.raises(ImageFileError, match="not an SVG drawing with a size"):
            svg_drawing("cards/blank.svg", sizeless)
