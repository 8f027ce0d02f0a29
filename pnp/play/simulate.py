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

import multiprocessing
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from pnp.core.errors import PnpError
from pnp.core.records import record
from pnp.core.workspace import Workspace
from pnp.data.model import Game
from pnp.games.base import DEFAULT_BUDGET, GamePlugin, Plan, ReportPart, Summary
from pnp.games.registry import get_game
from pnp.games.stats import counted, fmt_stats, pct, share, stats
from pnp.play.narrate import (
    check_bots,
    check_budget,
    check_variant,
    game_rules,
    load_game_data,
    play,
    plugin,
    resolve_players,
)
from pnp.play.tally import Moments, add_role_wins, role_win_figures

J = TypeVar("J")  # a worker's job
R = TypeVar("R")  # what it gives back

# Below this many games a worker pool costs more than it saves.
PARALLEL_FROM = 400
REPORT_VERSION = 1
# A million games is hours of play on a laptop and far past where the report's numbers stop
# moving; a larger count is a typo, and its chunk list alone would exhaust memory.
MAX_GAMES = 1_000_000
# Worker processes of one simulation: each is a whole Python process, so thousands of them
# exhaust the machine, and past the CPUs more workers only wait for each other.
MAX_JOBS = 64
# On a cluster a plain run is cut into chunks as for a local pool of this many processes (its
# size is not known before it is asked; the report is the same for any chunks).
CLUSTER_CHUNKING = 2


# --------------------------------------------------------------------------------------------
# Supply read from card_data


def supply_counts(game: Game) -> dict[str, Any]:
    """Component counts the report compares peaks with (score tokens, markers)."""
    supply: dict[str, Any] = {}
    for component in game.components:
        values: list[tuple[int, int]] = []
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


def report_part(game: GamePlugin) -> ReportPart:
    if game.report is None:
        raise PnpError(f"{game.slug} cannot be simulated (its plugin gives no game summary)")
    return game.report


def play_chunk(plan: Plan, first: int, count: int) -> list[Summary]:
    """Play seeds first .. first + count - 1 and summarise each game (a worker's job)."""
    game = get_game(plan.slug)
    # Checked in the parent process already: the worker only rebuilds the same rules.
    rules = game.rules.read(plan.rules_mapping, plan.variant)
    summarise = report_part(game).summarise
    out = []
    for seed in range(first, first + count):
        log = play(game, rules, plan.players, seed, plan.variant, plan.bots, plan.budget)
        out.append(summarise(log, rules, plan))
    return out


# --------------------------------------------------------------------------------------------
# Running


def _chunks(seed: int, games: int, size: int) -> list[tuple[int, int]]:
    return [(seed + start, min(size, games - start)) for start in range(0, games, size)]


def _nothing_to_undo() -> Callable[[], None]:
    return lambda: None


@record
class PoolSignals:
    """What the process running a worker pool does with signals around it. The library sets
    none (a program that uses pnp keeps its own handlers); the command line passes its own
    (pnp.cli.process): workers leave Ctrl-C to the parent, Ctrl-C waits while they are
    forked, and SIGTERM unwinds the parent so that the workers are stopped with it."""

    # Runs first in every worker process (the pool's initializer).
    worker_init: Callable[[], None] | None = None
    # Called before the workers are forked; returns the release, called once they are.
    while_forking: Callable[[], Callable[[], None]] = _nothing_to_undo
    # Called once the pool is up; returns the undo, called when it is gone.
    while_running: Callable[[], Callable[[], None]] = _nothing_to_undo


NO_SIGNALS = PoolSignals()


