"""誰是牛頭王 SP (niutouwang): the engine's public names in one place.

Pure engine: no I/O, no printing, randomness only from a passed ``random.Random``. The
rules parameters and the event log format are described in ``rules.py``; the table state
machine is ``state.Hand``; ``play.py`` drives it with the bots and to replay a log.
"""

from __future__ import annotations

from pnp.games.niutouwang.bots import Bots
from pnp.games.niutouwang.play import deal, play, replay
from pnp.games.niutouwang.rules import (
    BOTS,
    DEFAULT_HEAD_RULES,
    MAX_OFFICIAL_ROUNDS,
    HeadRule,
    NiutouwangRules,
    default_players,
    player_range,
    rules_from_mapping,
    slug,
    variants,
    with_variant,
)
from pnp.games.niutouwang.scoring import punish, winners
from pnp.games.niutouwang.state import (
    Chooser,
    Hand,
    IllegalMove,
    Placement,
    Row,
    Rows,
    Turn,
    fewest_heads_row,
    place,
    resolve_turn,
    target_row,
)
from pnp.games.niutouwang.tables import compute_tables, head_table, heads, total_heads

__all__ = [
    "BOTS", "DEFAULT_HEAD_RULES", "MAX_OFFICIAL_ROUNDS", "Bots", "Chooser", "Hand", "HeadRule",
    "IllegalMove", "NiutouwangRules", "Placement", "Row", "Rows", "Turn", "compute_tables", "deal",
    "default_players", "fewest_heads_row", "head_table", "heads", "place", "play",
    "player_range", "punish", "replay", "resolve_turn", "rules_from_mapping", "slug",
    "target_row", "total_heads", "variants", "winners", "with_variant",
]
