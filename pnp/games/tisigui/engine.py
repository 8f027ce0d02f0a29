"""替死鬼 (tisigui): the engine's public names in one place, for callers that import
``engine`` (calc.py, older code). The code lives in rules, tables, lint, state, bots, play."""

from pnp.games.base import LintFinding
from pnp.games.tisigui.bots import BOTS, Bot, Deductions, GreedyBot, RandomBot, View
from pnp.games.tisigui.lint import lint
from pnp.games.tisigui.play import play, play_log, replay
from pnp.games.tisigui.rules import (
    CLASSIC_RULES,
    DEFAULT_RULES,
    SLUG,
    VARIANTS,
    SetupRow,
    StatedExample,
    TisiguiRules,
    default_players,
    expected_big_rounds,
    first_big_die,
    ghost_points,
    naming_points,
    no_targets_points,
    playable_counts,
    player_range,
    rank,
    rules_from_mapping,
    setup_for,
    slug,
    small_round_values,
    variants,
)
from pnp.games.tisigui.state import (
    ACTION_KINDS,
    NO_TARGETS,
    PASS,
    QUESTION_KINDS,
    Action,
    BigRound,
    Choice,
    Deal,
    Event,
    Game,
    GameLog,
    Question,
    Turn,
)
from pnp.games.tisigui.tables import compute_tables

__all__ = [
    "ACTION_KINDS", "BOTS", "CLASSIC_RULES", "DEFAULT_RULES", "NO_TARGETS", "PASS",
    "QUESTION_KINDS", "SLUG", "VARIANTS", "Action", "BigRound", "Bot", "Choice", "Deal",
    "Deductions", "Event", "LintFinding", "Game", "GameLog", "GreedyBot", "Question", "RandomBot",
    "SetupRow", "StatedExample", "TisiguiRules", "Turn", "View", "compute_tables",
    "default_players", "expected_big_rounds", "first_big_die", "ghost_points", "lint",
    "naming_points", "no_targets_points", "play", "play_log", "player_range", "playable_counts",
    "rank", "replay", "rules_from_mapping", "setup_for", "slug", "small_round_values",
    "variants",
]
