"""Fitted text and set lines kept between builds, so a card edit fits again only the text that
changed, and a book made again sets again only the paragraphs that changed.

:func:`pnp.text.shrink.fit_text` finds the largest size at which a text fits its box and
remembers it for the process. A card edit starts a new process that re-renders the game's
components.pdf, whose several hundred labels were all fitted by the build before, and fitting
them again was about a tenth of that build. Inside :func:`remembered` (one game's components
in one script), :func:`fit_text` answers from pnp's disk cache what the last rendering of the
same components asked, and fits the rest. A book's paragraphs are set the same way
(:func:`set_lines`, inside :func:`remembered` for one book in one script): breaking them into
lines was a sixth of a cold build, and a layout edit that redraws a rulebook's card figures
changes none of its text.

An entry holds exactly the fits and settings its last rendering asked for (an edited card's
old text leaves with it), as JSON signed by :mod:`pnp.core.diskcache`. It is named by what an answer
depends on besides the arguments of each fit: pnp's fingerprint (its own code, and the
versions of reportlab, which measures, and ICU, which finds the line breaks) and the SHA-256
of the family's two font files; fits asked with another measure are not kept.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from pnp.core import diskcache
from pnp.core.fingerprint import pnp_fingerprint
from pnp.text import setting, shrink
from pnp.text.fonts import FontFamily, kern_for, measure_for, squeeze_for
from pnp.text.linetypes import Kern, Measure, Run, SetLine, Squeeze
from pnp.text.shrink import Fit

log = logging.getLogger(__name__)

AREA = "fits"
FORMAT = 3
_MAX_ENTRY = 8 * 1024 * 1024

# (runs as (text, bold) pairs, or (text, bold, mark, colour, icon) for rich text, width,
# height, size, min_size, leading_ratio, step, squeezed,
# kerned): the last two say whether the family's squeeze and kern set the lines.
Key = tuple[Any, ...]
# (runs as for a fit, width, size, squeezed, kerned)
LinesKey = tuple[Any, ...]


class _Session:
    """One document's fits against its cache entry: what the entry held (``known``) and what
    the document asked for. A holder, so a plain class (docs/architecture.md, "Start-up")."""

    def __init__(self, measure: Measure, squeeze: Squeeze, kern: Kern, known: dict[Key, Fit | None],
                 known_lines: dict[LinesKey, tuple[SetLine, ...]]) -> None:
        self.measure = measure
        self.squeeze = squeeze
        self.kern = kern
        self.known = known
        self.known_lines = known_lines
        self.asked: dict[Key, Fit | None] = {}
        self.asked_lines: dict[LinesKey, tuple[SetLine, ...]] = {}

    def changed(self) -> bool:
        return self.asked.keys() != self.known.keys() or self.asked_lines.keys() != self.known_lines.keys()


_session: ContextVar[_Session | None] = ContextVar("pnp_fit_session", default=None)


def _session_for(measure: Measure, squeeze: Squeeze | None, kern: Kern | None) -> _Session | None:
    """The block's session when the text is measured with its fonts' own measure (and
    squeeze and kern, where given); None outside :func:`remembered` or for other measures."""
    session = _session.get()
    if (session is None or measure is not session.measure or squeeze not in (None, session.squeeze)
            or kern not in (None, session.kern)):
        return None
    return session


def fit_text(runs: Sequence[Run], width: float, height: float, size: float, min_size: float,
             measure: Measure, leading_ratio: float = 1.3, step: float = 0.25,
             squeeze: Squeeze | None = None, kern: Kern | None = None) -> Fit | None:
    """:func:`pnp.text.shrink.fit_text`, answered from the disk cache inside :func:`remembered`."""
    session = _session_for(measure, squeeze, kern)
    if session is None:
        return shrink.fit_text(runs, width, height, size, min_size, measure, leading_ratio, step,
                               squeeze, kern)
    key = (tuple(_run_fields(run) for run in runs), width, height, size, min_size, leading_ratio, step,
           squeeze is not None, kern is not None)
    if key in session.asked:
        return session.asked[key]
    if key in session.known:
        fit = session.known[key]
    else:
        fit = shrink.fit_text(runs, width, height, size, min_size, measure, leading_ratio, step,
                              squeeze, kern)
    session.asked[key] = fit
    return fit


def set_lines(runs: Sequence[Run], width: float, size: float, measure: Measure,
              squeeze: Squeeze | None = None, kern: Kern | None = None) -> tuple[SetLine, ...]:
    """:func:`pnp.text.setting.set_lines`, answered from the disk cache inside :func:`remembered`."""
    session = _session_for(measure, squeeze, kern)
    if session is None:
        return tuple(setting.set_lines(runs, width, size, measure, squeeze, kern=kern))
    key = _lines_key(runs, width, size, squeeze, kern)
    lines = session.asked_lines.get(key)
    if lines is None:
        lines = session.known_lines.get(key)
        if lines is None:
            lines = tuple(setting.set_lines(runs, width, size, measure, squeeze, kern=kern))
        session.asked_lines[key] = lines
    return lines


def note_lines(runs: Sequence[Run], width: float, size: float, measure: Measure,
               squeeze: Squeeze | None, kern: Kern | None, lines: tuple[SetLine, ...]) -> None:
    """Inside :func:`remembered`, count ``lines`` (a setting a caller's own memo answered, as
    :func:`set_lines` would) among the settings the block asked for, so the entry keeps them."""
    session = _session_for(measure, squeeze, kern)
    if session is not None:
        session.asked_lines.setdefault(_lines_key(runs, width, size, squeeze, kern), lines)


def _lines_key(runs: Sequence[Run], width: float, size: float, squeeze: Squeeze | None,
               kern: Kern | None) -> Any:
    return (tuple(_run_fields(run) for run in runs), width, size, squeeze is not None, kern is not None)


@contextmanager
def remembered(fonts: FontFamily, what: str) -> Iterator[None]:
    """Fits and settings of ``fonts``' measure inside the block come from, and after a block
    that ended without an exception go to, the entry for ``what`` (e.g.
    ``tisigui/zh-Hant/components``)."""
    name = _entry_name(fonts, what)
    fits, settings = _load(name) if name else ({}, {})
    session = _Session(measure_for(fonts), squeeze_for(fonts), kern_for(fonts), fits, settings)
    token = _session.set(session)
    try:
        yield
    finally:
        _session.reset(token)
    if name and session.changed():
        _store(name, session.asked, session.asked_lines)


def _entry_name(fonts: FontFamily, what: str) -> str | None:
    if diskcache.root() is None:
        return None
    try:
        faces = [diskcache.file_sha256(face.path) for face in (fonts.regular, fonts.bold)]
    except OSError:
        return None
    key = "\0".join([AREA, str(FORMAT), pnp_fingerprint(), *faces, what])
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


def _run_fields(run: Run) -> tuple[Any, ...]:
    """A run as its key and its JSON keep it: (text, bold), and its label, colour and icon
    when it has any (rich text)."""
    if run.mark or run.colour is not None or run.icon is not None:
        return (run.text, run.bold, run.mark, run.colour, run.icon)
    return (run.text, run.bold)


def _run_of(fields: Any) -> Run:
    fields = tuple(fields)
    if len(fields) not in (2, 5) or not isinstance(fields[0], str) or not all(
            isinstance(flag, bool) for flag in fields[1:3]) or not all(
            value is None or isinstance(value, str) for value in fields[3:]):
        raise ValueError("not a fit's run")
    return Run(*fields)


def _encode_lines(lines: Sequence[SetLine]) -> Any:
    return [[[list(_run_fields(run)) for run in line.runs], line.width, line.squeeze, line.last] for line in lines]


def _decode_lines(value: Any) -> tuple[SetLine, ...]:
    return tuple(SetLine(tuple(_run_of(run) for run in runs), width, squeeze, last)
                 for runs, width, squeeze, last in value)


def _encode_fit(fit: Fit | None) -> Any:
    if fit is None:
        return None
    return [fit.size, fit.leading, _encode_lines(fit.setting)]


def _decode_fit(value: Any) -> Fit | None:
    if value is None:
        return None
    size, leading, lines = value
    return Fit(size, leading, _decode_lines(lines))


def _decode_key(value: Any) -> Key:
    return _decode_runs_key(value, 6, "a fit's key")


def _decode_lines_key(value: Any) -> LinesKey:
    return _decode_runs_key(value, 2, "a setting's key")


def _decode_runs_key(value: Any, count: int, what: str) -> tuple[Any, ...]:
    """A key read back from JSON: the runs, ``count`` numbers, then the two flags (squeeze,
    kern); anything else raises ValueError, which makes the entry unusable."""
    runs, *rest = value
    numbers, flags = rest[:count], rest[count:]
    if (len(numbers) != count or not all(isinstance(n, int | float) and not isinstance(n, bool) for n in numbers)
            or len(flags) != 2 or not all(isinstance(f, bool) for f in flags)):
        raise ValueError(f"not {what}")
    return (tuple(_run_fields(_run_of(run)) for run in runs), *numbers, *flags)


Entry = tuple[dict[Key, Fit | None], dict[LinesKey, tuple[SetLine, ...]]]

# Entries decoded lately, by the SHA-256 of their payload: a process that builds again and
# again (pnp serve, --watch) reads back each round the entries it wrote the round before, and
# decoding them was most of what reading cost. Their dictionaries are only ever read.
_DECODED: OrderedDict[bytes, Entry] = OrderedDict()
_DECODED_CAP = 16
_decoded_lock = threading.Lock()


def _remember(payload: bytes, entry: Entry) -> None:
    with _decoded_lock:
        _DECODED[hashlib.sha256(payload).digest()] = entry
        while len(_DECODED) > _DECODED_CAP:
            _DECODED.popitem(last=False)


def _load(name: str) -> Entry:
    payload = diskcache.read(AREA, name, _MAX_ENTRY)
    if payload is None:
        return {}, {}
    with _decoded_lock:
        known = _DECODED.get(digest := hashlib.sha256(payload).digest())
        if known is not None:
            _DECODED.move_to_end(digest)
            return known
    try:
        entry = json.loads(payload)
        decoded = ({_decode_key(key): _decode_fit(fit) for key, fit in entry["fits"]},
                   {_decode_lines_key(key): _decode_lines(lines) for key, lines in entry["lines"]})
    except (ValueError, TypeError, KeyError) as exc:
        log.debug("fit cache entry %s unusable: %s", name, exc)
        return {}, {}
    _remember(payload, decoded)
    return decoded


def _store(name: str, fits: dict[Key, Fit | None], settings: dict[LinesKey, tuple[SetLine, ...]]) -> None:
    entry = {"fits": [[[[list(pair) for pair in key[0]], *key[1:]], _encode_fit(fit)] for key, fit in fits.items()],
             "lines": [[[[list(pair) for pair in key[0]], *key[1:]], _encode_lines(lines)]
                       for key, lines in settings.items()]}
    payload = json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(payload) <= _MAX_ENTRY:
        diskcache.write(AREA, name, payload)
        _remember(payload, (fits, settings))  # what reading the entry back would decode
