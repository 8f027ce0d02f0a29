"""What pnp simulate keeps of one niutouwang game, and the game's own report sections."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.base import Plan, Summary
from pnp.games.niutouwang.tables import total_heads
from pnp.games.stats import fmt_stats, stats


def summarise(log: Mapping[str, Any], rules: Any, plan: Plan) -> Summary:
    n = log["players"]
    rounds = log["rounds"] if log["variant"] == "official" else [log]
    taken = [0] * n
    biggest_take = biggest_heads = turns = 0
    for rnd in rounds:
        turns += len(rnd["turns"])
        for turn in rnd["turns"]:
            for p in turn["placements"]:
                if p["took"]:
                    taken[p["seat"]] += len(p["took"])
                    biggest_take = max(biggest_take, len(p["took"]))
                    biggest_heads = max(biggest_heads, total_heads(rules, p["took"]))
    punishment = log.get("punishment") or []
    return {
        "length": {"rounds": len(rounds), "turns": turns},
        "scores": list(log["penalties"]),
        "winners": list(log["winners"]),
        "ends": {log.get("end") or "hands_played_out": 1},
        "roles": {},
        "supply": {"most_cards_taken": max(taken), "cards_taken": taken,
                   "biggest_take_cards": biggest_take, "biggest_take_heads": biggest_heads,
                   "most_hits": max((p["hits"] for p in punishment), default=None)},
    }


def report_sections(plan: Plan, rules: Any, summaries: Sequence[Summary]) -> dict[str, Any]:
    hits = [s["supply"]["most_hits"] for s in summaries if s["supply"]["most_hits"] is not None]
    return {
        "supply": {
            "most_cards_taken": stats([s["supply"]["most_cards_taken"] for s in summaries]),
            "cards_taken_per_player": stats([c for s in summaries
                                              for c in s["supply"]["cards_taken"]]),
            "biggest_single_take": {
                "cards": stats([s["supply"]["biggest_take_cards"] for s in summaries]),
                "heads": stats([s["supply"]["biggest_take_heads"] for s in summaries]),
            },
            "most_hits": stats(hits) if hits else None,
        },
    }


def supply_lines(data: Mapping[str, Any]) -> list[str]:
    supply = data["supply"]
    lines = [f"  most cards taken       {fmt_stats(supply['most_cards_taken'])} (by one player)",
             f"  cards taken per player {fmt_stats(supply['cards_taken_per_player'])}",
             f"  biggest single take    cards {fmt_stats(supply['biggest_single_take']['cards'])}",
             f"                         heads {fmt_stats(supply['biggest_single_take']['heads'])}"]
    if supply["most_hits"]:
        lines.append(f"  most SP hits           {fmt_stats(supply['most_hits'])}")
    return lines
