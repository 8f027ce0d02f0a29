"""Exports for the tools around a playtest: Tabletop Simulator deck sheets, print-shop files,
contact sheets and tuck boxes.

Each export renders everything in memory first, writes it into a staging folder beside the
target and then swaps the folder into place, so a failed export leaves the previous one
whole. A folder is only ever replaced if an earlier export made it (it holds ``.pnp-export``).
"""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import logging
import math
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from pnp.build.pipeline import Artifact, Written, converter_for, load_games, resolve_games, resolve_langs
from pnp.core.errors import PnpError
from pnp.core.units import MM
from pnp.core.workspace import Workspace
from pnp.data.model import Component, Game
from pnp.games.registry import tables_from_engine
from pnp.render.colour import FOGRA39, CmykInk, png_bytes
from pnp.render.facepix import FaceRef, FaceRenderer, face_size_mm
from pnp.render.pdfx import PDFX_VERSION, DocumentInfo, pdfx_canvas
from pnp.render.sheets import FaceForms
from pnp.text.fonts import load_family

log = logging.getLogger(__name__)

KINDS = ("tts", "print-shop", "contact", "tuckbox")
MARKER = ".pnp-export"
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


@dataclass(frozen=True)
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


EXPORTERS = {"tts": export_tts, "print-shop": export_print_shop, "contact": export_contact,
             "tuckbox": export_tuckbox}


# --- Writing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Staged:
    target: Path
    artifacts: tuple[Artifact, ...]


def _check_replaceable(target: Path) -> None:
    if target.exists() and not (target.is_dir() and ((target / MARKER).is_file() or not any(target.iterdir()))):
        raise PnpError(f"{target}: exists and was not made by pnp export; choose another --out "
                       "or remove it")


def _swap_in(staged: Staged) -> list[Written]:
    target = staged.target
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=f".{target.name}.stage-", dir=target.parent))
    except OSError as exc:
        raise PnpError(f"{target}: cannot write here: {exc.strerror or exc}") from None
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(stage, 0o777 & ~mask)
    written = []
    old = None
    try:
        for artifact in (*staged.artifacts, Artifact(Path(MARKER), b"made by pnp export\n")):
            (stage / artifact.path).write_bytes(artifact.data)
            os.chmod(stage / artifact.path, 0o666 & ~mask)
            written.append(Written(target / artifact.path, len(artifact.data)))
        if target.exists():
            old = target.with_name(f".{target.name}.old-{stage.name.rsplit('-', 1)[-1]}")
            os.replace(target, old)
        os.replace(stage, target)
    except OSError as exc:
        shutil.rmtree(stage, ignore_errors=True)
        if old is not None and not target.exists():
            os.replace(old, target)
        raise PnpError(f"{target}: cannot write here: {exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return written[:-1]


def export(workspace: Workspace, kind: str, game: str, lang: str = "all",
           out: Path | None = None, paper: str = "a4", output_root: Path | None = None) -> list[Written]:
    """Render the export of every requested game and script, then swap each folder in.

    Without ``out`` each goes to ``<output_root>/<game>/<lang>/<kind>/`` (output/ unless the
    workspace's pnp.toml names another output folder)."""
    if kind not in EXPORTERS:
        raise PnpError(f"unknown export {kind!r} (expected one of: {', '.join(KINDS)})")
    games = load_games(workspace, resolve_games(workspace, game), tables_from_engine)
    langs = resolve_langs(lang)
    staged: list[Staged] = []
    for loaded in games:
        for target_lang in langs:
            if out is None:
                target = (output_root or workspace.output) / loaded.slug / target_lang / kind
            else:
                target = out
                if len(games) > 1:
                    target = target / loaded.slug
                if len(langs) > 1:
                    target = target / target_lang
            _check_replaceable(target)
            fonts = load_family(workspace.fonts, target_lang)
            renderer = FaceRenderer(loaded, fonts, converter_for(loaded, target_lang))
            artifacts = EXPORTERS[kind](loaded, renderer, target_lang, paper)
            log.info("exported %s %s %s: %d files", kind, loaded.slug, target_lang, len(artifacts))
            staged.append(Staged(target, tuple(artifacts)))
    written: list[Written] = []
    for item in staged:
        written.extend(_swap_in(item))
    return written
