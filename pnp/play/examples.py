"""The facts a rulebook's worked example is written from.

A rulebook's example is the seeded game of game.yaml's ``example:``, played by the engine on
every build so its numbers cannot go stale. The book does not print that game's transcript
(that is ``pnp sample``): each game's ``example_moments`` (its plugin's narration) keeps only the few
moments a player reads the example for — who scored what and why, how the game ended, a tie
broken — as plain values, and the template writes the sentences around them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnp.core.errors import DataError
from pnp.core.workspace import Workspace
from pnp.data.model import Game
from pnp.games.base import GameUnavailable
from pnp.games.registry import get_game, has_game
from pnp.play.narrate import SEAT_NAMES, facts, play_sample, plugin
from pnp.rulebook.source import Engine


def example_facts(workspace: Workspace, game: Game) -> dict[str, Any]:
    """The worked example's moments, from game.yaml's ``example:`` game played by the engine."""
    # The narration facts re-derive every score from the event log and raise if they disagree
    # with the engine, so the moments are proven, not copied.
    spec = game.info.example
    assert spec is not None
    narration = plugin(game.slug).narration
    moments = narration.example_moments if narration is not None else None
    if moments is None:
        raise DataError(f"{game.info.where}: example: the game's package gives no example_moments, "
                        "so the rulebook's worked example has nothing to show; add one or remove `example:`")
    sample = play_sample(workspace, game.slug, spec.players, spec.seed, spec.variant, game=game)
    return moments(facts(sample), SEAT_NAMES[: sample.players])


def book_engine(workspace: Workspace, game: Game) -> Engine:
    """What the game's rulebook and aid templates may ask of its engine: the worked example
    (game.yaml's ``example:``) and the hand-worked examples' functions."""
    spec = game.info.example
    if spec is not None and not has_game(game.slug):
        raise DataError(f"{game.info.where}: example: the worked example is a sample game, which "
                        f"needs a rules engine for {game.slug!r}; add one (see README, how to "
                        "add a game) or remove `example:` and the template's example() call")

    def example() -> dict[str, Any]:
        return example_facts(workspace, game)

    return Engine(example if spec is not None else None, worked_functions(game))


def worked_functions(game: Game) -> dict[str, Callable[..., Any]]:
    """The engine's functions for the rulebook's hand-worked examples (``worked.<name>``),
    each bound to the rules of game.yaml, read when first called: nothing for a game without
    an engine, or whose engine gives none or cannot be loaded (check reports that)."""
    try:
        narration = get_game(game.slug).narration if has_game(game.slug) else None
        functions = dict(narration.worked_examples) if narration is not None else {}
    except GameUnavailable:
        return {}
    rules: list[Any] = []

    def bound(function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if not rules:
                rules.append(get_game(game.slug).rules.read(game.info.rules, None))
            return function(rules[0], *args, **kwargs)
        return call

    return {name: bound(function) for name, function in functions.items()}
