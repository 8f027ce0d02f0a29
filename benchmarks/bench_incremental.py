"""CPU time of incremental builds against a full build, as a designer runs them: each step is
a fresh `pnp build all --lang all` process (imports and start-up included) on a private copy
of the workspace. Run from the repo root:

    python benchmarks/bench_incremental.py

Steps: a full build into an empty output/; a no-op rebuild; one card's text edited (tisigui's
villager card, then a wurenshenghuan card); the tisigui rulebook template edited. Prints a
Markdown table with each step's CPU time (user + system of the child process), its ratio to
the full build and what it re-rendered; paste it into benchmarks/README.md.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_build(workspace: Path) -> tuple[float, list[str]]:
    """CPU seconds of one `pnp build all --lang all`, and the outputs it rebuilt."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = child_cpu()
    done = subprocess.run([sys.executable, "-m", "pnp", "--root", str(workspace), "build", "all", "--lang", "all"],
                          capture_output=True, text=True, env=env, check=True)
    cpu = child_cpu() - before
    rebuilt = []
    for line in done.stderr.splitlines():
        if ": " not in line or line.startswith("["):
            continue
        head, _, parts = line.partition(": ")
        rebuilt += [f"{head} {part.split(' rebuilt')[0]}" for part in parts.split("; ") if " rebuilt" in part]
    return cpu, rebuilt


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(ROOT / "card_data", ws / "card_data")
        shutil.copytree(ROOT / "templates", ws / "templates")
        (ws / "fonts").symlink_to(ROOT / "fonts")
        steps: list[tuple[str, float, list[str]]] = []
        steps.append(("full build (empty output/)", *run_build(ws)))
        steps.append(("no-op rebuild", *run_build(ws)))
        edit(ws / "card_data/tisigui/components.yaml", "role: 找出碟仙的替身，指认正确就得分",
             "role: 找出碟仙的替身，指认对了就得分")
        steps.append(("one card edited (tisigui)", *run_build(ws)))
        edit(ws / "card_data/wurenshenghuan/components.yaml", "晚餐後端上來的那杯酒", "晚餐後才端上來的那杯酒")
        steps.append(("one card edited (wurenshenghuan)", *run_build(ws)))
        template = ws / "templates/tisigui/rulebook.md.j2"
        template.write_text(template.read_text(encoding="utf-8") + "\n多一句说明。\n", encoding="utf-8")
        steps.append(("rulebook template edited (tisigui)", *run_build(ws)))
    full = steps[0][1]
    print("| step | CPU (s) | of the full build | re-rendered |")
    print("|---|---:|---:|---|")
    for name, cpu, rebuilt in steps:
        shown = "everything" if name.startswith("full") else (", ".join(rebuilt) or "nothing")
        print(f"| {name} | {cpu:.2f} | {100 * cpu / full:.1f} % | {shown} |")


if __name__ == "__main__":
    main()
