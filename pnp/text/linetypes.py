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
from dataclasses import dataclass


@dataclass(frozen=True)
class Run:
    """A stretch of text in one style. A ``mark`` run is a label (a rulebook's 〔本版補充〕):
    it prints in the mark colour and is never broken across lines."""

    text: str
    bold: bool = False
    mark: bool = False


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


@dataclass(frozen=True)
class SetLine:
    """A broken line: its runs, natural width, how much its punctuation may give up (points),
    and whether it ends its paragraph or a forced break (such a line is not justified)."""

    runs: Line
    width: float
    squeeze: float
    last: bool
