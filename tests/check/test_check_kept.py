"""``check`` with kept games (what ``pnp serve`` passes): the report of a fresh load, for a
clean game, after an edit, and for a game that does not load (its problems placed as a load's)."""

from __future__ import annotations

import os
from pathlib import Path

from pnp.check.proof import check
from pnp.core.workspace import Workspace
from pnp.data.gameset import KeptGames
from pnp.games.registry import tables_from_engine
from tests.conftest import edit, game_workspace

GAME = "tisigui"


def _saved(path: Path, old: str, new: str) -> None:
    edit(path, old, new)
    found = path.stat()  # a modification time surely new, whatever the file system's clock
    os.utime(path, ns=(found.st_atime_ns, found.st_mtime_ns + 1_000_000_000))


def test_check_with_kept_games_reports_what_a_fresh_load_does(tmp_path: Path) -> None:
    root = game_workspace(tmp_path, GAME, templates=True)
    workspace = Workspace(root)
    kept = KeptGames(tables_from_engine)
    assert check(workspace, GAME, kept).text() == check(workspace, GAME).text()
    assert check(workspace, GAME, kept).ok

    tables = root / "card_data" / GAME / "tables.yaml"
    _saved(tables, "{players: 4, confirmed: 1, points: 3}", "{players: 4, confirmed: 1, points: 4}")
    changed = check(workspace, GAME, kept)
    assert changed.text() == check(workspace, GAME).text()
    assert not changed.ok and "printed 4, the rules give 3" in changed.text()

    game_file = root / "card_data" / GAME / "game.yaml"

    _saved(game_file, "players: {min: 3, max: 6, common: 5}", "players: {min: 3, max: six, common: 5}")
    broken = check(workspace, GAME, kept)
    assert broken.text() == check(workspace, GAME).text()
    assert not broken.ok and "game.yaml" in broken.text()
