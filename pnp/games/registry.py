"""Which games pnp can play: the built-in packages under pnp/games/ and the ``pnp.games``
entry-point group.

A built-in game is any sub-package of ``pnp.games`` but the engine kit (found by listing
the folder, so adding one names it nowhere else); another distribution adds a game by declaring

    [project.entry-points."pnp.games"]
    mygame = "mygame_pkg:GAME"

where the key is the game's slug (its card_data/ folder) and the object a ``GamePlugin``.
Plugins load on first use only, so listing the games imports no engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pnp.games
from pnp.data.computed import Computed, Unavailable
from pnp.data.fieldpaths import located_problems

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from pnp.games.base import GamePlugin

ENTRY_POINT_GROUP = "pnp.games"


# Sub-packages of pnp.games that are shared code, not games (so no game may take the name).
SHARED_PACKAGES = frozenset({"kit"})


@cache
def _builtin() -> dict[str, str]:
    import pkgutil  # only when a game's engine or the list of games is asked for

    return {info.name: f"pnp.games.{info.name}"
            for info in pkgutil.iter_modules(pnp.games.__path__)
            if info.ispkg and info.name not in SHARED_PACKAGES}


def _entry_points() -> dict[str, EntryPoint]:
    # importlib.metadata is a large import that a built-in game never needs.
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def game_slugs() -> list[str]:
    """Every game with a plugin, built-in or installed, sorted."""
    return sorted(set(_builtin()) | set(_entry_points()))


def installed_slugs() -> list[str]:
    """The games installed packages register (the ``pnp.games`` entry points' names), sorted."""
    return sorted(_entry_points())


def has_game(slug: str) -> bool:
    return slug in _builtin() or slug in _entry_points()


def get_game(slug: str) -> GamePlugin:
    """The game's plugin; KeyError when no plugin plays ``slug``; GameUnavailable (naming the
    game and what went wrong) when its package is registered but does not load."""
    return _load(slug)


@cache
def _load(slug: str) -> GamePlugin:
    # pnp.games.base (the plugin's parts, the calculators) is imported with the first game
    # played: a build whose tables are all up to date asks for none.
    from pnp.games.base import GamePlugin, GameUnavailable

    plugin: object
    if slug in _builtin():
        plugin = importlib.import_module(_builtin()[slug]).GAME
    else:
        found = _entry_points().get(slug)
        if found is None:
            raise KeyError(f"no game plugin for {slug!r}")
        try:
            plugin = found.load()
        except Exception as exc:  # whatever the package raises as it is imported
            raise GameUnavailable(
                "import", f"the package registered as {found.value!r} does not load: "
                f"{type(exc).__name__}: {exc}", slug) from None
    if not isinstance(plugin, GamePlugin):
        raise GameUnavailable("GAME", f"expected a GamePlugin (made by pnp.games.kit.plugin), "
                              f"got a {type(plugin).__name__}", slug)
    if plugin.slug != slug:
        raise GameUnavailable("GAME", f"the entry point registers it as {slug!r} but the game "
                              f"calls itself {plugin.slug!r}: the two names must be the same "
                              "(and reinstall the package after changing its entry points)", slug)
    return plugin


def load_problem(slug: str) -> str | None:
    """Why the engine another package registers for ``slug`` cannot be loaded, or None (it
    loads, or there is none: a game without an engine is not broken). A built-in engine is
    not imported to ask: it is pnp's own, and listing games imports no engine."""
    if slug in _builtin() or slug not in _entry_points():
        return None
    from pnp.games.base import GameUnavailable  # see _load

    try:
        get_game(slug)
    except GameUnavailable as exc:
        return str(exc)
    return None


def tables_from_engine(slug: str, rules: Mapping[str, Any], game_file: Path) -> Computed:
    """The tables the rules engine of ``slug`` computes from game.yaml's ``rules:`` (read from
    ``game_file``), computed on first use (once), or why they cannot be."""

    @cache
    def tables() -> Mapping[str, Sequence[Mapping[str, Any]]] | Unavailable:
        from pnp.games.base import GameCodeError, RulesError  # see _load

        if not has_game(slug):
            return Unavailable(f"game {slug!r} has no rules engine to compute it")
        try:
            plugin = get_game(slug)
            computed = plugin.tables.compute(plugin.rules.read(dict(rules), None))
        except RulesError as exc:
            return Unavailable("game.yaml's rules do not load",
                               tuple(located_problems(game_file, exc.records)))
        except GameCodeError as exc:
            return Unavailable(f"the rules engine for {slug!r} cannot be loaded ({exc})")
        return computed

    return tables
