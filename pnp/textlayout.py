"""Chinese line breaking and shrink-to-fit, as pure functions over a width measure.

Break opportunities come from the Unicode line-breaking algorithm (UAX #14, via uniseg):
no line starts with closing punctuation or ends with opening punctuation, …… and ——
stay whole, and Latin words and numbers are never split (unless a single one is wider
than the whole line, where breaking it is the only way to print it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from uniseg.linebreak import line_break_units


@dataclass(frozen=True)
class Run:
    """A stretch of text in one style."""

    text: str
    bold: bool = False


Line = tuple[Run, ...]
# measure(text, bold, size) -> width in points
Measure = Callable[[str, bool, float], float]


def _unit_runs(runs: Sequence[Run]) -> list[list[Run]]:
    """Split styled runs at UAX #14 break opportunities of their joined text."""
    text = "".join(run.text for run in runs)
    styles = [run.bold for run in runs for _ in run.text]
    units: list[list[Run]] = []
    pos = 0
    for unit in line_break_units(text):
        pieces: list[Run] = []
        for offset, ch in enumerate(unit):
            bold = styles[pos + offset]
            if pieces and pieces[-1].bold == bold:
                pieces[-1] = Run(pieces[-1].text + ch, bold)
            else:
                pieces.append(Run(ch, bold))
        units.append(pieces)
        pos += len(unit)
    return units


def _width(pieces: Sequence[Run], size: float, measure: Measure) -> float:
    return sum(measure(p.text, p.bold, size) for p in pieces)


def _strip_trailing(pieces: list[Run]) -> list[Run]:
    while pieces and not pieces[-1].text.rstrip(" \n"):
        pieces.pop()
    if pieces:
        last = pieces[-1]
        pieces[-1] = Run(last.text.rstrip(" \n"), last.bold)
    return pieces


def _merge(line: list[Run]) -> Line:
    merged: list[Run] = []
    for run in line:
        if not run.text:
            continue
        if merged and merged[-1].bold == run.bold:
            merged[-1] = Run(merged[-1].text + run.text, run.bold)
        else:
            merged.append(run)
    return tuple(merged)


def _split_long(pieces: list[Run], width: float, size: float, measure: Measure) -> list[list[Run]]:
    """Character by character, for a single unit wider than a whole line."""
    chunks: list[list[Run]] = [[]]
    for piece in pieces:
        for ch in piece.text:
            candidate = [*chunks[-1], Run(ch, piece.bold)]
            if chunks[-1] and _width(candidate, size, measure) > width:
                chunks.append([Run(ch, piece.bold)])
            else:
                chunks[-1] = candidate
    return chunks


def break_lines(runs: Sequence[Run], width: float, size: float, measure: Measure) -> list[Line]:
    """Greedy fill of UAX #14 units into lines no wider than ``width``; '\n' forces a break.

    A paragraph whose last line would hold a character or two (「分。」 alone) takes units
    down from the line above, as a typesetter would, so no line is left stranded.
    """
    lines: list[list[list[Run]]] = []  # line -> its units
    hard_end: list[bool] = []
    current: list[list[Run]] = []

    def flush(hard: bool) -> None:
        lines.append(current)
        hard_end.append(hard)

    def line_width(units: list[list[Run]]) -> float:
        return _width(_strip_trailing([p for u in units for p in u]), size, measure)

    for unit in _unit_runs(runs):
        hard = unit[-1].text.endswith("\n")
        unit_width = _width(_strip_trailing(list(unit)), size, measure)
        if current and line_width([*current, unit]) > width + 1e-6:
            flush(False)
            current = []
        if not current and unit_width > width + 1e-6:
            chunks = _split_long(list(unit), width, size, measure)
            for chunk in chunks[:-1]:
                current = [chunk]
                flush(False)
            current = [chunks[-1]]
        else:
            current.append(unit)
        if hard:
            flush(True)
            current = []
    if current:
        flush(True)
    _avoid_stranded_last_line(lines, hard_end, size, width, line_width)
    return [_merge(_strip_trailing([p for u in line for p in u])) for line in lines]


def _avoid_stranded_last_line(lines: list[list[list[Run]]], hard_end: list[bool], size: float,
                              width: float, line_width: Callable[[list[list[Run]]], float]) -> None:
    for index in range(1, len(lines)):
        if not hard_end[index] and index != len(lines) - 1:
            continue
        if hard_end[index - 1]:
            continue  # the line above ends its own paragraph
        last, above = lines[index], lines[index - 1]
        while (line_width(last) < 2.5 * size and len(above) > 2
               and line_width(above[-1:] + last) <= width + 1e-6
               and line_width(above[:-1]) >= width / 2):
            last.insert(0, above.pop())


@dataclass(frozen=True)
class Fit:
    size: float
    leading: float
    lines: tuple[Line, ...]


def fit_text(runs: Sequence[Run], width: float, height: float, size: float, min_size: float,
             measure: Measure, leading_ratio: float = 1.3, step: float = 0.25) -> Fit | None:
    """The largest size from ``size`` down to ``min_size`` at which the text fits the box."""
    units = [_strip_trailing(list(unit)) for unit in _unit_runs(runs)]
    current = size
    while current >= min_size - 1e-9:
        # Shrinking must never cost a word or number its wholeness ("10" split as 1/0).
        if any(_width(unit, current, measure) > width + 1e-6 for unit in units):
            current = round(current - step, 4)
            continue
        lines = break_lines(runs, width, current, measure)
        leading = current * leading_ratio
        # The last line needs only its glyph height, not a whole leading.
        needed = (len(lines) - 1) * leading + current
        widest = max((_width(line, current, measure) for line in lines), default=0.0)
        if needed <= height + 1e-6 and widest <= width + 1e-6:
            return Fit(current, leading, tuple(lines))
        current = round(current - step, 4)
    return None
