"""A PDF's forms written with the entries they share formatted once.

reportlab writes each form XObject with its bounding box, its matrix and its resources (the
standard fonts, the procedure sets, the forms it places), and makes and formats these anew for
every form when the document is saved: a third of writing a components PDF's ~200 forms, most
of which share their size and what they place (a deck's faces, its backs). Right before a
canvas is saved, :func:`format_shared_entries` gives each form these entries as reportlab
formats them, made once per document for each distinct value: the bytes written are the same.

It reaches into reportlab below its public API (``PDFFormXObject``'s ``BBox``, ``Matrix``,
``Resources`` and ``XObjects``, which its ``format`` fills in when they are unset, and
``doc.idToObject``), so it leaves alone any form that has one of them set already or places
anything but forms by name, and the objects it sets keep what reportlab reads off them later
(a box's numbers).
"""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase import pdfdoc


class _FormattedArray(pdfdoc.PDFArray):  # type: ignore[misc]  # reportlab is untyped
    """An array that writes the bytes reportlab formatted for it once (its numbers stay readable)."""

    def __init__(self, sequence: list[Any], formatted: bytes) -> None:
        super().__init__(sequence)
        self.formatted = formatted

    def format(self, document: Any, IND: bytes = b"\n ") -> bytes:  # noqa: N803  # reportlab's name
        return self.formatted


class _Formatted(pdfdoc.PDFObject):  # type: ignore[misc]
    """A direct object that writes the bytes reportlab formatted for its value once."""

    def __init__(self, formatted: bytes) -> None:
        self.formatted = formatted

    def format(self, document: Any) -> bytes:
        return self.formatted


def _numbers_key(numbers: list[Any]) -> tuple[tuple[type, Any], ...] | None:
    """The numbers as a key that tells 1 from 1.0 (reportlab writes both as ``1``, but a key that
    merged them would rest on that); None for anything but int and float."""
    if not all(type(number) in (int, float) for number in numbers):
        return None
    return tuple((type(number), number) for number in numbers)


def format_shared_entries(canvas: Any) -> None:
    """Give the forms drawn on ``canvas`` their box, matrix and resources formatted once per
    distinct value (call right before ``save``)."""
    doc = canvas._doc
    arrays: dict[tuple[tuple[type, Any], ...], _FormattedArray] = {}
    resources: dict[tuple[bool, tuple[tuple[str, str], ...]], _Formatted] = {}

    def array(numbers: list[Any]) -> _FormattedArray | None:
        key = _numbers_key(numbers)
        if key is None:
            return None
        made = arrays.get(key)
        if made is None:
            made = arrays[key] = _FormattedArray(numbers, pdfdoc.PDFArray(numbers).format(doc))
        return made

    for form in doc.idToObject.values():
        if type(form) is not pdfdoc.PDFFormXObject or form.BBox or form.Matrix or form.Resources:
            continue
        if form.XObjects and type(form.XObjects) is not pdfdoc.PDFDictionary:
            continue
        places = form.XObjects.dict if form.XObjects else {}
        if not isinstance(places, dict) or \
                not all(type(ref) is pdfdoc.PDFObjectReference and type(ref.name) is str for ref in places.values()):
            continue
        box = array([form.lowerx, form.lowery, form.upperx, form.uppery])
        matrix = array([1, 0, 0, 1, 0, 0])  # what reportlab gives a form
        if box is None or matrix is None:
            continue
        key = (bool(form.hasImages), tuple((name, ref.name) for name, ref in places.items()))
        shared = resources.get(key)
        if shared is None:
            made = pdfdoc.PDFResourceDictionary()  # as PDFFormXObject.format makes it
            made.basicFonts()
            if form.hasImages:
                made.allProcs()
            else:
                made.basicProcs()
            if form.XObjects:
                made.XObject = form.XObjects
            shared = resources[key] = _Formatted(pdfdoc.format(made, doc))
        form.BBox, form.Matrix, form.Resources = box, matrix, shared
