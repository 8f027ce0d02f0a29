"""Which games have calculators, and the rules a calculator runs on."""

from __future__ import annotations

from typing import Any

from pnp.core.errors import PnpError
from pnp.core.records import record
from pnp.core.workspace import Workspace
from pnp.games.registry import game_slugs, get_game, has_game
from pnp.games.ruleset import workspace_rules


@record
class GameRules:
    """The rules a calculator uses, and a note when they are not the game's own card_data."""

    slug: str
    rules: Any
    note: str | None = None


def calculator_games() -> list[str]:
    """Games whose plugin has calculators."""
    return [slug for slug in game_slugs() if get_game(slug).calculators]


def unknown_game(slug: str) -> PnpError:
    known = ", ".join(calculator_games())
    return PnpError(f"no calculators for game {slug!r} (calculators exist for: {known})")


def game_rules(workspace: Workspace | None, slug: str) -> GameRules:
    """The rules in card_data/<slug>/game.yaml; the engine's defaults (the rulings) if absent.

    Only game.yaml is read (the rules need nothing else), so a game whose cards are
    mid-edit still has working calculators.
    """
    if not has_game(slug) or not get_game(slug).calculators:
        raise unknown_game(slug)
    plugin = get_game(slug)
    if workspace is None or slug not in workspace.game_slugs():
        where = "no workspace" if workspace is None else f"no {workspace.game_dir(slug)}"
        note = f"{where}: using the {slug} engine's default rules (the rulings)"
        return GameRules(slug, plugin.rules.read({}, None), note)
    return GameRules(slug, workspace_rules(plugin, workspace))
