"""替死鬼 (tisigui): the game's plugin, everything pnp asks of it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.games.base import GamePlugin
from pnp.games.tisigui import calc, engine, example, narration, summary, supply
from pnp.games.tisigui.tables import COLUMNS


def _play(rules: Any, players: int, rng: random.Random, *, seed: int, variant: str | None,
          bots: Sequence[str]) -> dict[str, Any]:
    # The rules already carry their variant; the engine's own variant argument only guards.
    return engine.play(rules, players, rng, seed, bots=list(bots))


GAME = GamePlugin(
    slug="tisigui",
    title="替死鬼",
    rules_from_mapping=engine.rules_from_mapping,
    compute_tables=engine.compute_tables,
    table_columns=COLUMNS,
    player_range=engine.player_range,
    default_players=engine.default_players,
    play=_play,
    replay=engine.replay,
    lint=engine.lint,
    variants=("classic",),
    bots=("greedy", "random"),
    facts=narration.facts,
    example_moments=example.example_moments,
    summarise=summary.summarise,
    report_sections=summary.report_sections,
    role_lines=summary.role_lines,
    supply_lines=summary.supply_lines,
    playable=engine.playable_counts,
    ends_per="big_round",
    calculators=calc.commands,
    requirements=supply.requirements,
    rules_doc="pnp/games/tisigui/rules.py",
)
