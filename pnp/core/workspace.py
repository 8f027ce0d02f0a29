"""Where a pnp workspace lives on disk; the only module that resolves asset paths."""

from __future__ import annotations

import os
import re
from pathlib import Path

from pnp.core import files
from pnp.core.errors import DataError, PnpError
from pnp.core.records import record

MARKER_DIRS = ("card_data",)
# What a game is read from (besides the installed package): never a place to write an output.
SOURCE_FOLDERS = ("card_data", "templates", "fonts", "sheets")
SOURCE_FILES = ("pnp.toml",)
# The four default faces (TC and SC, regular and bold), their licence and provenance, installed
# with pnp as package data (pnp/core/faces/README.md), so a workspace needs no fonts of its own.
BUNDLED_FONTS = Path(__file__).resolve().parent / "faces"
# The sheet templates installed with pnp (package data): `--sheet poker-3x3-a4`.
BUNDLED_SHEETS = Path(__file__).resolve().parent / "sheets"
# A sheet template's name: a file name in sheets/, never a path.
SHEET_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


@record
class Workspace:
    root: Path

    @property
    def card_data(self) -> Path:
        return self.root / "card_data"

    @property
    def own_fonts(self) -> Path:
        """The workspace's own fonts/ folder, whether or not it exists."""
        return self.root / "fonts"

    @property
    def fonts(self) -> Path:
        """The folder the default faces are read from: the workspace's own fonts/ when it holds a
        file named like one of the bundled faces (a designer's own build of them, e.g. with extra
        characters, overrides them all), else the faces installed with pnp. A fonts/ holding only
        other fonts leaves the bundled faces in use. A fonts/ that is a link out of the workspace
        is refused (a build, and the preview's /fonts/, would read whatever it leads to)."""
        own = self.own_fonts
        if own.is_dir() and any((own / face.name).exists() for face in BUNDLED_FONTS.glob("*.ttf")):
            self.contained(own, "the fonts/ folder")
            return own
        return BUNDLED_FONTS

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def output(self) -> Path:
        return self.root / "output"

    def contained(self, path: Path, what: str) -> Path:
        """``path`` with every link followed, if it is still inside the workspace; a
        :class:`PnpError` naming ``what`` otherwise (a link in a game's folders must not lead
        pnp to read or write elsewhere). The rule is pnp.core.files's, for this workspace."""
        try:
            return files.confined(path, what, within=self.root)
        except DataError as exc:
            raise PnpError(f"{path}: {exc.records[0].message}") from None

    def sources(self) -> dict[str, Path]:
        """What pnp reads a game from, by the name a message gives it: no output may go there."""
        return {f"{name}/": self.root / name for name in SOURCE_FOLDERS} | \
            {name: self.root / name for name in SOURCE_FILES}

    def out_folder(self, out: Path, option: str = "--out") -> Path:
        """A folder a command was told to write into (``option``), refused when it is the
        workspace root itself (where <game>/<lang>/ folders would mix with card_data/ and
        templates/), inside the game's sources, a link from inside the workspace that leads out
        of it, or a FIFO or device."""
        target = self._out_target(out, option)
        if target == self.root.resolve():
            raise PnpError(f"{option} {out}: that is the workspace root; choose a folder of its own, "
                           f"such as {self.output}")
        return out

    def out_file(self, out: Path, option: str = "--out") -> Path:
        """A file a command was told to write (``option``): anywhere the user likes, the
        workspace root included, but never inside the game's sources or over one of them, never
        through a link from inside the workspace that leads out, never a FIFO or device."""
        self._out_target(out, option)
        return out

    def _out_target(self, out: Path, option: str) -> Path:
        # Anchored by where the path lexically is: a user's own --out ../Desktop/x.pdf is theirs,
        # while a link inside the workspace may not carry a write out of it.
        lexical = Path(os.path.normpath(Path.cwd() / out))
        try:
            target = files.writable(lexical)
        except DataError as exc:
            raise PnpError(f"{option} {out}: {exc.records[0].message}") from None
        for name, source in self.sources().items():
            source = source.resolve()
            if target == source or target.is_relative_to(source):
                where = f"inside {name}, the game's sources" if name.endswith("/") else f"{name}, a source"
                raise PnpError(f"{option} {out}: that is {where}; pnp does not write there "
                               f"(choose another place, such as {self.output})")
        return target

    def output_folder(self) -> Path:
        """output/, where a command writes when not told otherwise; refused when it is a link
        out of the workspace (a build would write into whatever folder it leads to)."""
        if self.output.is_symlink():
            self.contained(self.output, "output/ (a link)")
        return self.output

    @property
    def sheets(self) -> Path:
        """The workspace's own sheet templates, ``sheets/NAME.yaml``, whether or not it exists."""
        return self.root / "sheets"

    def sheet_template(self, name: str, slug: str | None = None, origin: str = "--sheet") -> Path:
        """The file of sheet template ``name`` (any case), looked up in this order: the game's
        own ``card_data/<slug>/sheets/NAME.yaml`` (when ``slug`` is given), the workspace's
        ``sheets/NAME.yaml``, then the one installed with pnp. A name is a plain file name, so it
        cannot reach outside those folders; a file there that is a link leading out of the
        workspace is refused. ``origin`` is where the name was given, for messages."""
        key = name.strip().lower()
        if not SHEET_NAME.fullmatch(key):
            raise PnpError(f"{origin} {name!r}: a sheet template's name is letters, digits, - and _ "
                           f"(the file sheets/NAME.yaml); shipped with pnp: {', '.join(shipped_sheets())}")
        for folder in self.sheet_folders(slug):
            own = folder / f"{key}.yaml"
            if own.is_file():
                if not own.resolve().is_relative_to(self.root.resolve()):
                    raise PnpError(f"{own}: leads outside the workspace (to {own.resolve()}); a sheet "
                                   "template is a file in sheets/ or card_data/<game>/sheets/")
                return own
        shipped = BUNDLED_SHEETS / f"{key}.yaml"
        if shipped.is_file():
            return shipped
        looked = " or ".join(f"{folder.relative_to(self.root).as_posix()}/{key}.yaml"
                             for folder in self.sheet_folders(slug))
        raise PnpError(f"{origin} {name!r}: no {looked} in the workspace and no such template ships "
                       f"with pnp; known: {', '.join(self.sheet_names(slug))}")

    def sheet_folders(self, slug: str | None = None) -> tuple[Path, ...]:
        """Where a workspace's sheet templates are looked for, first first: the game's own
        ``card_data/<slug>/sheets/`` (given a game), then the workspace's ``sheets/``."""
        return (self.game_dir(slug) / "sheets", self.sheets) if slug else (self.sheets,)

    def sheet_names(self, slug: str | None = None) -> list[str]:
        """Every sheet template name a build of game ``slug`` can use (with no game: of any
        game of the workspace), each once: its own, the workspace's, the shipped ones."""
        folders = self.sheet_folders(slug) if slug else \
            (*(self.game_dir(other) / "sheets" for other in self.game_slugs()), self.sheets)
        own = [path.stem.lower() for folder in folders if folder.is_dir() for path in sorted(folder.glob("*.yaml"))]
        return list(dict.fromkeys([*own, *shipped_sheets()]))

    def game_dir(self, slug: str) -> Path:
        return self.card_data / slug

    def game_slugs(self) -> list[str]:
        if not self.card_data.is_dir():
            return []
        # Anything named game.yaml makes a game, so a FIFO or a link out there is refused when
        # the game is read (pnp.core.files), not reported as an unknown game.
        return sorted(p.name for p in self.card_data.iterdir() if os.path.lexists(p / "game.yaml"))


def shipped_sheets() -> list[str]:
    """The names of the sheet templates installed with pnp."""
    return sorted(path.stem for path in BUNDLED_SHEETS.glob("*.yaml"))


def find_workspace(start: Path | None = None) -> Workspace:
    """Walk up from ``start`` (default: cwd) to the first folder holding card_data/."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if all((folder / name).is_dir() for name in MARKER_DIRS):
            return Workspace(folder)
    raise PnpError(
        f"no pnp workspace found at or above {here} (looked for a card_data/ folder); "
        "run pnp inside the project or pass --root, or start one here with `pnp new SLUG`"
    )
