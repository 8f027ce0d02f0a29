"""The face cache (pnp.render.facecache) replays a kept face whose glyphs the edit of an earlier
card moved into another font subset, and the PDF is still a cold build's, byte for byte.

Reportlab numbers a font's glyphs in the order a document first prints them, 256 to a subset.
aizhewudi's first ability card (chapel-owner) is the first to print glyphs near the end of the
regular font's first subset, so an edit of its text that brings, moves or takes away glyphs
pushes glyphs that later cards print across that subset's end. Each edit below is checked to
do so, by reading the fonts' ToUnicode maps out of the cold PDFs.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader
from reportlab.lib.rl_accel import escapePDF

from pnp.build.manifest import MANIFEST_NAME
from pnp.build.pipeline import build
from pnp.core.workspace import Workspace
from pnp.render.facecache import FaceRecord
from pnp.render.glyphrenumber import FontUse, _unescaped, renumbered
from tests.conftest import ROOT, edit

GAME = "aizhewudi"
CARDS = f"card_data/{GAME}/components.yaml"
EDITED = ("ability", "chapel-owner", "ability_front")

# (what, old text, new text): each edits the chapel-owner card only.
EDITS = [
    ("a glyph first printed by a later card instead (the issue's ability edit)", "必須亮出這張牌", "必須翻開這張牌"),
    ("four glyphs no card printed before", "如果你還在場", "春夏秋冬，如果你還在場"),
    ("a glyph no other card prints taken away", "春夏秋冬", "春夏秋"),
]


def _files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and path.name != MANIFEST_NAME}


def _fonts(value: Any, seen: dict[str, Any]) -> None:
    """Every font a PDF object's resources name, its forms' included, by its subset's name."""
    resources = value.get("/Resources")
    if resources is None:
        return
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        font = font.get_object()
        seen[str(font["/BaseFont"])] = font
    for form in (resources.get("/XObject") or {}).values():
        _fonts(form.get_object(), seen)


def _subsets(pdf: Path) -> dict[tuple[str, str], int]:
    """(font, character) → the subset the character's glyph is in, read off each subset's
    ToUnicode map (reportlab names subset n ``AAAAAn+`` with the digits as letters)."""
    fonts: dict[str, Any] = {}
    for page in PdfReader(pdf).pages:
        _fonts(page, fonts)
    found = {}
    for base, font in fonts.items():
        prefix, _, name = base.lstrip("/").partition("+")
        subset = int(prefix.translate(str.maketrans("ABCDEFGIJK", "0123456789")))
        cmap = font["/ToUnicode"].get_object().get_data().decode("ascii")
        for code in re.findall(r"<[0-9A-Fa-f]{2}> <([0-9A-Fa-f]{4})>", cmap):
            found[name, chr(int(code, 16))] = subset
    return found


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "card_data" / GAME, root / "card_data" / GAME)
    shutil.copytree(ROOT / "templates" / GAME, root / "templates" / GAME)
    return root


def test_faces_whose_glyphs_crossed_a_subset_are_replayed_to_a_cold_builds_bytes(
        workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        drawn_layouts: list[tuple[str, str, str]]) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    drawn = drawn_layouts

    def faces_drawn(force: bool = False) -> list[tuple[str, str, str]]:
        drawn.clear()
        build(Workspace(workspace), GAME, "all", out=workspace / "output", force=force)
        return list(drawn)

    def cold(index: int) -> dict[str, bytes]:
        with monkeypatch.context() as cold_build:
            cold_build.setenv("PNP_CACHE_DIR", "")
            build(Workspace(workspace), GAME, "all", out=tmp_path / f"cold-{index}", force=True)
        return _files(tmp_path / f"cold-{index}")

    faces_drawn()
    # Faces that are first to place a symbol are drawn on every build (they define its form).
    always = set(faces_drawn(force=True))
    assert EDITED not in always
    before = cold(0)
    pdf = f"{GAME}/zh-Hant/components.pdf"
    # What later cards print: a glyph of theirs that moved was printed by a replayed face.
    later = workspace.joinpath(CARDS).read_text(encoding="utf-8").partition("id: florist")[2]
    for index, (what, old, new) in enumerate(EDITS, 1):
        edit(workspace / CARDS, old, new)
        again = [face for face in faces_drawn() if face not in always]
        after = cold(index)
        subsets_before, subsets_after = _subsets(tmp_path / f"cold-{index - 1}" / pdf), \
            _subsets(tmp_path / f"cold-{index}" / pdf)
        moved = {char for (font, char), subset in subsets_after.items()
                 if "Regular" in font and subsets_before.get((font, char), subset) != subset}
        assert moved & set(later), f"{what}: no glyph a later card prints changed subset"
        assert again == [EDITED, EDITED], f"{what}: drew {again}"  # once per script
        incremental = _files(workspace / "output")
        assert sorted(incremental) == sorted(after)
        assert [file for file in after if incremental[file] != after[file]] == [], what
        assert incremental[pdf] != before[pdf]
        before = after


