"""Many bot games of one game, summed up the way a designer asks before a playtest.

Game ``i`` of a run is played with seed ``seed + i``, so every game is the same game as
``pnp sample GAME --seed <that seed>`` and a run gives the same report on every machine.
Games are played in chunks, in worker processes when the run is large; each game is reduced
to a small summary in the worker and the summaries are merged in seed order, so the number
of processes never changes a single number of the report.

Reports are plain JSON-ready mappings; their shape is documented in
docs/sample-and-simulate.md and must stay stable.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import cache
from typing import Any

from pnp.data.model import Game
from pnp.errors import PnpError
from pnp.narrate import (
    ADAPTERS,
    BOTS,
    adapter,
    check_variant,
    game_rules,
    load_game_data,
    resolve_players,
)
from pnp.workspace import Workspace

# Below this many games a worker pool costs more than it saves.
PARALLEL_FROM = 400
REPORT_VERSION = 1


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs to play its chunk: plain data, cheap to send to a process."""

    slug: str
    rules_mapping: Mapping[str, Any]
    variant: str | None
    players: int
    bots: str
    supply: Mapping[str, Any]


Summary = dict[str, Any]


# --------------------------------------------------------------------------------------------
# Supply read from card_data


def _supply(game: Game) -> dict[str, Any]:
    """Component counts the report compares peaks with (score tokens, markers)."""
    supply: dict[str, Any] = {}
    for component in game.components:
        values = []
        for card in component.cards:
            raw = card.fields.get("value")
            text = raw.value.replace(",", "").replace("$", "") if raw is not None else ""
            if not text.isdigit():
                values = []
                break
            values.append((int(text), card.count))
        if values and component.id == "score":
            supply["score_tokens"] = sorted(values, reverse=True)
    return supply


# --------------------------------------------------------------------------------------------
# Per-game summaries (run in the workers)


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


def _tisigui(log: Mapping[str, Any], rules: Any, plan: Plan) -> Summary:
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


def _wurenshenghuan(log: Mapping[str, Any], rules: Any, plan: Plan) -> Summary:
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


def _niutouwang(log: Mapping[str, Any], rules: Any, plan: Plan) -> Summary:
    from pnp.engines import niutouwang as engine

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
                    biggest_heads = max(biggest_heads, engine.total_heads(rules, p["took"]))
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


def _aizhewudi(log: Mapping[str, Any], rules: Any, plan: Plan) -> Summary:
    from pnp.engines import aizhewudi as engine

    peaks = engine.markers_in_use(log)
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
        "supply": {"loved": peaks["loved"], "fickle": peaks["fickle"],
                   "bills_on_table": bills, "lost": sum(log["lost"])},
    }


SUMMARIES: dict[str, Callable[[Mapping[str, Any], Any, Plan], Summary]] = {
    "tisigui": _tisigui,
    "wurenshenghuan": _wurenshenghuan,
    "niutouwang": _niutouwang,
    "aizhewudi": _aizhewudi,
}


def play_chunk(plan: Plan, first: int, count: int) -> list[Summary]:
    """Play seeds first .. first + count - 1 and summarise each game (a worker's job)."""
    engine = ADAPTERS[plan.slug]
    rules = engine.rules(plan.rules_mapping, plan.variant)
    summarise = SUMMARIES[plan.slug]
    out = []
    for seed in range(first, first + count):
        log = engine.play(rules, plan.players, seed, plan.variant, plan.bots)
        out.append(summarise(log, rules, plan))
    return out


# --------------------------------------------------------------------------------------------
# Running


def _chunks(seed: int, games: int, size: int) -> list[tuple[int, int]]:
    return [(seed + start, min(size, games - start)) for start in range(0, games, size)]


