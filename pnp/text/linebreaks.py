"""Where a line of Chinese (or mixed) text may break, and where its words end: ICU's line and
word BreakIterators.

ICU implements UAX #14 with CLDR's tailoring, the rules browsers use: no line starts with
closing punctuation or ends with opening punctuation, …… and —— stay whole, and Latin words
and numbers are never split. :mod:`pnp.text.breakunits` cuts styled text into these units. ICU's word
breaks (UAX #29, with its dictionary of Chinese words) are what :mod:`pnp.text.convert` converts one
word at a time to find where a phrase of the converter reaches across two words.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from icu4py.breakers import BaseBreaker

_BREAK_LOCALE = "zh"


@lru_cache(maxsize=16384)
def break_offsets(text: str) -> tuple[int, ...]:
    """End offsets (Python string indices) of the line-break units of ``text``."""
    from icu4py.breakers import LineBreaker  # ICU loads on the first text broken, not at import

    return _ends(LineBreaker, text)


def word_offsets(text: str) -> tuple[int, ...]:
    """End offsets (Python string indices) of the words of ``text``: a Chinese word as ICU's
    dictionary cuts it (重新|制作), a Latin word, a number, each punctuation mark or space."""
    from icu4py.breakers import WordBreaker

    return _ends(WordBreaker, text)


def _ends(breaker: type[BaseBreaker], text: str) -> tuple[int, ...]:
    """``breaker``'s segment ends in ``text``, as Python string indices.

    ICU counts in UTF-16 code units, so a character outside the BMP (𠀀, an emoji) is two
    units there and one here; the offsets are converted back.
    """
    if not text:
        return ()
    # A lone surrogate cannot cross into ICU (it is not valid UTF-8); U+FFFD stands in for it
    # with the same length on both sides.
    safe = text.encode("utf-8", "replace").decode("utf-8") if _has_surrogate(text) else text
    ends = [end for _, end in breaker(safe, _BREAK_LOCALE).segments()]
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
