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
    """A workspace with `pnp new mygame` in it and a plain fonts/ of its own, empty: the
    default faces come from the package, the test's own fonts go into fonts/."""
    root = tmp_path / "ws"
    (root / "card_data").mkdir(parents=True)
    (root / "fonts").mkdir()
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
    assert "'前' (U+524D) is not in the font 'Pnp Test Latin' (chosen for title at " in built.stderr
    assert "choose a face that has it in game.yaml `fonts:`" in built.stderr
    assert "Pick-" not in built.stderr and "build of the faces" not in built.stderr
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
    ('fonts:\n  title: "DejaVu Sans\\0"\n', "control character U+0000"),
    ("fonts:\n  body: {file: TC.ttf, bold_file: Latin.ttf}\n", "has 0 Chinese characters"),
]


@pytest.mark.parametrize(("fonts_yaml", "message"), BAD)
def test_bad_font_choices_are_errors_naming_the_line(tmp_path: Path, fonts_yaml: str, message: str) -> None:
    root = scaffolded(tmp_path)
    (root / "fonts" / "broken.ttf").write_bytes(b"this is not a font\n" * 50)
    latin_face(root / "fonts" / "Latin.ttf", "Pnp Test Latin")
    shutil.copy(BUNDLED_FONTS / "PnpSansTC-Regular.ttf", root / "fonts" / "TC.ttf")
    line = choose(root, fonts_yaml)
    out = tmp_path / "out"
    built = pnp(root, "build", "mygame", "--out", str(out))
    assert built.returncode == 1, built.stdout
    assert re.search(r"^Error: ", built.stderr, re.M), built.stderr  # after the progress lines
    assert "Traceback" not in built.stderr
    assert message in built.stderr
    assert re.search(rf"game\.yaml:{line}\b", built.stderr), (line, built.stderr)
    assert not out.exists()


