"""Vertical text (直排) read back from the built PDF of a small game made by ``pnp new``.

The vertical forms are checked against the Noto Sans CJK faces the bundled faces are cut from
(Debian's fonts-noto-cjk, installed by .ci/run): the glyph drawn for 「 must be the one that
face's ``vert`` feature substitutes (its outline's box, in font units), not the horizontal one.
Positions come from PDFium: a column reads top to bottom, columns right to left.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTCollection, TTFont
from pypdf import PdfReader

NOTO = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
TITLE = "「第12回」，\\n抽ABCD。"  # the newline starts a second column
FACES = {"zh-Hant": ("Noto Sans CJK TC", "ZHT "), "zh-Hans": ("Noto Sans CJK SC", "ZHS ")}


def pnp(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pnp", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={"PATH": "/usr/bin:/bin", "PNP_CACHE_DIR": ""})


def make_game(root: Path, element: str) -> Path:
    assert pnp(root, "new", "demo").returncode == 0
    components = root / "card_data" / "demo" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    anchor = "  card_back:\n"
    components.write_text(text.replace(anchor, f"      - {element}\n\n{anchor}", 1), encoding="utf-8")
    return components


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vertical")
    make_game(root, f'{{type: text, box: [44, 24, 14, 58], text: "{TITLE}", size: 14pt, '
                    'min_size: 8pt, direction: vertical, align: right}')
    result = pnp(root, "build", "demo", "--lang", "all")
    assert result.returncode == 0, result.stderr
    return root / "output" / "demo"


def vert_boxes(lang: str, among: str = "「」“”，。") -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """char -> (box of its vert glyph, box of its horizontal glyph) in the Noto face, for the
    characters of ``among`` its ``vert`` feature substitutes."""
    family, langsys = FACES[lang]
    font = next(f for f in TTCollection(str(NOTO)).fonts if f["name"].getDebugName(1) == family)
    table = font["GSUB"].table
    script = next(r.Script for r in table.ScriptList.ScriptRecord if r.ScriptTag == "hani")
    ls = next(r.LangSys for r in script.LangSysRecord if r.LangSysTag == langsys)
    mapping: dict[str, str] = {}
    for index in ls.FeatureIndex:
        record = table.FeatureList.FeatureRecord[index]
        if record.FeatureTag != "vert":
            continue
        for lookup_index in record.Feature.LookupListIndex:
            lookup = table.LookupList.Lookup[lookup_index]
            for sub in lookup.SubTable:
                mapping.update((sub.ExtSubTable if lookup.LookupType == 7 else sub).mapping)
    glyphs = font.getGlyphSet()
    cmap = font.getBestCmap()

    def box(name: str) -> tuple[int, ...]:
        pen = BoundsPen(glyphs)
        glyphs[name].draw(pen)
        return tuple(round(v) for v in pen.bounds)

    return {ch: (box(mapping[cmap[ord(ch)]]), box(cmap[ord(ch)]))
            for ch in among if cmap[ord(ch)] in mapping}


def embedded_vert_boxes(pdf: Path, pages: int = 1) -> list[tuple[int, ...]]:
    """The outline boxes of the glyphs of the embedded vertical-forms font, on the first
    ``pages`` pages, and in the forms they place (a sheet's card faces)."""
    boxes = []
    for page in PdfReader(pdf).pages[:pages]:
        fonts = list(page["/Resources"].get("/Font", {}).values())
        for form in page["/Resources"].get("/XObject", {}).values():
            fonts.extend(form.get_object().get("/Resources", {}).get("/Font", {}).values())
        for font in fonts:
            font = font.get_object()
            if "-Vert" not in str(font["/BaseFont"]):
                continue
            data = font["/FontDescriptor"].get_object()["/FontFile2"].get_object().get_data()
            ttf = TTFont(io.BytesIO(data))
            glyf = ttf["glyf"]
            for name in ttf.getGlyphOrder():
                glyph = glyf[name]
                if glyph.numberOfContours:
                    glyph.recalcBounds(glyf)
                    boxes.append((glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax))
    return boxes


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_brackets_are_drawn_in_the_fonts_vertical_forms(built: Path, lang: str) -> None:
    # The zh-Hans build is converted from the game's zh-Hant: its 「」 print as “”.
    page = "".join(c[0] for c in chars(built / lang / "components.pdf"))
    expected = {ch: boxes for ch, boxes in vert_boxes(lang).items() if ch in page}
    # 「」 (“” in zh-Hans) turn in both scripts; ，。 only in zh-Hans: a zh-Hant face keeps
    # them centred and upright, its vert feature leaves them alone.
    assert set(expected) == ({"「", "」"} if lang == "zh-Hant" else {"“", "”", "，", "。"})
    drawn = embedded_vert_boxes(built / lang / "components.pdf")
    for ch, (vertical, horizontal) in expected.items():
        assert any(all(abs(a - b) <= 2 for a, b in zip(vertical, box, strict=True)) for box in drawn), ch
        assert vertical != horizontal


def chars(pdf: Path) -> list[tuple[str, float, float, float, float]]:
    """(char, left, bottom, right, top) of every character on the first page, PDFium's boxes."""
    doc = pdfium.PdfDocument(str(pdf))
    text = doc[0].get_textpage()
    out = [(text.get_text_range(i, 1), *text.get_charbox(i)) for i in range(text.count_chars())]
    doc.close()
    return out


def test_columns_read_top_to_bottom_and_right_to_left(built: Path) -> None:
    found = [c for c in chars(built / "zh-Hant" / "components.pdf") if c[0].strip()]
    start = next(i for i, c in enumerate(found) if c[0] == "第")  # the first card's title
    title = found[start - 1:start + 12]
    assert "".join(c[0] for c in title) == "「第12回」，抽ABCD。"
    bracket, di, one, two, hui, _, comma, chou, a, b, c, d, stop = title[:13]

    def centre(ch: tuple[str, float, float, float, float]) -> tuple[float, float]:
        return ((ch[1] + ch[3]) / 2, (ch[2] + ch[4]) / 2)

    # Down the first column: each character below the one before it (PDF y grows upwards).
    first = [bracket, di, one, hui, comma]
    assert all(centre(p)[1] > centre(q)[1] for p, q in zip(first, first[1:], strict=False))
    assert max(centre(ch)[0] for ch in first) - min(centre(ch)[0] for ch in first) < 8  # one column
    # 縱中橫: 1 and 2 side by side in one cell, on one row, 2 to the right.
    assert abs(centre(one)[1] - centre(two)[1]) < 1 and centre(two)[0] > centre(one)[0]
    assert centre(two)[0] - centre(one)[0] < 14 * 0.7  # within the em
    # The second column is to the left of the first; ABCD is turned: its letters run down it.
    assert centre(chou)[0] < centre(di)[0] - 10
    letters = [a, b, c, d]
    assert all(centre(p)[1] > centre(q)[1] + 3 for p, q in zip(letters, letters[1:], strict=False))
    assert max(centre(ch)[0] for ch in letters) - min(centre(ch)[0] for ch in letters) < 1
    assert centre(stop)[1] < centre(d)[1]


def test_a_vertical_box_too_short_is_an_error_naming_file_line_and_field(tmp_path: Path) -> None:
    components = make_game(tmp_path, '{type: text, box: [44, 24, 14, 10], text: 這是一個太長的直排標題文字, '
                                     'size: 14pt, min_size: 12pt, direction: vertical}')
    line = next(n for n, text in enumerate(components.read_text(encoding="utf-8").splitlines(), 1)
                if "direction: vertical" in text)
    result = pnp(tmp_path, "-q", "build", "demo", "--lang", "zh-Hant")
    assert result.returncode == 1
    assert result.stderr.startswith("Error: ") and "Traceback" not in result.stderr
    assert f"components.yaml:{line}" in result.stderr and "vertical text" in result.stderr
    assert not (tmp_path / "output").exists() or not any((tmp_path / "output").rglob("*.pdf"))


def test_a_direction_pnp_does_not_know_is_an_error(tmp_path: Path) -> None:
    make_game(tmp_path, '{type: text, box: [44, 24, 14, 50], text: 標題, size: 14pt, direction: diagonal}')
    result = pnp(tmp_path, "-q", "build", "demo", "--lang", "zh-Hant")
    assert result.returncode == 1 and result.stderr.startswith("Error: ")
    assert "direction" in result.stderr and "diagonal" in result.stderr
