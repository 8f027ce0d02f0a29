"""愛者無敵 (aizhewudi): the game's plugin, everything pnp asks of it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.aizhewudi import calc, engine, example, narration, summary, supply
from pnp.games.aizhewudi.tables import COLUMNS
from pnp.games.base import GamePlugin


def _play(rules: Any, players: int, rng: random.Random, *, seed: int, variant: str | None,
          bots: Sequence[str]) -> dict[str, Any]:
    # "abilities" deals the ability cards; without it the rules' own flag decides.
    abilities = True if variant == "abilities" else None
    return engine.play(rules, players, rng, seed, abilities=abilities, bots=list(bots))


def _rules(mapping: Mapping[str, Any], variant: str | None) -> Any:
    # The abilities variant changes the deal, not a rules parameter.
    return engine.rules_from_mapping(mapping)


GAME = GamePlugin(
    slug="aizhewudi",
    title="愛者無敵",
    rules_from_mapping=_rules,
    compute_tables=engine.compute_tables,
    table_columns=COLUMNS,
    player_range=engine.player_range,
    default_players=engine.default_players,
    play=_play,
    replay=engine.replay,
    lint=engine.lint,
    variants=("abilities",),
    bots=engine.BOTS,
    facts=narration.facts,
    example_moments=example.example_moments,
    summarise=summary.summarise,
    report_sections=summary.report_sections,
    role_lines=summary.role_lines,
    supply_lines=summary.supply_lines,
    money_scores=True,
    calculators=calc.commands,
    requirements=supply.requirements,
    rules_doc="pnp/games/aizhewudi/rules.py",
)
