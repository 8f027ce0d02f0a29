"""愛者無敵 (aizhewudi): the game's plugin, everything pnp asks of it."""

from __future__ import annotations

from pnp.games.aizhewudi import calc, example, narration, summary, supply
from pnp.games.aizhewudi.lint import lint
from pnp.games.aizhewudi.play import KIT, VARIANTS, play, replay
from pnp.games.aizhewudi.rules import BOTS, rules_from_mapping
from pnp.games.aizhewudi.tables import COLUMNS, compute_tables
from pnp.games.base import GamePlugin, NarrationPart, PlayPart, ReportPart, RulesPart, SupplyPart, TablesPart

GAME = GamePlugin(
    slug="aizhewudi",
    title="愛者無敵",
    rules=RulesPart(rules_from_mapping, variants=VARIANTS, lint=lint, doc="pnp/games/aizhewudi/rules.py"),
    play=PlayPart(play, replay, KIT.players, lambda rules: rules.default_players, bots=BOTS,
                  kit=KIT),
    tables=TablesPart(compute_tables, COLUMNS),
    narration=NarrationPart(narration.facts, example.example_moments, example.WORKED),
    report=ReportPart(summary.summarise, summary.report_sections, summary.role_lines,
                      summary.supply_lines, money_scores=True),
    supply=SupplyPart(supply.requirements, supply.hands),
    calculators=calc.CALCULATORS,
)
