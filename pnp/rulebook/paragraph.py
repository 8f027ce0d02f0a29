"""The rulebook's paragraph: runs of text broken at ICU line-break units, set justified with
punctuation closed up and squeezed, drawn with its marker, callout bar or outline entry. Every
heading, list item, body paragraph and caption of a book or aid is one; the lines it sets are
cached here, since the aid's trial settings set the same paragraph at the same width again, and
so are the operators of the lines it draws, written again where a document numbers the same
glyphs the same way (:func:`_replay`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable

from pnp.core.records import record
from pnp.render.glyphs import GlyphCheck
from pnp.render.inline_icons import IconForms
from pnp.rulebook.style import (
    ACCENT,
    EM_ASCENT,
    HEADING_MAX_LINES,
    MARK,
    QUOTE_BG,
    QUOTE_PAD,
    TextStyle,
)
from pnp.text.fitcache import note_lines
from pnp.text.fitcache import set_lines as kept_lines
from pnp.text.fonts import FontFamily, kern_for, measure_for, squeeze_for
from pnp.text.linetypes import Run, SetLine
from pnp.text.place import place

# CJKParagraph.wrap's lines by (runs, usable width, size, fonts, justified): a pure function
# of those (set_lines with the family's measure, squeeze and kern); capped for long-lived
# processes (pnp serve, --watch).
_SET_LINES: dict[tuple[Any, ...], tuple[SetLine, ...]] = {}
_SET_LINES_CAP = 50_000
# A drawn line's text object by everything its operators depend on except the document's
# glyph numbers and font names (see :func:`_replay`): a book made again (the other paper, a
# round of pnp serve or --watch after an edit elsewhere) prints most of its lines as before.
_DRAWN_LINES: dict[tuple[Any, ...], KeptText] = {}
_DRAWN_LINES_CAP = 20_000


@record
class FontText:
    """What one font printed in a line: its text, in the order printed, the font's name in the
    document then, and the code points the text looks up (as ``splitString`` looks them up)
    with the glyph numbers the document had given them (None: a glyph the font lacks)."""

    font: str
    internal: str
    text: str
    codes: tuple[int, ...]
    glyphs: tuple[int | None, ...]


@record
class KeptText:
    code: str  # the text object's operators, as the canvas writes them
    fonts: tuple[FontText, ...]
    # The document's PDF version once the line was drawn: drawing a coloured line raises it to
    # 1.4 (reportlab's setFillAlpha), which writing the operators does not do.
    pdf_version: tuple[int, ...]


def _font_state(font_name: str, canvas: Any) -> Any:
    """reportlab's state of a TrueType font in the canvas's document (None: not used yet, or
    not a TrueType font)."""
    font = getFont(font_name)
    return font.state.get(canvas._doc) if isinstance(font, TTFont) else None


def _lookups(text: str) -> tuple[int, ...]:
    """The code points ``splitString`` looks up for ``text``, each once (it prints a no-break
    space as a space)."""
    return tuple(dict.fromkeys(32 if code == 0xA0 else code for code in map(ord, text)))


def _replay(canvas: Any, kept: KeptText) -> bool:
    """Write the kept line when this document numbers its glyphs as it did then.

    reportlab numbers a font's glyphs in the order a document first prints them, so the same
    line can print other codes in another document. A font that has not numbered every glyph of
    the line yet is first asked for the line's text as drawing asks for it (new glyphs get the
    numbers drawing would give them). If every font is named as before and numbers the glyphs
    as kept, the kept operators are what drawing writes. If not, the caller draws the line: the
    fonts were asked only what drawing asks, in the same order for each font, so the document
    ends as it would have."""
    if tuple(canvas._doc._pdfVersion) < kept.pdf_version:
        return False
    states = []
    for used in kept.fonts:
        state = _font_state(used.font, canvas)
        if state is None or state.internalName != used.internal:
            return False
        states.append(state)
    for state, used in zip(states, kept.fonts, strict=True):
        if tuple(map(state.assignments.get, used.codes)) != used.glyphs:
            getFont(used.font).splitString(used.text, canvas._doc)
            if tuple(map(state.assignments.get, used.codes)) != used.glyphs:
                return False
    canvas.addLiteral(kept.code)
    return True


def _kept_text(canvas: Any, code: str, printed: dict[str, list[str]]) -> KeptText | None:
    """The line just drawn as :func:`_replay` writes it again; None when a font it printed in
    is not a named TrueType font, or the document has spot colours, or the line sets a graphics
    state (``gs``: its colours or transparency would be resources of the document or page,
    which writing its operators does not add)."""
    if canvas._colorsUsed or " gs" in code:
        return None
    fonts = []
    for name, pieces in printed.items():
        state = _font_state(name, canvas)
        if state is None or state.internalName is None:
            return None
        text = "".join(pieces)
        codes = _lookups(text)
        fonts.append(FontText(name, state.internalName, text, codes, tuple(map(state.assignments.get, codes))))
    return KeptText(code, tuple(fonts), tuple(canvas._doc._pdfVersion))


@lru_cache(maxsize=256)
def _span_colour(value: str) -> Any:
    """A colour span's '#rrggbb' as reportlab paints it (a book prints as designed)."""
    return HexColor(value)


