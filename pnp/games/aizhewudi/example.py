"""The few moments of a seeded game the rulebook's worked example is written from: who
scored what and why, how the game ended, a tie broken, as plain values the template words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Facts = Mapping[str, Any]


def _named(names: Sequence[str], seats: Sequence[int]) -> list[str]:
    return [names[s] for s in seats]


def example_moments(f: Facts, names: Sequence[str]) -> dict[str, Any]:
    rounds = [{
        "number": r["number"], "table_sum": r["table_sum"], "sharers": len(r["sharers"]),
        "share": r["share"], "carried": r["carried_out_sum"],
        "eliminated": _named(names, r["eliminated"])} for r in f["rounds"]]
    split = next((r for r in f["rounds"] if r["share"] and r["carried_out_sum"]), None)
    by_seat = {entry["seat"]: entry for entry in f["final"]}
    standing = [{"name": names[s], "money": by_seat[s]["money"], "fickle": by_seat[s]["fickle"],
                 "penalty": by_seat[s]["penalty"], "loved": by_seat[s]["loved"],
                 "score": by_seat[s]["score"], "out": by_seat[s]["out"]} for s in f["order"]]
    return {
        "players": f["players"],
        "names": list(names),
        "rounds": rounds,
        "empty_rounds": [r["number"] for r in rounds if not r["share"]],
        "split": None if split is None else {
            "number": split["number"], "table_sum": split["table_sum"],
            "sharers": _named(names, split["sharers"]), "share": split["share"],
            "groups": [sum(g) for g in split["groups"]], "carried": split["carried_out_sum"]},
        "standing": standing,
        "end": f["end"],
        "winner": None if f["winner"] is None else names[f["winner"]],
        # Tied players in the order the tie-break ranks them.
        "ties": [{"names": _named(names, [s for s in f["order"] if s in t["seats"]]), "score": t["score"],
                  "by_fickle": t["by_fickle"], "by_loved": t["by_loved"],
                  "unbroken": t["unbroken"]} for t in f["ties"]],
    }
