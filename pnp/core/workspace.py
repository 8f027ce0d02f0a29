"""Where a pnp workspace lives on disk; the only module that resolves asset paths."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pnp.core.errors import PnpError

MARKER_DIRS = ("card_data",)
# The four default faces (TC and SC, regular and bold), their licence and provenance, installed
# with pnp as package data (pnp/core/faces/README.md), so a workspace needs no fonts of its own.
BUNDLED_FONTS = Path(__file__).resolve().parent / "faces"


@dataclass(frozen=True)
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
        other fonts leaves the bundled faces in use."""
        own = self.own_fonts
        if own.is_dir() and any((own / face.name).exists() for face in BUNDLED_FONTS.glob("*.ttf")):
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
        pnp to read or write elsewhere)."""
        root = self.root.resolve()
        try:
            resolved = path.resolve()
        except (OSError, RuntimeError, ValueError) as exc:  # a link loop; a NUL in the name
            raise PnpError(f"{path}: {what} cannot be followed ({exc})") from None
        if not resolved.is_relative_to(root):
            raise PnpError(f"{path}: {what} leads out of the workspace (to {resolved}); pnp reads and "
                           "writes only inside it: replace the link by a folder or file of its own")
        return resolved

    def output_folder(self) -> Path:
        """output/, where a command writes when not told otherwise; refused when it is a link
        out of the workspace (a build would write into whatever folder it leads to)."""
        if self.output.is_symlink():
            self.contained(self.output, "output/ (a link)")
        return self.output

    def game_dir(self, slug: str) -> Path:
        return self.card_data / slug

    def game_slugs(self) -> list[str]:
        if not self.card_data.is_dir():
            return []
        return sorted(p.name for p in self.card_data.iterdir() if (p / "game.yaml").is_file())


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
