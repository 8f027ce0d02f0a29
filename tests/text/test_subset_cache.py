"""Font subsets kept in the disk cache (pnp.text.subsetcache): the same PDF bytes as subsets made
afresh, nothing cut again when the document asks the same, and a subset never served to
another font's bytes."""

from __future__ import annotations

import shutil
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import reportlab.pdfbase.ttfonts as ttfonts
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas

from pnp.core.workspace import BUNDLED_FONTS
from pnp.text import fontcache, subsetcache
from pnp.text.fonts import _parse
from pnp.text.reportlab_fonts import deflated_entry_name
from pnp.text.subsetcache import kept_subsets

REGULAR = BUNDLED_FONTS / "PnpSansTC-Regular.ttf"
BOLD = BUNDLED_FONTS / "PnpSansTC-Bold.ttf"
NAME = "PnpSansTC-Regular"
# More than 256 distinct characters, so the font is embedded as two subsets.
TEXT = "替死鬼遮蔽板，「碟仙」……ABC 123" + "".join(chr(c) for c in range(0x4E00, 0x4E00 + 400))


@pytest.fixture
def cut(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The code points of every subset reportlab makes (one from the cache makes none)."""
    calls: list[list[int]] = []
    real = ttfonts.TTFontFile.makeSubset

    def spy(self: Any, subset: list[int]) -> bytes:
        calls.append(list(subset))
        result: bytes = real(self, subset)
        return result

    monkeypatch.setattr(ttfonts.TTFontFile, "makeSubset", spy)
    return calls


@pytest.fixture
def registered() -> Iterator[None]:
    before = pdfmetrics._fonts.get(NAME)
    yield
    if before is None:
        pdfmetrics._fonts.pop(NAME, None)
    else:
        pdfmetrics._fonts[NAME] = before


def cached_font(path: Path) -> Any:
    """The face of ``path`` as a build has it once its parse is cached."""
    _parse(NAME, path)
    font = _parse(NAME, path)
    assert isinstance(font.face, fontcache.CachedFace)
    return font


def draw(font: Any, text: str = TEXT) -> bytes:
    pdfmetrics._fonts[NAME] = font
    out = canvas.Canvas(None, invariant=1, pageCompression=1)  # type: ignore[arg-type]
    out.setFont(NAME, 12)
    for row in range(0, len(text), 40):
        out.drawString(36, 800 - row // 2, text[row:row + 40])
    out.showPage()
    return out.getpdfdata()


def subset_streams(pdf: bytes) -> list[bytes]:
    """Every embedded font file of ``pdf``, inflated (each is a TrueType file: 0x00010000)."""
    found = []
    for part in pdf.split(b"stream\n")[1:]:
        try:
            data = zlib.decompress(part.split(b"endstream")[0].rstrip(b"\n"))
        except zlib.error:
            continue
        if data.startswith(b"\x00\x01\x00\x00"):
            found.append(data)
    return found


def test_kept_subsets_give_the_same_pdf_and_are_not_cut_again(cache, cut, registered) -> None:
    font = cached_font(REGULAR)
    afresh = draw(font)  # outside kept_subsets: reportlab's own way
    assert len(cut) == 2 and len(subset_streams(afresh)) == 2
    cut.clear()
    with kept_subsets("a/zh-Hant/test"):
        assert draw(font) == afresh
    assert len(cut) == 2 and any((cache / subsetcache.AREA).iterdir())
    cut.clear()
    with kept_subsets("a/zh-Hant/test"):
        assert draw(font) == afresh
    assert cut == []  # both from the disk cache
    with kept_subsets("another/zh-Hant/test"):  # another document's entry has none of them
        assert draw(font) == afresh
    assert len(cut) == 2


def test_changed_text_cuts_only_the_changed_subsets_and_an_edit_undone_none(cache, cut, registered) -> None:
    font = cached_font(REGULAR)
    with kept_subsets("a/zh-Hant/test"):
        draw(font)
    # The second subset gets other characters; the first (the first 256 drawn) stays.
    edited = TEXT[:-5] + "甲乙丙丁戊"
    cut.clear()
    with kept_subsets("a/zh-Hant/test"):
        kept = draw(font, edited)
    assert len(cut) == 1 and "戊" in "".join(chr(code) for code in cut[0])
    cut.clear()
    assert draw(font, edited) == kept and len(cut) == 2
    cut.clear()
    with kept_subsets("a/zh-Hant/test"):
        undone = draw(font, TEXT)
    assert cut == [], "the subsets the rendering before last asked for are still in the entry"
    assert undone == draw(font, TEXT)


def test_the_entry_keeps_at_most_as_many_bytes_again_of_subsets_asked_before(cache, cut, registered) -> None:
    font = cached_font(REGULAR)
    endings = ["甲乙丙丁戊", "己庚辛壬癸", "子丑寅卯辰", "巳午未申酉"]
    for ending in endings:
        with kept_subsets("a/zh-Hant/test"):
            last = draw(font, TEXT[:-5] + ending)
    name = deflated_entry_name(subsetcache.AREA, subsetcache.FORMAT, "a/zh-Hant/test")
    assert name is not None
    entry = subsetcache._load(name)
    asked = {zlib.compress(stream) for stream in subset_streams(last)}
    assert asked <= set(entry.values())
    assert len(entry) > len(asked), "subsets asked for before are kept too"
    assert sum(map(len, entry.values())) <= 2 * sum(map(len, asked))


def test_another_font_with_the_same_name_and_path_never_takes_a_kept_subset(cache, cut, registered, tmp_path) -> None:
    path = tmp_path / f"{NAME}.ttf"
    shutil.copyfile(REGULAR, path)
    with kept_subsets("a/zh-Hant/test"):
        draw(cached_font(path))
    shutil.copyfile(BOLD, path)  # regenerated in place: other glyphs under the same name
    bold = cached_font(path)
    afresh = draw(bold)
    cut.clear()
    with kept_subsets("a/zh-Hant/test"):
        assert draw(bold) == afresh
    assert len(cut) == 2
    regular_glyphs = subset_streams(draw(cached_font(REGULAR)))
    assert not set(subset_streams(afresh)) & set(regular_glyphs)


def test_with_the_cache_turned_off_nothing_is_kept(cache, monkeypatch, cut, registered) -> None:
    font = cached_font(REGULAR)
    with kept_subsets("a/zh-Hant/test"):
        afresh = draw(font)
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    for _ in range(2):
        cut.clear()
        with kept_subsets("a/zh-Hant/test"):
            assert draw(font) == afresh
        assert len(cut) == 2


def test_builds_in_new_processes_write_the_bytes_of_a_build_without_the_cache(tmp_path) -> None:
    """What a designer's builds do: the first parses the fonts, the second keeps the subsets,
    the third takes them; each writes what a build with no cache at all writes."""
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT, game_workspace

    workspace = game_workspace(tmp_path, "tisigui", templates=True)

    def build(out: str, cache: str) -> dict[str, bytes]:
        env = {**os.environ, "PNP_CACHE_DIR": cache}
        subprocess.run([sys.executable, "-m", "pnp", "--root", str(workspace), "build", "tisigui", "--lang",
                        "zh-Hant", "--force", "--out", str(tmp_path / out)], check=True, env=env, cwd=ROOT,
                       capture_output=True)
        return {path.name: path.read_bytes() for path in (tmp_path / out / "tisigui" / "zh-Hant").glob("*.pdf")}

    plain = build("plain", "")
    assert set(plain) == {"components.pdf", "rulebook.pdf", "aid.pdf"}
    folder = str(tmp_path / "cache")
    for run in range(3):
        assert build(f"run{run}", folder) == plain, f"build {run + 1} with the cache"
    assert any((tmp_path / "cache" / subsetcache.AREA).iterdir())
