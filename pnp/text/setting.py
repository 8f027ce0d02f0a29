"""Chinese line breaking: which break units go on each line, as a pure function over a width
measure.

Break opportunities come from ICU's line BreakIterator (:mod:`pnp.text.linebreaks`, cut into
styled units by :mod:`pnp.text.breakunits`): no line starts with closing punctuation or ends
with opening punctuation, …… and —— stay whole, and Latin words and numbers are never split
(unless a single one is wider than the whole line, where breaking it is the only way to print
it). Lines are filled greedily, measured from the units' cached metrics
(:mod:`pnp.text.unitmetrics`), so adjacent punctuation closes up here exactly as
:func:`pnp.text.place.place` closes it up, and a pair split by a line break stays whole-width.

The types :func:`set_lines` takes and gives live in :mod:`pnp.text.linetypes`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pnp.text.breakunits import Unit, shared_run, strip_trailing, units_of
from pnp.text.linetypes import (
    EPS,
    SQUEEZE_PER_LINE,
    Kern,
    Line,
    Measure,
    Run,
    SetLine,
    Squeeze,
    joinable,
    no_squeeze,
)
from pnp.text.unitmetrics import UnitMetrics, kerned, squeeze_of, unit_metrics, width_of


class Overfull(Exception):
    """More lines than the caller has room for: stop breaking, the answer is 'does not fit'."""


def set_lines(runs: Sequence[Run], width: float, size: float, measure: Measure,
              squeeze: Squeeze | None = None, max_lines: int | None = None,
              kern: Kern | None = None) -> list[SetLine]:
    """Greedy fill of break units into lines no wider than ``width``; '\\n' forces a break.

    With ``kern``, adjacent punctuation on a line closes up (」， is a full em narrower than
    two full-width marks), and widths are measured so. With ``squeeze``, a unit still fits if
    compressing the line's full-width punctuation makes room for it (the renderer then
    compresses exactly that much). A paragraph whose last line
    would hold a character or two (「分。」 alone) takes units down from the line above, as a
    typesetter would, so no line is left stranded. ``max_lines`` stops early (raising
    :class:`Overfull`) once the text needs more lines than that.
    """
    key = tuple(runs)
    units = units_of(key)
    squeeze = squeeze or no_squeeze
    m = unit_metrics(key, units, measure, squeeze, kern)
    joins = m.join if kern is not None else None
    lines, hard_end, chunks = _fill_lines(units, m, joins, width, size, measure, max_lines)
    measured = _LineMeasure(units, m, chunks, size, measure, squeeze, kern)
    _avoid_stranded_last_line(lines, hard_end, size, width, measured.width)
    return _set_lines_of(runs, units, lines, hard_end, measured)


def break_lines(runs: Sequence[Run], width: float, size: float, measure: Measure) -> list[Line]:
    """The runs of each line :func:`set_lines` makes (without squeeze)."""
    return [line.runs for line in set_lines(runs, width, size, measure)]


def _fill_lines(units: tuple[Unit, ...], m: UnitMetrics, joins: tuple[float, ...] | None, width: float,
                size: float, measure: Measure, max_lines: int | None
                ) -> tuple[list[list[int]], list[bool], dict[int, list[Run]]]:
    """The greedy fill: (unit indices per line, whether each ends with a forced break, the
    chunks of units split character by character, by the negative index that stands for each).
    ``joins``: what each unit's pair with the next closes up by, when the line is kerned."""
    limit = width + EPS
    cap = SQUEEZE_PER_LINE * size
    lines: list[list[int]] = []  # unit indices per line; -1 marks a chunk of a split unit
    chunks: dict[int, list[Run]] = {}
    hard_end: list[bool] = []
    current: list[int] = []
    full = 0.0  # width of the current line with every unit whole (trailing spaces included)
    give = 0.0  # squeeze available in the current line, in points

    def flush(hard: bool) -> None:
        nonlocal current, full, give
        lines.append(current)
        hard_end.append(hard)
        if max_lines is not None and len(lines) > max_lines:
            raise Overfull
        current, full, give = [], 0.0, 0.0

    for index, unit in enumerate(units):
        unit_shown = m.visible[index] * size
        unit_give = m.squeeze[index] * size
        if joins is not None and current and current[-1] == index - 1 and joins[index - 1]:
            # The pair across the two units closes up while they share a line.
            unit_shown -= joins[index - 1] * size
            unit_give -= m.join_lost[index - 1] * size
            closed = joins[index - 1] * size
        else:
            closed = 0.0
        if current and unit.visible and full + unit_shown - min(give + unit_give, cap) > limit:
            flush(False)
            unit_shown += closed
            unit_give = m.squeeze[index] * size
            closed = 0.0
        if not current and unit_shown - min(unit_give, cap) > limit:
            parts = _split_long(unit.visible, width, size, measure)
            for part in parts[:-1]:
                chunks[-len(chunks) - 1] = part
                current = [-len(chunks)]
                flush(False)
            chunks[-len(chunks) - 1] = parts[-1]
            current = [-len(chunks)]
            full = width_of(parts[-1], size, measure)
        else:
            current.append(index)
            if unit.visible:
                give += unit_give
            full += m.full[index] * size - closed
        if unit.hard:
            flush(True)
    if current or not lines:
        flush(True)
    return lines, hard_end, chunks


