"""The parts of an .xlsx workbook read as a stream of XML elements, with every byte counted.

A workbook is a zip of XML parts. Nothing in it is trusted: the sizes the zip declares are
checked before a part is opened and the bytes really unpacked are counted as they are read
(a part may claim less than it holds), and the XML is parsed by defusedxml with document
types refused outright, so an entity (billion laughs, an external file) never expands.
Elements are handed over one at a time and dropped once read: memory follows the budget,
not the file.
"""

from __future__ import annotations

import posixpath
import zipfile
from collections.abc import Iterator
from typing import IO
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
DOC_RELS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"

MAX_UNPACKED = 64 * 1024 * 1024  # every part pnp reads, together: a 1,000-card deck is a few MB
MAX_PARTS = 10_000  # files in the zip: a workbook has dozens


class WorkbookRefused(Exception):
    """The workbook breaks a limit or is not a workbook; ``reason`` says which, for the user."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Counted:
    """A part's stream that counts what it unpacks against the workbook's budget."""

    def __init__(self, stream: IO[bytes], budget: Budget, name: str) -> None:
        self.stream, self.budget, self.name = stream, budget, name

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(65536 if size < 0 or size > 65536 else size)
        self.budget.spend(len(data), self.name)
        return data


class Budget:
    """The bytes all parts of one workbook may unpack to, spent as they are read."""

    def __init__(self, limit: int = MAX_UNPACKED) -> None:
        self.left = limit
        self.limit = limit

    def spend(self, count: int, name: str) -> None:
        self.left -= count
        if self.left < 0:
            raise WorkbookRefused(f"its parts unpack to more than {self.limit // (1024 * 1024)} MiB "
                                  f"(stopped in {name}); a card spreadsheet is a few MB")


class Workbook:
    """An open .xlsx zip whose parts are read as XML events within one budget."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.archive = archive
        self.budget = Budget()
        infos = archive.infolist()
        if len(infos) > MAX_PARTS:
            raise WorkbookRefused(f"{len(infos):,} files inside; a workbook has dozens")
        declared = sum(info.file_size for info in infos)
        if declared > MAX_UNPACKED:
            raise WorkbookRefused(f"unpacks to {declared // (1024 * 1024)} MiB, more than the "
                                  f"{MAX_UNPACKED // (1024 * 1024)} MiB a card spreadsheet may")
        self.names = {info.filename for info in infos}

    def has(self, name: str) -> bool:
        return name in self.names

    def elements(self, name: str) -> Iterator[tuple[str, Element]]:
        """("start" | "end", element) for each element of the part, streamed; an element's
        text and children are complete at its "end". Raises WorkbookRefused for XML that is
        malformed or declares a document type (entities)."""
        if name not in self.names:
            raise WorkbookRefused(f"it has no part {name}")
        with self.archive.open(name) as raw:
            try:
                yield from iterparse(_Counted(raw, self.budget, name), events=("start", "end"),
                                     forbid_dtd=True, forbid_entities=True, forbid_external=True)
            except DefusedXmlException:
                raise WorkbookRefused(f"{name} declares a document type or entities, which no "
                                      "spreadsheet program writes") from None
            except ParseError as exc:
                raise WorkbookRefused(f"{name} is not well-formed XML ({exc})") from None
            except (zipfile.BadZipFile, EOFError, OSError) as exc:  # a damaged or truncated part
                raise WorkbookRefused(f"{name} cannot be unpacked ({exc})") from None


def relationship_targets(book: Workbook, part: str) -> dict[str, str]:
    """The part names a part's relationships point at, by id (``rId1`` → ``xl/worksheets/sheet1.xml``)."""
    folder, file = posixpath.split(part)
    rels = posixpath.join(folder, "_rels", file + ".rels")
    if not book.has(rels):
        return {}
    targets = {}
    for event, element in book.elements(rels):
        if event == "end" and element.tag == RELS + "Relationship":
            target = element.get("Target", "")
            name = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
            targets[element.get("Id", "")] = name
            if len(targets) > MAX_PARTS:
                raise WorkbookRefused(f"{rels} names more than {MAX_PARTS:,} parts")
    return targets


def text_of(element: Element) -> str:
    """A shared or inline string's text: its ``<t>`` runs, without phonetic guides (``<rPh>``)."""
    if element.tag == MAIN + "t":
        return element.text or ""
    return "".join(text_of(child) for child in element if child.tag in (MAIN + "t", MAIN + "r"))
