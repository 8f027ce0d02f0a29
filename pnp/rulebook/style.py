"""The rulebook's and the player aid's type sizes, leadings and colours, shared by the
paragraphs (pnp/rulebook/paragraph.py), the story (pnp/rulebook/story.py), the figures, the
page templates (pnp/rulebook/pdf.py, pnp/rulebook/aid.py) and the tables
(pnp/rulebook/tables.py)."""

from __future__ import annotations

from dataclasses import fields, replace

from reportlab.lib.colors import HexColor

from pnp.core.records import record
from pnp.core.units import MM

INK = HexColor("#231f2b")
ACCENT = HexColor("#6b2d3a")
# A label in running text (〔本版補充〕): apart from the headings' colour, and bold with its
# brackets so that it still reads as a label printed in black and white.
MARK = HexColor("#1f6873")
QUOTE_BG = HexColor("#f3eee4")
# Points between a callout box's sides and its text, the same on the right as on the left
# (where the accent bar sits inside it).
QUOTE_PAD = 10.0
RULE = HexColor("#b9ad98")
EM_ASCENT = 0.88


@record
class TextStyle:
    size: float
    leading: float
    color: object = INK
    bold: bool = False
    space_before: float = 0.0
    space_after: float = 4.0


BODY = TextStyle(10.5, 17.5)
H1 = TextStyle(22, 30, ACCENT, True, 0, 10)
H2 = TextStyle(15, 22, ACCENT, True, 14, 6)
H3 = TextStyle(12, 18, INK, True, 8, 3)


# A heading this many lines long is a paragraph typed as a heading: refused, not typeset.
HEADING_MAX_LINES = 4

@record
class BookStyles:
    body: TextStyle
    h1: TextStyle
    h2: TextStyle
    h3: TextStyle
    cell: TextStyle


RULEBOOK = BookStyles(BODY, H1, H2, H3, TextStyle(9.5, 14, space_after=0))
# The player aid: one sheet, so everything is a size smaller and tighter; it is set in this
# scaled to one of AID_BODY. Its tables are set as large as its text: both are read across
# the table.
AID = BookStyles(TextStyle(8.5, 12.5, space_after=2.5), TextStyle(15, 20, ACCENT, True, 0, 4),
                 TextStyle(11, 15, ACCENT, True, 6, 2), TextStyle(9.5, 13, INK, True, 4, 1),
                 TextStyle(8.5, 11.5, space_after=0))
# A heading keeps at least this many lines of what follows it on its page.
LINES_AFTER_HEADING = 3


def scaled(styles: BookStyles, factor: float) -> BookStyles:
    """The same styles with every size, leading and space times ``factor``."""
    def one(style: TextStyle) -> TextStyle:
        return replace(style, size=style.size * factor, leading=style.leading * factor,
                       space_before=style.space_before * factor, space_after=style.space_after * factor)
    return BookStyles(*(one(getattr(styles, f.name)) for f in fields(styles)))


# The player aid's page: margins (well inside the 6.5 mm many printers cannot reach) and the
# gap between its two columns.
AID_MARGIN = 12 * MM
AID_GAP = 7 * MM
# The aid's body sizes: it is set in the largest that fits its page. An aid is read at arm's
# length across the table, so room to spare goes to larger type, up to the rulebook's own,
# and none is set below 9 pt (an aid too long for that runs onto the back of its sheet).
AID_BODY = (BODY.size, 9.5, 9.0)
# Balanced columns are found to within this height.
BALANCE_STEP = 1 * MM
# How far the last of two balanced columns may run below the first, as a share of its length
# (a table moving on whole with its introduction leaves the first that much shorter).
BALANCE_SLACK = 0.2
