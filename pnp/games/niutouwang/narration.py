"""The facts a niutouwang narration template reads, from a game's event log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.base import Sample
from pnp.games.facts import tie_groups
from pnp.games.niutouwang.tables import heads as card_heads
from pnp.games.niutouwang.tables import total_heads


def _niutouwang_hand(rules: Any, rows: list[list[int]], turns: Sequence[Mapping[str, Any]],
                     penalties: list[int], taken: list[int]) -> list[dict[str, Any]]:
    narrated = []
    rows = [list(r) for r in rows]
    for number, turn in enumerate(turns, start=1):
        placements = []
        for p in turn["placements"]:
            seat, card, index, took = p["seat"], p["card"], p["row"], list(p["took"])
            before = rows[index]
            ends = [r[-1] for r in rows]
            if all(card < e for e in ends):
                kind = "low"
                heads_by_row = [total_heads(rules, r) for r in rows]
                fewest = heads_by_row[index] == min(heads_by_row)
            else:
                kind = "sixth" if took else "append"
                fewest = False
            heads = [card_heads(rules, c) for c in took]
            penalties[seat] += sum(heads)
            taken[seat] += len(took)
            placements.append({
                "seat": seat, "card": card, "row": index, "kind": kind, "after": before[-1],
                "position": len(before) + 1, "took": took, "heads": heads,
                "sum": sum(heads), "fewest": fewest, "total": penalties[seat],
            })
            rows[index] = [card] if took else before + [card]
        if rows != [list(r) for r in turn["rows"]]:
            raise ValueError(f"turn {number}: narrated rows {rows} differ from the log's")
        narrated.append({
            "number": number,
            "plays": list(turn["plays"]),
            "order": [p["seat"] for p in turn["placements"]],
            "placements": placements,
            "rows": [{"cards": list(r), "heads": total_heads(rules, r)} for r in rows],
            "penalties": list(penalties),
        })
    return narrated


def facts(sample: Sample) -> dict[str, Any]:
    rules, game_log = sample.rules, sample.log
    n = game_log["players"]
    official = game_log["variant"] == "official"
    penalties = [0] * n
    taken = [0] * n
    rounds = []
    raw_rounds = game_log["rounds"] if official else [game_log]
    for number, rnd in enumerate(raw_rounds, start=1):
        before = list(penalties)
        turns = _niutouwang_hand(rules, rnd["rows"], rnd["turns"], penalties, taken)
        rounds.append({
            "number": number,
            "rows": [{"cards": list(r), "heads": total_heads(rules, r)} for r in rnd["rows"]],
            "hands": [list(h) for h in rnd["hands"]],
            "box": list(rnd["box"]),
            "turns": turns,
            "gained": [p - b for p, b in zip(penalties, before, strict=True)],
            "totals": list(penalties),
        })
    if penalties != list(game_log["penalties"]):
        raise ValueError(f"narrated penalties {penalties} differ from the log's")
    order = sorted(range(n), key=lambda s: (penalties[s], s))
    punishment = []
    if not official:
        by_seat = {p["seat"]: p for p in game_log["punishment"]}
        for k, seat in enumerate(order):
            partner = order[n - 1 - k]
            entry = by_seat[seat]
            punishment.append({"seat": seat, "rank": k + 1, "partner": partner,
                               "partner_penalty": penalties[partner], "hits": entry["hits"],
                               "hitter": entry["hitter"], "tie": entry["tie"],
                               "penalty": penalties[seat]})
    return {
        "players": n,
        "official": official,
        "hand_size": rules.hand_size(n),
        "row_count": rules.rows,
        "row_limit": rules.row_limit,
        "end_at": rules.official_end_at,
        "base": rules.base,
        "paired": rules.paired,
        "rounds": rounds,
        "penalties": penalties,
        "taken": taken,
        "order": order,
        "places": [1 + sum(1 for p in penalties if p < penalties[s]) for s in range(n)],
        "winners": list(game_log["winners"]),
        "ties": tie_groups(penalties, order),
        "punishment": punishment,
        "end": game_log.get("end"),
    }
