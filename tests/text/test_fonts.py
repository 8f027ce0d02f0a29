from __future__ import annotations

import functools
import importlib.util
import io
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest
from fontTools.ttLib import TTFont as ToolsFont
from pypdf import PdfReader
from reportlab.lib.fonts import tt2ps
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas

from pnp.core.errors import FontError
from pnp.core.workspace import BUNDLED_FONTS
from pnp.text.fonts import (
    FACE_FILES,
    FontFace,
    FontFamily,
    check_text,
    coverage,
    describe_missing,
    kern_for,
    load_family,
    missing_characters,
)
from tests.conftest import ROOT

FONTS_DIR = BUNDLED_FONTS
ALL_FILES = [name for pair in FACE_FILES.values() for name in pair]
GAME_WORDS = "遮蔽板替死鬼碟仙"
PUNCTUATION = "，。「」……——、：；！？（）《》『』"
RARE = "\U0002a6d6"  # 𪛖: in no Noto Sans CJK face


@pytest.fixture(scope="module")
def tc() -> FontFamily:
    return load_family(FONTS_DIR, "zh-Hant")


@pytest.fixture(scope="module")
def sc() -> FontFamily:
    return load_family(FONTS_DIR, "zh-Hans")


@functools.cache
def _open(path: Path) -> ToolsFont:
    return ToolsFont(str(path), lazy=True)


def glyph_of(path: Path, ch: str) -> tuple[bytes, tuple[int, int, int, int]]:
    """Compiled outline and bounding box of the glyph the font's cmap gives ``ch``."""
    font = _open(path)
    glyf = font["glyf"]
    glyph = glyf[font.getBestCmap()[ord(ch)]]
    return glyph.compile(glyf), (glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax)


def test_face_files_map_languages_to_tc_and_sc() -> None:
    assert FACE_FILES["zh-Hant"] == ("PnpSansTC-Regular.ttf", "PnpSansTC-Bold.ttf")
    assert FACE_FILES["zh-Hans"] == ("PnpSansSC-Regular.ttf", "PnpSansSC-Bold.ttf")


@pytest.mark.parametrize("file_name", ALL_FILES)
def test_font_file_is_a_renamed_truetype_subset(file_name: str) -> None:
    path = FONTS_DIR / file_name
    assert path.is_file(), f"{path} missing: run python scripts/build_fonts.py"
    font = ToolsFont(str(path), lazy=True)
    assert font.sfntVersion == "\x00\x01\x00\x00"
    assert "glyf" in font and "CFF " not in font
    assert not {"GSUB", "GPOS", "GDEF", "BASE"} & set(font.keys())
    assert font["name"].getDebugName(6) == path.stem  # unique PostScript name
    assert font["name"].getDebugName(1) == path.stem.split("-")[0]
    assert 15_000 < font["maxp"].numGlyphs < 25_000


def test_families_register_with_reportlab(tc: FontFamily, sc: FontFamily) -> None:
    registered = set(pdfmetrics.getRegisteredFontNames())
    for family, lang, prefix in ((tc, "zh-Hant", "PnpSansTC"), (sc, "zh-Hans", "PnpSansSC")):
        assert family.lang == lang
        assert family.family_name == prefix
        assert family.regular == FontFace(f"{prefix}-Regular", (FONTS_DIR / f"{prefix}-Regular.ttf").resolve(), False)
        assert family.bold == FontFace(f"{prefix}-Bold", (FONTS_DIR / f"{prefix}-Bold.ttf").resolve(), True)
        assert {family.regular.name, family.bold.name} <= registered
        for face in (family.regular, family.bold):
            assert pdfmetrics.getFont(face.name).face.name.decode() == face.name
            assert Path(pdfmetrics.getFont(face.name).face.filename).resolve() == face.path
        # the registered family maps <b> and <i> to the right faces
        assert tt2ps(family.family_name, 0, 0) == family.regular.name
        assert tt2ps(family.family_name, 1, 0) == family.bold.name
        assert tt2ps(family.family_name, 0, 1) == family.regular.name
        assert tt2ps(family.family_name, 1, 1) == family.bold.name


@pytest.mark.parametrize("lang", sorted(FACE_FILES))
def test_faces_cover_game_words_and_punctuation(lang: str) -> None:
    family = load_family(FONTS_DIR, lang)
    for face in (family.regular, family.bold):
        assert missing_characters(GAME_WORDS + PUNCTUATION + "ABC 123 ○╳✓", face) == []
        assert check_text(GAME_WORDS, face, "x") == []
        cov = coverage(face)
        assert {ord(ch) for ch in GAME_WORDS + PUNCTUATION} <= cov
        assert len(cov) > 17_000


