"""Sheets as a home printer and a paper trimmer meet them, read back from built PDFs:
how many sheets each game takes, 9-up butted cards, and nothing printed too near the edge."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnp.build.pipeline import SheetOptions, build
from pnp.core.workspace import Workspace
from tests.conftest import ROOT
from tests.pdfprobe import matrix_times, moved_text_line

GAMES = ("tisigui", "wurenshenghuan", "niutouwang", "aizhewudi")
MM = 72 / 25.4
HARDWARE = 6.5  # mm: most printers cannot print nearer the paper edge than this
CARD_DO = re.compile(rb"/FormXob\.face-cards-card-\d+-front Do")



def page_text_origins(page) -> list[tuple[float, float, str]]:
    """Where each string drawn by the page itself starts, in page points. Pieces are forms
    placed inside their trim; what a sheet draws directly is its furniture."""
    ctm, stack = [1.0, 0, 0, 1.0, 0, 0], []
    line = [1.0, 0, 0, 1.0, 0, 0]
    found = []
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = matrix_times([float(v) for v in operands], ctm)
        elif (moved := moved_text_line(op, operands, line)) is not None:
            line = moved
        elif op in (b"Tj", b"TJ"):
            origin = matrix_times(line, ctm)
            found.append((origin[4], origin[5], str(operands[0])[:24]))
    return found


def nearest_text(path: Path) -> list[tuple[int, float, str]]:
    """For every page, the string the page draws nearest an edge: (page, mm, text)."""
    found = []
    for number, page in enumerate(PdfReader(path).pages, start=1):
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        runs = [(min(x, width - x, y, height - y) / MM, text)
                for x, y, text in page_text_origins(page)]
        assert runs, f"page {number} has no text (every sheet carries its label)"
        found.append((number, *min(runs)))
    return found


def sheets(path: Path) -> int:
    return len(PdfReader(path).pages) // 2  # each sheet: its front page, then its back


@pytest.fixture(scope="module")
def letter(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("letter")
    build(Workspace(ROOT), "all", "zh-Hans", "letter", out)
    return out


@pytest.fixture(scope="module")
def butted(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("butted")
    for paper in ("a4", "letter"):
        build(Workspace(ROOT), "niutouwang", "zh-Hant", paper, out / paper, sheet=SheetOptions(gutter=0.0))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_no_letter_sheet_prints_text_within_the_hardware_margin(letter, game):
    for page, distance, text in nearest_text(letter / game / "zh-Hans" / "components.pdf"):
        assert distance >= HARDWARE - 1e-3, (page, distance, text)


def test_letter_sheet_counts(letter):
    counts = {game: sheets(letter / game / "zh-Hans" / "components.pdf") for game in GAMES}
    # Before the packer: tisigui 6, wurenshenghuan 14, niutouwang 19, aizhewudi 18. Six poker
    # cards is all a Letter sheet takes with a bleed around each card (test_layout's
    # test_letter_takes_six_poker_cards says why), so these are the fewest: niutouwang's 104
    # cards and its poker-size reference card need 18 sheets, and its 200 mm score pad leaves
    # 59.4 mm below it, too little for a card even turned (69 mm with bleed).
    assert counts == {"tisigui": 5, "wurenshenghuan": 13, "niutouwang": 19, "aizhewudi": 16}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_gutter_zero_puts_nine_cards_on_every_full_sheet(butted, paper):
    pdf = butted / paper / "niutouwang" / "zh-Hant" / "components.pdf"
    reader = PdfReader(pdf)
    per_sheet = [len(CARD_DO.findall(page.get_contents().get_data())) for page in reader.pages[::2]]
    cards = [n for n in per_sheet if n]
    # 104 cards: eleven sheets of nine and the last five, with the reference card beside them.
    assert cards == [9] * 11 + [5]
    assert sum(cards) == 104
    for page, distance, text in nearest_text(pdf):
        assert distance >= HARDWARE - 1e-3, (page, distance, text)


@pytest.fixture(scope="module")
def default_a4(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("a4")
    build(Workspace(ROOT), "niutouwang", "zh-Hant", "a4", out)
    return out / "niutouwang" / "zh-Hant" / "components.pdf"


def test_the_reference_card_shares_the_score_pads_page(default_a4):
    reader = PdfReader(default_a4)
    assert len(reader.pages) == 2 * 14
    front, back = reader.pages[-2], reader.pages[-1]
    content = front.get_contents().get_data()
    faces = Counter(re.findall(rb"/FormXob\.(face-[a-z]+)-", content))
    assert faces == {b"face-scorepad": 1, b"face-reference": 1}
    # The pad keeps at least its designed size (scale 1, or a little more).
    (scale,) = re.findall(rb"([\d.]+) 0 0 \1 [\d.]+ [\d.]+ cm\s*/FormXob\.face-scorepad", content)
    assert float(scale) >= 1.0
    # A dashed line across the page parts them; the card's back is on the back page.
    assert re.search(rb"\[[\d.]+ [\d.]+\] 0 d", content)
    assert b"face-reference-reference-back" in back.get_contents().get_data()
    assert "計分表" in front.extract_text() and "SP 參考卡" in front.extract_text()


def test_write_on_sheets_fill_a_page_alone(butted):
    pdf = butted / "a4" / "niutouwang" / "zh-Hant" / "components.pdf"
    reader = PdfReader(pdf)
    pads = [page for page in reader.pages if b"face-scorepad-" in page.get_contents().get_data()]
    assert len(pads) == 1
    content = pads[0].get_contents().get_data()
    assert Counter(re.findall(rb"/FormXob\.(face-[a-z]+)-", content)) == {b"face-scorepad": 1}
    # Scaled up to the page (the pad is 140 mm wide; A4 leaves 187 mm inside the furniture).
    (scale,) = re.findall(rb"([\d.]+) 0 0 \1 [\d.]+ [\d.]+ cm\s*/FormXob\.face-scorepad", content)
    assert float(scale) > 1.3


@pytest.fixture(scope="module")
def butted_letter_hant(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("butted-letter")
    build(Workspace(ROOT), "all", "zh-Hant", "letter", out, sheet=SheetOptions(gutter=0.0))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_butted_letter_sheets_keep_text_out_of_the_hardware_margin_and_save_paper(butted_letter_hant, letter,
                                                                                 game):
    """Butted pieces sit nearer the edges than bled ones: the furniture still keeps 6.5 mm,
    in the other script too, and no game takes more sheets than with gutters."""
    pdf = butted_letter_hant / game / "zh-Hant" / "components.pdf"
    for page, distance, text in nearest_text(pdf):
        assert distance >= HARDWARE - 1e-3, (page, distance, text)
    assert sheets(pdf) <= sheets(letter / game / "zh-Hans" / "components.pdf")


def test_aizhewudi_character_tents_share_one_a4_sheet(tmp_path):
    build(Workspace(ROOT), "aizhewudi", "zh-Hant", "a4", tmp_path)
    reader = PdfReader(tmp_path / "aizhewudi" / "zh-Hant" / "components.pdf")
    tents = [len(re.findall(rb"/FormXob\.face-character-[a-z-]+-front Do", page.get_contents().get_data()))
             for page in reader.pages[::2]]
    # Four turned and two upright on one sheet (they were split four and two across sheets).
    assert [n for n in tents if n] == [6]
    assert len(reader.pages) == 2 * 15
