"""Tables a game's rules engine computes, for card data that quotes them.

A generated card's field ``{computed: heads, key: card, value: heads}`` takes its value from
the engine's own table (bull heads printed on a card face come from the rules' heads function,
not from a printed copy of it). The data layer imports no engine module: the engine is looked
up by the game's slug only when a card quotes a computed table, so every other game loads as
plain data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pnp.data.fieldpaths import located_problems
from pnp.games.base import RulesError
from pnp.games.registry import get_game, has_game


@dataclass(frozen=True)
class Unavailable:
    """Why the engine's tables cannot be had; ``located`` are the rules' own problems, each
    placed in game.yaml (reported once, with the card that needed the table)."""

    reason: str
    located: tuple[str, ...] = ()


# A game's computed tables by name (each a list of rows), or why there are none.
Computed = Callable[[], Mapping[str, Sequence[Mapping[str, Any]]] | Unavailable]


def engine_tables(slug: str, rules: Mapping[str, Any], game_file: Path) -> Computed:
    """The tables the rules engine of ``slug`` computes from game.yaml's ``rules:`` (read from
    ``game_file``), computed on first use (once), or why they cannot be."""

    @cache
    def tables() -> Mapping[str, Sequence[Mapping[str, Any]]] | Unavailable:
        if not has_game(slug):
            return Unavailable(f"game {slug!r} has no rules engine to compute it")
        try:
            plugin = get_game(slug)
            computed = plugin.compute_tables(plugin.rules_from_mapping(dict(rules), None))
        except RulesError as exc:
            return Unavailable("game.yaml's rules do not load",
                               tuple(located_problems(game_file, exc.problems)))
        except (AttributeError, ImportError) as exc:
            return Unavailable(f"the rules engine for {slug!r} cannot be loaded ({exc})")
        return computed

    return tables
