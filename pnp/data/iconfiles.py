"""The inline icons of a game: ``card_data/<slug>/icons/NAME.svg`` or ``NAME.png``, which card
text and the books print where they write ``:NAME:`` (:mod:`pnp.data.markup`).

Each file is read once at load and kept as bytes in the :class:`pnp.data.model.Game`, so what
is drawn is what was checked. A file is refused, with its path, when it is not what its
suffix says, is larger than :data:`MAX_ICON_BYTES` (a PNG wider or taller than
:data:`MAX_ICON_PIXELS`), is a link or leaves the folder, or is an SVG that could reach past
itself or blow up when parsed (a DOCTYPE or entity, a reference to another file or a
network address, a script or embedded foreign content).
"""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

from pnp.core import files
from pnp.core.problems import Problem
from pnp.data.markup import ICON_NAME
from pnp.data.model import IconFile

ICONS_DIR = "icons"
MAX_ICON_BYTES = 256 * 1024  # a detailed vector icon is a few kB; a 512 px PNG some tens
MAX_ICON_PIXELS = 1024  # a PNG's width and height: an icon prints one em, some 3 mm
MAX_ICONS = 200  # icon files of one game
MAX_SVG_ELEMENTS = 5000
_FILE = re.compile(rf"({ICON_NAME})\.(svg|png)")
_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_UNSAFE_SVG = re.compile(rb"<!DOCTYPE|<!ENTITY|<\?xml-stylesheet", re.IGNORECASE)
_FORBIDDEN_TAGS = {"script", "foreignObject", "image", "iframe", "object", "embed"}
# Text would be set in a font the PDF does not embed: an icon's letters are drawn as paths.
_TEXT_TAGS = {"text", "tspan", "textPath"}
_EXTERNAL_URL = re.compile(r"url\(\s*['\"]?(?!#)", re.IGNORECASE)


def icon_files(game_dir: Path) -> list[Path]:
    """The files of a game's icons/ folder an icon may be read from (inputs of a build)."""
    folder = game_dir / ICONS_DIR
    if not folder.is_dir() or folder.is_symlink():
        return []
    return sorted(p for p in folder.iterdir() if _FILE.fullmatch(p.name))


def read_icons(game_dir: Path, problems: list[Problem]) -> dict[str, IconFile]:
    """Every icon of the game by name; each file that cannot be one is a problem."""
    folder = game_dir / ICONS_DIR
    if not folder.exists():
        return {}
    if folder.is_symlink() or not folder.is_dir():
        problems.append(Problem("the icons folder must be a folder of the game, not a link or a file",
                                str(folder)))
        return {}
    icons: dict[str, IconFile] = {}
    entries = sorted(folder.iterdir())
    if len(entries) > MAX_ICONS:
        problems.append(Problem(f"{len(entries)} files in the icons folder, more than the limit of "
                                f"{MAX_ICONS}", str(folder)))
        return {}
    for path in entries:
        match = _FILE.fullmatch(path.name)
        if match is None:
            problems.append(Problem("not an icon file: an icon is NAME.svg or NAME.png, NAME lower-case "
                                    "letters, digits, '-' and '_', starting with a letter", str(path)))
            continue
        name, kind = match.groups()
        if name in icons:
            problems.append(Problem(f"icon {name!r} has both an .svg and a .png file; keep one", str(path)))
            continue
        problem = _unsafe_place(folder, path)
        if problem is None:
            data = files.read_bytes(path, limit=MAX_ICON_BYTES)
            problem = _check_size(data) or (_check_png(data) if kind == "png" else _check_svg(data))
        if problem is not None:
            problems.append(Problem(f"icon {name!r}: {problem}", str(path)))
            continue
        icons[name] = IconFile(name, kind, data, str(path))
    return icons


def _unsafe_place(folder: Path, path: Path) -> str | None:
    if path.is_symlink():
        return "a link; an icon must be a file in the game's icons folder"
    if not path.is_file():
        return "not a file"
    if path.resolve().parent != folder.resolve():
        return "outside the game's icons folder"
    if path.stat().st_size > MAX_ICON_BYTES:
        return f"{path.stat().st_size} bytes, more than the limit of {MAX_ICON_BYTES} for an icon"
    return None


def _check_size(data: bytes) -> str | None:
    if len(data) > MAX_ICON_BYTES:
        return f"{len(data)} bytes, more than the limit of {MAX_ICON_BYTES} for an icon"
    return None


def _check_png(data: bytes) -> str | None:
    """A PNG read chunk by chunk (no image library in the data layer): its header, every
    chunk's checksum, and its pixels inflated to exactly the size the header promises, so a
    truncated or corrupt file is refused here, not at print."""
    if not data.startswith(_PNG_MAGIC) or len(data) < 33 or data[12:16] != b"IHDR":
        return "not a PNG file"
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    if not (0 < width <= MAX_ICON_PIXELS and 0 < height <= MAX_ICON_PIXELS):
        return f"{width}×{height} pixels; an icon is at most {MAX_ICON_PIXELS}×{MAX_ICON_PIXELS}"
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour_type)
    if channels is None or depth not in (1, 2, 4, 8, 16):
        return "not a readable PNG file (unknown colour type or bit depth)"
    pixels, at, ended = bytearray(), 8, False
    while at + 12 <= len(data) and not ended:
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if len(body) != length or data[at + 8 + length:at + 12 + length] != struct.pack(
                ">I", zlib.crc32(kind + body)):
            return "not a readable PNG file (truncated or corrupt)"
        pixels += body if kind == b"IDAT" else b""
        ended = kind == b"IEND"
        at += 12 + length
    expected = height * (1 + (width * depth * channels + 7) // 8)
    try:
        inflater = zlib.decompressobj()
        raw = inflater.decompress(bytes(pixels), expected + 1)
    except zlib.error:
        raw = b""
    if not ended or not raw or (interlace == 0 and len(raw) != expected):
        return "not a readable PNG file (truncated or corrupt)"
    return None


def _check_svg(data: bytes) -> str | None:
    if _UNSAFE_SVG.search(data):
        return "an SVG with a DOCTYPE, an entity or a stylesheet instruction; save it as plain SVG"
    import xml.etree.ElementTree as ElementTree  # only for a game with SVG icons

    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        return f"not a readable SVG file ({exc})"
    if _local(root.tag) != "svg":
        return "not an SVG file (its root element is not <svg>)"
    if root.get("viewBox") is None and (root.get("width") is None or root.get("height") is None):
        return "an SVG needs a viewBox (or a width and a height) to be sized to the line"
    for count, element in enumerate(root.iter()):
        if count >= MAX_SVG_ELEMENTS:
            return f"more than {MAX_SVG_ELEMENTS} SVG elements; an icon is simple"
        tag = _local(element.tag)
        if tag in _TEXT_TAGS:
            return f"an SVG with a <{tag}> element; convert an icon's text to paths"
        if tag in _FORBIDDEN_TAGS:
            return f"an SVG with a <{tag}> element; an icon is drawn from its own shapes alone"
        for key, value in element.attrib.items():
            if _local(key) == "href" and not value.startswith("#"):
                return f"an SVG referring to {value[:60]!r}; an icon refers to nothing outside itself"
            if _EXTERNAL_URL.search(value):
                return f"an SVG with {_local(key)}={value[:60]!r}; an icon refers to nothing outside itself"
        if tag == "style" and element.text and ("@import" in element.text or _EXTERNAL_URL.search(element.text)):
            return "an SVG whose stylesheet imports or refers to another file"
    return None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]
