"""Issue 25's build table, side by side with the WeasyPrint anchor in one run: CPU of a cold
`pnp build all --lang all`, and of `build all` after a colour edit in niutouwang's 104-card
layout and after one aizhewudi ability card's text (a card no book prints).

    python benchmarks/bench_issue25.py [--baseline REV] [--rounds 3] [--bytecode both]

Needs WeasyPrint beside pnp (see "Rulebook typesetting" in benchmarks/README.md). Each round
runs, interleaved so that the machine's load hits all alike: the anchor (WeasyPrint typesetting
the seven-page text of bench_rulebook.py in a new process, start-up included as in every pnp
step: CPU user + system), then for this tree (and the pnp of ``--baseline``, from a copy of its
package) a cold shelf build (``--force`` into an empty folder, the disk cache filled, and again
with it off) and the edit sequence on a private copy of the workspace: a full build, the
front layout's line colour of niutouwang's number cards (the rulebook's figures draw them), the
back layout's circle colour (no book draws a back), and one ability card's text, the same edit
in every round (from the second round on, a wording the disk cache has seen: as after an
undo), then that card's text again, to a wording no round has printed before. Every pnp
step is a new process (imports included), run by a Python that sees the installed packages
but not pnp's editable install (code_trees.plain_python: as after installing pnp's wheel); its
CPU is user + system from ``os.wait4``. With ``--bytecode cached`` (the default) pnp's ``.pyc``
files are kept, as on a designer's machine (pip compiles a wheel when it installs it);
``compiled`` compiles pnp from source in every process, as this machine's
``PYTHONDONTWRITEBYTECODE=1`` has it for an editable install; ``both`` measures each way
(code_trees.child_env). Prints a Markdown table per way of medians and least values, each as a
ratio to the anchor of the same round and (for the edits) to the sequence's full build. Writes
nothing in the repository.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from code_trees import BYTECODE_MODES, child_env, edit, package_copy, plain_python  # noqa: E402

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_rulebook import weasyprint_process_cpu  # noqa: E402

EDITS = {
    "colour edit, niutouwang front layout (rulebook figures draw it)":
        ("card_data/niutouwang/components.yaml",
         'stroke: "{color}", stroke_width: 0.8}\n      - {type: text, box: [15, 28',
         'stroke: "#3a6e2f", stroke_width: 0.8}\n      - {type: text, box: [15, 28'),
    "colour edit, niutouwang back layout": ("card_data/niutouwang/components.yaml", 'fill: "#742a37"',
                                            'fill: "#2a5b74"'),
    "aizhewudi ability card text (in no book)": ("card_data/aizhewudi/components.yaml", "必須亮出這張牌",
                                                 "必須翻開這張牌"),
}
# The same ability edit, but to a wording no build has printed before: the step above makes the
# same edit in every round, so from the second round on the disk cache holds what it printed
# (as after an undo); a designer trying new words meets this one.
FRESH = "aizhewudi ability card text, a wording never printed before"
# Common verbs both faces print and OpenCC converts; three of them make a round's new wording.
_WORDS = "展示打出公開揭交放下拿起丟棄收回保留翻轉移動"
COLD = ("cold build, cache filled", "cold build, cache off")
FULL = "full build (edit sequence, cache filled)"
STEPS = (*COLD, FULL, *EDITS, FRESH)
RATIOED = (*EDITS, FRESH)


def fresh_wording(number: int) -> str:
    """The ``number``-th wording of three of :data:`_WORDS` (each number below 22³ has its own)."""
    size = len(_WORDS)
    return "".join(_WORDS[number // size ** place % size] for place in range(3))


def anchor_run() -> Callable[[], float]:
    """A function timing one anchor run: WeasyPrint setting the seven-page text in a new process,
    start-up included as in every pnp step here (CPU seconds, user + system)."""
    return lambda: weasyprint_process_cpu("tisigui", 1)[0]


def child_cpu(python: Path, args: list[str], env: dict[str, str]) -> float:
    child = subprocess.Popen([str(python), "-m", "pnp", *args], env=env, cwd=tempfile.gettempdir(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"pnp {' '.join(args)} failed:\n{child.stderr.read().decode() if child.stderr else ''}")
    return usage.ru_utime + usage.ru_stime


def one_round(python: Path, env: dict[str, str], scratch: Path, cache: Path, number: int) -> dict[str, float]:
    env = {**env, "PNP_CACHE_DIR": str(cache)}
    found: dict[str, float] = {}
    for label, cache_dir in zip(COLD, (str(cache), ""), strict=True):
        out = scratch / "cold-out"
        shutil.rmtree(out, ignore_errors=True)
        cold = ["--root", str(ROOT), "build", "all", "--lang", "all", "--force", "--out", str(out)]
        found[label] = child_cpu(python, cold, {**env, "PNP_CACHE_DIR": cache_dir})
    ws = scratch / "ws"
    shutil.rmtree(ws, ignore_errors=True)
    shutil.copytree(ROOT / "card_data", ws / "card_data")
    shutil.copytree(ROOT / "templates", ws / "templates")
    build = ["--root", str(ws), "build", "all", "--lang", "all"]
    found[FULL] = child_cpu(python, build, env)
    for label, (name, old, new) in EDITS.items():
        edit(ws / name, old, new)
        found[label] = child_cpu(python, build, env)
    name, _, last = EDITS["aizhewudi ability card text (in no book)"]
    edit(ws / name, last, f"必須{fresh_wording(number)}這張牌")
    found[FRESH] = child_cpu(python, build, env)
    return found


def main(baseline: str | None, rounds: int, modes: tuple[str, ...]) -> None:
    timed = anchor_run()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        codes = {"this tree": package_copy(None, scratch / "tree")}
        if baseline:
            package_copy(baseline, scratch / "baseline")
            codes = {f"main at {baseline}": scratch / "baseline", **codes}
        python = plain_python(scratch / "venv")
        envs = {(label, mode): child_env(code, mode, scratch / "pycache" / f"{index}")
                for index, (label, code) in enumerate(codes.items()) for mode in modes}
        # Fill each tree's disk cache (and, kept, its bytecode) once, unmeasured.
        for index, env in enumerate(envs.values()):
            one_round(python, env, scratch / f"warm-{index}", scratch / f"cache-{index}", 0)
        anchors: list[float] = []
        runs: dict[tuple[str, str], list[dict[str, float]]] = {key: [] for key in envs}
        loads = []
        for number in range(1, rounds + 1):
            loads.append(os.getloadavg()[0])
            anchors.append(timed())
            for index, (key, env) in enumerate(envs.items()):
                runs[key].append(one_round(python, env, scratch / f"run-{index}", scratch / f"cache-{index}",
                                           number))
            anchors.append(timed())
    anchor = statistics.median(anchors)
    print(f"Anchor: WeasyPrint, the seven-page text in a new process, median {anchor:.2f} s CPU "
          f"(least {min(anchors):.2f}) over "
          f"{len(anchors)} runs; load average at each round's start: {', '.join(f'{x:.1f}' for x in loads)}.")
    labels = list(codes)
    for mode in modes:
        kept = "kept, as on a designer's machine" if mode == "cached" else "compiled from source in every process"
        print(f"\npnp's bytecode {kept}:\n")
        heads = " | ".join(f"{label}: CPU s median (least) | × anchor | of full" for label in labels)
        print(f"| step | {heads} |")
        print("|---|" + "---:|---:|---:|" * len(labels))
        for step in STEPS:
            cells = []
            for label in labels:
                values = [run[step] for run in runs[(label, mode)]]
                median, least = statistics.median(values), min(values)
                full = statistics.median(run[FULL] for run in runs[(label, mode)])
                share = f"{100 * median / full:.1f} %" if step in RATIOED else "—"
                cells.append(f"{median:.2f} ({least:.2f}) | {median / anchor:.2f}× | {share}")
            print(f"| {step} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="git revision whose pnp runs the same steps, interleaved")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bytecode", choices=(*BYTECODE_MODES, "both"), default="cached",
                        help="cached: .pyc files kept, as on a designer's machine; compiled: pnp compiled "
                             "in every process; both")
    options = parser.parse_args()
    main(options.baseline, options.rounds,
         BYTECODE_MODES if options.bytecode == "both" else (options.bytecode,))
