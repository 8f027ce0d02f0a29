"""``pnp build``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from pnp.build.pipeline import BuildReport, SheetOptions
from pnp.build.pipeline import build as run_build
from pnp.cli import process
from pnp.cli.options import (
    back_offset_option,
    command,
    echo_json,
    format_option,
    game_argument,
    ink_option,
    json_path,
    lang_option,
    message,
    paper_option,
    quiet,
    shown,
    workspace,
    written_json,
)
from pnp.cli.progress import BuildProgress, outcomes_json
from pnp.core.workspace import Workspace
from pnp.data.gameset import KeptGames


@command()
@game_argument
@lang_option()
@paper_option()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Output root instead of output/ (files go to DIR/<game>/<lang>/).")
@click.option("--png", is_flag=True, help="Also write a 300 dpi PNG of every card face, with bleed, under png/.")
@click.option("--allow-large", is_flag=True,
              help="Build even when the work is past pnp's budget (--png of more than 2,000 "
                   "megapixels of faces: thousands of cards or hundreds of large boards).")
@click.option("--force", is_flag=True, help="Rebuild every output, even those whose sources did not change.")
@back_offset_option
@click.option("--gutter", type=click.FloatRange(0, 20), default=0.0, show_default=True, metavar="MM",
              help="Space between the trims of neighbouring cards. 0 butts them on shared cut "
                   "lines, with bleed around the block only (9 poker cards to an A4 sheet, 8 to "
                   "Letter); 6 or more gives each card its own 3 mm bleed.")
@ink_option(help="saver: print dark backgrounds and panels as light tints with dark text, "
               "to spare a home printer's ink; full prints the design as it is.")
@click.option("--sheet", "sheet_name", metavar="NAME",
              help="Fill the sheet template NAME (card_data/GAME/sheets/NAME.yaml, else sheets/NAME.yaml, "
                   "else shipped: poker-3x3-a4, poker-3x3-letter) with every piece its slots take; the "
                   "rest go on computed sheets after it, all on its paper, whatever --paper says. "
                   "Overrides `sheet` in pnp.toml.")
@click.option("--watch", is_flag=True, help="Build, then build again on every save until Ctrl-C.")
@format_option("text", "json", help="text: what was written, on stderr; json: the build's report on "
               "stdout (each output's status and why, the files written).")
@click.pass_context
def build(ctx: click.Context, game: str, lang: str, paper: str, out: Path | None, png: bool,
          allow_large: bool, force: bool, back_offset: tuple[float, float], gutter: float, ink: str,
          sheet_name: str | None, watch: bool, fmt: str) -> None:
    """Build print-ready PDFs for GAME (or all): components.pdf, rulebook.pdf and aid.pdf per script.

    Only outputs whose sources (data, templates, fonts, options, pnp itself) changed since the
    last build are rendered again; the record is output/.pnp-build.json.
    """
    found = workspace(ctx)
    sheet = SheetOptions(gutter, back_offset, ink, sheet_name, _origin(ctx, found))
    as_json = fmt == "json"
    if watch and as_json:
        raise click.UsageError("--format json reports one build; it does not go with --watch")
    if watch:
        from pnp.cli.serve import watch_build

        # --force rebuilds everything once; after that each save rebuilds what it changed.
        watch_build(found, lambda changed, kept: _build_once(found, game, lang, paper, out, png,
                                                             force and not changed, sheet,
                                                             allow_large=allow_large, kept=kept))
        return
    _build_once(found, game, lang, paper, out, png, force, sheet, as_json, allow_large)
    # Written, closed and swapped into place; no worker or thread outlives the build.
    process.end_at_once()


def _origin(ctx: click.Context, found: Workspace) -> str:
    """Where the sheet template's name was given: --sheet, or the line of pnp.toml."""
    if ctx.get_parameter_source("sheet_name") is ParameterSource.DEFAULT_MAP:
        from pnp.cli.config import setting_origin

        return setting_origin(found.root, "sheet")
    return "--sheet"


def _build_once(found: Workspace, game: str, lang: str, paper: str, out: Path | None, png: bool,
                force: bool, sheet: SheetOptions, as_json: bool = False, allow_large: bool = False,
                kept: KeptGames | None = None) -> None:
    # -q keeps stderr for errors alone: no progress, no outcome lines, no "wrote".
    shown_progress = None if quiet() else BuildProgress()
    report = run_build(found, game, lang, paper.lower(), out, png, force=force, progress=shown_progress,
                       sheet=sheet, allow_large=allow_large, kept=kept)
    if as_json:
        echo_json(_report_json(found, report))
        return
    for warning in report.warnings:
        message(f"warning: {warning}")
    if shown_progress is not None:
        shown_progress.summary(report)
    for slug, share in report.sheets:
        message(f"{slug}: sheet template {share.template} ({share.file}): in its slots "
                f"{_copies(share.on_template)}; on computed sheets {_copies(share.on_computed)}")
    written = report.written
    pngs = [item for item in written if item.path.suffix == ".png"]
    for item in written:
        if item.path.suffix != ".png":
            message(f"wrote {shown(item.path)} ({item.size / 1024:.0f} KiB)")
    if pngs:
        folders = sorted({str(item.path.parent) for item in pngs})
        message(f"wrote {len(pngs)} PNG faces in {', '.join(folders)}")


def _copies(copies: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{component} ×{count}" for component, count in copies) or "nothing"


def _report_json(found: Workspace, report: BuildReport) -> dict[str, Any]:
    return {
        "build": report.build_id or None,  # None: nothing needed building
        "outputs": outcomes_json(report),
        "written": written_json(found, report.written),
        "removed": [json_path(found, path) for path in report.removed],
        "recovered": [{"folder": json_path(found, item.journal.parent), "outcome": item.outcome}
                      for item in report.recovered],
        "warnings": report.warnings,
        # Per game built on a sheet template: each component's copies in its slots and on
        # computed sheets.
        "sheets": {slug: {"template": share.template, "file": share.file,
                          "on_template": dict(share.on_template), "on_computed": dict(share.on_computed)}
                   for slug, share in report.sheets},
    }

