"""Build orchestration: load -> validate -> render in memory -> write atomically.

Nothing reaches the disk until every requested game and language has rendered without a
single problem; then each file is written beside its target and renamed into place, so a
failed build never leaves a half-written PDF nor removes a good earlier one.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pnp.data.model import LANGS, Game
from pnp.data.textfile import read_text
from pnp.errors import BuildError, DataError, FontError, PnpError
from pnp.fonts import load_family
from pnp.gameset import converter_for, load_games, resolve_games
from pnp.i18n import Converter
from pnp.layout.impose import ImposeError
from pnp.layout.presets import SHEETS
from pnp.render.glyphs import GlyphCheck
from pnp.render.rulebook_pdf import render_rulebook
from pnp.render.sheets import render_components
from pnp.rulebook import parse_markdown, rulebook_markdown, template_path
from pnp.units import MM
from pnp.workspace import Workspace

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Artifact:
    """One output file, rendered in memory and not yet written."""

    path: Path  # relative to the output root
    data: bytes


@dataclass(frozen=True)
class Written:
    path: Path
    size: int


def resolve_langs(lang: str) -> list[str]:
    return list(LANGS) if lang == "all" else [lang]


def _check_template_glyphs(workspace: Workspace, game: Game, convert: Converter,
                           glyphs: GlyphCheck) -> None:
    """Check the template line by line, so a missing glyph is reported with its line."""
    path = template_path(workspace.templates, game.slug)
    if not path.is_file():
        return
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        text = convert(line)
        where = f"{path}:{number}"
        glyphs.check(text, False, where)
        if "**" in line or line.lstrip().startswith("#"):
            glyphs.check(text, True, where)


def render_game(workspace: Workspace, game: Game, lang: str, paper: str,
                png: bool = False) -> list[Artifact]:
    spec = SHEETS[paper]
    fonts = load_family(workspace.fonts, lang)
    convert = converter_for(game, lang)
    glyphs = GlyphCheck(fonts)
    base = Path(game.slug) / lang
    try:
        components = render_components(game, lang, spec, fonts, convert, glyphs)
    except ImposeError as exc:
        raise BuildError(str(exc)) from None
    artifacts = [Artifact(base / "components.pdf", components.data)]
    if png:
        from pnp.render.png import render_face_pngs  # PDFium loads only when PNGs are asked for

        artifacts += [Artifact(base / "png" / name, data)
                      for name, data in render_face_pngs(game, fonts, convert, glyphs).items()]
    source = template_path(workspace.templates, game.slug)
    if source.is_file():
        _check_template_glyphs(workspace, game, convert, glyphs)
        if not glyphs.missing:
            markdown = convert(rulebook_markdown(workspace, game))
            blocks = parse_markdown(markdown)
            rulebook = render_rulebook(game, lang, blocks, fonts, convert, glyphs, str(source),
                                       (spec.width * MM, spec.height * MM))
            artifacts.append(Artifact(base / "rulebook.pdf", rulebook))
    if glyphs.missing:
        raise FontError(glyphs.problems)
    if glyphs.overflows:
        raise BuildError(glyphs.overflows)
    log.info("rendered %s %s: %d sheets", game.slug, lang, components.sheets)
    return artifacts


def _file_mode() -> int:
    """The mode an ordinary new file gets under the user's umask (mkstemp would give 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomically(root: Path, artifacts: Sequence[Artifact]) -> list[Written]:
    """Write each file beside its target and rename it into place."""
    written = []
    mode = _file_mode()
    for artifact in artifacts:
        target = root / artifact.path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        except OSError as exc:
            raise PnpError(f"{target}: cannot write here: {exc.strerror or exc}") from None
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(artifact.data)
            os.chmod(tmp, mode)
            os.replace(tmp, target)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            raise PnpError(f"{target}: cannot write here: {exc.strerror or exc}") from None
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        written.append(Written(target, len(artifact.data)))
    return written


def build(workspace: Workspace, game: str, lang: str = "all", paper: str = "a4",
          out: Path | None = None, png: bool = False) -> list[Written]:
    """Render every requested game and language, then write them all; or write nothing."""
    if paper not in SHEETS:
        raise PnpError(f"unknown paper {paper!r} (expected one of: {', '.join(SHEETS)})")
    games = load_games(workspace, resolve_games(workspace, game))
    artifacts: list[Artifact] = []
    problems: list[str] = []
    font_problem = False
    for loaded in games:
        for target in resolve_langs(lang):
            try:
                artifacts.extend(render_game(workspace, loaded, target, paper, png))
            except (BuildError, DataError) as exc:
                problems.extend(exc.problems)
                font_problem = font_problem or isinstance(exc, FontError)
    if problems:
        # Both scripts often hit the same problem in the same words: say it once.
        raise (FontError if font_problem else BuildError)(list(dict.fromkeys(problems)))
    return write_atomically(out or workspace.output, artifacts)
