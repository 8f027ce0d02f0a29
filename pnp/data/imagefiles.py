"""Reading a picture file a layout names, refusing what is not safe to draw.

A game is data from anyone, so every picture is read as hostile until proven otherwise:

- its name is a path under the game's ``art/`` folder with no ``..``, and the file it names,
  symlinks followed, is still inside that folder;
- a file larger than :data:`~pnp.core.limits.MAX_IMAGE_BYTES` is refused before it is read;
- a raster's size is read from its header and refused above
  :data:`~pnp.core.limits.MAX_IMAGE_PIXELS` before a pixel is decoded (Pillow's own
  decompression-bomb check, raised as an error here, stops what is larger still); then it is
  decoded in full, so a truncated or corrupt file fails here and not halfway through a build;
- its format is the one its extension claims;
- an SVG is parsed with defusedxml first (no DTD, so no entity expansion and no external
  entity), may hold no reference outside itself (``href`` only to ``#id``, no ``url()`` but
  ``url(#id)``, no ``@import``), no ``<text>`` (its face would not be embedded), at most
  :data:`~pnp.core.limits.MAX_SVG_ELEMENTS` elements;
  only then does svglib read it.

Each check fails with a sentence (:class:`ImageFileError`); the loader puts it at the layout
field or card field that names the file.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import re
import warnings
from collections.abc import Callable, Collection, Iterator
from contextvars import ContextVar
from pathlib import Path, PurePosixPath
from typing import Any

from pnp.core import files
from pnp.core.limits import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_SVG_BYTES, MAX_SVG_ELEMENTS
from pnp.data.model import ImageFile

ART_DIR = "art"
FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP", ".svg": "SVG"}
_NAME = re.compile(r"^art/[^\\\x00]+\.(?:png|jpe?g|webp|svg)$", re.IGNORECASE)
_URL = re.compile(r"url\(\s*['\"]?([^'\")\s]*)", re.IGNORECASE)


class ImageFileError(ValueError):
    """A picture that cannot be used, and why, in a sentence."""


def name_error(name: str) -> str | None:
    """None when ``name`` is a picture's name as a layout may write it, else why not."""
    if not _NAME.fullmatch(name):
        return (f"expected a picture in the game's art/ folder, e.g. 'art/ghost.png' (PNG, JPEG, WebP "
                f"or SVG), got {name!r}")
    if any(part in ("", ".", "..") for part in PurePosixPath(name).parts) or "//" in name:
        return f"a picture's path may not hold '..', '.' or an empty part, got {name!r}"
    return None


def read_image_file(game_dir: Path, name: str) -> ImageFile:
    """The picture ``name`` (``art/…``) of the game at ``game_dir``, checked (see the module)."""
    why = name_error(name)
    if why:
        raise ImageFileError(why)
    art = (game_dir / ART_DIR).resolve()
    path = (game_dir / name).resolve()
    if not path.is_relative_to(art):
        raise ImageFileError(f"{name} leads outside the game's art/ folder (to {path}): a game may "
                             "only use pictures of its own")
    if not path.is_file():
        raise ImageFileError(f"{name} not found in {game_dir}")
    size = path.stat().st_size
    fmt = FORMATS[PurePosixPath(name).suffix.lower()]
    limit = MAX_SVG_BYTES if fmt == "SVG" else MAX_IMAGE_BYTES
    if size > limit:
        raise ImageFileError(f"{name} is {size:,} bytes, more than the limit of {limit:,} for a picture")
    data = files.read_bytes(path, limit=limit)
    width, height = svg_size(name, data) if fmt == "SVG" else _raster_size(name, data, fmt)
    return ImageFile(name, str(path), fmt, width, height, hashlib.sha256(data).hexdigest())


def _raster_size(name: str, data: bytes, fmt: str) -> tuple[float, float]:
    from PIL import Image, UnidentifiedImageError

    with warnings.catch_warnings():
        # Pillow warns (and past twice its limit refuses) on its own; both are refusals here.
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(data), formats=("PNG", "JPEG", "WEBP")) as image:
                found = image.format
                width, height = image.size
                if found != fmt:
                    raise ImageFileError(f"{name} is not a {fmt} image: its content is {found}")
                if width * height > MAX_IMAGE_PIXELS:
                    raise ImageFileError(_too_large(name, width, height))
                image.load()
        except ImageFileError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ImageFileError(_too_large(name, *_claimed_size(exc))) from None
        except UnidentifiedImageError:
            raise ImageFileError(f"{name} is not a {fmt} image (not a picture Pillow can read)") from None
        except (OSError, SyntaxError, ValueError) as exc:
            raise ImageFileError(f"{name} is not a whole {fmt} image: {exc}") from None
    return float(width), float(height)


def _claimed_size(exc: Exception) -> tuple[int, int]:
    """Pillow's refusal names only the pixel count: the size is not known past it."""
    match = re.search(r"\((\d+) pixels\)", str(exc))
    return (int(match.group(1)), 1) if match else (0, 0)


def _too_large(name: str, width: int, height: int) -> str:
    size = f"{width:,} × {height:,} pixels" if height > 1 else f"{width:,} pixels"
    return (f"{name} is {size}, more than the limit of {MAX_IMAGE_PIXELS:,} pixels for a picture "
            "(a decompression bomb, or a picture far finer than print needs): scale it down")


def svg_size(name: str, data: bytes) -> tuple[float, float]:
    """The size (points) of an SVG that passed the guard, as svglib reads it."""
    drawing = svg_drawing(name, data)
    return float(drawing.width), float(drawing.height)


