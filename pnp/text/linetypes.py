"""The vocabulary line setting is written in: styled runs, the measures a line is set with, and
the set line.

A :class:`Run` is a stretch of text in one style; a ``Measure`` gives its width, a ``Squeeze``
how much blank each full-width mark may give up when a line is compressed, and a ``Kern`` the
blank two adjacent marks close up by (clreq punctuation compression). Breaking
(:mod:`pnp.text.setting`), shrink-to-fit (:mod:`pnp.text.shrink`) and justification
(:mod:`pnp.text.place`) all take these and share the tolerances below, so a line is measured
the same wherever it is measured.
"""

from __future__ import annotations

from collections.abc import Callable

from pnp.core.records import record

# The one character an inline icon stands as in a run's text: one em wide (every measure pnp
# makes says so), no glyph of any face. U+FFFC OBJECT REPLACEMENT CHARACTER is what Unicode
# sets aside for an object in running text, and no card, book or font prints it.
ICON = "\ufffc"


@record
class Run:
    """A stretch of text in one style. A ``mark`` run is a label (a rulebook's 〔本版補充〕):
    it prints in the mark colour and is never broken across lines. ``colour`` ('#rrggbb')
    prints the run in that colour instead of its paragraph's. An ``icon`` run is one inline
    icon, its text the single :data:`ICON`: a unit one em wide that the line breaker keeps
    with the characters written against it."""

    text: str
    bold: bool = False
    mark: bool = False
    colour: str | None = None
    icon: str | None = None

    @property
    def style(self) -> tuple[bool, bool, str | None]:
        """What two runs must share to be one run (an icon run never joins another)."""
        return (self.bold, self.mark, self.colour)

    def with_text(self, text: str) -> Run:
        """This run's style with other text (not for icon runs, whose text is the icon)."""
        return Run(text, self.bold, self.mark, self.colour, self.icon)


def joinable(a: Run, b: Run) -> bool:
    """Whether ``b`` may be appended to ``a`` as one run: same style, neither an icon."""
    return a.bold == b.bold and a.mark == b.mark and a.colour == b.colour \
        and a.icon is None and b.icon is None


Line = tuple[Run, ...]
# measure(text, bold, size) -> width in points; must be proportional to size
Measure = Callable[[str, bool, float], float]
# squeeze(ch, bold) -> (left, right): how much blank, in ems, the glyph's left and right sides
# may give up when a line is compressed (full-width punctuation); (0, 0) for anything else.
# A squeeze may carry ``marks``, a set of every character it gives more than (0, 0) for.
Squeeze = Callable[[str, bool], tuple[float, float]]
# kern(a, a_bold, b, b_bold) -> (a_right, b_left): the blank, in ems, taken from a's right side
# and from b's left side when b follows a on a line (punctuation compression: 」， 「（ ），
# closing up by the blank half of a mark); (0, 0) for any other pair. A kern carries
# ``marks``, every character a pair it closes up can hold; no other pair is asked about.
# The blank it takes is blank the squeeze of those sides no longer has to give.
Kern = Callable[[str, bool, str, bool], tuple[float, float]]

EPS = 1e-6
# The most squeeze, in ems, a line may use to take one more unit: enough to close the gap a
# measure that is not a whole number of ems leaves, little enough that the marks still read
# as full-width punctuation.
SQUEEZE_PER_LINE = 0.5


def no_squeeze(ch: str, bold: bool) -> tuple[float, float]:
    return (0.0, 0.0)


@record
class SetLine:
    """A broken line: its runs, natural width, how much its punctuation may give up (points),
    and whether it ends its paragraph or a forced break (such a line is not justified)."""

    runs: Line
    width: float
    squeeze: float
    last: bool
