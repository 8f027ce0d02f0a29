"""The rules-lint part of ``pnp check``: the engine's lint over every variant, acknowledgements
in game.yaml, and seeded simulated games for marker supplies that only the worst case exhausts.
"""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Callable
from typing import Any, Protocol

from pnp.check.report import Acknowledgement, CheckFinding
from pnp.data.model import Game
from pnp.games.base import GamePlugin, RulesError

log = logging.getLogger(__name__)

# Simulated games per player count and bot mix when a lint finding says a marker supply runs
# short only in the worst case (the engine logs each round's peak use as ``peak_<kind>``).
SUPPLY_GAMES_PER_COUNT = 60
_WORST_CASE_SUFFIX = "-markers-worst-case"


class Places(Protocol):
    def rel(self, where: str) -> str:
        """``where`` relative to the workspace."""

    def rules(self, field_path: str) -> str:
        """``game.yaml:line: rules.<field_path>``."""




def lint_findings(game: Game, engine: GamePlugin,
                   places: Places) -> tuple[list[CheckFinding], tuple[Acknowledgement, ...]]:
    mapping = dict(game.info.rules)
    raw: list[CheckFinding] = []
    seen: set[tuple[str, str, str]] = set()
    for variant in (None, *engine.rules.variant_names(mapping)):
        try:
            rules = engine.rules.read(mapping, variant)
        except RulesError:
            continue  # reported with the canonical rules
        for item in engine.rules.lint(rules):
            key = (item.code, item.where, item.message)
            if key in seen:
                continue
            seen.add(key)
            raw.append(CheckFinding("lint", item.code, item.message, places.rules(item.where),
                               {"field": item.where.removeprefix("rules.")}))
        if variant is None:
            raw = supply_simulation(engine, rules, raw, places)
    acks = {ack.code for ack in game.info.acknowledged}
    findings = [finding for finding in raw if finding.code not in acks]
    report = []
    for ack in game.info.acknowledged:
        where = places.rel(ack.where)
        covered = tuple(finding for finding in raw if finding.code == ack.code)
        report.append(Acknowledgement(ack.code, ack.reason, where, covered))
        if not covered:
            findings.append(CheckFinding("lint", "stale-acknowledgement",
                                    f"acknowledged lint finding {ack.code!r} no longer occurs; "
                                    "remove the acknowledgement", where, {"acknowledged": ack.code}))
    return findings, tuple(report)


def _same_bot(name: str, players: int) -> list[str]:
    return [name] * players


def bot_mixes(engine: GamePlugin) -> list[tuple[str, Callable[[int], list[str]]]]:
    """(label, players -> each seat's bot): each bot of the game alone, then all of them
    seated alternately (the searching bot left out)."""
    # A searching bot (ISMCTS) takes seconds a game: the supply counts are the styles'.
    names = tuple(name for name in engine.play.bots if name != "ismcts")
    mixes: list[tuple[str, Callable[[int], list[str]]]] = [
        (name, functools.partial(_same_bot, name)) for name in names]
    if len(names) > 1:
        mixes.append(("/".join(names), lambda players: [names[seat % len(names)]
                                                       for seat in range(players)]))
    return mixes


def supply_simulation(engine: GamePlugin, rules: Any, lint: list[CheckFinding], places: Places,
                      games_per_count: int = SUPPLY_GAMES_PER_COUNT) -> list[CheckFinding]:
    """Play seeded games for each marker supply that only the worst case exhausts.

    For every player count and every bot mix (each bot alone, then all of them seated
    alternately), ``games_per_count`` games with seeds 1, 2, ...; a supply runs short in a
    game when a round's logged ``peak_<kind>`` exceeds it. Returns ``lint`` with the counts
    added to each worst-case finding, plus a ``<kind>-markers-short-in-simulation`` finding
    for a supply that ran short in any game.
    """
    kinds = {f.code.removesuffix(_WORST_CASE_SUFFIX): f for f in lint
             if f.code.endswith(_WORST_CASE_SUFFIX)}
    found = {kind: getattr(rules, f"{kind}_markers", None) for kind in kinds}
    supplies: dict[str, int] = {k: v for k, v in found.items() if isinstance(v, int)}
    if not supplies:
        return lint
    low, high = engine.play.player_range(rules)
    mixes = bot_mixes(engine)
    games = dict.fromkeys((label for label, _ in mixes), 0)
    short = {kind: dict.fromkeys(games, 0) for kind in supplies}
    try:
        for label, seat_bots in mixes:
            for players in range(low, high + 1):
                for seed in range(1, games_per_count + 1):
                    game_log = engine.play.run(rules, players, random.Random(seed), seed=seed,
                                               variant=None, bots=seat_bots(players))
                    games[label] += 1
                    for kind, supply in supplies.items():
                        peak = max((r.get(f"peak_{kind}", 0) for r in game_log.get("rounds", [])),
                                   default=0)
                        short[kind][label] += peak > supply
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return [*lint, CheckFinding("lint", "simulation-failed",
                               f"simulated games for the marker supply could not be played: {exc}",
                               places.rules(""))]
    total = sum(games.values())
    log.info("simulated %d games for the marker supply: %s", total, short)
    out: list[CheckFinding] = []
    for finding in lint:
        kind = finding.code.removesuffix(_WORST_CASE_SUFFIX)
        if finding is not kinds.get(kind) or kind not in supplies:
            out.append(finding)
            continue
        supply, ran_short = supplies[kind], sum(short[kind].values())
        by_bots = ", ".join(f"{label} bots {short[kind][label]}/{games[label]}" for label in games)
        note = (f"{supply} markers ran short in {ran_short} of {total} simulated games "
                f"({ran_short / total:.1%}; {low}–{high} players, {games_per_count} seeded games "
                f"per count and bot mix: {by_bots})")
        extra = {**finding.extra, "simulated_games": total, "ran_short": ran_short,
                 "by_bots": {label: {"games": games[label], "ran_short": short[kind][label]}
                             for label in games}}
        out.append(CheckFinding(finding.kind, finding.code, f"{finding.message}; {note}",
                           finding.where, extra))
        if ran_short:
            out.append(CheckFinding("lint", f"{kind}-markers-short-in-simulation", note,
                               finding.where, extra))
    return out
