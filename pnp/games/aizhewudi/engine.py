"""愛者無敵 (aizhewudi): the engine's public names in one place.

Pure engine: no I/O, no printing, randomness only from a passed ``random.Random``. The
rules parameters, the ability rulings and the event log format are described in
``rules.py``; the game is the state machine ``state._Game``, which ``bots._Bots`` drives
to play and ``play._FromLog`` drives to replay a log.
"""

from __future__ import annotations

from pnp.games.aizhewudi.bots import _Bots
from pnp.games.aizhewudi.lint import lint, worst_case_markers
from pnp.games.aizhewudi.play import _FromLog, markers_in_use, play, replay, resolve
from pnp.games.aizhewudi.rules import (
    ABILITIES,
    ABILITY_NAMES,
    ABILITY_RULINGS,
    ACTIONS,
    BOTS,
    DEFAULT_ACTION_CARDS,
    DEFAULT_BILLS,
    DEFAULT_BONUSES,
    ENGINE_RULINGS,
    ActionCard,
    AizhewudiRules,
    BillKind,
    default_players,
    player_range,
    rules_from_mapping,
    slug,
    variants,
)
from pnp.games.aizhewudi.split import Split, split
from pnp.games.aizhewudi.state import Illegal, _Game, _Play, _Policy, _Seat, winner
from pnp.games.aizhewudi.tables import compute_tables
from pnp.games.base import LintFinding

__all__ = [
    "ABILITIES", "ABILITY_NAMES", "ABILITY_RULINGS", "ACTIONS", "BOTS", "DEFAULT_ACTION_CARDS",
    "DEFAULT_BILLS", "DEFAULT_BONUSES", "ENGINE_RULINGS", "ActionCard", "AizhewudiRules",
    "BillKind", "LintFinding", "Illegal", "Split", "_Bots", "_FromLog", "_Game", "_Play", "_Policy",
    "_Seat", "compute_tables", "default_players", "lint", "markers_in_use", "play",
    "player_range", "replay", "resolve", "rules_from_mapping", "slug", "split", "variants",
    "winner", "worst_case_markers",
]
