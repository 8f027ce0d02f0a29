"""A kept content stream's text printed as a document numbers its glyphs now.

reportlab numbers a TrueType font's glyphs in the order a document first prints them, 256 to a
subset (``/F3+0``, ``/F3+1``), and names each font in the order it is first used. Text kept from
one document (a face of pnp.render.facecache) printed the glyph numbers and font names that
document gave; written into another, every string must print the numbers this one gives. Most
often each glyph stays in its subset and only the bytes of the strings change; when one moved
into another subset, the strings are read back into glyphs and printed again as reportlab cuts
them into runs by subset.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any, NamedTuple

from reportlab.lib.rl_accel import escapePDF

from pnp.core.records import record

log = logging.getLogger(__name__)


@record
class FontUse:
    """One font's part in a face: the code points it prints, in the order of first use, the
    glyph number reportlab gave each (subset × 256 + code) and the font's resource name."""

    font: str
    name: str
    codes: tuple[int, ...]
    glyphs: tuple[int, ...]


# A subset of a TrueType font as a content stream names it (``/F3+1``: font, subset), and a
# literal string as reportlab escapes it (rl_accel.escapePDF: its text).
_SUBSET_NAME = r"/(F\d+)\+(\d+)"
_LITERAL = r"\(((?:\\[0-7]{3}|\\[\\()]|[^\\()])*)\)"
# What a renumbering within subsets rewrites: the subsets chosen and the strings.
_TOKEN = re.compile(f"{_SUBSET_NAME}|{_LITERAL}")
# A text object read back in pieces: a subset of a TrueType font chosen as reportlab's
# _formatText chooses it, right before a string (``/F3+1 9.5 Tf 11.4 TL``: font, subset, then
# the text object's size and leading); a literal string printed (``(...) Tj``, its text); or
# any other operators and operands, up to the next of those two.
_TEXT_PIECE = re.compile(rf"{_SUBSET_NAME} (\S+ Tf \S+ TL)(?= \()"
                         rf"|{_LITERAL} Tj(?= |$)"
                         r"|[^\s(]+(?: [^\s(/]+)*")
# Operators that print or set the font other than as _formatText does for a TrueType font
# (read as a piece of their own only then).
_UNREAD = frozenset({"Tf", "TL", "Tj", "TJ", "'", '"'})


class _Unreadable(Exception):
    """A kept line this module cannot print again with other glyph numbers."""


class _Chosen(NamedTuple):
    """A font and subset a text object has chosen, with the size and leading it chose it at. A
    typed tuple: one is made for every choice in every kept line replayed, and a tuple is
    quicker to make, and to define at import, than a frozen dataclass."""

    font: str
    subset: int
    size: str  # ``9.5 Tf 11.4 TL``


