"""What ``pnp check`` asks of a kit game's code: a few seeded games of random play, every call
held to the contract, and the hidden-information check.

The tests of pnp's own games hold them to the same contract (tests/games/kit); this is the
part a designer's game gets from ``pnp check`` alone, with a pip-installed pnp. Each game is
short work (bounded in steps), so the check stays quick for every game it is run on.

The hidden-information check needs a state that can deal its hidden parts again
(``resample``): a seat's observation of the real state and of a redeal drawn for that seat
must be equal, or the observation shows something of what the redeal changed (another
seat's hand), or the redeal changes what the seat may know. A game without ``resample`` is
searched by redrawing its chance results against what the seat observed, which agrees with
any observation by construction, so for it there is nothing to compare.
"""

from __future__ import annotations

import inspect
import json
import random
import sys
from collections.abc import Hashable, Sequence
from typing import Any, cast

from pnp.core.records import record
from pnp.games.base import GameCodeError
from pnp.games.kit.contract import (
    CHANCE,
    Resamples,
    State,
    no_legal_action,
    outcome_of,
    resamples,
    samples_chance,
)
from pnp.games.kit.game import KitGame, blamed, first_state, json_ready, state_class
from pnp.games.kit.match import Match, action_log, draw_chance, replay_log

GAMES = 3
"""Seeded games of random play (seeds 1, 2, ...), the player counts taken in turn."""
STEP_LIMIT = 10_000
"""A game of random play still going after this many steps is reported as never ending."""
HIDDEN_CHECKS = 6
"""States of each game (spread over it) whose observations are compared with redeals."""


@record
class Breach:
    """A place where a game's code broke the contract: the method and what went wrong."""

    method: str
    problem: str
    seed: int
    players: int

    def text(self) -> str:
        return f"{self.method}: {self.problem} (random play, seed {self.seed}, {self.players} players)"


def breaches(game: KitGame, rules: Any, player_counts: Sequence[int],
             games: int = GAMES) -> list[Breach]:
    """The first breach of each of ``games`` seeded games of random play (none: every call kept
    the contract), each method reported once."""
    found: list[Breach] = []
    seen: set[str] = set()
    for seed in range(1, games + 1):
        players = player_counts[(seed - 1) % len(player_counts)]
        try:
            _exercise(game, rules, players, seed)
        except GameCodeError as exc:
            breach = Breach(exc.method, exc.problem, seed, players)
        except Exception as exc:  # the game's code raised: named by where it was raised
            error = blamed(exc)
            breach = Breach(error.method, error.problem, seed, players)
        else:
            continue
        if breach.method not in seen:
            seen.add(breach.method)
            found.append(breach)
    return found


def _exercise(game: KitGame, rules: Any, players: int, seed: int) -> None:
    """One game of random play, each answer of the state checked as it comes."""
    first_state(game, rules, players)
    match = Match(lambda: game.new_state(rules, players))
    state = match.state
    rng = random.Random(seed)
    turns = hidden_checks = 0
    for _ in range(STEP_LIMIT):
        if state.is_over():
            break
        seat = _mover(state, players)
        if seat == CHANCE:
            action = draw_chance(state, rng)
        else:
            action = _legal_choice(state, seat, rng)
            turns += 1
            # Early turns every one, then one in twenty; the hidden check on every fifth turn
            # until it has looked at HIDDEN_CHECKS states.
            if turns <= 20 or turns % 20 == 0:
                _check_clone(state, action, players)
            if turns % 5 == 1 and hidden_checks < HIDDEN_CHECKS and resamples(state):
                hidden_checks += 1
                _check_hidden(match.state, players, rng)
        events = match.push(action, check=False, seat=seat)
        if not isinstance(events, Sequence):
            raise GameCodeError("apply", "expected the events the action caused (a list, [] for "
                                f"none), got {type(events).__name__} {events!r:.60}")
    else:
        if not state.is_over():
            raise GameCodeError("is_over", f"expected a game of random play to end, but "
                                f"is_over() was still False after {STEP_LIMIT:,} steps")
    outcome = outcome_of(state)
    log = json.loads(json.dumps(action_log(match, {"seed": seed})))
    again = replay_log(lambda: game.new_state(rules, players), log).state
    if outcome_of(again) != outcome:
        raise GameCodeError("apply", "expected the same steps to give the same game, but "
                            "replaying the log of the game reached another outcome (does apply "
                            "draw randomness of its own, or read a clock?)")


