"""CPU time of incremental builds against a full build, as a designer runs them: each step is
a fresh `pnp build all --lang all` process (imports and start-up included) on a private copy
of the workspace. Run from the repo root:

    python benchmarks/bench_incremental.py [--baseline REV] [--repeat 3]

Steps: a full build into an empty output/; a no-op rebuild; one card's text edited (tisigui's
villager card, then a wurenshenghuan card); the tisigui rulebook template edited. Prints a
Markdown table with each step's CPU time (user + system of the child process, median of the
repeats), its ratio to the full build of the same sequence and what it re-rendered. With
``--baseline``, the pnp package of that git revision runs the same steps too, interleaved
with this tree's, so both tables come from the same minutes of a shared machine. Paste them
into benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_build(workspace: Path, code: Path) -> tuple[float, list[str]]:
    """CPU seconds of one `pnp build all --lang all` run by the pnp package under ``code``,
    and the outputs it rebuilt."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    before = child_cpu()
    done = subprocess.run([sys.executable, "-m", "pnp", "--root", str(workspace), "build", "all", "--lang", "all"],
                          capture_output=True, text=True, env=env, check=True, cwd=tempfile.gettempdir())
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


STEPS = ("full build (empty output/)", "no-op rebuild", "one card edited (tisigui)",
         "one card edited (wurenshenghuan)", "rulebook template edited (tisigui)")


def sequence(code: Path, scratch: Path) -> list[tuple[float, list[str]]]:
    """The five steps on a fresh copy of the workspace, built by the pnp under ``code``."""
    ws = Path(tempfile.mkdtemp(dir=scratch)) / "ws"
    shutil.copytree(ROOT / "card_data", ws / "card_data")
    shutil.copytree(ROOT / "templates", ws / "templates")
    (ws / "fonts").symlink_to(ROOT / "fonts")
    steps = [run_build(ws, code), run_build(ws, code)]
    edit(ws / "card_data/tisigui/components.yaml", "role: 找出碟仙的替身，指认正确就得分",
         "role: 找出碟仙的替身，指认对了就得分")
    steps.append(run_build(ws, code))
    edit(ws / "card_data/wurenshenghuan/components.yaml", "晚餐後端上來的那杯酒", "晚餐後才端上來的那杯酒")
    steps.append(run_build(ws, code))
    template = ws / "templates/tisigui/rulebook.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n多一句说明。\n", encoding="utf-8")
    steps.append(run_build(ws, code))
    shutil.rmtree(ws.parent)
    return steps


def main(baseline: str | None, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        codes = {"this tree": ROOT}
        if baseline:
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", baseline, "pnp"], check=True,
                                     capture_output=True).stdout
            (scratch / "baseline").mkdir()
            subprocess.run(["tar", "-x", "-C", str(scratch / "baseline")], input=archive, check=True)
            codes = {f"anchor {baseline}": scratch / "baseline", **codes}
        runs: dict[str, list[list[tuple[float, list[str]]]]] = {label: [] for label in codes}
        for _ in range(repeat):  # interleaved, so a change in the machine's load hits both
            for label, code in codes.items():
                runs[label].append(sequence(code, scratch))
    for label, sequences in runs.items():
        cpus = [statistics.median(seq[i][0] for seq in sequences) for i in range(len(STEPS))]
        full = cpus[0]
        print(f"\n{label}, median of {repeat}:\n")
        print("| step | CPU (s) | of the full build | re-rendered |")
        print("|---|---:|---:|---|")
        for i, name in enumerate(STEPS):
            rebuilt = sequences[0][i][1]
            shown = "everything" if i == 0 else (", ".join(rebuilt) or "nothing")
            print(f"| {name} | {cpus[i]:.2f} | {100 * cpus[i] / full:.1f} % | {shown} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="git revision whose pnp runs the same steps alongside (the anchor)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of the whole sequence; medians are shown")
    options = parser.parse_args()
    main(options.baseline, options.repeat)
