"""A sweep's speed and memory: `pnp simulate --sweep` run as a user runs it.

    python benchmarks/bench_sweep.py [--games N] [--memory N,N,...]

speed: the must-show grid (niutouwang, row_limit 5,6,7 × 4..5 players, N games a setting)
with 1 and 2 worker processes: wall time, CPU of pnp and its workers, games/s of each, and
whether the two JSON reports are the same bytes.
memory: one setting of N games with one process, the sweep (streamed tallies) beside the plain
`pnp simulate` (every game's summary kept until the report): the peak resident memory of the
process (ru_maxrss from wait4). Prints Markdown tables; writes nothing but temporary files.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PNP = [sys.executable, "-m", "pnp"]
GRID = ["niutouwang", "--sweep", "rules.row_limit=5,6,7", "--players", "4..5"]


def measured(args: list[str]) -> tuple[float, float, int, bytes]:
    """Wall seconds, CPU seconds (the process and its children), peak KB, stdout."""
    with tempfile.TemporaryFile() as out:
        began = time.monotonic()
        process = subprocess.Popen([*PNP, *args], cwd=ROOT, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.monotonic() - began
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode:
            raise SystemExit(f"pnp {' '.join(args)} failed")
        out.seek(0)
        # wait4's usage counts the process and the workers it waited for.
        return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, out.read()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--memory", default="10000,100000")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs\n")
    print("| grid | workers | games | wall (s) | CPU (s) | games/s wall | games/s CPU | same JSON |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    first = None
    total = 6 * args.games
    for jobs in (1, 2):
        wall, cpu, _, out = measured(["simulate", *GRID, "--games", str(args.games), "--format", "json",
                                      "--jobs", str(jobs)])
        first = first or out
        print(f"| row_limit 5,6,7 × 4..5 | {jobs} | {total:,} | {wall:.1f} | {cpu:.1f} | "
              f"{total / wall:,.0f} | {total / cpu:,.0f} | {out == first} |")
    print("\n| games | sweep peak (MB) | sweep wall (s) | plain simulate peak (MB) | plain wall (s) |")
    print("|---:|---:|---:|---:|---:|")
    for games in (int(n) for n in args.memory.split(",")):
        one = ["niutouwang", "--players", "4", "--games", str(games), "--format", "json", "--jobs", "1"]
        s_wall, _, s_peak, _ = measured(["simulate", *one, "--sweep", "rules.row_limit=6"])
        p_wall, _, p_peak, _ = measured(["simulate", *one])
        print(f"| {games:,} | {s_peak / 1024:.0f} | {s_wall:.0f} | {p_peak / 1024:.0f} | {p_wall:.0f} |")


if __name__ == "__main__":
    main()
