"""Save to new version in `pnp serve`, as the page sees it over the long poll, beside the CLI's
own rebuild of the same edit. Run from the repo root, in an environment that has WeasyPrint for
the anchor (see benchmarks/README.md; without it the anchor is left out):

    python benchmarks/bench_serve.py [--game all] [--repeat 1] [--baseline REV] [--watch | --watch-only]

`pnp serve GAME` runs in a new process on a private copy of the workspace (card_data/ and
templates/, the bundled fonts); the benchmark waits for its first build, then makes the ten
edits below one after the other. Each is timed from the moment the edited file is written to
the moment `/version?after=N` answers with the first version that shows rebuilt outputs (the
page fetches itself again then: an early version, activity "finishing", showing the first
outputs built while the rest is built, or the version with every output), and on to the version
where `pnp check` and the sample game are done too. The serve process's CPU time is read from
/proc when that first version is answered (an upper bound: serve goes on building meanwhile)
and over the whole edit.

With ``--watch``, `pnp build GAME --watch` (PDFs in both scripts) makes the same edits in a
third copy, each timed from the write to the loop's "done" line, with the CPU the watching
process spent meanwhile; its runs alternate between this tree and the baseline. With
``--watch-only`` only those are timed.

For comparison the same edit is made in a second copy and built there with the command line,
`pnp build GAME --lang all --png` (what serve builds, in a new process: start-up included),
timed by the wall clock and its CPU.

With ``--baseline``, the pnp package of that git revision runs the same edits too, after this
tree's, in the same run. Each runs from a copy of its package taken at the start (PYTHONPATH),
so editing the checkout while the benchmark runs changes nothing.

The WeasyPrint anchor (bench_rulebook.py's seven-page text of tisigui's rulebook, set in a new
process with its start-up, as bench_issue25.py's) is measured at the start and the end of the
same run. Prints a Markdown table with the machine's load; paste it into benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from code_trees import package_copy  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Edit:
    label: str
    game: str
    path: str  # workspace-relative
    old: str  # replaced once; "" appends ``new``
    new: str


EDITS = (
    Edit("one card's text", "tisigui", "card_data/tisigui/components.yaml", "指认正确就得分", "指认对了就得分"),
    Edit("one card's flavour text", "wurenshenghuan", "card_data/wurenshenghuan/components.yaml",
         "晚餐後端上來的那杯酒", "晚餐後才端上來的那杯酒"),
    Edit("an ability card printed in no book", "aizhewudi", "card_data/aizhewudi/components.yaml",
         "接收那位玩家的花和剩下的行動牌", "接收那位玩家的花與剩下的行動牌"),
    Edit("a colour of 2-head cards (layout field map)", "niutouwang", "card_data/niutouwang/components.yaml",
         '"2": "#4f86c6"', '"2": "#4f86c7"'),
    Edit("a stroke of every number card (layout)", "niutouwang", "card_data/niutouwang/components.yaml",
         "stroke_width: 0.35}", "stroke_width: 0.4}"),
    Edit("a rules number (printed on a card and in the books)", "aizhewudi", "card_data/aizhewudi/game.yaml",
         "playboy: 5000", "playboy: 6000"),
    Edit("the rulebook template's text", "tisigui", "templates/tisigui/rulebook.md.j2", "", "\n多一句说明。\n"),
    Edit("the player aid template", "niutouwang", "templates/niutouwang/aid.md.j2", "玩家速查", "玩家速查表"),
    Edit("the sample game's narration template", "aizhewudi", "templates/aizhewudi/narration.md.j2", "",
         "\n（示範局到此為止。）\n"),
    Edit("a front layout's background", "tisigui", "card_data/tisigui/components.yaml",
         'background: "#2a2238"', 'background: "#2a2239"'),
)


def workspace_copy(into: Path) -> Path:
    shutil.copytree(ROOT / "card_data", into / "card_data")
    shutil.copytree(ROOT / "templates", into / "templates")
    return into


def apply(root: Path, edit: Edit) -> None:
    path = root / edit.path
    text = path.read_text(encoding="utf-8")
    if edit.old:
        assert edit.old in text, f"{edit.old!r} not in {path}"
        text = text.replace(edit.old, edit.new, 1)
    else:
        text += edit.new
    path.write_text(text, encoding="utf-8")


def process_cpu(pid: int) -> float:
    """User plus system CPU seconds of a running process (and its waited-for children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / TICKS


class Served:
    """A `pnp serve` child and the long poll the page makes."""

    def __init__(self, root: Path, game: str, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pnp", "--root", str(root), "serve", game, "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=tempfile.gettempdir())
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"serving (http://\S+/)", line)
        if not found:
            self.process.kill()
            raise SystemExit(f"pnp serve did not start: {line!r}")
        self.url = found.group(1)
        self.version = 0

    def poll(self, after: int | None) -> dict[str, object]:
        query = "" if after is None else f"?after={after}"
        with urllib.request.urlopen(f"{self.url}version{query}", timeout=60) as reply:
            answer: dict[str, object] = json.load(reply)
        return answer

    def until(self, done: set[str]) -> tuple[float, int]:
        """Long-poll until a version whose activity is in ``done``; when it answered and which."""
        while True:
            state = self.poll(self.version)
            self.version = int(str(state["version"]))
            if state["activity"] in done:
                return time.perf_counter(), self.version

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)


