"""What pnp simulate keeps of one tisigui game, and the game's own report sections."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from pnp.games.base import Plan, Summary
from pnp.games.stats import counted, fmt_stats, pct, share, stats


def summarise(log: Mapping[str, Any], rules: Any, plan: Plan) -> Summary:
    n = log["players"]
    tokens = plan.supply.get("score_tokens")
    scores = [0] * n
    peak_tokens = 0
    short = False
    ends: Counter[str] = Counter()
    ghost_points, other_points, ghost_top = [], [], 0.0
    turns = small_rounds = actions = markers_played = 0

    def check_tokens() -> None:
        nonlocal peak_tokens, short
        if tokens:
            count = _min_tokens(scores, tokens)
            if count is None:
                short = True
            else:
                peak_tokens = max(peak_tokens, count)

    for big in log["big_rounds"]:
        ends[big["end"]] += 1
        points = [0] * n
        turns += len(big["turns"])
        small_rounds += len({t["small_round"] for t in big["turns"]})
        played = 0
        for turn in big["turns"]:
            for action in turn["actions"]:
                actions += 1
                played += action["kind"] != "pass"
                if action["points"]:
                    scores[turn["seat"]] += action["points"]
                    points[turn["seat"]] += action["points"]
                    check_tokens()
        markers_played = max(markers_played, played)
        ghost = big["ghost"]
        if big["ghost_points"]:
            scores[ghost] += big["ghost_points"]
            points[ghost] += big["ghost_points"]
            check_tokens()
        ghost_points.append(points[ghost])
        others = [points[s] for s in range(n) if s != ghost]
        other_points.append(sum(others) / len(others))
        top = max(points)
        if top > 0 and points[ghost] == top:
            ghost_top += 1 / points.count(top)
    last = log["big_rounds"][-1]
    if last["big_die"] <= 1:
        game_end = "die_at_1"
    elif last["roll"] is not None:
        game_end = "roll_above_die"
    else:
        game_end = "big_rounds_out"
    markers = log["big_rounds"][0].get("question_markers")
    return {
        "length": {"big_rounds": len(log["big_rounds"]), "small_rounds": small_rounds,
                   "turns": turns, "actions": actions},
        "scores": list(log["scores"]),
        "winners": list(log.get("winners") or [log["ranking"][0]]),
        "ends": dict(ends),
        "game_end": game_end,
        "roles": {"ghost_points": ghost_points, "other_points": other_points,
                  "ghost_top": ghost_top},
        "supply": {"markers_handed_out": n * markers if markers is not None else None,
                   "markers_played": markers_played, "score_tokens": peak_tokens,
                   "score_tokens_short": short},
    }


def report_sections(plan: Plan, rules: Any, summaries: Sequence[Summary]) -> dict[str, Any]:
    total = len(summaries)
    ghost = [p for s in summaries for p in s["roles"]["ghost_points"]]
    other = [p for s in summaries for p in s["roles"]["other_points"]]
    big_rounds = len(ghost)
    tokens = plan.supply.get("score_tokens")
    handed = summaries[0]["supply"]["markers_handed_out"]
    return {
        "game_end": counted(Counter(s["game_end"] for s in summaries), total),
        "roles": {
            "unit": "big round",
            "ghost": {"points": stats(ghost),
                      "top_scorer_share": share(sum(s["roles"]["ghost_top"] for s in summaries),
                                                 big_rounds)},
            "others": {"points_per_player": stats(other)},
            "fair_top_scorer_share": share(1, plan.players),
        },
        "supply": {
            "question_markers": {
                "supply": rules.question_marker_supply if rules.use_question_markers else None,
                "handed_out_per_big_round": handed,
                "most_played_in_a_big_round": max(s["supply"]["markers_played"]
                                                   for s in summaries),
            },
            "score_tokens": None if not tokens else {
                "supply": {str(value): count for value, count in tokens},
                "peak_in_use": stats([s["supply"]["score_tokens"] for s in summaries]),
                "games_short": share(sum(s["supply"]["score_tokens_short"] for s in summaries),
                                      total),
            },
        },
    }


def role_lines(roles: Mapping[str, Any]) -> list[str]:
    g = roles["ghost"]
    return [f"  ghost points           {fmt_stats(g['points'])}",
            f"  other players' points  {fmt_stats(roles['others']['points_per_player'])}",
            f"  ghost top scorer       {pct(g['top_scorer_share'])} of big rounds "
            f"(an even share is {pct(roles['fair_top_scorer_share'])})"]


def supply_lines(data: Mapping[str, Any]) -> list[str]:
    supply = data["supply"]
    q = supply["question_markers"]
    lines = [f"  question markers       {q['handed_out_per_big_round']} handed out per big "
             f"round of {q['supply']}; at most {q['most_played_in_a_big_round']} played in one"]
    tokens = supply["score_tokens"]
    if tokens:
        kinds = ", ".join(f"{c}×{v}" for v, c in tokens["supply"].items())
        lines.append(f"  score tokens ({kinds}): peak in use "
                     f"{fmt_stats(tokens['peak_in_use'])}; "
                     f"supply short in {pct(tokens['games_short'])} of games")
    return lines


def _min_tokens(scores: Sequence[int], supply: Sequence[tuple[int, int]]) -> int | None:
    """Fewest score tokens showing every score at once, or None when the supply cannot.

    Tokens are made change for freely during play, so only the current scores matter. The
    greedy count is exact for a canonical set such as 50/10/5/1 when the supply suffices;
    otherwise a small search over the shared supply decides.
    """
    return _min_tokens_cached(tuple(sorted(scores)), tuple(supply))


@cache
def _min_tokens_cached(scores: tuple[int, ...], supply: tuple[tuple[int, int], ...]) -> int | None:
    need = [0] * len(supply)
    for score in scores:
        left = score
        for i, (value, _) in enumerate(supply):
            need[i] += left // value
            left %= value
        if left:
            return None  # no token small enough (a designer's supply without 1s)
    if all(n <= count for n, (_, count) in zip(need, supply, strict=True)):
        return sum(need)
    # Greedy overdraws a denomination: search the ways to pay each player from what is left.
    best: dict[tuple[int, ...], int] = {tuple(count for _, count in supply): 0}
    for score in scores:
        nxt: dict[tuple[int, ...], int] = {}
        for left_supply, used in best.items():
            for pay in _payments(score, supply, left_supply):
                state = tuple(c - p for c, p in zip(left_supply, pay, strict=True))
                total = used + sum(pay)
                if total < nxt.get(state, total + 1):
                    nxt[state] = total
        if not nxt:
            return None
        best = nxt
    return min(best.values())


def _payments(score: int, supply: Sequence[tuple[int, int]],
              left: Sequence[int]) -> Iterable[tuple[int, ...]]:
    def rec(i: int, rest: int) -> Iterable[tuple[int, ...]]:
        if i == len(supply):
            if rest == 0:
                yield ()
            return
        value = supply[i][0]
        for k in range(min(left[i], rest // value), -1, -1):
            for tail in rec(i + 1, rest - k * value):
                yield (k, *tail)

    return rec(0, score)
