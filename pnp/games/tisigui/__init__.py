"""替死鬼 (tisigui): the game's plugin, everything pnp asks of it.

The engine: rules.py (parameters and the pure functions of them), tables.py, lint.py,
state.py (the state machine and its typed log), deduce.py (what the table deduces from
public play), bots.py, play.py (play and replay, both driving the state machine).
"""

from __future__ import annotations

from pnp.games.base import GamePlugin, NarrationPart, PlayPart, ReportPart, RulesPart, SupplyPart, TablesPart
from pnp.games.tisigui import calc, example, lint, narration, play, rules, summary, supply, tables

GAME = GamePlugin(
    slug="tisigui",
    title="替死鬼",
    rules=RulesPart(rules.rules_from_mapping, variants=rules.VARIANTS, lint=lint.lint,
                    doc="pnp/games/tisigui/rules.py"),
    play=PlayPart(play.play, play.replay, rules.player_range, rules.default_players,
                  bots=("greedy", "random", "ismcts"), playable=rules.playable_counts,
                  kit=play.KIT),
    tables=TablesPart(tables.compute_tables, tables.COLUMNS),
    narration=NarrationPart(narration.facts, example.example_moments, example.WORKED),
    report=ReportPart(summary.summarise, summary.report_sections, summary.role_lines,
                      summary.supply_lines, ends_per="big_round"),
    supply=SupplyPart(supply.requirements),
    calculators=calc.CALCULATORS,
)