# Glyph numbers worked by hand: A (65) is in subset 0; 色 is the last glyph of subset 0 (255),
# 有 the first of subset 1 (257: reportlab keeps 256 for .notdef). After an edit takes a glyph
# away before them, 色 is 254 and 有 255, so both fall in subset 0.
_USE = FontUse("Sans", "F1", (65, ord("色"), ord("有")), (65, 255, 257))


class _State:
    def __init__(self, name: str, assignments: dict[int, int]) -> None:
        self.internalName = name
        self.assignments = assignments


def _record(*lines: str) -> FaceRecord:
    return FaceRecord(lines, (), (_USE,), ())


def test_a_string_cut_by_a_subset_is_printed_whole_when_its_glyphs_share_one_now() -> None:
    record = _record("q", r"BT 1 0 0 1 5 6 Tm /F1+0 9 Tf 10 TL (A\377) Tj /F1+1 9 Tf 10 TL (\001) Tj T* ET", "Q")
    state = _State("F2", {65: 65, ord("色"): 254, ord("有"): 255})
    assert renumbered(record.lines, record.fonts, {"Sans": state}) == (
        "q", r"BT 1 0 0 1 5 6 Tm /F2+0 9 Tf 10 TL (A\376\377) Tj T* ET", "Q")


def test_a_glyph_pushed_into_the_next_subset_cuts_its_string_there() -> None:
    # Three glyphs brought before them: 色 is 259 (subset 1, byte 3), 有 260.
    record = _record(r"BT /F1+0 9 Tf 10 TL (A\377A) Tj ET")
    state = _State("F1", {65: 65, ord("色"): 259, ord("有"): 260})
    assert renumbered(record.lines, record.fonts, {"Sans": state}) == (
        r"BT /F1+0 9 Tf 10 TL (A) Tj /F1+1 9 Tf 10 TL (\003) Tj /F1+0 9 Tf 10 TL (A) Tj ET",)


def test_a_string_moved_to_its_own_tm_chooses_a_subset_only_when_the_last_choice_differs() -> None:
    # Two strings, each placed by its own Tm: 有 (subset 1) after a string ending in subset 0.
    # Once 有 is in subset 0 the second string needs no choice; a choice is kept where the
    # kept line chose the same subset again (the text object had forgotten its choice).
    record = _record(r"BT 1 0 0 1 0 0 Tm /F1+0 9 Tf 10 TL (A) Tj 1 0 0 1 9 0 Tm /F1+1 9 Tf 10 TL (\001) Tj "
                     r"1 0 0 1 18 0 Tm /F1+1 9 Tf 10 TL (\001) Tj ET")
    state = _State("F1", {65: 65, ord("色"): 254, ord("有"): 255})
    assert renumbered(record.lines, record.fonts, {"Sans": state}) == (
        r"BT 1 0 0 1 0 0 Tm /F1+0 9 Tf 10 TL (A) Tj 1 0 0 1 9 0 Tm (\377) Tj "
        r"1 0 0 1 18 0 Tm /F1+0 9 Tf 10 TL (\377) Tj ET",)


def test_text_printed_by_operators_it_cannot_read_back_is_drawn_again() -> None:
    # 有 (subset 1, byte 1) moves into subset 0: the array that prints it cannot be cut again.
    record = _record(r"BT /F1+0 9 Tf 10 TL [(A) 20 (\377)] TJ ET", r"BT /F1+1 9 Tf 10 TL [(\001) 20 (\001)] TJ ET")
    state = _State("F1", {65: 65, ord("色"): 254, ord("有"): 255})
    assert renumbered(record.lines, record.fonts, {"Sans": state}) is None


def test_a_line_whose_glyphs_keep_their_subsets_keeps_its_runs_while_another_is_printed_again() -> None:
    # 色 stays in subset 0 (255 to 254), 有 moves from subset 1 into it (257 to 255). The first
    # line is kept as it is but for its bytes and the font's new name, even an array (TJ) that
    # could not be read back; the second is printed again in subset 0.
    record = _record(r"BT 1 0 0 1 0 0 Tm /F1+0 9 Tf 10 TL [(A\377) 20 (A)] TJ ET", "0 g",
                     r"BT /F1+1 9 Tf 10 TL (\001) Tj ET")
    state = _State("F2", {65: 65, ord("色"): 254, ord("有"): 255})
    assert renumbered(record.lines, record.fonts, {"Sans": state}) == (
        r"BT 1 0 0 1 0 0 Tm /F2+0 9 Tf 10 TL [(A\376) 20 (A)] TJ ET", "0 g", r"BT /F2+0 9 Tf 10 TL (\377) Tj ET")