def _mover(state: State, players: int) -> int:
    seat = state.to_move()
    if type(seat) is not int or not (seat == CHANCE or 0 <= seat < players):
        raise GameCodeError("to_move", f"expected a seat from 0 to {players - 1} or CHANCE "
                            f"({CHANCE}), got {seat!r}")
    if seat == CHANCE and not samples_chance(state):
        outcomes = list(state.chance_outcomes())
        if not outcomes:
            raise GameCodeError("chance_outcomes", "expected the possible results with their "
                                "probabilities at a chance step, got none")
        if any(not isinstance(o, tuple) or len(o) != 2 or not isinstance(o[1], int | float)
               or o[1] < 0 for o in outcomes):
            raise GameCodeError("chance_outcomes", "expected (result, probability) pairs, "
                                f"got {outcomes[:3]!r:.80}")
    return seat


def _legal_choice(state: State, seat: int, rng: random.Random) -> Any:
    legal = list(state.legal_actions())
    if not legal:
        raise no_legal_action(seat)
    for action in legal:
        if not isinstance(action, Hashable) or not json_ready(action):
            raise GameCodeError("legal_actions", "expected actions that can be hashed and "
                                "written to the JSON log (a number, a text, or a tuple of "
                                f"them), got {type(action).__name__} {action!r:.60}")
    return legal[rng.randrange(len(legal))]


def _check_clone(state: State, action: Any, players: int) -> None:
    """Acting on a clone leaves the original as it was (a shallow copy shares its lists)."""
    before = [state.observation(seat) for seat in range(players)]
    copy = state.clone()
    copy.apply(action)
    for seat in range(players):
        if state.observation(seat) != before[seat]:
            raise GameCodeError("clone", "expected an independent copy, but applying an action to "
                                f"the clone changed the original (seat {seat}'s observation): "
                                "copy every list or dict the state changes")


def _check_hidden(state: State, players: int, rng: random.Random) -> None:
    resampler = cast(Resamples, state)
    before = [state.observation(seat) for seat in range(players)]
    for seat in range(players):
        redeal = resampler.resample(seat, rng)
        changed = next((other for other in range(players)
                        if state.observation(other) != before[other]), None)
        if redeal is state or changed is not None:
            raise GameCodeError("resample", "expected a new state (built from self.clone()), but "
                                + ("it returned the real game itself" if changed is None else
                                   f"resampling changed the real game (seat {changed}'s "
                                   "observation)"))
        if redeal.observation(seat) != state.observation(seat):
            raise GameCodeError("observation", f"expected seat {seat}'s observation to stay the "
                                "same when what it cannot see is dealt again (resample), but it "
                                "changed: the observation shows something hidden from the seat, "
                                "or resample changes what the seat knows")


def where_defined(game: KitGame, method: str) -> str:
    """``file:line`` of the game's code a breach names (the method on the state class, the
    rules class, new_state), or the module of its states when the method is not found."""
    kind = state_class(game) or type(game.new_state)
    owner: Any = {"rules": game.rules, "new_state": game.new_state}.get(method)
    if owner is None:
        owner = getattr(kind, method.rpartition(".")[2], None)
    for candidate in (owner, kind):
        try:
            path = inspect.getsourcefile(candidate)
            line = inspect.getsourcelines(candidate)[1]
        except (TypeError, OSError):
            continue
        if path:
            return f"{path}:{line}"
    return getattr(sys.modules.get(kind.__module__), "__file__", None) or kind.__module__
