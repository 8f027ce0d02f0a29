"""替死鬼 (tisigui): the game's plugin, everything pnp asks of it.

The engine: rules.py (parameters and the pure functions of them), tables.py, lint.py,
state.py (the state machine and its typed log), deduce.py (what the table deduces from
public play), bots.py, play.py (play and replay, both driving the state machine).
"""

from __future__ import annotations

from pnp.games.base import GamePlugin
from pnp.games.tisigui import calc, example, lint, narration, play, rules, summary, supply, tables

GAME = GamePlugin(
    slug="tisigui",
    title="替死鬼",
    rules_from_mapping=rules.rules_from_mapping,
    compute_tables=tables.compute_tables,
    table_columns=tables.COLUMNS,
    player_range=rules.player_range,
    default_players=rules.default_players,
    play=play.play,
    replay=play.replay,
    lint=lint.lint,
    variants=rules.VARIANTS,
    bots=("greedy", "random", "ismcts"),
    facts=narration.facts,
    example_moments=example.example_moments,
    worked_examples=example.WORKED,
    summarise=summary.summarise,
    report_sections=summary.report_sections,
    role_lines=summary.role_lines,
    supply_lines=summary.supply_lines,
    playable=rules.playable_counts,
    ends_per="big_round",
    calculators=calc.CALCULATORS,
    requirements=supply.requirements,
    rules_doc="pnp/games/tisigui/rules.py",
    kit=play.KIT,
)
