"""The engine kit's contract: what a game's rules must be for pnp to play them.

A game supplies a *state*: one object per game in progress, in the manner of python-chess's
``Board``. pnp drives it through this small surface and nothing else:

- ``players`` and ``to_move()``: a seat (0-based), or :data:`CHANCE` when the next step is
  the game's own randomness (a card drawn, a die rolled), whose possible results and their
  probabilities ``chance_outcomes()`` lists;
- ``legal_actions()`` and ``apply(action)``, which returns the events the action caused (a
  sequence of its own: the kit keeps it as it is);
- ``clone()``: an independent copy (search and replay branch from it);
- ``is_over()`` and ``outcome()``;
- ``observation(seat)``: exactly what that seat may know, as a value compared with ``==``
  (two states a seat cannot tell apart give equal observations).

An *action* is any JSON-ready value compared with ``==`` (an int, a string, a tuple of
them); the action log writes tuples as lists and reads them back as tuples.

Optional parts have their own small protocols: :class:`Evaluates` (a heuristic, which the
``greedy`` bot maximises), :class:`Resamples` (a fast determinization for the ISMCTS bot;
without it the kit resamples the chance results of the game's history itself),
:class:`SamplesChance` (chance drawn by the state, for results too many to list: a shuffled
deck) and :class:`ExplainsIllegal` (the rule an illegal action breaks).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeGuard, runtime_checkable

from pnp.core.records import record
from pnp.games.base import GameCodeError

CHANCE = -1
"""``to_move()`` at a chance node: the next action is drawn from ``chance_outcomes()``."""

Action = Hashable
Event = Any  # a frozen dataclass (written with pnp.games.events.to_json) or a JSON-ready value


@record
class Outcome:
    """How a finished game ended: every seat's score, its place, and why it ended."""

    scores: tuple[float, ...]
    places: tuple[int, ...]
    """1 for the winner(s); seats that tie share a place (1, 1, 3)."""
    ended_by: str
    roles: tuple[str, ...] = ()
    """Optional: each seat's role in the finished game, for a game that deals secret roles
    (the murderer and the innocents); empty for a game without them. ``pnp simulate`` reports
    the win rate by role from it."""

    @classmethod
    def from_scores(cls, scores: Sequence[float], ended_by: str, *,
                    lower_wins: bool = False, roles: Sequence[str] = ()) -> Outcome:
        """Places from scores, best first (highest, or lowest when ``lower_wins``)."""
        sign = -1 if lower_wins else 1
        ordered = [sign * s for s in scores]
        places = tuple(1 + sum(other > mine for other in ordered) for mine in ordered)
        return cls(tuple(scores), places, ended_by, tuple(roles))

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    def rewards(self) -> tuple[float, ...]:
        """Each seat's result in [0, 1] for search: 1 alone in first place, 0 alone in last,
        tied seats sharing the places they span."""
        n = len(self.places)
        if n == 1:
            return (1.0,)
        out = []
        for place in self.places:
            tied = sum(p == place for p in self.places)
            # the places place .. place + tied - 1, averaged, mapped 1 -> 1.0 and n -> 0.0
            mean_place = place + (tied - 1) / 2
            out.append((n - mean_place) / (n - 1))
        return tuple(out)


@runtime_checkable
class State(Protocol):
    """One game in progress (see the module's docstring)."""

    @property
    def players(self) -> int: ...

    def to_move(self) -> int: ...

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]: ...

    def legal_actions(self) -> Sequence[Action]: ...

    def apply(self, action: Action) -> Sequence[Event]: ...

    def clone(self) -> State: ...

    def is_over(self) -> bool: ...

    def outcome(self) -> Outcome: ...

    def observation(self, seat: int) -> Hashable: ...