def renumbered(lines: tuple[str, ...], fonts: Sequence[FontUse],
               states: Mapping[str, Any]) -> tuple[str, ...] | None:
    """A kept face's content ``lines`` with the glyphs its ``fonts`` printed numbered as the
    document numbers them now (``states``: reportlab's state of each font in the document), and
    its fonts named so; None when a font has no name yet or a line cannot be read back.

    Reportlab numbers a font's glyphs in the order the document first prints them, so a card
    edit that brings a new glyph (or takes one away) moves the numbers of every glyph first
    printed after it, and a glyph near the end of a subset of 256 may move into the next one
    (or back). While every glyph stays in its subset, only the bytes of the strings change;
    otherwise the strings are printed again as reportlab prints them (:func:`_reprinted`)."""
    names: dict[str, str] = {}
    numbers: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}  # per font: kept, now
    for use in fonts:
        state = states[use.font]
        if state is None or state.internalName is None:
            return None
        names[use.name] = state.internalName
        # A code point the font lacks is glyph 0, then as now (the fonts are in the key).
        now = tuple(map(state.assignments.get, use.codes, repeat(0)))
        if now != use.glyphs and len(set(zip(use.glyphs, now, strict=True))) != len(set(use.glyphs)):
            return None  # two code points printed as one glyph then, as two now
        numbers[use.name] = (use.glyphs, now)
    if len(set(names.values())) != len(names):
        return None
    moved = {(font, old): new for font, (kept, now) in numbers.items() if kept != now
             for old, new in zip(kept, now, strict=True) if old != new}
    if not moved and all(old == new for old, new in names.items()):
        return lines
    if all(old >> 8 == new >> 8 for (_, old), new in moved.items()):
        # Every glyph stays in its subset: the runs and the choices of subsets are as they
        # were, only the bytes of the strings (and the fonts' names) change.
        tables: dict[tuple[str, int], bytearray] = {}
        for (font, old), new in moved.items():
            tables.setdefault((font, old >> 8), bytearray(range(256)))[old & 0xFF] = new & 0xFF
        current: list[bytearray | None] = [None]  # the table of the font and subset last chosen
        return tuple(line if "(" not in line and "/F" not in line  # draws shapes only
                     else _renumber_line(line, names, tables, current) for line in lines)
    # Some glyph moved into another subset. A line (a text object: reportlab chooses a subset
    # before its first string) none of whose strings prints such a glyph is cut into runs and
    # chooses its subsets as it did: only its bytes change. The others are printed again.
    staying: dict[tuple[str, int], bytearray] = {}
    leaving: dict[tuple[str, int], set[int]] = {}
    for (font, old), new in moved.items():
        if old >> 8 == new >> 8:
            staying.setdefault((font, old >> 8), bytearray(range(256)))[old & 0xFF] = new & 0xFF
        else:
            leaving.setdefault((font, old >> 8), set()).add(old & 0xFF)
    glyphs = {font: dict(zip(kept, now, strict=True)) for font, (kept, now) in numbers.items()}
    try:
        return tuple(line if "(" not in line and "/F" not in line  # draws shapes only
                     else _renumbered_in_place(line, names, staying, leaving) or _reprinted(line, names, glyphs)
                     for line in lines)
    except _Unreadable as exc:
        log.debug("kept face drawn again: %s", exc)
        return None


def _renumber_line(line: str, names: Mapping[str, str], tables: Mapping[tuple[str, int], bytearray],
                   current: list[bytearray | None]) -> str:
    def swap(match: re.Match[str]) -> str:
        font, subset, text = match.groups()
        if font is not None:
            current[0] = tables.get((font, int(subset)))
            return f"/{names.get(font, font)}+{subset}"
        table = current[0]
        if table is None:
            return match.group(0)
        return f"({escapePDF(_unescaped(text).translate(table))})"

    return _TOKEN.sub(swap, line)


class _Leaves(Exception):
    """A line prints a glyph that moved into another subset (or a string before any subset)."""


def _renumbered_in_place(line: str, names: Mapping[str, str], tables: Mapping[tuple[str, int], bytearray],
                         leaving: Mapping[tuple[str, int], set[int]]) -> str | None:
    """``line`` with its strings' bytes renumbered by ``tables`` (per font and subset) and its
    fonts renamed; None when one of its strings prints a glyph ``leaving`` its subset, or
    prints before the line chose a subset."""
    chosen: list[tuple[str, int] | None] = [None]

    def swap(match: re.Match[str]) -> str:
        font, subset, text = match.groups()
        if font is not None:
            chosen[0] = (font, int(subset))
            return f"/{names.get(font, font)}+{subset}"
        if chosen[0] is None:
            raise _Leaves
        data = _unescaped(text)
        if not leaving.get(chosen[0], set()).isdisjoint(data):
            raise _Leaves
        table = tables.get(chosen[0])
        return match.group(0) if table is None else f"({escapePDF(data.translate(table))})"

    try:
        return _TOKEN.sub(swap, line)
    except _Leaves:
        return None


