"""A two-sided test sheet that measures how far a printer shifts the back side in duplex.

The front carries graduated scales at five spots (the centre and near each corner); the back
carries, behind each scale's zero, a cross of thin lines. Printed double-sided with a
long-edge flip and held against a window, each line of the back shows through at some mark
of the front's scale: that mark is the correction to pass to ``pnp build --back-offset X,Y``.
Five spots show a rotation or a scale difference as readings that disagree.

``--back-offset X,Y`` moves the whole back sheet X mm to the right and Y mm down, as the back
page appears in a PDF viewer. Seen through the paper the back is mirrored left to right, so
the horizontal scale counts up to the right and the vertical one counts up upwards: a back
line showing at +1 on the horizontal scale and −0.5 on the vertical one asks for
``--back-offset 1,-0.5``.

The sheet is an output of the build pipeline (:data:`CALIBRATION`), though not a game's: made
of the paper, the back offset, the script and its fonts, recorded at the output root and
written again only when one of them changed.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp.build.outputs import Artifact, Output, OutputKind, Params, Rendered, RenderJob
from pnp.build.pipeline import FileReport, SheetOptions, make_file
from pnp.core.units import MM
from pnp.core.workspace import Workspace
from pnp.layout.presets import sheet_spec
from pnp.text.fonts import FontFamily, load_family

SCALE_MM = 5  # each scale reads from -5 to +5 mm
TICK_MM = 0.5
SPOT_INSET = 40.0  # mm from the paper edges to the corner spots
INK = HexColor("#000000")
GREY = HexColor("#666666")
BACK_LINE = HexColor("#d01010")

WORDS = {
    "zh-Hant": {
        "title": "雙面列印校準頁（{paper}）",
        "steps": ["1. 以實際大小、雙面（長邊翻頁）列印本頁。",
                  "2. 對著窗戶或燈光，看背面的紅線落在正面刻度的哪一格。",
                  "3. 橫向刻度的讀數是 X，直向刻度的讀數是 Y（單位 mm）。",
                  "4. 建置時加上 --back-offset X,Y，或寫進 pnp.toml 的 back_offset。",
                  "五處讀數不一致時，印表機有旋轉或縮放，請取中央的讀數。"],
        "back": "背面：紅線應落在正面刻度的 0 上",
        "applied": "本頁背面已套用位移 {x},{y} mm；讀數應為 0",
    },
    "zh-Hans": {
        "title": "双面打印校准页（{paper}）",
        "steps": ["1. 以实际大小、双面（长边翻页）打印本页。",
                  "2. 对着窗户或灯光，看背面的红线落在正面刻度的哪一格。",
                  "3. 横向刻度的读数是 X，纵向刻度的读数是 Y（单位 mm）。",
                  "4. 构建时加上 --back-offset X,Y，或写进 pnp.toml 的 back_offset。",
                  "五处读数不一致时，打印机有旋转或缩放，请取中央的读数。"],
        "back": "背面：红线应落在正面刻度的 0 上",
        "applied": "本页背面已套用位移 {x},{y} mm；读数应为 0",
    },
}


def spots(width: float, height: float) -> list[tuple[float, float]]:
    """Centres of the scales, mm from the top-left of the front page."""
    return [(width / 2, height / 2), (SPOT_INSET, SPOT_INSET), (width - SPOT_INSET, SPOT_INSET),
            (SPOT_INSET, height - SPOT_INSET), (width - SPOT_INSET, height - SPOT_INSET)]


SCALE_GAP = 8.0  # mm from the crossing to each scale, so the two scales never overlap


def _scales(canvas: Canvas, x: float, y: float, font: str) -> None:
    """A horizontal scale above and a vertical scale right of the crossing at (x, y) points;
    ticks every half millimetre, labels every 2 mm."""
    canvas.setStrokeColor(INK)
    canvas.setFillColor(INK)
    canvas.setFont(font, 5)
    gap = SCALE_GAP * MM
    steps = int(SCALE_MM / TICK_MM)
    for i in range(-steps, steps + 1):
        value = i * TICK_MM
        length = (4.0 if i == 0 else 2.5 if i % 2 == 0 else 1.5) * MM
        canvas.setLineWidth(0.4 if i == 0 else 0.2)
        # Reads X: ticks hang down from the top of the band.
        canvas.line(x + value * MM, y + gap + 4 * MM, x + value * MM, y + gap + 4 * MM - length)
        # Reads Y, counting up upwards: ticks reach left from the right of the band.
        canvas.line(x + gap + 4 * MM, y + value * MM, x + gap + 4 * MM - length, y + value * MM)
        if i % 4 == 0:
            label = f"{value:+g}" if value else "0"
            canvas.drawCentredString(x + value * MM, y + gap + 5 * MM, label)
            canvas.drawString(x + gap + 5 * MM, y + value * MM - 1.7, label)
    canvas.setStrokeColor(GREY)
    canvas.setLineWidth(0.2)
    canvas.circle(x, y, 0.8 * MM)


def _back_cross(canvas: Canvas, x: float, y: float) -> None:
    """Lines through the point behind the front's crossing, long enough to cross both scales."""
    canvas.setStrokeColor(BACK_LINE)
    canvas.setLineWidth(0.3)
    reach = (SCALE_GAP + 5) * MM
    canvas.line(x, y - 1 * MM, x, y + reach)
    canvas.line(x - 1 * MM, y, x + reach, y)