@runtime_checkable
class SamplesChance(Protocol):
    """A state whose chance results are too many to list (a whole deck shuffled): it draws one
    itself from the rng it is given and says whether a result is possible. Its
    ``chance_outcomes()`` may be empty; ISMCTS then needs its ``resample``."""

    def sample_chance(self, rng: random.Random) -> Action: ...

    def chance_possible(self, action: Action) -> bool: ...


@runtime_checkable
class Evaluates(Protocol):
    """A state that can say how good it looks for a seat (higher is better)."""

    def evaluate(self, seat: int) -> float: ...


@runtime_checkable
class Resamples(Protocol):
    """A state that can draw a state ``seat`` cannot tell from it: the same observation for
    ``seat``, hidden parts drawn as the rules would have dealt them."""

    def resample(self, seat: int, rng: random.Random) -> State: ...


@runtime_checkable
class ExplainsIllegal(Protocol):
    """A state that can say which rule an action breaks (the replay error quotes it)."""

    def why_illegal(self, action: Action) -> str | None: ...



_FOUND: dict[tuple[type, tuple[str, ...]], bool] = {}


def _has(kind: type, *names: str) -> bool:
    key = (kind, names)
    found = _FOUND.get(key)
    if found is None:
        found = _FOUND[key] = all(callable(getattr(kind, name, None)) for name in names)
    return found


# Whether a state has an optional part, worked out once per class (``isinstance`` against a
# protocol inspects the class on every call, which the play loop cannot afford).


def samples_chance(state: object) -> TypeGuard[SamplesChance]:
    return _has(type(state), "sample_chance", "chance_possible")


def evaluates(state: object) -> TypeGuard[Evaluates]:
    return _has(type(state), "evaluate")


def evaluates_class(kind: type) -> bool:
    """Whether states of this class have ``evaluate`` (what the ``greedy`` bot needs)."""
    return _has(kind, "evaluate")


def resamples(state: object) -> TypeGuard[Resamples]:
    return _has(type(state), "resample")


def resamples_class(kind: type) -> bool:
    """Whether states of this class have ``resample``."""
    return _has(kind, "resample")


def explains_illegal(state: object) -> TypeGuard[ExplainsIllegal]:
    return _has(type(state), "why_illegal")


# --------------------------------------------------------------------------------------------
# What the kit checks of a game's code where it calls it (GameCodeError names what broke)

REQUIRED_METHODS = ("to_move", "chance_outcomes", "legal_actions", "apply", "clone", "is_over",
                    "outcome", "observation")


def missing_methods(kind: type) -> list[str]:
    """The contract's methods a state class lacks (absent, or set to something not callable)."""
    return [name for name in REQUIRED_METHODS if not _has(kind, name)]


def outcome_of(state: State) -> Outcome:
    """``state.outcome()`` once the game is over, held to the contract: an :class:`Outcome`
    with a score and a place for every seat, someone in first place."""
    outcome = state.outcome()
    if not isinstance(outcome, Outcome):
        raise GameCodeError("outcome", f"expected an Outcome (pnp.games.kit.Outcome, e.g. "
                            f"Outcome.from_scores(scores, 'why')), got {type(outcome).__name__} "
                            f"{_short(outcome)}")
    seats = state.players
    if len(outcome.scores) != seats or len(outcome.places) != seats:
        raise GameCodeError("outcome", f"expected a score and a place for each of the {seats} "
                            f"seats, got {len(outcome.scores)} scores and {len(outcome.places)} "
                            f"places ({_short(outcome)})")
    if min(outcome.places) != 1 or max(outcome.places) > seats:
        raise GameCodeError("outcome", f"expected places from 1 (the winners) to {seats}, got "
                            f"{list(outcome.places)}")
    return outcome


def no_legal_action(seat: int) -> GameCodeError:
    """The error for a live state that offers its seat nothing to do."""
    return GameCodeError("legal_actions", f"expected at least one action for seat {seat}, whose "
                         "turn it is, got none while is_over() is False (end the game in "
                         "is_over(), or give the seat something to do)")


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
