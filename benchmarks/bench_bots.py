"""Bot strength: ISMCTS against the random and the hand-written greedy bots, per game.

    python benchmarks/bench_bots.py [--games N] [--budgets 10,40] [--jobs J] [games...]

For every game written to the engine kit (a plugin with ``play.kit``), at the rules' default
player count and for each budget: N games with one ISMCTS seat among opponents of one kind,
the ISMCTS seat rotating (game i puts it at seat i mod players, so no seat's advantage
counts), each game seeded (seed i). Reports the ISMCTS seat's mean result (1 alone first,
0 alone last, ties sharing; an equal bot scores 0.5 on average) and its share of wins, each
with a 95 % confidence interval (normal approximation: 1.96 standard errors), and the CPU
time per game. Prints a Markdown table; writes nothing.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pnp.core.workspace import find_workspace  # noqa: E402
from pnp.games.kit import play_match  # noqa: E402
from pnp.games.registry import game_slugs, get_game  # noqa: E402
from pnp.games.ruleset import workspace_rules  # noqa: E402


def _cell(job: tuple[str, str, int, int, int]) -> tuple[list[float], list[float], float]:
    slug, opponent, budget, first, count = job
    plugin = get_game(slug)
    rules = workspace_rules(plugin, find_workspace(Path(__file__).resolve().parents[1]))
    players = plugin.play.default_players(rules)
    rewards, wins = [], []
    started = time.process_time()
    for seed in range(first, first + count):
        seat = seed % players
        bots = [opponent] * players
        bots[seat] = "ismcts"
        outcome = play_match(plugin.play.kit, rules, players, seed, bots, budget).state.outcome()
        rewards.append(outcome.rewards()[seat])
        winners = outcome.winners
        wins.append(1 / len(winners) if seat in winners else 0.0)
    return rewards, wins, time.process_time() - started


def interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--games-per-cell", "--games", dest="count", type=int, default=2000)
    parser.add_argument("--budgets", default="10,40")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    slugs = args.games or [s for s in game_slugs() if get_game(s).play.kit is not None]
    budgets = [int(b) for b in args.budgets.split(",")]
    print(f"{args.count} games a cell, ISMCTS seat rotated; 95 % intervals\n")
    print("| game | players | budget | opponent | ISMCTS mean result | ISMCTS win share "
          "| equal bot | CPU s/game |")
    print("|---|---|---|---|---|---|---|---|")
    chunk = max(1, args.count // (args.jobs * 4))
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for slug in slugs:
            plugin = get_game(slug)
            rules = workspace_rules(plugin, find_workspace(Path(__file__).resolve().parents[1]))
            players = plugin.play.default_players(rules)
            for budget in budgets:
                for opponent in [b for b in ("random", "greedy") if b in plugin.play.bots]:
                    jobs = [(slug, opponent, budget, first, min(chunk, args.count - first))
                            for first in range(0, args.count, chunk)]
                    rewards: list[float] = []
                    wins: list[float] = []
                    cpu = 0.0
                    for r, w, spent in pool.imap(_cell, jobs):
                        rewards += r
                        wins += w
                        cpu += spent
                    mean, half = interval(rewards)
                    share, share_half = interval(wins)
                    print(f"| {slug} | {players} | {budget} | {opponent} | {mean:.3f} ± {half:.3f} "
                          f"| {share:.3f} ± {share_half:.3f} | {1 / players:.3f} wins, 0.500 result "
                          f"| {cpu / len(rewards):.3f} |", flush=True)


if __name__ == "__main__":
    main()
