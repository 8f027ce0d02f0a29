"""The few moments of a seeded game the rulebook's worked example is written from: who
scored what and why, how the game ended, a tie broken, as plain values the template words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Facts = Mapping[str, Any]


def _named(names: Sequence[str], seats: Sequence[int]) -> list[str]:
    return [names[s] for s in seats]


def example_moments(f: Facts, names: Sequence[str]) -> dict[str, Any]:
    n = f["players"]
    rounds = []
    for big in f["big_rounds"]:
        ghost = big["ghost"]
        scorers = [{"name": names[s], "points": big["points"][s]}
                   for s in range(n) if s != ghost and big["points"][s]]
        lies = [a for sr in big["small_rounds"] for t in sr["turns"] if t["ghost"]
                for a in t["actions"] if a["lie"]]
        rounds.append({
            "number": big["number"], "die": big["die"], "ghost": names[ghost],
            "targets": len(big["targets"]), "self_target": ghost in big["targets"],
            "start": names[big["start"]], "scorers": scorers, "end": big["end"],
            "ender": None if big["ender"] is None else names[big["ender"]],
            "confirmed": len(big["confirmed"]), "unconfirmed": len(big["unconfirmed"]),
            "ghost_points": big["ghost_points"], "roll": big["roll"], "outcome": big["outcome"],
            "ghost_lied": bool(lies),
        })
    scores = f["scores"]
    winner = f["ranking"][0]
    tie = next((g for g in f["ties"] if winner in g), None)
    return {
        "players": n,
        "names": list(names),
        "rounds": rounds,
        "scores": [{"name": names[s], "points": scores[s]} for s in f["ranking"]],
        "winner": names[winner],
        "tie": None if tie is None else {
            "names": _named(names, tie), "points": scores[winner],
            "start": names[f["last_start"]], "clockwise": _named(names, f["clockwise"])},
    }
