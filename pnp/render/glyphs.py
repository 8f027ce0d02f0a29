"""Problems found while drawing: missing glyphs and text that does not fit its box.

Every string is checked against the face that will print it, as it is drawn. Problems are
collected rather than raised so that one build reports all of them at once; nothing is
written while any are found.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.fonts import FontFamily, describe_missing, drawable_characters, missing_characters


@dataclass
class GlyphCheck:
    fonts: FontFamily
    missing: list[str] = field(default_factory=list)
    overflows: list[str] = field(default_factory=list)
    _seen: set[tuple[str, str, str]] = field(default_factory=set)
    _drawable: dict[bool, frozenset[str]] = field(default_factory=dict)

    def check(self, text: str, bold: bool, where: str) -> None:
        face = self.fonts.bold if bold else self.fonts.regular
        drawable = self._drawable.get(bold)
        if drawable is None:
            drawable = self._drawable[bold] = drawable_characters(face)
        if drawable.issuperset(text):
            return  # nearly always: one set test, no look-up of the face's cached set
        for ch in missing_characters(text, face):
            key = (ch, face.name, where)
            if key in self._seen:
                continue
            self._seen.add(key)
            self.missing.append(describe_missing(ch, where, face))

    def overflow(self, message: str) -> None:
        if message not in self.overflows:
            self.overflows.append(message)

    @property
    def problems(self) -> list[str]:
        return self.missing + self.overflows
