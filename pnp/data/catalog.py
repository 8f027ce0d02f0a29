"""What ``pnp list`` reports: each game with its components and counts."""

from __future__ import annotations

from typing import Any

from pnp.core.workspace import Workspace
from pnp.data.computed import TableSource, no_engine
from pnp.data.gameset import load_games


def catalog(workspace: Workspace, tables_of: TableSource = no_engine) -> list[dict[str, Any]]:
    games = load_games(workspace, workspace.game_slugs(), tables_of)
    return [
        {
            "slug": game.slug,
            "name": game.info.name.value,
            "source_lang": game.info.source_lang,
            "version": game.info.version,
            "date": game.info.date,
            "players": {"min": game.info.players_min, "max": game.info.players_max,
                        "common": game.info.players_common},
            "components": [
                {
                    "id": component.id,
                    "name": component.name.value,
                    "count": component.count,
                    "cards": [{"id": card.id, "count": card.count} for card in component.cards],
                }
                for component in game.components
            ],
        }
        for game in games
    ]