def _unescaped(text: str) -> bytes:
    """The bytes of a literal string's text as escapePDF wrote them: each byte as itself, as a
    backslash and three octal digits, or (a backslash or parenthesis) after a backslash. With
    the parentheses written in octal too, that is Python's escaping, which its codec reads in C."""
    octal = text.replace("\\(", "\\050").replace("\\)", "\\051")
    return octal.encode("latin-1").decode("unicode_escape").encode("latin-1")


def _reprinted(line: str, names: Mapping[str, str], glyphs: Mapping[str, Mapping[int, int]]) -> str:
    """A kept line (a text object, as canvas.drawText writes it) with its glyphs renumbered.

    Reportlab's ``PDFTextObject._formatText`` prints a string of a TrueType font as runs, one
    per subset its glyphs fall in, and before a run chooses its subset (``/F1+0 9.5 Tf 11.4
    TL``) unless the text object's last choice was that subset; a new text object or font
    forgets the last choice. So each string is read back into its glyphs and printed again:
    the runs may now be cut elsewhere, and a choice be needed or not where it was not or was.

    Two things the output alone does not tell are read as pnp's text drawing makes them
    (pnp.render.face_text, face_vertical; ``drawString``): runs of one font separated by
    nothing but the choice of another of its subsets are one string, since pnp moves the text
    origin (``Tm``) before every string; and a text object sets its font again only to change
    it, so a choice of another subset of the same font at the same size after other operators
    was needed by the subset alone."""
    pieces = list(_TEXT_PIECE.finditer(line))
    if " ".join(piece[0] for piece in pieces) != line:
        raise _Unreadable(f"a line not read back as it was written: {line[:80]!r}")
    out: list[str] = []
    kept: _Chosen | None = None  # the last choice in the kept line
    now: _Chosen | None = None  # the last choice in the line printed again
    string: list[int] = []  # the glyphs, numbered now, of the string being read
    font = ""  # its font
    cut = False  # the string goes on after a choice of another subset

    def print_string() -> None:
        nonlocal now
        start = 0
        while start < len(string):
            subset = string[start] >> 8
            end = start
            while end < len(string) and string[end] >> 8 == subset:
                end += 1
            if now is None or (now.font, now.subset) != (font, subset):
                assert kept is not None  # a string is read only after a choice
                now = _Chosen(font, subset, kept.size)
                out.append(f"/{names[font]}+{subset} {kept.size}")
            out.append(f"({escapePDF(bytes(glyph & 0xFF for glyph in string[start:end]))}) Tj")
            start = end
        string.clear()

    for piece in pieces:
        chosen_font, chosen_subset, size, text = piece.groups()
        if chosen_font is not None:
            if chosen_font not in names:
                raise _Unreadable(f"font {chosen_font} is not one the face noted")
            chosen = _Chosen(chosen_font, int(chosen_subset), size)
            same_font = kept is not None and (chosen.font, chosen.size) == (kept.font, kept.size)
            if string and same_font and kept is not None and chosen.subset != kept.subset:
                kept, cut = chosen, True  # the next run of the same string
                continue
            print_string()
            if not same_font or (kept is not None and chosen.subset == kept.subset):
                now = None  # a new text object, font or size: reportlab forgot its last choice
            kept = chosen
        elif text is not None:
            if kept is None:
                raise _Unreadable(f"a string printed before any font was chosen: {line[:80]!r}")
            if not cut:
                print_string()
                font = kept.font
            table = glyphs[kept.font]
            try:
                string.extend(table[kept.subset << 8 | byte] for byte in _unescaped(text))
            except KeyError as exc:
                raise _Unreadable(f"glyph {exc} is not one the face noted") from None
            cut = False
        else:
            if string:
                print_string()
            words = piece[0].split(" ")
            if not _UNREAD.isdisjoint(words):
                raise _Unreadable(f"text printed otherwise: {line[:80]!r}")
            if "BT" in words:
                kept = now = None
            out.append(piece[0])
    print_string()
    return " ".join(out)
