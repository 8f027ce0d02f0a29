"""A figure of cards in the rulebook: rows of card-face miniatures drawn from the cards' own
PDF forms (the very forms the components PDF places), a label at the end of each row and a
numbered caption below, sized so that the figures of one series line up."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from pnp.core.units import MM
from pnp.data.model import Figure, Text
from pnp.render.sheets import face_geometry
from pnp.rulebook.style import EM_ASCENT, INK, RULE, TextStyle
from pnp.text.strings import ui

if TYPE_CHECKING:
    from pnp.rulebook.story import StoryBuilder

FIGURE_GAP = 2.5 * MM  # between miniatures, and between rows
FIGURE_INDENT = 16.0  # figures start at the list indent, left-aligned so a series lines up
HEADING_ROOM = 48.0  # points: an H2 with its spacing
LABEL_STYLE = TextStyle(10.5, 14, INK, True)
CAPTION_STYLE = TextStyle(9, 13, HexColor("#5d5348"))


class FigureFlowable(Flowable):  # type: ignore[misc]
    """Rows of card-face miniatures drawn from the cards' own PDF forms, a label at the end
    of each row and a caption below; shrunk as a whole if a row is wider than the page."""

    def __init__(self, figure: Figure, builder: StoryBuilder, number: int) -> None:
        super().__init__()
        self.figure = figure
        self.builder = builder
        game = builder.game
        self.component = game.component(figure.component)
        self.labels = [Text(builder.convert(t.value), t.where) for t in figure.labels]
        caption = builder.convert(figure.caption.value) if figure.caption else ""
        text = ui(builder.lang, "figure_caption", number=number, caption=caption).rstrip()
        self.caption = Text(text, figure.caption.where if figure.caption else figure.where)
        self.spaceBefore = 6
        self.spaceAfter = 10
        self.scale = 1.0
        self.label_size = LABEL_STYLE.size

    def _cards(self, row: tuple[str, ...]) -> list[tuple[str, float, float, float]]:
        """(card id, trim width, trim height, bleed) of each card in a row, in points at full size."""
        out = []
        for card_id in row:
            width, height, bleed, _ = face_geometry(self.component, self.builder.game.card(self.component.id,
                                                                                            card_id))
            out.append((card_id, width * MM, height * MM, bleed * MM))
        return out

    def _miniature_width(self, row: tuple[str, ...]) -> float:
        target = self.figure.card_height * MM
        cards = self._cards(row)
        return sum(w * target / h for _, w, h, _ in cards) + FIGURE_GAP * (len(cards) - 1)

    def _label_width(self) -> float:
        font = self.builder.fonts.bold.name
        return max((stringWidth(t.value, font, LABEL_STYLE.size) for t in self.labels), default=0.0)

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        # Figures of one series (same cards, same size) share their label column, so the same
        # rows shown before and after a move line up from one figure to the next.
        rows_w = max(self._miniature_width(row) for other in self.builder.game.figures.values()
                     if other.component == self.figure.component
                     and other.card_height == self.figure.card_height
                     for row in other.rows)
        label_w = self._label_width()
        label_gap = FIGURE_GAP * 2 if label_w else 0.0
        natural = rows_w + label_gap + label_w
        count = len(self.figure.rows)
        caption_h = CAPTION_STYLE.leading + 3 if self.caption else 0.0
        natural_h = count * self.figure.card_height * MM + (count - 1) * FIGURE_GAP
        # A figure never splits, so one taller than a whole page must shrink to fit one,
        # leaving room for the heading that keeps with it.
        room = self.builder.frame_height - caption_h - self.spaceBefore - self.spaceAfter - HEADING_ROOM
        # A figure too wide shrinks its miniatures; its labels keep their size, so that they
        # stay legible and end inside the frame. Only a label wider than half the measure
        # shrinks with them.
        label_room = avail_width - label_w
        if label_room >= avail_width / 2:
            self.scale = min(1.0, label_room / (rows_w + label_gap), room / natural_h)
            self.label_size = LABEL_STYLE.size
        else:
            self.scale = min(1.0, avail_width / natural, room / natural_h)
            self.label_size = LABEL_STYLE.size * self.scale
        self.rows_width = rows_w * self.scale
        self.block_width = (rows_w + label_gap) * self.scale + label_w * self.label_size / LABEL_STYLE.size
        self.width = avail_width
        row_h = self.figure.card_height * MM * self.scale
        self.height = count * row_h + (count - 1) * FIGURE_GAP * self.scale + caption_h
        return avail_width, self.height

    def draw(self) -> None:
        canvas = self.canv
        builder = self.builder
        forms = builder.face_forms(canvas)
        scale = self.scale
        row_h = self.figure.card_height * MM * scale
        left = min(FIGURE_INDENT, max(0.0, self.width - self.block_width))
        top = self.height
        for index, row in enumerate(self.figure.rows):
            bottom = top - row_h
            x = left
            for card_id, width, height, bleed in self._cards(row):
                factor = row_h / height
                card = builder.game.card(self.component.id, card_id)
                name = forms.face(self.component, card, self.figure.side)
                canvas.saveState()
                clip = canvas.beginPath()
                if self.component.shape == "round":
                    clip.circle(x + width * factor / 2, bottom + row_h / 2, min(width, height) * factor / 2)
                else:
                    clip.roundRect(x, bottom, width * factor, row_h, 1.2 * MM * scale)
                canvas.clipPath(clip, stroke=0, fill=0)
                canvas.translate(x - bleed * factor, bottom - bleed * factor)
                canvas.scale(factor, factor)
                canvas.doForm(name)
                canvas.restoreState()
                canvas.saveState()
                canvas.setStrokeColor(RULE)
                canvas.setLineWidth(0.5)
                canvas.drawPath(clip, stroke=1, fill=0)
                canvas.restoreState()
                x += width * factor + FIGURE_GAP * scale
            if self.labels:
                label = self.labels[index]
                builder.glyphs.check(label.value, True, label.where)
                canvas.setFillColor(LABEL_STYLE.color)
                canvas.setFont(builder.fonts.bold.name, self.label_size)
                baseline = bottom + row_h / 2 - self.label_size * (EM_ASCENT - 0.5)
                canvas.drawString(left + self.rows_width + FIGURE_GAP * 2 * scale, baseline, label.value)
            top = bottom - FIGURE_GAP * scale
        if self.caption:
            builder.glyphs.check(self.caption.value, False, self.caption.where)
            canvas.setFillColor(CAPTION_STYLE.color)
            canvas.setFont(builder.fonts.regular.name, CAPTION_STYLE.size)
            canvas.drawString(left, CAPTION_STYLE.size * (1 - EM_ASCENT) + 1, self.caption.value)
