"""What vertical text (直排) costs: typesetting N short texts in columns against the same texts
set on lines, and a cold build of tisigui (whose card backs and shields carry vertical titles)
against the same game with those titles set horizontally, built in the same run. Run from the
repo root:

    python benchmarks/bench_vertical.py [--texts 2000] [--repeat 3]

Typesetting is fitting each text to its box with shrink-to-fit (columns: pnp.text.vertical;
lines: pnp.text.shrink, the horizontal text's fitter), every cache of break units, widths and
fits cleared before each round, in this process, timed with ``time.process_time``. A build is a
new process (`pnp build tisigui --lang all --force`), its CPU (user + system) read with
os.wait4 for that process alone, pnp's disk cache off. Prints Markdown tables; paste them into
benchmarks/README.md with the date and machine.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.tisigui_build import build_cpu, workspace  # noqa: E402
from pnp.core.units import MM  # noqa: E402
from pnp.core.workspace import BUNDLED_FONTS  # noqa: E402
from pnp.render.face_vertical import em_measure  # noqa: E402
from pnp.text import breakunits, place, shrink, unitmetrics, vertical  # noqa: E402
from pnp.text.fonts import kern_for, load_family, measure_for, squeeze_for  # noqa: E402
from pnp.text.linetypes import Run  # noqa: E402

LANG = "zh-Hant"
# Characters of titles and labels: Han, the marks a column turns or moves, digits for 縱中橫.
HAN = "替死鬼碟仙活人身份牌參考卡遮蔽板請你出來第號問題標記分數是非小局大骰子指認說謊"
MARKS = "「」，。《》"
BOX = (14.0, 58.0)  # mm: a column box; the horizontal texts get the same box turned, 58 × 14


def texts(count: int) -> list[str]:
    """``count`` titles of 3 to 15 characters, some bracketed, punctuated or numbered."""
    pick = random.Random(21)
    out = []
    for index in range(count):
        body = "".join(pick.choice(HAN) for _ in range(pick.randint(3, 9)))
        if index % 3 == 0:
            body = f"「{body}」"
        if index % 4 == 0:
            body += pick.choice("，。")
        if index % 5 == 0:
            body = f"第{pick.randint(1, 99)}{body}"
        out.append(body)
    return out


def _clear() -> None:
    breakunits.clear_caches()
    shrink.clear_caches()
    place.clear_caches()
    unitmetrics.clear_caches()
    vertical._units.cache_clear()  # noqa: SLF001 - the columns' own cache of break units


def typesetting(count: int, repeat: int) -> list[tuple[str, float]]:
    fonts = load_family(BUNDLED_FONTS, LANG)
    measure, squeeze, kern = measure_for(fonts), squeeze_for(fonts), kern_for(fonts)
    em = em_measure(fonts)
    titles = texts(count)
    w, h = BOX[0] * MM, BOX[1] * MM

    def columns() -> None:
        for title in titles:
            assert vertical.fit_columns([Run(title)], w, h, 14, 6, em) is not None

    def lines() -> None:
        for title in titles:
            assert shrink.fit_text([Run(title)], h, w, 14, 6, measure, squeeze=squeeze, kern=kern) is not None

    rows = []
    for label, work in (("horizontal (lines, the anchor)", lines), ("vertical (columns)", columns)):
        rows.append((label, _cpu(work, repeat)))
    return rows


def _cpu(work: Callable[[], None], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        _clear()
        start = time.process_time()
        work()
        runs.append(time.process_time() - start)
    return statistics.median(runs)


def _horizontal(text: str) -> str:
    assert "direction: vertical" in text
    return text.replace("direction: vertical", "direction: horizontal")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--texts", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = typesetting(args.texts, args.repeat)
    anchor = rows[0][1]
    print(f"| typesetting {args.texts} titles, {BOX[0]:g} × {BOX[1]:g} mm, 14 pt down to 6 pt "
          "| CPU (ms), median | per text (µs) | × anchor |")
    print("|---|---:|---:|---:|")
    for label, cpu in rows:
        print(f"| {label} | {cpu * 1000:.0f} | {cpu / args.texts * 1e6:.0f} | {cpu / anchor:.2f} |")
    print()
    print("| build (`pnp build tisigui --lang all --force`, with its art) | CPU (s), median | least | × anchor |")
    print("|---|---:|---:|---:|")
    builds = []
    for label, vertical_titles in (("titles set horizontally (the anchor)", False),
                                   ("as shipped: the couplet on the backs, two titles a shield", True)):
        root = workspace(None if vertical_titles else _horizontal)
        runs = [build_cpu(root) for _ in range(args.repeat)]
        shutil.rmtree(root)
        builds.append((label, statistics.median(runs), min(runs)))
    for label, median, least in builds:
        print(f"| {label} | {median:.2f} | {least:.2f} | {median / builds[0][1]:.2f} |")


if __name__ == "__main__":
    main()
