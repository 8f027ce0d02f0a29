"""Throughput of `pnp sample` and `pnp simulate`, per game.

    python benchmarks/bench_play.py [--samples N] [--games N] [--jobs N]

sample: N seeded games each played and narrated to Markdown in both scripts (what
`pnp sample GAME` does per run, minus process start-up), and the same games as JSON only.
simulate: N games through pnp.play.simulate, in one process and with the worker pool.
Prints a Markdown table; writes nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pnp.core.workspace import find_workspace  # noqa: E402
from pnp.play import narrate, simulate  # noqa: E402

RUNS = [("tisigui", None), ("wurenshenghuan", None), ("niutouwang", None),
        ("niutouwang", "official"), ("aizhewudi", None), ("aizhewudi", "abilities")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=50)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    workspace = find_workspace(Path(__file__).resolve().parent)
    print(f"Python {platform.python_version()}, {platform.machine()} {platform.system()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}\n")
    print(f"| game | variant | players | sample md, 2 scripts (games/s) | sample json (games/s) "
          f"| simulate 1 process (games/s) | simulate {args.jobs} workers (games/s) "
          f"| 10,000 games ≈ |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for slug, variant in RUNS:
        game = narrate.load_game_data(workspace, slug)
        started = time.perf_counter()
        for seed in range(1, args.samples + 1):
            played = narrate.play_sample(workspace, slug, None, seed, variant, game)
            for lang in ("zh-Hant", "zh-Hans"):
                narrate.narration(workspace, played, lang)
        md_rate = args.samples / (time.perf_counter() - started)
        started = time.perf_counter()
        for seed in range(1, args.samples + 1):
            played = narrate.play_sample(workspace, slug, None, seed, variant, game)
            json.dumps(played.log, ensure_ascii=False, indent=2)
        json_rate = args.samples / (time.perf_counter() - started)
        started = time.perf_counter()
        data = simulate.simulate(workspace, slug, args.games, None, 1, variant, jobs=1, game=game)
        one = args.games / (time.perf_counter() - started)
        started = time.perf_counter()
        pooled = simulate.simulate(workspace, slug, args.games, None, 1, variant, jobs=args.jobs,
                                   game=game)
        many = args.games / (time.perf_counter() - started)
        assert pooled == data, "worker processes changed the report"
        estimate = 10_000 / max(one, many)
        print(f"| {slug} | {variant or '—'} | {data['players']} | {md_rate:.0f} | {json_rate:.0f} "
              f"| {one:.0f} | {many:.0f} | {estimate:.0f} s |")


if __name__ == "__main__":
    main()
