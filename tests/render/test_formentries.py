"""Forms whose box, matrix and resources are formatted once per document
(pnp.render.formentries) are written as reportlab writes them on its own."""

from __future__ import annotations

import io
import re

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pnp.render.formentries import format_shared_entries


def _pdf(shared: bool) -> tuple[bytes, Canvas]:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=1)
    canvas.beginForm("mark", 0, 0, 10, 10)
    canvas.circle(5, 5, 4)
    canvas.endForm()
    canvas.beginForm("dot", 0, 0, 10.0, 10.0)  # the same box in floats: written the same
    canvas.circle(5, 5, 1)
    canvas.endForm()
    boxes = [(0, 0, 100, 50), (0, 0, 100, 50), (-1.5, -1.5, 101.5, 51.5), (0, 0, 100, 50)]
    places = [["mark"], ["mark"], ["mark", "dot"], []]
    for index, (box, placed) in enumerate(zip(boxes, places, strict=True)):
        canvas.beginForm(f"face-{index}", *box)
        canvas.drawString(10, 10, f"face {index}")
        for name in placed:
            canvas.doForm(name)
        canvas.endForm()
    for index in range(len(boxes)):
        canvas.doForm(f"face-{index}")
        canvas.showPage()
    if shared:
        format_shared_entries(canvas)
    canvas.save()
    return buffer.getvalue(), canvas


def test_the_pdf_is_the_one_reportlab_writes_and_equal_entries_are_made_once() -> None:
    plain, _ = _pdf(shared=False)
    written, canvas = _pdf(shared=True)
    assert written == plain
    assert len(re.findall(rb"/FormXob\.mark \d+ 0 R", plain)) == 3  # the faces that place it, in the file
    forms = {name.removeprefix("FormXob."): form for name, form in canvas._doc.idToObject.items()
             if isinstance(form, pdfdoc.PDFFormXObject)}
    assert forms["face-0"].Resources is forms["face-1"].Resources  # both place the mark alone
    assert forms["face-0"].Resources is not forms["face-2"].Resources
    assert forms["face-0"].BBox is forms["face-3"].BBox
    assert forms["mark"].BBox is not forms["dot"].BBox, "10 and 10.0 are kept apart"
    assert canvas._doc.getFormBBox("face-2") == [-1.5, -1.5, 101.5, 51.5]


def test_a_form_whose_entries_are_set_already_is_left_alone() -> None:
    canvas = Canvas(io.BytesIO(), invariant=1)
    canvas.beginForm("face", 0, 0, 10, 10)
    canvas.endForm()
    form = canvas._doc.idToObject["FormXob.face"]
    box = form.BBox = pdfdoc.PDFArray([0, 0, 20, 20])
    format_shared_entries(canvas)
    assert form.BBox is box and form.Resources is None
