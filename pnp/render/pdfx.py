"""PDF/X-4 (ISO 15930-7) documents: a reportlab canvas that prints in a press's CMYK and
carries what the standard asks of a file besides its pages.

That is: every colour in the output intent's CMYK (:class:`~pnp.render.colour.CmykInk`), one
``GTS_PDFX`` output intent with the press profile embedded, XMP metadata naming the file
PDF/X-4 with a document and instance id, ``/Trapped /False`` in the Info dictionary and the
same title, dates and tools in both; the caller gives each page its TrimBox and BleedBox.
The dates are the game's release date, never the clock, so the same input gives the same
bytes.
"""

from __future__ import annotations

import datetime
import io
import uuid
from xml.sax.saxutils import escape

from reportlab import Version as REPORTLAB_VERSION
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream, PDFString, PDFZCompress
from reportlab.pdfgen.canvas import Canvas

from pnp.core.records import record
from pnp.render.colour import CmykInk

PDFX_VERSION = "PDF/X-4"
PDF_VERSION = (1, 6)  # PDF/X-4 is built on PDF 1.6
PRODUCER = f"pnp with ReportLab {REPORTLAB_VERSION}"
# Names this project's documents apart from every other's in their uuid5 ids.
ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://pnp.invalid/print-shop")


@record
class DocumentInfo:
    """What a PDF says about itself, in its Info dictionary and its XMP alike."""

    title: str
    author: str
    subject: str
    keywords: str
    creator: str  # the tool that made the content
    date: datetime.date  # creation and modification: the game's release date
    key: str  # names the document for its id: the same key, the same document
    version: str  # the game's version: a new version is a new instance of the document


def pdfx_canvas(buffer: io.BytesIO, info: DocumentInfo, ink: CmykInk, initial_font: str) -> Canvas:
    """A canvas writing a PDF/X-4 file for the press ``ink`` prints on into ``buffer``; draw
    the pages (each with its TrimBox) and save it."""
    press = ink.press
    canvas = Canvas(buffer, invariant=1, initialFontName=initial_font, pageCompression=1,
                    pdfVersion=PDF_VERSION, enforceColorSpace=ink)
    canvas.setTitle(info.title)
    canvas.setAuthor(info.author)
    canvas.setSubject(info.subject)
    canvas.setKeywords(info.keywords)
    canvas.setCreator(info.creator)
    canvas.setProducer(PRODUCER)
    stamp = f"D:{info.date:%Y%m%d}000000+00'00'"
    canvas.setDateFormatter(lambda *_: stamp)  # Info's CreationDate and ModDate (Trapped is /False already)
    canvas.setCatalogEntry("Metadata", PDFStream(
        PDFDictionary({"Type": PDFName("Metadata"), "Subtype": PDFName("XML")}), xmp_packet(info)))
    intent = PDFDictionary({
        "Type": PDFName("OutputIntent"),
        "S": PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": PDFString(press.identifier),
        "RegistryName": PDFString(press.registry),
        "OutputCondition": PDFString(press.condition),
        "Info": PDFString(press.identifier),
        # A stream is written as an object of its own and referred to from here.
        "DestOutputProfile": PDFStream(PDFDictionary({"N": 4}), press.profile_bytes(), filters=[PDFZCompress]),
    })
    # reportlab's catalog writes only the keys it knows, and OutputIntents is not one of them:
    # add it to this document's list.
    catalog = canvas._doc.Catalog
    catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]
    catalog.OutputIntents = PDFArray([intent])
    return canvas


def _uuid(*parts: str) -> str:
    return f"uuid:{uuid.uuid5(ID_NAMESPACE, chr(0).join(parts))}"


def xmp_packet(info: DocumentInfo) -> bytes:
    """The XMP metadata of a PDF/X-4 file: its identification and the Info dictionary's fields."""
    when = f"{info.date:%Y-%m-%d}T00:00:00+00:00"
    fields = {
        "title": escape(info.title), "author": escape(info.author), "subject": escape(info.subject),
        "keywords": escape(info.keywords), "creator": escape(info.creator), "producer": escape(PRODUCER),
        "when": when, "document": _uuid(info.key), "instance": _uuid(info.key, info.version),
        "version": escape(info.version), "pdfx": PDFX_VERSION,
    }
    text = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>{author}</rdf:li></rdf:Seq></dc:creator>
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">{subject}</rdf:li></rdf:Alt></dc:description>
   <xmp:CreateDate>{when}</xmp:CreateDate>
   <xmp:ModifyDate>{when}</xmp:ModifyDate>
   <xmp:MetadataDate>{when}</xmp:MetadataDate>
   <xmp:CreatorTool>{creator}</xmp:CreatorTool>
   <pdf:Producer>{producer}</pdf:Producer>
   <pdf:Keywords>{keywords}</pdf:Keywords>
   <pdf:Trapped>False</pdf:Trapped>
   <xmpMM:DocumentID>{document}</xmpMM:DocumentID>
   <xmpMM:InstanceID>{instance}</xmpMM:InstanceID>
   <xmpMM:VersionID>{version}</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdfxid:GTS_PDFXVersion>{pdfx}</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="r"?>
""".format(**fields)
    return text.encode("utf-8")
