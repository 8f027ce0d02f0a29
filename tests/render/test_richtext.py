"""Rich text on cards, read back from the built PDFs of tisigui (whose card texts use it):
``**bold**`` prints in the bold face, ``{red|…}`` in its colour, and an inline ``:icon:`` is
drawn as its form between the two characters it was written between, on the line of the
character written before it (the line breaker never leaves an icon alone at a line's start).

Characters are found by PDFium and taken back onto their face (tests/pdfprobe.py); an icon's
place is read from the face form's own content stream: the translation before each
``/FormXob.icon-NAME Do``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnp.build.pipeline import build
from pnp.core.workspace import Workspace
from tests.conftest import ROOT, edit
from tests.pdfprobe import IDENTITY, FaceChar, face_chars, matrix_times, styled_chars

MM = 72 / 25.4
BLEED = 3.0
LANGS = ("zh-Hant", "zh-Hans")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("richtext")
    build(Workspace(ROOT), "tisigui", "all", "a4", out)
    return out


def face_icons(path: Path, face: str) -> list[tuple[str, float, float, float]]:
    """(icon, left, baseline-ish bottom, size) in trim mm from the top-left, of every icon the
    face form ``face`` draws, read from its content stream."""
    reader = PdfReader(path)
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        name = f"/FormXob.{face}"
        if name not in xobjects:
            continue
        form = xobjects[name].get_object()
        height = float(form["/BBox"][3])
        ctm, stack, found = list(IDENTITY), [], []
        for operands, op in ContentStream(form, reader).operations:
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                ctm = matrix_times([float(v) for v in operands], ctm)
            elif op == b"Do" and str(operands[0]).startswith("/FormXob.icon-"):
                size = ctm[0] * 100  # the icon's form is a 100-point square
                found.append((str(operands[0]).removeprefix("/FormXob.icon-"), ctm[4] / MM - BLEED,
                              (height - ctm[5]) / MM - BLEED, size))
        return found
    raise AssertionError(f"no form {face} in {path}")


def _chars(path: Path, face: str) -> list[FaceChar]:
    found = [c for c in face_chars(path) if f"{c.face}-{c.side}" == face]
    first = min(c.placement for c in found)
    return [c for c in found if c.placement == first and c.page == found[0].page]


@pytest.mark.parametrize("lang", LANGS)
def test_an_icon_is_drawn_between_the_characters_it_was_written_between(built, lang):
    """The reference card: 问题标记:question:。 分值:point:等于 掷小局骰:die:： — each icon
    right after the character before it, before the one after it, on the same line."""
    path = built / "tisigui" / lang / "components.pdf"
    face = "face-reference-reference-front"
    icons = face_icons(path, face)
    assert [name for name, *_ in icons] == ["question", "point", "die"], icons
    chars = _chars(path, face)
    written = {"question": ("記記", "。。"), "point": ("值值", "等等"), "die": ("骰骰", "：：")}
    for name, left, bottom, size in icons:
        before_ch, after_ch = (pair[0] if lang == "zh-Hant" else pair[1] for pair in written[name])
        if lang == "zh-Hans":
            before_ch = {"記": "记"}.get(before_ch, before_ch)
        before = [c for c in chars if c.ch == before_ch]
        after = [c for c in chars if c.ch == after_ch]
        em = size / MM
        # The icon's em square sits on the line of the character before it ...
        line = [c for c in before if abs((c.y - 0.88 * c.size / MM + c.size / MM) - bottom) < 0.1]
        assert line, (name, bottom, [(c.x, c.y) for c in before])
        previous = line[0]
        # ... starting where that character's em ends, and the next character starts after it.
        assert previous.x < left and left == pytest.approx(previous.x + em, abs=0.3), (name, left, previous)
        following = [c for c in after if abs(c.y - previous.y) < 0.01 and c.x > left]
        assert following and following[0].x == pytest.approx(left + em, abs=0.3), (name, left, following)


@pytest.mark.parametrize("lang", LANGS)
def test_no_line_starts_with_an_icon_cut_off_from_its_word(built, lang):
    """The reference card's 问题标记:question:。 wraps before 标记, so the icon and the 。 after
    it travel with the word: the icon is never the first thing on a line."""
    path = built / "tisigui" / lang / "components.pdf"
    face = "face-reference-reference-front"
    chars = _chars(path, face)
    starts = {}
    for c in chars:
        starts[round(c.y, 2)] = min(starts.get(round(c.y, 2), c.x), c.x)
    for name, left, bottom, size in face_icons(path, face):
        baseline = bottom - size / MM + 0.88 * size / MM
        row = min(starts, key=lambda y: abs(y - baseline))
        assert abs(row - baseline) < 0.1, (name, baseline, starts)
        assert left > starts[row] + 0.1, (name, left, starts[row])


def _font_of(chars: list[tuple[str, tuple[int, int, int], str]], text: str) -> list[tuple[str, tuple[int, int, int]]]:
    joined = "".join(ch for ch, _, _ in chars)
    at = joined.find(text)
    assert at >= 0, text
    return [(font, colour) for _, colour, font in chars[at:at + len(text)]]


@pytest.mark.parametrize("lang", LANGS)
def test_bold_prints_in_the_bold_face_and_a_colour_span_in_its_colour(built, lang):
    path = built / "tisigui" / lang / "components.pdf"
    chars = styled_chars(path)
    hant = lang == "zh-Hant"
    lying = _font_of(chars, "可以說謊" if hant else "可以说谎")
    assert "Bold" not in lying[0][0] and "Bold" not in lying[1][0], lying
    assert all("Bold" in font for font, _ in lying[2:]), lying
    # The shield's 必须{red|**如实**}。 (its panel is turned, so PDFium reads its lines out of order).
    truthful = _font_of(chars, "如實。" if hant else "如实。")
    assert all("Bold" in font and colour == (0xc0, 0x39, 0x2b) for font, colour in truthful[:2]), truthful
    assert "Bold" not in truthful[2][0] and truthful[2][1] == (0x2a, 0x22, 0x38), truthful
    # The markup itself prints nowhere.
    text = "".join(ch for ch, _, _ in chars)
    assert "**" not in text and ":ghost:" not in text and "{red|" not in text


def test_an_svg_icon_is_one_vector_form_however_many_cards_print_it(built):
    """Five identity faces … one ghost: each icon is one form XObject of paths (no image)."""
    reader = PdfReader(built / "tisigui" / "zh-Hant" / "components.pdf")
    forms = {}
    for page in reader.pages:
        for ref in page["/Resources"].get("/XObject", {}).values():
            face = ref.get_object()
            for inner, inner_ref in (face.get("/Resources", {}).get("/XObject", {}) or {}).items():
                if inner.startswith("/FormXob.icon-"):
                    forms.setdefault(inner, set()).add(inner_ref.idnum)
    assert set(forms) == {"/FormXob.icon-ghost", "/FormXob.icon-question", "/FormXob.icon-point",
                          "/FormXob.icon-die"}, forms
    assert all(len(ids) == 1 for ids in forms.values()), forms
    for name, ids in forms.items():
        form = reader.get_object(next(iter(ids)))
        data = form.get_data()
        assert b" re" in data or b" c" in data or b" l" in data, name  # drawn as paths
        assert not (form.get("/Resources", {}).get("/XObject")), name  # no picture inside


GOOD_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000080000000808020000004b6d29dc0000001249444154789c63f8cfc080"
    "1561171db4120028ff3fc16eecdf610000000049454e44ae426082")  # 8×8, red


def test_a_png_icon_is_one_image_inside_its_form(workspace_copy, tmp_path):
    icons = workspace_copy / "card_data" / "tisigui" / "icons"
    (icons / "coin.png").write_bytes(GOOD_PNG)
    components = workspace_copy / "card_data" / "tisigui" / "components.yaml"
    edit(components, 'role: ":ghost:趁大家', 'role: ":coin:趁大家')
    out = tmp_path / "out"
    build(Workspace(workspace_copy), "tisigui", "zh-Hant", "a4", out)
    reader = PdfReader(out / "tisigui" / "zh-Hant" / "components.pdf")
    images = set()
    for page in reader.pages:
        for ref in page["/Resources"].get("/XObject", {}).values():
            face = ref.get_object()
            for name, inner in (face.get("/Resources", {}).get("/XObject", {}) or {}).items():
                if name == "/FormXob.icon-coin":
                    for image in inner.get_object()["/Resources"]["/XObject"].values():
                        images.add(image.idnum)
                        assert image.get_object()["/Subtype"] == "/Image"
                        assert (image.get_object()["/Width"], image.get_object()["/Height"]) == (8, 8)
    assert len(images) == 1, images


def test_an_icon_file_over_the_size_limit_is_refused_with_its_path(workspace_copy):
    icons = workspace_copy / "card_data" / "tisigui" / "icons"
    big = icons / "big.svg"
    big.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                   + "<!-- padding -->" * 20000 + "</svg>", encoding="utf-8")
    (workspace_copy / "output").mkdir()
    done = subprocess.run([sys.executable, "-m", "pnp", "--root", str(workspace_copy), "build", "tisigui",
                           "--lang", "zh-Hant"], capture_output=True, text=True, timeout=60)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "Error:" in output and "Traceback" not in output, output
    assert "icons/big.svg" in output and "more than the limit of 262144 for an icon" in output, output
    assert not any((workspace_copy / "output").iterdir())
