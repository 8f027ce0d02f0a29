"""The few moments of a seeded game the rulebook's worked example is written from: who
scored what and why, how the game ended, a tie broken, as plain values the template words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Facts = Mapping[str, Any]


def _named(names: Sequence[str], seats: Sequence[int]) -> list[str]:
    return [names[s] for s in seats]


def example_moments(f: Facts, names: Sequence[str]) -> dict[str, Any]:
    first_sixth = first_low = None
    turns = [t for r in f["rounds"] for t in r["turns"]]
    for turn in turns:
        for p in turn["placements"]:
            moment = {"turn": turn["number"], "name": names[p["seat"]], "card": p["card"],
                      "row": p["row"] + 1, "after": p["after"], "took": list(p["took"]),
                      "heads": p["sum"], "fewest": p["fewest"]}
            if p["kind"] == "sixth" and first_sixth is None:
                first_sixth = moment
            if p["kind"] == "low" and first_low is None:
                first_low = moment
    penalties = f["penalties"]
    return {
        "players": f["players"],
        "names": list(names),
        "hand_size": f["hand_size"],
        "base": f["base"],
        "turns": len(turns),
        "first_turn": None if not turns else {
            "plays": sorted(turns[0]["plays"]),
            "order": _named(names, turns[0]["order"])},
        "first_sixth": first_sixth,
        "first_low": first_low,
        "standing": [{"name": names[s], "heads": penalties[s], "cards": f["taken"][s]}
                     for s in f["order"]],
        "punishment": [{"name": names[p["seat"]], "rank": p["rank"], "penalty": p["penalty"],
                        "partner": names[p["partner"]], "partner_penalty": p["partner_penalty"],
                        "hits": p["hits"]} for p in f["punishment"]],
        "winners": _named(names, f["winners"]),
    }
