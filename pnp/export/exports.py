"""Exports for the tools around a playtest: Tabletop Simulator deck sheets, print-shop files,
contact sheets and tuck boxes.

Each export is an output kind (:mod:`pnp.build.outputs`) that owns its folder: the build
pipeline plans, renders, records and writes it as it does the components PDF. So an export is
made again only when something it is built from changed (``force`` makes it anyway); its
files are staged beside their targets and swapped in together with the record, so a failed
export leaves the previous one whole; and a folder is only ever written into if an earlier
export made it (it holds ``.pnp-export``) or it is empty. What the new export does not make
is removed from its folder.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import logging
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from pnp.build.outputs import Artifact, Output, OutputKind, Rendered, RenderJob, registry
from pnp.build.pipeline import BuildReport, Callback, converter_for, make, resolve_games, resolve_langs
from pnp.core.errors import PnpError
from pnp.core.records import record
from pnp.core.units import MM
from pnp.core.workspace import Workspace
from pnp.data.model import Component, Game
from pnp.render.colour import FOGRA39, CmykInk, png_bytes
from pnp.render.facepix import FaceRef, FaceRenderer, face_size_mm
from pnp.render.pdfx import PDFX_VERSION, DocumentInfo, pdfx_canvas
from pnp.render.sheets import FaceForms
from pnp.text.fontchoice import game_fonts

log = logging.getLogger(__name__)

# Tabletop Simulator reads a deck sheet of at most 10 columns and 7 rows and at most
# 4096 px on a side; it shows the sheet's last cell for a card in a hidden hand, so a full
# sheet holds 69 cards.
TTS_COLUMNS, TTS_ROWS, TTS_MAX_PX, TTS_PER_SHEET = 10, 7, 4096, 69
TTS_MAX_DPI = 300.0
PRINT_DPI = 300
CONTACT_CELL_PX = 240  # height of the tallest face on a contact sheet
CONTACT_COLUMNS = 8
CONTACT_GAP_PX = 12
# The printing condition of the print shop's CMYK files (see pnp/render/icc/README.md).
PRESS = FOGRA39
# Shapes that are cards or tokens; folds and dice nets are cut and folded, not dealt.
DECK_SHAPES = ("rect", "round")


def deck_components(game: Game) -> list[Component]:
    return [c for c in game.components if c.shape in DECK_SHAPES]


def _sides(component: Component) -> tuple[str, ...]:
    return ("front", "back") if component.back and component.back != component.front else ("front",)


def _shared(name: str) -> bool:
    """Whether a face form is one every card of its component shows (``face-x-_all-back``)."""
    return "-_all-" in name


# --- Tabletop Simulator --------------------------------------------------------------------


def _grid(count: int) -> tuple[int, int]:
    columns = min(TTS_COLUMNS, count)
    return columns, math.ceil(count / columns)


def _sheet(images: Sequence[Image.Image], columns: int, rows: int, cell: tuple[int, int]) -> Image.Image:
    sheet = Image.new("RGB", (columns * cell[0], rows * cell[1]), "white")
    for index, image in enumerate(images):
        sheet.paste(image, ((index % columns) * cell[0], (index // columns) * cell[1]))
    return sheet


def _fit(image: Image.Image, cell: tuple[int, int]) -> Image.Image:
    return image if image.size == cell else image.resize(cell, Image.Resampling.LANCZOS)


def export_tts(game: Game, renderer: FaceRenderer, lang: str, paper: str) -> list[Artifact]:
    decks, artifacts = [], []
    for component in deck_components(game):
        sizes = {card.size for card in component.cards}
        width = max(w for w, _ in sizes)
        height = max(h for _, h in sizes)
        # One scale for the whole deck: the largest a full 10×7 sheet allows, at most 300 dpi.
        columns, rows = _grid(min(component.count, TTS_PER_SHEET))
        px_per_mm = min(TTS_MAX_PX / (columns * width), TTS_MAX_PX / (rows * height), TTS_MAX_DPI / 25.4)
        cell = (math.floor(width * px_per_mm), math.floor(height * px_per_mm))
        dpi = px_per_mm * 25.4
        copies = [card for card in component.cards for _ in range(card.count)]
        fronts = renderer.images([FaceRef(component, card, "front") for card in copies], dpi, trim=True)
        backs = renderer.images([FaceRef(component, card, "back") for card in copies], dpi, trim=True) \
            if component.back else []
        shared_back = bool(backs) and len({name for name, _ in backs}) == 1
        back_file = f"{component.id}-back.png"
        if shared_back or not backs:
            # A single-sided deck still needs a back image in TTS: plain paper.
            back = _fit(backs[0][1], cell) if backs else Image.new("RGB", cell, "white")
            artifacts.append(Artifact(Path(back_file), png_bytes(back)))
        sheets = []
        for number, start in enumerate(range(0, len(copies), TTS_PER_SHEET), start=1):
            chunk = slice(start, start + TTS_PER_SHEET)
            faces = [_fit(image, cell) for _, image in fronts[chunk]]
            columns, rows = _grid(len(faces))
            file = f"{component.id}-{number}.png"
            artifacts.append(Artifact(Path(file), png_bytes(_sheet(faces, columns, rows, cell))))
            entry = {"file": file, "columns": columns, "rows": rows, "count": len(faces)}
            if backs and not shared_back:
                back_file = f"{component.id}-{number}-back.png"
                entry["back"] = back_file
                back_faces = [_fit(image, cell) for _, image in backs[chunk]]
                artifacts.append(Artifact(Path(back_file), png_bytes(_sheet(back_faces, columns, rows, cell))))
            sheets.append(entry)
        decks.append({
            "component": component.id, "name": renderer.convert(component.name.value),
            "count": len(copies), "card_mm": [width, height], "card_px": list(cell),
            "back": back_file if shared_back or not backs else None, "sheets": sheets,
        })
    manifest = {"version": 1, "game": game.slug, "decks": decks,
                "skipped": [c.id for c in game.components if c.shape not in DECK_SHAPES]}
    text = json.dumps(manifest, ensure_ascii=False, indent=2) + "\n"
    return [*artifacts, Artifact(Path("manifest.json"), text.encode())]


# --- Print shop ----------------------------------------------------------------------------


def _deck_pdf(game: Game, component: Component, renderer: FaceRenderer, cmyk: CmykDeck | None = None) -> bytes:
    """One page per printed card (front, then its back), each page the card's bleed box with
    its TrimBox and BleedBox set, which is what a print shop's preflight reads.

    With ``cmyk`` the file is PDF/X-4: every colour converted to the press's CMYK, the press
    profile its output intent. Without, the colours are the design's sRGB."""
    buffer = io.BytesIO()
    fonts = renderer.fonts
    title = _title(game, component, renderer)
    if cmyk is None:
        canvas = Canvas(buffer, invariant=1, initialFontName=fonts.regular.name, pageCompression=1)
        canvas.setTitle(title)
        canvas.setAuthor("pnp")
        canvas.setCreator(f"pnp {game.slug}")
    else:
        canvas = pdfx_canvas(buffer, cmyk.info, cmyk.ink, fonts.regular.name)
    forms = FaceForms(canvas, game, fonts, renderer.convert, renderer.glyphs)
    sides = ("front", "back") if component.back else ("front",)
    for card in component.cards:
        width, height, bleed = face_size_mm(FaceRef(component, card, "front"))
        page = ((width + 2 * bleed) * MM, (height + 2 * bleed) * MM)
        names = [forms.face(component, card, side) for side in sides]
        for _ in range(card.count):
            for name in names:
                canvas.setPageSize(page)
                canvas.setBleedBox((0, 0, *page))
                canvas.setTrimBox((bleed * MM, bleed * MM, (bleed + width) * MM, (bleed + height) * MM))
                canvas.doForm(name)
                canvas.showPage()
    canvas.save()
    renderer.raise_problems()
    return buffer.getvalue()