@contextmanager
def served(root: Path, game: str, env: dict[str, str]) -> Iterator[Served]:
    server = Served(root, game, env)
    try:
        yield server
    finally:
        server.stop()


def cli_build(root: Path, game: str, env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds of `pnp build GAME --lang all --png` in a new process."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "pnp", "--root", str(root), "-q", "build", game,
                              "--lang", "all", "--png"], env=env, cwd=tempfile.gettempdir(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status:
        errors = child.stderr.read().decode() if child.stderr else ""
        raise SystemExit(f"pnp build {game} failed:\n{errors}")
    return wall, usage.ru_utime + usage.ru_stime


def weasyprint_anchor(repeat: int = 3) -> tuple[float, int] | None:
    """The anchor of bench_issue25.py: WeasyPrint setting bench_rulebook.py's seven-page text in
    a new process, start-up included (median CPU seconds, and the pages: 7); None without
    WeasyPrint."""
    try:
        import weasyprint  # noqa: F401
    except ImportError:
        return None
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_rulebook

    return statistics.median(bench_rulebook.weasyprint_process_cpu("tisigui", repeat)), 7


@dataclass(frozen=True)
class Timed:
    shown: float  # save to the first version showing rebuilt outputs
    checked: float  # save to the version with check and sample done
    shown_cpu: float  # serve's CPU from the save to that first version
    serve_cpu: float
    cli_wall: float
    cli_cpu: float


def watch_times(game: str, scratch: Path, code: Path) -> list[tuple[float, float]]:
    """Save → "done" of `pnp build GAME --watch` (PDFs, both scripts) for each edit: wall seconds
    from the write to the moment the loop prints that the round is done, and the CPU seconds
    the watching process spent meanwhile (read from /proc; on a busy machine the wall is
    mostly waiting for a core, the CPU is what the round costs)."""
    env = {**os.environ, "PNP_CACHE_DIR": str(scratch / "cache"), "PYTHONPATH": str(code)}
    root = workspace_copy(scratch / "watch")
    child = subprocess.Popen([sys.executable, "-m", "pnp", "--root", str(root), "build", game, "--watch"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
                             cwd=tempfile.gettempdir())
    assert child.stderr is not None

    def until(pattern: str) -> float:
        for line in child.stderr:  # type: ignore[union-attr]
            if line.startswith(pattern):
                return time.perf_counter()
        raise SystemExit(f"pnp build --watch ended before printing {pattern!r}")

    times = []
    try:
        until("watching")
        for edit in EDITS:
            if game not in ("all", edit.game):
                continue
            cpu_before = process_cpu(child.pid)
            apply(root, edit)
            saved = time.perf_counter()
            done = until("done in") - saved
            times.append((done, process_cpu(child.pid) - cpu_before))
            until("watching")
    finally:
        child.terminate()
        child.wait(timeout=20)
    return times


def run(game: str, scratch: Path, code: Path) -> list[Timed]:
    # One private disk cache for both sides, filled by the first build, as on a designer's machine.
    env = {**os.environ, "PNP_CACHE_DIR": str(scratch / "cache"), "PYTHONPATH": str(code)}
    serve_root = workspace_copy(scratch / "serve")
    cli_root = workspace_copy(scratch / "cli")
    cli_build(cli_root, game, env)
    results = []
    with served(serve_root, game, env) as server:
        server.until({""})  # the first build, check and samples
        for edit in EDITS:
            if game not in ("all", edit.game):
                continue
            cpu_before = process_cpu(server.process.pid)
            apply(serve_root, edit)
            saved = time.perf_counter()
            shown, _ = server.until({"finishing", "checking", ""})
            shown_cpu = process_cpu(server.process.pid) - cpu_before
            checked, _ = server.until({""}) if server.poll(None)["activity"] else (shown, 0)
            serve_cpu = process_cpu(server.process.pid) - cpu_before
            apply(cli_root, edit)
            cli_wall, cli_cpu = cli_build(cli_root, game, env)
            results.append(Timed(shown - saved, checked - saved, shown_cpu, serve_cpu, cli_wall, cli_cpu))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="all", help="the game served (default: all)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of the ten edits; medians are shown")
    parser.add_argument("--baseline", help="git revision whose pnp makes the same edits after this tree")
    parser.add_argument("--watch", action="store_true", help="time `pnp build GAME --watch` over the same edits too")
    parser.add_argument("--watch-only", action="store_true", help="time `pnp build GAME --watch` alone, not serve")
    options = parser.parse_args()
    load_before = os.getloadavg()
    anchors = [weasyprint_anchor()]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    trees: dict[str, list[list[Timed]]] = {}
    watched: dict[str, list[list[tuple[float, float]]]] = {}
    with tempfile.TemporaryDirectory() as packages:
        codes = {"this tree": package_copy(None, Path(packages) / "tree")}
        if options.baseline:
            codes[f"baseline {options.baseline}"] = package_copy(options.baseline, Path(packages) / "baseline")
        for label, code in codes.items():
            for _ in range(0 if options.watch_only else options.repeat):
                with tempfile.TemporaryDirectory() as tmp:
                    trees.setdefault(label, []).append(run(options.game, Path(tmp), code))
        # Watch runs are short: the trees take turns, first one then the other, so a busy minute
        # on a shared machine falls on both.
        for turn in range(options.repeat if options.watch or options.watch_only else 0):
            for label in list(codes) if turn % 2 == 0 else reversed(codes):
                with tempfile.TemporaryDirectory() as tmp:
                    watched.setdefault(label, []).append(watch_times(options.game, Path(tmp), codes[label]))
    anchors.append(weasyprint_anchor())
    load_after = os.getloadavg()
    what = f"pnp build {options.game} --watch" if options.watch_only else f"pnp serve {options.game}"
    print(f"`{what}` from {started} to {time.strftime('%H:%M UTC', time.gmtime())}, "
          f"median of {options.repeat} run(s); load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    for label, runs in trees.items():
        table(label, options.game, runs)
    edits = [edit.label for edit in EDITS if options.game in ("all", edit.game)]
    if watched:
        print(f"\n`pnp build {options.game} --watch`, save → done, median of {options.repeat} run(s):\n")
        heads = [f"{label}: {what}" for label in watched for what in ("wall (s)", "CPU (s)")]
        print("| edit | " + " | ".join(heads) + " |")
        print("|---|" + "---:|" * len(heads))
        columns = [[statistics.median(times[i][part] for times in runs) for i in range(len(edits))]
                   for runs in watched.values() for part in (0, 1)]
        for i, label in enumerate(edits):
            print(f"| {label} | " + " | ".join(f"{column[i]:.2f}" for column in columns) + " |")
        print("| **median** | " + " | ".join(f"{statistics.median(column):.2f}" for column in columns) + " |")
    measured = [anchor for anchor in anchors if anchor is not None]
    if measured:
        shown = ", ".join(f"{cpu:.2f} s ({pages} pages)" for cpu, pages in measured)
        print(f"\nWeasyPrint anchor (the seven-page text in a new process, CPU, median of 3), "
              f"before and after: {shown}")
    else:
        print("\nWeasyPrint is not installed here: no anchor.")


def table(label: str, game: str, runs: list[list[Timed]]) -> None:
    edits = [edit for edit in EDITS if game in ("all", edit.game)]

    def median(field: str, index: int) -> float:
        return statistics.median(getattr(timed[index], field) for timed in runs)

    print(f"\n{label}:\n")
    print("| edit | game | save → new version (s) | save → check and sample done (s) "
          "| serve CPU to new version (s) | serve CPU, whole edit (s) "
          "| `pnp build --lang all --png` wall (s) | its CPU (s) | new version − CLI (s) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for index, edit in enumerate(edits):
        shown, cli = median("shown", index), median("cli_wall", index)
        print(f"| {edit.label} | {edit.game} | {shown:.2f} | {median('checked', index):.2f} | "
              f"{median('shown_cpu', index):.2f} | {median('serve_cpu', index):.2f} | {cli:.2f} | "
              f"{median('cli_cpu', index):.2f} | {shown - cli:+.2f} |")
    columns = ("shown", "checked", "shown_cpu", "serve_cpu", "cli_wall", "cli_cpu")
    medians = [statistics.median(median(field, i) for i in range(len(edits))) for field in columns]
    print(f"| **median of {len(edits)}** | | " + " | ".join(f"{value:.2f}" for value in medians)
          + f" | {medians[0] - medians[4]:+.2f} |")


if __name__ == "__main__":
    main()
