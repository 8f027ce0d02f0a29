"""Sheets as a home printer and a paper trimmer meet them, read back from built PDFs:
how many sheets each game takes, 9-up butted cards, and nothing printed too near the edge."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnp.build import build
from pnp.workspace import Workspace
from tests.conftest import ROOT

GAMES = ("tisigui", "wurenshenghuan", "niutouwang", "aizhewudi")
MM = 72 / 25.4
HARDWARE = 6.5  # mm: most printers cannot print nearer the paper edge than this
CARD_DO = re.compile(rb"/FormXob\.face-cards-card-\d+-front Do")


def nearest_text(path: Path) -> list[tuple[int, float, str]]:
    """For every page, the text run that starts nearest an edge: (page, mm, text)."""
    found = []
    for number, page in enumerate(PdfReader(path).pages, start=1):
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        runs: list[tuple[float, str]] = []

        def visit(text, cm, tm, font, size, runs=runs, width=width, height=height):
            if text.strip():
                # The run's origin on the page: its text matrix through the current matrix.
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                runs.append((min(x, width - x, y, height - y) / MM, text.strip()[:24]))

        page.extract_text(visitor_text=visit)
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
        build(Workspace(ROOT), "niutouwang", "zh-Hant", paper, out / paper, gutter=0.0)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_no_letter_sheet_prints_text_within_the_hardware_margin(letter, game):
    for page, distance, text in nearest_text(letter / game / "zh-Hans" / "components.pdf"):
        assert distance >= HARDWARE - 1e-3, (page, distance, text)


def test_letter_sheet_counts(letter):
    counts = {game: sheets(letter / game / "zh-Hans" / "components.pdf") for game in GAMES}
    # Before the packer: tisigui 6, wurenshenghuan 14, niutouwang 19, aizhewudi 18. Six poker
    # cards is all a Letter sheet takes with a bleed around each card.
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


def test_write_on_sheets_fill_a_page_alone(butted):
    pdf = butted / "a4" / "niutouwang" / "zh-Hant" / "components.pdf"
    reader = PdfReader(pdf)
    pads = [page for page in reader.pages if b"face-scorepad-" in page.get_contents().get_data()]
    assert len(pads) == 1
    content = pads[0].get_contents().get_data()
    assert Counter(re.findall(rb"/FormXob\.(face-[a-z]+)-", content)) == {b"face-scorepad": 1}
    # Scaled up to the page (the pad is 140 mm wide; A4 leaves 187 mm inside the furniture).
    (scale,) = re.findall(rb"([\d.]+) 0 0 \1 0 0 cm\s*/FormXob\.face-scorepad", content)
    assert float(scale) > 1.3