def _title(game: Game, component: Component, renderer: FaceRenderer) -> str:
    return f"{renderer.convert(game.info.name.value)} {renderer.convert(component.name.value)}"


@record
class CmykDeck:
    """How a deck's CMYK file is made: the press's inks and what the file says of itself."""

    ink: CmykInk
    info: DocumentInfo


def _cmyk_deck(game: Game, component: Component, renderer: FaceRenderer, lang: str, ink: CmykInk) -> CmykDeck:
    title = _title(game, component, renderer)
    info = DocumentInfo(
        title=title, author="pnp",
        subject=f"{title}: a card a page at trim size with 3 mm bleed, CMYK for {ink.press.identifier}",
        keywords=f"print-and-play, {game.slug}, {component.id}, {PDFX_VERSION}, {ink.press.identifier}",
        creator=f"pnp {game.slug}", date=datetime.date.fromisoformat(game.info.date),
        key=f"{game.slug}/{lang}/{component.id}/cmyk", version=game.info.version)
    return CmykDeck(ink, info)


def export_print_shop(game: Game, renderer: FaceRenderer, lang: str, paper: str) -> list[Artifact]:
    """Per deck: the cards as an sRGB PDF and as a CMYK PDF/X-4 one, and a PNG per design."""
    artifacts = []
    ink = CmykInk(PRESS)
    for component in deck_components(game):
        artifacts.append(Artifact(Path(f"{component.id}.pdf"), _deck_pdf(game, component, renderer)))
        cmyk = _cmyk_deck(game, component, renderer, lang, ink)
        artifacts.append(Artifact(Path(f"{component.id}-cmyk.pdf"), _deck_pdf(game, component, renderer, cmyk)))
        digits = max(2, len(str(len(component.cards))))
        for side in _sides(component):
            images = renderer.images([FaceRef(component, card, side) for card in component.cards], PRINT_DPI)
            for number, (card, (name, image)) in enumerate(zip(component.cards, images, strict=True), 1):
                if _shared(name):
                    # A back every card shares: one file, as print shops take a common back.
                    artifacts.append(Artifact(Path(f"{component.id}-{side}.png"), png_bytes(image, PRINT_DPI)))
                    break
                copies = f"-x{card.count}" if card.count > 1 else ""
                file = f"{component.id}-{number:0{digits}d}-{card.id}{copies}-{side}.png"
                artifacts.append(Artifact(Path(file), png_bytes(image, PRINT_DPI)))
    return artifacts


