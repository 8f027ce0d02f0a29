"""The facts a tisigui narration template reads, from a game's event log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pnp.games.base import Sample
from pnp.games.facts import tie_groups
from pnp.games.tisigui.rules import first_big_die, no_targets_points, setup_for, small_round_values


def facts(sample: Sample) -> dict[str, Any]:
    rules, game_log = sample.rules, sample.log
    n = game_log["players"]
    row = setup_for(rules, n)
    scores = [0] * n
    big_rounds = []
    die = first_big_die(rules, n)
    for number, big in enumerate(game_log["big_rounds"], start=1):
        ghost, start = big["ghost"], big["start"]
        targets = list(big["targets"])
        markers = big.get("question_markers")
        left = [markers] * n if markers is not None else None
        points = [0] * n
        small_rounds: list[dict[str, Any]] = []
        confirmed: list[int] = []
        turns = big["turns"]
        for t, turn in enumerate(turns):
            seat = turn["seat"]
            if not small_rounds or small_rounds[-1]["number"] != turn["small_round"]:
                small_rounds.append({"number": turn["small_round"], "value": turn["round_value"],
                                     "turns": []})
            actions = []
            for a, action in enumerate(turn["actions"]):
                kind = action["kind"]
                named = list(action["named"])
                scores[seat] += action["points"]
                points[seat] += action["points"]
                confirmed.extend(action.get("confirms", []))
                truth = action.get("truth")
                last = t == len(turns) - 1 and a == len(turn["actions"]) - 1
                actions.append({
                    "kind": kind,
                    "question": action.get("question"),
                    "named": named,
                    "answer": action["answer"],
                    "truth": truth,
                    "lie": seat == ghost and truth is not None and action["answer"] != truth,
                    "points": action["points"],
                    "not_targets": [s for s in named if s not in targets],
                    "confirms": list(action.get("confirms", [])),
                    "total": scores[seat],
                    "ends": big["end"] if last and big["end"] != "rounds_out" else None,
                })
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
        scores[ghost] += big["ghost_points"]
        points[ghost] += big["ghost_points"]
        if "scores_after" in big and big["scores_after"] != scores:
            raise ValueError(f"big round {number}: narrated scores {scores} differ from the log's "
                             f"{big['scores_after']}")
        roll = big["roll"]
        last = number == len(game_log["big_rounds"])
        if die <= 1:
            outcome = "die_one"
        elif roll is not None:
            outcome = "end" if roll > die else "continue"
        elif not rules.end_roll:
            outcome = "no_end_roll_last" if last else "no_end_roll"
        else:
            outcome = "too_high"
        big_rounds.append({
            "number": number,
            "die": big["big_die"],
            "ender": turns[-1]["seat"] if turns and big["end"] != "rounds_out" else None,
            "ghost": ghost,
            "targets": targets,
            "start": start,
            "order": [(start + k) % n for k in range(n)],
            "markers": markers,
            "small_rounds": small_rounds,
            "end": big["end"],
            "confirmed": list(big["confirmed"]),
            "unconfirmed": [s for s in targets if s not in big["confirmed"]],
            "ghost_points": big["ghost_points"],
            "roll": roll,
            "outcome": outcome,
            "last": last,
            "points": points,
            "scores": list(scores),
        })
        die -= 1
    if scores != game_log["scores"]:
        raise ValueError(f"narrated scores {scores} differ from the log's {game_log['scores']}")
    last_start = game_log["big_rounds"][-1]["start"]
    return {
        "players": n,
        "variant": game_log["variant"],
        "classic": game_log["variant"] == "classic",
        "setup": {
            "big_die": first_big_die(rules, n),
            "small_rounds": row.small_rounds,
            "round_values": list(small_round_values(rules, n)),
            "markers": row.question_markers if rules.use_question_markers else None,
        },
        "rule": {
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
        },
        "big_rounds": big_rounds,
        "scores": scores,
        "ranking": list(game_log["ranking"]),
        "places": list(game_log.get("places") or _places(scores, game_log["ranking"])),
        "winners": list(game_log.get("winners") or [game_log["ranking"][0]]),
        "ties": tie_groups(scores, game_log["ranking"]),
        "last_start": last_start,
        "clockwise": [(last_start + k) % n for k in range(n)],
    }


def _places(scores: Sequence[int], ranking: Sequence[int]) -> list[int]:
    places = [0] * len(scores)
    for place, seat in enumerate(ranking, start=1):
        places[seat] = place
    return places
