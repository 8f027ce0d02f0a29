"""What pnp simulate keeps of one wurenshenghuan game, and the game's own report sections."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.base import Plan, Summary
from pnp.games.stats import counted, fmt_stats, pct, share, stats


def summarise(log: Mapping[str, Any], rules: Any, plan: Plan) -> Summary:
    final = log["final"]
    points = [f["points"] for f in final]
    murderer = log["murderer"]
    best = max(points)
    winners = [s for s, p in enumerate(points) if p == best]
    innocents = [f for f in final if f["role"] != "murderer"]
    guesses = log["guesses"]
    return {
        "length": {"days": len(log["nights"]), "day_phases": len(log["days"])},
        "scores": points,
        "winners": winners,
        "seat_roles": [f["role"] for f in final],
        "ends": {log["end"]: 1},
        "roles": {
            "murderer": murderer,
            "murderer_points": points[murderer],
            "kills": log["kills"],
            "feigned": any(n["feigned"] for n in log["nights"]),
            "guesses": len(guesses),
            "correct": sum(1 for g in guesses if g["correct"]),
            "guess_days": [g["day"] for g in guesses],
            "innocents": len(innocents),
            "survivors": sum(1 for f in innocents if f["survival_points"]),
            "actions": dict(Counter(n["action"] for n in log["nights"])),
            "decisions": dict(Counter(d["decision"] for d in log["days"])),
        },
        "supply": {"pile_left": log["nights"][-1]["pile_left"],
                   "key_discarded": any("KEY" in n["discarded"] for n in log["nights"])},
    }


def report_sections(plan: Plan, rules: Any,
                             summaries: Sequence[Summary]) -> dict[str, Any]:
    total = len(summaries)
    roles = [s["roles"] for s in summaries]
    murderer_wins = 0.0
    other_wins = 0.0
    for s in summaries:
        winners = s["winners"]
        m = s["roles"]["murderer"]
        murderer_wins += (1 / len(winners)) if m in winners else 0
        other_wins += sum(1 / len(winners) for w in winners if w != m)
    innocents = sum(r["innocents"] for r in roles)
    guesses = sum(r["guesses"] for r in roles)
    actions: Counter[str] = Counter()
    decisions: Counter[str] = Counter()
    for r in roles:
        actions.update(r["actions"])
        decisions.update(r["decisions"])
    return {
        "roles": {
            "unit": "game",
            "murderer": {"points": stats([r["murderer_points"] for r in roles]),
                         "win_share": share(murderer_wins, total),
                         "kills": stats([r["kills"] for r in roles]),
                         "feigned_death_games": share(sum(r["feigned"] for r in roles), total),
                         "night_actions": counted(actions, sum(actions.values()))},
            "others": {"points": stats([p for s in summaries for i, p in enumerate(s["scores"])
                                         if i != s["roles"]["murderer"]]),
                       "win_share": share(other_wins, total),
                       "guessed": share(guesses, innocents),
                       "guessed_right": share(sum(r["correct"] for r in roles), innocents),
                       "guess_day": stats([d for r in roles for d in r["guess_days"]]),
                       "survival_bonus": share(sum(r["survivors"] for r in roles), innocents),
                       "day_decisions": counted(decisions, sum(decisions.values()))},
            "fair_win_share_per_player": share(1, plan.players),
        },
        "supply": {
            "item_pile": {"size": rules.pile_size,
                          "left_at_end": stats([s["supply"]["pile_left"] for s in summaries]),
                          "games_emptied": share(sum(s["supply"]["pile_left"] == 0
                                                      for s in summaries), total)},
            "key_discarded_games": share(sum(s["supply"]["key_discarded"] for s in summaries),
                                          total),
        },
    }


def role_lines(roles: Mapping[str, Any]) -> list[str]:
    m, o = roles["murderer"], roles["others"]
    return [f"  murderer wins          {pct(m['win_share'])} (an even share per player is "
            f"{pct(roles['fair_win_share_per_player'])})",
            f"  murderer points        {fmt_stats(m['points'])}",
            f"  real kills             {fmt_stats(m['kills'])}",
            f"  feigned death          {pct(m['feigned_death_games'])} of games",
            f"  others win             {pct(o['win_share'])}",
            f"  others' points         {fmt_stats(o['points'])}",
            f"  guessed / right        {pct(o['guessed'])} / {pct(o['guessed_right'])}",
            f"  guess day              {fmt_stats(o['guess_day'])}",
            f"  survival bonus         {pct(o['survival_bonus'])} of other players"]


def supply_lines(data: Mapping[str, Any]) -> list[str]:
    supply = data["supply"]
    pile = supply["item_pile"]
    return [f"  item pile ({pile['size']})        left at the end "
            f"{fmt_stats(pile['left_at_end'])}; emptied in {pct(pile['games_emptied'])}",
            f"  key discarded          {pct(supply['key_discarded_games'])} of games"]
