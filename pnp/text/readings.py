"""A text converted whole and word by word, for ``pnp check`` (:meth:`pnp.text.convert.Converter.readings`).

Apart from the converter, which every build converts with: only the check compares the two
readings, so only it imports these records.
"""

from __future__ import annotations

from pnp.core.records import record


@record
class WordReading:
    """A word the text converted whole prints otherwise than the word converted alone."""

    start: int  # the word is text[start:end] of the source text
    end: int
    whole: str  # as the text converted whole prints it
    alone: str  # the word converted by itself


@record
class Readings:
    """A text converted whole (what a build prints) and word by word, and where they differ."""

    whole: str
    words: str
    differing: tuple[WordReading, ...]

    def aligned(self, source: str) -> bool:
        """Both readings keep the source's length, so a span of the source is the same span of
        either (OpenCC's variant tables and the shipped glossaries map a character to one)."""
        return len(self.whole) == len(self.words) == len(source)
