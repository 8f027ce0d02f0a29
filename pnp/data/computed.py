"""Tables a game's rules engine computes, for card data that quotes them.

A generated card's field ``{computed: heads, key: card, value: heads}`` takes its value from
the engine's own table (bull heads printed on a card face come from the rules' heads function,
not from a printed copy of it). The data layer imports no engine: whoever loads a game hands the loader a
:data:`TableSource` (the games layer's ``tables_from_engine``), which is asked only when a card
quotes a computed table, so every other game loads as plain data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pnp.core.problems import Problem
from pnp.core.records import record


@record
class Unavailable:
    """Why the engine's tables cannot be had; ``located`` are the rules' own problems, each
    placed in game.yaml (reported once, with the card that needed the table)."""

    reason: str
    located: tuple[Problem, ...] = ()


# A game's computed tables by name (each a list of rows), or why there are none.
Computed = Callable[[], Mapping[str, Sequence[Mapping[str, Any]]] | Unavailable]


# Where a loaded game's engine-computed tables come from: the game's slug, game.yaml's
# ``rules:`` and the path of game.yaml (to place the rules' own problems) -> its tables.
TableSource = Callable[[str, Mapping[str, Any], Path], Computed]


def no_engine(slug: str, rules: Mapping[str, Any], game_file: Path) -> Computed:
    """The table source of a load that asks no engine: a card quoting a computed table is
    then told so (every command that builds or checks passes the engines' own source)."""
    return lambda: Unavailable(f"game {slug!r} was loaded without its rules engine, which computes it")
