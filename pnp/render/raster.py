"""PDF pages as pixels, with PDFium: the one rasteriser behind the PNG faces, the exports' face
images and the live preview's pages, so all three show the PDF's own pixels the same way."""

from __future__ import annotations

from collections.abc import Iterator

import pypdfium2 as pdfium
from PIL import Image


def pdf_pages(pdf: bytes, dpi: float) -> Iterator[Image.Image]:
    """Each page of ``pdf`` in order, as an RGB image at ``dpi`` on white paper."""
    document = pdfium.PdfDocument(pdf)
    try:
        for page in document:
            yield page.render(scale=dpi / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
    finally:
        document.close()
