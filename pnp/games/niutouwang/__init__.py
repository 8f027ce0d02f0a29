"""誰是牛頭王 SP (niutouwang): the game's plugin, everything pnp asks of it."""

from __future__ import annotations

from pnp.games.base import GamePlugin
from pnp.games.niutouwang import calc, example, narration, summary, supply
from pnp.games.niutouwang.lint import lint
from pnp.games.niutouwang.play import KIT, play, replay
from pnp.games.niutouwang.rules import (
    BOTS,
    default_players,
    player_range,
    rules_from_mapping,
    variants,
)
from pnp.games.niutouwang.tables import COLUMNS, compute_tables

GAME = GamePlugin(
    slug="niutouwang",
    title="誰是牛頭王 SP",
    rules_from_mapping=rules_from_mapping,
    compute_tables=compute_tables,
    table_columns=COLUMNS,
    player_range=player_range,
    default_players=default_players,
    play=play,
    replay=replay,
    lint=lint,
    variants=variants,
    bots=BOTS,
    facts=narration.facts,
    example_moments=example.example_moments,
    summarise=summary.summarise,
    report_sections=summary.report_sections,
    supply_lines=summary.supply_lines,
    lower_score_wins=True,
    calculators=calc.CALCULATORS,
    requirements=supply.requirements,
    hands=supply.hands,
    rules_doc="pnp/games/niutouwang/rules.py",
    kit=KIT,
)
