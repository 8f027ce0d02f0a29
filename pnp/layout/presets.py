"""Paper sheets and component sizes as data (millimetres)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SheetSpec:
    """A paper size and the print furniture around the imposed block.

    The left margin holds the sheet label (rotated), so the side margins are wider than the
    top and bottom ones; the scale ruler goes in the bottom or top margin between crop marks
    (or, with no room there, up the right margin).
    """

    name: str
    width: float
    height: float
    margin_x: float = 11.0
    margin_y: float = 9.0
    bleed: float = 3.0
    mark_offset: float = 0.5  # gap between a bleed edge and its crop mark
    mark_length: float = 3.5
    ruler_length: float = 50.0

    @property
    def gutter(self) -> float:
        """Space between stacked blocks: room for both blocks' crop marks and a gap."""
        return 2 * (self.mark_offset + self.mark_length) + 1.0


SHEETS: dict[str, SheetSpec] = {
    "a4": SheetSpec("a4", 210.0, 297.0),
    "letter": SheetSpec("letter", 215.9, 279.4),
}

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}

SAFE_ZONE = 3.0  # text stays this far inside the trim
MAX_BOARD = (180.0, 250.0)  # fits the printable area of A4 and Letter with bleed and marks
# A rect board may be larger, in either orientation: it is then printed in tiles across
# sheets (pnp.layout.tiles). Beyond this it would be a poster, not a board: 12 tiles to glue.
MAX_TILED_BOARD = (600.0, 600.0)
SHAPES = ("rect", "round", "fold", "d6_net", "d4_net")
