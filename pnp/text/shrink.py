"""Shrink-to-fit: the largest size, stepping down from the one asked for, at which a text's
lines (as :func:`pnp.text.setting.set_lines` breaks them) fit a box.

A size is skipped without breaking the text when a word would have to split or when even
perfectly filled lines could not fit; breaking stops as soon as the lines outnumber the room.
Each answer is remembered for the process by everything it depends on (a face is drawn once
per canvas, so the same label in the same box is fitted again in each build of it);
:mod:`pnp.text.fitcache` keeps answers between processes.
"""

from __future__ import annotations

from collections.abc import Sequence

from pnp.core.records import record
from pnp.text import breakunits, unitmetrics
from pnp.text.breakunits import units_of
from pnp.text.linetypes import EPS, SQUEEZE_PER_LINE, Kern, Line, Measure, Run, SetLine, Squeeze, no_squeeze
from pnp.text.setting import Overfull, set_lines
from pnp.text.unitmetrics import unit_metrics


def clear_caches() -> None:
    """Forget every remembered fit, and every break unit and width cached beneath them
    (benchmarks time typesetting from scratch)."""
    breakunits.clear_caches()
    unitmetrics.clear_caches()
    _fits.clear()


@record
class Fit:
    """A text fitted to its box: the size, the leading and the lines as set at that size
    (:func:`pnp.text.place.place` places each, justified or not, as the paragraph needs)."""

    size: float
    leading: float
    setting: tuple[SetLine, ...]

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(line.runs for line in self.setting)


_fits: dict[tuple[object, ...], Fit | None] = {}


def fit_text(runs: Sequence[Run], width: float, height: float, size: float, min_size: float,
             measure: Measure, leading_ratio: float = 1.3, step: float = 0.25,
             squeeze: Squeeze | None = None, kern: Kern | None = None) -> Fit | None:
    """The largest size from ``size`` down to ``min_size`` at which the text fits the box.

    With ``kern`` and ``squeeze`` the lines are set as a book's are (adjacent punctuation
    closed up, a line taking one more unit by compressing its punctuation), so text placed
    with the same pair (:func:`pnp.text.place.place`) fills exactly the lines measured here.

    Remembered by everything the answer depends on: a face is drawn once per canvas, so the
    same label in the same box is fitted again in the other script's build, on the rulebook's
    figures and in exports; a measure is one per font family (pnp.text.fonts.measure_for).
    """
    key = (tuple(runs), width, height, size, min_size, measure, leading_ratio, step, squeeze, kern)
    if key in _fits:
        return _fits[key]
    if len(_fits) > 16384:
        _fits.clear()
    fit = _fit_text(key[0], width, height, size, min_size, measure, leading_ratio, step, squeeze, kern)
    _fits[key] = fit
    return fit


def _fit_text(key: tuple[Run, ...], width: float, height: float, size: float, min_size: float,
              measure: Measure, leading_ratio: float, step: float, squeeze: Squeeze | None,
              kern: Kern | None) -> Fit | None:
    runs = key
    units = units_of(key)
    m = unit_metrics(key, units, measure, squeeze or no_squeeze, kern)
    # A unit narrower than the line once its punctuation gives up what a line may take fits.
    widest_unit = max((v - min(s, SQUEEZE_PER_LINE) for v, s in zip(m.visible, m.squeeze, strict=True)),
                      default=0.0)
    # Every line holds at most `width` of printed text, so the text needs at least
    # total / width lines (every pair closed up, every mark squeezed as far as it goes): a
    # size at which even that many overflow the box is skipped without breaking it (the
    # margin keeps float rounding from ever skipping a size that fits).
    total = sum(m.visible) - sum(m.join) - sum(m.squeeze)
    current = size
    while current >= min_size - 1e-9:
        # Shrinking must never cost a word or number its wholeness ("10" split as 1/0).
        if widest_unit * current > width + EPS:
            current = round(current - step, 4)
            continue
        leading = current * leading_ratio
        # The last line needs only its glyph height, not a whole leading.
        room = int((height + EPS - current) // leading) + 1 if height + EPS >= current else 0
        if total * current > (room + 0.001) * (width + EPS):
            current = round(current - step, 4)
            continue
        try:
            lines = set_lines(runs, width, current, measure, squeeze, max_lines=room, kern=kern)
        except Overfull:
            current = round(current - step, 4)
            continue
        needed = (len(lines) - 1) * leading + current
        # A line wider than the box holds it by squeezing its punctuation (at most a line's share).
        widest = max((line.width - min(line.squeeze, SQUEEZE_PER_LINE * current) for line in lines),
                     default=0.0)
        if needed <= height + EPS and widest <= width + EPS:
            return Fit(current, leading, tuple(lines))
        current = round(current - step, 4)
    return None
