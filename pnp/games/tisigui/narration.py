"""The facts a tisigui narration template reads, from a game's event log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.base import Sample
from pnp.games.facts import tie_groups
from pnp.games.tisigui.rules import (
    SetupRow,
    TisiguiRules,
    first_big_die,
    no_targets_points,
    setup_for,
    small_round_values,
)


def facts(sample: Sample) -> dict[str, Any]:
    rules, game_log = sample.rules, sample.log
    n = game_log["players"]
    scores = [0] * n  # running totals, kept up to date action by action
    big_rounds = []
    die = first_big_die(rules, n)
    played = game_log["big_rounds"]
    for number, big in enumerate(played, start=1):
        big_rounds.append(_big_round(rules, n, number, big, die, scores, last=number == len(played)))
        die -= 1
    if scores != game_log["scores"]:
        raise ValueError(f"narrated scores {scores} differ from the log's {game_log['scores']}")
    last_start = played[-1]["start"]
    return {
        "players": n,
        "variant": game_log["variant"],
        "classic": game_log["variant"] == "classic",
        "setup": _setup(rules, n, setup_for(rules, n)),
        "rule": _rule(rules, n),
        "big_rounds": big_rounds,
        "scores": scores,
        "ranking": list(game_log["ranking"]),
        "places": list(game_log.get("places") or _places(scores, game_log["ranking"])),
        "winners": list(game_log.get("winners") or [game_log["ranking"][0]]),
        "ties": tie_groups(scores, game_log["ranking"]),
        "last_start": last_start,
        "clockwise": [(last_start + k) % n for k in range(n)],
    }


def _big_round(rules: TisiguiRules, n: int, number: int, big: Mapping[str, Any], die: int,
               scores: list[int], last: bool) -> dict[str, Any]:
    """One big round's facts; adds what it scored to ``scores``."""
    ghost, start = big["ghost"], big["start"]
    targets = list(big["targets"])
    points = [0] * n
    turns = big["turns"]
    small_rounds = _small_rounds(big, n, scores, points)
    scores[ghost] += big["ghost_points"]
    points[ghost] += big["ghost_points"]
    if "scores_after" in big and big["scores_after"] != scores:
        raise ValueError(f"big round {number}: narrated scores {scores} differ from the log's "
                         f"{big['scores_after']}")
    return {
        "number": number,
        "die": big["big_die"],
        "ender": turns[-1]["seat"] if turns and big["end"] != "rounds_out" else None,
        "ghost": ghost,
        "targets": targets,
        "start": start,
        "order": [(start + k) % n for k in range(n)],
        "markers": big.get("question_markers"),
        "small_rounds": small_rounds,
        "end": big["end"],
        "confirmed": list(big["confirmed"]),
        "unconfirmed": [s for s in targets if s not in big["confirmed"]],
        "ghost_points": big["ghost_points"],
        "roll": big["roll"],
        "outcome": _outcome(rules, die, big["roll"], last),
        "last": last,
        "points": points,
        "scores": list(scores),
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


def _small_rounds(big: Mapping[str, Any], n: int, scores: list[int],
                  points: list[int]) -> list[dict[str, Any]]:
    """A big round's turns grouped by small round; adds each action's points to ``scores``
    and ``points``."""
    ghost = big["ghost"]
    targets = list(big["targets"])
    markers = big.get("question_markers")
    left = [markers] * n if markers is not None else None
    small_rounds: list[dict[str, Any]] = []
    turns = big["turns"]
    for t, turn in enumerate(turns):
        seat = turn["seat"]
        if not small_rounds or small_rounds[-1]["number"] != turn["small_round"]:
            small_rounds.append({"number": turn["small_round"], "value": turn["round_value"],
                                 "turns": []})
        actions = []
        for a, action in enumerate(turn["actions"]):
            scores[seat] += action["points"]
            points[seat] += action["points"]
            ends_it = t == len(turns) - 1 and a == len(turn["actions"]) - 1
            actions.append(_action(action, seat, ghost, targets, scores[seat],
                                   big["end"] if ends_it and big["end"] != "rounds_out" else None))
        used = sum(1 for a in turn["actions"] if a["kind"] != "pass")
        if left is not None:
            left[seat] -= used
        small_rounds[-1]["turns"].append({
            "seat": seat,
            "ghost": seat == ghost,
            "actions": actions,
            "used": used,
            "left": None if left is None else left[seat],
            "passed": any(a["kind"] == "pass" for a in turn["actions"]),
            "skipped": not turn["actions"],
        })
    return small_rounds


def _action(action: Mapping[str, Any], seat: int, ghost: int, targets: Sequence[int], total: int,
            ends: str | None) -> dict[str, Any]:
    """One action's facts: ``total`` is the seat's score after it, ``ends`` how it ended the
    big round (None if it did not)."""
    named = list(action["named"])
    truth = action.get("truth")
    return {
        "kind": action["kind"],
        "question": action.get("question"),
        "named": named,
        "answer": action["answer"],
        "truth": truth,
        "lie": seat == ghost and truth is not None and action["answer"] != truth,
        "points": action["points"],
        "not_targets": [s for s in named if s not in targets],
        "confirms": list(action.get("confirms", [])),
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


def _places(scores: Sequence[int], ranking: Sequence[int]) -> list[int]:
    places = [0] * len(scores)
    for place, seat in enumerate(ranking, start=1):
        places[seat] = place
    return places
