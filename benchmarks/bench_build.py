"""Time `pnp build GAME --lang all` cold (a fresh process) and warm (fonts already loaded),
and report the size of every PDF. Run from the repo root:

    python benchmarks/bench_build.py            # every game in card_data/
    python benchmarks/bench_build.py tisigui    # one game

With ``--shelf``, time the whole shelf instead: `pnp build all --lang all --force` into an
empty folder, each run a new process, CPU (user + system) and peak resident memory read with
os.wait4 for that process alone. The anchor is the same command run by the code of a git
revision (``--baseline``, default: the commit where this branch left main) in the same
session, so the ratios hold however busy the machine is. This tree is run three ways: with
pnp's disk cache turned off
(``PNP_CACHE_DIR=``), with an empty cache (the first build on a machine, which fills it), and
with the cache filled (every later build). Every run's PDFs are compared by SHA-256 with the
anchor's. Then the start-up of `pnp --help`, `pnp list` and `pnp calc niutouwang heads 55`.

    python benchmarks/bench_build.py --shelf [--baseline REV] [--repeat 3]

Prints Markdown tables; paste them into benchmarks/README.md with the date and machine.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from code_trees import package_copy  # noqa: E402

sys.path.insert(0, str(ROOT))

from pnp.build.pipeline import build  # noqa: E402
from pnp.core.workspace import Workspace  # noqa: E402


def cold(game: str, out: Path) -> float:
    """A new interpreter: imports, font registration, OpenCC dictionaries, everything."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pnp", "--root", str(ROOT), "build", game, "--lang", "all",
                    "--out", str(out)], check=True, capture_output=True)
    return time.perf_counter() - start


def warm(game: str, out: Path, repeats: int = 3) -> float:
    """Best of a few in-process builds once fonts and converters are cached."""
    workspace = Workspace(ROOT)
    build(workspace, game, "all", "a4", out)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        build(workspace, game, "all", "a4", out)
        best = min(best, time.perf_counter() - start)
    return best


def main(games: list[str]) -> None:
    games = games or Workspace(ROOT).game_slugs()
    print("| game | cold build (s) | warm build (s) | file | zh-Hant KiB | zh-Hans KiB |")
    print("|---|---:|---:|---|---:|---:|")
    for game in games:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            cold_s = cold(game, out / "cold")
            warm_s = warm(game, out / "warm")
            for index, name in enumerate(("components.pdf", "rulebook.pdf")):
                sizes = []
                for lang in ("zh-Hant", "zh-Hans"):
                    path = out / "warm" / game / lang / name
                    sizes.append(f"{path.stat().st_size / 1024:.0f}" if path.exists() else "–")
                timing = (f"{cold_s:.2f} | {warm_s:.2f}" if index == 0 else " | ")
                print(f"| {game if index == 0 else ''} | {timing} | {name} | {sizes[0]} | {sizes[1]} |")


