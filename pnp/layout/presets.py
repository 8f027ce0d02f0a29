"""Paper sheets and component sizes as data (millimetres)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SheetSpec:
    """A paper size and the print furniture around the imposed blocks.

    Nothing that must print comes closer than ``hardware`` mm to the paper edge, which most
    home printers cannot reach. The sheet label runs up the left margin of a front (the right
    margin of its back), in the band just inside that limit, so the left margin is wider than
    the others; a piece's bleed may come nearer the edge, since it is cut away. The scale
    rulers, one horizontal and one vertical, go wherever the sheet has room for them.

    ``card_gutter`` is the space between the trims of neighbouring pieces in a block: None
    gives each piece its own bleed (twice the bleed between trims); 0 butts the pieces on
    shared cut lines, with bleed only around the block.
    """

    name: str
    width: float
    height: float
    margin_left: float = 10.0  # the label band and a gap before any bleed
    margin: float = 4.5  # the other three sides
    hardware: float = 6.5
    label_band: float = 2.5  # the label's height, from the hardware margin inwards
    bleed: float = 3.0
    mark_offset: float = 0.5  # gap between a bleed edge and its crop mark
    mark_length: float = 3.5
    ruler_length: float = 50.0
    card_gutter: float | None = None

    @property
    def gutter(self) -> float:
        """Space between blocks: room for both blocks' crop marks and a gap."""
        return 2 * (self.mark_offset + self.mark_length) + 1.0

    @property
    def usable(self) -> tuple[float, float, float, float]:
        """Left, top, right and bottom (mm from the top-left) of the area bleed boxes may use."""
        return (self.margin_left, self.margin, self.width - self.margin,
                self.height - self.margin)


SHEETS: dict[str, SheetSpec] = {
    "a4": SheetSpec("a4", 210.0, 297.0),
    "letter": SheetSpec("letter", 215.9, 279.4),
}
