"""無人生還: a whole game played by the bots, as an event log."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.games.params import is_integer
from pnp.games.wurenshenghuan.bots import Bots
from pnp.games.wurenshenghuan.game import Game, run
from pnp.games.wurenshenghuan.rules import BOTS, SLUG, WurenshenghuanRules, player_range
from pnp.games.wurenshenghuan.state import deal


def play(rules: WurenshenghuanRules, players: int, rng: random.Random, *, seed: int,
         variant: str | None, bots: Sequence[str], budget: int = 0) -> dict[str, Any]:
    """One whole game with the engine's bots, as an event log.

    ``bots`` names each seat's bot (``"greedy"`` or ``"random"``). The log's ``bots`` is one
    name when every seat plays the same bot (as it always was) and one name per seat
    otherwise. ``seed`` is only recorded; the game has no variants, so ``variant`` must be
    None.
    """
    if variant is not None:
        raise ValueError(f"wurenshenghuan has no variants, got {variant!r}")
    low, high = player_range(rules)
    if not is_integer(players) or not low <= players <= high:
        raise ValueError(f"players must be {low}–{high}, got {players!r}")
    seated = list(bots)
    if len(seated) != players:
        raise ValueError(f"bots: one per seat, {players} seats, got {len(seated)}")
    for name in seated:
        if name not in BOTS:
            raise ValueError(f"bot must be one of {', '.join(BOTS)}, got {name!r}")
    murderer_seat = rng.randrange(players)
    characters = tuple(rng.sample(rules.letters, players))
    state = deal(rules, rng, characters[murderer_seat])
    log: dict[str, Any] = {
        "game": SLUG, "seed": seed, "players": players,
        "bots": seated[0] if len(set(seated)) == 1 else seated,
        "murderer": murderer_seat, "characters": list(characters),
        "setup": {
            "deal": {c: list(state.items(c)) for c in state.letters},
            "shown": {c: state.items(c)[-1] for c in state.letters},
            "pile": list(state.pile),
        },
    }
    game = run(Game(rules, murderer_seat, characters, state),
               Bots(rules, seated, rng, murderer_seat, state))
    log["nights"] = [event.to_json() for event in game.nights]
    log["days"] = [event.to_json() for event in game.days]
    log["guesses"] = [event.to_json() for event in game.guesses]
    log["end"] = game.end
    log["kills"] = game.state.real_kills
    log["final"] = game.final()
    return log
