"""The few moments of a seeded game the rulebook's worked example is written from: who
scored what and why, how the game ended, a tie broken, as plain values the template words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Facts = Mapping[str, Any]


def example_moments(f: Facts, names: Sequence[str]) -> dict[str, Any]:
    murderer = f["murderer"]
    by_seat = {entry["seat"]: entry for entry in f["final"]}
    guesses = []
    for day in f["days"]:
        for guess in day["guesses"]:
            seat = guess["seat"]
            guesses.append({"name": names[seat], "day": guess["day"],
                            "character": guess["character"], "correct": guess["correct"],
                            "points": by_seat[seat]["guess_points"],
                            "before_death": by_seat[seat]["before_death"]})
    final = [{"name": names[s], "points": by_seat[s]["points"], "alive": by_seat[s]["alive"],
              "guess_points": by_seat[s]["guess_points"],
              "survival_points": by_seat[s]["survival_points"],
              "murderer": s == murderer} for s in f["order"]]
    band = by_seat[murderer]["band"]
    return {
        "players": f["players"],
        "names": list(names),
        "murderer": names[murderer],
        "own": f["own"],
        "own_name": f["character_names"][f["own"]],
        "days": len(f["days"]),
        "killed_per_night": [len(d["night"]["real"]) for d in f["days"]],
        "imprisoned_per_day": [len(d["day"]["imprisoned"]) if d["day"] else 0 for d in f["days"]],
        "kills": f["kills"],
        "band": band,
        "end": f["end"],
        "guesses": guesses,
        "wrong": [g for g in guesses if not g["correct"]],
        "right": [g for g in guesses if g["correct"]],
        "final": final,
        "winner": names[f["order"][0]],
    }