class KeptDrawings:
    """svglib's drawings of the SVGs read so far (pictures, and inline icons), by reader and the
    SHA-256 of their bytes (``picture:<hex>``), for a process that builds again and again (``pnp serve``, ``pnp build
    --watch``; see :func:`keeping`). Reading an SVG (the guard, then svglib's parse and its
    styles) costs far more than drawing it, and a build reads each one once per canvas: a
    picture when the game loads, then for the sheets and the book of each script. Bytes read
    before are checked and parsed once.

    Each drawing is kept pickled and a fresh copy is unpickled for each use: a caller may
    change the drawing it gets (the saver ink recolours it) without touching the kept one, and
    unpickling is some ten times quicker than a deep copy. The pickles are made here from
    svglib's own objects and never leave the process. ``parsed`` counts the SVGs read afresh.
    A holder, so a plain class (docs/architecture.md, "Start-up")."""

    def __init__(self) -> None:
        self.pickled: dict[str, bytes] = {}
        self.parsed = 0

    def keep_only(self, digests: Collection[str]) -> None:
        """Forget every drawing but those of ``digests`` (the SVGs the games use now)."""
        wanted = set(digests)
        for key in [key for key in self.pickled if key.partition(":")[2] not in wanted]:
            del self.pickled[key]


_KEPT: ContextVar[KeptDrawings | None] = ContextVar("kept_drawings", default=None)


@contextlib.contextmanager
def keeping(drawings: KeptDrawings) -> Iterator[KeptDrawings]:
    """Within the block (in this thread), SVGs are read through ``drawings``."""
    token = _KEPT.set(drawings)
    try:
        yield drawings
    finally:
        _KEPT.reset(token)


def svg_drawing(name: str, data: bytes) -> Any:
    """The svglib drawing of an SVG, after :func:`guard_svg`: a new object on every call."""
    return kept_svg("picture", data, lambda: _read_svg(name, data))


def kept_svg(reader: str, data: bytes, read: Callable[[], Any]) -> Any:
    """What ``read()`` makes of the SVG ``data`` (svglib's drawing of it): inside
    :func:`keeping`, taken from the kept drawings when the same ``reader`` read the same bytes
    before (a picture and an icon are read and checked differently), as a new object on every
    call either way."""
    kept = _KEPT.get()
    if kept is None:
        return read()
    import pickle  # only a process that keeps drawings (serve, --watch) needs it

    digest = f"{reader}:{hashlib.sha256(data).hexdigest()}"
    pickled = kept.pickled.get(digest)
    if pickled is None:
        # Read into a pickle and back like a kept one: every caller gets the same thing.
        pickled = kept.pickled[digest] = pickle.dumps(read(), protocol=pickle.HIGHEST_PROTOCOL)
        kept.parsed += 1
    return pickle.loads(pickled)  # made above, in this process: no file is ever unpickled


def _read_svg(name: str, data: bytes) -> Any:
    guard_svg(name, data)
    from svglib.svglib import svg2rlg

    try:
        drawing = svg2rlg(io.BytesIO(data))
    except Exception as exc:  # svglib raises what its parser and converters raise
        raise ImageFileError(f"{name} is not an SVG drawing svglib can read: {exc}") from None
    if drawing is None or not (drawing.width > 0 and drawing.height > 0):
        raise ImageFileError(f"{name} is not an SVG drawing with a size (width/height or viewBox)")
    return drawing


def guard_svg(name: str, data: bytes) -> None:
    """Refuse an SVG with a DTD, entities, external references or too many elements."""
    import defusedxml.ElementTree as SafeTree
    from defusedxml import DefusedXmlException

    try:
        root = SafeTree.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise ImageFileError(f"{name}: an SVG may not declare a DTD or entities ({type(exc).__name__}): "
                             "save it without a DOCTYPE") from None
    except Exception as exc:  # ElementTree.ParseError and what the expat layer raises
        raise ImageFileError(f"{name} is not an SVG (XML) file: {exc}") from None
    if not root.tag.endswith("svg"):
        raise ImageFileError(f"{name} is not an SVG file: its root element is {root.tag!r}")
    for count, element in enumerate(root.iter(), 1):
        if count > MAX_SVG_ELEMENTS:
            raise ImageFileError(f"{name} holds more than {MAX_SVG_ELEMENTS:,} elements, the limit for an SVG")
        if element.tag.rsplit("}", 1)[-1] == "text":
            raise ImageFileError(f"{name} holds text (<text>): convert it to paths in the drawing program; "
                                 "a picture's words would print in a face the PDF does not embed")
        for key, value in element.attrib.items():
            _check_reference(name, key, value)
        if element.tag.endswith("style") and element.text:
            _check_reference(name, "style", element.text)


def _check_reference(name: str, key: str, value: str) -> None:
    if key.rsplit("}", 1)[-1] == "href" and not value.startswith("#"):
        raise ImageFileError(f"{name} refers outside itself ({key.rsplit('}', 1)[-1]}={value!r}): an SVG "
                             "may only refer to its own parts (#id)")
    for target in _URL.findall(value):
        if not target.startswith("#"):
            raise ImageFileError(f"{name} refers outside itself (url({target})): an SVG may only refer to "
                                 "its own parts (url(#id))")
    if "@import" in value:
        raise ImageFileError(f"{name} imports a style sheet: an SVG may only use its own styles")


def art_files(game_dir: Path) -> list[Path]:
    """The files of a game's art/ folder: inputs of a build, so a picture redrawn rebuilds
    what shows it (the build record keeps each one's digest)."""
    art = game_dir / ART_DIR
    if not art.is_dir():
        return []
    return sorted(p for p in art.rglob("*") if p.is_file() and p.suffix.lower() in FORMATS)
