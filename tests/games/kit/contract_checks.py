"""Checks every game written to the kit must pass, shared by each game's tests: random legal
play never raises and always ends, the JSON log replays to the same outcome, and
``observation`` is a function of what the seat may know."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from pnp.games.kit import CHANCE, KitGame, Match, RandomBot, State, action_log, play, play_match, replay_log
from pnp.games.kit.match import draw_chance

NewState = Callable[[], State]


def random_game(new_state: NewState, seed: int) -> Match:
    probe = new_state()
    return play(new_state, [RandomBot()] * probe.players, seed, check=True)


def assert_plays_and_replays(new_state: NewState, seed: int) -> Match:
    """Random legal play ends; its log, through JSON, replays to the same outcome."""
    match = random_game(new_state, seed)
    assert match.state.is_over()
    outcome = match.state.outcome()
    assert len(outcome.scores) == len(outcome.places) == match.state.players
    assert min(outcome.places) == 1
    log = json.loads(json.dumps(action_log(match, {"seed": seed})))
    again = replay_log(new_state, log)
    assert again.state.outcome() == outcome
    return match


def states_along(new_state: NewState, seed: int) -> list[State]:
    """A copy of the state before every player's step of one random game."""
    rng = random.Random(seed)
    state, out = new_state(), []
    while not state.is_over():
        if state.to_move() == CHANCE:
            state.apply(draw_chance(state, rng))
        else:
            out.append(state.clone())
            state.apply(rng.choice(list(state.legal_actions())))
    return out


def ismcts_result(kit: KitGame, rules: Any, players: int, games: int, budget: int,
                  opponent: str = "random") -> float:
    """The ISMCTS seat's mean result (1 alone first, 0 alone last; an equal bot scores 0.5)
    over ``games`` seeded games against ``opponent`` at every other seat, the ISMCTS seat
    rotating so that no seat's advantage counts."""
    total = 0.0
    for seed in range(games):
        seat = seed % players
        bots = [opponent] * players
        bots[seat] = "ismcts"
        total += play_match(kit, rules, players, seed, bots, budget=budget).state.outcome().rewards()[seat]
    return total / games
