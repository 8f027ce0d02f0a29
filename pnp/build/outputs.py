"""The kinds of output pnp makes, each one entry: what it is built from, how it is rendered, where
its files go.

An :class:`OutputKind` is rendered for one game and script at a time into a folder of the
output root (``<game>/<lang>/`` for the build's kinds, ``<game>/<lang>/<kind>/`` or ``--out``
for an export's). The build pipeline (:mod:`pnp.build.pipeline`) plans, renders, records and
writes any list of outputs the same way, whatever their kind; the incremental record
(:mod:`pnp.build.manifest`), ``pnp build --format json`` and ``pnp serve`` read the kinds
from here. The build's own kinds are :data:`BUILD_KINDS` (:mod:`pnp.build.kinds` renders
them); the exports declare theirs in :mod:`pnp.export.kinds`, above the build, and hand them to
:func:`pnp.build.pipeline.make`. A new output kind is one more entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.data.load import COMPONENTS_FILE, FIGURES_FILE, GAME_FILE, GLOSSARY_FILE, TABLES_FILE

if TYPE_CHECKING:
    from pnp.core.workspace import Workspace
    from pnp.data.model import Game

# The game files everything that draws a card face reads: faces can print tables. A book
# also draws figures of the real card faces.
FACE_DATA = (GAME_FILE, COMPONENTS_FILE, TABLES_FILE, GLOSSARY_FILE)
BOOK_DATA = (*FACE_DATA, FIGURES_FILE)
# The options of `pnp build` that change how component sheets are imposed and printed.
SHEET_OPTIONS = ("paper", "back_offset", "gutter", "ink")


@dataclass(frozen=True)
class Artifact:
    """One output file, rendered in memory and not yet written."""

    path: Path  # relative to its output's folder
    data: bytes


@dataclass(frozen=True)
class Rendered:
    """What rendering one output gave: its files and, for a book, the card fields it read
    (``<component>/<card>/<field>``) with the digest of the game as the book sees it, so an
    edit to card text the book never reads keeps it (see :func:`pnp.build.manifest.rulebook_view`)."""

    artifacts: tuple[Artifact, ...]
    seen: tuple[str, ...] = ()
    view: str = ""


@dataclass(frozen=True)
class RenderJob:
    """One output to render: its game and script, the build's options, and a memo shared by
    every output of one build (the rulebook and the player aid read the same sources)."""

    workspace: Workspace
    game: Game
    lang: str
    paper: str
    sheet: Any  # pnp.build.pipeline.SheetOptions (kept loose here: the pipeline imports this module)
    memo: dict[Any, Any] = field(default_factory=dict, compare=False)


Render = Callable[[RenderJob], Rendered]


@dataclass(frozen=True)
class OutputKind:
    """One kind of output.

    ``files`` is the pattern of its files under its folder: a file name (``components.pdf``), a
    folder of files (``png/*.png``) or every file of a folder the kind owns (``*``: an
    export's folder, which holds nothing else and is marked as pnp's). ``data`` are the game
    files it reads (with the cards and the script's two fonts, always), ``templates`` which of the
    game's book templates it reads, ``options`` the build options its bytes depend on, and
    ``needs`` the templates without which the game has none of it.
    """

    name: str
    files: str
    render: Render = field(compare=False, repr=False)
    data: tuple[str, ...] = FACE_DATA
    templates: str = ""  # "*": every template of the game's folder; a name: that one and what it names
    options: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    title: str = ""  # how `pnp serve` names a document of this kind
    on_request: bool = False  # made only when asked for (`pnp build --png`)

    @property
    def label(self) -> str:
        """How a build report names it: the file, or the folder its files go to."""
        if self.files == "*":
            return f"{self.name}/"
        folder, _, name = self.files.rpartition("/")
        return f"{folder}/" if folder else name

    @property
    def single_file(self) -> bool:
        return "*" not in self.files

    @property
    def owns_folder(self) -> bool:
        return self.files == "*"

    def makes(self, path: Path) -> bool:
        """Whether a file at ``path`` (relative to the output's folder) is one of this kind's."""
        if self.owns_folder:
            return True
        if self.single_file:
            return path == Path(self.files)
        return path.match(self.files) and len(path.parts) == len(Path(self.files).parts)


@dataclass(frozen=True)
class Output:
    """One output of a build: what kind, for which game and script, in which folder of the
    output root."""

    slug: str
    lang: str
    kind: OutputKind
    place: Path | None = None  # its folder, relative to the output root, when not <slug>/<lang>

    @property
    def folder(self) -> Path:
        return Path(self.slug, self.lang) if self.place is None else self.place

    @property
    def key(self) -> str:
        return f"{self.slug}/{self.lang}/{self.kind.name}"

    @property
    def label(self) -> str:
        return self.kind.label


def registry(kinds: tuple[OutputKind, ...]) -> Mapping[str, OutputKind]:
    """Kinds by name; two kinds of one name are a programming error."""
    named = {kind.name: kind for kind in kinds}
    if len(named) != len(kinds):
        raise ValueError(f"two output kinds share a name: {[kind.name for kind in kinds]}")
    return named
