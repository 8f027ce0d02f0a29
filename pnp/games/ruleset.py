"""The one way from a game's ``rules:`` mapping to its engine's rules, with located errors.

Every command (build's worked example, check, tables, calc, sample, simulate) builds rules
through :func:`rules_for`, so one bad rules value is reported alike everywhere:
``card_data/<slug>/game.yaml:<line>: rules.<field.path>: <message>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pnp.core.errors import DataError, PnpError
from pnp.core.workspace import Workspace
from pnp.data.fieldpaths import located_problems
from pnp.data.load import GAME_FILE
from pnp.data.model import Game
from pnp.data.yamlmarks import load_yaml
from pnp.games.base import GamePlugin, RulesError


def check_variant(plugin: GamePlugin, variant: str | None, mapping: Mapping[str, Any]) -> str | None:
    """The variant as the engine takes it ("" = None); an unknown name is the user's error.
    ``mapping`` is game.yaml's ``rules:``, where a kit game declares its variants."""
    variant = variant or None
    names = plugin.rules.variant_names(mapping)
    if variant is not None and variant not in names:
        listed = ", ".join(names) if names else "none"
        raise PnpError(f"unknown variant {variant!r} for {plugin.slug} (variants: {listed})")
    return variant


def rules_for(plugin: GamePlugin, mapping: Mapping[str, Any], game_file: Path,
              variant: str | None = None) -> Any:
    """The engine's rules from ``mapping`` (game.yaml's ``rules:``); every problem located."""
    variant = check_variant(plugin, variant, mapping)
    try:
        return plugin.rules.read(mapping, variant)
    except RulesError as exc:
        raise DataError(located_problems(game_file, exc.records)) from None


def game_file(game: Game) -> Path:
    """game.yaml of a loaded game (as messages name it)."""
    return Path(game.info.where.file)


def game_rules(plugin: GamePlugin, game: Game, variant: str | None = None) -> Any:
    """The rules of a loaded game."""
    return rules_for(plugin, dict(game.info.rules), game_file(game), variant)


def workspace_rules(plugin: GamePlugin, workspace: Workspace, variant: str | None = None) -> Any:
    """The rules in the workspace's card_data/<slug>/game.yaml, reading no other file (so a
    game whose cards are mid-edit still has working calculators)."""
    path = workspace.game_dir(plugin.slug) / GAME_FILE
    doc = load_yaml(path)
    mapping = doc.value.get("rules", {}) if isinstance(doc.value, dict) else {}
    return rules_for(plugin, mapping if isinstance(mapping, Mapping) else {}, path, variant)
