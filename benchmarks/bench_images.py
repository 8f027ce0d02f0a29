"""What pictures cost: a cold build of tisigui with its art against the same game with the
``image`` elements taken out, and the cost of one picture by kind and size (read and checked
at load; drawn into a PDF once). Run from the repo root:

    python benchmarks/bench_images.py [--repeat 3]

Each build is a new process (`pnp build tisigui --lang all --force`), its CPU (user + system)
read with os.wait4 for that process alone, pnp's disk cache off. Prints Markdown tables; paste
them into benchmarks/README.md with the date and machine.
"""

from __future__ import annotations

import argparse
import io
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

from benchmarks.tisigui_build import build_cpu, workspace  # noqa: E402
from pnp.data.imagefiles import read_image_file  # noqa: E402
from pnp.render.images import ImageForms  # noqa: E402


def _without_art(text: str) -> str:
    return re.sub(r"(?m)^ *- \{type: image,.*\n", "", text)


def _pictures(folder: Path) -> list[tuple[str, str]]:
    art = folder / "art"
    art.mkdir(parents=True)
    shutil.copy(ROOT / "card_data" / "tisigui" / "art" / "night.svg", art / "night.svg")
    made = [("SVG, flat art (tisigui's night.svg)", "art/night.svg")]
    for width, height in ((750, 1050), (3000, 4000)):
        photo = Image.effect_mandelbrot((width, height), (-2, -1.5, 1, 1.5), 60).convert("RGB")
        for fmt, ext in (("PNG", "png"), ("JPEG", "jpg"), ("WEBP", "webp")):
            name = f"art/p{width}.{ext}"
            photo.save(folder / name, fmt)
            made.append((f"{fmt} {width} × {height}", name))
    return made


def _per_picture(repeat: int) -> list[tuple[str, float, float, int]]:
    folder = Path(tempfile.mkdtemp(prefix="bench-art-"))
    rows = []
    for label, name in _pictures(folder):
        loads, draws = [], []
        size = 0
        for _ in range(repeat):
            start = time.process_time()
            image = read_image_file(folder, name)
            loads.append(time.process_time() - start)
            start = time.process_time()
            out = io.BytesIO()
            canvas = Canvas(out)
            ImageForms(canvas, {name: image}).form(image)
            canvas.showPage()
            canvas.save()
            draws.append(time.process_time() - start)
            size = len(out.getvalue())
        rows.append((label, statistics.median(loads) * 1000, statistics.median(draws) * 1000, size))
    shutil.rmtree(folder)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| build (`pnp build tisigui --lang all --force`) | CPU (s), median | least |")
    print("|---|---:|---:|")
    for label, with_art in (("without the image elements", False), ("with its art (3 SVGs)", True)):
        root = workspace(None if with_art else _without_art)
        runs = [build_cpu(root) for _ in range(args.repeat)]
        print(f"| {label} | {statistics.median(runs):.2f} | {min(runs):.2f} |")
        shutil.rmtree(root)
    print()
    print("| picture | read and checked at load (ms) | drawn into a PDF once (ms) | PDF bytes |")
    print("|---|---:|---:|---:|")
    for label, load, draw, size in _per_picture(args.repeat):
        print(f"| {label} | {load:.1f} | {draw:.1f} | {size:,} |")


if __name__ == "__main__":
    main()
