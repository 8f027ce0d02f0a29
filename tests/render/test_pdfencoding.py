"""pnp.render.pdfencoding: the bytes reportlab's own encoding and names give, sooner."""

from __future__ import annotations

import io

import pytest
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pnp.render import pdfencoding
from pnp.render.pdfencoding import pdfdoc_bytes


@pytest.mark.parametrize("text", ["q 1 0 0 1 0 0 cm BT /F1+0 9 Tf 10 TL (A\\101) Tj ET Q\n0 g", "caf\u00e9 \u02d8",
                                  "\t\r\n\x7f", "\x17", "\x18", "\u4e00"])
def test_text_is_encoded_as_reportlabs_codec_encodes_it(text: str) -> None:
    try:
        expected = text.encode("extpdfdoc")
    except UnicodeError:  # a character PDFDocEncoding has no byte for: refused either way
        with pytest.raises(UnicodeError):
            pdfdoc_bytes(text)
        return
    assert pdfdoc_bytes(text) == expected
    assert pdfdoc_bytes(b"\x18 as it is") == b"\x18 as it is"


def test_every_character_encoded_as_ascii_is_one_the_codec_writes_so() -> None:
    for code in range(0x80):
        char = chr(code)
        try:
            expected = char.encode("extpdfdoc")
        except UnicodeError:
            continue
        assert pdfdoc_bytes(char) == expected


def _pdf() -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=1)
    canvas.setTitle("caf\u00e9 (draft)")
    for name in ("face-a", "face-\u00e9t\u00e9", "face-a#b"):  # a name reportlab escapes
        canvas.beginForm(name, 0, 0, 50, 20)
        canvas.drawString(5, 5, name)
        canvas.endForm()
        canvas.doForm(name)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_installed_reportlab_writes_the_same_pdf(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _pdf()
    monkeypatch.setattr(pdfdoc, "pdfdocEnc", pdfdoc.pdfdocEnc)  # restored after this test
    monkeypatch.setattr(pdfdoc, "PDFName", pdfdoc.PDFName)
    monkeypatch.setattr(pdfencoding, "_names", {})
    pdfencoding.install()
    assert pdfdoc.pdfdocEnc is pdfdoc_bytes
    assert _pdf() == plain
    assert "FormXob.face-\u00e9t\u00e9" in pdfencoding._names
    assert _pdf() == plain, "names remembered give the same bytes"