def test_a_file_in_a_plain_fonts_folder_prints_and_its_change_rebuilds(tmp_path: Path) -> None:
    """fonts/ holds only the designer's font (the default faces come from the package): a
    `file:` pick finds it there, the PDF embeds it, the build record hashes it, and a new
    version of the file rebuilds."""
    root = scaffolded(tmp_path)
    latin_face(root / "fonts" / "digits.ttf", "Pnp Test Digits")
    choose(root, "fonts:\n  numbers: {file: digits.ttf}\n", element_font=None)
    edit(root / "card_data" / "mygame" / "components.yaml", 'text: "1", size: 14pt, min_size: 8pt, bold: true,',
         'text: "1", size: 14pt, min_size: 8pt, bold: true, font: numbers,')
    out = tmp_path / "out"
    built = pnp(root, "build", "mygame", "--lang", "zh-Hant", "--out", str(out))
    assert built.returncode == 0, built.stderr
    fonts = pdf_fonts(out / "mygame" / "zh-Hant" / "components.pdf")
    assert any(re.fullmatch(r"[A-Z]{6}\+Pnp-?Test-?Digits", f) for f in fonts), fonts
    assert any(re.fullmatch(r"[A-Z]{6}\+PnpSansTC-Regular", f) for f in fonts), fonts
    record = (out / ".pnp-build.json").read_text(encoding="utf-8")
    assert "fonts/digits.ttf" in record
    latin_face(root / "fonts" / "digits.ttf", "Pnp Test Numerals")
    again = pnp(root, "build", "mygame", "--lang", "zh-Hant", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert "components.pdf rebuilt" in again.stderr + again.stdout
    assert (out / ".pnp-build.json").read_text(encoding="utf-8") != record
    fonts = pdf_fonts(out / "mygame" / "zh-Hant" / "components.pdf")
    assert any(re.fullmatch(r"[A-Z]{6}\+Pnp-?Test-?Numerals", f) for f in fonts), fonts


def test_a_family_in_a_plain_fonts_folder_is_found(tmp_path: Path) -> None:
    root = scaffolded(tmp_path)
    latin_face(root / "fonts" / "digits.otf", "Pnp Test Digits", cff=True)
    choose(root, "fonts:\n  numbers: Pnp Test Digits\n", element_font=None)
    built = pnp(root, "check", "mygame")
    assert built.returncode == 0, built.stderr


def collection(path: Path, faces: int) -> None:
    """A TrueType collection of ``faces`` faces, all the same small Latin face (one copy of
    its tables, every offset pointing at it): tiny on disk, many faces to a careless reader."""
    import struct

    single = path.with_suffix(".one.ttf")
    latin_face(single, "Pnp Test Many")
    data = single.read_bytes()
    single.unlink()
    head = 12 + 4 * faces
    tables = struct.unpack(">H", data[4:6])[0]
    directory = bytearray(data[:12 + 16 * tables])
    for i in range(tables):
        at = 12 + 16 * i + 8
        struct.pack_into(">I", directory, at, struct.unpack(">I", data[at:at + 4])[0] + head)
    path.write_bytes(b"ttcf" + struct.pack(">II", 0x00010000, faces) + struct.pack(">I", head) * faces
                     + bytes(directory) + data[len(directory):])


def test_a_family_look_up_among_huge_collections_is_refused_quickly(tmp_path: Path) -> None:
    import time

    root = scaffolded(tmp_path)
    collection(root / "fonts" / "many0.ttc", 20_000)
    for n in range(1, 5):
        shutil.copy(root / "fonts" / "many0.ttc", root / "fonts" / f"many{n}.ttc")
    line = choose(root, "fonts:\n  title: Pnp Test Many\n")
    started = time.monotonic()
    built = pnp(root, "build", "mygame", "--out", str(tmp_path / "out"))
    assert time.monotonic() - started < 20
    assert built.returncode == 1 and "Traceback" not in built.stderr, built.stderr
    assert "a collection of 20,000 faces; pnp reads collections of at most 64 faces" in built.stderr
    assert re.search(rf"game\.yaml:{line}\b", built.stderr), built.stderr
    assert not (tmp_path / "out").exists()


def test_a_small_collection_is_read_face_by_face(tmp_path: Path) -> None:
    root = scaffolded(tmp_path)
    collection(root / "fonts" / "few.ttc", 3)
    choose(root, "fonts:\n  title: Pnp Test Many\n")
    checked = pnp(root, "check", "mygame")
    assert "no font has the family name" not in checked.stderr, checked.stderr
    assert "Traceback" not in checked.stderr


def test_a_title_face_with_a_damaged_cmap_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    import random

    root = scaffolded(tmp_path)
    data = bytearray((BUNDLED_FONTS / "PnpSansTC-Regular.ttf").read_bytes())
    flips = random.Random(1)
    for _ in range(2000):
        data[flips.randrange(len(data))] = flips.randrange(256)
    (root / "fonts" / "bad.ttf").write_bytes(bytes(data))
    line = choose(root, "fonts:\n  title: {file: bad.ttf}\n")
    for command in (["build", "mygame", "--out", str(tmp_path / "out")], ["check", "mygame"]):
        done = pnp(root, *command)
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr, done.stderr
        said = done.stdout + done.stderr  # check lists its findings on stdout
        assert re.search(rf"game\.yaml:{line}\b.*bad\.ttf is not a font pnp can read", said), said
    assert not (tmp_path / "out").exists()


def test_fonts_reached_through_links_out_of_the_workspace_are_refused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    latin_face(outside / "Latin.ttf", "Pnp Test Latin")
    root = scaffolded(tmp_path)
    (root / "fonts" / "Latin.ttf").symlink_to(outside / "Latin.ttf")
    line = choose(root, "fonts:\n  title: Pnp Test Latin\n")
    built = pnp(root, "build", "mygame", "--out", str(tmp_path / "out"))
    assert built.returncode == 1 and "Traceback" not in built.stderr, built.stderr
    assert re.search(rf"game\.yaml:{line}\b.*leads out of the workspace", built.stderr), built.stderr
    # The whole fonts/ folder a link out, for a pick by file.
    shutil.rmtree(root / "fonts")
    (root / "fonts").symlink_to(outside)
    edit(root / "card_data" / "mygame" / "game.yaml", "title: Pnp Test Latin", "title: {file: Latin.ttf}")
    built = pnp(root, "build", "mygame", "--out", str(tmp_path / "out"))
    assert built.returncode == 1 and "Traceback" not in built.stderr, built.stderr
    assert re.search(rf"game\.yaml:{line}\b.*the fonts/ folder leads out of the workspace", built.stderr), \
        built.stderr
    assert not (tmp_path / "out").exists()


def test_a_huge_font_is_refused_by_its_size(tmp_path: Path) -> None:
    root = scaffolded(tmp_path)
    with (root / "fonts" / "huge.ttf").open("wb") as handle:
        handle.truncate(300 * 2**20)  # sparse: 300 MB on paper, nothing on disk
    line = choose(root, "fonts:\n  title: {file: huge.ttf}\n")
    built = pnp(root, "build", "mygame", "--out", str(tmp_path / "out"))
    assert built.returncode == 1, built.stderr
    assert re.search(rf"game\.yaml:{line}\b.*huge\.ttf is 300 MB; pnp reads fonts up to 256 MB", built.stderr)


def test_a_damaged_cff_face_says_what_failed(tmp_path: Path) -> None:
    """fontTools fails on these bytes with an AssertionError that has no text: the message
    still says what went wrong, never an empty '()'."""
    import random

    root = scaffolded(tmp_path)
    latin_face(root / "fonts" / "bad.otf", "Pnp Test Digits", cff=True)
    data = bytearray((root / "fonts" / "bad.otf").read_bytes())
    flips = random.Random(0)
    for _ in range(20):
        data[flips.randrange(len(data))] = flips.randrange(256)
    (root / "fonts" / "bad.otf").write_bytes(bytes(data))
    line = choose(root, "fonts:\n  title: {file: bad.otf}\n")
    built = pnp(root, "build", "mygame", "--out", str(tmp_path / "out"))
    assert built.returncode == 1 and "Traceback" not in built.stderr, built.stderr
    said = re.search(rf"game\.yaml:{line}\b.*bad\.otf is not a font pnp can read \((.*)\)", built.stderr)
    assert said and said[1].strip(), built.stderr
