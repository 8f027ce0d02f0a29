"""A sweep on a Dask cluster beside the local pool, and a sweep's memory against its games.

    python benchmarks/bench_cluster.py speed [--games N]
    python benchmarks/bench_cluster.py memory [--games 10000,100000,1000000] [--jobs 2]

speed: the must-show grid (niutouwang, row_limit 5,6,7 × 4..5 players, N games a setting)
with 1 and 2 local worker processes and on a local Dask cluster (a scheduler and two
single-threaded workers on 127.0.0.1, started here and stopped after): wall time, CPU time of
every process that played (pnp, its pool, the scheduler and the workers), games/s, and
whether each JSON report is the same bytes as the first.
memory: one setting of N games, streamed: the peak resident memory of the whole process tree
(pnp and its pool workers, summed, sampled from /proc every 0.2 s) and of the largest single
process (ru_maxrss from wait4). Prints Markdown tables; writes nothing but temporary files.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PNP = [sys.executable, "-m", "pnp"]
GRID = ["niutouwang", "--sweep", "rules.row_limit=5,6,7", "--players", "4..5"]
PAGE = os.sysconf("SC_PAGE_SIZE")


def _tree(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    todo += [int(c) for c in children.read().split()]
        except OSError:
            continue
    return found


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _cpu(pid: int) -> float:
    """User + system seconds of a live process (not of its children)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured(args: list[str]) -> tuple[float, float, int, int, bytes]:
    """Wall seconds, CPU seconds (pnp and the children it waited for), peak bytes of the tree
    summed, peak bytes of the largest process, stdout."""
    with tempfile.TemporaryFile() as out:
        began = time.monotonic()
        process = subprocess.Popen([*PNP, *args], cwd=ROOT, stdout=out, stderr=subprocess.DEVNULL)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.2):
                peak[0] = max(peak[0], sum(_rss(p) for p in _tree(process.pid)))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        done.set()
        sampler.join()
        wall = time.monotonic() - began
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"pnp {' '.join(args)} failed")
        out.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, peak[0], usage.ru_maxrss * 1024, out.read()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LocalCluster:
    """A scheduler and two one-thread workers on 127.0.0.1 as plain processes."""

    def __init__(self) -> None:
        port = _free_port()
        self.address = f"tcp://127.0.0.1:{port}"
        bin_dir = Path(sys.executable).parent
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.scheduler = subprocess.Popen([bin_dir / "dask", "scheduler", "--host", "127.0.0.1", "--port",
                                           str(port), "--no-dashboard"], **quiet)
        self.workers = [subprocess.Popen([bin_dir / "dask", "worker", self.address, "--nworkers", "1",
                                          "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1"], **quiet)
                        for _ in range(2)]
        from distributed import Client

        with Client(self.address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)

    def cpu(self) -> float:
        return sum(_cpu(p) for proc in (self.scheduler, *self.workers) for p in _tree(proc.pid))

    def close(self) -> None:
        for proc in (*self.workers, self.scheduler):
            proc.terminate()
        for proc in (*self.workers, self.scheduler):
            proc.wait(30)


def speed(games: int) -> None:
    print("| grid | where | games | wall (s) | CPU (s) | games/s wall | games/s CPU | same JSON |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    first = None
    total = 6 * games
    base = ["simulate", *GRID, "--games", str(games), "--format", "json"]
    runs: list[tuple[str, list[str]]] = [("local, 1 worker", ["--jobs", "1"]), ("local, 2 workers", ["--jobs", "2"])]
    cluster = LocalCluster()
    try:
        runs.append(("Dask, 2 workers", ["--cluster", cluster.address]))
        for where, extra in runs:
            before = cluster.cpu()
            wall, cpu, _, _, out = measured([*base, *extra])
            cpu += cluster.cpu() - before
            first = first or out
            print(f"| row_limit 5,6,7 × 4..5 | {where} | {total:,} | {wall:.1f} | {cpu:.1f} | "
                  f"{total / wall:,.0f} | {total / cpu:,.0f} | {out == first} |")
    finally:
        cluster.close()


def memory(counts: list[int], jobs: int) -> None:
    print("| games | workers | wall (s) | CPU (s) | peak of the tree (MB) | largest process (MB) |")
    print("|---:|---:|---:|---:|---:|---:|")
    for games in counts:
        wall, cpu, tree, largest, _ = measured(["simulate", "niutouwang", "--sweep", "rules.row_limit=6",
                                                "--players", "4", "--games", str(games), "--format", "json",
                                                "--jobs", str(jobs)])
        print(f"| {games:,} | {jobs} | {wall:.0f} | {cpu:.0f} | {tree / 1e6:.1f} | {largest / 1e6:.1f} |",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("speed", "memory"))
    parser.add_argument("--games", default=None)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs\n")
    if args.what == "speed":
        speed(int(args.games or 2000))
    else:
        memory([int(n) for n in (args.games or "10000,100000,1000000").split(",")], args.jobs)
    print(f"\nload average {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    main()
