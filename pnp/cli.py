"""The ``pnp`` command: parses options, calls one core function, prints the result."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import click

from pnp import __version__
from pnp.workspace import Workspace, find_workspace

LANG_CHOICE = click.Choice(["zh-Hant", "zh-Hans", "all"])


class Context:
    def __init__(self, root: Path | None) -> None:
        self._root = root

    @property
    def workspace(self) -> Workspace:
        return find_workspace(self._root)


pass_context = click.make_pass_decorator(Context)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path),
              help="Workspace root (default: walk up from the current folder to card_data/).")
@click.option("-v", "--verbose", is_flag=True, help="Log what pnp is doing to stderr.")
@click.pass_context
def cli(ctx: click.Context, root: Path | None, verbose: bool) -> None:
    """pnp: print-and-play sheets, bilingual rulebooks and rules checks for Chinese tabletop games."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    ctx.obj = Context(root)
    from pnp.cli_loop import config_defaults

    ctx.default_map = config_defaults(root)


@cli.command("list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@pass_context
def list_games(context: Context, fmt: str) -> None:
    """List the games in card_data/ with their components and counts."""
    from pnp.catalog import catalog

    games = catalog(context.workspace)
    if fmt == "json":
        click.echo(json.dumps({"games": games}, ensure_ascii=False, indent=2))
        return
    for game in games:
        players = f"{game['players']['min']}–{game['players']['max']}"
        click.echo(f"{game['slug']}  {game['name']}  ({players} players, source {game['source_lang']}, "
                   f"version {game['version']})")
        for component in game["components"]:
            click.echo(f"    {component['count']:>4} × {component['name']} ({component['id']})")


@cli.command()
@click.argument("game")
@click.option("--lang", type=LANG_CHOICE, default="all", show_default=True,
              help="Script to build.")
@click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False), default="a4",
              show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Output root instead of output/ (files go to DIR/<game>/<lang>/).")
@click.option("--png", is_flag=True, help="Also write a 300 dpi PNG of every card face, with bleed, under png/.")
@click.option("--force", is_flag=True, help="Rebuild every output, even those whose sources did not change.")
@click.option("--back-offset", default="0,0", show_default=True, metavar="X,Y",
              help="Move every back sheet X mm right and Y mm down (read off `pnp calibrate`).")
@click.option("--gutter", type=click.FloatRange(0, 20), default=None, metavar="MM",
              help="Space between the trims of neighbouring cards. 0 butts them on shared cut "
                   "lines (9 poker cards to an A4 or Letter sheet). Default: each card keeps "
                   "its own 3 mm bleed.")
@click.option("--ink", type=click.Choice(["full", "saver"]), default="full", show_default=True,
              help="saver: print dark backgrounds and panels as light tints with dark text, "
                   "to spare a home printer's ink; full prints the design as it is.")
@pass_context
def build(context: Context, game: str, lang: str, paper: str, out: Path | None, png: bool, force: bool,
          back_offset: str, gutter: float | None, ink: str) -> None:
    """Build print-ready PDFs for GAME (or all): components.pdf and rulebook.pdf per script.

    Only outputs whose sources (data, templates, fonts, options, pnp itself) changed since the
    last build are rendered again; the record is output/.pnp-build.json.
    """
    from pnp.build import SheetOptions
    from pnp.build import build as run_build
    from pnp.progress import BuildProgress

    workspace = context.workspace
    shown_progress = BuildProgress()
    report = run_build(workspace, game, lang, paper.lower(), out, png, force=force, progress=shown_progress,
                       sheet=SheetOptions(gutter, parse_offset_option(back_offset), ink))
    shown_progress.summary(report)
    written = report.written
    pngs = [item for item in written if item.path.suffix == ".png"]
    for item in written:
        if item.path.suffix == ".png":
            continue
        try:
            shown = item.path.relative_to(Path.cwd())
        except ValueError:
            shown = item.path
        click.echo(f"wrote {shown} ({item.size / 1024:.0f} KiB)")
    if pngs:
        folders = sorted({str(item.path.parent) for item in pngs})
        click.echo(f"wrote {len(pngs)} PNG faces in {', '.join(folders)}")


from pnp.cli_rules import calc, check, tables  # noqa: E402  (the rules commands: check, tables, calc)

cli.add_command(check)
cli.add_command(tables)
cli.add_command(calc)

from pnp.cli_play import sample, simulate  # noqa: E402  (the sample-game commands)

cli.add_command(sample)
cli.add_command(simulate)

from pnp.cli_loop import LOOP_COMMANDS, parse_offset_option  # noqa: E402  (export, calibrate, new)

for _command in LOOP_COMMANDS:
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="pnp")


if __name__ == "__main__":
    main()
