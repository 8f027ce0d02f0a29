"""Fonts of the designer's choice (game.yaml ``fonts:``, an element's ``font:``), built for real
and read back from the PDFs' font lists (poppler's pdffonts) and from pnp's build record.

The title face is AR PL UKai (Debian's fonts-arphic-ukai, installed by .ci/run), a TrueType
collection found through fontconfig; the Latin-only faces of the bad-input tests and the CFF
face are made here with fontTools, so what they hold is known."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.core.workspace import BUNDLED_FONTS
from tests.conftest import edit

UKAI = Path("/usr/share/fonts/truetype/arphic/ukai.ttc")
BUNDLED = ("PnpSansTC-Regular.ttf", "PnpSansTC-Bold.ttf", "PnpSansSC-Regular.ttf", "PnpSansSC-Bold.ttf")
TITLE_ELEMENT = 'text: "{title}", size: 20pt, min_size: 12pt, bold: true,'


def pnp(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pnp", "--root", str(root), *args], capture_output=True,
                          text=True, timeout=600)


def pdf_fonts(path: Path) -> list[str]:
    """The base font names poppler's pdffonts lists, subset tags kept."""
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines()[2:] if line.strip()]


def latin_face(path: Path, family: str, cff: bool = False) -> None:
    """A face with Latin letters and digits only (squares), TrueType or CFF outlines."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 "
    names = [".notdef", *[f"g{ord(c)}" for c in chars]]
    builder = FontBuilder(1000, isTTF=not cff)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({ord(c): f"g{ord(c)}" for c in chars})

    def draw(pen: object) -> None:
        pen.moveTo((100, 0))  # type: ignore[attr-defined]
        pen.lineTo((100, 700))  # type: ignore[attr-defined]
        pen.lineTo((500, 700))  # type: ignore[attr-defined]
        pen.lineTo((500, 0))  # type: ignore[attr-defined]
        pen.closePath()  # type: ignore[attr-defined]

    if cff:
        strings = {}
        for name in names:
            pen = T2CharStringPen(600, None)
            draw(pen)
            strings[name] = pen.getCharString()
        builder.setupCFF(family.replace(" ", ""), {"FullName": family}, strings, {})
    else:
        glyphs = {}
        for name in names:
            pen = TTGlyphPen(None)
            draw(pen)
            glyphs[name] = pen.glyph()
        builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics({name: (600, 100) for name in names})
    builder.setupHorizontalHeader(ascent=880, descent=-120)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=880, usWinAscent=880, usWinDescent=120, fsType=0)
    builder.setupPost()
    builder.font.save(str(path))


def scaffolded(tmp_path: Path) -> Path:
    """A workspace with `pnp new mygame` in it and a fonts/ of its own (the bundled faces
    linked, room for the test's files)."""
    root = tmp_path / "ws"
    (root / "card_data").mkdir(parents=True)
    (root / "fonts").mkdir()
    for name in BUNDLED:
        (root / "fonts" / name).symlink_to(BUNDLED_FONTS / name)
    made = pnp(root, "new", "mygame")
    assert made.returncode == 0, made.stderr
    return root


def choose(root: Path, fonts_yaml: str, element_font: str | None = "title") -> int:
    """Put ``fonts_yaml`` (a ``fonts:`` block) into game.yaml; the line of its first role."""
    game = root / "card_data" / "mygame" / "game.yaml"
    edit(game, "age: 8+\n", "age: 8+\n" + fonts_yaml)
    if element_font:
        edit(root / "card_data" / "mygame" / "components.yaml", TITLE_ELEMENT, f"{TITLE_ELEMENT} font: {element_font},")
    lines = game.read_text(encoding="utf-8").splitlines()
    return lines.index("fonts:") + 2


needs_ukai = pytest.mark.skipif(not UKAI.is_file() or shutil.which("fc-match") is None,
                                reason="fonts-arphic-ukai and fontconfig: .ci/run installs them")


@needs_ukai
def test_ukai_titles_are_embedded_as_a_subset_beside_the_bundled_body(tmp_path: Path) -> None:
    root = scaffolded(tmp_path)
    choose(root, "fonts:\n  title: AR PL UKai TW\n")
    first, second = tmp_path / "out1", tmp_path / "out2"
    for out in (first, second):
        built = pnp(root, "build", "mygame", "--out", str(out))
        assert built.returncode == 0, built.stderr
    for lang, body in (("zh-Hant", "PnpSansTC"), ("zh-Hans", "PnpSansSC")):
        for name in ("components.pdf", "rulebook.pdf"):
            fonts = pdf_fonts(first / "mygame" / lang / name)
            # UKaiTW is face 2 of the collection; reportlab embeds a subset (the XXXXXX+ tag).
            assert any(re.fullmatch(r"[A-Z]{6}\+UKaiTW-2", f) for f in fonts), (lang, name, fonts)
            assert any(re.fullmatch(rf"[A-Z]{{6}}\+{body}-Regular", f) for f in fonts), (lang, name, fonts)
            assert (first / "mygame" / lang / name).read_bytes() == (second / "mygame" / lang / name).read_bytes()
    record = json.loads((first / ".pnp-build.json").read_text(encoding="utf-8"))
    assert str(UKAI) in json.dumps(record), "the chosen face's file is an input of the build record"


@needs_ukai
def test_another_face_rebuilds_and_no_choice_builds_as_before(tmp_path: Path) -> None:
    root = scaffolded(tmp_path)
    plain = pnp(root, "build", "mygame", "--lang", "zh-Hant", "--out", str(tmp_path / "plain"))
    assert plain.returncode == 0, plain.stderr
    choose(root, "fonts:\n  title: AR PL UKai TW\n")
    out = tmp_path / "out"
    assert pnp(root, "build", "mygame", "--lang", "zh-Hant", "--out", str(out)).returncode == 0
    edit(root / "card_data" / "mygame" / "game.yaml", "title: AR PL UKai TW", "title: AR PL UKai HK")
    again = pnp(root, "build", "mygame", "--lang", "zh-Hant", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert "components.pdf rebuilt" in again.stderr + again.stdout
    assert any(re.fullmatch(r"[A-Z]{6}\+UKaiHK-1", f) for f in pdf_fonts(out / "mygame" / "zh-Hant" / "components.pdf"))
    # The element's `font: title` with no face chosen for titles prints in the bundled face.
    edit(root / "card_data" / "mygame" / "game.yaml", "fonts:\n  title: AR PL UKai HK\n", "")
    back = tmp_path / "back"
    assert pnp(root, "build", "mygame", "--lang", "zh-Hant", "--out", str(back)).returncode == 0
    for name in ("components.pdf", "rulebook.pdf"):
        assert (back / "mygame" / "zh-Hant" / name).read_bytes() == \
            (tmp_path / "plain" / "mygame" / "zh-Hant" / name).read_bytes()


def test_a_cff_face_for_numbers_is_converted_and_embedded(tmp_path: Path) -> None:
    root = scaffolded(tmp_path)
    latin_face(root / "fonts" / "Digits.otf", "Pnp Test Digits", cff=True)
    choose(root, "fonts:\n  numbers: Pnp Test Digits\n", element_font=None)
    edit(root / "card_data" / "mygame" / "components.yaml", 'text: "1", size: 14pt, min_size: 8pt, bold: true,',
         'text: "1", size: 14pt, min_size: 8pt, bold: true, font: numbers,')
    out = tmp_path / "out"
    built = pnp(root, "build", "mygame", "--lang", "zh-Hant", "--out", str(out))
    assert built.returncode == 0, built.stderr
    fonts = pdf_fonts(out / "mygame" / "zh-Hant" / "components.pdf")
    assert any(re.fullmatch(r"[A-Z]{6}\+Pnp-?Test-?Digits", f) for f in fonts), fonts
    out2 = tmp_path / "out2"
    assert pnp(root, "build", "mygame", "--lang", "zh-Hant", "--out", str(out2)).returncode == 0
    assert (out / "mygame" / "zh-Hant" / "components.pdf").read_bytes() == \
        (out2 / "mygame" / "zh-Hant" / "components.pdf").read_bytes()


def test_a_title_character_the_face_lacks_names_a_face_that_has_it(tmp_path: Path) -> None:
    if shutil.which("fc-list") is None:
        pytest.skip("fontconfig: .ci/run installs it")
    root = scaffolded(tmp_path)
    latin_face(root / "fonts" / "Latin.ttf", "Pnp Test Latin")
    choose(root, "fonts:\n  title: Pnp Test Latin\n")
    out = tmp_path / "out"
    built = pnp(root, "build", "mygame", "--lang", "zh-Hant", "--out", str(out))
    assert built.returncode == 1
    assert "'前' (U+524D) is not in the font" in built.stderr
    having = subprocess.run(["fc-list", "-f", "%{family[0]}\n", ":charset=524d"], capture_output=True,
                            text=True, check=True).stdout.split("\n")
    named = re.search(r"'前' \(U\+524D\).*?here: ([^)]*)\)", built.stderr)
    assert named, built.stderr
    assert set(named[1].split(", ")) <= {h.strip() for h in having if h.strip()}
    assert not out.exists()


BAD = [
    ("fonts:\n  title: {file: broken.ttf}\n", "is not a font pnp can read"),
    ("fonts:\n  body: Pnp Test Latin\n", "has 0 Chinese characters"),
    ("fonts:\n  title: No Such Family Anywhere\n", "no font has the family name 'No Such Family Anywhere'"),
    ("fonts:\n  title: {file: ../../card_data/mygame/game.yaml}\n", "a font file's name in the workspace's fonts/"),
    ("fonts:\n  title: {family: AR PL UKai TW, file: broken.ttf}\n", "one of the two"),
]


@pytest.mark.parametrize(("fonts_yaml", "message"), BAD)
def test_bad_font_choices_are_errors_naming_the_line(tmp_path: Path, fonts_yaml: str, message: str) -> None:
    root = scaffolded(tmp_path)
    (root / "fonts" / "broken.ttf").write_bytes(b"this is not a font\n" * 50)
    latin_face(root / "fonts" / "Latin.ttf", "Pnp Test Latin")
    line = choose(root, fonts_yaml)
    out = tmp_path / "out"
    built = pnp(root, "build", "mygame", "--out", str(out))
    assert built.returncode == 1, built.stdout
    assert re.search(r"^Error: ", built.stderr, re.M), built.stderr  # after the progress lines
    assert "Traceback" not in built.stderr
    assert message in built.stderr
    assert re.search(rf"game\.yaml:{line}\b", built.stderr), (line, built.stderr)
    assert not out.exists()
