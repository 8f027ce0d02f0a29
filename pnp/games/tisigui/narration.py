"""The facts a tisigui narration template reads, from the events of a game's replayed steps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pnp.games.base import Sample
from pnp.games.facts import tie_groups
from pnp.games.kit import replay, steps_from_log
from pnp.games.tisigui.log import Action, BigRound
from pnp.games.tisigui.machine import TisiguiState
from pnp.games.tisigui.rules import (
    SetupRow,
    TisiguiRules,
    first_big_die,
    no_targets_points,
    setup_for,
    small_round_values,
)


def facts(sample: Sample) -> dict[str, Any]:
    """The played game's facts, from the big rounds the state machine emits as the log's
    steps are replayed (each a ``log.BigRound``, with every action's points)."""
    rules, log = sample.rules, sample.log
    n = log["players"]
    match = replay(lambda: TisiguiState(rules, n), steps_from_log(log))
    played: list[BigRound] = [event for _, event in match.events]
    state: TisiguiState = match.state  # type: ignore[assignment]
    ranking, places, winners = state.result()
    scores = list(state.scores)
    last_start = played[-1].start
    return {
        "players": n,
        "variant": log["variant"],
        "classic": log["variant"] == "classic",
        "setup": _setup(rules, n, setup_for(rules, n)),
        "rule": _rule(rules, n),
        "big_rounds": [_big_round(rules, n, number, big,
                                  played[number - 2].scores_after if number > 1 else (0,) * n,
                                  last=number == len(played))
                       for number, big in enumerate(played, start=1)],
        "scores": scores,
        "ranking": ranking,
        "places": places,
        "winners": winners,
        "ties": tie_groups(scores, ranking),
        "last_start": last_start,
        "clockwise": [(last_start + k) % n for k in range(n)],
    }


def _big_round(rules: TisiguiRules, n: int, number: int, big: BigRound,
               before: Sequence[int], last: bool) -> dict[str, Any]:
    """One big round's facts; ``before`` is the scores it began with."""
    ghost, start, end, turns = big.ghost, big.start, big.end, big.turns
    scores = list(before)  # running totals, action by action
    small_rounds: list[dict[str, Any]] = []
    left = [big.question_markers] * n if big.question_markers is not None else None
    for t, turn in enumerate(turns):
        seat = turn.seat
        if not small_rounds or small_rounds[-1]["number"] != turn.small_round:
            small_rounds.append({"number": turn.small_round, "value": turn.round_value,
                                 "turns": []})
        actions = []
        for a, action in enumerate(turn.actions):
            scores[seat] += action.points
            ends_it = t == len(turns) - 1 and a == len(turn.actions) - 1 and end != "rounds_out"
            actions.append(_action(action, seat, ghost, big.targets, scores[seat],
                                   end if ends_it else None))
        used = sum(1 for a in turn.actions if a.kind != "pass")
        if left is not None:
            left[seat] -= used
        small_rounds[-1]["turns"].append({
            "seat": seat,
            "ghost": seat == ghost,
            "actions": actions,
            "used": used,
            "left": None if left is None else left[seat],
            "passed": any(a.kind == "pass" for a in turn.actions),
            "skipped": not turn.actions,
        })
    return {
        "number": number,
        "die": big.big_die,
        "ender": turns[-1].seat if turns and end != "rounds_out" else None,
        "ghost": ghost,
        "targets": list(big.targets),
        "start": start,
        "order": [(start + k) % n for k in range(n)],
        "markers": big.question_markers,
        "small_rounds": small_rounds,
        "end": end,
        "confirmed": list(big.confirmed),
        "unconfirmed": [s for s in big.targets if s not in big.confirmed],
        "ghost_points": big.ghost_points,
        "roll": big.roll,
        "outcome": _outcome(rules, big.big_die, big.roll, last),
        "last": last,
        "points": [after - b for after, b in zip(big.scores_after, before, strict=True)],
        "scores": list(big.scores_after),
    }


def _outcome(rules: TisiguiRules, die: int, roll: int | None, last: bool) -> str:
    """How the big round's end decides whether the game goes on."""
    if die <= 1:
        return "die_one"
    if roll is not None:
        return "end" if roll > die else "continue"
    if not rules.end_roll:
        return "no_end_roll_last" if last else "no_end_roll"
    return "too_high"


def _action(action: Action, seat: int, ghost: int, targets: Sequence[int], total: int,
            ends: str | None) -> dict[str, Any]:
    """One action's facts: ``total`` is the seat's score after it, ``ends`` how it ended the
    big round (None if it did not)."""
    named = list(action.named)
    truth = action.truth
    return {
        "kind": action.kind,
        "question": None if action.question is None else action.question.to_json(),
        "named": named,
        "answer": action.answer,
        "truth": truth,
        "lie": seat == ghost and truth is not None and action.answer != truth,
        "points": action.points,
        "not_targets": [s for s in named if s not in targets],
        "confirms": list(action.confirms or ()),
        "total": total,
        "ends": ends,
    }


def _setup(rules: TisiguiRules, n: int, row: SetupRow) -> dict[str, Any]:
    return {
        "big_die": first_big_die(rules, n),
        "small_rounds": row.small_rounds,
        "round_values": list(small_round_values(rules, n)),
        "markers": row.question_markers if rules.use_question_markers else None,
    }


def _rule(rules: TisiguiRules, n: int) -> dict[str, Any]:
    return {
        "times_named": rules.naming_times_named,
        "no_targets_per_player": rules.no_targets_per_player,
        "no_targets_points": no_targets_points(rules, n),
        "ghost_per_player": rules.ghost_per_player,
        "ghost_per_confirmed": rules.ghost_per_confirmed,
        "small_die": rules.small_die_sides,
        "big_die": rules.big_die_sides,
        "end_roll": rules.end_roll,
        "actions": list(rules.actions_per_turn),
        "start_rolled": rules.start_player == "rolled",
        "ties_shared": rules.ties == "shared",
    }
