"""The few moments of a seeded game the rulebook's worked example is written from: who
scored what and why, how the game ended, a tie broken, as plain values the template words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.niutouwang.rules import NiutouwangRules
from pnp.games.niutouwang.scoring import punish

Facts = Mapping[str, Any]

# The rulebook's SP example starts from these penalties (seats 1–5), chosen so that two players
# tie; who is hit how often, by whom and with a larger base is the engine's punish().
SP_EXAMPLE = (8, 15, 3, 15, 22)


def _sp_order(penalties: Sequence[int], base: int) -> list[dict[str, Any]]:
    """The SP ending of ``penalties`` as the queue reads it: seat, partner, hits and hitter."""
    result = punish(NiutouwangRules(), penalties, base=base, paired=True)
    order = sorted(result, key=lambda p: (p.penalty, p.seat))
    n = len(order)
    return [{"seat": p.seat, "penalty": p.penalty, "rank": k + 1,
             "partner": order[n - 1 - k].seat, "hits": p.hits, "hitter": p.hitter}
            for k, p in enumerate(order)]


def sp_example(base: int) -> dict[str, Any]:
    """The rulebook's SP example under the rules' base: the queue, the tie it breaks and how
    the queue reads with the tied seats swapped, and the hits with a base one larger."""
    penalties = list(SP_EXAMPLE)
    tied = next(([a, b] for a in range(len(penalties)) for b in range(a + 1, len(penalties))
                 if penalties[a] == penalties[b]), None)
    swapped = None
    if tied is not None:
        # Tied players who swap seats swap places in the queue: the queue by seat is the same,
        # the person in each tied place is the other one.
        a, b = tied
        swapped = [{"person": b if p["seat"] == a else a, "rank": p["rank"], "hits": p["hits"]}
                   for p in _sp_order(penalties, base) if p["seat"] in tied]
    return {"penalties": penalties, "base": base, "queue": _sp_order(penalties, base),
            "tied": tied, "swapped": swapped, "bigger_base": base + 1,
            "bigger": _sp_order(penalties, base + 1)}


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
        "sp_example": sp_example(f["base"]),
    }
