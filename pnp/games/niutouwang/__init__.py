"""誰是牛頭王 SP (niutouwang): the game's plugin, everything pnp asks of it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.games.base import GamePlugin
from pnp.games.niutouwang import calc, engine, example, narration, summary, supply
from pnp.games.niutouwang.lint import lint
from pnp.games.niutouwang.play import replay
from pnp.games.niutouwang.tables import COLUMNS


def _play(rules: Any, players: int, rng: random.Random, *, seed: int, variant: str | None,
          bots: Sequence[str]) -> dict[str, Any]:
    # The rules already carry their variant.
    return engine.play(rules, players, rng, seed, bots=list(bots))


GAME = GamePlugin(
    slug="niutouwang",
    title="誰是牛頭王 SP",
    rules_from_mapping=engine.rules_from_mapping,
    compute_tables=engine.compute_tables,
    table_columns=COLUMNS,
    player_range=engine.player_range,
    default_players=engine.default_players,
    play=_play,
    replay=replay,
    lint=lint,
    variants=engine.variants,
    bots=engine.BOTS,
    facts=narration.facts,
    example_moments=example.example_moments,
    summarise=summary.summarise,
    report_sections=summary.report_sections,
    supply_lines=summary.supply_lines,
    lower_score_wins=True,
    calculators=calc.commands,
    requirements=supply.requirements,
    rules_doc="pnp/games/niutouwang/rules.py",
)
