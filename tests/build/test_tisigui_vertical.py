"""tisigui's vertical titles (直排), read back from its built PDFs in both scripts.

The card backs carry the 碟仙 chant as a couplet either side of the seal, 碟仙碟仙， in the right
column and 请你出来。 in the left; each shield's outer panel has 第N号 (its digit set across
the column, 縱中橫) right of the seat number and 《替死鬼》 left of it. The glyphs drawn are
compared with the ``vert`` substitutions of the Noto Sans CJK faces the bundled faces are cut
from (tests/render/test_vertical_text.py): 《》 turn in both scripts, ，。 move to a column's top
right in zh-Hans and stay centred and upright in zh-Hant, whose face substitutes nothing for them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.build.pipeline import build
from pnp.core.workspace import Workspace
from tests.conftest import ROOT
from tests.pdfprobe import FaceChar, face_chars, styled_chars
from tests.render.test_vertical_text import embedded_vert_boxes, vert_boxes

MARKS = "《》，。"
CHANT = {"zh-Hant": ("碟仙碟仙，", "請你出來。"), "zh-Hans": ("碟仙碟仙，", "请你出来。")}
SEAT = {"zh-Hant": "第1號", "zh-Hans": "第1号"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tisigui-vertical")
    build(Workspace(ROOT), "tisigui", "all", "a4", out)
    return out / "tisigui"


def close(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return all(abs(x - y) <= 2 for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_the_decks_vertical_marks_are_the_fonts_vertical_forms(built: Path, lang: str) -> None:
    pdf = built / lang / "components.pdf"
    expected = vert_boxes(lang, MARKS)
    assert set(expected) == ({"《", "》"} if lang == "zh-Hant" else set(MARKS))
    drawn = embedded_vert_boxes(pdf, pages=99)
    for ch, (vertical, horizontal) in expected.items():
        assert any(close(vertical, box) for box in drawn), ch
        assert not close(vertical, horizontal), ch
    # The companion font holds the vertical forms alone: no horizontal 《 is drawn from it.
    for ch in "《》":
        assert not any(close(expected[ch][1], box) for box in drawn), ch
    # Which font each mark is drawn from: the companion of vertical forms or the face itself
    # (a zh-Hant column's ，。 are the face's own, centred as on a line).
    from_companion = {ch for ch, _, font in styled_chars(pdf) if ch in MARKS and "-Vert" in font}
    assert from_companion == set(expected)


def column(chars: list[FaceChar], text: str) -> list[FaceChar]:
    """The first run of ``text`` the face prints, character by character."""
    joined = "".join(c.ch for c in chars)
    at = joined.index(text)
    return chars[at:at + len(text)]


def first_face(pdf: Path, face: str) -> list[FaceChar]:
    found = [c for c in face_chars(pdf) if f"{c.face}-{c.side}" == face]
    first = found[0]
    return [c for c in found if c.page == first.page and c.placement == first.placement]


def reads_down(cells: list[FaceChar], size: float) -> None:
    """One column: each cell an em below the one before, every cell on one vertical axis."""
    em = size * 25.4 / 72
    for above, below in zip(cells, cells[1:], strict=False):
        assert below.y - above.y == pytest.approx(em, abs=0.05), (above, below)
    assert all(c.upright for c in cells)


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_the_card_backs_couplet_reads_right_column_first(built: Path, lang: str) -> None:
    chars = first_face(built / lang / "components.pdf", "face-identity-_all-back")
    right, left = (column(chars, text) for text in CHANT[lang])
    for cells in (right, left):
        reads_down(cells[:4], cells[0].size)  # the mark's origin is its own form's, not the em's
        assert max(c.x for c in cells[:4]) - min(c.x for c in cells[:4]) < 0.05
    assert right[0].x > 50 and left[0].x < 12  # either side of the seal, right column first
    assert right[0].y == pytest.approx(left[0].y, abs=0.05)


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_the_shields_seat_number_is_set_across_its_column(built: Path, lang: str) -> None:
    chars = first_face(built / lang / "components.pdf", "face-shield-shield-1-front")
    di, one, hao = column(chars, SEAT[lang])
    size = di.size * 25.4 / 72
    reads_down([di, one, hao], di.size)
    # 縱中橫: the digit sits across the column, centred on the em the characters fill.
    assert di.x < one.x < di.x + size / 2 and hao.x == pytest.approx(di.x, abs=0.05)
    title = column(chars, "《替死鬼》")
    assert all(c.x < di.x - 40 for c in title)  # the other side of the seat number
