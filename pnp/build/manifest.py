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
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.build.filestamps import Hasher, is_entry
from pnp.build.outputs import Output
from pnp.build.templatewalk import template_files
from pnp.core import files
from pnp.core.errors import DataError
from pnp.core.fingerprint import pnp_fingerprint
from pnp.core.records import record
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


@record
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
        # absolute path (links not followed) -> [size, mtime_ns, inode, ctime_ns, sha256]
        self.stat_cache = {} if stat_cache is None else stat_cache

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


def font_files(workspace: Workspace, lang: str) -> list[Path]:
    from pnp.text.fonts import FACE_FILES

    return [workspace.fonts / name for name in FACE_FILES[lang]]


class PlanReads:
    """What one plan found, kept for its other outputs: every output of a game reads the same
    data files, every output of a game in one script the same fonts, and both scripts' books
    the same templates; each file's name and hash are worked out once."""

    def __init__(self) -> None:
        self.templates: dict[tuple[str, str | None], list[Path]] = {}
        self.game_files: dict[str, list[Path]] = {}
        self.fonts: dict[tuple[str, str], list[Path]] = {}
        self.hashed: dict[Path, tuple[str, str]] = {}  # path -> (input name, sha256)


def inputs_of(output: Output, workspace: Workspace, options: Mapping[str, str],
              hasher: Hasher, reads: PlanReads | None = None) -> dict[str, str]:
    """Every input of one output, by name: file paths relative to the workspace, ``option:…``
    for the build options its kind depends on and the output's own parameters, and ``pnp``
    for the code. ``reads`` keeps what was found for the other outputs of the same plan."""
    kind = output.kind
    read = reads if reads is not None else PlanReads()
    files: list[Path] = []
    if kind.per_game:
        files += [workspace.game_dir(output.slug) / name for name in kind.data]
        if output.slug not in read.game_files:
            game_dir = workspace.game_dir(output.slug)
            read.game_files[output.slug] = [
                *card_files(game_dir),  # cards: deck.csv / deck.xlsx
                *icon_files(game_dir),  # inline icons: icons/NAME.svg
                *art_files(game_dir),  # the pictures layouts draw
            ]
        files += read.game_files[output.slug]
    if (output.slug, output.lang) not in read.fonts:
        from pnp.text.fontchoice import chosen_font_files

        faces = font_files(workspace, output.lang)
        # A family may be named among the script's own faces: their folder is searched too.
        read.fonts[(output.slug, output.lang)] = [
            *faces, *chosen_font_files(workspace.game_dir(output.slug) / "game.yaml", workspace, faces[0].parent)]
    files += read.fonts[(output.slug, output.lang)]
    if kind.templates:
        # The book's own template counts even when it is missing: its coming back rebuilds.
        files += [workspace.templates / output.slug / name for name in kind.needs]
        start = None if kind.templates == "*" else kind.templates
        if (output.slug, start) not in read.templates:
            read.templates[(output.slug, start)] = template_files(workspace.templates, output.slug, start)
        files += read.templates[(output.slug, start)]
    inputs = {}
    for path in dict.fromkeys(files):
        named = read.hashed.get(path)
        if named is None:
            named = read.hashed[path] = (_relative(workspace, path), hasher.file(path))
        inputs[named[0]] = named[1]
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


# The records whose walk depends on which card fields and layouts were seen: the game's, and
# those that hold cards. (Recognised by name, to keep this module light.)
_HOLDING_CARDS = frozenset({"Game", "Component", "Card"})
_LEAVES = frozenset({str, int, float, bool})


def rulebook_view(game: Game, seen: Iterable[str], walked: dict[int, Any] | None = None) -> str:
    """A digest of everything in ``game`` except card fields and layouts not in ``seen`` and
    source locations (which only ever reach error messages).

    ``walked`` keeps, for the other views of the same game, what its records that hold no card
    came to (by identity: the game must live as long as it)."""
    seen = set(seen)
    every_layout = f"{LAYOUT}{EVERY_FIELD}" in seen
    kept = walked if walked is not None else {}

    def walk(value: Any, card: str | None = None) -> Any:
        species = type(value)
        # Most values are plain leaves and tuples of them: those first, as they come out below.
        if species in _LEAVES:
            return repr(value)
        if species is tuple or species is list:
            return [walk(v, card) for v in value]
        names = _field_names(species)
        if names is not None:
            kind = type(value).__name__
            if kind not in _HOLDING_CARDS:
                found = kept.get(id(value))
                if found is None:
                    found = kept[id(value)] = {"": kind, **{name: walk(getattr(value, name), card)
                                                            for name in names}}
                return found
            here = card
            named: Any = value  # a Card or Component
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