def _split_long(pieces: Sequence[Run], width: float, size: float, measure: Measure) -> list[list[Run]]:
    """Character by character, for a single unit wider than a whole line."""
    chunks: list[list[Run]] = [[]]
    used = 0.0
    for piece in pieces:
        for ch in piece.text:
            w = measure(ch, piece.bold, size)
            if chunks[-1] and used + w > width:
                chunks.append([])
                used = 0.0
            chunks[-1].append(piece.with_text(ch))
            used += w
    return chunks



class _LineMeasure:
    """A broken line measured again, from its units' cached metrics: a line is a list of unit
    indices, a negative one standing for a chunk of a unit split character by character. A
    holder, so a plain class (docs/architecture.md, "Start-up")."""

    def __init__(self, units: tuple[Unit, ...], m: UnitMetrics, chunks: dict[int, list[Run]], size: float,
                 measure: Measure, squeeze: Squeeze, kern: Kern | None) -> None:
        self.units = units
        self.m = m
        self.chunks = chunks
        self.size = size
        self.measure = measure
        self.squeeze = squeeze
        self.kern = kern

    def pieces(self, line: list[int]) -> list[Run]:
        """What ``line`` prints: its units' pieces, without the trailing spaces of the last."""
        out: list[Run] = []
        for pos, i in enumerate(line):
            if i < 0:
                out.extend(self.chunks[i])
            else:
                out.extend(self.units[i].visible if pos == len(line) - 1 else self.units[i].pieces)
        return strip_trailing(out)

    def metrics(self, line: list[int]) -> tuple[float, float]:
        """(printed width, squeeze) of a line, in points."""
        size, m, units, kern = self.size, self.m, self.units, self.kern
        if any(i < 0 for i in line):
            pieces = self.pieces(line)
            chars = [(ch, p.bold) for p in pieces for ch in p.text]
            cut, lost = kerned(chars, self.squeeze, kern) if kern is not None else (0.0, 0.0)
            return ((width_of(pieces, size, self.measure) - cut * size),
                    (squeeze_of(pieces, self.squeeze) - lost) * size)
        end = len(line)
        while end and not units[line[end - 1]].visible:
            end -= 1  # trailing spaces print nothing
        if not end:
            return 0.0, 0.0
        head = line[:end - 1]
        last = line[end - 1]
        shown = sum(m.full[i] for i in head) + m.visible[last]
        give = sum(m.squeeze[i] for i in head) + m.squeeze[last]
        if kern is not None:
            shown -= sum(m.join[i] for i in line[:end - 1])
            give -= sum(m.join_lost[i] for i in line[:end - 1])
        return shown * size, give * size

    def width(self, line: list[int]) -> float:
        return self.metrics(line)[0]


def _avoid_stranded_last_line(lines: list[list[int]], hard_end: list[bool], size: float,
                              width: float, line_width: Callable[[list[int]], float]) -> None:
    for index in range(1, len(lines)):
        if not hard_end[index] and index != len(lines) - 1:
            continue
        if hard_end[index - 1]:
            continue  # the line above ends its own paragraph
        last, above = lines[index], lines[index - 1]
        if any(i < 0 for i in above + last):
            continue  # a word split character by character: nothing sensible to move
        while (line_width(last) < 2.5 * size and len(above) > 2
               and line_width(above[-1:] + last) <= width + EPS
               and line_width(above[:-1]) >= width / 2):
            last.insert(0, above.pop())



def _set_lines_of(runs: Sequence[Run], units: tuple[Unit, ...], lines: list[list[int]], hard_end: list[bool],
                  measured: _LineMeasure) -> list[SetLine]:
    """Each line's runs, styles merged, with its printed width and squeeze."""
    # Text in one style (most paragraphs) makes each line one run: the units' text joined,
    # trailing spaces dropped, which is what merging the pieces gives.
    style = (runs[0].bold if runs and all(run.bold == runs[0].bold and not run.mark and run.colour is None
                                          and run.icon is None for run in runs)
             else None)
    out = []
    for line, hard in zip(lines, hard_end, strict=True):
        shown, give = measured.metrics(line)
        if style is None or not line or line[0] < 0 or any(i < 0 for i in line):
            merged = _merge(measured.pieces(line))
        else:
            joined = "".join([units[i].pieces[0].text for i in line]).rstrip(" \n")
            merged = (shared_run(joined, style),) if joined else ()
        out.append(SetLine(merged, shown, give, hard))
    return out


def _merge(line: Sequence[Run]) -> Line:
    """``line`` with adjacent runs of the same style joined into one, empty runs dropped."""
    merged: list[Run] = []
    for run in line:
        if not run.text:
            continue
        if merged and joinable(merged[-1], run):
            merged[-1] = run.with_text(merged[-1].text + run.text)
        else:
            merged.append(run)
    return tuple(merged)

