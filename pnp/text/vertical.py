"""Vertical text (直排): a text cut into cells, set in columns read top to bottom, the
columns right to left, and shrunk to fit a box.

A column is a stack of cells, each one em across:

- ``upright``: a Han character, full-width punctuation or symbol, drawn as it is, or in its
  vertical form when the face's ``vert`` feature has one (pnp.text.vertforms);
- ``across`` (縱中橫): a number or Latin word of one or two characters (``12``, ``BC``) set
  across the column in one cell, pressed to an em when it is wider;
- ``turned``: a longer Latin run, a dash or any other proportional character, turned a
  quarter clockwise so it reads down the column; it takes its width in length.

Columns are filled with the units of Chinese line breaking (pnp.text.linebreaks: ICU's
UAX #14), so no column starts with closing punctuation (，。」) or ends with an opening one
(「), …… and —— stay whole and a Latin word is never split. A newline starts a new column.
Lengths are in ems here; the caller multiplies by the size.

The text may be styled runs (pnp.text.linetypes.Run: bold, a colour, an inline icon): each
cell keeps its run's style, an icon is an upright cell of its own, kept in its column with the
characters written against it (pnp.text.breakunits glues it to them).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Literal

from pnp.core.records import record
from pnp.text.breakunits import units_of
from pnp.text.linetypes import ICON, Run

CellKind = Literal["upright", "across", "turned"]
ACROSS_MAX = 2  # 縱中橫: up to this many Latin letters or digits share one cell


@record
class Cell:
    text: str
    kind: CellKind
    length: float  # along the column, in ems
    bold: bool = False
    colour: str | None = None  # '#rrggbb' of a colour span, else the element's colour
    icon: str | None = None  # an inline icon's name (its text is ICON)


@record
class VerticalFit:
    """A text fitted to a box in columns: the size (pt), the distance from one column's centre
    to the next (pt) and the columns, first (rightmost) first."""

    size: float
    pitch: float
    columns: tuple[tuple[Cell, ...], ...]

    def column_length(self, index: int) -> float:
        """A column's length in points."""
        return sum(cell.length for cell in self.columns[index]) * self.size


# measure(text, bold) -> advance in ems (at size 1, so the caller's measure divided by the size)
EmMeasure = Callable[[str, bool], float]


def _upright(ch: str, advance: float) -> bool:
    """Whether a character with no vertical form stands upright in a column: wide characters
    (Han, full-width forms) and ambiguous-width symbols the face draws an em wide (○ ★ ①),
    but never a dash, which runs along the column."""
    if unicodedata.category(ch) == "Pd":
        return False
    width = unicodedata.east_asian_width(ch)
    return width in ("W", "F") or (width == "A" and advance >= 0.99)


def cells_of(piece: Run, measure: EmMeasure) -> tuple[Cell, ...]:
    """One styled piece's cells: upright characters one by one, runs of the rest together;
    an icon is one upright cell."""
    style = (piece.bold, piece.colour)
    if piece.icon is not None:
        return (Cell(ICON, "upright", 1.0, *style, piece.icon),)
    cells: list[Cell] = []
    run = ""

    def flush() -> None:
        nonlocal run
        if run:
            if len(run) <= ACROSS_MAX and run.isascii() and run.isalnum():
                cells.append(Cell(run, "across", 1.0, *style))
            else:
                cells.append(Cell(run, "turned", measure(run, piece.bold), *style))
            run = ""

    for ch in piece.text:
        if _upright(ch, measure(ch, piece.bold)):
            flush()
            cells.append(Cell(ch, "upright", 1.0, *style))
        else:
            run += ch
    flush()
    return tuple(cells)


Units = tuple[tuple[tuple[Cell, ...], tuple[Cell, ...], bool], ...]


@lru_cache(maxsize=4096)
def _units(runs: tuple[Run, ...], measure: EmMeasure) -> Units:
    """(cells, cells without trailing spaces, ends with a newline) for each break unit."""
    out = []
    for unit in units_of(runs):
        visible = tuple(cell for piece in unit.visible for cell in cells_of(piece, measure))
        whole = "".join(piece.text for piece in unit.pieces).rstrip("\n")
        shown = "".join(piece.text for piece in unit.visible)
        spaces = whole[len(shown):]
        last = unit.pieces[-1]
        cells = (*visible, Cell(spaces, "turned", measure(spaces, last.bold), last.bold, last.colour)) \
            if spaces else visible
        out.append((cells, visible, unit.hard))
    return tuple(out)


def _runs_of(text: str | Sequence[Run]) -> tuple[Run, ...]:
    return (Run(text),) if isinstance(text, str) else tuple(text)


def set_columns(text: str | Sequence[Run], length: float, measure: EmMeasure, max_columns: int
                ) -> tuple[tuple[Cell, ...], ...] | None:
    """The text in columns of at most ``length`` ems, or None when a unit is longer than a
    column or more than ``max_columns`` are needed."""
    columns: list[tuple[Cell, ...]] = []
    current: list[Cell] = []
    used = 0.0
    fresh = True  # the current column has nothing yet (a column is never left empty by a wrap)
    for cells, visible, hard in _units(_runs_of(text), measure):
        need = sum(cell.length for cell in visible)
        if need > length + 1e-9:
            return None
        if not fresh and used + need > length + 1e-9:
            columns.append(_strip(current))
            current, used = [], 0.0
        current.extend(cells)
        used += sum(cell.length for cell in cells)
        fresh = False
        if hard:
            columns.append(_strip(current))
            current, used, fresh = [], 0.0, True
        if len(columns) > max_columns:
            return None
    if current or not columns:
        columns.append(_strip(current))
    return tuple(columns) if len(columns) <= max_columns else None


def _strip(cells: list[Cell]) -> tuple[Cell, ...]:
    """A column without the spaces it ends with (a turned run of spaces, or a run's tail)."""
    while cells and not cells[-1].text.strip(" "):
        cells.pop()
    return tuple(cells)


def fit_columns(text: str | Sequence[Run], width: float, height: float, size: float, min_size: float,
                measure: EmMeasure, leading_ratio: float = 1.3, step: float = 0.25) -> VerticalFit | None:
    """The largest size from ``size`` down to ``min_size`` (pt) at which the text's columns
    fit a box of ``width`` × ``height`` points, or None."""
    runs = _runs_of(text)
    current = size
    while current >= min_size - 1e-9:
        pitch = current * leading_ratio
        room = int((width + 1e-6 - current) // pitch) + 1 if width + 1e-6 >= current else 0
        if room:
            columns = set_columns(runs, (height + 1e-6) / current, measure, room)
            if columns is not None:
                return VerticalFit(current, pitch, columns)
        current = round(current - step, 4)
    return None
