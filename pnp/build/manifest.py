"""What each output was built from, so a build re-renders only what an edit can have changed.

An *output* is one thing the build makes for one game (or none) and script, of a kind declared
in :mod:`pnp.build.outputs` (the component sheets, the rulebook, the player aid, the PNG faces,
each export, a sample game's PDF, the calibration sheet). Its *inputs* are named content
hashes: the data files it reads, the templates, the two font files of its script, the build
options that change its bytes and its own parameters (a sample's seed), and pnp itself (its
version, a hash of its own source files and the versions of the libraries that draw the
bytes), so a code change rebuilds.

The record is one JSON file at the output root, written with the outputs in the same staged
swap (see :mod:`pnp.build.staging`). It also keeps the hash of every file an output wrote; an output
whose files are missing or were changed by hand is rebuilt. A missing, unreadable or
unfamiliar record is no error: it means everything is rebuilt.

Hashing the fonts (about 22 MB) on every build would cost more than the rest of a no-op
build, so hashes are cached by (size, mtime, inode) in the record, as git's index does.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import logging
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.build.filestamps import Hasher, is_entry
from pnp.build.outputs import Output
from pnp.core import diskcache, files
from pnp.core.errors import DataError
from pnp.core.fingerprint import pnp_fingerprint
from pnp.core.workspace import Workspace
from pnp.data.cardfiles import card_files
from pnp.data.iconfiles import icon_files
from pnp.data.imagefiles import art_files

if TYPE_CHECKING:
    from pnp.data.model import Game

log = logging.getLogger(__name__)

MANIFEST_NAME = ".pnp-build.json"
FORMAT = 1
# The build record of every output of every game is well under a megabyte.
MAX_MANIFEST_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Record:
    """What the manifest says about one output: its inputs, the files it wrote, its build."""

    inputs: Mapping[str, str]
    files: Mapping[str, str]  # output-root-relative path -> sha256
    build: str = ""
    # A rulebook's: the card fields it read ("<component>/<card>/<field>") and the digest of
    # the game as the rulebook sees it (see rulebook_view).
    seen: tuple[str, ...] = ()
    view: str = ""

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"build": self.build, "inputs": dict(sorted(self.inputs.items())),
                               "files": dict(sorted(self.files.items()))}
        if self.view:
            doc.update(seen=list(self.seen), view=self.view)
        return doc


class Manifest:
    """The build record: each output's record, the builds they came from and the files' stamps.
    A holder, so a plain class (docs/architecture.md, "Start-up")."""

    def __init__(self, records: dict[str, Record] | None = None, builds: dict[str, dict[str, Any]] | None = None,
                 stat_cache: dict[str, list[Any]] | None = None) -> None:
        self.records = {} if records is None else records
        self.builds = {} if builds is None else builds
        self.stat_cache = {} if stat_cache is None else stat_cache  # absolute path -> [size, mtime_ns, inode, sha256]

    def to_bytes(self) -> bytes:
        used = {record.build for record in self.records.values()}
        doc = {
            "format": FORMAT,
            "about": "pnp build record: what each output was built from; delete it to rebuild everything",
            "builds": {bid: info for bid, info in sorted(self.builds.items()) if bid in used},
            "outputs": {key: self.records[key].to_json() for key in sorted(self.records)},
            "stat_cache": dict(sorted(self.stat_cache.items())),
        }
        return (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def load_manifest(root: Path) -> tuple[Manifest, str]:
    """The record at the output root and, when it cannot be used, why (then it is empty)."""
    path = root / MANIFEST_NAME
    # A FIFO, a device or a link out in its place is refused (reading a FIFO would wait forever).
    if files.check_kind(files.confined(path, "the build record")) is None:
        return Manifest(), "no earlier build recorded"
    try:
        doc = json.loads(files.read_bytes(path, limit=MAX_MANIFEST_BYTES).decode("utf-8"))
    except DataError:  # larger than any record pnp writes, or gone since
        return Manifest(), f"build record {path} unreadable (too large); rebuilding"
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return Manifest(), f"build record {path} unreadable ({type(exc).__name__}); rebuilding"
    try:
        if doc.get("format") != FORMAT:
            return Manifest(), f"build record {path} has another format; rebuilding"
        records = {
            str(key): Record({str(k): str(v) for k, v in value["inputs"].items()},
                             {str(k): str(v) for k, v in value["files"].items()},
                             str(value.get("build", "")),
                             tuple(str(k) for k in value.get("seen", ())), str(value.get("view", "")))
            for key, value in doc["outputs"].items()
        }
        builds = {str(k): dict(v) for k, v in doc.get("builds", {}).items()}
        cache_ = {str(k): list(v) for k, v in doc.get("stat_cache", {}).items()
                  if is_entry(v)}
    except (AttributeError, KeyError, TypeError, ValueError):
        return Manifest(), f"build record {path} is damaged; rebuilding"
    return Manifest(records, builds, cache_), ""


def _relative(workspace: Workspace, path: Path) -> str:
    try:
        return path.relative_to(workspace.root).as_posix()
    except ValueError:
        return str(path)


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
    one template reads: itself and what it names."""
    own = templates / slug
    if start is not None:
        found = {own / start} if (own / start).is_file() else set()
    else:
        found = {p for p in own.rglob("*") if p.is_file()} if own.is_dir() else set()
    queue, seen = sorted(found), set()
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
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
            return sorted(p for p in templates.rglob("*") if p.is_file())
        for name in names:
            other = templates / str(name).replace(SLUG, slug)
            if other not in seen and _is_file(other):
                found.add(other)
                queue.append(other)
    return sorted(found)


