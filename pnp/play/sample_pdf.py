"""A sample game's transcript typeset like the rulebook (``pnp sample --format pdf``), and the
output kind that makes it.

Kept apart from pnp.play.narrate so the rulebook (which embeds narrated worked examples) can use
narration without narration depending back on the rulebook's typesetting. The PDF is an output
of the build pipeline (:data:`SAMPLE`): made of the game, its narration template, the script's
fonts and the command's arguments (seed, players, variant, bots, script, paper), recorded at
the output root and written again only when one of them changed.
"""

from __future__ import annotations

from pathlib import Path

from pnp.build.outputs import BOOK_DATA, Artifact, Output, OutputKind, Params, Rendered, RenderJob
from pnp.build.pipeline import FileReport, make_file
from pnp.core.errors import BuildError, FontError
from pnp.core.units import MM
from pnp.core.workspace import Workspace
from pnp.games.base import DEFAULT_BUDGET, Sample
from pnp.layout.presets import sheet_spec
from pnp.play.narrate import TEMPLATE_NAME, narration, play_sample, template_path
from pnp.render.glyphs import GlyphCheck
from pnp.rulebook.pdf import render_rulebook
from pnp.rulebook.source import parse_markdown
from pnp.text.convert import converter_for
from pnp.text.fontchoice import game_fonts


def narration_pdf(workspace: Workspace, sample: Sample, lang: str, paper: str = "a4") -> bytes:
    """The transcript typeset like the rulebook (same fonts, page furniture and checks)."""
    spec = sheet_spec(paper)
    markdown = narration(workspace, sample, lang)
    fonts = game_fonts(workspace, lang, sample.game.info.fonts)
    glyphs = GlyphCheck(fonts)
    source = str(template_path(workspace.templates, sample.game.slug))
    data = render_rulebook(sample.game, lang, parse_markdown(markdown), fonts,
                           converter_for(sample.game, lang), glyphs, source,
                           (spec.width * MM, spec.height * MM))
    if glyphs.missing:
        raise FontError(glyphs.problems)
    if glyphs.overflows:
        raise BuildError(glyphs.overflows)
    return data


def default_pdf_path(root: Path, sample: Sample, lang: str) -> Path:
    """Where a sample's PDF goes unless told: ``<root>/<game>/<lang>/sample-seedS-pN.pdf``."""
    return root / sample.game.slug / lang / f"sample-seed{sample.seed}-p{sample.players}.pdf"


def _render(job: RenderJob) -> Rendered:
    """Play the game again from the recorded arguments (one seed is always the same game)."""
    game, params = job.loaded_game, job.params
    played = play_sample(job.workspace, game.slug, int(params["players"]), int(params["seed"]),
                         params.get("variant"), game=game, bots=params["bots"],
                         budget=int(params.get("budget", DEFAULT_BUDGET)))
    return Rendered((Artifact(Path(SAMPLE.files), narration_pdf(job.workspace, played, job.lang, job.paper)),))


# The transcript reads the game as a book does, and the narration template with what it includes.
SAMPLE = OutputKind("sample", "sample.pdf", _render, data=BOOK_DATA, templates=TEMPLATE_NAME,
                    options=("paper",), title="Sample game")


def sample_pdf(workspace: Workspace, sample: Sample, lang: str, paper: str, bots: str, out: Path | None = None,
               output_root: Path | None = None, force: bool = False,
               budget: int = DEFAULT_BUDGET) -> FileReport:
    """Make the PDF of ``sample`` (played with ``bots``) at ``out``, or at
    :func:`default_pdf_path` under ``output_root`` (output/ unless the workspace's pnp.toml
    names another), unless it is there already, made of the same sources and arguments."""
    root = output_root or workspace.output_folder()
    target = (out or default_pdf_path(root, sample, lang)).resolve()
    params = Params(seed=sample.seed, players=sample.players, variant=sample.variant, bots=bots, lang=lang,
                    **({"budget": budget} if "ismcts" in bots else {}))
    return make_file(workspace, root, target, Output(sample.game.slug, lang, SAMPLE, params=params), paper, force)
