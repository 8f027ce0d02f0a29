"""Where a line of Chinese (or mixed) text may break: ICU's line BreakIterator.

ICU implements UAX #14 with CLDR's tailoring, the rules browsers use: no line starts with
closing punctuation or ends with opening punctuation, …… and —— stay whole, and Latin words
and numbers are never split. :mod:`pnp.textlayout` sets lines from these units.
"""

from __future__ import annotations

from functools import lru_cache

_BREAK_LOCALE = "zh"


@lru_cache(maxsize=16384)
def break_offsets(text: str) -> tuple[int, ...]:
    """End offsets (Python string indices) of the line-break units of ``text``.

    ICU counts in UTF-16 code units, so a character outside the BMP (𠀀, an emoji) is two
    units there and one here; the offsets are converted back.
    """
    if not text:
        return ()
    # A lone surrogate cannot cross into ICU (it is not valid UTF-8); U+FFFD stands in for it
    # with the same length on both sides.
    safe = text.encode("utf-8", "replace").decode("utf-8") if _has_surrogate(text) else text
    from icu4py.breakers import LineBreaker  # ICU loads on the first text broken, not at import

    ends = [end for _, end in LineBreaker(safe, _BREAK_LOCALE).segments()]
    if max(safe) > "\uffff":
        to_index: dict[int, int] = {}
        units = 0
        for index, ch in enumerate(safe, start=1):
            units += 2 if ch > "\uffff" else 1
            to_index[units] = index
        ends = [to_index[end] for end in ends]
    return tuple(ends)


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def break_units(text: str) -> list[str]:
    """The text cut at every line-break opportunity (each unit keeps its trailing spaces)."""
    start, out = 0, []
    for end in break_offsets(text):
        out.append(text[start:end])
        start = end
    return out
