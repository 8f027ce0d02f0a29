"""The engine kit: write a game's rules as one small state machine, and pnp plays, replays,
narrates, simulates and searches it. docs/engine-kit.md is the guide; the contract is
``contract.State``."""

from pnp.games.base import DEFAULT_BUDGET, GameCodeError
from pnp.games.kit.bots import GENERIC, BotKind, GreedyBot, RandomBot, bot_kinds
from pnp.games.kit.contract import (
    CHANCE,
    Action,
    Evaluates,
    ExplainsIllegal,
    Outcome,
    Resamples,
    SamplesChance,
    State,
)
from pnp.games.kit.determinize import NoDeterminization, determinize
from pnp.games.kit.game import KitGame, play_match, plugin, seats
from pnp.games.kit.ismcts import Ismcts
from pnp.games.kit.match import (
    Bot,
    IllegalAction,
    Match,
    Step,
    action_log,
    log_difference,
    play,
    replay,
    replay_log,
    replay_problems,
    steps_from_log,
    steps_json,
)
from pnp.games.kit.rules import bounded, read_rules

__all__ = [
    "CHANCE", "DEFAULT_BUDGET", "GENERIC", "Action", "Bot", "BotKind", "Evaluates",
    "ExplainsIllegal", "GameCodeError", "GreedyBot", "IllegalAction", "Ismcts", "KitGame", "Match",
    "NoDeterminization", "Outcome", "RandomBot", "Resamples", "SamplesChance", "State", "Step", "action_log",
    "bot_kinds", "bounded", "determinize", "play", "play_match", "plugin", "read_rules",
    "replay", "replay_log", "replay_problems", "seats", "steps_from_log", "steps_json", "log_difference",
]
