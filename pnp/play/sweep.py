"""Rule sweeps: every combination of swept rules values and player counts, played on the same
seeds, streamed into one :class:`Tally` per setting (``pnp simulate --sweep``).

Game ``i`` of every setting is played with seed ``seed + i``, so two settings are compared on
the same deals. Workers play a chunk of seeds under one setting and send back its tally (a few
kilobytes whatever the chunk's size); the parent adds it to the setting's tally and forgets the
games, so memory stays flat however many games are played.
"""

from __future__ import annotations

import copy
import itertools
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import yaml

from pnp.core.errors import PnpError
from pnp.core.records import record
from pnp.core.workspace import Workspace
from pnp.data.model import Game
from pnp.games.base import DEFAULT_BUDGET, Plan, RulesError
from pnp.games.registry import get_game
from pnp.play import simulate as sim
from pnp.play.narrate import (
    check_bots,
    check_budget,
    check_variant,
    load_game_data,
    play,
    plugin,
    resolve_players,
)
from pnp.play.tally import Tally

# A grid is the product of its axes: past this many settings a sweep is a typo, and each
# setting is a process job and a column of every chart.
MAX_SETTINGS = 256
MAX_VALUES = 64  # values of one --sweep axis
# Games a chunk plays before its tally goes back to the parent (progress moves this often).
CHUNK = 250
_PATH = re.compile(r"rules((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d{1,3}\])+)")
_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d{1,3})\]")
_RANGE = re.compile(r"(-?\d{1,9})\.\.(-?\d{1,9})")


@record
class Axis:
    """One ``--sweep rules.PATH=V1,V2``: the path as written and its values in order."""

    path: str
    steps: tuple[str | int, ...]
    values: tuple[Any, ...]


@record
class Setting:
    """One point of the grid: the swept values (by path) and the player count."""

    values: tuple[tuple[str, Any], ...]
    players: int
    rules_mapping: Mapping[str, Any]

    def label(self) -> str:
        parts = [f"{path.removeprefix('rules.')}={_shown(v)}" for path, v in self.values]
        return ", ".join([*parts, f"{self.players} players"])


def _shown(value: Any) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def parse_values(text: str, what: str) -> tuple[Any, ...]:
    """``5,6,7``, ``3..8`` or a mix (``2,4..6``): scalars as YAML reads them (numbers,
    true/false, words)."""
    values: list[Any] = []
    for part in text.split(","):
        part = part.strip()
        ranged = _RANGE.fullmatch(part)
        if ranged:
            low, high = int(ranged[1]), int(ranged[2])
            if high < low or high - low >= MAX_VALUES:
                raise PnpError(f"{what}: range {part} must go up, {MAX_VALUES} values at most")
            values.extend(range(low, high + 1))
            continue
        if not part:
            raise PnpError(f"{what}: an empty value in {text!r}")
        value = yaml.safe_load(part) if len(part) <= 100 else None
        if not isinstance(value, (int, float, str, bool)) or isinstance(value, float) and not math.isfinite(value):
            raise PnpError(f"{what}: {part!r} is not a number, true/false or a word")
        values.append(value)
    if len(values) > MAX_VALUES:
        raise PnpError(f"{what}: {len(values)} values, {MAX_VALUES} at most")
    if len(set(map(repr, values))) != len(values):
        raise PnpError(f"{what}: a value is given twice")
    return tuple(values)


def parse_axis(text: str) -> Axis:
    """``rules.PATH=V1,V2,...`` (PATH: keys joined by dots, ``[i]`` for a list's item)."""
    path, sep, values = text.partition("=")
    path = path.strip()
    if not sep or not _PATH.fullmatch(path):
        raise PnpError(f"--sweep {text!r}: write rules.PATH=V1,V2,... (e.g. rules.row_limit=5,6,7)")
    steps = tuple(m[1] if m[1] is not None else int(m[2]) for m in _STEP.finditer(path[len("rules"):]))
    return Axis(path, steps, parse_values(values, f"--sweep {path}"))