@given(st.binary(max_size=40) | st.lists(st.sampled_from(b"\\()0578 \x00\xff\n"), max_size=12).map(bytes))
def test_a_string_escaped_as_reportlab_escapes_it_reads_back_to_its_bytes(data: bytes) -> None:
    assert _unescaped(escapePDF(data)) == data


def test_two_code_points_one_glyph_then_and_two_now_make_the_face_drawn_again() -> None:
    # Both lacked a glyph when the face was kept (glyph 0); now one of them has its own.
    use = FontUse("Sans", "F1", (0x4E00, 0x4E01), (0, 0))
    record = FaceRecord((r"BT /F1+0 9 Tf 10 TL (\000\000) Tj ET",), (), (use,), ())
    assert renumbered(record.lines, record.fonts, {"Sans": _State("F1", {0x4E01: 3})}) is None
    assert renumbered(record.lines, record.fonts, {"Sans": _State("F1", {})}) == record.lines


def test_lines_that_print_no_text_are_kept_as_they_are_while_the_text_is_renumbered() -> None:
    # Shapes, a form placed by name (/Fm… is no subset) and a string's bytes moved by one.
    record = _record("q 1 0 0 1 5 5 cm /FmA Do Q", "0 0 10 10 re f", r"BT /F1+0 9 Tf 10 TL (A\377) Tj ET")
    state = _State("F1", {65: 65, ord("色"): 254, ord("有"): 257})
    assert renumbered(record.lines, record.fonts, {"Sans": state}) == (
        "q 1 0 0 1 5 5 cm /FmA Do Q", "0 0 10 10 re f", r"BT /F1+0 9 Tf 10 TL (A\376) Tj ET")


def _face_drawn_after(earlier: int) -> tuple[list[str], FontUse, Any]:
    """A face of three strings (pnp's way: each placed by its own Tm, the font set once) drawn
    by reportlab into a document that first printed ``earlier`` other glyphs: its lines, its
    font's part in it and the font's state after it."""
    from io import BytesIO

    from reportlab.pdfbase.pdfmetrics import getFont
    from reportlab.pdfgen.canvas import Canvas

    from pnp.core.workspace import BUNDLED_FONTS
    from pnp.text.fonts import load_family

    name = load_family(BUNDLED_FONTS, "zh-Hant").regular.name
    han = [chr(code) for code in sorted(getFont(name).face.charToGlyph) if code >= 0x4E00][:400]
    canvas = Canvas(BytesIO())
    before = canvas.beginText()
    before.setFont(name, 9)
    before.textOut("".join(han[:earlier]) + "".join(han[300:303]))
    canvas.drawText(before)
    start = len(canvas._code)
    strings = ["".join(han[303:311]), han[300] + "".join(han[311:315]) + han[301], "A 1" + "".join(han[315:318])]
    text = canvas.beginText()
    text.setFont(name, 9)
    for x, string in enumerate(strings):
        text.setTextOrigin(10 * x, 0)
        text.textOut(string)
    canvas.drawText(text)
    state = getFont(name).state[canvas._doc]
    codes = tuple(dict.fromkeys(ord(char) for char in "".join(strings)))
    use = FontUse(name, state.internalName, codes, tuple(state.assignments[code] for code in codes))
    return canvas._code[start:], use, state


@pytest.mark.parametrize("earlier", range(136, 162))
def test_kept_strings_are_printed_again_as_reportlab_prints_them(earlier: int) -> None:
    """A face kept when 148 glyphs came before it, replayed where ``earlier`` did: its lines
    are those reportlab itself writes in that document (the reference), whichever of its
    glyphs now fall on either side of the first subset's end (ASCII holds 32–127 of subset 0,
    so the face's glyphs are numbered from about ``earlier`` + 99: 247 to 264 when kept)."""
    kept_lines, use, _ = _face_drawn_after(148)
    lines, _, state = _face_drawn_after(earlier)
    record = FaceRecord(tuple(kept_lines), (), (use,), ())
    assert renumbered(record.lines, record.fonts, {use.font: state}) == tuple(lines)



def test_an_entry_written_again_from_the_records_it_held_is_the_entry_written_afresh(cache: Path) -> None:
    from pnp.core import diskcache
    from pnp.render import facecache

    records = {"a" * 64: _record("q", "BT /F1+0 9 Tf 10 TL (A\\377) Tj ET", "Q"),
               "b" * 64: FaceRecord(("0 g\n1 w",), ("sym",), (), (),
                                    (facecache.KeptForm("sym", (0.0, 0.0, 1.5, 2), "n"),))}
    facecache._store("entry", records)
    afresh = diskcache.read(facecache.AREA, "entry", 1 << 20)
    loaded = facecache._load("entry")
    assert loaded == records and all(record.row for record in loaded.values())
    facecache._store("entry", loaded)
    assert diskcache.read(facecache.AREA, "entry", 1 << 20) == afresh
