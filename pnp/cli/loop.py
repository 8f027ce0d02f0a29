"""The designer's-loop commands: export, calibrate, new."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pnp.cli.options import (
    LangType,
    back_offset_option,
    command,
    echo_json,
    format_option,
    json_path,
    lang_option,
    message,
    output_root,
    paper_option,
    quiet,
    shown,
    written_json,
)
from pnp.core.errors import PnpError

# The group's context object (pnp.cli.options.WorkspaceRef) is passed as ``obj``.


@command("export")
@click.argument("kind", metavar="KIND")
@click.argument("game")
@lang_option(help="Script to export.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write instead of output/<game>/<lang>/<kind>/ (output/ or "
                   "pnp.toml's out).")
@paper_option(help="Paper of the tuck boxes.")
@click.option("--force", is_flag=True, help="Export again even when nothing it is made from changed.")
@format_option("text", "json", help="json: each export's status and why, and the files written, on stdout.")
@click.pass_obj
def export(context: Any, kind: str, game: str, lang: str, out: Path | None, paper: str, force: bool,
           fmt: str) -> None:
    """Export GAME for Tabletop Simulator (KIND tts), a print shop (print-shop), a chat (contact)
    or as tuck boxes (tuckbox).

    Only exports whose sources (data, fonts, options, pnp itself) changed since the last one are
    made again; the record is the output folder's .pnp-build.json.
    """
    from pnp.build.pipeline import check_out
    from pnp.cli.progress import BuildProgress, outcomes_json
    from pnp.export.exports import EXPORT_KINDS
    from pnp.export.exports import export as run_export

    if kind not in EXPORT_KINDS:  # the kinds are the export's registry, read only when the command runs
        raise click.BadParameter(f"{kind!r} is not one of {', '.join(map(repr, EXPORT_KINDS))}.",
                                 param_hint="'KIND'")
    if out is not None:  # the same refusal as `pnp build --out`: never into the game's sources
        check_out(context.workspace, out)
    found = context.workspace
    shown_progress = None if quiet() else BuildProgress()
    report = run_export(found, kind, game, lang, out, paper.lower(), output_root(found), force, shown_progress)
    if fmt == "json":
        echo_json({"export": kind, "game": game, "outputs": outcomes_json(report),
                   "written": written_json(found, report.written)})
        return
    if shown_progress is not None:
        shown_progress.summary(report)
    written = report.written
    if written:
        folders = sorted({str(shown(item.path.parent)) for item in written})
        size = sum(item.size for item in written)
        message(f"wrote {len(written)} files ({size / 1024:.0f} KiB) in {', '.join(folders)}")


@command("calibrate")
@paper_option()
@lang_option("zh-Hant", allow_all=False, help="Script of the instructions.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="File to write instead of output/calibrate-<paper>.pdf.")
@back_offset_option
@click.option("--force", is_flag=True, help="Write the sheet again even when nothing it is made from changed.")
@format_option("text", "json", help="json: the sheet's status and why, and the file written, on stdout.")
@click.pass_obj
def calibrate(context: Any, paper: str, lang: str, out: Path | None,
              back_offset: tuple[float, float], force: bool, fmt: str) -> None:
    """Write a duplex test sheet that measures how far the printer shifts the back side.

    It is written again only when its paper, back offset, script or fonts (or pnp itself)
    changed; the record is the output folder's .pnp-build.json.
    """
    from pnp.cli.progress import outcomes_json
    from pnp.export.calibrate import calibrate as make_sheet

    workspace = context.workspace
    paper = paper.lower()
    made = make_sheet(workspace, paper, lang, back_offset, out, output_root(workspace), force)
    if fmt == "json":
        echo_json({"paper": paper, "back_offset_mm": list(back_offset), "path": json_path(workspace, made.path),
                   "outputs": outcomes_json(made.report), "written": written_json(workspace, made.report.written)})
        return
    advice = "print it double-sided (long-edge flip) at actual size"
    if made.written is None:
        message(f"{shown(made.path)} up to date: {advice}")
    else:
        message(f"wrote {shown(made.written.path)}: {advice}")


@command("new")
@click.argument("slug")
@click.option("--source-lang", type=LangType(allow_all=False), default="zh-Hant", show_default=True,
              help="Script the game is written in (zh-Hant, zh-Hans, zh-TW, zh-CN …); the other "
                   "edition is converted from it.")
@click.option("--engine", is_flag=True,
              help="Start from the engine kit's tutorial game instead, with its rules engine as a "
                   "Python package in engines/SLUG/ (install it with pip install -e; "
                   "docs/engine-kit.md).")
@format_option("text", "json", help="json: the workspace and the files written, on stdout.")
@click.pass_obj
def new(context: Any, slug: str, source_lang: str, engine: bool, fmt: str) -> None:
    """Start a game: card_data/SLUG/ and templates/SLUG/ with a deck, a token, a score pad and a
    rulebook that build and check at once. Outside a workspace it starts one in the current
    folder (or --root): card_data/, templates/, pnp.toml and a .gitignore for the outputs.
    With --engine, the game is a small deck game played by a rules engine written to pnp's
    engine kit, in engines/SLUG/ beside the data."""
    from pnp.core.workspace import Workspace
    from pnp.scaffold import engine_folder, start

    try:
        found: Workspace | None = context.workspace
    except PnpError:
        found = None  # none here or above: pnp new starts one
    root = found.root if found is not None else context.start
    outputs = [Workspace(root).output] + ([output_root(found)] if found is not None else [])
    started = start(root, slug, source_lang, list(dict.fromkeys(outputs)), engine=engine)
    workspace = started.workspace
    if fmt == "json":
        echo_json({"game": slug, "source_lang": source_lang, "engine": engine,
                   "workspace": {"root": str(workspace.root), "created": started.created_workspace},
                   "written": [json_path(workspace, path) for path in started.written],
                   "workspace_files": [json_path(workspace, path) for path in started.workspace_files]})
        return
    if started.created_workspace:
        message(f"started a pnp workspace in {workspace.root} (card_data/, templates/, pnp.toml, "
                ".gitignore): pnp finds it from this folder and any folder inside it")
    for path in started.written:
        message(f"wrote {shown(path)}")
    if not started.created_workspace and any(path.name == ".gitignore" for path in started.workspace_files):
        message(f"added the output folder to {shown(workspace.root / '.gitignore')}")
    out = shown(outputs[-1] / slug / source_lang)
    if engine:
        # pnp imports no code from a workspace: the engine plays once its folder is installed.
        package = shown(engine_folder(workspace, slug))
        message(f"next: pip install -e {package} (into the environment pnp runs in; again after "
                f"editing its pyproject.toml), then pnp check {slug} and pnp sample {slug}")
    message(f"next: pnp build {slug} --lang {source_lang}, then look at {out}/")


LOOP_COMMANDS = [export, calibrate, new]
