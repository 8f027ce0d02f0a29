"""Component faces kept between builds: a components PDF made again replays every face whose
inputs did not change instead of laying it out again, and its bytes are a cold build's.

A face is a form XObject (pnp.render.sheets). What drawing it leaves in the document is its
content stream, the forms it places (symbols, icons, pictures: each defined once per PDF by its
own code) and, for its text, two things reportlab numbers in the order of first use: each
font's glyph codes (subsets of 256) and each font's resource name (``/F3``). So a face is kept
as its content lines, the forms it places, and per font the code points it prints in the order
it first prints them, with the glyph codes and resource name they had.

Replaying a face first asks each font for those code points in that order (what drawing the
face would have asked first, so glyphs new to the document get the codes drawing would give
them) and names the fonts it named, in its order. When an edited card before it brought a new
glyph or took one away, the glyphs first printed after it have other numbers now: the bytes of
the kept strings are rewritten with them (and the font names). When one near the end of a
subset moved into the next (or back), the kept strings are instead read back into glyphs and
printed again as reportlab prints them, cut into runs by the subsets they fall in now
(pnp.render.glyphrenumber). Then, if every placed form is defined, the lines are written as
the form. If not (a form is defined by this very face, a line is not one that module can read
back), the face is drawn as usual: the fonts were asked nothing drawing does not ask, in the
same order, so the document is as a cold build's.

A face is kept under a SHA-256 of everything its drawing reads (its component without the other
cards, its card, its layouts, geometry, the game's tables, symbols, icons and pictures, the
fonts, the script and ink; see :class:`FaceKeeper`), in an entry per document, with pnp's
fingerprint (code and libraries) in the entry's name. A face whose drawing reported a problem
(a missing glyph, an overflow) or used anything this module does not replay (a font other than
the family's, transparency, a colour space) is not kept. The disk cache off
(``PNP_CACHE_DIR=``), nothing is kept or replayed.

A page of a components sheet (pnp.render.sheetpage) is kept and replayed the same way, in the
same entry: its content, the face forms it places and the text of its label and rulers, under a
SHA-256 of what its drawing reads (the sheet's plan, the side, the back's offset, the names of
the faces placed, the label, the furniture, and the faces' context). A face edited keeps its
form's name, so only a page whose label or pieces changed is drawn again.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import logging
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import field
from pathlib import PurePath
from typing import Any

from reportlab.pdfbase.pdfdoc import PDFFormXObject, xObjectName
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnp.core import diskcache
from pnp.core.fingerprint import pnp_fingerprint
from pnp.core.records import record
from pnp.render.glyphrenumber import FontUse, renumbered
from pnp.render.pdfencoding import pdfdoc_bytes

log = logging.getLogger(__name__)

AREA = "faces"
FORMAT = 4
_MAX_ENTRY = 64 * 1024 * 1024
# A font as a content stream names it: ``/F3+0`` (a subset of a TrueType font) or ``/F1``.
_FONT_RESOURCE = re.compile(r"/(F\d+)\b")


@record
class KeptForm:
    """A form the face was first to place and defined while it was drawn (a symbol's)."""

    name: str
    box: tuple[float, float, float, float]
    content: str  # its content after the canvas's preamble


@record
class FaceRecord:
    lines: tuple[str, ...]  # the form's content, as the canvas collected it
    forms: tuple[str, ...]  # the forms it places, in order
    fonts: tuple[FontUse, ...]
    named: tuple[str, ...]  # the fonts the face was first to name, in that order
    defines: tuple[KeptForm, ...] = ()  # in the order they were defined
    tally: int = 0  # a sheet page's: the rulers its drawing placed, which the build's log reports
    # The PDF version its drawing asked the document for (reportlab asks 1.4 whenever a colour
    # with an alpha is set, even an opaque one); () when it asked for none.
    version: tuple[int, ...] = ()
    # The record as the entry it was read from wrote it (empty for a face drawn in this
    # process): an entry written again copies it rather than making its JSON anew.
    row: bytes = field(default=b"", compare=False, repr=False)


class Uncacheable(Exception):
    """A face input this module cannot reduce to a stable digest."""


_session: ContextVar[diskcache.Rendering[str, FaceRecord] | None] = ContextVar("pnp_face_session", default=None)


@contextmanager
def kept_faces(what: str) -> Iterator[None]:
    """Faces drawn inside the block are replayed from, and after a block that ended without an
    exception kept in, the entry for ``what`` (e.g. ``tisigui/zh-Hant/components``)."""
    with diskcache.rendering(_session, _entry_name(what), _load, _store):
        yield


def _entry_name(what: str) -> str | None:
    if diskcache.root() is None:
        return None
    key = "\0".join([AREA, str(FORMAT), pnp_fingerprint(), what])
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


class _Tape(dict[int, int]):
    """A font's glyph assignments in one document (reportlab's ``state.assignments``) that
    notes every code point reportlab looks up while a face is recorded: reportlab looks each
    one up before it prints or numbers it."""

    tape: dict[int, None] | None = None

    def __contains__(self, code: object) -> bool:
        if self.tape is not None and isinstance(code, int):
            self.tape.setdefault(code)
        return super().__contains__(code)


def _state(font: TTFont, canvas: Canvas) -> Any:
    return font.state.get(canvas._doc)


# Digests of values many faces share, by identity and reduction, for every document the process
# draws: both scripts of a game place the same sheet plans (pnp.render.keptplans). Each is kept
# with its value, so no id is reused while it is remembered; all are forgotten at the limit (a
# long `pnp serve` draws new values at every save).
_shared_digests: dict[tuple[int, Callable[[Any], Any]], tuple[Any, str]] = {}
_SHARED_LIMIT = 4096


class FaceKeeper:
    """Keeps and replays the faces of one canvas inside :func:`kept_faces`.

    ``context`` is everything that every face of the canvas may read besides its own
    component, card and layouts (made by :func:`digest`); ``fonts`` the reportlab names of the
    faces its text may print in. A face that defines forms while it is drawn is kept only when
    each is ``definable`` (a form of plain vector content, whose owner is told by ``defined``
    when replay defines it).
    """

    def __init__(self, canvas: Canvas, session: diskcache.Rendering[str, FaceRecord], context: str,
                 fonts: Sequence[str], definable: Callable[[str], bool], defined: Callable[[str], None]) -> None:
        self.canvas = canvas
        self.definable = definable
        self.defined = defined
        self.session = session
        self.context = context
        self.fonts = {name: font for name in dict.fromkeys(fonts)
                      if isinstance(font := getFont(name), TTFont)}
        self._recording: tuple[dict[str, dict[int, None]], frozenset[str], int, int, Any] | None = None
        # The document's version before anything was drawn: a drawing that leaves it there asked
        # for none, whatever drawing before it asked.
        self._first_version = canvas._doc._pdfVersion

    def key(self, name: str, component: Any, card: Any, layouts: Sequence[Any], *rest: Any) -> str | None:
        """The face's key: ``component`` is taken without its cards (a card's edit must not
        change its neighbours' keys), ``layouts`` are those it may draw."""
        try:
            shared = [self._shared(component, _without_cards), *(self._shared(layout, _same) for layout in layouts)]
            return digest((self.context, name, shared, card, rest))
        except Uncacheable as exc:
            log.debug("face not kept: %s", exc)
            return None

    def _shared(self, value: Any, reduced: Callable[[Any], Any]) -> str:
        """The digest of ``reduced(value)``, made once per ``value`` (a component, layout or sheet
        plan many faces and pages share) in the process: see :data:`_shared_digests`."""
        memo = (id(value), reduced)
        known = _shared_digests.get(memo)
        if known is None or known[0] is not value:
            if len(_shared_digests) >= _SHARED_LIMIT:
                _shared_digests.clear()
            known = _shared_digests[memo] = (value, digest(reduced(value)))
        return known[1]

    def page_key(self, plan: Any, *rest: Any) -> str | None:
        """The key of the sheet page about to be drawn, ``plan`` (its sheet's, digested once for
        both sides) and ``rest`` being everything its drawing reads besides :attr:`context`;
        None when the page already holds drawing of its own (its record would not be the page's
        alone) or a part has no stable digest."""
        if self.canvas._code or self.canvas._formsinuse:
            return None
        try:
            return digest((self.context, "page", self._shared(plan, _same), rest))
        except Uncacheable as exc:
            log.debug("page not kept: %s", exc)
            return None

    def replay(self, key: str, name: str, box: tuple[float, float, float, float]) -> bool:
        """Write the face kept under ``key`` as form ``name``; False when there is none or it
        does not fit this document (then draw the face)."""
        record = self.session.asked.get(key) or self.session.known.get(key)
        if record is None:
            return False
        canvas = self.canvas
        doc = canvas._doc
        brought = {form.name for form in record.defines if not doc.hasForm(form.name)}
        lines = self._fitted(record, brought)
        if lines is None:
            return False
        for form in record.defines:
            if form.name in brought:  # defined as drawing the face would have defined it
                canvas.beginForm(form.name, *form.box)
                canvas._code.append(form.content)
                canvas.endForm()
                self.defined(form.name)
        canvas.beginForm(name, *box)
        canvas._formsinuse.extend(record.forms)
        canvas.endForm()
        # The stream endForm makes of the preamble and the lines, encoded without reportlab's
        # PDFDocEncoding codec (a third of a replay's time) where ASCII gives the same bytes.
        doc.idToObject[xObjectName(name)].stream = pdfdoc_bytes("\n".join([canvas._preamble, *lines]))
        self._ask_version(record)
        self.session.asked[key] = record
        return True

    def replay_page(self, key: str) -> FaceRecord | None:
        """Write the sheet page kept under ``key`` (from :meth:`page_key`) onto the canvas's
        page, which the caller then shows; None when there is none or it does not fit this
        document (then draw the page)."""
        record = self.session.asked.get(key) or self.session.known.get(key)
        if record is None or record.defines:
            return None
        lines = self._fitted(record, set())
        if lines is None:
            return None
        self.canvas._code.extend(lines)
        self.canvas._formsinuse.extend(record.forms)
        self._ask_version(record)
        self.session.asked[key] = record
        return record

    def _ask_version(self, record: FaceRecord) -> None:
        doc = self.canvas._doc
        if record.version:
            doc._pdfVersion = max(doc._pdfVersion, record.version)

    def _fitted(self, record: FaceRecord, brought: set[str]) -> Sequence[str] | None:
        """The kept lines with this document's glyph codes and font names, its fonts asked for
        the kept text as drawing would have asked; None when the record does not fit here."""
        canvas = self.canvas
        doc = canvas._doc
        if not all(doc.hasForm(form) or form in brought for form in record.forms) or \
                not all(use.font in self.fonts for use in record.fonts):
            return None
        # Fonts are named in the order a face first prints in them: a font still unnamed here
        # that the kept face found named would be named by drawing in an order not kept.
        for use in record.fonts:
            state = _state(self.fonts[use.font], canvas)
            if (state is None or state.internalName is None) and use.font not in record.named:
                return None
        for use in record.fonts:
            self.fonts[use.font].splitString("".join(map(chr, use.codes)), doc)
        for font in record.named:
            state = _state(self.fonts[font], canvas)
            if state is not None and state.internalName is None and state.subsets:
                self.fonts[font].getSubsetInternalName(0, doc)
        return renumbered(record.lines, record.fonts,
                          {use.font: _state(self.fonts[use.font], canvas) for use in record.fonts})

    def start(self) -> None:
        """Note what the face drawn next uses (call right after its ``beginForm``; for a sheet
        page, right after :meth:`page_key`)."""
        doc = self.canvas._doc
        tapes: dict[str, dict[int, None]] = {}
        fresh = []
        for name, font in self.fonts.items():
            state = _state(font, self.canvas)
            if state is None:
                fresh.append(name)
                continue
            if not isinstance(state.assignments, _Tape):
                state.assignments = _Tape(state.assignments)
            tapes[name] = state.assignments.tape = {}
        self._recording = tapes, frozenset(fresh), len(doc.fontMapping), len(doc.idToObject), doc._pdfVersion
        doc._pdfVersion = self._first_version

    def finish(self, key: str, problems_before: int, problems_after: int, tally: int = 0) -> None:
        """Keep the face drawn since :meth:`start` (call right before its ``endForm``; for a
        sheet page, right before ``showPage``, with the ``tally`` its replay is to report)."""
        assert self._recording is not None
        tapes, fresh, names_before, objects_before, version_before = self._recording
        self._recording = None
        canvas = self.canvas
        doc = canvas._doc
        asked = doc._pdfVersion
        doc._pdfVersion = max(version_before, asked)
        uses = []
        for name, font in self.fonts.items():
            state = _state(font, canvas)
            if state is None:
                continue
            if name in fresh:
                codes = tuple(state.assignments)  # a document's first use of the font: all new
                state.assignments = _Tape(state.assignments)
            else:
                codes = tuple(tapes[name])
                state.assignments.tape = None
            if codes:
                # A code point the font lacks is printed as glyph 0 and numbered nothing.
                uses.append(FontUse(name, state.internalName or "", codes,
                                    tuple(state.assignments.get(code, 0) for code in codes)))
        named = tuple(list(doc.fontMapping)[names_before:])
        extgstate = canvas._extgstate.getState()
        lines = canvas._code
        # Every font the content names must be one whose glyphs were noted (a vertical text's
        # companion font, say, is not watched).
        if not all(isinstance(line, str) for line in lines) \
                or not set(_FONT_RESOURCE.findall(" ".join(lines))) <= {use.name for use in uses}:
            return
        if problems_after != problems_before or not all(font in self.fonts for font in named) \
                or any(not use.name for use in uses) or extgstate or canvas._colorsUsed \
                or canvas._shadingUsed or canvas._annotationrefs \
                or not all(isinstance(form, str) for form in canvas._formsinuse):
            return
        defines = self._defined_forms(list(doc.idToObject.items())[objects_before:])
        if defines is None:
            return
        self.session.asked[key] = FaceRecord(tuple(canvas._code), tuple(canvas._formsinuse), tuple(uses), named,
                                             defines, tally, () if asked == self._first_version else tuple(asked))

    def _defined_forms(self, added: list[tuple[str, Any]]) -> tuple[KeptForm, ...] | None:
        """What the face added to the document as forms replay can define again: each a
        ``definable`` form, its content plain (no resources: no fonts, forms, transparency,
        colour spaces); None when anything else was added."""
        kept = []
        preamble = self.canvas._preamble + "\n"
        for internal, form in added:
            name = internal.removeprefix("FormXob.")
            if not (isinstance(form, PDFFormXObject) and name != internal and self.definable(name)
                    and form.XObjects is None and not form.ExtGState and not form._colorsUsed
                    and not form.Annots and isinstance(form.stream, bytes) and form.stream.isascii()):
                return None
            stream = form.stream.decode("ascii")
            if not stream.startswith(preamble) or _FONT_RESOURCE.search(stream):
                return None
            kept.append(KeptForm(name, (form.lowerx, form.lowery, form.upperx, form.uppery),
                                 stream.removeprefix(preamble)))
        return tuple(kept)


def _without_cards(component: Any) -> Any:
    return dataclasses.replace(component, cards=())


def _same(value: Any) -> Any:
    return value


def keeper(canvas: Canvas, context: Callable[[], Any], fonts: Sequence[str], definable: Callable[[str], bool],
           defined: Callable[[str], None]) -> FaceKeeper | None:
    """A :class:`FaceKeeper` for ``canvas`` inside :func:`kept_faces` (``context()`` is read
    only then), else None."""
    session = _session.get()
    if session is None:
        return None
    try:
        return FaceKeeper(canvas, session, digest(context()), fonts, definable, defined)
    except Uncacheable as exc:
        log.debug("faces not kept: %s", exc)
        return None


def digest(value: Any) -> str:
    """A SHA-256 of ``value`` that is the same in every process for equal inputs: dataclasses
    field by field (fields named ``where`` or ``…_where`` left out: they say where a value was
    written, which only messages show, and a face that reported a problem is never kept),
    mappings in order,
    bytes by their own SHA-256. Uncacheable for a value of any other kind."""
    parts: list[bytes] = []
    _feed(parts, value)
    return hashlib.sha256(b"".join(parts)).hexdigest()


_FIELDS: dict[type, tuple[tuple[str, bytes], ...]] = {}


def _fields_of(kind: type) -> tuple[tuple[str, bytes], ...]:
    """A dataclass type's fields that :func:`digest` reads, with the label it feeds each by."""
    known = _FIELDS.get(kind)
    if known is None:
        known = _FIELDS[kind] = tuple((item.name, item.name.encode() + b"=") for item in dataclasses.fields(kind)
                                      if not item.name.endswith("where"))
    return known


def _feed(out: list[bytes], value: Any) -> None:
    # The kinds a face's inputs are made of, tested by exact type first (every card and layout
    # is fed once per face, so this is most of a kept face's cost); subclasses and the rarer
    # kinds go to _feed_other, which feeds each as the exact kind would be fed.
    kind = type(value)
    if kind is str:
        out.append(b"s%d:" % len(value))
        out.append(value.encode("utf-8", "surrogatepass"))
    elif value is None or kind is bool or kind is int or kind is float:
        out.append(f"{kind.__name__}:{value!r};".encode())
    elif kind is tuple or kind is list:
        out.append(b"l[")
        for item in value:
            _feed(out, item)
        out.append(b"]")
    elif kind is dict:
        out.append(b"m{")
        for key, item in value.items():
            _feed(out, key)
            _feed(out, item)
        out.append(b"}")
    elif dataclasses.is_dataclass(kind):
        out.append(f"d:{kind.__qualname__}(".encode())
        for name, label in _fields_of(kind):
            out.append(label)
            _feed(out, getattr(value, name))
        out.append(b")")
    else:
        _feed_other(out, value)


def _feed_other(out: list[bytes], value: Any) -> None:
    if isinstance(value, str):
        out.append(b"s%d:" % len(value))
        out.append(value.encode("utf-8", "surrogatepass"))
    elif isinstance(value, bool | int | float):
        out.append(f"{type(value).__name__}:{value!r};".encode())
    elif isinstance(value, bytes):
        out.append(b"b:" + hashlib.sha256(value).digest())
    elif isinstance(value, enum.Enum):
        out.append(f"e:{type(value).__qualname__}.{value.name};".encode())
    elif isinstance(value, PurePath):
        _feed(out, str(value))
    elif isinstance(value, Mapping):
        out.append(b"m{")
        for key, item in value.items():
            _feed(out, key)
            _feed(out, item)
        out.append(b"}")
    elif isinstance(value, list | tuple):
        out.append(b"l[")
        for item in value:
            _feed(out, item)
        out.append(b"]")
    elif isinstance(value, set | frozenset):
        out.append(b"f{" + b"".join(sorted(bytes.fromhex(digest(item)) for item in value)) + b"}")
    else:
        raise Uncacheable(f"a {type(value).__name__}")


def _load(name: str) -> dict[str, FaceRecord]:
    payload = diskcache.read(AREA, name, _MAX_ENTRY)
    if payload is None:
        return {}
    try:
        known = {}
        for line in payload.split(b"\n") if payload else ():
            key, tab, row = line.partition(b"\t")
            if not tab:
                raise ValueError("a face without its key")
            lines, forms, fonts, named, defines, tally, version = json.loads(row)
            if type(tally) is not int or not all(type(part) is int for part in version):
                raise ValueError("a tally or a version that is not whole numbers")
            known[key.decode("ascii")] = FaceRecord(
                tuple(lines), tuple(forms),
                tuple(FontUse(font, internal, tuple(codes), tuple(glyphs)) for font, internal, codes, glyphs in fonts),
                tuple(named),
                tuple(KeptForm(name, (box[0], box[1], box[2], box[3]), content) for name, box, content in defines),
                tally, tuple(version), row)
        return known
    except (ValueError, TypeError) as exc:
        log.debug("face cache entry %s unusable: %s", name, exc)
        return {}


def _store(name: str, faces: dict[str, FaceRecord]) -> None:
    # A face a line: its key, a tab, its record as JSON (which writes a newline in a string as
    # an escape, never as it is).
    payload = b"\n".join(key.encode("ascii") + b"\t" + (record.row or _row(record)) for key, record in faces.items())
    if len(payload) <= _MAX_ENTRY:
        diskcache.write(AREA, name, payload)


def _row(record: FaceRecord) -> bytes:
    return json.dumps([record.lines, record.forms,
                       [[use.font, use.name, use.codes, use.glyphs] for use in record.fonts], record.named,
                       [[form.name, form.box, form.content] for form in record.defines], record.tally,
                       record.version],
                      ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
