"""A book line drawn before is written again only when its document numbers the glyphs as the
document it was drawn in did; either way the book is the one a fresh drawing makes."""

from __future__ import annotations

from typing import Any

import pytest

from pnp.core.units import MM
from pnp.core.workspace import BUNDLED_FONTS
from pnp.data.load import load_game
from pnp.games.registry import tables_from_engine
from pnp.render.glyphs import GlyphCheck
from pnp.rulebook import paragraph
from pnp.rulebook.pdf import render_rulebook
from pnp.rulebook.source import parse_markdown
from pnp.text.convert import converter_for
from pnp.text.fonts import load_family
from tests.conftest import ROOT

A4 = (210 * MM, 297 * MM)
# Two paragraphs with no character in common: printed first, the second moves the glyph
# codes of every character the first brings after it.
FIRST = "甲乙丙丁戊己庚辛壬癸，子丑寅卯辰巳午未申酉戌亥。"
OTHER = "春夏秋冬東南西北，金木水火土，日月星辰風雲雷電。"


@pytest.fixture(scope="module")
def tisigui() -> tuple[Any, Any, Any]:
    game = load_game(ROOT / "card_data" / "tisigui", tables_from_engine)
    fonts = load_family(BUNDLED_FONTS, "zh-Hans")
    return game, fonts, converter_for(game, "zh-Hans")


def _render(tisigui: tuple[Any, Any, Any], markdown: str) -> bytes:
    game, fonts, convert = tisigui
    return render_rulebook(game, "zh-Hans", parse_markdown(markdown), fonts, convert, GlyphCheck(fonts), "test", A4)


def _fresh(tisigui: tuple[Any, Any, Any], markdown: str, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """The book as drawing makes it, with no line kept from before."""
    monkeypatch.setattr(paragraph, "_DRAWN_LINES", {})
    return _render(tisigui, markdown)


def test_a_line_is_written_again_only_where_its_glyph_codes_are_the_same(
        tisigui: tuple[Any, Any, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    alone, after = f"{FIRST}\n", f"{OTHER}\n\n{FIRST}\n"
    fresh_alone, fresh_after = _fresh(tisigui, alone, monkeypatch), _fresh(tisigui, after, monkeypatch)
    assert fresh_alone != fresh_after

    replays: list[bool] = []
    replay = paragraph._replay

    def counted(canvas: Any, kept: paragraph.KeptText) -> bool:
        replays.append(replay(canvas, kept))
        return replays[-1]

    monkeypatch.setattr(paragraph, "_DRAWN_LINES", {})
    monkeypatch.setattr(paragraph, "_replay", counted)
    assert _render(tisigui, alone) == fresh_alone
    assert replays == []  # nothing kept yet

    assert _render(tisigui, alone) == fresh_alone
    assert replays and all(replays), "the same book again: every line is written as kept"

    replays.clear()
    # FIRST's lines after OTHER's: kept (a line's operators are relative to its paragraph),
    # but OTHER's characters took the first codes, so each is refused and drawn.
    assert _render(tisigui, after) == fresh_after
    assert replays and not any(replays)
    replays.clear()
    assert _render(tisigui, after) == fresh_after
    assert replays and all(replays)


def test_a_kept_line_whose_glyphs_are_numbered_otherwise_is_drawn(
        tisigui: tuple[Any, Any, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    # Same place on the page, same words; before it, a line as long that prints OTHER's
    # characters in one book and FIRST's own in the other: FIRST's glyphs get other codes.
    moved, same = f"{OTHER[:12]}\n\n{FIRST}\n", f"{FIRST[:12]}\n\n{FIRST}\n"
    fresh_moved, fresh_same = _fresh(tisigui, moved, monkeypatch), _fresh(tisigui, same, monkeypatch)

    refused: list[bool] = []
    replay = paragraph._replay

    def counted(canvas: Any, kept: paragraph.KeptText) -> bool:
        done = replay(canvas, kept)
        refused.append(not done)
        return done

    monkeypatch.setattr(paragraph, "_DRAWN_LINES", {})
    monkeypatch.setattr(paragraph, "_replay", counted)
    assert _render(tisigui, same) == fresh_same
    assert _render(tisigui, moved) == fresh_moved
    assert any(refused), "the body's line was kept from the other book and its codes differ here"
    assert _render(tisigui, same) == fresh_same


def test_a_kept_line_leaves_the_document_as_drawing_it_would() -> None:
    """Drawing a coloured line raises the document to PDF 1.4 (reportlab's setFillAlpha) and a
    line whose colours need a graphics state names one the page must list: writing the kept
    operators does neither, so a line kept at 1.4 is drawn again in a document still at 1.3,
    and a line that sets a graphics state is not kept."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(io.BytesIO())
    canvas._doc._pdfVersion = (1, 4)
    kept = paragraph._kept_text(canvas, "BT 1 0 0 1 10 10 Tm ET", {})
    assert kept is not None and kept.pdf_version == (1, 4)
    assert paragraph._kept_text(canvas, "BT /gRLs0 gs 1 0 0 1 10 10 Tm ET", {}) is None

    older = Canvas(io.BytesIO())
    older._doc._pdfVersion = (1, 3)
    assert not paragraph._replay(older, kept)
    assert "1 0 0 1 10 10 Tm" not in "\n".join(older._code)
    newer = Canvas(io.BytesIO())
    newer._doc._pdfVersion = (1, 4)
    assert paragraph._replay(newer, kept)
    assert "BT 1 0 0 1 10 10 Tm ET" in newer._code
