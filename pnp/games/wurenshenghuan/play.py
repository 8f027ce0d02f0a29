"""無人生還: a whole game played by the kit's loop (``machine.WurenshenghuanState``, a bot per
seat), as the event log, and its replay through the same loop."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.events import to_json_object
from pnp.games.kit import KitGame, Match, play_match, replay_problems, steps_json
from pnp.games.params import is_integer
from pnp.games.wurenshenghuan.bots import STYLES
from pnp.games.wurenshenghuan.machine import WurenshenghuanState
from pnp.games.wurenshenghuan.rules import (
    SLUG,
    WurenshenghuanRules,
    player_range,
    rules_from_mapping,
)

KIT = KitGame(slug=SLUG, title="無人生還", rules=WurenshenghuanRules,
              new_state=WurenshenghuanState, players=player_range, styles=STYLES,
              reader=rules_from_mapping)


def play(rules: WurenshenghuanRules, players: int, rng: random.Random, *, seed: int,
         variant: str | None, bots: Sequence[str], budget: int = 50) -> dict[str, Any]:
    """One whole game with one bot per seat, as an event log.

    ``bots`` names each seat's bot (``"greedy"``, ``"random"`` or ``"ismcts"``). The log's
    ``bots`` is one name when every seat plays the same bot (as it always was) and one name
    per seat otherwise. Chance is drawn from ``random.Random(seed)`` by the play loop (``rng``
    is that generator, unused); the game has no variants, so ``variant`` must be None.
    """
    if variant is not None:
        raise ValueError(f"wurenshenghuan has no variants, got {variant!r}")
    low, high = player_range(rules)
    if not is_integer(players) or not low <= players <= high:
        raise ValueError(f"players must be {low}–{high}, got {players!r}")
    seated = list(bots)  # the kit's play refuses a bot it does not know or one too few
    return game_log(play_match(KIT, rules, players, seed, seated, budget), seed, seated)


def game_log(match: Match, seed: Any, seated: Sequence[str]) -> dict[str, Any]:
    """The event log of a finished match (docs/sample-and-simulate.md), with its steps."""
    state: WurenshenghuanState = match.state  # type: ignore[assignment]
    dealt = state.dealt
    return {
        "game": SLUG, "seed": seed, "players": state.players,
        "bots": seated[0] if len(set(seated)) == 1 else list(seated),
        "murderer": state.murderer_seat, "characters": list(state.characters),
        "setup": {
            "deal": {c: list(row) for c, row in dealt.items()},
            "shown": {c: row[-1] for c, row in dealt.items()},
            "pile": list(state.dealt_pile),
        },
        "nights": [event.to_json() for event in state.nights],
        "days": [event.to_json() for event in state.days],
        "guesses": [to_json_object(event) for event in state.guesses],
        "end": state.end,
        "kills": state.table.real_kills,
        "final": state.final(),
        "steps": steps_json(match),
    }


def replay(rules: WurenshenghuanRules, log: Mapping[str, Any]) -> list[str]:
    """Problems with a logged game: its steps pushed through the rules (the first illegal one
    named with its step and reason), then every logged fact compared with the replay's."""
    try:
        players = log["players"]
        low, high = player_range(rules)
        if not is_integer(players) or not low <= players <= high:
            return [f"players: must be {low}–{high}, got {players!r}"]
    except (KeyError, TypeError) as exc:
        return [str(exc)]
    return replay_problems(lambda: WurenshenghuanState(rules, players), log,
                           lambda match: game_log(match, log.get("seed"), ["greedy"]))
