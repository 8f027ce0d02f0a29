"""One driver for every game written to the contract: play, the action log, and replay.

A :class:`Match` is a state with its history: the steps taken (seat and action, chance
included), the events each step emitted and, for seats that ask for it, what the seat
observed after each step (the generic determinization replays against it). ``play`` runs a
game with one bot per seat; ``replay`` pushes a logged game's steps through a fresh state and
refuses the first one the rules do not allow, naming the turn and the reason.

Randomness: chance is drawn from one ``random.Random(seed)``; each seat's bot has its own
stream derived from the seed and the seat, so a bot that thinks harder (more random draws)
does not change the cards another seat is dealt.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pnp.games.kit.contract import CHANCE, Action, Event, ExplainsIllegal, Outcome, State

LOG_FORMAT = 1
MAX_STEPS = 1_000_000
"""A game longer than this is an engine that never ends: the driver stops it with an error."""


class IllegalAction(ValueError):
    """A step the rules do not allow: ``turn`` counts steps from 1 (chance steps included)."""

    def __init__(self, turn: int, seat: int, action: Action, reason: str) -> None:
        self.turn, self.seat, self.action, self.reason = turn, seat, action, reason
        who = "chance" if seat == CHANCE else f"seat {seat}"
        super().__init__(f"step {turn} ({who}): {action_to_json(action)!r} is not allowed: {reason}")


@dataclass(frozen=True, slots=True)
class Step:
    seat: int  # CHANCE or the seat that acted
    action: Action


class Bot(Protocol):
    """A player: picks one of ``match.state.legal_actions()`` for ``seat``."""

    def choose(self, match: Match, seat: int, rng: random.Random) -> Action: ...


@dataclass
class Match:
    """A game in progress with its history (see the module's docstring)."""

    new_state: Callable[[], State]
    watched: tuple[int, ...] = ()
    state: State = field(init=False)
    steps: list[Step] = field(default_factory=list, init=False)
    events: list[tuple[int, Event]] = field(default_factory=list, init=False)
    seen: dict[int, list[Any]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.state = self.new_state()
        self.seen = {seat: [self.state.observation(seat)] for seat in self.watched}

    def push(self, action: Action, *, check: bool = True) -> Sequence[Event]:
        """Apply one step; with ``check``, an action the rules do not allow is refused."""
        state = self.state
        seat = state.to_move()
        if check:
            reason = why_not(state, action)
            if reason is not None:
                raise IllegalAction(len(self.steps) + 1, seat, action, reason)
        emitted = state.apply(action)
        self.steps.append(Step(seat, action))
        turn = len(self.steps)
        self.events.extend((turn, event) for event in emitted)
        for watched, seen in self.seen.items():
            seen.append(state.observation(watched))
        return emitted


def why_not(state: State, action: Action) -> str | None:
    """None when ``action`` is allowed now; otherwise the reason, in the game's words if the
    state explains itself."""
    if state.is_over():
        return "the game is over"
    if state.to_move() == CHANCE:
        if any(outcome == action for outcome, _ in state.chance_outcomes()):
            return None
        return "not a possible result of chance here"
    if action in state.legal_actions():
        return None
    if isinstance(state, ExplainsIllegal):
        reason = state.why_illegal(action)
        if reason:
            return reason
    return f"not among the {len(state.legal_actions())} legal actions"


def draw_chance(state: State, rng: random.Random) -> Action:
    """One chance result, drawn with its probability (one ``rng.random()`` a draw)."""
    outcomes = state.chance_outcomes()
    total = sum(p for _, p in outcomes)
    point = rng.random() * total
    for action, probability in outcomes:
        point -= probability
        if point < 0:
            return action
    return outcomes[-1][0]


def bot_rng(seed: int, seat: int) -> random.Random:
    """The seat's own stream (a string seed is hashed with SHA-512: the same on every run)."""
    return random.Random(f"pnp-bot/{seed}/{seat}")


def play(new_state: Callable[[], State], bots: Sequence[Bot], seed: int, *,
         watched: Sequence[int] = (), check: bool = False) -> Match:
    """A whole game, one bot per seat; ``check`` also validates the bots' own choices."""
    match = Match(new_state, tuple(watched))
    if len(bots) != match.state.players:
        raise ValueError(f"{len(bots)} bots for {match.state.players} seats")
    chance = random.Random(seed)
    rngs = [bot_rng(seed, seat) for seat in range(len(bots))]
    state = match.state
    while not state.is_over():
        if len(match.steps) >= MAX_STEPS:
            raise RuntimeError(f"the game did not end within {MAX_STEPS} steps")
        seat = state.to_move()
        if seat == CHANCE:
            match.push(draw_chance(state, chance), check=False)
        else:
            match.push(bots[seat].choose(match, seat, rngs[seat]), check=check)
    return match


def replay(new_state: Callable[[], State], steps: Sequence[Step]) -> Match:
    """The match the steps make, each one checked; IllegalAction names the first refused."""
    match = Match(new_state)
    for number, step in enumerate(steps, start=1):
        expected = match.state.to_move() if not match.state.is_over() else None
        if expected != step.seat:
            if expected is None:
                reason = "the game is already over"
            else:
                mover = "chance" if expected == CHANCE else f"seat {expected}"
                reason = f"it is {mover}'s turn"
            raise IllegalAction(number, step.seat, step.action, reason)
        match.push(step.action)
    return match


# --------------------------------------------------------------------------------------------
# The JSON action log


def action_to_json(action: Action) -> Any:
    if isinstance(action, tuple):
        return [action_to_json(a) for a in action]
    return action


def action_from_json(value: Any) -> Action:
    if isinstance(value, list):
        return tuple(action_from_json(v) for v in value)
    if not isinstance(value, Hashable):
        raise ValueError(f"an action is a number, a text or a list of them, not {value!r}")
    return value


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {"scores": list(outcome.scores), "places": list(outcome.places),
            "ended_by": outcome.ended_by}


def action_log(match: Match, header: Mapping[str, Any]) -> dict[str, Any]:
    """The log a match replays from: ``header`` (game, seed, players, bots, rules), the steps
    as ``[seat, action]`` pairs (seat -1 for chance) and, once over, the outcome."""
    log = {"format": LOG_FORMAT, **header,
           "steps": [[step.seat, action_to_json(step.action)] for step in match.steps]}
    if match.state.is_over():
        log["outcome"] = outcome_json(match.state.outcome())
    return log


def steps_from_log(log: Mapping[str, Any]) -> list[Step]:
    """The steps of an action log; ValueError naming the first malformed entry."""
    raw = log.get("steps")
    if not isinstance(raw, list):
        raise ValueError("the log has no list of steps")
    steps = []
    for number, entry in enumerate(raw, start=1):
        if (not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], int)
                or isinstance(entry[0], bool)):
            raise ValueError(f"step {number}: expected [seat, action], got {entry!r}")
        steps.append(Step(entry[0], action_from_json(entry[1])))
    return steps


def replay_log(new_state: Callable[[], State], log: Mapping[str, Any]) -> Match:
    """Replay an action log and check its recorded outcome, if any, is the one reached."""
    match = replay(new_state, steps_from_log(log))
    recorded = log.get("outcome")
    if recorded is not None:
        if not match.state.is_over():
            raise ValueError(f"the log records an outcome but the game is not over after "
                             f"{len(match.steps)} steps")
        reached = outcome_json(match.state.outcome())
        if recorded != reached:
            raise ValueError(f"the log's outcome {recorded} is not the one replayed: {reached}")
    return match

