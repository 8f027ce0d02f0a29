"""Styled text cut into break units: the pieces a line is filled with.

ICU's line-break opportunities (:mod:`pnp.text.linebreaks`) are found in the runs' joined text
and the runs are cut there, each unit keeping its styles, its trailing spaces and whether it
ends with a forced break; no unit ends inside a mark run (a label is never broken) nor
beside an inline icon, unless a space stands between. A text's
units are made once and cached by its runs, so shrink-to-fit's size steps and platypus's
re-wraps reuse them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from pnp.text.linebreaks import break_offsets
from pnp.text.linetypes import Run, joinable


def clear_caches() -> None:
    """Forget every cached break unit (benchmarks time typesetting from scratch)."""
    break_offsets.cache_clear()
    units_of.cache_clear()
    _runs.clear()


class Unit(NamedTuple):  # a tuple: made for every unit of every text, several times cheaper
    pieces: tuple[Run, ...]  # the whole unit, trailing spaces and newline included
    visible: tuple[Run, ...]  # without them: what a line ending here prints
    hard: bool  # ends with a newline: a forced break


def strip_trailing(pieces: list[Run]) -> list[Run]:
    """``pieces`` without their trailing spaces and newline (changed in place, and returned)."""
    while pieces and not pieces[-1].text.rstrip(" \n"):
        pieces.pop()
    if pieces:
        last = pieces[-1]
        pieces[-1] = last.with_text(last.text.rstrip(" \n"))
    return pieces


def _glued(runs: tuple[Run, ...], text: str) -> set[int]:
    """Offsets that are no break: inside a mark, and either side of an icon (an icon stays
    with the characters written against it; only a space or a newline lets a line end
    before one, and a line never starts with one cut off from its word)."""
    glued: set[int] = set()
    pos = 0
    for run in runs:
        if run.text:
            end = pos + len(run.text)
            if run.mark:
                glued.update(range(pos + 1, end))
            if run.icon is not None:
                if pos and text[pos - 1] not in " \n":
                    glued.add(pos)
                glued.add(end)
            pos = end
    return glued


@lru_cache(maxsize=4096)
def units_of(runs: tuple[Run, ...]) -> tuple[Unit, ...]:
    """Styled runs split at the break opportunities of their joined text; cached by runs."""
    text = "".join(run.text for run in runs)
    styles = {run.style for run in runs if run.text}
    if len(styles) == 1 and not any(run.mark or run.colour or run.icon for run in runs):
        return _plain_units(text, styles.pop()[0])
    # Style boundaries as (end offset, run), walked alongside the unit boundaries.
    bounds: list[tuple[int, Run]] = []
    pos = 0
    for run in runs:
        if run.text:
            pos += len(run.text)
            bounds.append((pos, run))
    glued = _glued(runs, text)
    ends = [end for end in break_offsets(text) if end == len(text) or end not in glued]
    units: list[Unit] = []
    start, b = 0, 0
    for end in ends:
        pieces: list[Run] = []
        at = start
        while at < end:
            while bounds[b][0] <= at:
                b += 1
            stop = min(end, bounds[b][0])
            run = bounds[b][1]
            if pieces and joinable(pieces[-1], run):
                pieces[-1] = run.with_text(pieces[-1].text + text[at:stop])
            else:
                pieces.append(run if run.icon is not None else run.with_text(text[at:stop]))
            at = stop
        whole = tuple(pieces)
        visible = tuple(strip_trailing(pieces)) if text[end - 1] in " \n" else whole
        units.append(Unit(whole, visible, text[end - 1] == "\n"))
        start = end
    return tuple(units)


_runs: dict[tuple[str, bool], Run] = {}


def shared_run(text: str, bold: bool) -> Run:
    """One Run per (text, style), shared: most units are a single character or a punctuated
    pair, repeated thousands of times, and a frozen dataclass costs more to make than to find."""
    key = (text, bold)
    run = _runs.get(key)
    if run is None:
        if len(_runs) > 65536:
            _runs.clear()
        run = _runs[key] = Run(text, bold)
    return run


def _plain_units(text: str, bold: bool) -> tuple[Unit, ...]:
    """:func:`units_of` text in a single style (most paragraphs): one piece per unit."""
    units: list[Unit] = []
    start = 0
    make = tuple.__new__  # Unit(...) without NamedTuple's Python-level __new__
    for end in break_offsets(text):
        piece = text[start:end]
        whole = (shared_run(piece, bold),)
        last = piece[-1]
        if last == " " or last == "\n":
            shown = piece.rstrip(" \n")
            units.append(make(Unit, (whole, (shared_run(shown, bold),) if shown else (), last == "\n")))
        else:
            units.append(make(Unit, (whole, whole, False)))
        start = end
    return tuple(units)
