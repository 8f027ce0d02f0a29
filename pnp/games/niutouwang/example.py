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


def _moments(f: Facts, names: Sequence[str]) -> list[dict[str, Any]]:
    """The placements the example tells, in the order they happened: the first card that took
    a row (whichever way), and the first sixth card and the first low card when another was
    first. ``firsts`` says what each is the first of; every such claim is read from the
    placements in the order the rules place them (turn by turn, lowest card first), never
    from the order a template happens to list kinds in."""
    firsts: dict[str, tuple[int, int]] = {}  # what -> (turn index, placement index)
    found: dict[tuple[int, int], dict[str, Any]] = {}
    for t, turn in enumerate(t for r in f["rounds"] for t in r["turns"]):
        for i, p in enumerate(turn["placements"]):
            for what, applies in (("take", bool(p["took"])), ("sixth", p["kind"] == "sixth"),
                                  ("low", p["kind"] == "low")):
                if applies and what not in firsts:
                    firsts[what] = (t, i)
                    found.setdefault((t, i), {
                        "turn": turn["number"], "name": names[p["seat"]], "card": p["card"],
                        "kind": p["kind"], "row": p["row"] + 1, "after": p["after"],
                        "took": list(p["took"]), "heads": p["sum"], "fewest": p["fewest"],
                        "firsts": []})["firsts"].append(what)
    moments = [found[at] for at in sorted(found)]
    for before, moment in zip([None, *moments], moments, strict=False):
        moment["same_turn"] = before is not None and before["turn"] == moment["turn"]
    return moments


def example_moments(f: Facts, names: Sequence[str]) -> dict[str, Any]:
    penalties = f["penalties"]
    return {
        "players": f["players"],
        "names": list(names),
        "hand_size": f["hand_size"],
        "base": f["base"],
        "turns": sum(len(r["turns"]) for r in f["rounds"]),
        "moments": _moments(f, names),
        "standing": [{"name": names[s], "heads": penalties[s], "cards": f["taken"][s]}
                     for s in f["order"]],
        "punishment": [{"name": names[p["seat"]], "rank": p["rank"], "penalty": p["penalty"],
                        "partner": names[p["partner"]], "partner_penalty": p["partner_penalty"],
                        "hits": p["hits"]} for p in f["punishment"]],
        "winners": _named(names, f["winners"]),
        "sp_example": sp_example(f["base"]),
    }
