"""誰是牛頭王 SP (niutouwang): the game's plugin, everything pnp asks of it."""

from __future__ import annotations

from pnp.games.base import GamePlugin, NarrationPart, PlayPart, ReportPart, RulesPart, SupplyPart, TablesPart
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
    rules=RulesPart(rules_from_mapping, variants=variants, lint=lint,
                    doc="pnp/games/niutouwang/rules.py"),
    play=PlayPart(play, replay, player_range, default_players, bots=BOTS, kit=KIT),
    tables=TablesPart(compute_tables, COLUMNS),
    narration=NarrationPart(narration.facts, example.example_moments),
    report=ReportPart(summary.summarise, summary.report_sections,
                      supply_lines=summary.supply_lines, lower_score_wins=True),
    supply=SupplyPart(supply.requirements, supply.hands),
    calculators=calc.CALCULATORS,
)