def _is_file(path: Path) -> bool:
    """A name a template includes may be no possible file (100,000 characters: ENAMETOOLONG);
    then it is no input, and the render reports it."""
    try:
        return path.is_file()
    except OSError:
        return False


def font_files(workspace: Workspace, lang: str) -> list[Path]:
    from pnp.text.fonts import FACE_FILES

    return [workspace.fonts / name for name in FACE_FILES[lang]]


# The templates each game's book reads, by game and starting template: found once per plan,
# since both scripts' books read the same ones.
TemplatesRead = dict[tuple[str, str | None], list[Path]]


def inputs_of(output: Output, workspace: Workspace, options: Mapping[str, str],
              hasher: Hasher, templates_read: TemplatesRead | None = None) -> dict[str, str]:
    """Every input of one output, by name: file paths relative to the workspace, ``option:…``
    for the build options its kind depends on and the output's own parameters, and ``pnp``
    for the code. ``templates_read`` keeps what :func:`template_files` found for the other
    outputs of the same plan."""
    kind = output.kind
    files: list[Path] = []
    if kind.per_game:
        files += [workspace.game_dir(output.slug) / name for name in kind.data]
        files += card_files(workspace.game_dir(output.slug))  # cards: deck.csv / deck.xlsx
        files += icon_files(workspace.game_dir(output.slug))  # inline icons: icons/NAME.svg
        files += art_files(workspace.game_dir(output.slug))  # the pictures layouts draw
    faces = font_files(workspace, output.lang)
    files += faces
    from pnp.text.fontchoice import chosen_font_files

    # A family may be named among the script's own faces: their folder is searched too.
    files += chosen_font_files(workspace.game_dir(output.slug) / "game.yaml", workspace, faces[0].parent)
    if kind.templates:
        # The book's own template counts even when it is missing: its coming back rebuilds.
        files += [workspace.templates / output.slug / name for name in kind.needs]
        start = None if kind.templates == "*" else kind.templates
        read = templates_read if templates_read is not None else {}
        if (output.slug, start) not in read:
            read[(output.slug, start)] = template_files(workspace.templates, output.slug, start)
        files += read[(output.slug, start)]
    inputs = {_relative(workspace, path): hasher.file(path) for path in dict.fromkeys(files)}
    inputs.update({f"option:{name}": value for name, value in options.items() if name in kind.options})
    inputs.update({f"option:{name}": value for name, value in output.params.items()})
    inputs["pnp"] = pnp_fingerprint()
    return inputs


def changed_inputs(old: Mapping[str, str], new: Mapping[str, str]) -> list[str]:
    return sorted(name for name in set(old) | set(new) if old.get(name) != new.get(name))


def describe_change(names: Iterable[str]) -> str:
    names = list(names)
    shown = [("pnp itself" if n == "pnp" else n.replace("option:", "--").replace("_", "-") + " option"
              if n.startswith("option:") else n) for n in names[:3]]
    more = f" and {len(names) - 3} more" if len(names) > 3 else ""
    return ", ".join(shown) + more + " changed"


# --------------------------------------------------------------------------------------------
# What of components.yaml a rulebook reads
#
# A rulebook quotes component names and counts, draws figures of some cards and narrates a
# worked example that names some cards, but most card text never reaches it. So the rulebook
# is rendered from a copy of the game whose card fields note every field read; the record
# keeps those fields and a digest of the game with every other card field left out. After an
# edit to components.yaml the digest is taken again over the same fields: equal means the
# rulebook would come out the same, since the render reads only what the digest covers and
# follows the same path to the same fields.

EVERY_FIELD = "*"


