"""Build orchestration: plan -> load -> validate -> render in memory -> stage and swap.

Each output (one kind of :mod:`pnp.build.outputs` for one game and script: the build's
components.pdf, rulebook.pdf, aid.pdf or PNG faces, an export's folder, a sample game's PDF;
or for one script, the calibration sheet) is rendered only when something it is built from
(its sources, options and parameters) changed since the build recorded at the output root
(:mod:`pnp.build.manifest`), or with ``force``. Nothing reaches the disk until every output to make
has rendered without a single problem; then every file, and the record, is staged beside its
target and all are swapped in together (:mod:`pnp.build.staging`), so a failed build leaves the
earlier outputs exactly as they were, never a mix of old and new.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import hashlib
import logging
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp import __version__
from pnp.build.filestamps import Hasher
from pnp.build.kinds import BUILD_KINDS, DEFAULT_SHEET, SheetOptions, render_game, sheet_templates, template_shares
from pnp.build.manifest import (
    MANIFEST_NAME,
    Manifest,
    PlanReads,
    Record,
    changed_inputs,
    describe_change,
    inputs_of,
    load_manifest,
)
from pnp.build.outputs import Artifact, Output, OutputKind, Rendered, RenderJob
from pnp.build.staging import Recovery, Transaction, Written, locked, prepare_root, recover, recover_folder
from pnp.build.workload import check_workload
from pnp.core.choices import LANGS, canonical_paper, paper_names
from pnp.core.errors import BuildError, DataError, FontError, PnpError
from pnp.core.records import record
from pnp.core.workspace import Workspace
from pnp.data.gameset import KeptGames, load_games, resolve_games
from pnp.data.imagefiles import keeping
from pnp.data.images import resolution_warnings
from pnp.data.load import COMPONENTS_FILE
from pnp.games.registry import tables_from_engine
from pnp.text.convert import converter_for

if TYPE_CHECKING:
    from pnp.data.model import Game
    from pnp.data.sheettemplate import SheetTemplate
    from pnp.layout.template_plan import TemplateShare

__all__ = ["DEFAULT_SHEET", "Artifact", "BuildReport", "FileReport", "Output", "OutputKind", "Progress",
           "SheetOptions", "Written", "build", "converter_for", "load_games", "make", "make_file", "render_game",
           "resolve_games", "resolve_langs", "write_atomically"]

# Marks a folder an output kind owns whole (an export's): only such a folder, or an empty one,
# is ever written into and emptied of what the new output does not make.
MARKER = ".pnp-export"
MARKER_TEXT = b"made by pnp export\n"
# Why an output written outside any output root is made every time.
UNRECORDED = "not recorded: it is outside the output root"

log = logging.getLogger(__name__)



@record
class Progress:
    """A step of a build, for a progress display: ``done`` of ``total`` renders finished."""

    stage: str  # "render" (starting one game and script) | "write" | "done"
    slug: str = ""
    lang: str = ""
    outputs: tuple[str, ...] = ()
    done: int = 0
    total: int = 0


@record
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
    recovered: list[Recovery] = field(default_factory=list)  # writes a killed pnp left, finished or undone
    build_id: str = ""
    warnings: list[str] = field(default_factory=list)  # what printed but may disappoint (coarse pictures)
    # Per game whose component sheets were made on a sheet template: what went in its slots
    # and what on computed sheets (pnp.layout.template_plan.TemplateShare).
    sheets: list[tuple[str, TemplateShare]] = field(default_factory=list)

    def __iter__(self) -> Iterator[Written]:  # a report reads as the files written, as build() returned before
        return iter(self.written)


def resolve_langs(lang: str) -> list[str]:
    return list(LANGS) if lang == "all" else [lang]


def write_atomically(root: Path, artifacts: Sequence[Artifact]) -> list[Written]:
    """Write files under ``root`` all together or not at all."""
    prepare_root(root)
    with locked(root):
        recover(root)
        transaction = Transaction(root)
        for artifact in artifacts:
            transaction.stage(artifact.path, artifact.data)
        return transaction.commit()


def check_out(workspace: Workspace, out: Path) -> Path:
    """The output root ``--out``, checked by the workspace (:meth:`Workspace.out_folder`)."""
    return workspace.out_folder(out)


Callback = Callable[[Progress], None]




def _options(paper: str, sheet: SheetOptions) -> dict[str, str]:
    """The build options an output's bytes can depend on, as the manifest records them (each
    kind keeps those it names); an option at its default is left out, so adding an option does
    not rebuild everything."""
    options = {"paper": paper}
    if sheet.back_offset != DEFAULT_SHEET.back_offset:
        options["back_offset"] = f"{sheet.back_offset[0]:g},{sheet.back_offset[1]:g}"
    if sheet.gutter != DEFAULT_SHEET.gutter:
        options["gutter"] = f"{sheet.gutter:g}"
    if sheet.ink != DEFAULT_SHEET.ink:
        options["ink"] = sheet.ink
    return options


# Outcomes that leave nothing to render: a file as it was, or a game without the template.
NOTHING_TO_DO = ("up-to-date", "no-template")


def build(workspace: Workspace, game: str, lang: str = "all", paper: str = "a4",
          out: Path | None = None, png: bool = False, force: bool = False,
          progress: Callback | None = None, sheet: SheetOptions = DEFAULT_SHEET,
          allow_large: bool = False, kept: KeptGames | None = None) -> BuildReport:
    """Render every requested output that is out of date, then write them all, or nothing.

    ``force`` renders every output; ``sheet`` says how component sheets are imposed; ``kept``
    keeps the games loaded from one build to the next (a process that builds again and again);
    ``progress`` is called with a :class:`Progress` as each
    game and script starts rendering and when the files are written.
    """
    known = canonical_paper(paper)
    if known is None:
        raise PnpError(f"unknown paper {paper!r}: expected {paper_names()}")
    paper = known
    root = check_out(workspace, out) if out is not None else workspace.output_folder()
    slugs = resolve_games(workspace, game)
    kinds = [kind for kind in BUILD_KINDS if png or not kind.on_request]
    outputs = [Output(slug, target, kind) for slug in slugs for target in resolve_langs(lang) for kind in kinds]
    return make(workspace, root, outputs, paper, force, progress, sheet, allow_large=allow_large, kept=kept)


@contextlib.contextmanager
def _kept_work(kept: KeptGames | None) -> Iterator[None]:
    """What a process that builds again and again keeps from one build's rendering to the
    next: the SVGs it read and the streams it deflated."""
    if kept is None:
        yield
        return
    from pnp.render.deflation import remembered_deflates

    with keeping(kept.drawings), remembered_deflates():
        yield


def make(workspace: Workspace, root: Path, outputs: Sequence[Output], paper: str, force: bool = False,
         progress: Callback | None = None, sheet: SheetOptions = DEFAULT_SHEET,
         recorded: bool = True, allow_large: bool = False, kept: KeptGames | None = None) -> BuildReport:
    """Make ``outputs`` of any kinds under ``root``: plan, render the stale ones, write them
    all or nothing, with the record. ``recorded`` false makes them all without reading or
    writing a record (a file pnp was pointed at outside any output root); ``allow_large``
    lifts the budget on a build's work (pnp.build.workload); ``kept`` keeps loaded games
    (see :func:`build`)."""
    notify = progress or (lambda _event: None)
    # First what a killed write left here: an export folder it was swapping is then whole again.
    recovered = recover_folder(root)
    for output in outputs:
        _check_owned(root / output.folder, output.kind)
    manifest, note = load_manifest(root) if recorded else (Manifest(), UNRECORDED)
    hasher = Hasher(manifest.stat_cache)
    templates = sheet_templates(workspace, sheet, list(dict.fromkeys(
        output.slug for output in outputs if output.kind.per_game and "sheet" in output.kind.options)))
    inputs, outcomes = _plan(workspace, root, outputs, manifest, note, _options(paper, sheet), hasher, force,
                             templates)
    report = BuildReport(outcomes=outcomes, recovered=recovered)
    if all(outcome.status in NOTHING_TO_DO for outcome in outcomes):
        log.info("every output is up to date")
        return report

    wanted = sorted({o.output.slug for o in outcomes if o.status not in NOTHING_TO_DO and o.output.kind.per_game})
    loaded = kept.load(workspace, wanted) if kept is not None else load_games(workspace, wanted, tables_from_engine)
    games = {g.info.slug: g for g in loaded}
    refreshed = _settle_maybes(games, outcomes, manifest, inputs)
    report.warnings = [warning for game in games.values()
                       for warning in resolution_warnings(game.components, game.layouts, game.images)]
    stale = [o.output for o in outcomes if o.status == "rebuilt"]
    check_workload(games, stale, allow_large)
    with _kept_work(kept):
        rendered = _render(workspace, games, stale, paper, notify, sheet, templates) if stale else {}
    sheeted = {o.slug: games[o.slug] for o in stale if o.slug in templates and "sheet" in o.kind.options}
    report.sheets = template_shares(sheeted, templates, paper, sheet)
    report.warnings += [f"{slug}: sheet template {share.template!r} ({share.file}) takes none of its pieces: "
                        "all are on computed sheets" for slug, share in report.sheets if not share.on_template]
    total = len({(o.slug, o.lang) for o in stale})
    if stale:
        notify(Progress("write", done=total, total=total))
    _write(root, stale, rendered, inputs, refreshed, hasher, report, recorded)
    notify(Progress("done", done=total, total=total))
    report.outcomes = [_settled(workspace, outcome, rendered) for outcome in outcomes]
    return report


@record
class FileReport:
    """What became of one file a command makes (a sample game's PDF, the calibration sheet)."""

    path: Path
    report: BuildReport

    @property
    def written(self) -> Written | None:
        return self.report.written[0] if self.report.written else None


def make_file(workspace: Workspace, root: Path, target: Path, output: Output, paper: str, force: bool = False,
              sheet: SheetOptions = DEFAULT_SHEET) -> FileReport:
    """Make ``output``, of a single-file kind, as the file ``target``.

    Inside the output root ``root`` (where a command's default path always is) it is recorded
    there as the build's outputs are, and made again only when something it is built from
    changed (or with ``force``). Anywhere else (``--out`` elsewhere) it is written as asked but
    made every time: pnp leaves no record in a folder it was merely pointed at."""
    target = target if target.is_absolute() else Path.cwd() / target
    workspace.out_file(target)
    if target.name in (MANIFEST_NAME, MARKER):
        raise PnpError(f"{target}: that name is kept for pnp's own record; choose another file name")
    folder = target.parent.resolve()
    home = root.resolve()
    if folder.is_relative_to(home):
        placed = dataclasses.replace(output, place=folder.relative_to(home), file=target.name)
        report = make(workspace, root, [placed], paper, force, sheet=sheet)
        return FileReport(root / placed.folder / placed.file, report)
    placed = dataclasses.replace(output, place=Path(), file=target.name)
    return FileReport(target, make(workspace, target.parent, [placed], paper, force, sheet=sheet, recorded=False))


def _check_owned(folder: Path, kind: OutputKind) -> None:
    """A kind that owns its folder writes only into one it made before, or an empty one."""
    if not kind.owns_folder or not folder.exists():
        return
    if not folder.is_dir() or not ((folder / MARKER).is_file() or not any(folder.iterdir())):
        # Only exports own their folders (hence the marker's name).
        raise PnpError(f"{folder}: exists and was not made by pnp export; choose another --out or remove it")


def _folder_files(folder: Path) -> set[Path]:
    """The files of an owned folder, as paths relative to it; hidden ones (the marker, the
    record, a writer's temporaries) are not the output's."""
    if not folder.is_dir():
        return set()
    return {path.relative_to(folder) for path in folder.rglob("*")
            if path.is_file() and not any(part.startswith(".") for part in path.relative_to(folder).parts)}


def _files_intact(output: Output, record: Record, root: Path, hasher: Hasher) -> bool:
    if not all(hasher.file(root / path) == digest for path, digest in record.files.items()):
        return False
    if output.kind.owns_folder:  # and nothing else is in the folder
        return {output.folder / path for path in _folder_files(root / output.folder)} == \
            {Path(path) for path in record.files}
    return True


def _plan(workspace: Workspace, root: Path, outputs: Sequence[Output], manifest: Manifest,
          manifest_note: str, options: dict[str, str], hasher: Hasher, force: bool,
          templates: dict[str, SheetTemplate]) -> tuple[dict[Output, dict[str, str]], list[Outcome]]:
    """The inputs of every output and its outcome: ``up-to-date``, ``rebuilt`` (with why), or
    ``maybe``: a book whose only changed input is components.yaml, decided once the game
    is loaded (see pnp.build.manifest.rulebook_view)."""
    inputs: dict[Output, dict[str, str]] = {}
    outcomes = []
    components = {output.slug: f"card_data/{output.slug}/{COMPONENTS_FILE}" for output in outputs}
    reads = PlanReads()
    for output in outputs:
        template = templates.get(output.slug)
        # Each game's own template (and its digest): an edit rebuilds that game's sheets alone.
        own = options if template is None else {**options, "sheet": template.option}
        inputs[output] = inputs_of(output, workspace, own, hasher, reads)
        record = manifest.records.get(output.key)
        changed = changed_inputs(record.inputs, inputs[output]) if record else []
        status = "rebuilt"
        kind = output.kind
        if force:
            reason = "forced"
        elif record is None:
            reason = manifest_note or "not built before"
        elif not _files_intact(output, record, root, hasher):
            reason = "an output file is missing or was changed"
        elif kind.single_file and kind.needs and not record.files and (root / output.folder / output.files).exists():
            reason = f"a {kind.label} is there, but the game has no {kind.needs[-1]} template"
        elif changed == [components[output.slug]] and record.view:
            status, reason = "maybe", describe_change(changed)
        elif changed:
            reason = describe_change(changed)
        elif kind.needs and not record.files:
            # Nothing changed, and the game still has none of it: say why, as the build that
            # found the template missing did (not "up to date", which claims a file).
            status, reason = "no-template", _missing_template(workspace, output)
        else:
            status, reason = "up-to-date", ""
        outcomes.append(Outcome(output, status, reason))
    return inputs, outcomes


def _settle_maybes(games: dict[str, Game], outcomes: list[Outcome], manifest: Manifest,
                   inputs: dict[Output, dict[str, str]]) -> dict[Output, Record]:
    """Decide each ``maybe``: a book whose view of the game did not change is kept (its record
    renewed and returned), any other is rebuilt."""
    from pnp.build.manifest import rulebook_view

    refreshed: dict[Output, Record] = {}
    viewed: dict[tuple[str, tuple[str, ...]], str] = {}  # both scripts read the same fields
    walked: dict[str, dict[int, Any]] = {}  # what a game's book and aid both walk, walked once
    for index, outcome in enumerate(outcomes):
        if outcome.status != "maybe":
            continue
        output, record = outcome.output, manifest.records[outcome.output.key]
        view = viewed.get((output.slug, record.seen))
        if view is None:
            view = viewed[(output.slug, record.seen)] = rulebook_view(games[output.slug], record.seen,
                                                                       walked.setdefault(output.slug, {}))
        if view == record.view:
            # Only card text the book never reads changed: keep the file, renew the record.
            refreshed[output] = dataclasses.replace(record, inputs=inputs[output])
            outcomes[index] = Outcome(output, "up-to-date")
        else:
            outcomes[index] = Outcome(output, "rebuilt", outcome.reason)
    return refreshed


def _render(workspace: Workspace, games: dict[str, Game], stale: Sequence[Output], paper: str,
            notify: Callback, sheet: SheetOptions, templates: dict[str, SheetTemplate]
            ) -> dict[Output, Rendered]:
    """Render the stale outputs, grouped per game and script; every problem reported at once."""
    groups: dict[tuple[str, str], list[Output]] = {}
    for output in stale:
        groups.setdefault((output.slug, output.lang), []).append(output)
    rendered: dict[Output, Rendered] = {}
    problems: list[str] = []
    font_problem = False
    memo: dict[object, object] = {}  # what outputs of one build share (a game's book sources)
    for index, ((slug, lang), group) in enumerate(groups.items()):
        notify(Progress("render", slug, lang, tuple(output.label for output in group), index, len(groups)))
        for output in group:
            game = games[slug] if output.kind.per_game else None
            job = RenderJob(workspace, game, lang, paper, dataclasses.replace(sheet, template=templates.get(slug)),
                            memo, output.params)
            try:
                rendered[output] = output.kind.render(job)
            except (BuildError, DataError) as exc:
                problems.extend(exc.problems)
                font_problem = font_problem or isinstance(exc, FontError)
    if problems:
        # Both scripts, and the outputs of one, often hit the same problem in the same words: say it once.
        raise (FontError if font_problem else BuildError)(list(dict.fromkeys(problems)))
    return rendered


def _settled(workspace: Workspace, outcome: Outcome, rendered: dict[Output, Rendered]) -> Outcome:
    """An output that could not be made because a template it needs is missing is said so."""
    output = outcome.output
    kind = output.kind
    made = rendered.get(output)
    if outcome.status != "rebuilt" or not kind.needs or (made is not None and made.artifacts):
        return outcome
    return Outcome(output, "no-template", _missing_template(workspace, output))


def _missing_template(workspace: Workspace, output: Output) -> str:
    needs = output.kind.needs
    folder = workspace.templates / output.slug
    missing = next((name for name in needs if not (folder / name).is_file()), needs[-1])
    return f"templates/{output.slug}/{missing} not found"


def _write(root: Path, stale: Sequence[Output], rendered: dict[Output, Rendered],
           inputs: dict[Output, dict[str, str]], refreshed: dict[Output, Record], hasher: Hasher,
           report: BuildReport, recorded: bool = True) -> None:
    """Stage every new file and the updated record, schedule what became obsolete, swap."""
    build_id = uuid.uuid4().hex[:12]
    prepare_root(root)
    with locked(root):
        report.recovered += recover(root)
        # Read again under the lock: a build that finished meanwhile keeps its records.
        manifest = load_manifest(root)[0] if recorded else Manifest()
        transaction = Transaction(root)
        cache = {**manifest.stat_cache, **hasher.used}
        keys = {output.key for output in stale}
        # Files another output's record holds stay, whatever an older record of this one said.
        kept = {Path(path) for key, record in manifest.records.items() if key not in keys for path in record.files}
        obsolete: set[Path] = set()
        owned: set[Path] = set()  # the files of owned folders: only what the new output makes stays
        for output in stale:
            made = rendered[output].artifacts if output in rendered else ()
            files = {}
            for artifact in made:
                path = output.path_of(artifact)
                transaction.stage(path, artifact.data)
                files[path.as_posix()] = hashlib.sha256(artifact.data).hexdigest()
                kept.add(path)
                cache.pop(str((root / path).absolute()), None)  # written just now: racy
            if output.kind.owns_folder:
                transaction.stage(output.folder / MARKER, MARKER_TEXT)
                owned |= {output.folder / path for path in _folder_files(root / output.folder)}
            old = manifest.records.get(output.key)
            obsolete |= {Path(path) for path in (old.files if old else {})}
            if output.kind.single_file and not made:
                obsolete.add(output.folder / output.files)
            record = Record(inputs[output], files, build_id)
            if made and rendered[output].view:
                record = dataclasses.replace(record, seen=rendered[output].seen, view=rendered[output].view)
            manifest.records[output.key] = record
        removed = []
        staged = {Path(path) for output in stale for path in manifest.records[output.key].files}
        for path in sorted((obsolete - kept) | (owned - staged)):
            if (root / path).is_file() or (root / path).is_symlink():
                transaction.remove(path)
                removed.append(root / path)
        for output, record in refreshed.items():
            manifest.records[output.key] = record
        manifest.builds[build_id] = {
            "finished": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "pnp": __version__,
            "outputs": sorted(keys),
        }
        manifest.stat_cache = {path: entry for path, entry in cache.items() if Path(path).exists()}
        if recorded:
            transaction.stage(Path(MANIFEST_NAME), manifest.to_bytes())
        written = transaction.commit()
    report.written = [item for item in written if item.path.name not in (MANIFEST_NAME, MARKER)]
    report.removed = removed
    report.build_id = build_id
