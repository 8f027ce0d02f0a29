"""Benchmark the split calculator and whole simulated games per engine; prints a table.

    python benchmarks/bench_calc.py [--seconds S]

Rules are each engine's defaults (the rulings in docs/rulings.md). Writes nothing; copy
the printed tables into benchmarks/README.md ("Calculators and engines") by hand.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from pnp.games.aizhewudi.rules import rules_from_mapping
from pnp.games.aizhewudi.split import split
from pnp.games.registry import game_slugs, get_game


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median seconds of ``repeat`` calls, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def bench_split(repeat: int) -> list[tuple[str, int, float, int]]:
    rules = rules_from_mapping({})
    deck = rules.deck  # the game's 40 bills: 15 × 5,000, 15 × 10,000, 10 × 20,000
    rng = random.Random(1)
    cases = [("the 40-bill deck", deck)]
    cases += [(f"40 random bills #{i}", [rng.choice(rules.denominations) for _ in range(40)])
              for i in (1, 2)]
    cases.append(("45 random bills", [rng.choice(rules.denominations) for _ in range(45)]))
    rows = []
    for label, bills in cases:
        for sharers in (2, 3, 4, 5, 6, 7):
            seconds, result = timed(lambda b=bills, k=sharers: split(b, k, rules), repeat)
            rows.append((label, sharers, seconds, result.share))
    return rows


def bench_games(seconds: float) -> list[tuple[str, int, int, float]]:
    rows = []
    for slug in game_slugs():
        engine = get_game(slug)
        rules = engine.rules.read({}, None)
        players = engine.play.default_players(rules)
        games, seed = 0, 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            seed += 1
            engine.play.run(rules, players, random.Random(seed), seed=seed, variant=None,
                            bots=[engine.play.bots[0]] * players)
            games += 1
        rows.append((slug, players, games, games / elapsed))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per engine (default 3)")
    parser.add_argument("--repeat", type=int, default=5, help="split runs per case (default 5)")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"{platform.system()} {platform.release()}")
    print()
    print("| bills | sharers | share | median time |")
    print("|---|---:|---:|---:|")
    for label, sharers, secs, share in bench_split(args.repeat):
        print(f"| {label} | {sharers} | {share:,} | {secs * 1000:.1f} ms |")
    print()
    print(f"| engine | players | games in {args.seconds:g} s | games/s |")
    print("|---|---:|---:|---:|")
    for slug, players, games, rate in bench_games(args.seconds):
        print(f"| {slug} | {players} | {games} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
