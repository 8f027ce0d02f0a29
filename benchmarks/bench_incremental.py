"""CPU time of incremental builds against a full build, as a designer runs them: each step is
a fresh `pnp build all --lang all` process (imports and start-up included) on a private copy
of the workspace. Run from the repo root:

    python benchmarks/bench_incremental.py [--baseline REV] [--repeat 3] [--bytecode MODE]

Steps: a full build into an empty output/; a no-op rebuild; one card's text edited (tisigui's
villager card, then a wurenshenghuan card); the tisigui rulebook template edited. Prints a
Markdown table with each step's CPU time (user + system of the child process, median of the
repeats, and the least), its ratio to the full build of the same sequence and what it re-rendered. With
``--baseline``, the pnp package of that git revision runs the same steps too, interleaved
with this tree's, so both tables come from the same minutes of a shared machine. Paste them
into benchmarks/README.md.

Bytecode: every tree runs from a copy of its ``pnp`` package without ``__pycache__``.
``--bytecode compiled`` (the default) runs the children with ``PYTHONDONTWRITEBYTECODE=1`` and
no ``PYTHONPYCACHEPREFIX``, so each process compiles pnp's modules from source again (the
standard library and installed packages keep their own ``.pyc`` files). ``cached`` runs them
as on a designer's machine, where Python writes ``.pyc`` files: the variable is removed,
``PYTHONPYCACHEPREFIX`` points into the scratch folder, and an unmeasured full build of a
throwaway copy compiles everything first. ``both`` runs each sequence both ways. Nothing is
written in the repository either way.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from code_trees import BYTECODE_MODES, child_env, edit, package_copy  # noqa: E402


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


MODES = BYTECODE_MODES


def run_build(workspace: Path, env: dict[str, str]) -> tuple[float, list[str]]:
    """CPU seconds of one `pnp build all --lang all` run in ``env``, and the outputs it rebuilt."""
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


STEPS = ("full build (empty output/)", "no-op rebuild", "one card edited (tisigui)",
         "one card edited (wurenshenghuan)", "rulebook template edited (tisigui)")


def workspace_copy(scratch: Path) -> Path:
    ws = Path(tempfile.mkdtemp(dir=scratch)) / "ws"
    shutil.copytree(ROOT / "card_data", ws / "card_data")
    shutil.copytree(ROOT / "templates", ws / "templates")
    return ws


def sequence(env: dict[str, str], scratch: Path) -> list[tuple[float, list[str]]]:
    """The five steps on a fresh copy of the workspace, each a child run in ``env``."""
    ws = workspace_copy(scratch)
    steps = [run_build(ws, env), run_build(ws, env)]
    edit(ws / "card_data/tisigui/components.yaml", "role: 找出碟仙的替身，指认正确就得分",
         "role: 找出碟仙的替身，指认对了就得分")
    steps.append(run_build(ws, env))
    edit(ws / "card_data/wurenshenghuan/components.yaml", "晚餐後端上來的那杯酒", "晚餐後才端上來的那杯酒")
    steps.append(run_build(ws, env))
    template = ws / "templates/tisigui/rulebook.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n多一句说明。\n", encoding="utf-8")
    steps.append(run_build(ws, env))
    shutil.rmtree(ws.parent)
    return steps


def main(baseline: str | None, repeat: int, modes: tuple[str, ...]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        codes = {"this tree": package_copy(None, scratch / "tree")}
        if baseline:
            package_copy(baseline, scratch / "baseline")
            codes = {f"anchor {baseline}": scratch / "baseline", **codes}
        envs = {f"{label}, {mode}": child_env(code, mode, scratch / "pycache" / f"{index}")
                for index, (label, code) in enumerate(codes.items()) for mode in modes}
        for env in envs.values():
            if "PYTHONPYCACHEPREFIX" in env:  # the designer's second build onwards: bytecode written
                run_build(workspace_copy(scratch), env)
        runs: dict[str, list[list[tuple[float, list[str]]]]] = {label: [] for label in envs}
        for _ in range(repeat):  # interleaved, so a change in the machine's load hits all alike
            for label, env in envs.items():
                runs[label].append(sequence(env, scratch))
    for label, sequences in runs.items():
        cpus = [statistics.median(seq[i][0] for seq in sequences) for i in range(len(STEPS))]
        # Contention on a shared machine only ever adds CPU time: the least is the steadier.
        least = [min(seq[i][0] for seq in sequences) for i in range(len(STEPS))]
        print(f"\n{label} (pnp's bytecode {'kept' if label.endswith('cached') else 'compiled in every process'}), "
              f"median and least of {repeat}:\n")
        print("| step | CPU (s), median | of the full build | CPU (s), least | of the full build | re-rendered |")
        print("|---|---:|---:|---:|---:|---|")
        for i, name in enumerate(STEPS):
            rebuilt = sequences[0][i][1]
            shown = "everything" if i == 0 else (", ".join(rebuilt) or "nothing")
            print(f"| {name} | {cpus[i]:.2f} | {100 * cpus[i] / cpus[0]:.1f} % | {least[i]:.2f} | "
                  f"{100 * least[i] / least[0]:.1f} % | {shown} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="git revision whose pnp runs the same steps alongside (the anchor)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of the whole sequence; medians are shown")
    parser.add_argument("--bytecode", choices=(*MODES, "both"), default="compiled",
                        help="compiled: pnp compiled in every process; cached: .pyc files kept, "
                             "as on a designer's machine; both")
    options = parser.parse_args()
    main(options.baseline, options.repeat, MODES if options.bytecode == "both" else (options.bytecode,))
