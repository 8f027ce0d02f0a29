"""PDFs written inside remembered_deflates deflate each distinct stream once and are the bytes
reportlab writes on its own."""

from __future__ import annotations

import io
import zlib

import pytest
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pnp.render.deflation import DeflateMemo, install_filter, remembered_deflates


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The filter in reportlab's place for this test alone (the command line installs it for
    its whole process)."""
    monkeypatch.setattr(pdfdoc, "PDFZCompress", pdfdoc.PDFZCompress)
    install_filter()


def _pdf(pages: int) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=1)
    for page in range(pages):
        canvas.drawString(72, 720, f"page {page} " + "x" * page)
        canvas.rect(72, 72, 100 + page, 50, fill=1)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_each_distinct_stream_is_deflated_once_and_the_bytes_are_reportlabs(installed: None) -> None:
    plain = _pdf(3)
    assert _pdf(3) == plain
    memo = DeflateMemo()
    with remembered_deflates(memo):
        assert _pdf(3) == plain
        first = memo.made
        assert first >= 3  # a stream a page at least
        assert _pdf(3) == plain
        assert memo.made == first, "the same PDF again deflates nothing"
        bigger = _pdf(4)
    assert memo.made == first + 1  # the fourth page alone is new
    assert bigger == _pdf(4), "outside the block reportlab deflates as before"
    assert memo.made == first + 1


def test_the_memo_holds_at_most_its_limit_dropping_the_longest_unused_first() -> None:
    blocks = [bytes([n]) * 50_000 + bytes(range(256)) * n for n in range(1, 6)]
    sizes = [len(zlib.compress(block)) for block in blocks]
    memo = DeflateMemo(limit=sizes[0] + sizes[1] + sizes[2])
    for block in blocks[:3]:
        assert memo.deflate(block) == zlib.compress(block)
    assert memo.held == sum(sizes[:3])
    memo.deflate(blocks[0])  # used again: now the newest
    assert memo.made == 3
    memo.deflate(blocks[3])
    assert memo.held <= memo.limit
    memo.deflate(blocks[0])
    assert memo.made == 4, "the block used last was kept"
    memo.deflate(blocks[1])
    assert memo.made == 5, "the longest unused was dropped"


def test_without_the_filter_installed_the_block_remembers_nothing() -> None:
    plain = _pdf(2)
    memo = DeflateMemo()
    with remembered_deflates(memo):
        assert _pdf(2) == plain
    assert memo.made == 0 and memo.held == 0
