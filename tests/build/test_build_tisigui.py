"""pnp build tisigui: what really ends up in the PDFs, read back with pypdf."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from pnp.build.pipeline import build
from pnp.core.workspace import BUNDLED_FONTS, Workspace
from pnp.data.scripts import foreign_characters
from pnp.games.registry import tables_from_engine
from tests.conftest import ROOT
from tests.pdfprobe import component_counts, face_counts, fonts, outline_titles, page_sizes, text

A4 = (595.3, 841.9)
LETTER = (612.0, 792.0)
GOLDEN = ROOT / "tests" / "golden" / "layout"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("build")
    build(Workspace(ROOT), "tisigui", "all", "a4", out)
    return out


def test_writes_both_pdfs_in_both_scripts(built):
    for lang in ("zh-Hant", "zh-Hans"):
        for name in ("components.pdf", "rulebook.pdf"):
            assert (built / "tisigui" / lang / name).stat().st_size > 10_000


@pytest.mark.parametrize("lang,face", [("zh-Hant", "PnpSansTC"), ("zh-Hans", "PnpSansSC")])
@pytest.mark.parametrize("name", ["components.pdf", "rulebook.pdf"])
def test_every_font_is_an_embedded_subset_of_the_regional_face(built, lang, face, name):
    used = fonts(built / "tisigui" / lang / name)
    assert used, "no fonts found"
    for base, embedded in used.items():
        assert embedded, base
        prefix, _, family = base.lstrip("/").partition("+")
        assert len(prefix) == 6 and prefix.isupper(), base  # the subset tag
        assert family.startswith(face), base


@pytest.mark.parametrize("name", ["components.pdf", "rulebook.pdf"])
def test_pages_are_exactly_a4(built, name):
    assert page_sizes(built / "tisigui" / "zh-Hant" / name) == {A4}


def test_letter_paper(tmp_path):
    build(Workspace(ROOT), "tisigui", "zh-Hans", "letter", tmp_path)
    for name in ("components.pdf", "rulebook.pdf"):
        assert page_sizes(tmp_path / "tisigui" / "zh-Hans" / name) == {LETTER}


def test_script_purity_of_extracted_text(built):
    hant = text(built / "tisigui/zh-Hant/components.pdf") + text(built / "tisigui/zh-Hant/rulebook.pdf")
    hans = text(built / "tisigui/zh-Hans/components.pdf") + text(built / "tisigui/zh-Hans/rulebook.pdf")
    assert foreign_characters(hant, "zh-Hant") == []
    assert foreign_characters(hans, "zh-Hans") == []
    # Real words in each script, not just an absence of wrong ones.
    assert "問題標記" in hant and "遮蔽板" in hant and "說謊" in hant
    assert "问题标记" in hans and "遮蔽板" in hans and "说谎" in hans
    assert "侷限" not in hant  # the s2tw trap the glossary guards against


def test_every_zhizuo_of_the_zh_hans_book_is_printed_as_the_taiwan_word(built):
    """制作 (to make) is 製作 in Taiwan; s2tw kept 重新制作 by its phrase 重新制 (issue 18).
    Read back from both PDFs, lines joined: each 制作 of the zh-Hans book is a 製作 of the
    zh-Hant one, and none is left as it was."""
    hans = "".join(text(built / "tisigui/zh-Hans/rulebook.pdf").split())
    hant = "".join(text(built / "tisigui/zh-Hant/rulebook.pdf").split())
    assert hans.count("制作") >= 1
    assert "制作" not in hant
    assert hant.count("製作") == hans.count("制作")


def test_component_counts_fronts_and_backs(built):
    pdf = built / "tisigui/zh-Hant/components.pdf"
    fronts = {c: component_counts(pdf, c) for c in
              ("identity", "shield", "score", "question", "board", "reference", "plate", "cube",
               "big_die", "small_die")}
    assert fronts == {"identity": 6, "shield": 6, "score": 43, "question": 30, "board": 1,
                      "reference": 1, "plate": 1, "cube": 36, "big_die": 1, "small_die": 1}
    backs = {c: component_counts(pdf, c, "back") for c in fronts}
    # Shields fold, boards and dice nets are single-sided; everything else has a back.
    assert backs == {**fronts, "shield": 0, "board": 0, "big_die": 0, "small_die": 0}
    counts = face_counts(pdf)
    assert counts[("face-identity-ghost", "front")] == 1
    assert counts[("face-identity-human", "front")] == 5
    assert counts[("face-score-score-50", "front")] == 2
    assert counts[("face-score-score-1", "front")] == 20


def test_every_front_sheet_is_followed_by_its_back_sheet(built):
    from pypdf import PdfReader

    pdf = built / "tisigui/zh-Hant/components.pdf"
    pages = PdfReader(pdf).pages
    assert len(pages) % 2 == 0
    for index in range(0, len(pages), 2):
        front = pages[index].get_contents().get_data()
        back = pages[index + 1].get_contents().get_data()
        assert b"-front Do" in front and b"-back Do" not in front
        assert b"-front Do" not in back


def test_rulebook_has_outline_title_lang_and_page_numbers(built):
    from pypdf import PdfReader

    pdf = built / "tisigui/zh-Hant/rulebook.pdf"
    reader = PdfReader(pdf)
    assert reader.metadata.title == "替死鬼"
    assert str(reader.trailer["/Root"]["/Lang"]) == "zh-Hant"
    titles = outline_titles(pdf)
    assert titles[0] == "替死鬼" and "計分" in titles and len(titles) >= 15
    last = reader.pages[-1].extract_text()
    assert f"第 {len(reader.pages)} 頁" in last


def test_rulebook_tables_come_from_card_data(built):
    hans = text(built / "tisigui/zh-Hans/rulebook.pdf")
    assert "每大局小局数" in hans and "每人问题标记" in hans


def test_two_builds_are_byte_identical(built, tmp_path):
    build(Workspace(ROOT), "tisigui", "all", "a4", tmp_path)
    for lang in ("zh-Hant", "zh-Hans"):
        for name in ("components.pdf", "rulebook.pdf"):
            first = (built / "tisigui" / lang / name).read_bytes()
            second = (tmp_path / "tisigui" / lang / name).read_bytes()
            assert hashlib.sha256(first).digest() == hashlib.sha256(second).digest(), (lang, name)


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_layout_log_matches_the_reviewed_golden(lang):
    """Where every face lands on every sheet. Regenerate with PNP_REGEN_GOLDEN=1 pytest."""
    from pnp.build.pipeline import converter_for, load_games
    from pnp.layout.presets import SHEETS
    from pnp.render.glyphs import GlyphCheck
    from pnp.render.sheets import render_components
    from pnp.text.fonts import load_family

    (game,) = load_games(Workspace(ROOT), ["tisigui"], tables_from_engine)
    fonts_ = load_family(BUNDLED_FONTS, lang)
    result = render_components(game, lang, SHEETS["a4"], fonts_, converter_for(game, lang),
                               GlyphCheck(fonts_))
    actual = "\n".join(result.log) + "\n"
    golden = GOLDEN / f"tisigui-{lang}-a4.txt"
    if os.environ.get("PNP_REGEN_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
    assert actual == golden.read_text(encoding="utf-8")


def test_png_faces_at_300_dpi_with_bleed(tmp_path):
    from PIL import Image

    build(Workspace(ROOT), "tisigui", "zh-Hans", "a4", tmp_path, png=True)
    folder = tmp_path / "tisigui" / "zh-Hans" / "png"
    names = sorted(p.name for p in folder.iterdir())
    assert "identity-ghost-front.png" in names and "identity-back.png" in names
    assert "shield-shield-6-front.png" in names and len(names) == 21
    # Tokens printed alike on both sides (cubes, markers, the plate) have one PNG, not two.
    assert "cube-cube-front.png" in names and "cube-cube-back.png" not in names
    with Image.open(folder / "identity-ghost-front.png") as image:
        # 63×88 mm plus 3 mm bleed each side is 69×94 mm: 815×1110.2 px at 300 dpi.
        assert image.size == (815, 1111)
        assert round(image.info["dpi"][0]) == 300
        assert b"sRGB" in image.info["icc_profile"]  # tagged: the colours are sRGB's
        # The bleed is printed: the corner pixel carries the card's dark background.
        assert image.convert("RGB").getpixel((2, 2)) == (0x2A, 0x22, 0x38)
