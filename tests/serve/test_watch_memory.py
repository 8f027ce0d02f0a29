"""``pnp build --watch`` keeps its memory flat over a long session of broken and good saves.

A watch round is :func:`pnp.serve.watch.timed` around a build (what ``pnp build --watch`` runs
after each burst of changes); driving it directly makes 1,000 rounds affordable where a real
file watcher would wait its debounce each time. Each broken save differs from the last (a
new malformed line, a new bad value, a new unknown name): what a round keeps alive that is
keyed by the failing content, or reached from its error, grows by a little every save.
"""

from __future__ import annotations

import gc
from pathlib import Path

from pnp.build.pipeline import build
from pnp.core.workspace import Workspace
from pnp.serve.watch import Round, timed

ROUNDS = 1000
WARM_UP = 60  # rounds before the first measure: caches that are bounded fill up by then
ALLOWED_GROWTH_MB = 24  # the shared YAML constructor this replaced: 192 MB over the test
COMPONENTS = "card_data/tisigui/components.yaml"
GAME = "card_data/tisigui/game.yaml"


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def _broken(good: dict[str, str], save: int) -> tuple[str, str]:
    """The file and text of broken save number ``save``: four kinds in turn, each new."""
    kind = save % 4
    if kind == 0:  # malformed YAML: the parser stops
        return COMPONENTS, good[COMPONENTS].replace("title: 碟仙,", f"title: [碟仙{save},", 1)
    if kind == 1:  # a value YAML cannot construct: the scalar fails
        return COMPONENTS, good[COMPONENTS].replace("count: 5", f"count: !!int x{save}", 1)
    if kind == 2:  # a field the schema refuses, after the whole file loaded
        return COMPONENTS, good[COMPONENTS].replace("size: poker", f"size: pokr{save}", 1)
    return GAME, good[GAME] + f"\nunknown_field_{save}: {save}\n"  # another file of the game


def test_a_thousand_broken_and_good_saves_keep_memory_flat(workspace_copy: Path) -> None:
    workspace = Workspace(workspace_copy)
    good = {name: (workspace_copy / name).read_text(encoding="utf-8") for name in (COMPONENTS, GAME)}
    out = workspace_copy / "output"

    def run(_changed: tuple[str, ...]) -> object:
        return build(workspace, "tisigui", "zh-Hant", "a4", out)

    first = timed((), run)
    assert first.error is None, first.error
    rounds: list[Round[object]] = []
    baseline = 0.0
    for save in range(ROUNDS):
        if save == WARM_UP:
            gc.collect()
            baseline = _rss_mb()
        if save % 2:  # a good save: the last good sources again (an up-to-date build)
            for name, text in good.items():
                (workspace_copy / name).write_text(text, encoding="utf-8")
            done = timed((COMPONENTS,), run)
            assert done.error is None, (save, done.error)
        else:
            name, text = _broken(good, save // 2)
            assert text != good[name]
            (workspace_copy / name).write_text(text, encoding="utf-8")
            done = timed((name,), run)
            assert done.error is not None, save  # each broken save really fails
        if save < 8:
            rounds.append(done)  # a few rounds kept, as a caller may: they must not pin more
    gc.collect()
    growth = _rss_mb() - baseline
    assert growth < ALLOWED_GROWTH_MB, f"RSS grew {growth:.0f} MB over {ROUNDS - WARM_UP} rounds"
