"""What pnp simulate keeps of one aizhewudi game, and the game's own report sections."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.aizhewudi.play import markers_in_use
from pnp.games.base import Plan, Summary
from pnp.games.stats import fmt_stats, pct, share, stats


def summarise(log: Mapping[str, Any], rules: Any, plan: Plan) -> Summary:
    final = log["final"]
    winners = [log["winner"]] if log["winner"] is not None else list(log.get("shared") or [])
    bills = max(len(r["carried_in"]) + len(r["revealed"]) for r in log["rounds"])
    return {
        "length": {"rounds": len(log["rounds"])},
        "scores": [f["score"] for f in final if f["score"] is not None],
        "winners": winners,
        "ends": {log["end"]: 1},
        "roles": {"dealt": list(log.get("dealt") or []),
                  "eliminated": sum(1 for f in final if f["out"])},
        "supply": {**markers_in_use(log), "bills_on_table": bills, "lost": sum(log["lost"])},
    }


def report_sections(plan: Plan, rules: Any, summaries: Sequence[Summary]) -> dict[str, Any]:
    total = len(summaries)
    out: dict[str, Any] = {
        "supply": {
            **{f"{kind}_markers": {
                "supply": supply,
                "peak_in_use": stats([s["supply"][kind] for s in summaries]),
                "games_short": share(sum(s["supply"][kind] > supply for s in summaries), total),
            } for kind, supply in (("loved", rules.loved_markers), ("fickle", rules.fickle_markers))},
            "bills_on_table": stats([s["supply"]["bills_on_table"] for s in summaries]),
            "money_lost": stats([s["supply"]["lost"] for s in summaries]),
        },
        "eliminated_per_game": stats([s["roles"]["eliminated"] for s in summaries]),
    }
    if summaries[0]["roles"]["dealt"]:
        held: Counter[str] = Counter()
        won: dict[str, float] = {}
        for s in summaries:
            dealt = s["roles"]["dealt"]
            held.update(dealt)
            for seat in s["winners"]:
                won[dealt[seat]] = won.get(dealt[seat], 0) + 1 / len(s["winners"])
        out["roles"] = {"unit": "ability card",
                        "win_share_when_held": {a: share(won.get(a, 0), held[a]) for a in sorted(held)},
                        "fair_win_share": share(1, plan.players)}
    return out


def role_lines(roles: Mapping[str, Any]) -> list[str]:
    lines = [f"  {ability:<22} {pct(held_share)} of games won when held"
             for ability, held_share in roles["win_share_when_held"].items()]
    return lines + [f"  (an even share is {pct(roles['fair_win_share'])})"]


def supply_lines(data: Mapping[str, Any]) -> list[str]:
    supply = data["supply"]
    lines = []
    for key, label in (("loved_markers", "被愛 markers"), ("fickle_markers", "花心 markers")):
        m = supply[key]
        lines.append(f"  {label} ({m['supply']}): peak in use {fmt_stats(m['peak_in_use'])}; "
                     f"run out in {pct(m['games_short'])} of games")
    lines.append(f"  bills on the table     {fmt_stats(supply['bills_on_table'])}")
    lines.append(f"  money lost             {fmt_stats(supply['money_lost'], True)}")
    return lines
