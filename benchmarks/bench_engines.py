"""Engine speed per game and variant: games/s with the default bots beside a plain loop.

    python benchmarks/bench_engines.py [--seconds S] [--players N] [games...]
    python benchmarks/bench_engines.py --against REV [--rounds R] [--seconds S] [games...]

For every game in pnp.games.registry and each of its variants (and the canonical rules),
plays seeded games with the plugin's default bot in every seat for about S seconds of CPU
time (time.process_time, so other load on the machine matters less) at the rules' default
player count. When benchmarks/baselines/<slug>.py exists, its ``plain_game(rng, players)``
(the plainest legal random loop of the same deal, no bots, no log) is timed the same way
beside the canonical rules, and the table shows how many times slower the engine is. Prints a Markdown table; writes
nothing.

``--against REV`` compares engines before and after a change on a shared, noisy machine:
the code of revision REV is extracted (``git archive``) to a temporary folder, and for R
rounds every cell is measured once by REV's code and once by this tree's, each in a new
process, in alternating order; the best rate of each side is kept (contention only ever
slows a run down). Needs REV to have the plugin registry.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

THIS_TREE = Path(__file__).resolve().parents[1]
# A child of --against measures another revision's code, extracted to this folder.
ROOT = Path(os.environ.get("PNP_BENCH_TREE") or THIS_TREE)
sys.path.insert(0, str(ROOT))

from pnp.core.workspace import find_workspace  # noqa: E402
from pnp.games.base import GamePlugin  # noqa: E402
from pnp.games.registry import game_slugs, get_game  # noqa: E402
from pnp.games.ruleset import workspace_rules  # noqa: E402
from pnp.play import narrate  # noqa: E402

BASELINES = Path(__file__).resolve().parent / "baselines"


def rate(run: Callable[[int], object], seconds: float) -> float:
    """Games per CPU second of ``run(seed)`` over seeds 1, 2, ... for about ``seconds``."""
    run(0)  # warm caches (head tables, imports) outside the timing
    started = time.process_time()
    games = 0
    while True:
        games += 1
        run(games)
        spent = time.process_time() - started
        if spent >= seconds:
            return games / spent


def engine_game(plugin: GamePlugin, rules: Any, players: int, variant: str | None,
                bots: list[str], seed: int) -> object:
    """One game as ``pnp simulate`` plays it (pnp.play.narrate.play: the generator handed to
    the plugin is the caller's part of a game's cost)."""
    return narrate.play(plugin, rules, players, seed, variant, bots)


def plain_game(play: Callable[[random.Random, int], None], players: int, seed: int) -> None:
    play(random.Random(seed), players)


def baseline(slug: str) -> ModuleType | None:
    path = BASELINES / f"{slug}.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"baseline_{slug}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cells(slugs: list[str], players: int | None) -> list[tuple[str, str | None, int]]:
    """(game, variant, players) for every game and variant asked for."""
    workspace = find_workspace(ROOT)
    out = []
    for slug in slugs or game_slugs():
        plugin = get_game(slug)
        for variant in (None, *plugin.rules.variants):
            rules = workspace_rules(plugin, workspace, variant)
            out.append((slug, variant, players or plugin.play.default_players(rules)))
    return out


def child(slug: str, variant: str | None, players: int, seconds: float) -> None:
    """One cell measured with ROOT's code, printed as JSON (a process of --against)."""
    plugin = get_game(slug)
    rules = workspace_rules(plugin, find_workspace(ROOT), variant)
    bots = [plugin.play.bots[0]] * players
    print(json.dumps(rate(partial(engine_game, plugin, rules, players, variant, bots), seconds)))


def against(revision: str, rounds: int, seconds: float, slugs: list[str],
            players: int | None) -> None:
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as folder:
        archive = subprocess.run(["git", "-C", str(THIS_TREE), "archive", revision],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        trees = {"before": Path(folder), "after": THIS_TREE}
        todo = cells(slugs, players)
        best: dict[tuple[str, tuple[str, str | None, int]], float] = {}
        for round_ in range(rounds):
            for cell in todo:
                order = ("before", "after") if round_ % 2 == 0 else ("after", "before")
                for side in order:
                    slug, variant, count = cell
                    out = subprocess.run(
                        [sys.executable, __file__, "--child", slug, variant or "", str(count),
                         str(seconds)],
                        env={**os.environ, "PNP_BENCH_TREE": str(trees[side])},
                        cwd=trees[side], check=True, capture_output=True, text=True).stdout
                    key = (side, cell)
                    best[key] = max(best.get(key, 0.0), float(out))
    print(f"Python {platform.python_version()}, {platform.machine()} {platform.system()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; {seconds:g} CPU s "
          f"per measurement, best of {rounds} alternating rounds\n")
    print(f"| game | variant | players | {revision} (games/s) | this tree (games/s) | × faster |")
    print("|---|---|---:|---:|---:|---:|")
    for cell in todo:
        before, after = best[("before", cell)], best[("after", cell)]
        slug, variant, count = cell
        print(f"| {slug} | {variant or '(canonical)'} | {count} | {before:,.0f} | {after:,.0f} "
              f"| {after / before:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    parser.add_argument("--players", type=int, default=None,
                        help="player count (default: each game's default)")
    parser.add_argument("--against", metavar="REV", default=None,
                        help="compare with the engines of another git revision")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --against")
    parser.add_argument("--child", nargs=4, metavar=("GAME", "VARIANT", "PLAYERS", "SECONDS"),
                        help=argparse.SUPPRESS)
    parser.add_argument("games", nargs="*", help="game slugs (default: all)")
    args = parser.parse_args()
    if args.child:
        slug, variant, players, seconds = args.child
        child(slug, variant or None, int(players), float(seconds))
        return
    if args.against:
        against(args.against, args.rounds, args.seconds, args.games, args.players)
        return
    workspace = find_workspace(ROOT)
    print(f"Python {platform.python_version()}, {platform.machine()} {platform.system()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; "
          f"{args.seconds:g} CPU s per cell\n")
    print("| game | variant | players | engine, default bots (games/s) "
          "| plain random loop (games/s) | engine slower by |")
    print("|---|---|---:|---:|---:|---:|")
    for slug in args.games or game_slugs():
        plugin = get_game(slug)
        plain = baseline(slug)
        for variant in (None, *plugin.rules.variants):
            rules = workspace_rules(plugin, workspace, variant)
            players = args.players or plugin.play.default_players(rules)
            bots = [plugin.play.bots[0]] * players
            engine_rate = rate(partial(engine_game, plugin, rules, players, variant, bots),
                               args.seconds)
            # The baseline plays the canonical game only: a variant may play several deals.
            plain_rate: float | None = None
            if plain is not None and variant is None:
                plain_rate = rate(partial(plain_game, plain.plain_game, players), args.seconds)
            plain_cell = f"{plain_rate:,.0f}" if plain_rate else "–"
            ratio = f"{plain_rate / engine_rate:.1f}×" if plain_rate else "–"
            print(f"| {slug} | {variant or '(canonical)'} | {players} | {engine_rate:,.0f} "
                  f"| {plain_cell} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