def run(plan: Plan, seed: int, games: int, jobs: int | None = None,
        progress: Callable[[int], None] | None = None) -> list[Summary]:
    """Every game's summary, in seed order; ``progress(n)`` after each finished chunk."""
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    if jobs <= 1 or games < PARALLEL_FROM:
        size = max(1, min(100, games))
        out: list[Summary] = []
        for first, count in _chunks(seed, games, size):
            out.extend(play_chunk(plan, first, count))
            if progress:
                progress(count)
        return out
    # Small chunks keep the progress bar moving and the workers evenly loaded.
    size = max(20, min(250, games // (jobs * 8)))
    chunks = _chunks(seed, games, size)
    results: list[list[Summary] | None] = [None] * len(chunks)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(play_chunk, plan, first, count): i
                   for i, (first, count) in enumerate(chunks)}
        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            if progress:
                progress(chunks[i][1])
    return [summary for chunk in results if chunk is not None for summary in chunk]


def simulate(workspace: Workspace, slug: str, games: int = 1000, players: int | None = None,
             seed: int = 1, variant: str | None = None, bots: str = "greedy",
             jobs: int | None = None, progress: Callable[[int], None] | None = None,
             game: Game | None = None) -> dict[str, Any]:
    """Play ``games`` bot games (seeds seed, seed + 1, ...) and report on them."""
    if games < 1:
        raise PnpError(f"--games must be at least 1, got {games}")
    if bots not in BOTS:
        raise PnpError(f"unknown bots {bots!r} (expected one of: {', '.join(BOTS)})")
    adapter(slug)
    game = game or load_game_data(workspace, slug)
    variant = check_variant(slug, variant)
    rules = game_rules(game, variant)
    count = resolve_players(game, rules, players)
    plan = Plan(slug, _plain(game.info.rules), variant, count, bots, _supply(game))
    summaries = run(plan, seed, games, jobs, progress)
    return report(plan, rules, seed, summaries)


def _plain(value: Any) -> Any:
    """Plain dicts and lists: the loader's read-only mappings cannot be sent to a process."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


# --------------------------------------------------------------------------------------------
# The report


def _stats(values: Sequence[float]) -> dict[str, float | int | None]:
    if not values:
        return {"mean": None, "min": None, "max": None}
    return {"mean": _round(sum(values) / len(values)), "min": min(values), "max": max(values)}


def _round(value: float) -> float:
    return round(value, 4)


def _share(count: float, total: int) -> float:
    return _round(count / total) if total else 0.0


def _counted(counter: Mapping[str, float], total: int) -> dict[str, dict[str, float]]:
    return {key: {"count": counter[key], "share": _share(counter[key], total)}
            for key in sorted(counter)}


def _wins(summaries: Sequence[Summary], players: int) -> dict[str, Any]:
    """A shared win counts as 1/k of a win for each of the k winners."""
    by_seat = [0.0] * players
    shared = none = 0
    for s in summaries:
        winners = s["winners"]
        if not winners:
            none += 1
            continue
        if len(winners) > 1:
            shared += 1
        for seat in winners:
            by_seat[seat] += 1 / len(winners)
    total = len(summaries)
    return {"by_seat": [_share(w, total) for w in by_seat],
            "shared_games": _share(shared, total), "no_winner_games": _share(none, total)}


def report(plan: Plan, rules: Any, seed: int, summaries: Sequence[Summary]) -> dict[str, Any]:
    total = len(summaries)
    length_keys = list(summaries[0]["length"])
    all_scores = [v for s in summaries for v in s["scores"]]
    spreads = [max(s["scores"]) - min(s["scores"]) for s in summaries if s["scores"]]
    ends: Counter[str] = Counter()
    for s in summaries:
        ends.update(s["ends"])
    lower_wins = plan.slug == "niutouwang"
    winning = [(min if lower_wins else max)(s["scores"]) for s in summaries if s["scores"]]
    out: dict[str, Any] = {
        "version": REPORT_VERSION,
        "game": plan.slug,
        "variant": plan.variant,
        "players": plan.players,
        "bots": plan.bots,
        "games": total,
        "seeds": {"first": seed, "last": seed + total - 1},
        "length": {key: _stats([s["length"][key] for s in summaries]) for key in length_keys},
        "scores": {
            "lower_is_better": lower_wins,
            "all": _stats(all_scores),
            "winning": _stats(winning),
            "spread": _stats(spreads),
        },
        "wins": _wins(summaries, plan.players),
        "ends": _counted(ends, sum(ends.values())),
        # tisigui ends each big round one way or another; the other games end once.
        "ends_per": "big_round" if plan.slug == "tisigui" else "game",
    }
    out.update(_GAME_SECTIONS[plan.slug](plan, rules, summaries))
    return out


def _tisigui_sections(plan: Plan, rules: Any, summaries: Sequence[Summary]) -> dict[str, Any]:
    total = len(summaries)
    ghost = [p for s in summaries for p in s["roles"]["ghost_points"]]
    other = [p for s in summaries for p in s["roles"]["other_points"]]
    big_rounds = len(ghost)
    tokens = plan.supply.get("score_tokens")
    handed = summaries[0]["supply"]["markers_handed_out"]
    return {
        "game_end": _counted(Counter(s["game_end"] for s in summaries), total),
        "roles": {
            "unit": "big round",
            "ghost": {"points": _stats(ghost),
                      "top_scorer_share": _share(sum(s["roles"]["ghost_top"] for s in summaries),
                                                 big_rounds)},
            "others": {"points_per_player": _stats(other)},
            "fair_top_scorer_share": _share(1, plan.players),
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
                "peak_in_use": _stats([s["supply"]["score_tokens"] for s in summaries]),
                "games_short": _share(sum(s["supply"]["score_tokens_short"] for s in summaries),
                                      total),
            },
        },
    }


def _wurenshenghuan_sections(plan: Plan, rules: Any,
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
            "murderer": {"points": _stats([r["murderer_points"] for r in roles]),
                         "win_share": _share(murderer_wins, total),
                         "kills": _stats([r["kills"] for r in roles]),
                         "feigned_death_games": _share(sum(r["feigned"] for r in roles), total),
                         "night_actions": _counted(actions, sum(actions.values()))},
            "others": {"points": _stats([p for s in summaries for i, p in enumerate(s["scores"])
                                         if i != s["roles"]["murderer"]]),
                       "win_share": _share(other_wins, total),
                       "guessed": _share(guesses, innocents),
                       "guessed_right": _share(sum(r["correct"] for r in roles), innocents),
                       "guess_day": _stats([d for r in roles for d in r["guess_days"]]),
                       "survival_bonus": _share(sum(r["survivors"] for r in roles), innocents),
                       "day_decisions": _counted(decisions, sum(decisions.values()))},
            "fair_win_share_per_player": _share(1, plan.players),
        },
        "supply": {
            "item_pile": {"size": rules.pile_size,
                          "left_at_end": _stats([s["supply"]["pile_left"] for s in summaries]),
                          "games_emptied": _share(sum(s["supply"]["pile_left"] == 0
                                                      for s in summaries), total)},
            "key_discarded_games": _share(sum(s["supply"]["key_discarded"] for s in summaries),
                                          total),
        },
    }


def _niutouwang_sections(plan: Plan, rules: Any, summaries: Sequence[Summary]) -> dict[str, Any]:
    hits = [s["supply"]["most_hits"] for s in summaries if s["supply"]["most_hits"] is not None]
    return {
        "supply": {
            "most_cards_taken": _stats([s["supply"]["most_cards_taken"] for s in summaries]),
            "cards_taken_per_player": _stats([c for s in summaries
                                              for c in s["supply"]["cards_taken"]]),
            "biggest_single_take": {
                "cards": _stats([s["supply"]["biggest_take_cards"] for s in summaries]),
                "heads": _stats([s["supply"]["biggest_take_heads"] for s in summaries]),
            },
            "most_hits": _stats(hits) if hits else None,
        },
    }


def _aizhewudi_sections(plan: Plan, rules: Any, summaries: Sequence[Summary]) -> dict[str, Any]:
    total = len(summaries)
    out: dict[str, Any] = {
        "supply": {
            "loved_markers": {
                "supply": rules.loved_markers,
                "peak_in_use": _stats([s["supply"]["loved"] for s in summaries]),
                "games_short": _share(sum(s["supply"]["loved"] > rules.loved_markers
                                          for s in summaries), total),
            },
            "fickle_markers": {
                "supply": rules.fickle_markers,
                "peak_in_use": _stats([s["supply"]["fickle"] for s in summaries]),
                "games_short": _share(sum(s["supply"]["fickle"] > rules.fickle_markers
                                          for s in summaries), total),
            },
            "bills_on_table": _stats([s["supply"]["bills_on_table"] for s in summaries]),
            "money_lost": _stats([s["supply"]["lost"] for s in summaries]),
        },
        "eliminated_per_game": _stats([s["roles"]["eliminated"] for s in summaries]),
    }
    if summaries[0]["roles"]["dealt"]:
        held: Counter[str] = Counter()
        won: Counter[str] = Counter()
        for s in summaries:
            dealt = s["roles"]["dealt"]
            held.update(dealt)
            for seat in s["winners"]:
                won[dealt[seat]] += 1 / len(s["winners"])
        out["roles"] = {"unit": "ability card",
                        "win_share_when_held": {a: _share(won[a], held[a]) for a in sorted(held)},
                        "fair_win_share": _share(1, plan.players)}
    return out


_GAME_SECTIONS: dict[str, Callable[[Plan, Any, Sequence[Summary]], dict[str, Any]]] = {
    "tisigui": _tisigui_sections,
    "wurenshenghuan": _wurenshenghuan_sections,
    "niutouwang": _niutouwang_sections,
    "aizhewudi": _aizhewudi_sections,
}


# --------------------------------------------------------------------------------------------
# Text for people


def _fmt_stats(stats: Mapping[str, Any], money: bool = False) -> str:
    if stats.get("mean") is None:
        return "n/a"
    if money:
        return f"mean {stats['mean']:,.0f}, min {stats['min']:,}, max {stats['max']:,}"
    return f"mean {stats['mean']:.2f}, min {stats['min']:g}, max {stats['max']:g}"


def _pct(share: float) -> str:
    return f"{share * 100:.1f}%"


def text_report(data: Mapping[str, Any]) -> str:
    """The report as aligned lines for a terminal (seats shown from 1, as at the table)."""
    slug = data["game"]
    money = slug == "aizhewudi"
    variant = f", variant {data['variant']}" if data["variant"] else ""
    lines = [f"{slug}: {data['games']} games, {data['players']} players{variant}, "
             f"{data['bots']} bots, seeds {data['seeds']['first']}–{data['seeds']['last']}", ""]
    lines.append("Game length")
    for key, stats in data["length"].items():
        lines.append(f"  {key.replace('_', ' '):<22} {_fmt_stats(stats)}")
    scores = data["scores"]
    label = "penalty" if scores["lower_is_better"] else "score"
    lines += ["", f"Scores ({label}{', lower is better' if scores['lower_is_better'] else ''})"]
    lines.append(f"  {'every player':<22} {_fmt_stats(scores['all'], money)}")
    lines.append(f"  {'winner':<22} {_fmt_stats(scores['winning'], money)}")
    lines.append(f"  {'spread (best-worst)':<22} {_fmt_stats(scores['spread'], money)}")
    wins = data["wins"]
    lines += ["", "Wins by seat (shared wins split)"]
    lines.append("  " + "  ".join(f"{i}: {_pct(w)}" for i, w in enumerate(wins["by_seat"], 1)))
    lines.append(f"  shared {_pct(wins['shared_games'])}, no winner {_pct(wins['no_winner_games'])}")
    lines += ["", "End conditions" + (" (per big round)" if data["ends_per"] == "big_round" else "")]
    lines += [f"  {key:<22} {v['count']:>7}  {_pct(v['share'])}" for key, v in data["ends"].items()]
    if "game_end" in data:
        lines.append("  game ended by:")
        lines += [f"    {key:<20} {v['count']:>7}  {_pct(v['share'])}"
                  for key, v in data["game_end"].items()]
    roles = data.get("roles")
    if roles:
        lines += ["", f"Roles (per {roles['unit']})"]
        lines += _role_lines(slug, roles)
    lines += ["", "Component supply"]
    lines += _supply_lines(slug, data)
    if "eliminated_per_game" in data:
        lines.append(f"  {'players out per game':<22} {_fmt_stats(data['eliminated_per_game'])}")
    return "\n".join(lines) + "\n"


def _role_lines(slug: str, roles: Mapping[str, Any]) -> list[str]:
    if slug == "tisigui":
        g = roles["ghost"]
        return [f"  ghost points           {_fmt_stats(g['points'])}",
                f"  other players' points  {_fmt_stats(roles['others']['points_per_player'])}",
                f"  ghost top scorer       {_pct(g['top_scorer_share'])} of big rounds "
                f"(an even share is {_pct(roles['fair_top_scorer_share'])})"]
    if slug == "wurenshenghuan":
        m, o = roles["murderer"], roles["others"]
        return [f"  murderer wins          {_pct(m['win_share'])} (an even share per player is "
                f"{_pct(roles['fair_win_share_per_player'])})",
                f"  murderer points        {_fmt_stats(m['points'])}",
                f"  real kills             {_fmt_stats(m['kills'])}",
                f"  feigned death          {_pct(m['feigned_death_games'])} of games",
                f"  others win             {_pct(o['win_share'])}",
                f"  others' points         {_fmt_stats(o['points'])}",
                f"  guessed / right        {_pct(o['guessed'])} / {_pct(o['guessed_right'])}",
                f"  guess day              {_fmt_stats(o['guess_day'])}",
                f"  survival bonus         {_pct(o['survival_bonus'])} of other players"]
    if slug == "aizhewudi":
        lines = [f"  {ability:<22} {_pct(share)} of games won when held"
                 for ability, share in roles["win_share_when_held"].items()]
        return lines + [f"  (an even share is {_pct(roles['fair_win_share'])})"]
    return []


def _supply_lines(slug: str, data: Mapping[str, Any]) -> list[str]:
    supply = data["supply"]
    if slug == "tisigui":
        q = supply["question_markers"]
        lines = [f"  question markers       {q['handed_out_per_big_round']} handed out per big "
                 f"round of {q['supply']}; at most {q['most_played_in_a_big_round']} played in one"]
        tokens = supply["score_tokens"]
        if tokens:
            kinds = ", ".join(f"{c}×{v}" for v, c in tokens["supply"].items())
            lines.append(f"  score tokens ({kinds}): peak in use "
                         f"{_fmt_stats(tokens['peak_in_use'])}; "
                         f"supply short in {_pct(tokens['games_short'])} of games")
        return lines
    if slug == "wurenshenghuan":
        pile = supply["item_pile"]
        return [f"  item pile ({pile['size']})        left at the end "
                f"{_fmt_stats(pile['left_at_end'])}; emptied in {_pct(pile['games_emptied'])}",
                f"  key discarded          {_pct(supply['key_discarded_games'])} of games"]
    if slug == "niutouwang":
        lines = [f"  most cards taken       {_fmt_stats(supply['most_cards_taken'])} (by one player)",
                 f"  cards taken per player {_fmt_stats(supply['cards_taken_per_player'])}",
                 f"  biggest single take    cards {_fmt_stats(supply['biggest_single_take']['cards'])}",
                 f"                         heads {_fmt_stats(supply['biggest_single_take']['heads'])}"]
        if supply["most_hits"]:
            lines.append(f"  most SP hits           {_fmt_stats(supply['most_hits'])}")
        return lines
    lines = []
    for key, label in (("loved_markers", "被愛 markers"), ("fickle_markers", "花心 markers")):
        m = supply[key]
        lines.append(f"  {label} ({m['supply']}): peak in use {_fmt_stats(m['peak_in_use'])}; "
                     f"run out in {_pct(m['games_short'])} of games")
    lines.append(f"  bills on the table     {_fmt_stats(supply['bills_on_table'])}")
    lines.append(f"  money lost             {_fmt_stats(supply['money_lost'], True)}")
    return lines