def test_coverage_is_cached(tc: FontFamily) -> None:
    first = coverage(tc.regular)
    assert coverage(tc.regular) is first


def test_tc_and_sc_draw_shared_code_points_differently(tc: FontFamily, sc: FontFamily) -> None:
    # Latin is the same design in both ...
    assert glyph_of(tc.regular.path, "A") == glyph_of(sc.regular.path, "A")
    # ... but 骨 is not, and the full-width comma sits centred in TC, bottom-left in SC.
    for ch in "骨角述":
        assert glyph_of(tc.regular.path, ch)[0] != glyph_of(sc.regular.path, ch)[0], ch
    tc_comma = glyph_of(tc.regular.path, "，")[1]
    sc_comma = glyph_of(sc.regular.path, "，")[1]
    assert tc_comma[0] > 300 > sc_comma[0]  # xMin, in units of a 1000-unit em
    assert tc_comma[1] > 100 > sc_comma[1]  # yMin


def test_rare_character_is_reported_with_its_code_point(tc: FontFamily) -> None:
    text = f"遮蔽板\n\t {RARE}\u200b板{RARE}\u3000\r\ufe0f"
    assert missing_characters(text, tc.regular) == [RARE]
    line = describe_missing(RARE, "tisigui/components.yaml:12", tc.regular)
    assert line == (
        f"tisigui/components.yaml:12: character '{RARE}' (U+2A6D6) is not in the font "
        "PnpSansTC-Regular; use another character, or give the workspace a fonts/ folder with a build of "
        "the faces that has it (python scripts/build_fonts.py --extra-chars FILE --out-dir fonts, from pnp's "
        "source; see pnp/core/faces/README.md there)"
    )
    assert describe_missing(RARE, "w", "PnpSansSC-Bold").startswith("w: character")
    assert "character 'é' (U+00E9) is not in the font PnpSansSC-Bold;" in describe_missing("é", "w", "PnpSansSC-Bold")
    assert check_text(text, tc.regular, "w")[0] == describe_missing(RARE, "w", tc.regular)


def test_missing_characters_keeps_first_appearance_order(tc: FontFamily) -> None:
    rare2 = "\U0002b740"  # CJK Ext D, not in Noto Sans CJK either
    text = f"{rare2}甲{RARE}{rare2}乙{RARE}"
    assert missing_characters(text, tc.regular) == [rare2, RARE]


