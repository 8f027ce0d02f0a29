"""Build orchestration: plan -> load -> validate -> render in memory -> stage and swap.

Each output (a game's components.pdf, rulebook.pdf or PNG faces, per script) is rendered only
when something it is built from changed since the build recorded at the output root
(:mod:`pnp.manifest`), or with ``force``. Nothing reaches the disk until every output to make
has rendered without a single problem; then every file, and the record, is staged beside its
target and all are swapped in together (:mod:`pnp.staging`), so a failed build leaves the
earlier outputs exactly as they were, never a mix of old and new.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import logging
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pnp import __version__
from pnp.data.model import LANGS
from pnp.errors import BuildError, DataError, FontError, PnpError
from pnp.gameset import converter_for, load_games, resolve_games
from pnp.manifest import (
    COMPONENTS_FILE,
    MANIFEST_NAME,
    Hasher,
    Manifest,
    Output,
    Record,
    changed_inputs,
    describe_change,
    inputs_of,
    load_manifest,
    noting_game,
    rulebook_view,
)
from pnp.staging import Transaction, Written, has_stale, locked, prepare_root, remove_stale
from pnp.workspace import Workspace

if TYPE_CHECKING:
    from pnp.data.model import Game
    from pnp.i18n import Converter
    from pnp.render.glyphs import GlyphCheck

__all__ = ["DEFAULT_SHEET", "Artifact", "BuildReport", "Progress", "SheetOptions", "Written", "build",
           "converter_for", "load_games", "render_game", "resolve_games", "resolve_langs", "write_atomically"]

log = logging.getLogger(__name__)

PAPERS = ("a4", "letter")


@dataclass(frozen=True)
class SheetOptions:
    """How component sheets are imposed and printed, beyond the paper size."""

    gutter: float = 0.0  # mm between card trims: 0 butts cards on shared cut lines, 6 keeps each its bleed
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm right and down: undoes a duplex shift
    ink: str = "full"  # "saver": dark fills print as light tints (pnp.render.ink)


DEFAULT_SHEET = SheetOptions()


@dataclass(frozen=True)
class Artifact:
    """One output file, rendered in memory and not yet written."""

    path: Path  # relative to the output root
    data: bytes


@dataclass(frozen=True)
class Progress:
    """A step of a build, for a progress display: ``done`` of ``total`` renders finished."""

    stage: str  # "render" (starting one game and script) | "write" | "done"
    slug: str = ""
    lang: str = ""
    outputs: tuple[str, ...] = ()
    done: int = 0
    total: int = 0


@dataclass(frozen=True)
class Outcome:
    """What became of one output: ``rebuilt`` (with why), ``up-to-date`` or ``removed``."""

    output: Output
    status: str
    reason: str = ""


@dataclass
class BuildReport:
    written: list[Written] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)  # outputs deleted as obsolete
    stale_files: list[Path] = field(default_factory=list)  # leftovers of an unfinished build
    build_id: str = ""

    def __iter__(self) -> Iterator[Written]:  # a report reads as the files written, as build() returned before
        return iter(self.written)


def resolve_langs(lang: str) -> list[str]:
    return list(LANGS) if lang == "all" else [lang]


def _check_template_glyphs(workspace: Workspace, game: Game, convert: Converter,
                           glyphs: GlyphCheck) -> None:
    """Check the template line by line, so a missing glyph is reported with its line."""
    from pnp.data.textfile import read_text
    from pnp.rulebook import template_path

    path = template_path(workspace.templates, game.slug)
    if not path.is_file():
        return
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        text = convert(line)
        where = f"{path}:{number}"
        glyphs.check(text, False, where)
        if "**" in line or line.lstrip().startswith("#"):
            glyphs.check(text, True, where)


def render_game(workspace: Workspace, game: Game, lang: str, paper: str, png: bool = False,
                kinds: Sequence[str] | None = None, sheet: SheetOptions = DEFAULT_SHEET,
                markdown: str | None = None) -> list[Artifact]:
    """Render ``kinds`` (default: components, rulebook, and png if asked) of one game in one
    script. A game without a rulebook template has no rulebook. ``markdown`` is the rulebook's
    Markdown in the game's source script (:func:`pnp.rulebook.rulebook_markdown`) when the
    caller has it already: it is the same for both scripts, worked example included."""
    from pnp.fonts import load_family
    from pnp.layout.impose import ImposeError
    from pnp.layout.presets import SHEETS
    from pnp.render.glyphs import GlyphCheck
    from pnp.units import MM

    if kinds is None:
        kinds = ("components", "rulebook", "png") if png else ("components", "rulebook")
    spec = dataclasses.replace(SHEETS[paper], card_gutter=sheet.gutter)
    fonts = load_family(workspace.fonts, lang)
    convert = converter_for(game, lang)
    glyphs = GlyphCheck(fonts)
    base = Path(game.slug) / lang
    artifacts: list[Artifact] = []
    if "components" in kinds:
        from pnp.fitcache import remembered
        from pnp.render.sheets import render_components

        try:
            # A card edit re-renders these sheets: every label but the edited ones fits as before.
            with remembered(fonts, f"{game.slug}/{lang}/components"):
                components = render_components(game, lang, spec, fonts, convert, glyphs, sheet.back_offset,
                                               sheet.ink)
        except ImposeError as exc:
            raise BuildError(str(exc)) from None
        artifacts.append(Artifact(base / "components.pdf", components.data))
        log.info("rendered %s %s components: %d sheets", game.slug, lang, components.sheets)
    if "png" in kinds:
        from pnp.render.png import render_face_pngs  # PDFium loads only when PNGs are asked for

        artifacts += [Artifact(base / "png" / name, data)
                      for name, data in render_face_pngs(game, fonts, convert, glyphs).items()]
    # pnp.rulebook (Jinja, markdown-it, the engines of worked examples) is imported only when
    # a rulebook is rendered: a card edit re-renders components alone.
    if "rulebook" in kinds and _has_rulebook(workspace, game.slug):
        from pnp.rulebook import template_path

        source = template_path(workspace.templates, game.slug)
        _check_template_glyphs(workspace, game, convert, glyphs)
        if not glyphs.missing:
            from pnp.render.aid_pdf import render_aid
            from pnp.render.rulebook_pdf import render_rulebook
            from pnp.rulebook import aid_markdown, parse_markdown, rulebook_markdown

            if markdown is None:
                markdown = rulebook_markdown(workspace, game)
            aid = aid_markdown(workspace, game)
            # A book that talks about the tool is not printed (pnp check reports the same).
            from pnp.check import tool_word_problems  # the checks load only when a book is made

            problems = tool_word_problems(workspace, game, markdown, aid)
            if problems:
                raise BuildError(problems)
            blocks = parse_markdown(convert(markdown))
            rulebook = render_rulebook(game, lang, blocks, fonts, convert, glyphs, str(source),
                                       (spec.width * MM, spec.height * MM))
            artifacts.append(Artifact(base / "rulebook.pdf", rulebook))
            if aid is not None:
                where = workspace.templates / game.slug / "aid.md.j2"
                data, pages = render_aid(game, lang, parse_markdown(convert(aid)), fonts, convert, glyphs,
                                         str(where), (spec.width * MM, spec.height * MM))
                if pages > 2:
                    raise BuildError(f"{where}: the player aid runs to {pages} pages ({lang}, {paper}); "
                                     "it must fit one sheet, both sides: shorten it")
                artifacts.append(Artifact(base / "aid.pdf", data))
    if glyphs.missing:
        raise FontError(glyphs.problems)
    if glyphs.overflows:
        raise BuildError(glyphs.overflows)
    return artifacts


def write_atomically(root: Path, artifacts: Sequence[Artifact]) -> list[Written]:
    """Write files under ``root`` all together or not at all."""
    prepare_root(root)
    with locked(root):
        remove_stale(root)
        transaction = Transaction(root)
        for artifact in artifacts:
            transaction.stage(artifact.path, artifact.data)
        return transaction.commit()


def check_out(workspace: Workspace, out: Path) -> Path:
    """The output root, refused when it would write into the game's sources or the workspace
    root itself (where <game>/<lang>/ folders would mix with card_data/ and templates/)."""
    root = workspace.root.resolve()
    target = out.resolve()
    sources = {"card_data": workspace.card_data, "templates": workspace.templates, "fonts": workspace.fonts}
    if target == root:
        raise PnpError(f"--out {out}: that is the workspace root; choose a folder of its own, "
                       f"such as {workspace.output}")
    for name, folder in sources.items():
        folder = folder.resolve()
        if target == folder or target.is_relative_to(folder):
            raise PnpError(f"--out {out}: that is inside {name}/, the game's sources; pnp does not "
                           f"write there (choose another folder, such as {workspace.output})")
    return out


Callback = Callable[[Progress], None]


def _files_intact(record: Record, root: Path, hasher: Hasher) -> bool:
    return all(hasher.file(root / path) == digest for path, digest in record.files.items())


def _components_file(output: Output) -> str:
    return f"card_data/{output.slug}/{COMPONENTS_FILE}"


def _plan(workspace: Workspace, root: Path, outputs: Sequence[Output], manifest: Manifest,
          manifest_note: str, options: dict[str, str], hasher: Hasher, force: bool
          ) -> tuple[dict[Output, dict[str, str]], list[Outcome]]:
    """The inputs of every output and its outcome: ``up-to-date``, ``rebuilt`` (with why), or
    ``maybe``: a rulebook whose only changed input is components.yaml, decided once the game
    is loaded (see pnp.manifest.rulebook_view)."""
    inputs: dict[Output, dict[str, str]] = {}
    outcomes = []
    for output in outputs:
        inputs[output] = inputs_of(output, workspace, options, hasher)
        record = manifest.records.get(output.key)
        changed = changed_inputs(record.inputs, inputs[output]) if record else []
        status = "rebuilt"
        if force:
            reason = "forced"
        elif record is None:
            reason = manifest_note or "not built before"
        elif not _files_intact(record, root, hasher):
            reason = "an output file is missing or was changed"
        elif output.kind == "rulebook" and not record.files and \
                (root / output.slug / output.lang / "rulebook.pdf").exists():
            reason = "a rulebook.pdf is there, but the game has no rulebook template"
        elif changed == [_components_file(output)] and record.view:
            status, reason = "maybe", describe_change(changed)
        elif changed:
            reason = describe_change(changed)
        else:
            status, reason = "up-to-date", ""
        outcomes.append(Outcome(output, status, reason))
    return inputs, outcomes


def _options(paper: str, sheet: SheetOptions) -> dict[str, str]:
    """The build options an output's bytes depend on, as the manifest records them; an option
    at its default is left out, so adding an option does not rebuild everything."""
    options = {"paper": paper}
    if sheet.back_offset != DEFAULT_SHEET.back_offset:
        options["back_offset"] = f"{sheet.back_offset[0]:g},{sheet.back_offset[1]:g}"
    if sheet.gutter != DEFAULT_SHEET.gutter:
        options["gutter"] = f"{sheet.gutter:g}"
    if sheet.ink != DEFAULT_SHEET.ink:
        options["ink"] = sheet.ink
    return options


def build(workspace: Workspace, game: str, lang: str = "all", paper: str = "a4",
          out: Path | None = None, png: bool = False, force: bool = False,
          progress: Callback | None = None, sheet: SheetOptions = DEFAULT_SHEET) -> BuildReport:
    """Render every requested output that is out of date, then write them all, or nothing.

    ``force`` renders every output; ``sheet`` says how component sheets are imposed;
    ``progress`` is called with a :class:`Progress` as each
    game and script starts rendering and when the files are written.
    """
    if paper not in PAPERS:
        raise PnpError(f"unknown paper {paper!r} (expected one of: {', '.join(PAPERS)})")
    root = check_out(workspace, out) if out is not None else workspace.output
    notify = progress or (lambda _event: None)
    slugs = resolve_games(workspace, game)
    kinds = ("components", "rulebook", "png") if png else ("components", "rulebook")
    outputs = [Output(slug, target, kind) for slug in slugs for target in resolve_langs(lang)
               for kind in kinds]
    manifest, note = load_manifest(root)
    hasher = Hasher(manifest.stat_cache)
    inputs, outcomes = _plan(workspace, root, outputs, manifest, note, _options(paper, sheet), hasher, force)
    report = BuildReport(outcomes=outcomes)
    if all(outcome.status == "up-to-date" for outcome in outcomes):
        log.info("every output is up to date")
        if root.is_dir() and has_stale(root):
            with locked(root):
                report.stale_files = remove_stale(root)
        return report

    wanted = sorted({o.output.slug for o in outcomes if o.status != "up-to-date"})
    games = {g.info.slug: g for g in load_games(workspace, wanted)}
    refreshed: dict[Output, Record] = {}
    viewed: dict[tuple[str, tuple[str, ...]], str] = {}  # both scripts read the same fields
    for index, outcome in enumerate(outcomes):
        if outcome.status != "maybe":
            continue
        output, record = outcome.output, manifest.records[outcome.output.key]
        view = viewed.get((output.slug, record.seen))
        if view is None:
            view = viewed[(output.slug, record.seen)] = rulebook_view(games[output.slug], record.seen)
        if view == record.view:
            # Only card text the rulebook never reads changed: keep the file, renew the record.
            refreshed[output] = dataclasses.replace(record, inputs=inputs[output])
            outcomes[index] = Outcome(output, "up-to-date")
        else:
            outcomes[index] = Outcome(output, "rebuilt", outcome.reason)
    stale = [o.output for o in outcomes if o.status == "rebuilt"]
    artifacts, views = _render(workspace, games, stale, paper, notify, sheet) if stale else ({}, {})
    total = len({(o.slug, o.lang) for o in stale})
    if stale:
        notify(Progress("write", done=total, total=total))
    _write(root, stale, artifacts, inputs, views, refreshed, hasher, report)
    notify(Progress("done", done=total, total=total))
    report.outcomes = [_settled(outcome, artifacts) for outcome in outcomes]
    return report


def _made_by(artifact: Artifact, slug: str, lang: str, kind: str) -> bool:
    folder = Path(slug) / lang
    if kind == "png":
        return artifact.path.parent == folder / "png"
    if kind == "rulebook":  # the player aid is made from the rulebook's sources, with it
        return artifact.path in (folder / "rulebook.pdf", folder / "aid.pdf")
    return artifact.path == folder / f"{kind}.pdf"


def _render(workspace: Workspace, games: dict[str, Game], stale: Sequence[Output], paper: str,
            notify: Callback, sheet: SheetOptions
            ) -> tuple[dict[Output, list[Artifact]], dict[Output, tuple[tuple[str, ...], str]]]:
    """Render the stale outputs, grouped per game and script; every problem reported at once."""
    groups: dict[tuple[str, str], list[str]] = {}
    for output in stale:
        groups.setdefault((output.slug, output.lang), []).append(output.kind)
    artifacts: dict[Output, list[Artifact]] = {}
    views: dict[Output, tuple[tuple[str, ...], str]] = {}
    problems: list[str] = []
    font_problem = False
    # The rulebook's Markdown (template and worked example, in the source script) and the card
    # fields it read are the same for both scripts: made once per game. So is the view of a
    # game for a given set of fields read.
    sources: dict[str, tuple[str, frozenset[str]]] = {}
    seen_views: dict[tuple[str, frozenset[str]], str] = {}
    for index, ((slug, lang), group) in enumerate(groups.items()):
        notify(Progress("render", slug, lang, tuple(Output(slug, lang, k).label for k in group),
                        index, len(groups)))
        game = games[slug]
        sheets = [kind for kind in group if kind != "rulebook"]
        try:
            rendered = (render_game(workspace, game, lang, paper, kinds=sheets, sheet=sheet)
                        if sheets else [])
            if "rulebook" in group:
                source = sources.get(slug)
                if source is None and _has_rulebook(workspace, slug):
                    from pnp.rulebook import rulebook_markdown

                    noted, seen = noting_game(game)
                    source = sources[slug] = (rulebook_markdown(workspace, noted), frozenset(seen))
                noted, seen = noting_game(game)
                rendered += render_game(workspace, noted, lang, paper, kinds=["rulebook"],
                                        markdown=source[0] if source else None)
                read = frozenset(seen | source[1]) if source else frozenset(seen)
                if (slug, read) not in seen_views:
                    seen_views[slug, read] = rulebook_view(game, read)
                views[Output(slug, lang, "rulebook")] = (tuple(sorted(read)), seen_views[slug, read])
        except (BuildError, DataError) as exc:
            problems.extend(exc.problems)
            font_problem = font_problem or isinstance(exc, FontError)
            continue
        for kind in group:
            artifacts[Output(slug, lang, kind)] = [a for a in rendered if _made_by(a, slug, lang, kind)]
    if problems:
        # Both scripts often hit the same problem in the same words: say it once.
        raise (FontError if font_problem else BuildError)(list(dict.fromkeys(problems)))
    return artifacts, views


def _has_rulebook(workspace: Workspace, slug: str) -> bool:
    from pnp.rulebook import template_path

    return template_path(workspace.templates, slug).is_file()


def _settled(outcome: Outcome, artifacts: dict[Output, list[Artifact]]) -> Outcome:
    """A rulebook that could not be made because its template is missing is said so."""
    output = outcome.output
    if outcome.status != "rebuilt" or output.kind != "rulebook" or artifacts.get(output):
        return outcome
    return Outcome(output, "no-template", f"templates/{output.slug}/rulebook.md.j2 not found")


def _write(root: Path, stale: Sequence[Output], artifacts: dict[Output, list[Artifact]],
           inputs: dict[Output, dict[str, str]], views: dict[Output, tuple[tuple[str, ...], str]],
           refreshed: dict[Output, Record], hasher: Hasher, report: BuildReport) -> None:
    """Stage every new file and the updated record, schedule what became obsolete, swap."""
    build_id = uuid.uuid4().hex[:12]
    prepare_root(root)
    with locked(root):
        report.stale_files = remove_stale(root)
        # Read again under the lock: a build that finished meanwhile keeps its records.
        manifest, _ = load_manifest(root)
        transaction = Transaction(root)
        cache = {**manifest.stat_cache, **hasher.used}
        removed: list[Path] = []
        for output in stale:
            made = artifacts.get(output, [])
            files = {}
            for artifact in made:
                transaction.stage(artifact.path, artifact.data)
                digest = hashlib.sha256(artifact.data).hexdigest()
                files[artifact.path.as_posix()] = digest
                cache.pop(str((root / artifact.path).resolve()), None)  # written just now: racy
            old = manifest.records.get(output.key)
            obsolete = {Path(p) for p in (old.files if old else {})} - {a.path for a in made}
            if output.kind != "png" and not made:
                obsolete.add(Path(output.slug) / output.lang / output.label)
            for path in sorted(obsolete):
                if (root / path).is_file() or (root / path).is_symlink():
                    transaction.remove(path)
                    removed.append(root / path)
            record = Record(inputs[output], files, build_id)
            if output in views and made:
                record = dataclasses.replace(record, seen=views[output][0], view=views[output][1])
            manifest.records[output.key] = record
        for output, record in refreshed.items():
            manifest.records[output.key] = record
        manifest.builds[build_id] = {
            "finished": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "pnp": __version__,
            "outputs": sorted(output.key for output in stale),
        }
        manifest.stat_cache = {path: entry for path, entry in cache.items() if Path(path).exists()}
        transaction.stage(Path(MANIFEST_NAME), manifest.to_bytes())
        written = transaction.commit()
    report.written = [item for item in written if item.path.name != MANIFEST_NAME]
    report.removed = removed
    report.build_id = build_id
