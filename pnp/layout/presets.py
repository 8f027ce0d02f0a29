"""Paper sheets and component sizes as data (millimetres)."""

from __future__ import annotations

from pnp.core.choices import PAPER_SIZES, canonical_paper, paper_names, paper_size
from pnp.core.errors import PnpError
from pnp.core.records import record


@record
class SheetSpec:
    """A paper size and the print furniture around the imposed blocks.

    Nothing is printed nearer than ``hardware`` mm to the paper edge, which most home printers
    cannot reach: not a piece's bleed, not a crop mark, a ruler or the sheet label. A block's
    bleed keeps ``mark_room`` more from that margin, so that a crop mark drawn across the
    bleed (where a block fills the sheet) still reaches ``MIN_MARK`` of printed length. The
    sheet label runs along the foot of the sheet, in the band just inside the margin; the
    scale rulers, one horizontal and one vertical, go wherever the sheet has room for them.

    ``card_gutter`` is the space between the trims of neighbouring pieces in a block: 0 (the
    default) butts the pieces that may butt on shared cut lines, with bleed only around the
    block; twice the bleed (6) or more gives each piece its own bleed.
    """

    name: str
    width: float
    height: float
    hardware: float = 6.5
    mark_room: float = 1.0  # printable paper outside a block's bleed, for its crop marks
    label_band: float = 2.5  # the label's height, from the foot's hardware margin inwards
    label_gap: float = 1.0  # between the label band and anything above it
    bleed: float = 3.0
    mark_offset: float = 0.5  # gap between a bleed edge and a crop mark outside it
    mark_length: float = 3.5
    ruler_length: float = 50.0
    card_gutter: float = 0.0

    @property
    def gutter(self) -> float:
        """Space between blocks: room for both blocks' crop marks and a gap."""
        return 2 * (self.mark_offset + self.mark_length) + 1.0

    @property
    def printable(self) -> tuple[float, float, float, float]:
        """Left, top, right and bottom (mm from the top-left) of what may be printed on, the
        sheet label's band left out."""
        return (self.hardware, self.hardware, self.width - self.hardware,
                self.height - self.hardware - self.label_band - self.label_gap)


# Every named paper, as the imposer sees it (pnp.core.choices declares the sizes).
SHEETS: dict[str, SheetSpec] = {name: SheetSpec(name, *size) for name, size in PAPER_SIZES.items()}


def sheet_spec(paper: str) -> SheetSpec:
    """The sheet of a paper as people write it (a name in any case, or ``WxH`` in mm)."""
    name = canonical_paper(paper)
    if name is None:
        raise PnpError(f"unknown paper {paper!r}: expected {paper_names()}")
    return SHEETS.get(name) or SheetSpec(name, *paper_size(name))
