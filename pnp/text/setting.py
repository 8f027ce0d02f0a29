"""Chinese line setting and shrink-to-fit, as pure functions over a width measure.

Break opportunities come from ICU's line BreakIterator (:mod:`pnp.text.linebreaks`): no line
starts with closing punctuation or ends with opening punctuation, …… and —— stay whole, and
Latin words and numbers are never split (unless a single one is wider than the whole line,
where breaking it is the only way to print it).

Adjacent full-width punctuation closes up (JIS X 4051 / clreq punctuation compression: 」，
）。 「（ drop the blank half between them) through a ``kern`` that breaking, justification
and :func:`pnp.text.place.place` all use, so a line is measured the same wherever it is
measured; a pair split by a line break stays whole-width.

A text's break units are computed once and cached by text, so shrink-to-fit's size steps
and platypus's re-wraps reuse them; widths are measured once per unit at size 1 and scaled,
which holds because every measure pnp uses (font advance widths) is proportional to size.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from pnp.text.linebreaks import break_offsets


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


def clear_caches() -> None:
    """Forget every cached break unit and width (benchmarks time typesetting from scratch)."""
    break_offsets.cache_clear()
    _units.cache_clear()
    _metrics_cache.clear()
    _fits.clear()
    _runs.clear()
    _unit_widths.clear()
    _unit_squeezes.clear()
    _unit_kerns.clear()


def no_squeeze(ch: str, bold: bool) -> tuple[float, float]:
    return (0.0, 0.0)


class _Unit(NamedTuple):  # a tuple: made for every unit of every text, several times cheaper
    pieces: tuple[Run, ...]  # the whole unit, trailing spaces and newline included
    visible: tuple[Run, ...]  # without them: what a line ending here prints
    hard: bool  # ends with a newline: a forced break


def _strip_trailing(pieces: list[Run]) -> list[Run]:
    while pieces and not pieces[-1].text.rstrip(" \n"):
        pieces.pop()
    if pieces:
        last = pieces[-1]
        pieces[-1] = Run(last.text.rstrip(" \n"), last.bold, last.mark)
    return pieces


@lru_cache(maxsize=4096)
def _units(runs: tuple[Run, ...]) -> tuple[_Unit, ...]:
    """Styled runs split at the break opportunities of their joined text; cached by runs."""
    text = "".join(run.text for run in runs)
    styles = {(run.bold, run.mark) for run in runs if run.text}
    if len(styles) == 1 and not any(run.mark for run in runs):
        return _plain_units(text, styles.pop()[0])
    # Style boundaries as (end offset, bold, mark), walked alongside the unit boundaries.
    bounds: list[tuple[int, bool, bool]] = []
    glued: set[int] = set()  # offsets that are no break: inside a mark
    pos = 0
    for run in runs:
        if run.text:
            if run.mark:
                glued.update(range(pos + 1, pos + len(run.text)))
            pos += len(run.text)
            bounds.append((pos, run.bold, run.mark))
    ends = [end for end in break_offsets(text) if end == len(text) or end not in glued]
    units: list[_Unit] = []
    start, b = 0, 0
    for end in ends:
        pieces: list[Run] = []
        at = start
        while at < end:
            while bounds[b][0] <= at:
                b += 1
            stop = min(end, bounds[b][0])
            _, bold, mark = bounds[b]
            if pieces and pieces[-1].bold == bold and pieces[-1].mark == mark:
                pieces[-1] = Run(pieces[-1].text + text[at:stop], bold, mark)
            else:
                pieces.append(Run(text[at:stop], bold, mark))
            at = stop
        whole = tuple(pieces)
        visible = tuple(_strip_trailing(pieces)) if text[end - 1] in " \n" else whole
        units.append(_Unit(whole, visible, text[end - 1] == "\n"))
        start = end
    return tuple(units)


_runs: dict[tuple[str, bool], Run] = {}


def _run(text: str, bold: bool) -> Run:
    """One Run per (text, style), shared: most units are a single character or a punctuated
    pair, repeated thousands of times, and a frozen dataclass costs more to make than to find."""
    key = (text, bold)
    run = _runs.get(key)
    if run is None:
        if len(_runs) > 65536:
            _runs.clear()
        run = _runs[key] = Run(text, bold)
    return run


def _plain_units(text: str, bold: bool) -> tuple[_Unit, ...]:
    """:func:`_units` of text in a single style (most paragraphs): one piece per unit."""
    units: list[_Unit] = []
    start = 0
    make = tuple.__new__  # _Unit(...) without NamedTuple's Python-level __new__
    for end in break_offsets(text):
        piece = text[start:end]
        whole = (_run(piece, bold),)
        last = piece[-1]
        if last == " " or last == "\n":
            shown = piece.rstrip(" \n")
            units.append(make(_Unit, (whole, (_run(shown, bold),) if shown else (), last == "\n")))
        else:
            units.append(make(_Unit, (whole, whole, False)))
        start = end
    return tuple(units)


def _width(pieces: Sequence[Run], size: float, measure: Measure) -> float:
    return sum(measure(p.text, p.bold, size) for p in pieces)


def _squeeze_of(pieces: Sequence[Run], squeeze: Squeeze) -> float:
    marks = getattr(squeeze, "marks", None)
    if marks is None:
        return sum(sum(squeeze(ch, p.bold)) for p in pieces for ch in p.text)
    # A squeeze that names the only characters it gives anything for (``marks``) is asked
    # about those alone: the others add 0.0, which leaves the sum as it is (0 turns into 0.0).
    total: float = 0
    for piece in pieces:
        if not piece.text:
            continue
        if type(total) is int:
            total = 0.0
        if marks.isdisjoint(piece.text):
            continue
        for ch in piece.text:
            if ch in marks:
                total += sum(squeeze(ch, piece.bold))
    return total


def pair_cuts(chars: Sequence[tuple[str, bool]], kern: Kern | None) -> tuple[list[float], list[float]]:
    """(left, right): the blank, in ems, each character's left and right side gives up to its
    neighbour on the line (punctuation compression); all 0 without ``kern``."""
    left = [0.0] * len(chars)
    right = [0.0] * len(chars)
    if kern is None or len(chars) < 2:
        return left, right
    marks = getattr(kern, "marks", None)
    for i in range(len(chars) - 1):
        (a, a_bold), (b, b_bold) = chars[i], chars[i + 1]
        if marks is not None and (a not in marks or b not in marks):
            continue
        right[i], left[i + 1] = kern(a, a_bold, b, b_bold)
    return left, right


def _kerned(chars: Sequence[tuple[str, bool]], squeeze: Squeeze, kern: Kern) -> tuple[float, float]:
    """(width the pairs of ``chars`` close up by, squeeze that uses up), in ems."""
    left, right = pair_cuts(chars, kern)
    cut = lost = 0.0
    for i, (ch, bold) in enumerate(chars):
        if left[i] or right[i]:
            give_left, give_right = squeeze(ch, bold)
            cut += left[i] + right[i]
            lost += min(give_left, left[i]) + min(give_right, right[i])
    return cut, lost


@dataclass(frozen=True)
class _Metrics:
    """Per unit, at size 1: full width, printed width if a line ends here, and squeeze (ems),
    each after the compression of the pairs inside the unit; and, between a unit and the next
    on the same line, the width their pair closes up by and the squeeze that uses up."""

    full: tuple[float, ...]
    visible: tuple[float, ...]
    squeeze: tuple[float, ...]
    join: tuple[float, ...] = ()
    join_lost: tuple[float, ...] = ()


_metrics_cache: dict[tuple[tuple[Run, ...], Measure, Squeeze, Kern | None], _Metrics] = {}
# (width cut, squeeze lost) inside a one-piece unit, by kern and squeeze and (text, bold).
_unit_kerns: dict[tuple[Kern, Squeeze], dict[tuple[str, bool], tuple[float, float]]] = {}


# Width at size 1 and squeeze of a one-piece unit, by measure (or squeeze) and (text, bold).
_unit_widths: dict[Measure, dict[tuple[str, bool], float]] = {}
_unit_squeezes: dict[Squeeze, dict[tuple[str, bool], float]] = {}


def _metrics(runs: tuple[Run, ...], units: tuple[_Unit, ...], measure: Measure, squeeze: Squeeze,
             kern: Kern | None = None) -> _Metrics:
    key = (runs, measure, squeeze, kern)
    found = _metrics_cache.get(key)
    if found is None:
        if len(_metrics_cache) > 4096:
            _metrics_cache.clear()
        widths = _unit_widths.setdefault(measure, {})
        if len(widths) > 65536:
            widths.clear()
        full_list = []
        for u in units:
            if len(u.pieces) == 1:
                # A one-piece unit (nearly all) is measured directly: 0 + w is w, as _width would sum.
                piece = u.pieces[0]
                wkey = (piece.text, piece.bold)
                w = widths.get(wkey)
                if w is None:
                    w = widths[wkey] = measure(piece.text, piece.bold, 1.0)
                full_list.append(w)
            else:
                full_list.append(_width(u.pieces, 1.0, measure))
        full = tuple(full_list)
        if squeeze is no_squeeze:  # what _squeeze_of sums then: 0.0 per unit that prints, else 0
            squeezes = tuple(0.0 if any(p.text for p in u.visible) else 0 for u in units)
        else:
            cache = _unit_squeezes.setdefault(squeeze, {})
            if len(cache) > 65536:
                cache.clear()
            squeeze_list: list[float] = []
            for u in units:
                if len(u.visible) == 1:
                    piece = u.visible[0]
                    skey = (piece.text, piece.bold)
                    g = cache.get(skey)
                    if g is None:
                        g = cache[skey] = _squeeze_of(u.visible, squeeze)
                    squeeze_list.append(g)
                else:
                    squeeze_list.append(_squeeze_of(u.visible, squeeze))
            squeezes = tuple(squeeze_list)
        found = _Metrics(full,
                         tuple(f if u.visible is u.pieces or u.visible == u.pieces
                               else _width(u.visible, 1.0, measure)
                               for f, u in zip(full, units, strict=True)),
                         squeezes)
        if kern is not None:
            found = _kern_metrics(found, units, squeeze, kern)
        _metrics_cache[key] = found
    return found


def _kern_metrics(m: _Metrics, units: tuple[_Unit, ...], squeeze: Squeeze, kern: Kern) -> _Metrics:
    """``m`` with the pairs inside each unit compressed, and the joins between units."""
    marks = getattr(kern, "marks", None)
    cache = _unit_kerns.setdefault((kern, squeeze), {})
    if len(cache) > 65536:
        cache.clear()
    full, visible, squeezes = list(m.full), list(m.visible), list(m.squeeze)
    join = [0.0] * len(units)
    join_lost = [0.0] * len(units)
    for i, u in enumerate(units):
        if len(u.pieces) == 1:
            piece = u.pieces[0]
            if len(piece.text) < 2 or (marks is not None and marks.isdisjoint(piece.text)):
                continue
            key = (piece.text, piece.bold)
            found = cache.get(key)
            if found is None:
                found = cache[key] = _kerned([(ch, piece.bold) for ch in piece.text], squeeze, kern)
            cut, lost = found
        else:
            cut, lost = _kerned([(ch, p.bold) for p in u.pieces for ch in p.text], squeeze, kern)
        if cut:
            full[i] -= cut
            visible[i] -= cut
            squeezes[i] -= lost
    for i in range(len(units) - 1):
        before, after = units[i].pieces, units[i + 1].pieces
        if not before or not after or not before[-1].text or not after[0].text:
            continue
        pair = [(before[-1].text[-1], before[-1].bold), (after[0].text[0], after[0].bold)]
        if marks is not None and (pair[0][0] not in marks or pair[1][0] not in marks):
            continue
        join[i], join_lost[i] = _kerned(pair, squeeze, kern)
    return _Metrics(tuple(full), tuple(visible), tuple(squeezes), tuple(join), tuple(join_lost))


def _merge(line: Sequence[Run]) -> Line:
    merged: list[Run] = []
    for run in line:
        if not run.text:
            continue
        if merged and merged[-1].bold == run.bold and merged[-1].mark == run.mark:
            merged[-1] = Run(merged[-1].text + run.text, run.bold, run.mark)
        else:
            merged.append(run)
    return tuple(merged)


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
            chunks[-1].append(Run(ch, piece.bold, piece.mark))
            used += w
    return chunks


@dataclass(frozen=True)
class SetLine:
    """A broken line: its runs, natural width, how much its punctuation may give up (points),
    and whether it ends its paragraph or a forced break (such a line is not justified)."""

    runs: Line
    width: float
    squeeze: float
    last: bool


class _Overfull(Exception):
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
    :class:`_Overfull`) once the text needs more lines than that.
    """
    key = tuple(runs)
    units = _units(key)
    squeeze = squeeze or no_squeeze
    m = _metrics(key, units, measure, squeeze, kern)
    joins = m.join if kern is not None else None
    limit = width + EPS
    cap = SQUEEZE_PER_LINE * size
    lines: list[list[int]] = []  # unit indices per line; -1 marks a chunk of a split unit
    chunks: dict[int, list[Run]] = {}
    hard_end: list[bool] = []
    current: list[int] = []
    full = 0.0  # width of the current line with every unit whole (trailing spaces included)
    shown = 0.0  # what it prints: the last unit without its trailing spaces
    give = 0.0  # squeeze available in the current line, in points

    def flush(hard: bool) -> None:
        nonlocal current, full, shown, give
        lines.append(current)
        hard_end.append(hard)
        if max_lines is not None and len(lines) > max_lines:
            raise _Overfull
        current, full, shown, give = [], 0.0, 0.0, 0.0

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
            full = shown = _width(parts[-1], size, measure)
        else:
            current.append(index)
            if unit.visible:
                shown = full + unit_shown
                give += unit_give
            full += m.full[index] * size - closed
        if unit.hard:
            flush(True)
    if current or not lines:
        flush(True)

    def pieces_of(line: list[int], visible_last: bool = True) -> list[Run]:
        out: list[Run] = []
        for pos, i in enumerate(line):
            if i < 0:
                out.extend(chunks[i])
            else:
                out.extend(units[i].visible if visible_last and pos == len(line) - 1 else units[i].pieces)
        return _strip_trailing(out)

    def line_metrics(line: list[int]) -> tuple[float, float]:
        """(printed width, squeeze) of a line, from the cached unit metrics."""
        if any(i < 0 for i in line):
            pieces = pieces_of(line)
            chars = [(ch, p.bold) for p in pieces for ch in p.text]
            cut, lost = _kerned(chars, squeeze, kern) if kern is not None else (0.0, 0.0)
            return ((_width(pieces, size, measure) - cut * size),
                    (_squeeze_of(pieces, squeeze) - lost) * size)
        end = len(line)
        while end and not units[line[end - 1]].visible:
            end -= 1  # trailing spaces print nothing
        if not end:
            return 0.0, 0.0
        head = line[:end - 1]
        last = line[end - 1]
        shown = sum(m.full[i] for i in head) + m.visible[last]
        give = sum(m.squeeze[i] for i in head) + m.squeeze[last]
        if joins is not None:
            shown -= sum(joins[i] for i in line[:end - 1])
            give -= sum(m.join_lost[i] for i in line[:end - 1])
        return shown * size, give * size

    def line_width(line: list[int]) -> float:
        return line_metrics(line)[0]

    _avoid_stranded_last_line(lines, hard_end, size, width, line_width)
    # Text in one style (most paragraphs) makes each line one run: the units' text joined,
    # trailing spaces dropped, which is what merging the pieces gives.
    style = (runs[0].bold if runs and all(run.bold == runs[0].bold and not run.mark for run in runs)
             else None)
    out = []
    for line, hard in zip(lines, hard_end, strict=True):
        shown, give = line_metrics(line)
        if style is None or not line or line[0] < 0 or any(i < 0 for i in line):
            merged = _merge(pieces_of(line))
        else:
            joined = "".join([units[i].pieces[0].text for i in line]).rstrip(" \n")
            merged = (_run(joined, style),) if joined else ()
        out.append(SetLine(merged, shown, give, hard))
    return out


def break_lines(runs: Sequence[Run], width: float, size: float, measure: Measure) -> list[Line]:
    """The runs of each line :func:`set_lines` makes (without squeeze)."""
    return [line.runs for line in set_lines(runs, width, size, measure)]


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


@dataclass(frozen=True)
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
    units = _units(key)
    m = _metrics(key, units, measure, squeeze or no_squeeze, kern)
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
        except _Overfull:
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
