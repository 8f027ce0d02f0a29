"""The balance report of a sweep (``pnp simulate --sweep``, version 2): per setting every figure
with its 95 % interval, the seat advantages and the differences between settings flagged with
the test that found them. Its shape is documented in docs/sample-and-simulate.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.registry import get_game
from pnp.play.intervals import CONFIDENCE, Interval, mean_interval, one_sample_t, welch, wilson
from pnp.play.simulate import report_part
from pnp.play.sweep import Setting, SweepRun
from pnp.play.tally import Moments, Tally, role_win_figures

REPORT_VERSION = 2
METHODS = {
    "share": "Wilson score interval",
    "mean": "Student's t interval",
    "seat_advantage": "one-sample t-test of each seat's per-game win share against 1/n, "
                      "two-sided, Bonferroni-adjusted over the seats",
    "difference": "Welch's t-test against the first setting with the same player count",
}
Figure = dict[str, float | None]


def _mean(m: Moments) -> Figure:
    return mean_interval(*m.as_triple()).as_json()


def _share(count: float, total: int) -> Figure:
    return wilson(count, total).as_json() if total else Interval(0.0, None, None).as_json()


def _histogram(m: Moments) -> list[list[int]] | None:
    return None if m.histogram is None else [[v, m.histogram[v]] for v in sorted(m.histogram)]


def _p(p: float) -> float:
    """A p-value to 4 significant digits (a tiny one stays tiny rather than becoming 0)."""
    return float(f"{p:.4g}")


def _p_text(p: float) -> str:
    return "p < 0.0001" if p < 0.0001 else f"p = {p:.2g}"


def _seat_advantage(tally: Tally) -> list[dict[str, Any]]:
    fair = 1 / tally.players
    out = []
    for seat, m in enumerate(tally.seat_wins):
        result = one_sample_t(m.n, m.mean, m.variance, fair, tests=tally.players)
        out.append({"seat": seat, "test": result.test, "t": round(result.statistic, 4),
                    "df": round(result.df, 2), "p": _p(result.p),
                    "significant": result.significant})
    return out


def setting_section(index: int, setting: Setting, tally: Tally) -> dict[str, Any]:
    games = tally.games
    ends_total = sum(tally.ends.values())
    out: dict[str, Any] = {
        "id": index,
        "label": setting.label(),
        "rules": {path: value for path, value in setting.values},
        "players": setting.players,
        "games": games,
        "length": {key: _mean(m) for key, m in tally.length.items()},
        "scores": {"lower_is_better": tally.lower_is_better,
                   **{key: _mean(tally.scores[key]) for key in ("all", "winning", "spread")
                      if key in tally.scores}},
        "wins": {"fair": round(1 / tally.players, 4),
                 "by_seat": [_share(float(m.total), m.n) for m in tally.seat_wins],
                 "shared_games": _share(tally.shared_games, games),
                 "no_winner_games": _share(tally.no_winner_games, games),
                 **({"by_role": role_win_figures(tally.role_wins)} if tally.role_wins else {})},
        "seat_advantage": _seat_advantage(tally),
        "ends": {key: {"count": tally.ends[key], "share": _share(tally.ends[key], ends_total)}
                 for key in sorted(tally.ends)},
    }
    if tally.game_end:
        out["game_end"] = {key: {"count": tally.game_end[key], "share": _share(tally.game_end[key], games)}
                           for key in sorted(tally.game_end)}
    out["roles"] = {key: _mean(tally.roles[key]) for key in sorted(tally.roles)}
    out["supply"] = {key: _mean(tally.supply[key]) for key in sorted(tally.supply)}
    out["distributions"] = {name: _histogram(m) for name, m in
                            [*((f"length.{k}", m) for k, m in tally.length.items()),
                             *((f"scores.{k}", m) for k, m in tally.scores.items())]}
    return out


def _compared(tally: Tally) -> dict[str, Moments]:
    metrics = {f"length.{key}": m for key, m in tally.length.items()}
    metrics.update({f"scores.{key}": tally.scores[key] for key in ("winning", "spread") if key in tally.scores})
    return metrics


def comparisons(settings: Sequence[Setting], tallies: Sequence[Tally]) -> list[dict[str, Any]]:
    """Each setting against the first setting with its player count, metric by metric."""
    baseline: dict[int, int] = {}
    out = []
    for index, setting in enumerate(settings):
        base = baseline.setdefault(setting.players, index)
        if base == index:
            continue
        mine, theirs = _compared(tallies[index]), _compared(tallies[base])
        for metric, moments in mine.items():
            if metric not in theirs:
                continue
            result, difference = welch(moments.as_triple(), theirs[metric].as_triple())
            out.append({"metric": metric, "setting": index, "baseline": base,
                        "difference": difference.as_json(), "test": result.test,
                        "t": round(result.statistic, 4), "df": round(result.df, 2),
                        "p": _p(result.p), "significant": result.significant})
    return out


def flags(sections: Sequence[Mapping[str, Any]], compared: Sequence[Mapping[str, Any]]) -> list[str]:
    """The significant findings in a sentence each, naming the test."""
    out = []
    for section in sections:
        for seat in section["seat_advantage"]:
            if seat["significant"]:
                share = section["wins"]["by_seat"][seat["seat"]]
                out.append(f"{section['label']}: seat {seat['seat'] + 1} wins {share['value']:.1%} "
                           f"(95 % CI {share['low']:.1%}–{share['high']:.1%}), fair {section['wins']['fair']:.1%}; "
                           f"{seat['test']}, {_p_text(seat['p'])}")
    for c in compared:
        if c["significant"]:
            d = c["difference"]
            out.append(f"{sections[c['setting']]['label']} vs {sections[c['baseline']]['label']}: "
                       f"{c['metric']} {d['value']:+.3g} (95 % CI {d['low']:+.3g} to {d['high']:+.3g}); "
                       f"{c['test']}, {_p_text(c['p'])}")
    return out


def report(run: SweepRun) -> dict[str, Any]:
    sections = [setting_section(i, s, t) for i, (s, t) in enumerate(zip(run.settings, run.tallies, strict=True))]
    compared = comparisons(run.settings, run.tallies)
    out: dict[str, Any] = {
        "version": REPORT_VERSION,
        "game": run.slug,
        "variant": run.variant,
        "bots": run.bots,
        **({"budget": run.budget} if "ismcts" in run.bots.split(",") else {}),
        "games": run.games,
        "seeds": {"first": run.seed, "last": run.seed + run.games - 1},
        "confidence": CONFIDENCE,
        "methods": METHODS,
        "swept": [{"path": a.path, "values": list(a.values)} for a in run.axes],
        "players": sorted({s.players for s in run.settings}),
        "settings": sections,
        "comparisons": compared,
        "flags": flags(sections, compared),
    }
    return out


# --------------------------------------------------------------------------------------------
# Text for people


def _fig(f: Figure, percent: bool = False) -> str:
    if f["value"] is None:
        return "n/a"
    if percent:
        return f"{f['value']:.1%}" + ("" if f["low"] is None else f" ({f['low']:.1%}–{f['high']:.1%})")
    return f"{f['value']:.2f}" + ("" if f["low"] is None else f" ({f['low']:.2f}–{f['high']:.2f})")


def text_report(data: Mapping[str, Any]) -> str:
    """Each setting's main figures with their 95 % intervals (seats from 1), then the flags."""
    slug = data["game"]
    lower = report_part(get_game(slug)).lower_score_wins
    lines = [f"{slug}: {len(data['settings'])} settings × {data['games']:,} games, {data['bots']} bots, "
             f"seeds {data['seeds']['first']}–{data['seeds']['last']} (95 % intervals)"]
    for s in data["settings"]:
        lines += ["", s["label"]]
        lines += [f"  length {k.replace('_', ' '):<16} {_fig(f)}" for k, f in s["length"].items()]
        score = "penalty" if lower else "score"
        for key in ("winning", "spread"):
            if key in s["scores"]:
                lines.append(f"  {key + ' ' + score:<23} {_fig(s['scores'][key])}")
        lines.append("  wins by seat           " + "  ".join(
            f"{i}: {_fig(f, True)}" for i, f in enumerate(s["wins"]["by_seat"], 1)))
        if "by_role" in s["wins"]:
            lines.append("  wins by role           " + "  ".join(
                f"{role}: {_fig(f, True)}" for role, f in s["wins"]["by_role"].items()))
        lines += [f"  end {k:<19} {_fig(v['share'], True)}" for k, v in s["ends"].items()]
    lines += ["", "Significant" if data["flags"] else "Nothing significant at 95 %"]
    lines += [f"  {flag}" for flag in data["flags"]]
    return "\n".join(lines) + "\n"