def parse_players(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    values = parse_values(text, "--players")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise PnpError(f"--players {text}: whole numbers, a list (4,5) or a range (3..6)")
    return tuple(values)


def _with_value(mapping: Mapping[str, Any], axis: Axis, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(dict(mapping))
    node: Any = out
    for step, following in zip(axis.steps, (*axis.steps[1:], None), strict=True):
        if isinstance(step, int):
            if not isinstance(node, list) or step >= len(node):
                raise PnpError(f"--sweep {axis.path}: not a rules field (no item [{step}] there)")
        elif not isinstance(node, dict):
            raise PnpError(f"--sweep {axis.path}: not a rules field ({step!r} is inside a value)")
        if following is None:
            node[step] = value
        else:
            if isinstance(node, dict) and step not in node:
                node[step] = {}
            node = node[step]
    return out


# --------------------------------------------------------------------------------------------
# The grid


def _rules(slug: str, mapping: Mapping[str, Any], variant: str | None, setting: str,
           axes: Sequence[Axis]) -> Any:
    try:
        return get_game(slug).rules.read(mapping, variant)
    except RulesError as error:
        unknown = [a.path for a in axes for p in error.problems
                   if p.startswith(f"{a.path.removeprefix('rules.')}: unknown key")]
        if unknown:
            known = get_game(slug).rules.doc
            raise PnpError(f"--sweep {unknown[0]}: not a rules field of {slug}"
                           + (f" (its rules: {known})" if known else "")
                           + f"; the rules say: rules.{error.problems[0]}") from None
        problems = "; ".join(f"rules.{p}" for p in error.problems)
        raise PnpError(f"--sweep {setting}: the rules refuse it: {problems}") from None


def grid(game: Game, axes: Sequence[Axis], players: Sequence[int] | None,
         variant: str | None) -> list[Setting]:
    """Every setting, first axis slowest, player count fastest; each setting's rules checked."""
    paths = [a.path for a in axes]
    if len(set(paths)) != len(paths):
        raise PnpError("--sweep: a rules path is swept twice")
    combos = list(itertools.product(*(a.values for a in axes)))
    if len(combos) * len(players or (0,)) > MAX_SETTINGS:
        raise PnpError(f"--sweep: {len(combos) * len(players or (0,)):,} settings, "
                       f"{MAX_SETTINGS} at most")
    engine = plugin(game.slug)
    base = sim.plain(game.info.rules or {})
    settings = []
    for combo in combos:
        mapping = base
        for axis, value in zip(axes, combo, strict=True):
            mapping = _with_value(mapping, axis, value)
        label = ", ".join(f"{a.path}={_shown(v)}" for a, v in zip(axes, combo, strict=True)) or "rules"
        rules = _rules(game.slug, mapping, variant, label, axes)
        playable = engine.play.playable_counts(rules)
        counts = players or (resolve_players(game, rules, None),)
        for count in counts:
            if count not in playable:
                raise PnpError(f"{label}: {game.slug} plays "
                               f"{', '.join(map(str, playable))} players; got --players {count}")
            settings.append(Setting(tuple(zip(paths, combo, strict=True)), count, mapping))
    return settings


# --------------------------------------------------------------------------------------------
# Playing


def play_tally(plan: Plan, first: int, count: int) -> Tally:
    """Play seeds first .. first + count − 1 under ``plan`` and keep only their tally."""
    game = get_game(plan.slug)
    rules = game.rules.read(plan.rules_mapping, plan.variant)
    summarise = sim.report_part(game).summarise
    tally = Tally(plan.players, sim.report_part(game).lower_score_wins)
    for seed in range(first, first + count):
        tally.add(summarise(play(game, rules, plan.players, seed, plan.variant, plan.bots,
                                 plan.budget), rules, plan))
    return tally


def _job(job: tuple[int, Plan, int, int]) -> tuple[int, Tally]:
    number, plan, first, count = job
    return number, play_tally(plan, first, count)


def run_sweep(plans: Sequence[Plan], seed: int, games: int, jobs: int | None = None,
              progress: Callable[[int], None] | None = None,
              signals: sim.PoolSignals = sim.NO_SIGNALS, cluster: str | None = None) -> list[Tally]:
    """One tally per plan, each of ``games`` games on seeds seed .. seed + games − 1; on the
    Dask scheduler at ``cluster`` when one is given, else in ``jobs`` local processes."""
    slug = plans[0].slug
    lower = sim.report_part(get_game(slug)).lower_score_wins
    tallies = [Tally(p.players, lower) for p in plans]
    # The same chunks wherever they are played: job n plays chunk n % per_plan of plan
    # n // per_plan. They are made as they are handed out (a million games of 256 settings
    # are a million chunks, too many to list ahead).
    per_plan = -(-games // CHUNK)
    work = ((n, plans[n // per_plan], seed + n % per_plan * CHUNK, min(CHUNK, games - n % per_plan * CHUNK))
            for n in range(per_plan * len(plans)))
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    if cluster is None and (jobs <= 1 or per_plan * len(plans) == 1):
        results: Iterator[tuple[int, Tally]] = map(_job, work)
    elif cluster is None:
        results = sim.pooled(_job, work, jobs, signals)
    else:
        from pnp.play.cluster import clustered

        results = clustered(_job, work, cluster)
    # Chunks finish in any order; each is counted as it comes and merged in job order, so the
    # report (down to the order of its keys) is the one a single process gives.
    for number, tally in sim.in_job_order(results, progress, lambda tally: tally.games):
        tallies[number // per_plan].merge(tally)
    return tallies


@record
class SweepRun:
    """What a report is made of: the game, how it was played and one tally per setting."""

    slug: str
    variant: str | None
    bots: str
    budget: int
    seed: int
    games: int
    axes: tuple[Axis, ...]
    settings: tuple[Setting, ...]
    tallies: tuple[Tally, ...]


def plan_sweep(workspace: Workspace, slug: str, sweeps: Sequence[str], players: str | None,
               games: int, variant: str | None = None, bots: str | None = None,
               budget: int = DEFAULT_BUDGET, game: Game | None = None,
               ) -> tuple[list[Setting], list[Plan], tuple[Axis, ...]]:
    """Check everything before a game is played: the games, the paths, every setting's rules."""
    if not 1 <= games <= sim.MAX_GAMES:
        raise PnpError(f"--games must be 1–{sim.MAX_GAMES:,}, got {games:,}")
    check_bots(plugin(slug), bots)
    check_budget(budget)
    sim.report_part(plugin(slug))
    game = game or load_game_data(workspace, slug)
    variant = check_variant(game, variant)
    axes = tuple(parse_axis(text) for text in sweeps)
    settings = grid(game, axes, parse_players(players), variant)
    supply = sim.supply_counts(game)
    plans = [Plan(slug, s.rules_mapping, variant, s.players, check_bots(plugin(slug), bots, s.players),
                  supply, budget) for s in settings]
    return settings, plans, axes


def sweep(workspace: Workspace, slug: str, sweeps: Sequence[str], players: str | None = None,
          games: int = 1000, seed: int = 1, variant: str | None = None, bots: str | None = None,
          jobs: int | None = None, progress: Callable[[int], None] | None = None,
          signals: sim.PoolSignals = sim.NO_SIGNALS, budget: int = DEFAULT_BUDGET,
          game: Game | None = None, on_plan: Callable[[int], None] | None = None,
          cluster: str | None = None) -> SweepRun:
    """Play the grid (on the Dask scheduler at ``cluster`` when one is given); ``on_plan(total
    games)`` is called once everything checked out."""
    if jobs is not None and not 1 <= jobs <= sim.MAX_JOBS:
        raise PnpError(f"--jobs must be 1–{sim.MAX_JOBS}, got {jobs:,}")
    bots = check_bots(plugin(slug), bots)
    settings, plans, axes = plan_sweep(workspace, slug, sweeps, players, games, variant, bots, budget, game)
    if on_plan:
        on_plan(games * len(plans))
    tallies = run_sweep(plans, seed, games, jobs, progress, signals, cluster)
    return SweepRun(slug, plans[0].variant, bots, budget, seed, games, axes, tuple(settings), tuple(tallies))