class _NotedFields(Mapping[str, Any]):
    """A card's fields that note each one read (iterating reads them all)."""

    def __init__(self, fields: Mapping[str, Any], card: str, seen: set[str]) -> None:
        self._fields = fields
        self._card = card
        self._seen = seen

    def __getitem__(self, key: str) -> Any:
        self._seen.add(f"{self._card}/{key}")  # a missing key is read too: its absence counts
        return self._fields[key]

    def __iter__(self) -> Iterator[str]:
        self._seen.add(f"{self._card}/{EVERY_FIELD}")
        return iter(self._fields)

    def __len__(self) -> int:
        self._seen.add(f"{self._card}/{EVERY_FIELD}")
        return len(self._fields)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        self._seen.add(f"{self._card}/{EVERY_FIELD}")
        return copy.deepcopy(dict(self._fields), memo)


# A layout read is noted as this prefix and its name, every layout (the mapping iterated) as the
# prefix and EVERY_FIELD; a component id never holds a colon (pnp.data.schema.IDENT), so no
# card field's note starts so.
LAYOUT = "layout:"


class _NotedLayouts(_NotedFields):
    """A game's layouts that note each one read: a book that draws no face of a layout (most
    books draw a few cards, the aid often none) is not made again when that layout changes."""

    def __init__(self, layouts: Mapping[str, Any], seen: set[str]) -> None:
        super().__init__(layouts, "", seen)

    def __getitem__(self, key: str) -> Any:
        self._seen.add(f"{LAYOUT}{key}")
        return self._fields[key]

    def __iter__(self) -> Iterator[str]:
        self._seen.add(f"{LAYOUT}{EVERY_FIELD}")
        return iter(self._fields)

    def __len__(self) -> int:
        self._seen.add(f"{LAYOUT}{EVERY_FIELD}")
        return len(self._fields)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        self._seen.add(f"{LAYOUT}{EVERY_FIELD}")
        return copy.deepcopy(dict(self._fields), memo)


def noting_game(game: Game) -> tuple[Game, set[str]]:
    """A copy of ``game`` whose card fields and layouts note what is read, and the set they
    note into."""
    seen: set[str] = set()
    components = tuple(
        dataclasses.replace(component, cards=tuple(
            dataclasses.replace(card, fields=_NotedFields(card.fields, f"{component.id}/{card.id}", seen))
            for card in component.cards))
        for component in game.components)
    return dataclasses.replace(game, components=components, layouts=_NotedLayouts(game.layouts, seen)), seen


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The fields of a dataclass type that :func:`rulebook_view` walks (its source locations
    left out), or None for any other type; each type asked once."""
    if kind not in _FIELD_NAMES:
        _FIELD_NAMES[kind] = tuple(item.name for item in dataclasses.fields(kind)
                                   if item.name not in ("where", "row_where")) \
            if dataclasses.is_dataclass(kind) else None
    return _FIELD_NAMES[kind]


def rulebook_view(game: Game, seen: Iterable[str]) -> str:
    """A digest of everything in ``game`` except card fields and layouts not in ``seen`` and
    source locations (which only ever reach error messages)."""
    seen = set(seen)
    every_layout = f"{LAYOUT}{EVERY_FIELD}" in seen

    def walk(value: Any, card: str | None = None) -> Any:
        names = _field_names(type(value))
        if names is not None:
            here = card
            named: Any = value  # a Card or Component, recognised by name to keep this module light
            kind = type(value).__name__
            if kind == "Card":
                here = f"{card}/{named.id}"
            if kind == "Component":
                here = named.id
            out: dict[str, Any] = {"": kind}
            for name in names:
                inner = getattr(value, name)
                if name == "fields" and kind == "Card":
                    every = f"{here}/{EVERY_FIELD}" in seen
                    out["fields"] = {k: walk(v) for k, v in sorted(inner.items())
                                     if every or f"{here}/{k}" in seen}
                    out["fields?"] = sorted(k.rsplit("/", 1)[1] for k in seen
                                            if k.startswith(f"{here}/") and k.rsplit("/", 1)[1] not in inner)
                elif name == "layouts" and kind == "Game":
                    out["layouts"] = {k: walk(v) for k, v in sorted(inner.items())
                                      if every_layout or f"{LAYOUT}{k}" in seen}
                    out["layouts?"] = sorted(k[len(LAYOUT):] for k in seen
                                             if k.startswith(LAYOUT) and k[len(LAYOUT):] not in inner)
                else:
                    out[name] = walk(inner, here)
            return out
        if isinstance(value, str | int | float):  # the leaves, most values: no slower checks first
            return repr(value)
        if isinstance(value, Mapping):
            return {str(k): walk(v, card) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
        if isinstance(value, (list, tuple)):
            return [walk(v, card) for v in value]
        return repr(value)

    text = json.dumps(walk(game), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
