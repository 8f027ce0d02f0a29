"""The kinds of output pnp makes, each one entry: what it is built from, how it is rendered, where
its files go.

An :class:`OutputKind` is rendered for one game and script at a time (or, for a kind that is
not a game's, such as the calibration sheet, for one script) into a folder of the output root
(``<game>/<lang>/`` for the build's kinds, ``<game>/<lang>/<kind>/`` or ``--out`` for an
export's, where the command says for a sample game's PDF and the calibration sheet). The build
pipeline (:mod:`pnp.build.pipeline`) plans, renders, records and writes any list of outputs
the same way, whatever their kind; the incremental record (:mod:`pnp.build.manifest`), the
commands' ``--format json`` and ``pnp serve`` read the kinds from here. The build's own kinds
are :data:`BUILD_KINDS` (:mod:`pnp.build.kinds` renders them); the exports and the calibration
sheet declare theirs in :mod:`pnp.export`, the sample game's PDF in :mod:`pnp.play.sample_pdf`,
and hand them to :func:`pnp.build.pipeline.make`. A new output kind is one more entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.core.records import record
from pnp.data.load import COMPONENTS_FILE, FIGURES_FILE, GAME_FILE, GLOSSARY_FILE, TABLES_FILE

if TYPE_CHECKING:
    from pnp.core.workspace import Workspace
    from pnp.data.model import Game

# The game files everything that draws a card face reads: faces can print tables. A book
# also draws figures of the real card faces.
FACE_DATA = (GAME_FILE, COMPONENTS_FILE, TABLES_FILE, GLOSSARY_FILE)
BOOK_DATA = (*FACE_DATA, FIGURES_FILE)
# The options of `pnp build` that change how component sheets are imposed and printed.
SHEET_OPTIONS = ("paper", "back_offset", "gutter", "ink", "sheet")


@record
class Artifact:
    """One output file, rendered in memory and not yet written."""

    path: Path  # relative to its output's folder
    data: bytes


@record
class Rendered:
    """What rendering one output gave: its files and, for a book, the card fields it read
    (``<component>/<card>/<field>``) with the digest of the game as the book sees it, so an
    edit to card text the book never reads keeps it (see :func:`pnp.build.manifest.rulebook_view`)."""

    artifacts: tuple[Artifact, ...]
    seen: tuple[str, ...] = ()
    view: str = ""


class Params(Mapping[str, str]):
    """The command-line arguments one output's bytes depend on beyond the build's options
    (a sample game's ``--seed``, ``--players``, ``--variant``, ``--bots``): a small frozen
    mapping, as text. The record compares them as ``option:<name>`` inputs and the render reads
    them from its job. A value of None is an argument not given, and left out."""

    def __init__(self, values: Mapping[str, object] | None = None, /, **more: object) -> None:
        given = {**(values or {}), **more}
        self._items = tuple(sorted((name, str(value)) for name, value in given.items() if value is not None))

    def __getitem__(self, name: str) -> str:
        for key, value in self._items:
            if key == name:
                return value
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Params) and other._items == self._items

    def __repr__(self) -> str:
        return f"Params({dict(self._items)!r})"


NO_PARAMS = Params()


@record
class RenderJob:
    """One output to render: its game (None for a kind that is not a game's) and script, the
    build's options, the output's own parameters, and a memo shared by every output of one
    build (the rulebook and the player aid read the same sources)."""

    workspace: Workspace
    game: Game | None
    lang: str
    paper: str
    sheet: Any  # pnp.build.pipeline.SheetOptions (kept loose here: the pipeline imports this module)
    memo: dict[Any, Any] = field(default_factory=dict, compare=False)
    params: Params = NO_PARAMS

    @property
    def loaded_game(self) -> Game:
        """The game of a kind that is a game's (every kind but the calibration sheet)."""
        if self.game is None:
            raise TypeError("this output kind is not a game's: its job has no game")
        return self.game


Render = Callable[[RenderJob], Rendered]


@record
class OutputKind:
    """One kind of output.

    ``files`` is the pattern of its files under its folder: a file name (``components.pdf``), a
    folder of files (``png/*.png``) or every file of a folder the kind owns (``*``: an
    export's folder, which holds nothing else and is marked as pnp's); an output of a
    single-file kind may name its file otherwise (:attr:`Output.file`). ``data`` are the game
    files it reads (with the cards, for a kind that is a game's, and the script's two fonts,
    always), ``templates`` which of the game's templates it reads, ``options`` the build options
    its bytes depend on, ``needs`` the templates without which the game has none of it, and
    ``per_game`` whether it is made of a game at all (the calibration sheet is not: no game is
    loaded for it and its outputs have no slug).
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
    per_game: bool = True

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


@record
class Output:
    """One output of a build: what kind, for which game (``""`` for a kind that is not a
    game's) and script, in which folder of the output root, with which parameters, and, for an
    output that names its one file (``sample-seed3-p4.pdf``, ``--out FILE``), under which name:
    its render's one artifact is written there. Such an output is recorded by its file, so
    outputs of one kind in one folder (samples of two seeds) each keep theirs."""

    slug: str
    lang: str
    kind: OutputKind
    place: Path | None = None  # its folder, relative to the output root, when not <slug>/<lang>
    params: Params = NO_PARAMS
    file: str = ""

    @property
    def folder(self) -> Path:
        return Path(self.slug, self.lang) if self.place is None else self.place

    @property
    def files(self) -> str:
        """The pattern of its files under its folder (see :attr:`OutputKind.files`)."""
        return self.file or self.kind.files

    @property
    def key(self) -> str:
        if self.file:
            return (self.folder / self.file).as_posix()
        return f"{self.slug}/{self.lang}/{self.kind.name}"

    @property
    def label(self) -> str:
        return self.file or self.kind.label

    def path_of(self, artifact: Artifact) -> Path:
        """Where an artifact of its render goes, relative to the output root."""
        return self.folder / (self.file or artifact.path)


def registry(kinds: tuple[OutputKind, ...]) -> Mapping[str, OutputKind]:
    """Kinds by name; two kinds of one name are a programming error."""
    named = {kind.name: kind for kind in kinds}
    if len(named) != len(kinds):
        raise ValueError(f"two output kinds share a name: {[kind.name for kind in kinds]}")
    return named
