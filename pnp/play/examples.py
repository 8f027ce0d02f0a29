"""The facts a rulebook's worked example is written from.

A rulebook's example is the seeded game of game.yaml's ``example:``, played by the engine on
every build so its numbers cannot go stale. The book does not print that game's transcript
(that is ``pnp sample``): each game's ``example_moments`` (its plugin) keeps only the few
moments a player reads the example for — who scored what and why, how the game ended, a tie
broken — as plain values, and the template writes the sentences around them.
"""

from __future__ import annotations

from typing import Any

from pnp.core.errors import DataError
from pnp.core.workspace import Workspace
from pnp.data.model import Game
from pnp.play.narrate import SEAT_NAMES, facts, play_sample, plugin


def example_facts(workspace: Workspace, game: Game) -> dict[str, Any]:
    """The worked example's moments, from game.yaml's ``example:`` game played by the engine."""
    # The narration facts re-derive every score from the event log and raise if they disagree
    # with the engine, so the moments are proven, not copied.
    spec = game.info.example
    assert spec is not None
    moments = plugin(game.slug).example_moments
    if moments is None:
        raise DataError(f"{game.info.where}: example: the game's package gives no example_moments, "
                        "so the rulebook's worked example has nothing to show; add one or remove `example:`")
    sample = play_sample(workspace, game.slug, spec.players, spec.seed, spec.variant, game=game)
    return moments(facts(sample), SEAT_NAMES[: sample.players])
