"""無人生還 (wurenshenghuan): the game's plugin, everything pnp asks of it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.games.base import GamePlugin
from pnp.games.wurenshenghuan import calc, example, lint, narration, play, replay, rules, summary, supply, tables


def _play(rules: Any, players: int, rng: random.Random, *, seed: int, variant: str | None,
          bots: Sequence[str]) -> dict[str, Any]:
    return play.play(rules, players, rng, seed, bots=list(bots))


GAME = GamePlugin(
    slug="wurenshenghuan",
    title="無人生還",
    rules_from_mapping=rules.rules_from_mapping,
    compute_tables=tables.compute_tables,
    table_columns=tables.COLUMNS,
    player_range=rules.player_range,
    default_players=rules.default_players,
    play=_play,
    replay=replay.replay,
    lint=lint.lint,
    variants=(),
    bots=rules.BOTS,
    facts=narration.facts,
    example_moments=example.example_moments,
    summarise=summary.summarise,
    report_sections=summary.report_sections,
    role_lines=summary.role_lines,
    supply_lines=summary.supply_lines,
    calculators=calc.commands,
    requirements=supply.requirements,
    rules_doc="pnp/games/wurenshenghuan/rules.py",
)