def calibration_pdf(paper: str, fonts: FontFamily, lang: str,
                    back_offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    spec = sheet_spec(paper)
    words: Mapping[str, Any] = WORDS[lang]
    width, height = spec.width, spec.height
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width * MM, height * MM), invariant=1,
                    initialFontName=fonts.regular.name, pageCompression=1)
    canvas.setTitle(words["title"].format(paper=paper.upper()))
    canvas.setAuthor("pnp")
    font = fonts.regular.name
    # Front.
    for sx, sy in spots(width, height):
        _scales(canvas, sx * MM, (height - sy) * MM, font)
    canvas.setFillColor(INK)
    canvas.setFont(fonts.bold.name, 14)
    canvas.drawString(20 * MM, (height - 70) * MM, words["title"].format(paper=paper.upper()))
    canvas.setFont(font, 9)
    for line, text in enumerate(words["steps"]):
        canvas.drawString(20 * MM, (height - 80 - 6 * line) * MM, text)
    canvas.showPage()
    # Back: the point behind front (x, y) is (width - x, y) after a long-edge flip.
    canvas.saveState()
    canvas.translate(back_offset[0] * MM, -back_offset[1] * MM)
    for sx, sy in spots(width, height):
        canvas.saveState()
        # Mirrored, so that the lines run along the front's scales when seen through the paper.
        canvas.translate((width - sx) * MM, (height - sy) * MM)
        canvas.scale(-1, 1)
        _back_cross(canvas, 0, 0)
        canvas.restoreState()
    canvas.setFillColor(GREY)
    canvas.setFont(font, 9)
    canvas.drawString(20 * MM, 20 * MM, words["back"])
    if back_offset != (0.0, 0.0):
        canvas.drawString(20 * MM, 14 * MM, words["applied"].format(x=f"{back_offset[0]:g}",
                                                                    y=f"{back_offset[1]:g}"))
    canvas.restoreState()
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _render(job: RenderJob) -> Rendered:
    data = calibration_pdf(job.paper, load_family(job.workspace.fonts, job.lang), job.lang, job.sheet.back_offset)
    return Rendered((Artifact(Path(CALIBRATION.files), data),))


# Not a game's: no game data, only the script's fonts, the paper and the back offset.
CALIBRATION = OutputKind("calibrate", "calibrate.pdf", _render, data=(), options=("paper", "back_offset"),
                         title="Calibration sheet", per_game=False)


def calibrate(workspace: Workspace, paper: str, lang: str, back_offset: tuple[float, float] = (0.0, 0.0),
              out: Path | None = None, output_root: Path | None = None, force: bool = False) -> FileReport:
    """Make the calibration sheet at ``out``, or at ``<output_root>/calibrate-<paper>.pdf``
    (output/ unless the workspace's pnp.toml names another), unless it is there already, made
    of the same arguments and fonts. ``out`` is refused inside the game's sources or over one
    (:meth:`Workspace.out_file`, in :func:`make_file`)."""
    root = output_root or workspace.output_folder()
    target = out if out is not None else root / f"calibrate-{paper}.pdf"
    output = Output("", lang, CALIBRATION, params=Params(lang=lang))
    return make_file(workspace, root, target, output, paper, force, SheetOptions(back_offset=back_offset))
