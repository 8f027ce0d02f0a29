"""Where each glyph of a set line goes: justification and punctuation compression.

:func:`pnp.text.setting.set_lines` decides what goes on each line; :func:`place` turns one such
line into stretches a canvas draws, each with one font and one character spacing, so that the
line fills its measure exactly (or keeps its natural spacing when it ends a paragraph).
"""

from __future__ import annotations

from functools import lru_cache

from pnp.core.records import record
from pnp.text.linetypes import EPS, Kern, Measure, SetLine, Squeeze, no_squeeze
from pnp.text.unitmetrics import pair_cuts


def clear_caches() -> None:
    """Forget every cached glyph width (benchmarks time typesetting from scratch)."""
    _char_width.cache_clear()


@record
class Placed:
    """A stretch of one line drawn with one font at ``x``, ``char_space`` added after each glyph;
    ``mark``: it is (part of) a label, drawn in the mark colour; ``colour``: drawn in that
    colour instead; ``icon``: the stretch is that inline icon, one em wide at ``x``."""

    x: float
    text: str
    bold: bool
    char_space: float
    mark: bool = False
    colour: str | None = None
    icon: str | None = None


@lru_cache(maxsize=65536)
def _char_width(measure: Measure, ch: str, bold: bool) -> float:
    return measure(ch, bold, 1.0)


def _latin(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch in "$%.,'-_/+")


def place(line: SetLine, width: float, size: float, measure: Measure, squeeze: Squeeze | None = None,
          justify: bool = True, kern: Kern | None = None) -> tuple[Placed, ...]:
    """Where each stretch of a line goes so that it fills ``width`` exactly.

    Adjacent punctuation closes up as ``kern`` says (the same ``kern`` the line was set with).
    A line wider than the measure (it took a unit thanks to squeeze) compresses its full-width
    punctuation by just what it needs, each mark in proportion to the blank it has left. A
    wrapped line shorter than the measure is justified by spacing between characters, never
    inside a Latin word or number nor inside a closed-up pair; the last line of a paragraph
    keeps its natural spacing.
    """
    squeeze = squeeze or no_squeeze
    chars = [(ch, run.bold) for run in line.runs for ch in run.text]
    if not chars:
        return ()
    marks = [run.mark for run in line.runs for _ in run.text]
    # What else starts a new stretch: a colour, and an icon (a stretch of its own).
    kinds = [(run.colour, run.icon) for run in line.runs for _ in run.text]
    advances = [_char_width(measure, ch, bold) * size for ch, bold in chars]
    pair_left, pair_right = pair_cuts(chars, kern)
    left_cut = [cut * size for cut in pair_left]
    right_cut = [cut * size for cut in pair_right]
    natural = sum(advances) - sum(left_cut) - sum(right_cut)
    gaps = [0.0] * len(chars)  # extra space after each character
    if natural > width + EPS and line.squeeze > 0:
        ratio = min(1.0, (natural - width) / line.squeeze)
        for i, (ch, bold) in enumerate(chars):
            left, right = squeeze(ch, bold)
            # What a side already gave its neighbour it cannot give again.
            left_cut[i] += max(0.0, left - pair_left[i]) * size * ratio
            right_cut[i] += max(0.0, right - pair_right[i]) * size * ratio
    elif justify and not line.last and natural < width - EPS:
        stretchable = [i for i in range(len(chars) - 1)
                       if not (_latin(chars[i][0]) and _latin(chars[i + 1][0]))
                       and not (pair_right[i] or pair_left[i + 1])]
        if stretchable:
            each = (width - natural) / len(stretchable)
            for i in stretchable:
                gaps[i] = each
    out: list[Placed] = []
    # The open stretch: where it starts, its characters so far, style and spacing.
    start, text, style, spacing = 0.0 - left_cut[0], [chars[0][0]], chars[0][1], gaps[0]
    mark, kind = marks[0], kinds[0]
    x = start + advances[0] - right_cut[0] + gaps[0]  # the pen: where the next advance box begins
    for i in range(1, len(chars)):
        ch, bold = chars[i]
        glyph_x = x - left_cut[i]
        # Continue the open stretch when its spacing alone puts this glyph where it goes.
        if (style == bold and mark == marks[i] and abs(spacing - gaps[i - 1]) < EPS
                and left_cut[i] == 0.0 and right_cut[i - 1] == 0.0
                and kind == kinds[i] and kind[1] is None):
            text.append(ch)
        else:
            out.append(Placed(start, "".join(text), style, spacing, mark, *kind))
            start, text, style, spacing, mark, kind = glyph_x, [ch], bold, gaps[i], marks[i], kinds[i]
        x = glyph_x + advances[i] - right_cut[i] + gaps[i]
    out.append(Placed(start, "".join(text), style, spacing, mark, *kind))
    return tuple(out)
