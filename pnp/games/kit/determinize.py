"""Determinization: a full state one seat cannot tell from the real one.

ISMCTS searches many such states instead of the hidden truth. A game that knows how to deal
its hidden parts again implements ``resample`` (contract.Resamples) and that is used. Without
it the kit redraws the game's chance results itself: it replays the match's steps on a fresh
state, drawing each chance result anew among those after which the seat's observation is
what the seat really observed at that step, and backtracks when a later step (a card played
that the redraw put elsewhere) no longer fits. Only a seat's own observations steer the
search, so nothing the seat may not know leaks into its bot.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

from pnp.games.kit.contract import CHANCE, State, resamples, samples_chance
from pnp.games.kit.match import Match, Step

MAX_APPLIES = 20_000
"""Work allowed for one redraw (actions applied); past it the search starts over once and
then keeps the seat's view of the real history with the chance results it last found."""


class NoDeterminization(RuntimeError):
    """No redraw of the chance results fits what the seat observed (within the budget)."""


def determinize(match: Match, seat: int, rng: random.Random) -> State:
    """A state with the same observation for ``seat`` as ``match.state``."""
    state = match.state
    if resamples(state):
        return state.resample(seat, rng)
    if samples_chance(state):
        raise NoDeterminization("the game draws chance results it cannot list (a shuffled "
                                "deck): give its state a resample(seat, rng)")
    if seat not in match.seen:
        raise ValueError(f"seat {seat}'s observations were not recorded (watched seats: "
                         f"{match.watched})")
    for _ in range(2):
        found = _redraw(match, match.seen[seat], seat, rng)
        if found is not None:
            return found
    raise NoDeterminization(f"no redraw of the chance results fits seat {seat}'s view")


def _redraw(match: Match, seen: Sequence[Hashable], seat: int,
            rng: random.Random) -> State | None:
    budget = [MAX_APPLIES]
    return _extend(match.new_state(), match.steps, 0, seen, seat, rng, budget)


def _extend(state: State, steps: Sequence[Step], at: int, seen: Sequence[Hashable], seat: int,
            rng: random.Random, budget: list[int]) -> State | None:
    # Iterative over the player steps between chance steps, recursive at chance steps (where
    # a different draw may be needed when something later does not fit).
    while at < len(steps) and steps[at].seat != CHANCE:
        if budget[0] <= 0 or steps[at].action not in state.legal_actions():
            return None
        state.apply(steps[at].action)
        budget[0] -= 1
        at += 1
        if state.observation(seat) != seen[at]:
            return None
    if at == len(steps):
        return state
    for outcome in _weighted_order(state.chance_outcomes(), rng):
        if budget[0] <= 0:
            return None
        trial = state.clone()
        trial.apply(outcome)
        budget[0] -= 1
        if trial.observation(seat) != seen[at + 1]:
            continue
        found = _extend(trial, steps, at + 1, seen, seat, rng, budget)
        if found is not None:
            return found
    return None


def _weighted_order(outcomes: Sequence[tuple[Hashable, float]],
                    rng: random.Random) -> list[Hashable]:
    """Outcomes in a random order where each comes first with its probability (Efraimidis and
    Spirakis' keys, u ** (1 / p))."""
    keyed = [(rng.random() ** (1.0 / p) if p > 0 else 0.0, i)
             for i, (_, p) in enumerate(outcomes)]
    keyed.sort(reverse=True)
    return [outcomes[i][0] for _, i in keyed]
