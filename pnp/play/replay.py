"""Replaying a logged game: ``pnp replay GAME LOG.json`` pushes every step of a log that
``pnp sample --format json`` wrote (or a person edited) through the game's engine under
game.yaml's rules and reports the first step the rules refuse, with its turn and reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pnp.core.errors import DataError, PnpError
from pnp.core.problems import Problem
from pnp.core.records import record
from pnp.core.workspace import Workspace
from pnp.data.textfile import read_text
from pnp.play.narrate import check_variant, game_rules, load_game_data, plugin


@record
class Replayed:
    """What replaying a log found: no problems means every step was legal and the recorded
    results are the ones the engine reaches."""

    log_file: Path
    players: int
    problems: tuple[str, ...]


def read_log(path: Path) -> dict[str, Any]:
    """A log file's JSON object; DataError naming the file and line of a syntax error."""
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(Problem(f"not JSON: {exc.msg}", str(path), exc.lineno, exc.colno)) from None
    if not isinstance(data, dict):
        raise DataError(Problem("a game log is a JSON object", str(path)))
    return data


def replay_file(workspace: Workspace, slug: str, path: Path) -> Replayed:
    engine = plugin(slug)
    log = read_log(path)
    if log.get("game") != slug:
        raise PnpError(f"{path}: the log is of {log.get('game')!r}, not {slug!r}")
    players = log.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise DataError(Problem("the log's players is not a whole number", str(path)))
    game = load_game_data(workspace, slug)
    variant = check_variant(game, log.get("variant"))
    rules = game_rules(game, variant)
    return Replayed(path, players, tuple(engine.play.replay(rules, log)))