class CJKParagraph(Flowable):  # type: ignore[misc]  # reportlab is untyped
    """A paragraph broken at ICU line-break units, adjacent punctuation closed up (」， ）。),
    justified (inter-character spacing, with punctuation squeezed where that lets a line hold
    one more unit); splits between lines."""

    def __init__(self, runs: Sequence[Run], style: TextStyle, fonts: FontFamily,
                 glyphs: GlyphCheck, where: str, indent: float = 0.0, marker: str = "",
                 bar: bool = False, outline: tuple[str, int, str] | None = None,
                 lines: tuple[SetLine, ...] | None = None, first: bool = True,
                 pad: tuple[float, float] = (0.0, 0.0), justify: bool = False,
                 icons: Callable[[Any], IconForms] | None = None) -> None:
        super().__init__()
        self.icons = icons  # the inline icons of the canvas drawn on, for runs that are icons
        self.runs = tuple(Run(r.text, r.bold or style.bold, r.mark, r.colour, r.icon) for r in runs)
        self.style = style
        self.fonts = fonts
        self.glyphs = glyphs
        self.where = where
        self.indent = indent
        self.marker = marker
        self.bar = bar
        # Inner space above and below the lines; consecutive paragraphs of one quote share a
        # background, so only the first pads its top and only the last its bottom.
        self.pad_top, self.pad_bottom = pad if bar else (0.0, 0.0)
        self.outline = outline  # (title, level, key) for headings
        self.level = 0  # a heading's Markdown level (1 for "#"), set by the book builder
        self.prose = False  # a Markdown paragraph (not a list item, caption or heading)
        self.lines = lines
        self._fixed = lines is not None  # the part of a split paragraph: never re-broken
        self._broken_for = -1.0
        self.first = first
        self.justify = justify
        self.measure = measure_for(fonts)
        self.squeeze = squeeze_for(fonts) if justify else None
        self.kern = kern_for(fonts)  # adjacent punctuation closes up in every paragraph
        self.spaceBefore = style.space_before if first else 0
        self.spaceAfter = style.space_after
        if outline:
            self.keepWithNext = True

    def _inset(self) -> float:
        return QUOTE_PAD if self.bar else 0.0

    def _usable(self, avail_width: float) -> float:
        return avail_width - self.indent - 2 * self._inset()

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width = avail_width
        usable = self._usable(avail_width)
        if not self._fixed and usable != self._broken_for:
            # Break units and their widths are cached by text, so a re-wrap costs one greedy
            # pass; the lines themselves are remembered by everything they depend on, since
            # the aid's trial settings (and the other paper size's rulebook) set the same
            # paragraph at the same width again and again.
            key = (self.runs, usable, self.style.size, self.fonts, self.justify)
            lines = _SET_LINES.get(key)
            if lines is None:
                if len(_SET_LINES) >= _SET_LINES_CAP:
                    _SET_LINES.clear()
                lines = _SET_LINES[key] = kept_lines(self.runs, usable, self.style.size, self.measure,
                                                     self.squeeze, kern=self.kern)
            else:  # a process that builds again (serve, --watch) keeps it in the disk cache too
                note_lines(self.runs, usable, self.style.size, self.measure, self.squeeze, self.kern,
                           lines)
            if self.outline and len(lines) > HEADING_MAX_LINES:
                self.glyphs.overflow(f"{self.where}: a heading {len(lines)} lines long "
                                     f"(at most {HEADING_MAX_LINES}); shorten it or make it a paragraph")
                lines = lines[:HEADING_MAX_LINES]
            self.lines = lines
            self._broken_for = usable
        assert self.lines is not None
        self.height = len(self.lines) * self.style.leading + self.pad_top + self.pad_bottom
        return avail_width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        self.wrap(avail_width, avail_height)
        assert self.lines is not None
        fit = int((avail_height - self.pad_top) // self.style.leading)
        if fit < 2 or len(self.lines) < 4 or len(self.lines) - fit < 2:
            return []  # keep at least two lines on each side of a break
        head = CJKParagraph(self.runs, self.style, self.fonts, self.glyphs, self.where,
                            self.indent, self.marker, self.bar, self.outline, self.lines[:fit], self.first,
                            (self.pad_top, 4.0), self.justify, self.icons)
        tail = CJKParagraph(self.runs, self.style, self.fonts, self.glyphs, self.where,
                            self.indent, "", self.bar, None, self.lines[fit:], False,
                            (4.0, self.pad_bottom), self.justify, self.icons)
        head.spaceAfter = 0
        tail.spaceAfter = self.spaceAfter
        return [head, tail]

    def draw(self) -> None:
        canvas = self.canv
        assert self.lines is not None
        if self.outline:
            title, level, key = self.outline
            canvas.bookmarkPage(key)
            canvas.addOutlineEntry(title, key, level=level, closed=False)
        inset = self._inset()
        if self.bar:
            canvas.setFillColor(QUOTE_BG)
            canvas.rect(0, 0, self.width, self.height, stroke=0, fill=1)
            canvas.setFillColor(ACCENT)
            canvas.rect(0, 0, 2.2, self.height, stroke=0, fill=1)
        size, leading = self.style.size, self.style.leading
        usable = self._usable(self.width)
        top = self.height - self.pad_top
        left = self.indent + inset
        # A canvas that converts colours (PDF/X's CMYK) writes other operators for the same line.
        keeps_lines = canvas._enforceColorSpace is None
        for index, line in enumerate(self.lines):
            baseline = top - index * leading - (leading - size) / 2 - size * EM_ASCENT
            if index == 0 and self.marker:
                canvas.setFillColor(ACCENT)
                canvas.setFont(self.fonts.bold.name, size)
                canvas.drawRightString(left - 4, baseline, self.marker)
            for run in line.runs:
                if run.icon is None:
                    self.glyphs.check(run.text, run.bold, self.where, self.fonts)
            line_key = None if not keeps_lines or any(run.icon is not None for run in line.runs) else \
                (line, usable, self.style, self.fonts, self.justify, left, baseline)
            kept = None if line_key is None else _DRAWN_LINES.get(line_key)
            if kept is not None and _replay(canvas, kept):
                continue
            printed: dict[str, list[str]] = {}
            text = canvas.beginText()
            text.setFillColor(self.style.color)
            font, char_space = "", 0.0
            paint: tuple[bool, str | None] = (False, None)
            icons: list[tuple[str, float, str | None]] = []
            for stretch in place(line, usable, size, self.measure, self.squeeze, self.justify, self.kern):
                if stretch.icon is not None:
                    icons.append((stretch.icon, left + stretch.x, stretch.colour))
                    continue
                name = self.fonts.bold.name if stretch.bold else self.fonts.regular.name
                if name != font:
                    text.setFont(name, size)
                    font = name
                if (stretch.mark, stretch.colour) != paint:
                    text.setFillColor(MARK if stretch.mark else _span_colour(stretch.colour) if stretch.colour
                                      else self.style.color)
                    paint = (stretch.mark, stretch.colour)
                if stretch.char_space != char_space:
                    text.setCharSpace(stretch.char_space)
                    char_space = stretch.char_space
                text.setTextOrigin(left + stretch.x, baseline)
                text.textOut(stretch.text)
                printed.setdefault(name, []).append(stretch.text)
            if char_space:
                text.setCharSpace(0)  # Tc outlives the text object; later strings start from 0
            code = str(text.getCode())
            canvas.addLiteral(code)  # what drawText writes
            if line_key is not None and (made := _kept_text(canvas, code, printed)) is not None:
                if len(_DRAWN_LINES) >= _DRAWN_LINES_CAP:
                    _DRAWN_LINES.clear()
                _DRAWN_LINES[line_key] = made
            if icons:
                assert self.icons is not None  # the book gives icons to a paragraph that prints them
                forms = self.icons(canvas)
                for icon, at, span in icons:
                    forms.place(icon, at, baseline, size, _span_colour(span) if span else None, self.style.color)
