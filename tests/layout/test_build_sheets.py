"""Sheets as a home printer and a paper trimmer meet them, read back from built PDFs: how many
sheets each game takes, cards butted on shared cut lines, forms sharing their page (the margins,
crop marks and fill of every sheet: test_sheet_promises)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnp.build.pipeline import DEFAULT_SHEET, SheetOptions, render_game
from pnp.core.workspace import Workspace
from pnp.data.load import load_game
from pnp.games.registry import tables_from_engine
from tests.conftest import ROOT
from tests.sheetprobe import sheet_items

GAMES = ("tisigui", "wurenshenghuan", "niutouwang", "aizhewudi")
CARD_DO = re.compile(rb"/FormXob\.face-cards-card-\d+-front Do")


def sheets(path: Path) -> int:
    return len(PdfReader(path).pages) // 2  # each sheet: its front page, then its back


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Every game's components in one script per paper: by default, and with each card keeping
    its own bleed (--gutter 6)."""
    out = tmp_path_factory.mktemp("sheets")
    for paper, lang in (("a4", "zh-Hant"), ("letter", "zh-Hans")):
        for name, options in (("default", DEFAULT_SHEET), ("gutter6", SheetOptions(gutter=6.0))):
            for game in GAMES:
                loaded = load_game(ROOT / "card_data" / game, tables_from_engine)
                (artifact,) = render_game(Workspace(ROOT), loaded, lang, paper, kinds=("components",), sheet=options)
                target = out / paper / name / f"{game}.pdf"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(artifact.data)
    return out


def test_sheet_counts(built):
    """Issue 18: the default butts cards on shared cut lines (9 poker cards to an A4 sheet, 8
    to Letter); on main it gave each card its own bleed, 8 to A4 and 6 to Letter, and took
    tisigui 5 / 5, wurenshenghuan 11 / 13, niutouwang 14 / 19 and aizhewudi 15 / 16 sheets
    (A4 / Letter). With its own bleed a card still goes 8 to A4 and 6 to Letter."""
    counts = {(paper, name): {game: sheets(built / paper / name / f"{game}.pdf") for game in GAMES}
              for paper in ("a4", "letter") for name in ("default", "gutter6")}
    assert counts == {
        ("a4", "default"): {"tisigui": 5, "wurenshenghuan": 10, "niutouwang": 13, "aizhewudi": 13},
        ("letter", "default"): {"tisigui": 5, "wurenshenghuan": 11, "niutouwang": 14, "aizhewudi": 14},
        # Bleed kept inside the margins leaves less room round cards with their own bleed: on
        # Letter one sheet more than main's default for wurenshenghuan and aizhewudi.
        ("a4", "gutter6"): {"tisigui": 5, "wurenshenghuan": 11, "niutouwang": 14, "aizhewudi": 15},
        ("letter", "gutter6"): {"tisigui": 5, "wurenshenghuan": 14, "niutouwang": 19, "aizhewudi": 17},
    }
    for paper in ("a4", "letter"):
        for game in GAMES:
            assert counts[(paper, "default")][game] <= counts[(paper, "gutter6")][game]


@pytest.mark.parametrize(("paper", "per_sheet"), [("a4", 9), ("letter", 8)])
def test_the_default_puts_nine_cards_on_every_full_a4_sheet_and_eight_on_letter(built, paper, per_sheet):
    reader = PdfReader(built / paper / "default" / "niutouwang.pdf")
    counts = [len(CARD_DO.findall(page.get_contents().get_data())) for page in reader.pages[::2]]
    cards = [n for n in counts if n]
    # 104 cards: on A4 eleven sheets of nine and the last five, with the reference card beside
    # them; on Letter thirteen sheets of eight.
    full, rest = divmod(104, per_sheet)
    assert cards == [per_sheet] * full + ([rest] if rest else [])


def test_the_reference_card_shares_the_letter_score_pads_page(built):
    """On Letter the 105th poker card would take a sheet alone: it goes below the score pad,
    which turns a quarter to leave a strip deep enough and keeps at least its designed size."""
    reader = PdfReader(built / "letter" / "default" / "niutouwang.pdf")
    assert len(reader.pages) == 2 * 14
    front, back = reader.pages[-2], reader.pages[-1]
    content = front.get_contents().get_data()
    faces = Counter(re.findall(rb"/FormXob\.(face-[a-z]+)-", content))
    assert faces == {b"face-scorepad": 1, b"face-reference": 1}
    (pad,) = [f for f in sheet_items(front).forms if f.name.startswith("face-scorepad")]
    assert pad.turned and pad.scale >= 1.0
    # A dashed line across the page parts them; the card's back is on the back page.
    assert re.search(rb"\[[\d.]+ [\d.]+\] 0 d", content)
    assert b"face-reference-reference-back" in back.get_contents().get_data()
    assert "计分表" in front.extract_text() and "SP 参考卡" in front.extract_text()


def test_write_on_sheets_fill_a_page_alone(built):
    reader = PdfReader(built / "a4" / "default" / "niutouwang.pdf")
    pads = [page for page in reader.pages if b"face-scorepad-" in page.get_contents().get_data()]
    assert len(pads) == 1
    content = pads[0].get_contents().get_data()
    assert Counter(re.findall(rb"/FormXob\.(face-[a-z]+)-", content)) == {b"face-scorepad": 1}
    # Scaled up to the page (the pad is 140 mm wide; A4 leaves 197 mm inside the margins).
    (scale,) = re.findall(rb"([\d.]+) 0 0 \1 [\d.]+ [\d.]+ cm\s*/FormXob\.face-scorepad", content)
    assert float(scale) > 1.3


def test_aizhewudi_character_tents_share_one_a4_sheet(built):
    reader = PdfReader(built / "a4" / "default" / "aizhewudi.pdf")
    tents = [sheet_items(page).forms for page in reader.pages[::2]]
    tents = [[f for f in forms if f.name.startswith("face-character-")] for forms in tents]
    # Three across and two down, on shared cut lines (with their own bleed, four turned and two
    # upright beside them no longer fit inside the margins: 0.4 mm short).
    (sheet,) = [forms for forms in tents if forms]
    assert len(sheet) == 6
    assert len({round(f.shown.x, 1) for f in sheet}) == 3 and len({round(f.shown.y, 1) for f in sheet}) == 2
