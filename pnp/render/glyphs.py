"""Problems found while drawing: missing glyphs and text that does not fit its box.

Every string is checked against the face that will print it, as it is drawn. Problems are
collected rather than raised so that one build reports all of them at once; nothing is
written while any are found.
"""

from __future__ import annotations

from pnp.text.fontchoice import elsewhere
from pnp.text.fonts import FontFamily, coverage, describe_missing, missing_characters


class GlyphCheck:
    """The characters a document's faces lack and the texts that overflowed, as it is drawn. A
    holder, so a plain class (docs/architecture.md, "Start-up")."""

    def __init__(self, fonts: FontFamily) -> None:
        self.fonts = fonts
        self.missing: list[str] = []
        self.overflows: list[str] = []
        self._seen: set[tuple[str, str, str]] = set()
        self._codes: dict[str, frozenset[int]] = {}

    def check(self, text: str, bold: bool, where: str, fonts: FontFamily | None = None) -> None:
        """Record the characters of ``text`` the face that prints it lacks: ``fonts`` (the
        family of the text's role, see FontFamily.role) or the family the check was made with."""
        face = (fonts or self.fonts).face(bold)
        codes = self._codes.get(face.name)
        if codes is None:
            codes = self._codes[face.name] = coverage(face)
        # Nearly always: one set test against the face's code points (a set of its 17,000
        # characters as strings cost more to make than every test of a card edit).
        if codes.issuperset(map(ord, text)):
            return
        for ch in missing_characters(text, face):
            key = (ch, face.name, where)
            if key in self._seen:
                continue
            self._seen.add(key)
            self.missing.append(describe_missing(ch, where, face) + elsewhere(ch))

    def overflow(self, message: str) -> None:
        if message not in self.overflows:
            self.overflows.append(message)

    @property
    def problems(self) -> list[str]:
        return self.missing + self.overflows

