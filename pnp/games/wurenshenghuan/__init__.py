"""無人生還 (wurenshenghuan): the game's plugin, everything pnp asks of it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.games.base import GamePlugin
from pnp.games.wurenshenghuan import calc, engine, example, narration, summary, supply


def _play(rules: Any, players: int, rng: random.Random, *, seed: int, variant: str | None,
          bots: Sequence[str]) -> dict[str, Any]:
    # Every seat plays the same bot in this engine.
    kinds = set(bots)
    if len(kinds) != 1:
        raise ValueError(f"wurenshenghuan seats one kind of bot at every seat, got {list(bots)}")
    return engine.play(rules, players, rng, seed, bot=kinds.pop())


GAME = GamePlugin(
    slug="wurenshenghuan",
    title="無人生還",
    rules_from_mapping=engine.rules_from_mapping,
    compute_tables=engine.compute_tables,
    player_range=engine.player_range,
    default_players=engine.default_players,
    play=_play,
    replay=engine.replay,
    lint=engine.lint,
    variants=(),
    bots=engine.BOTS,
    facts=narration.facts,
    example_moments=example.example_moments,
    summarise=summary.summarise,
    report_sections=summary.report_sections,
    role_lines=summary.role_lines,
    supply_lines=summary.supply_lines,
    calculators=calc.commands,
    requirements=supply.requirements,
    rules_doc="pnp/games/wurenshenghuan/engine.py",
)
