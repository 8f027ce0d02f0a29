"""Which games a command works on, loaded from card_data.

The lowest layer of the commands: build, check, narrate and the catalog all start here, so
none of them has to import another to find a game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from pnp.core import diskcache
from pnp.core.errors import DataError, PnpError
from pnp.core.problems import Problem
from pnp.core.workspace import Workspace
from pnp.data.computed import TableSource, no_engine
from pnp.data.imagefiles import KeptDrawings, keeping
from pnp.data.load import load_game
from pnp.data.model import Game


def resolve_games(workspace: Workspace, name: str) -> list[str]:
    slugs = workspace.game_slugs()
    if name == "all":
        return slugs
    if name not in slugs:
        known = ", ".join(slugs) or "none"
        import difflib  # only for the message of a name not found

        close = difflib.get_close_matches(name, slugs, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise PnpError(f"unknown game {name!r} (games in {workspace.card_data}: {known}){hint}")
    return [name]


def load_games(workspace: Workspace, slugs: Sequence[str], tables_of: TableSource = no_engine) -> list[Game]:
    """Every game loaded; problems of all games reported together."""
    games, problems = [], []
    for slug in slugs:
        try:
            games.append(load_game(workspace.game_dir(slug), tables_of))
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    return games



# What a game folder's files are as far as the file system says: each file's path and stamp
# (pnp.core.diskcache.file_stamp). An edit, a file added or removed changes it.
FolderStamp = tuple[tuple[str, int, int, int, int], ...]


def folder_stamp(folder: Path) -> FolderStamp:
    stamps = []
    for path in sorted(folder.rglob("*")):
        try:
            found = path.stat()
        except OSError:  # gone meanwhile, or a link to nothing: a stamp no loaded game had
            stamps.append((path.as_posix(), -1, -1, -1, -1))
            continue
        if not path.is_dir():
            stamps.append((path.as_posix(), *diskcache.file_stamp(found)))
    return tuple(stamps)


class KeptGames:
    """Games loaded by a process that builds again and again (``pnp serve``, ``pnp build
    --watch``), kept with the stamp of their folder's files: a game whose files are as they
    were when it was loaded is not read again. The stamp is taken before the files are read,
    so a save made while a game loads is read by the next load. A holder, so a plain class
    (docs/architecture.md, "Start-up")."""

    def __init__(self, tables_of: TableSource = no_engine) -> None:
        self.tables_of = tables_of
        self.kept: dict[tuple[Path, str], tuple[FolderStamp, Game]] = {}
        self.loaded = 0  # games read from their files, not taken as kept, since this was made
        # The SVG pictures and icons of the kept games, read once: a load measures the pictures,
        # a build that renders with ``keeping(kept.drawings)`` draws them (pnp.render.images,
        # pnp.render.inline_icons) without reading them again.
        self.drawings = KeptDrawings()

    def load(self, workspace: Workspace, slugs: Sequence[str]) -> list[Game]:
        """As :func:`load_games`, taking each game as kept when its files did not change."""
        loaded = self.loaded
        games: list[Game] = []
        problems: list[Problem] = []  # as values, so a report can place them as a load's
        for slug in slugs:
            folder = workspace.game_dir(slug)
            stamp = folder_stamp(folder)
            kept = self.kept.get((workspace.root, slug))
            if kept is not None and kept[0] == stamp:
                games.append(kept[1])
                continue
            self.kept.pop((workspace.root, slug), None)
            try:
                with keeping(self.drawings):
                    game = load_game(folder, self.tables_of)
            except DataError as exc:
                problems.extend(exc.records)
                continue
            self.loaded += 1
            self.kept[(workspace.root, slug)] = (stamp, game)
            games.append(game)
        if self.loaded > loaded:  # a picture or icon no kept game uses any more is let go
            self.drawings.keep_only(self._drawn())
        if problems:
            raise DataError(problems)
        return games

    def _drawn(self) -> set[str]:
        """The SHA-256 of every SVG the kept games may draw: their pictures and icons."""
        return ({image.digest for _stamp, game in self.kept.values() for image in game.images.values()}
                | {hashlib.sha256(icon.data).hexdigest() for _stamp, game in self.kept.values()
                   for icon in game.icons.values()})