def test_load_family_is_cached_and_does_not_reregister(tc: FontFamily, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    monkeypatch.setattr(pdfmetrics, "registerFont", calls.append)
    monkeypatch.setattr(pdfmetrics, "registerFontFamily", lambda *a, **k: calls.append(a))
    again = load_family(FONTS_DIR / "." / ".." / FONTS_DIR.name, "zh-Hant")
    assert again == tc
    assert again is tc
    assert calls == []


def test_same_fonts_in_another_folder_reuse_the_registration(
    tc: FontFamily, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in FACE_FILES["zh-Hant"]:
        shutil.copyfile(FONTS_DIR / name, tmp_path / name)
    calls: list[object] = []
    monkeypatch.setattr(pdfmetrics, "registerFont", calls.append)
    copy = load_family(tmp_path, "zh-Hant")
    assert calls == []
    assert copy.regular.name == tc.regular.name
    assert copy.regular.path == (tmp_path / "PnpSansTC-Regular.ttf").resolve()


def test_different_font_under_a_registered_name_is_an_error(tc: FontFamily, tmp_path: Path) -> None:
    for name in FACE_FILES["zh-Hant"]:
        shutil.copyfile(FONTS_DIR / name, tmp_path / name)
    with (tmp_path / "PnpSansTC-Bold.ttf").open("ab") as handle:
        handle.write(b"\0\0\0\0")
    with pytest.raises(FontError, match="already registered"):
        load_family(tmp_path, "zh-Hant")


def test_missing_file_and_unknown_language_say_how_to_regenerate(tmp_path: Path) -> None:
    with pytest.raises(FontError) as excinfo:
        load_family(tmp_path, "zh-Hant")
    assert len(excinfo.value.problems) == 2
    assert all("python scripts/build_fonts.py" in p for p in excinfo.value.problems)
    assert "PnpSansTC-Regular.ttf" in excinfo.value.problems[0]
    with pytest.raises(FontError, match="ja"):
        load_family(FONTS_DIR, "ja")


def test_wrong_postscript_name_is_an_error(sc: FontFamily, tmp_path: Path) -> None:
    # An SC file under the TC file name would print the wrong glyph forms.
    for tc_name, sc_name in zip(FACE_FILES["zh-Hant"], FACE_FILES["zh-Hans"], strict=True):
        shutil.copyfile(FONTS_DIR / sc_name, tmp_path / tc_name)
    # Pretend this process has not registered the TC faces yet (reportlab keeps the first
    # font of a name, so load_family would otherwise compare bytes and stop earlier).
    registry = pdfmetrics._fonts
    saved = {stem: registry.pop(stem, None) for stem in ("PnpSansTC-Regular", "PnpSansTC-Bold")}
    try:
        with pytest.raises(FontError, match="PostScript name 'PnpSansSC-Regular'"):
            load_family(tmp_path, "zh-Hant")
    finally:
        for name, font in saved.items():
            if font is not None:
                registry[name] = font


def _pdf(family: FontFamily) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, invariant=1, initialFontName=family.regular.name)
    pdf.setFont(family.regular.name, 12)
    pdf.drawString(72, 720, "替死鬼 遮蔽板，「骨」……")
    pdf.setFont(family.bold.name, 12)
    pdf.drawString(72, 700, "遮蔽板 ABC 123")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


@pytest.mark.parametrize("lang", sorted(FACE_FILES))
def test_pdf_is_reproducible_and_embeds_font_subsets(lang: str) -> None:
    family = load_family(FONTS_DIR, lang)
    first = _pdf(family)
    assert _pdf(family) == first
    assert len(first) < 200_000  # a subset, not the 5 MB file
    page = PdfReader(io.BytesIO(first)).pages[0]
    base_fonts: dict[str, bool] = {}
    for ref in page["/Resources"]["/Font"].values():
        font = ref.get_object()
        descriptor = font.get("/FontDescriptor")
        embedded = descriptor is not None and "/FontFile2" in descriptor.get_object()
        base_fonts[str(font["/BaseFont"])] = embedded
    stems = {re.sub(r"^/[A-Z]{6}\+", "", name) for name in base_fonts}
    assert stems == {family.regular.name, family.bold.name}, base_fonts  # no Helvetica
    assert all(re.match(r"^/[A-Z]{6}\+Pnp", name) for name in base_fonts), base_fonts
    assert all(base_fonts.values()), base_fonts
    text = page.extract_text()
    assert "遮蔽板" in text


def _build_script(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    path = ROOT / "scripts" / "build_fonts.py"
    spec = importlib.util.spec_from_file_location("_pnp_build_fonts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_extra_chars_file_parses_and_fonts_are_up_to_date(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_fonts = _build_script(monkeypatch)
    sample = tmp_path / "extra.txt"
    sample.write_text("# comment ○\n堃 喆#犇\n  U+5CEF 菓菓\n\n", encoding="utf-8")
    assert build_fonts.read_extra_chars(sample) == ["堃", "喆", "峯", "菓"]
    # Every character of fonts/extra-chars.txt is in every face: the fonts were rebuilt
    # after the file was last edited.
    extra = build_fonts.read_extra_chars(FONTS_DIR / "extra-chars.txt")
    assert extra
    for lang in FACE_FILES:
        family = load_family(FONTS_DIR, lang)
        for face in (family.regular, family.bold):
            assert missing_characters("".join(extra), face) == [], face.name


def test_kern_closes_up_the_blank_sides_of_adjacent_marks(tc: FontFamily, sc: FontFamily) -> None:
    """Punctuation compression read from the glyphs: the blank half between two marks goes."""
    hans, hant = kern_for(sc), kern_for(tc)
    for kern in (hans, hant):
        # A closing bracket before a closing mark, an opening mark or ？！ is set half width.
        for after in "，。：）「？":
            assert kern("」", False, after, False) == pytest.approx((0.5, 0.0)), after
        assert kern("）", True, "，", False) == pytest.approx((0.5, 0.0))
        # Two opening marks: the second gives up its blank left half.
        assert kern("「", False, "（", False) == pytest.approx((0.0, 0.5))
        # Nothing else: a character and a mark, ？ before a bracket, an opening before a closing.
        for pair in ("字，", "（字", "？」", "「」", "字字"):
            assert kern(pair[0], False, pair[1], False) == (0.0, 0.0), pair
    # zh-Hans sets 。 to the left: it gives its whole right half before 」. zh-Hant centres it,
    # so 。」 closes up by the quarter em on its right, and ，「 takes the rest from 「.
    assert sum(hans("。", False, "」", False)) == pytest.approx(0.5, abs=0.01)
    assert sum(hant("。", False, "」", False)) == pytest.approx(0.25, abs=0.01)
    assert sum(hant("，", False, "「", False)) == pytest.approx(0.5, abs=0.01)
    assert hant("，", False, "「", False)[0] == pytest.approx(0.25, abs=0.01)
