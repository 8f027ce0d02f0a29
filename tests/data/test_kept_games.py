"""KeptGames: a game whose files are as they were is taken as kept; an edit, a file added, a
broken save each make it read again, and a broken game is never kept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnp.core.errors import DataError
from pnp.core.workspace import Workspace
from pnp.data.gameset import KeptGames
from tests.conftest import edit, game_workspace

GAME = "tisigui"


def _touch_later(path: Path) -> None:
    """A modification time surely not the one the file had (a file system's clock may be coarse)."""
    found = path.stat()
    os.utime(path, ns=(found.st_atime_ns, found.st_mtime_ns + 1_000_000_000))


def test_a_game_is_read_again_only_when_its_files_change(tmp_path: Path) -> None:
    root = game_workspace(tmp_path, GAME)
    workspace = Workspace(root)
    kept = KeptGames()
    (first,) = kept.load(workspace, [GAME])
    assert first.info.name.value == "替死鬼" and kept.loaded == 1
    (again,) = kept.load(workspace, [GAME])
    assert again is first and kept.loaded == 1

    game_file = root / "card_data" / GAME / "game.yaml"
    edit(game_file, "name: 替死鬼", "name: 替死鬼二")
    _touch_later(game_file)
    (edited,) = kept.load(workspace, [GAME])
    assert edited.info.name.value == "替死鬼二" and kept.loaded == 2

    (root / "card_data" / GAME / "notes.txt").write_text("a file the loader does not read\n", encoding="utf-8")
    (added,) = kept.load(workspace, [GAME])
    assert added is not edited and kept.loaded == 3


def test_a_broken_game_is_reported_and_not_kept(tmp_path: Path) -> None:
    root = game_workspace(tmp_path, GAME)
    workspace = Workspace(root)
    kept = KeptGames()
    kept.load(workspace, [GAME])
    game_file = root / "card_data" / GAME / "game.yaml"
    good = game_file.read_text(encoding="utf-8")
    game_file.write_text(good + "\nname: [\n", encoding="utf-8")
    _touch_later(game_file)
    with pytest.raises(DataError):
        kept.load(workspace, [GAME])
    with pytest.raises(DataError):  # still broken: said again, never the game from before it
        kept.load(workspace, [GAME])
    game_file.write_text(good, encoding="utf-8")
    _touch_later(game_file)
    (fixed,) = kept.load(workspace, [GAME])
    assert fixed.info.name.value == "替死鬼"


def test_an_edit_with_its_size_and_modification_time_put_back_is_read(tmp_path: Path) -> None:
    """A copy that keeps times, or ``touch -r``: the file's change time still moves."""
    root = game_workspace(tmp_path, GAME)
    workspace = Workspace(root)
    kept = KeptGames()
    game_file = root / "card_data" / GAME / "game.yaml"
    (first,) = kept.load(workspace, [GAME])
    found = game_file.stat()
    edit(game_file, "name: 替死鬼", "name: 替活鬼")  # the same length in UTF-8
    os.utime(game_file, ns=(found.st_atime_ns, found.st_mtime_ns))
    now = game_file.stat()
    assert (now.st_size, now.st_mtime_ns) == (found.st_size, found.st_mtime_ns)
    (edited,) = kept.load(workspace, [GAME])
    assert edited.info.name.value == "替活鬼" and kept.loaded == 2