# --- Contact sheets ------------------------------------------------------------------------


def export_contact(game: Game, renderer: FaceRenderer, lang: str, paper: str) -> list[Artifact]:
    """Every distinct face of each component, small, on one PNG: to show a deck in a chat."""
    artifacts = []
    for component in game.components:
        refs = [FaceRef(component, card, side) for side in _sides(component) for card in component.cards]
        tallest = max(face_size_mm(ref)[1] for ref in refs)
        dpi = CONTACT_CELL_PX / tallest * 25.4
        # Two cards may print the same picture under different forms (backs that name a card's
        # suit): compare pixels, so each picture shows once.
        seen, images = set(), []
        for _, image in renderer.images(refs, dpi, trim=True):
            key = hashlib.sha256(image.tobytes()).digest() + bytes(str(image.size), "ascii")
            if key not in seen:
                seen.add(key)
                images.append(image)
        columns = min(CONTACT_COLUMNS, len(images))
        rows = math.ceil(len(images) / columns)
        cell_w = max(image.width for image in images) + CONTACT_GAP_PX
        cell_h = max(image.height for image in images) + CONTACT_GAP_PX
        sheet = Image.new("RGB", (columns * cell_w + CONTACT_GAP_PX, rows * cell_h + CONTACT_GAP_PX), "#dddddd")
        for index, image in enumerate(images):
            x = CONTACT_GAP_PX + (index % columns) * cell_w + (cell_w - CONTACT_GAP_PX - image.width) // 2
            y = CONTACT_GAP_PX + (index // columns) * cell_h + (cell_h - CONTACT_GAP_PX - image.height) // 2
            sheet.paste(image, (x, y))
        artifacts.append(Artifact(Path(f"{component.id}.png"), png_bytes(sheet)))
    return artifacts


def export_tuckbox(game: Game, renderer: FaceRenderer, lang: str, paper: str) -> list[Artifact]:
    from pnp.export.tuckbox import tuckbox_pdf

    return [Artifact(Path("tuckboxes.pdf"), tuckbox_pdf(game, lang, paper, renderer.fonts, renderer.convert))]


Exporter = Callable[[Game, FaceRenderer, str, str], list[Artifact]]


def _render_with(exporter: Exporter) -> Callable[[RenderJob], Rendered]:
    def render(job: RenderJob) -> Rendered:
        game = job.loaded_game
        renderer = FaceRenderer(game, game_fonts(job.workspace, job.lang, game.info.fonts),
                                converter_for(game, job.lang))
        artifacts = exporter(game, renderer, job.lang, job.paper)
        log.info("exported %s %s: %d files", game.slug, job.lang, len(artifacts))
        return Rendered(tuple(artifacts))

    return render


# Each export owns its folder ("*"); only the tuck boxes depend on the paper.
EXPORT_KINDS: Mapping[str, OutputKind] = registry((
    OutputKind("tts", "*", _render_with(export_tts)),
    OutputKind("print-shop", "*", _render_with(export_print_shop)),
    OutputKind("contact", "*", _render_with(export_contact)),
    OutputKind("tuckbox", "*", _render_with(export_tuckbox), options=("paper",)),
))


def export(workspace: Workspace, kind: str, game: str, lang: str = "all", out: Path | None = None,
           paper: str = "a4", output_root: Path | None = None, force: bool = False,
           progress: Callback | None = None) -> BuildReport:
    """Make the export of every requested game and script whose sources changed (or all, with
    ``force``), then write them all, or nothing.

    Without ``out`` each goes to ``<output_root>/<game>/<lang>/<kind>/`` (output/ unless the
    workspace's pnp.toml names another output folder); with it, to ``out`` itself, or
    ``out/<game>/<lang>/`` where there are several games or scripts."""
    if kind not in EXPORT_KINDS:
        raise PnpError(f"unknown export {kind!r} (expected one of: {', '.join(EXPORT_KINDS)})")
    slugs = resolve_games(workspace, game)
    langs = resolve_langs(lang)
    root = out if out is not None else (output_root or workspace.output_folder())
    outputs = []
    for slug in slugs:
        for target_lang in langs:
            if out is None:
                place = Path(slug, target_lang, kind)
            else:
                place = Path(slug if len(slugs) > 1 else "", target_lang if len(langs) > 1 else "")
            outputs.append(Output(slug, target_lang, EXPORT_KINDS[kind], place))
    return make(workspace, root, outputs, paper, force, progress)
