"""``pnp check``'s findings about pictures (``image`` elements): a picture that prints
coarser than :data:`~pnp.data.images.FINDING_DPI` at its size on the card, and a picture
that does not reach the bleed where its layout says it should.

The placement measured is the one the renderer draws (:func:`pnp.data.images.image_notes`):
both come from :mod:`pnp.data.imagefit`.
"""

from __future__ import annotations

from collections.abc import Callable

from pnp.check.report import CheckFinding
from pnp.data.images import FINDING_DPI, component_bleeds, image_notes, low_resolution
from pnp.data.model import Game


def image_findings(game: Game, rel: Callable[[str], str]) -> list[CheckFinding]:
    findings: list[CheckFinding] = []
    notes = image_notes(game.components, game.layouts, game.images, component_bleeds(game.components))
    for note in notes:
        where = rel(f"{note.element.where}.file")
        extra = {"component": note.component, "card": note.card, "file": note.image.name,
                 "dpi": None if note.dpi is None else round(note.dpi, 1)}
        low = low_resolution(note, FINDING_DPI)
        if low:
            findings.append(CheckFinding("image", "low-resolution", low, where, extra))
        on = f"on card {note.card!r} of component {note.component!r}"
        if note.bleed_gap:
            findings.append(CheckFinding(
                "image", "short-of-bleed",
                f"{note.image.name} is marked `bleed: true` but stops short of the bleed edge {on}: "
                "a cut a hair off shows paper; use `fit: cover` (or `stretch`), or a box on the trim edge",
                where, extra))
        if note.trim_only:
            findings.append(CheckFinding(
                "image", "trim-without-bleed",
                f"{note.image.name} reaches the trim edge but not the bleed beyond it {on}: a cut a hair "
                "off shows paper; add `bleed: true` to the element",
                where, extra))
    return findings