def run(plan: Plan, seed: int, games: int, jobs: int | None = None,
        progress: Callable[[int], None] | None = None,
        signals: PoolSignals = NO_SIGNALS, cluster: str | None = None) -> list[Summary]:
    """Every game's summary, in seed order; ``progress(n)`` after each finished chunk. On the
    Dask scheduler at ``cluster`` when one is given (the chunks of a pool of two)."""
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    if cluster is None and (jobs <= 1 or games < PARALLEL_FROM):
        size = max(1, min(100, games))
        out: list[Summary] = []
        for first, count in _chunks(seed, games, size):
            out.extend(play_chunk(plan, first, count))
            if progress:
                progress(count)
        return out
    # Small chunks keep the progress bar moving and the workers evenly loaded.
    size = max(20, min(250, games // ((jobs if cluster is None else CLUSTER_CHUNKING) * 8)))
    chunks = _chunks(seed, games, size)
    jobs_given = [(plan, i, first, count) for i, (first, count) in enumerate(chunks)]
    if cluster is None:
        results = pooled(_play_numbered_chunk, jobs_given, jobs, signals)
    else:
        from pnp.play.cluster import clustered

        results = clustered(_play_numbered_chunk, jobs_given, cluster)
    return [summary for _, chunk in in_job_order(results, progress, len) for summary in chunk]


def in_job_order(results: Iterable[tuple[int, R]], progress: Callable[[int], None] | None,
                 games_of: Callable[[R], int]) -> Iterator[tuple[int, R]]:
    """Numbered results that come in any order, given back in number order (0, 1, 2, ...);
    ``progress(games)`` as each comes. An early result waits for the ones before it: jobs are
    handed out in order, so only a few ever wait."""
    waiting: dict[int, R] = {}
    following = 0
    for number, result in results:
        if progress:
            progress(games_of(result))
        waiting[number] = result
        while following in waiting:
            yield following, waiting.pop(following)
            following += 1


def pooled(work: Callable[[J], R], jobs_given: Iterable[J], jobs: int,
           signals: PoolSignals) -> Iterator[R]:
    """``work`` of each job in a pool of ``jobs`` worker processes, each result as it comes
    (in any order), with the process's ``signals`` around the pool."""
    release = signals.while_forking()
    try:
        pool = multiprocessing.get_context().Pool(processes=jobs, initializer=signals.worker_init)
    except BaseException:
        release()
        raise
    undo = signals.while_running()
    try:
        release()
        yield from pool.imap_unordered(work, jobs_given)
        pool.close()
    except BaseException:
        # Ctrl-C, a failed job or a reader that stopped reading ends the run now: kill the
        # workers rather than let them finish jobs nobody will read.
        pool.terminate()
        raise
    finally:
        pool.join()
        undo()


def _play_numbered_chunk(job: tuple[Plan, int, int, int]) -> tuple[int, list[Summary]]:
    plan, index, first, count = job
    return index, play_chunk(plan, first, count)


def simulate(workspace: Workspace, slug: str, games: int = 1000, players: int | None = None,
             seed: int = 1, variant: str | None = None, bots: str | None = None,
             jobs: int | None = None, progress: Callable[[int], None] | None = None,
             game: Game | None = None, signals: PoolSignals = NO_SIGNALS,
             budget: int = DEFAULT_BUDGET, cluster: str | None = None) -> dict[str, Any]:
    """Play ``games`` bot games (seeds seed, seed + 1, ...) and report on them, on the Dask
    scheduler at ``cluster`` when one is given; ``signals`` are the process's own around a
    local worker pool (see ``PoolSignals``)."""
    if not 1 <= games <= MAX_GAMES:
        raise PnpError(f"--games must be 1–{MAX_GAMES:,}, got {games:,}")
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise PnpError(f"--jobs must be 1–{MAX_JOBS}, got {jobs:,}")
    check_bots(plugin(slug), bots)
    check_budget(budget)
    report_part(plugin(slug))
    game = game or load_game_data(workspace, slug)
    variant = check_variant(game, variant)
    rules = game_rules(game, variant)
    count = resolve_players(game, rules, players)
    bots = check_bots(plugin(slug), bots, count)
    plan = Plan(slug, plain(game.info.rules), variant, count, bots, supply_counts(game), budget)
    summaries = run(plan, seed, games, jobs, progress, signals, cluster)
    return report(plan, rules, seed, summaries)


def plain(value: Any) -> Any:
    """Plain dicts and lists: the loader's read-only mappings cannot be sent to a process."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


# --------------------------------------------------------------------------------------------
# The report


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
    out: dict[str, Any] = {"by_seat": [share(w, total) for w in by_seat],
                           "shared_games": share(shared, total),
                           "no_winner_games": share(none, total)}
    role_wins: dict[str, Moments] = {}
    for s in summaries:
        add_role_wins(role_wins, s)
    if role_wins:  # a game with roles: each role's win share per seat, with its interval
        out["by_role"] = role_win_figures(role_wins)
    return out


def report(plan: Plan, rules: Any, seed: int, summaries: Sequence[Summary]) -> dict[str, Any]:
    total = len(summaries)
    length_keys = list(summaries[0]["length"])
    all_scores = [v for s in summaries for v in s["scores"]]
    spreads = [max(s["scores"]) - min(s["scores"]) for s in summaries if s["scores"]]
    ends: Counter[str] = Counter()
    for s in summaries:
        ends.update(s["ends"])
    reporting = report_part(get_game(plan.slug))
    lower_wins = reporting.lower_score_wins
    winning = [(min if lower_wins else max)(s["scores"]) for s in summaries if s["scores"]]
    out: dict[str, Any] = {
        "version": REPORT_VERSION,
        "game": plan.slug,
        "variant": plan.variant,
        "players": plan.players,
        "bots": plan.bots,
        **({"budget": plan.budget} if "ismcts" in plan.bots.split(",") else {}),
        "games": total,
        "seeds": {"first": seed, "last": seed + total - 1},
        "length": {key: stats([s["length"][key] for s in summaries]) for key in length_keys},
        "scores": {
            "lower_is_better": lower_wins,
            "all": stats(all_scores),
            "winning": stats(winning),
            "spread": stats(spreads),
        },
        "wins": _wins(summaries, plan.players),
        "ends": counted(ends, sum(ends.values())),
        "ends_per": reporting.ends_per,
    }
    out.update(reporting.sections(plan, rules, summaries))
    return out


# --------------------------------------------------------------------------------------------
# Text for people


def text_report(data: Mapping[str, Any]) -> str:
    """The report as aligned lines for a terminal (seats shown from 1, as at the table)."""
    slug = data["game"]
    reporting = report_part(get_game(slug))
    money = reporting.money_scores
    variant = f", variant {data['variant']}" if data["variant"] else ""
    lines = [f"{slug}: {data['games']} games, {data['players']} players{variant}, "
             f"{data['bots']} bots, seeds {data['seeds']['first']}–{data['seeds']['last']}", ""]
    lines.append("Game length")
    for key, numbers in data["length"].items():
        lines.append(f"  {key.replace('_', ' '):<22} {fmt_stats(numbers)}")
    scores = data["scores"]
    label = "penalty" if scores["lower_is_better"] else "score"
    lines += ["", f"Scores ({label}{', lower is better' if scores['lower_is_better'] else ''})"]
    lines.append(f"  {'every player':<22} {fmt_stats(scores['all'], money)}")
    lines.append(f"  {'winner':<22} {fmt_stats(scores['winning'], money)}")
    lines.append(f"  {'spread (best-worst)':<22} {fmt_stats(scores['spread'], money)}")
    wins = data["wins"]
    lines += ["", "Wins by seat (shared wins split)"]
    lines.append("  " + "  ".join(f"{i}: {pct(w)}" for i, w in enumerate(wins["by_seat"], 1)))
    lines.append(f"  shared {pct(wins['shared_games'])}, no winner {pct(wins['no_winner_games'])}")
    if "by_role" in wins:
        lines += ["", "Wins by role (per seat holding it, 95 % interval)"]
        lines += [f"  {role:<22} {pct(f['value'])} ({pct(f['low'])}–{pct(f['high'])})"
                  for role, f in wins["by_role"].items()]
    lines += ["", "End conditions" + (" (per big round)" if data["ends_per"] == "big_round" else "")]
    lines += [f"  {key:<22} {v['count']:>7}  {pct(v['share'])}" for key, v in data["ends"].items()]
    if "game_end" in data:
        lines.append("  game ended by:")
        lines += [f"    {key:<20} {v['count']:>7}  {pct(v['share'])}"
                  for key, v in data["game_end"].items()]
    roles = data.get("roles")
    if roles:
        lines += ["", f"Roles (per {roles['unit']})"]
        lines += reporting.role_lines(roles)
    supply = reporting.supply_lines(data)
    if "eliminated_per_game" in data:
        supply.append(f"  {'players out per game':<22} {fmt_stats(data['eliminated_per_game'])}")
    if supply:
        lines += ["", "Component supply", *supply]
    return "\n".join(lines) + "\n"
