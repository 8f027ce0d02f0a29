"""Which games a command works on, loaded from card_data.

The lowest layer of the commands: build, check, narrate and the catalog all start here, so
none of them has to import another to find a game.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from pnp.core.errors import DataError, PnpError
from pnp.core.workspace import Workspace
from pnp.data.computed import TableSource, no_engine
from pnp.data.load import load_game
from pnp.data.model import Game


def resolve_games(workspace: Workspace, name: str) -> list[str]:
    slugs = workspace.game_slugs()
    if name == "all":
        return slugs
    if name not in slugs:
        known = ", ".join(slugs) or "none"
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