def measured(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """CPU seconds (user + system) and peak resident MiB of one child process."""
    # Run outside the repo, so that the package comes from the environment or PYTHONPATH and
    # not from the current folder.
    child = subprocess.Popen(command, env=env, cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    errors = child.stderr.read().decode() if child.stderr else ""
    if child.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({child.returncode}):\n{errors}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*.pdf"))}


def shelf(revision: str | None, repeat: int) -> None:
    if revision is None:  # where this branch left main
        revision = subprocess.run(["git", "-C", str(ROOT), "merge-base", "HEAD", "main"], check=True,
                                  capture_output=True, text=True).stdout.strip()[:10]
    base_env = {k: v for k, v in os.environ.items() if k != "PNP_CACHE_DIR"}
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        old_code = package_copy(revision, scratch / "baseline")
        filled = scratch / "cache-filled"

        def run(label: str, env: dict[str, str], code: Path | None = None) -> tuple[float, float, dict[str, str]]:
            out = scratch / "out" / label.replace(" ", "-")
            env = dict(env)
            if code is not None:
                env["PYTHONPATH"] = str(code)
            cpu, rss = measured([sys.executable, "-m", "pnp", "--root", str(ROOT), "build", "all",
                                 "--lang", "all", "--force", "--out", str(out)], env)
            found = digests(out)
            subprocess.run(["rm", "-rf", str(out)], check=True)
            return cpu, rss, found

        # Fill the cache once before timing the runs that use a filled cache.
        run("fill", {**base_env, "PNP_CACHE_DIR": str(filled)}, ROOT)
        # This tree runs with PYTHONPATH set to it, as the anchor to its extracted copy: without
        # it the child imports whichever pnp is installed (an editable install of another
        # checkout would be timed as "this tree").
        cases = [
            (f"anchor: {revision}", lambda i: {**base_env, "PNP_CACHE_DIR": ""}, old_code),
            (f"anchor: {revision}, empty cache (first build)",
             lambda i: {**base_env, "PNP_CACHE_DIR": str(scratch / f"anchor-empty-{i}")}, old_code),
            ("this tree, cache off", lambda i: {**base_env, "PNP_CACHE_DIR": ""}, ROOT),
            ("this tree, empty cache (first build)",
             lambda i: {**base_env, "PNP_CACHE_DIR": str(scratch / f"cache-empty-{i}")}, ROOT),
            ("this tree, cache filled", lambda i: {**base_env, "PNP_CACHE_DIR": str(filled)}, ROOT),
        ]
        results: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in cases}
        reference: dict[str, str] | None = None
        same = {label: True for label, _, _ in cases}
        for i in range(repeat):  # interleaved, so a change in the machine's load hits every case
            for label, env, code in cases:
                cpu, rss, found = run(label, env(i), code)
                results[label].append((cpu, rss))
                if reference is None:
                    reference = found
                same[label] = same[label] and found == reference
        anchor = statistics.median(cpu for cpu, _ in results[cases[0][0]])
        print(f"`pnp build all --lang all --force`, {len(reference or {})} PDFs, median of {repeat}:\n")
        # The least CPU of the runs too: contention on a shared machine only ever adds to it.
        best_anchor = min(cpu for cpu, _ in results[cases[0][0]])
        print("| build | CPU (s), median | × anchor | CPU (s), least | × anchor | peak memory (MiB) "
              "| same PDF bytes as the anchor |")
        print("|---|---:|---:|---:|---:|---:|---|")
        for label, _, _ in cases:
            cpu = statistics.median(c for c, _ in results[label])
            best = min(c for c, _ in results[label])
            rss = max(r for _, r in results[label])
            print(f"| {label} | {cpu:.2f} | {cpu / anchor:.2f} | {best:.2f} | {best / best_anchor:.2f} | {rss:.0f} "
                  f"| {'yes' if same[label] else 'NO'} |")

        print("\nStart-up (median of 5, cache filled):\n")
        print(f"| command | CPU (s), anchor {revision} | CPU (s), this tree |")
        print("|---|---:|---:|")
        for command in (["--help"], ["list"], ["calc", "niutouwang", "heads", "55"]):
            cells = []
            for code in (old_code, ROOT):
                env = {**base_env, "PNP_CACHE_DIR": str(filled)}
                if code is not None:
                    env["PYTHONPATH"] = str(code)
                cells.append(statistics.median(
                    measured([sys.executable, "-m", "pnp", "--root", str(ROOT), *command], env)[0]
                    for _ in range(5)))
            print(f"| `pnp {' '.join(command)}` | {cells[0]:.2f} | {cells[1]:.2f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games for the per-game table (default: all)")
    parser.add_argument("--shelf", action="store_true", help="time the whole shelf against a baseline")
    parser.add_argument("--baseline", help="git revision of the anchor (with --shelf; default: where "
                        "HEAD left main)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (with --shelf)")
    options = parser.parse_args()
    if options.shelf:
        shelf(options.baseline, options.repeat)
    else:
        main(options.games)
