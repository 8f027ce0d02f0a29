"""Markup in vertical text and colour spans around icons, read back from the built PDF of a
small game made by ``pnp new`` with two icons of its own: ``dot`` (one colour, written
``currentColor``) and ``duo`` (two colours).

A vertical ``**粗**細{red|紅:dot:}:duo:`` must print 粗 in the bold face and 細 in the regular
one, 紅 in the span's red, and both icons upright, one cell each, in the column below 紅; the
single-colour ``dot`` takes the red of its span, the two-coloured ``duo`` keeps its own colours.
A horizontal ``{green|綠:dot:}:dot:`` shows the same rule on a line: ``dot`` green in the span,
in the text's colour outside it. Fill colours are read where the PDF sets them: PDFium's per
glyph, and for an icon the ``rg`` in force where the face form places it, with the icon form's
own content stream saying whether it paints colours of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from tests.pdfprobe import IDENTITY, face_chars, matrix_times, styled_chars
from tests.render.test_vertical_text import make_game, pnp

MM = 72 / 25.4
RED = (0xC0, 0x39, 0x2B)  # markup's red, #c0392b
GREEN = (0x1E, 0x84, 0x49)  # markup's green, #1e8449
TEXT = (0x22, 0x33, 0x44)  # the elements' own colour
DOT = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
       '<circle cx="5" cy="5" r="4" fill="currentColor"/></svg>')
DUO = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0000ff"/>'
       '<circle cx="5" cy="5" r="3" fill="#ffcc00"/></svg>')


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vertical-markup")
    make_game(root, '{type: text, box: [44, 24, 14, 58], text: "**粗**細{red|紅:dot:}:duo:", size: 14pt, '
                    'min_size: 8pt, direction: vertical, align: right, color: "#223344"}\n'
                    '      - {type: text, box: [7, 72, 49, 10], text: "{green|綠:dot:}:dot:", size: 11pt, '
                    'color: "#223344"}')
    icons = root / "card_data" / "demo" / "icons"
    icons.mkdir()
    (icons / "dot.svg").write_text(DOT, encoding="utf-8")
    (icons / "duo.svg").write_text(DUO, encoding="utf-8")
    result = pnp(root, "build", "demo", "--lang", "zh-Hant")
    assert result.returncode == 0, result.stderr
    return root / "output" / "demo" / "zh-Hant" / "components.pdf"


def rgb(operands: list) -> tuple[int, int, int]:  # type: ignore[type-arg]
    return tuple(round(float(v) * 255) for v in operands)  # type: ignore[return-value]


def icon_uses(pdf: Path, face: str) -> list[tuple[str, tuple[int, int, int], list[float]]]:
    """(icon, the fill colour in force, the matrix placing its 100-point form) of every icon the
    face form draws, in drawing order."""
    reader = PdfReader(pdf)
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        if f"/FormXob.{face}" not in xobjects:
            continue
        form = xobjects[f"/FormXob.{face}"].get_object()
        ctm, fill, stack, found = list(IDENTITY), (0, 0, 0), [], []
        for operands, op in ContentStream(form, reader).operations:
            if op == b"q":
                stack.append((ctm, fill))
            elif op == b"Q":
                ctm, fill = stack.pop()
            elif op == b"cm":
                ctm = matrix_times([float(v) for v in operands], ctm)
            elif op == b"rg":
                fill = rgb(operands)
            elif op == b"Do" and str(operands[0]).startswith("/FormXob.icon-"):
                found.append((str(operands[0]).removeprefix("/FormXob.icon-"), fill, ctm))
        return found
    raise AssertionError(f"no form {face} in {pdf}")


def icon_form_colours(pdf: Path, name: str) -> set[tuple[str, tuple[int, int, int]]]:
    """The colour operators an icon's own form paints with (the form is a resource of the face
    forms that place it)."""
    reader = PdfReader(pdf)
    for page in reader.pages:
        for face in page["/Resources"].get("/XObject", {}).values():
            xobjects = face.get_object().get("/Resources", {}).get("/XObject", {})
            if f"/FormXob.icon-{name}" in xobjects:
                ops = ContentStream(xobjects[f"/FormXob.icon-{name}"].get_object(), reader).operations
                return {(op.decode(), rgb(operands)) for operands, op in ops if op in (b"rg", b"RG")}
    raise AssertionError(f"no icon form {name} in {pdf}")


def test_bold_and_colour_spans_print_in_their_face_and_colour_in_a_column(built: Path) -> None:
    chars = [c for c in styled_chars(built) if c[0] in "粗細紅"]
    first = {ch: (colour, font) for ch, colour, font in chars[:3]}
    assert [c[0] for c in chars[:3]] == ["粗", "細", "紅"]
    assert "Bold" in first["粗"][1] and "Bold" not in first["細"][1], first
    assert first["粗"][0] == TEXT and first["細"][0] == TEXT and first["紅"][0] == RED


def test_icons_stand_upright_one_cell_each_below_the_character_before_them(built: Path) -> None:
    face = "face-cards-move-front"
    chars = [c for c in face_chars(built) if f"{c.face}-{c.side}" == face and c.ch in "粗細紅"]
    chars = [c for c in chars if c.placement == chars[0].placement and c.page == chars[0].page]
    hong = next(c for c in chars if c.ch == "紅")
    em = hong.size / MM
    uses = [u for u in icon_uses(built, face) if abs(u[2][0] * 100 / MM - em) < 0.01]
    assert [name for name, _, _ in uses] == ["dot", "duo"], uses
    height = 88 + 6  # the face form: a poker card with its 3 mm bleed
    for index, (_, _, ctm) in enumerate(uses):
        assert ctm[1] == 0 and ctm[2] == 0 and ctm[0] > 0 and ctm[3] > 0  # upright, unturned
        left, bottom = ctm[4] / MM - 3, height - ctm[5] / MM - 3  # trim mm from the top-left
        # In 紅's column, its em square's left edge where 紅's is, one cell per icon below it.
        assert left == pytest.approx(hong.x, abs=0.05)
        assert bottom == pytest.approx(hong.y + 0.12 * em + (index + 1) * em, abs=0.05)


def test_a_single_colour_icon_takes_its_spans_colour_and_a_multi_colour_one_keeps_its_own(built: Path) -> None:
    uses = icon_uses(built, "face-cards-move-front")
    vertical, line = uses[:2], uses[2:]
    assert vertical[0][:2] == ("dot", RED)  # in {red|…}
    assert [(name, fill) for name, fill, _ in line] == [("dot", GREEN), ("dot", TEXT)]
    # The dot's form paints no colour of its own (it takes the one it is placed in); the duo's
    # paints its blue and yellow wherever it stands.
    assert icon_form_colours(built, "dot") == set()
    assert {(0, 0, 255), (255, 204, 0)} <= {colour for op, colour in icon_form_colours(built, "duo") if op == "rg"}
