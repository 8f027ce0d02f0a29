"""Playtest-night calculators (``pnp calc``): what every game's calculators share.

Each game's calculators live in its package (``pnp/games/<slug>/calc.py``): each takes the
game's rules (from card_data/<slug>/game.yaml, or the engine's defaults when the game has no
card_data yet) and the arguments as typed, and returns a :class:`CalcResult`: the JSON
object (``data``) and a few lines of text in the game's own script (``lines``). Seats count
from 1 here, as a table counts them. A bad argument raises :class:`pnp.core.errors.PnpError`, so
the user sees ``Error: ...`` and exit status 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pnp.core.errors import PnpError
from pnp.core.workspace import Workspace
from pnp.games.registry import game_slugs, get_game, has_game
from pnp.games.ruleset import workspace_rules


@dataclass(frozen=True)
class CalcResult:
    data: Mapping[str, Any]
    lines: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return dict(self.data)

    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True)
class GameRules:
    """The rules a calculator uses, and a note when they are not the game's own card_data."""

    slug: str
    rules: Any
    note: str | None = None


def make_result(data: dict[str, Any], lines: Sequence[str]) -> CalcResult:
    return CalcResult(MappingProxyType(data), tuple(lines))


def calculator_games() -> list[str]:
    """Games whose plugin has calculators."""
    return [slug for slug in game_slugs() if get_game(slug).calculators is not None]


def unknown_game(slug: str) -> PnpError:
    known = ", ".join(calculator_games())
    return PnpError(f"no calculators for game {slug!r} (calculators exist for: {known})")


def game_rules(workspace: Workspace | None, slug: str) -> GameRules:
    """The rules in card_data/<slug>/game.yaml; the engine's defaults (the rulings) if absent.

    Only game.yaml is read (the rules need nothing else), so a game whose cards are
    mid-edit still has working calculators.
    """
    if not has_game(slug) or get_game(slug).calculators is None:
        raise unknown_game(slug)
    plugin = get_game(slug)
    if workspace is None or slug not in workspace.game_slugs():
        where = "no workspace" if workspace is None else f"no {workspace.game_dir(slug)}"
        note = f"{where}: using the {slug} engine's default rules (the rulings)"
        return GameRules(slug, plugin.rules_from_mapping({}, None), note)
    return GameRules(slug, workspace_rules(plugin, workspace))


def money(value: int) -> str:
    return f"{value:,}"
