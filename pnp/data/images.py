"""The pictures a game's layouts draw: read once each at load, placed per card.

:func:`read_images` reads every picture an ``image`` element names, literally or through a
card field (``file: '{art}'``), and puts each refusal at the field that named the file;
:func:`element_placement` is where an element's picture lands on one card (pure math,
:mod:`pnp.data.imagefit`); :func:`image_notes` lists, per element and card, the resolution
at print size and whether the picture reaches the bleed, for ``pnp check`` and the build's
warnings.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.core.choices import BLEED_MM
from pnp.core.limits import MAX_IMAGES
from pnp.core.problems import problem_at
from pnp.core.records import record
from pnp.data.imagefiles import ImageFileError, read_image_file
from pnp.data.model import Card, Component, Element, ImageFile, Layout
from pnp.data.schema import FIELD_REF, Reader, resolve_coord
from pnp.data.spec import prop

if TYPE_CHECKING:
    from pnp.data.imagefit import Placement

# Below this a picture prints visibly soft (a build warning); below the second, blocky (a
# `pnp check` finding). 300 dpi is what print services ask for.
WARN_DPI = 300.0
FINDING_DPI = 150.0


def image_file_name(element: Element, card: Card) -> str | None:
    """The picture an element names on this card; None when its field is missing (reported
    by the layout check)."""
    raw = str(element.get("file"))
    ref = FIELD_REF.fullmatch(raw)
    if ref is None:
        return raw
    text = card.fields.get(ref.group(1))
    return None if text is None else text.value.strip()


def _face_layouts(component: Component, layouts: Mapping[str, Layout]) -> list[Layout]:
    refs = (component.front, component.back, component.inner)
    return [layouts[ref] for ref in refs if ref is not None and ref in layouts]


def _image_elements(component: Component, layouts: Mapping[str, Layout]) -> Iterator[Element]:
    for layout in _face_layouts(component, layouts):
        yield from (element for element in layout.elements if element.kind == "image")


def read_images(r: Reader, components: Iterable[Component], layouts: Mapping[str, Layout],
                game_dir: Path) -> dict[str, ImageFile]:
    """Every picture the game draws, by name; each one that cannot be used is a problem at the
    layout field (a literal name) or the card field (a name a card gives) that names it."""
    found: dict[str, ImageFile | str] = {}
    reported: set[tuple[str, str]] = set()
    for component in components:
        for element in _image_elements(component, layouts):
            ref = FIELD_REF.fullmatch(str(element.get("file")))
            for card in component.cards:
                name = image_file_name(element, card)
                if name is None:
                    continue
                if name not in found:
                    if len(found) >= MAX_IMAGES:
                        r.problems.add_raw(element.where.child("file").problem(
                            f"the game uses more than {MAX_IMAGES} picture files, the limit"))
                        return {}
                    try:
                        found[name] = read_image_file(game_dir, name)
                    except ImageFileError as exc:
                        found[name] = str(exc)
                outcome = found[name]
                if isinstance(outcome, str):
                    where = card.fields[ref.group(1)].where if ref else element.where.child("file")
                    if (where, outcome) not in reported:
                        reported.add((where, outcome))
                        used = f" (used at {element.where}.file)" if ref else ""
                        r.problems.add_raw(problem_at(where, f"{outcome}, on card {card.id!r} of component "
                                                             f"{component.id!r}{used}"))
    return {name: image for name, image in found.items() if isinstance(image, ImageFile)}


def element_placement(element: Element, image: ImageFile, trim: tuple[float, float],
                      bleed: float) -> Placement:
    """Where ``element`` puts ``image`` on a face of ``trim`` (mm) with ``bleed`` round it."""
    # Imported here: a game without pictures loads and builds without the placement math.
    from pnp.data.imagefit import Rect, bleed_box, place_image

    width, height = trim
    x, y, w, h = element.get("box")
    box = Rect(resolve_coord(x, width), resolve_coord(y, height), resolve_coord(w, width),
               resolve_coord(h, height))
    clip = bleed_box(box, width, height, bleed) if prop(element, "bleed") else box
    cx, cy, cw, ch = prop(element, "crop")
    fx, fy = prop(element, "focus")
    return place_image(clip, (image.width, image.height), str(prop(element, "fit")),
                       (float(cx), float(cy), float(cw), float(ch)), (float(fx), float(fy)),
                       int(prop(element, "rotate")), image.raster)


@record
class ImageNote:
    """One picture on one card: how finely it prints and whether it reaches where it should."""

    component: str
    card: str
    element: Element
    image: ImageFile
    dpi: float | None
    bleed_gap: bool  # `bleed: true`, but the picture stops short of the bleed edge somewhere
    trim_only: bool  # the picture reaches a trim edge but not the bleed beyond it (no `bleed: true`)


def image_notes(components: Iterable[Component], layouts: Mapping[str, Layout],
                images: Mapping[str, ImageFile], bleed_of: Mapping[str, float]) -> list[ImageNote]:
    """Every (element, card, picture) of the game once, with its print resolution and reach.

    ``bleed_of`` gives each component's bleed in mm (none for a net).
    """
    notes: list[ImageNote] = []
    for component in components:
        bleed = bleed_of.get(component.id, BLEED_MM)
        for element in _image_elements(component, layouts):
            seen: set[tuple[str, tuple[float, float]]] = set()
            for card in component.cards:
                name = image_file_name(element, card)
                if name is None or name not in images or (name, card.size) in seen:
                    continue
                seen.add((name, card.size))
                place = element_placement(element, images[name], card.size, bleed)
                notes.append(ImageNote(component.id, card.id, element, images[name], place.dpi,
                                       *_reach(element, place, card.size, bleed)))
    return notes


def _reach(element: Element, place: Placement, trim: tuple[float, float], bleed: float) -> tuple[bool, bool]:
    width, height = trim
    shown = place.shown
    eps = 1e-3
    if prop(element, "bleed"):
        clip = place.clip  # the box reaching into the bleed: the picture should fill it
        gap = (shown.left > clip.left + eps or shown.top > clip.top + eps
               or shown.right < clip.right - eps or shown.bottom < clip.bottom - eps)
        return gap, False
    from pnp.data.imagefit import touches_trim

    trim_only = bleed > 0 and touches_trim(shown, width, height)
    return False, trim_only


def component_bleeds(components: Iterable[Component]) -> dict[str, float]:
    """Each component's bleed in mm: a net is cut along its outline and has none."""
    return {c.id: 0.0 if c.shape.endswith("_net") else BLEED_MM for c in components}


def low_resolution(note: ImageNote, below: float) -> str | None:
    """What a build or check says of a picture printing coarser than ``below`` dpi, if it does."""
    if note.dpi is None or note.dpi >= below:
        return None
    return (f"{note.image.name} prints at {note.dpi:.0f} dpi on card {note.card!r} of component "
            f"{note.component!r} ({note.image.width:.0f} × {note.image.height:.0f} pixels shown at "
            f"print size), below {below:.0f} dpi: it will look {'blocky' if below <= FINDING_DPI else 'soft'}; "
            f"use a picture of at least {note.image.width * below / note.dpi:.0f} pixels across")


def resolution_warnings(components: Iterable[Component], layouts: Mapping[str, Layout],
                        images: Mapping[str, ImageFile]) -> list[str]:
    """The build's warnings: each picture that prints below :data:`WARN_DPI`, where it is used."""
    components = tuple(components)
    warnings = []
    for note in image_notes(components, layouts, images, component_bleeds(components)):
        said = low_resolution(note, WARN_DPI)
        if said:
            warnings.append(f"{note.element.where}.file: {said}")
    return warnings
