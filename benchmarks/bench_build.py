"""Time `pnp build GAME --lang all` cold (a fresh process) and warm (fonts already loaded),
and report the size of every PDF. Run from the repo root:

    python benchmarks/bench_build.py            # every game in card_data/
    python benchmarks/bench_build.py tisigui    # one game

Prints a Markdown table; paste it into benchmarks/README.md with the date and machine.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pnp.build import build  # noqa: E402
from pnp.workspace import Workspace  # noqa: E402


def cold(game: str, out: Path) -> float:
    """A new interpreter: imports, font registration, OpenCC dictionaries, everything."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pnp.cli", "--root", str(ROOT), "build", game, "--lang", "all",
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


if __name__ == "__main__":
    main(sys.argv[1:])
