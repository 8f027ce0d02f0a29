"""What a break unit measures: its width, the squeeze its punctuation can give, and how much
adjacent full-width punctuation closes up (JIS X 4051 / clreq punctuation compression: 」，
）。 「（ drop the blank half between them).

Widths are measured once per unit at size 1 and scaled, which holds because every measure pnp
uses (font advance widths) is proportional to size; a text's metrics are cached by its runs
and the measures, and a one-piece unit's (nearly every unit) by its text and style. The pair
compression here is what breaking, shrink-to-fit and :func:`pnp.text.place.place` all use, so
a line is measured the same wherever it is measured.
"""

from __future__ import annotations

from collections.abc import Sequence

from pnp.core.records import record
from pnp.text.breakunits import Unit
from pnp.text.linetypes import Kern, Measure, Run, Squeeze, no_squeeze


def clear_caches() -> None:
    """Forget every cached width, squeeze and compression (benchmarks time typesetting from scratch)."""
    _metrics_cache.clear()
    _unit_widths.clear()
    _unit_squeezes.clear()
    _unit_kerns.clear()


def width_of(pieces: Sequence[Run], size: float, measure: Measure) -> float:
    """The natural width of ``pieces`` at ``size``, in points, before any compression."""
    return sum(measure(p.text, p.bold, size) for p in pieces)


def squeeze_of(pieces: Sequence[Run], squeeze: Squeeze) -> float:
    """How much, in ems, the punctuation of ``pieces`` may give up when its line is compressed."""
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


def kerned(chars: Sequence[tuple[str, bool]], squeeze: Squeeze, kern: Kern) -> tuple[float, float]:
    """(width the pairs of ``chars`` close up by, squeeze that uses up), in ems."""
    left, right = pair_cuts(chars, kern)
    cut = lost = 0.0
    for i, (ch, bold) in enumerate(chars):
        if left[i] or right[i]:
            give_left, give_right = squeeze(ch, bold)
            cut += left[i] + right[i]
            lost += min(give_left, left[i]) + min(give_right, right[i])
    return cut, lost


@record
class UnitMetrics:
    """Per unit, at size 1: full width, printed width if a line ends here, and squeeze (ems),
    each after the compression of the pairs inside the unit; and, between a unit and the next
    on the same line, the width their pair closes up by and the squeeze that uses up."""

    full: tuple[float, ...]
    visible: tuple[float, ...]
    squeeze: tuple[float, ...]
    join: tuple[float, ...] = ()
    join_lost: tuple[float, ...] = ()


_metrics_cache: dict[tuple[tuple[Run, ...], Measure, Squeeze, Kern | None], UnitMetrics] = {}
# (width cut, squeeze lost) inside a one-piece unit, by kern and squeeze and (text, bold).
_unit_kerns: dict[tuple[Kern, Squeeze], dict[tuple[str, bool], tuple[float, float]]] = {}


# Width at size 1 and squeeze of a one-piece unit, by measure (or squeeze) and (text, bold).
_unit_widths: dict[Measure, dict[tuple[str, bool], float]] = {}
_unit_squeezes: dict[Squeeze, dict[tuple[str, bool], float]] = {}


def unit_metrics(runs: tuple[Run, ...], units: tuple[Unit, ...], measure: Measure, squeeze: Squeeze,
                 kern: Kern | None = None) -> UnitMetrics:
    """The metrics of ``units``, the break units of ``runs``; cached by runs and measures."""
    key = (runs, measure, squeeze, kern)
    found = _metrics_cache.get(key)
    if found is None:
        if len(_metrics_cache) > 4096:
            _metrics_cache.clear()
        full = _full_widths(units, measure)
        squeezes = _squeezes(units, squeeze)
        found = UnitMetrics(full,
                            tuple(f if u.visible is u.pieces or u.visible == u.pieces
                                  else width_of(u.visible, 1.0, measure)
                                  for f, u in zip(full, units, strict=True)),
                            squeezes)
        if kern is not None:
            found = _kern_metrics(found, units, squeeze, kern)
        _metrics_cache[key] = found
    return found


def _full_widths(units: tuple[Unit, ...], measure: Measure) -> tuple[float, ...]:
    """Each unit's width at size 1, trailing spaces included."""
    widths = _unit_widths.setdefault(measure, {})
    if len(widths) > 65536:
        widths.clear()
    full_list = []
    for u in units:
        if len(u.pieces) == 1:
            # A one-piece unit (nearly all) is measured directly: 0 + w is w, as width_of would sum.
            piece = u.pieces[0]
            wkey = (piece.text, piece.bold)
            w = widths.get(wkey)
            if w is None:
                w = widths[wkey] = measure(piece.text, piece.bold, 1.0)
            full_list.append(w)
        else:
            full_list.append(width_of(u.pieces, 1.0, measure))
    return tuple(full_list)


def _squeezes(units: tuple[Unit, ...], squeeze: Squeeze) -> tuple[float, ...]:
    """Each unit's squeeze, in ems, as a line ending there prints it."""
    if squeeze is no_squeeze:  # what squeeze_of sums then: 0.0 per unit that prints, else 0
        return tuple(0.0 if any(p.text for p in u.visible) else 0 for u in units)
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
                g = cache[skey] = squeeze_of(u.visible, squeeze)
            squeeze_list.append(g)
        else:
            squeeze_list.append(squeeze_of(u.visible, squeeze))
    return tuple(squeeze_list)


def _kern_metrics(m: UnitMetrics, units: tuple[Unit, ...], squeeze: Squeeze, kern: Kern) -> UnitMetrics:
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
                found = cache[key] = kerned([(ch, piece.bold) for ch in piece.text], squeeze, kern)
            cut, lost = found
        else:
            cut, lost = kerned([(ch, p.bold) for p in u.pieces for ch in p.text], squeeze, kern)
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
        join[i], join_lost[i] = kerned(pair, squeeze, kern)
    return UnitMetrics(tuple(full), tuple(visible), tuple(squeezes), tuple(join), tuple(join_lost))

