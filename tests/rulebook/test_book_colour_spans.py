"""Colour spans in a book's text, ``{red|…}`` and ``{#rrggbb|…}`` as on cards, read back from the
rulebook PDF of a small game made by ``pnp new``: the span's characters print in its colour (bold
inside it in the bold face), the text around it in the book's, and the braces never print. A
template writes a ``#rrggbb`` span with ``colour()``: ``{#`` opens a Jinja comment."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pdfprobe import styled_chars, text
from tests.render.test_vertical_text import pnp

RED = (0xC0, 0x39, 0x2B)  # markup's red, #c0392b
TEAL = (0x12, 0x34, 0x56)


@pytest.fixture(scope="module")
def rulebook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("book-colours")
    assert pnp(root, "new", "demo").returncode == 0
    template = root / "templates" / "demo" / "rulebook.md.j2"
    added = "\n\n提醒：{red|千萬**別**偷看}，寫下{{ colour('#123456', '青色') }}的字。\n"
    template.write_text(template.read_text(encoding="utf-8") + added, encoding="utf-8")
    result = pnp(root, "build", "demo", "--lang", "zh-Hant")
    assert result.returncode == 0, result.stderr
    return root / "output" / "demo" / "zh-Hant" / "rulebook.pdf"


def test_a_colour_span_prints_in_its_colour_and_its_braces_do_not_print(rulebook: Path) -> None:
    chars = [c for c in styled_chars(rulebook) if c[0].strip()]
    joined = "".join(c[0] for c in chars)
    at = joined.index("提醒：千萬別偷看，寫下青色的字。")
    styled = {ch: (colour, font) for ch, colour, font in chars[at:at + 16]}
    plain = styled["提"][0]
    assert plain not in (RED, TEAL)
    for ch in "千萬別偷看":
        assert styled[ch][0] == RED, ch
    assert "Bold" in styled["別"][1] and "Bold" not in styled["萬"][1]
    assert styled["青"][0] == TEAL and styled["色"][0] == TEAL
    assert styled["，"][0] == plain and styled["的"][0] == plain
    assert "{red|" not in text(rulebook) and "#123456" not in text(rulebook)


def test_colour_refuses_a_colour_markup_does_not_know(tmp_path: Path) -> None:
    assert pnp(tmp_path, "new", "demo").returncode == 0
    template = tmp_path / "templates" / "demo" / "rulebook.md.j2"
    lines = template.read_text(encoding="utf-8").splitlines()
    template.write_text("\n".join([*lines, "", '寫下{{ colour("crimson", "紅") }}。', ""]), encoding="utf-8")
    result = pnp(tmp_path, "-q", "build", "demo", "--lang", "zh-Hant")
    assert result.returncode == 1 and result.stderr.startswith("Error: ") and "Traceback" not in result.stderr
    assert f"rulebook.md.j2:{len(lines) + 2}" in result.stderr and "unknown colour 'crimson'" in result.stderr


def test_check_takes_a_spans_colour_for_no_typed_number(rulebook: Path) -> None:
    """pnp check reports digits typed into a book; colour("#123456", …)'s are a colour."""
    root = rulebook.parents[3]
    result = pnp(root, "check", "demo")
    assert "123456" not in result.stdout + result.stderr
    assert result.returncode == 0, result.stdout + result.stderr
