"""Which templates a book is built from: its own template and every template it includes,
imports or extends, found by reading them (a game's books may share a folder of partials).

The walk reads and parses every template it reaches, so it is kept in the disk cache
(:data:`WALKS_AREA`) and taken again while its starting files, the stamp of every file it read
and every name it found no file for are unchanged (:func:`template_files`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import re
import stat
from functools import cache
from pathlib import Path
from typing import Any

from pnp.core import diskcache, files
from pnp.core.errors import DataError
from pnp.core.fingerprint import pnp_fingerprint
from pnp.core.records import record

log = logging.getLogger(__name__)

_REFERS = re.compile(r"\{%-?\s*(include|import|extends|from)\b")


# Stands for the game's slug in a template name computed from ``game.slug`` and constants.
SLUG = "\0slug\0"


def _name_of(expr: Any, game_rebound: bool) -> str | None:
    """A template name expression as a string (with SLUG for ``game.slug``), or None when it
    is computed some other way at render time."""
    from jinja2 import nodes

    if isinstance(expr, nodes.Const):
        return expr.value if isinstance(expr.value, str) else None
    if isinstance(expr, nodes.Getattr) and expr.attr == "slug" and not game_rebound \
            and isinstance(expr.node, nodes.Name) and expr.node.name == "game":
        return SLUG
    parts = list(expr.nodes) if isinstance(expr, nodes.Concat) else \
        [expr.left, expr.right] if isinstance(expr, nodes.Add) else None
    if parts is None:
        return None
    names = [_name_of(part, game_rebound) for part in parts]
    return None if any(name is None for name in names) else "".join(names)  # type: ignore[arg-type]


def _find_referenced(source: str) -> list[str | None]:
    """As jinja2.meta.find_referenced_templates, and a name built from ``game.slug`` and
    constants (``{% include game.slug ~ "/aid.md.j2" %}``) is resolved too: the rulebook is
    rendered with ``game`` naming its own game, unless the template assigns ``game`` itself."""
    import jinja2
    from jinja2 import nodes

    ast = jinja2.Environment().parse(source)
    rebound = any(name.name == "game" and name.ctx in ("store", "param") for name in ast.find_all(nodes.Name)) \
        or any(node.target == "game" for node in ast.find_all(nodes.Import)) \
        or any("game" in (n if isinstance(n, str) else n[-1] for n in node.names)
               for node in ast.find_all(nodes.FromImport))
    found: list[str | None] = []
    for node in ast.find_all((nodes.Extends, nodes.FromImport, nodes.Import, nodes.Include)):
        template = node.template  # type: ignore[attr-defined]  # every node found has one
        if isinstance(template, nodes.Const) and isinstance(template.value, (tuple, list)):
            found.extend(name for name in template.value if isinstance(name, str))
        elif isinstance(template, (nodes.Tuple, nodes.List)):
            found.extend(_name_of(item, rebound) for item in template.items)
        else:
            found.append(_name_of(template, rebound))
    return found


@cache
def _referenced(source: str) -> tuple[str | None, ...]:
    """The names a template includes, imports or extends (SLUG standing for the game's own
    slug); None for one computed otherwise at render time.

    Parsing a template costs more than all the hashing of a no-op build, so the answer is
    kept by the source's hash in pnp's disk cache (and here, for the other script's plan)."""
    # Keyed by pnp's fingerprint (its code and Jinja's version among the libraries'), so a
    # build with the answer cached does not even import Jinja.
    name = hashlib.sha256(f"{pnp_fingerprint()}\0{source}".encode("utf-8", "surrogateescape")).hexdigest()
    found = diskcache.read("templaterefs", name, 1 << 16)
    if found is not None:
        try:
            names = json.loads(found)
            if isinstance(names, list) and all(n is None or isinstance(n, str) for n in names):
                return tuple(names)
        except ValueError:
            pass
    import jinja2

    try:
        names = _find_referenced(source)
    except jinja2.TemplateSyntaxError as exc:
        raise ValueError(str(exc)) from None
    diskcache.write("templaterefs", name, json.dumps(names).encode("utf-8"))
    return tuple(names)


def template_files(templates: Path, slug: str, start: str | None = None) -> list[Path]:
    """Every template a game's rulebook can read: its own folder (rulebook, narration of the
    worked example, its includes) and any template elsewhere it names by a fixed name. A name
    computed at render time could be any template, so then the whole folder counts.

    With ``start`` (a template of the game's folder, such as the player aid's), only what that
    one template reads: itself and what it names.

    Reading every template each plan cost a one-card rebuild more than the rest of its plan, so
    a walk is kept in pnp's disk cache (:class:`_Walk`) and taken again while the files it
    started from are the same, every file it read has the stamp it had and every name it found
    no file for still names none."""
    name = _walk_name(templates, slug, start)
    if name is not None:
        kept = _kept_walk(name, templates, slug, start)
        if kept is not None:
            return kept
    found, walk = _walk_templates(templates, slug, start)
    if name is not None and walk is not None and all(diskcache.settled(stamp) for _path, stamp in walk.read):
        diskcache.write(WALKS_AREA, name, json.dumps(dataclasses.asdict(walk)).encode("utf-8", "surrogateescape"))
    return found


WALKS_AREA = "templatewalks"
_WALKS_FORMAT = 1
_MAX_WALK = 1 << 22


@record
class _Walk:
    """What finding a game's templates (:func:`template_files`) looked at, as paths: the files
    it started from, each file it read or found to lead out of the workspace (with its stamp,
    taken before it was read), each name a template includes that was no file, and what it found.

    A template turned into a link out while its stamp stays the same (a folder moved out and
    linked back) stays an input here; the render still refuses to read it."""

    started: tuple[str, ...]
    read: tuple[tuple[str, diskcache.FileStamp], ...]
    absent: tuple[str, ...]
    found: tuple[str, ...]


def _walk_name(templates: Path, slug: str, start: str | None) -> str | None:
    if diskcache.root() is None:
        return None
    # pnp's fingerprint covers the code that finds the names (and Jinja's version).
    key = "\0".join([WALKS_AREA, str(_WALKS_FORMAT), pnp_fingerprint(), str(templates), slug, str(start)])
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


def _starting_files(templates: Path, slug: str, start: str | None) -> set[Path]:
    own = templates / slug
    if start is not None:
        return {own / start} if (own / start).is_file() else set()
    return {p for p in own.rglob("*") if p.is_file()} if own.is_dir() else set()


def _kept_walk(name: str, templates: Path, slug: str, start: str | None) -> list[Path] | None:
    """The files a kept walk found, if nothing it depends on changed; else None."""
    payload = diskcache.read(WALKS_AREA, name, _MAX_WALK)
    if payload is None:
        return None
    try:
        doc = json.loads(payload.decode("utf-8", "surrogateescape"))
        walk = _Walk(tuple(map(str, doc["started"])),
                     tuple((str(path), (int(a), int(b), int(c), int(d))) for path, (a, b, c, d) in doc["read"]),
                     tuple(map(str, doc["absent"])), tuple(map(str, doc["found"])))
    except (ValueError, TypeError, KeyError, UnicodeDecodeError) as exc:
        log.debug("template walk %s unusable: %s", name, exc)
        return None
    # A whole walk read every file it found, and found every file it started from.
    if {path for path, _stamp in walk.read} != set(walk.found) or not set(walk.started) <= set(walk.found):
        return None
    if sorted(str(path) for path in _starting_files(templates, slug, start)) != list(walk.started):
        return None
    for path, stamp in walk.read:
        try:
            st = os.stat(path)
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or diskcache.file_stamp(st) != stamp:
            return None
    if any(_is_file(Path(path)) for path in walk.absent):
        return None
    return [Path(path) for path in walk.found]


def _walk_templates(templates: Path, slug: str, start: str | None) -> tuple[list[Path], _Walk | None]:
    """The files :func:`template_files` finds, and what the walk looked at (None when a name
    computed at render time made it take every template)."""
    found = _starting_files(templates, slug, start)
    started = sorted(str(path) for path in found)
    read: list[tuple[str, diskcache.FileStamp]] = []
    absent: list[str] = []
    keep = True
    queue, seen = sorted(found), set()
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        try:
            read.append((str(path), diskcache.file_stamp(path.stat())))
        except OSError:
            keep = False  # gone meanwhile: the read below says so
        try:
            files.confined(path)
        except DataError:
            continue  # a link out is never read: the render refuses it at the line including it
        # A file of the game's templates too large (or a FIFO, a device) is refused before it
        # is read: pnp.core.files raises, and the build stops naming it.
        data = files.read_bytes(path)
        try:
            source = data.decode("utf-8-sig")
            # Parsing costs more than all the hashing of a no-op build: only when it can matter.
            names = _referenced(source) if _REFERS.search(source) else []
        except (OSError, UnicodeDecodeError, ValueError):
            continue  # the render reports it; the file's own hash already counts
        if any(name is None for name in names):
            return sorted(p for p in templates.rglob("*") if p.is_file()), None
        for name in names:
            other = templates / str(name).replace(SLUG, slug)
            if other in seen:
                continue
            if _is_file(other):
                found.add(other)
                queue.append(other)
            else:
                absent.append(str(other))
    result = sorted(found)
    if not keep:
        return result, None
    return result, _Walk(tuple(started), tuple(read), tuple(absent), tuple(str(path) for path in result))


def _is_file(path: Path) -> bool:
    """A name a template includes may be no possible file (100,000 characters: ENAMETOOLONG);
    then it is no input, and the render reports it."""
    try:
        return path.is_file()
    except OSError:
        return False
