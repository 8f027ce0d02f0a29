"""愛者無敵 (aizhewudi): the game's plugin, everything pnp asks of it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnp.games.aizhewudi import calc, example, narration, summary, supply
from pnp.games.aizhewudi.lint import lint
from pnp.games.aizhewudi.play import KIT, VARIANTS, play, replay
from pnp.games.aizhewudi.rules import BOTS, default_players, player_range, rules_from_mapping
from pnp.games.aizhewudi.tables import COLUMNS, compute_tables
from pnp.games.base import GamePlugin


def _rules(mapping: Mapping[str, Any], variant: str | None) -> Any:
    # The abilities variant changes the deal (play takes it), not a rules parameter.
    return rules_from_mapping(mapping)


GAME = GamePlugin(
    slug="aizhewudi",
    title="愛者無敵",
    rules_from_mapping=_rules,
    compute_tables=compute_tables,
    table_columns=COLUMNS,
    player_range=player_range,
    default_players=default_players,
    play=play,
    replay=replay,
    lint=lint,
    variants=VARIANTS,
    bots=BOTS,
    kit=KIT,
    facts=narration.facts,
    example_moments=example.example_moments,
    worked_examples=example.WORKED,
    summarise=summary.summarise,
    report_sections=summary.report_sections,
    role_lines=summary.role_lines,
    supply_lines=summary.supply_lines,
    money_scores=True,
    calculators=calc.CALCULATORS,
    requirements=supply.requirements,
    hands=supply.hands,
    rules_doc="pnp/games/aizhewudi/rules.py",
)
