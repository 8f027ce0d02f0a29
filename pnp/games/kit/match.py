"""One driver for every game written to the contract: play, the action log, and replay.

A :class:`Match` is a state with its history: the steps taken (seat and action, chance
included), the events each step emitted and, for seats that ask for it, what the seat
observed after each step (the generic determinization replays against it). ``play`` runs a
game with one bot per seat; ``replay`` pushes a logged game's steps through a fresh state and
refuses the first one the rules do not allow, naming the turn and the reason.

Randomness: chance is drawn from one ``random.Random(seed)`` and the bots draw from a
second stream of their own, so a bot that thinks harder (more random draws) does not change
the cards anyone is dealt.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from pnp.games.base import GameCodeError
from pnp.games.draws import deferred_random
from pnp.games.kit.contract import (
    CHANCE,
    Action,
    Event,
    Outcome,
    State,
    explains_illegal,
    outcome_of,
    samples_chance,
)

LOG_FORMAT = 1
MAX_STEPS = 1_000_000
"""A game longer than this is an engine that never ends: the driver stops it with an error."""


def never_ended() -> GameCodeError:
    return GameCodeError("is_over", f"expected the game to end, but is_over() was still False "
                         f"after {MAX_STEPS:,} steps")


class IllegalAction(ValueError):
    """A step the rules do not allow: ``turn`` counts steps from 1 (chance steps included)."""

    def __init__(self, turn: int, seat: int, action: Action, reason: str) -> None:
        self.turn, self.seat, self.action, self.reason = turn, seat, action, reason
        who = "chance" if seat == CHANCE else f"seat {seat}"
        super().__init__(f"step {turn} ({who}): {action_to_json(action)!r} is not allowed: {reason}")


class Step(NamedTuple):
    seat: int  # CHANCE or the seat that acted
    action: Action


_new_tuple = tuple.__new__


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
    emitted: list[tuple[int, Sequence[Event]]] = field(default_factory=list, init=False)
    """What each step that emitted events returned, with its turn: kept as returned, since
    most games' logs never read them and flattening every game's would be wasted."""
    seen: dict[int, list[Any]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.state = self.new_state()
        self.seen = {seat: [self.state.observation(seat)] for seat in self.watched}

    @property
    def events(self) -> list[tuple[int, Event]]:
        """Every event with the turn (step, counted from 1) that emitted it, in order."""
        return [(turn, event) for turn, batch in self.emitted for event in batch]

    def push(self, action: Action, *, check: bool = True, seat: int | None = None
             ) -> Sequence[Event]:
        """Apply one step; with ``check``, an action the rules do not allow is refused.
        ``seat`` is ``state.to_move()`` when the caller has just asked it."""
        state = self.state
        if seat is None:
            seat = state.to_move()
        if check:
            reason = why_not(state, action)
            if reason is not None:
                raise IllegalAction(len(self.steps) + 1, seat, action, reason)
        emitted = state.apply(action)
        steps = self.steps
        steps.append(_new_tuple(Step, (seat, action)))  # Step(seat, action), without a frame
        if emitted:
            self.emitted.append((len(steps), emitted))
        elif emitted is None:
            raise no_events()
        if self.seen:
            for watched, seen in self.seen.items():
                seen.append(state.observation(watched))
        return emitted


def no_events() -> GameCodeError:
    """What a step whose ``apply`` returned None (a forgotten ``return``) raises: every step
    returns its events, ``[]`` for none, and narration and summaries read them."""
    return GameCodeError("apply", "expected the events the action caused (a list, [] for none), "
                         "got None (a forgotten return?)")


def why_not(state: State, action: Action) -> str | None:
    """None when ``action`` is allowed now; otherwise the reason, in the game's words if the
    state explains itself."""
    if state.is_over():
        return "the game is over"
    if state.to_move() == CHANCE:
        if samples_chance(state):
            possible = state.chance_possible(action)
        else:
            possible = any(outcome == action for outcome, _ in state.chance_outcomes())
        return None if possible else "not a possible result of chance here"
    if action in state.legal_actions():
        return None
    if explains_illegal(state):
        reason = state.why_illegal(action)
        if reason:
            return reason
    return f"not among the {len(state.legal_actions())} legal actions"


def draw_chance(state: State, rng: random.Random) -> Action:
    """One chance result, drawn with its probability (one ``rng.random()`` a draw, or the
    state's own draw when it samples its chance itself)."""
    if samples_chance(state):
        return state.sample_chance(rng)
    outcomes = state.chance_outcomes()
    total = sum(p for _, p in outcomes)
    point = rng.random() * total
    for action, probability in outcomes:
        point -= probability
        if point < 0:
            return action
    return outcomes[-1][0]


def bot_rng(seed: int) -> random.Random:
    """The bots' stream, apart from chance's: seeded above 2**64, where no game's chance
    seed is; seeded when a bot first draws (deterministic bots never do)."""
    return deferred_random((1 << 64) + seed % (1 << 64))


def play(new_state: Callable[[], State], bots: Sequence[Bot], seed: int, *,
         watched: Sequence[int] = (), check: bool = False, one_stream: bool = False) -> Match:
    """A whole game, one bot per seat; ``check`` also validates the bots' own choices.
    ``one_stream``: the bots draw from chance's own stream, interleaved in the order of the
    steps (a game whose seeded logs predate the kit, kept byte for byte)."""
    match = Match(new_state, tuple(watched))
    if len(bots) != match.state.players:
        raise ValueError(f"{len(bots)} bots for {match.state.players} seats")
    chance = random.Random(seed)
    thinking = chance if one_stream else bot_rng(seed)
    state, steps = match.state, match.steps
    if check or match.seen:
        push = match.push
        while not state.is_over():
            if len(steps) >= MAX_STEPS:
                raise never_ended()
            seat = state.to_move()
            if seat == CHANCE:
                push(draw_chance(state, chance), check=False, seat=seat)
            else:
                push(bots[seat].choose(match, seat, thinking), check=check, seat=seat)
        return match
    # Match.push inlined, with nothing to check or watch: a call a step is a tenth of the
    # time of the fastest games pnp simulates. The step count is the loop's own (no len()
    # a step); MAX_STEPS bounds it.
    apply, append, emitted_by = state.apply, steps.append, match.emitted.append
    is_over, to_move, chance_seat = state.is_over, state.to_move, CHANCE
    choosers = [bot.choose for bot in bots]
    for turn in range(1, MAX_STEPS + 1):
        if is_over():
            return match
        seat = to_move()
        action = (draw_chance(state, chance) if seat == chance_seat
                  else choosers[seat](match, seat, thinking))
        emitted = apply(action)
        append(_new_tuple(Step, (seat, action)))
        if emitted:
            emitted_by((turn, emitted))
        elif emitted is None:
            raise no_events()
    if not is_over():
        raise never_ended()
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
    if type(action) is tuple:
        return [action_to_json(a) if type(a) is tuple else a for a in action]
    return action


def action_from_json(value: Any) -> Action:
    if isinstance(value, list):
        return tuple(action_from_json(v) for v in value)
    if not isinstance(value, Hashable):
        raise ValueError(f"an action is a number, a text or a list of them, not {value!r}")
    return value


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    out = {"scores": list(outcome.scores), "places": list(outcome.places),
           "ended_by": outcome.ended_by}
    if outcome.roles:  # a game without roles logs what it always did
        out["roles"] = list(outcome.roles)
    return out


def outcome_text(outcome: Any) -> str:
    """A logged outcome in words: each seat's score and place, and why the game ended."""
    if not isinstance(outcome, Mapping):
        return repr(outcome)
    scores, places = outcome.get("scores"), outcome.get("places")
    if not isinstance(scores, list) or not isinstance(places, list) or len(scores) != len(places):
        return json.dumps(outcome, ensure_ascii=False)
    seats = ", ".join(f"seat {seat} scored {score} (place {place})"
                      for seat, (score, place) in enumerate(zip(scores, places, strict=True)))
    return f"{seats}; ended by {outcome.get('ended_by')}"


def steps_json(match: Match) -> list[list[Any]]:
    """The steps as ``[seat, action]`` pairs (seat -1 for chance), JSON-ready."""
    return [[seat, action_to_json(action) if type(action) is tuple else action]
            for seat, action in match.steps]


def action_log(match: Match, header: Mapping[str, Any]) -> dict[str, Any]:
    """The log a match replays from: ``header`` (game, seed, players, bots, rules), the steps
    and, once over, the outcome."""
    log = {"format": LOG_FORMAT, **header, "steps": steps_json(match)}
    if match.state.is_over():
        log["outcome"] = outcome_json(outcome_of(match.state))
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
        reached = outcome_json(outcome_of(match.state))
        if recorded != reached:
            raise ValueError(f"the log's outcome ({outcome_text(recorded)}) is not the one the "
                             f"steps reach ({outcome_text(reached)})")
    return match



def log_difference(logged: Any, replayed: Any, path: str = "", ignore: tuple[str, ...] = ()) -> str | None:
    """Where a logged fact differs from the one the replay gives: the first path (``turns[3].
    placements[1].took``) with both values, or None when every fact agrees."""
    if isinstance(replayed, Mapping):
        if not isinstance(logged, Mapping):
            return f"{path or 'the log'}: expected an object, the log has {logged!r}"
        for key, value in replayed.items():
            if key in ignore:
                continue
            where = f"{path}.{key}" if path else str(key)
            if key not in logged:
                return f"{where}: missing from the log"
            found = log_difference(logged[key], value, where)
            if found:
                return found
        return None
    if isinstance(replayed, list):
        if not isinstance(logged, list) or len(logged) != len(replayed):
            return f"{path}: the log has {logged!r}, the rules give {replayed!r}"
        for i, (a, b) in enumerate(zip(logged, replayed, strict=True)):
            found = log_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    if logged != replayed or type(logged) is bool and type(replayed) is not bool:
        return f"{path}: the log has {logged!r}, the rules give {replayed!r}"
    return None


def replay_problems(new_state: Callable[[], State], log: Mapping[str, Any],
                    facts: Callable[[Match], Mapping[str, Any]]) -> list[str]:
    """What is wrong with a game's logged steps and facts, none when nothing: the steps pushed
    through the rules (the first illegal one named with its step and reason), the game over at
    the end, then every fact the log records compared with ``facts`` of the replay."""
    try:
        match = replay_log(new_state, log)
    except (ValueError, KeyError, TypeError) as exc:
        return [str(exc)]
    if not match.state.is_over():
        return [f"the game is not over after the log's {len(match.steps)} steps"]
    difference = log_difference(log, facts(match), ignore=("seed", "bots"))
    return [difference] if difference else []
