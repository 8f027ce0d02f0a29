"""The ``pnp`` command: parses options, calls one core function, prints the result.

Each sub-command lives in a module of this package and is imported only when it runs (or
its help is asked for), so ``pnp --help`` loads no engine. Adding a command is one line in
``COMMANDS``: its name and ``"module:attribute"`` of its click command.
"""

from __future__ import annotations

import importlib
import logging
from pathlib import Path
from typing import Any

import click

from pnp import __version__
from pnp.cli.options import UserError, WorkspaceRef
from pnp.core.errors import PnpError
from pnp.core.workspace import find_workspace

# name -> "module:click command", in the order ``pnp --help`` lists them
COMMANDS: dict[str, str] = {
    "list": "pnp.cli.catalog:list_games",
    "build": "pnp.cli.build:build",
    "check": "pnp.cli.proof:check",
    "tables": "pnp.cli.proof:tables",
    "calc": "pnp.cli.calc:calc",
    "sample": "pnp.cli.play:sample",
    "simulate": "pnp.cli.play:simulate",
    "replay": "pnp.cli.play:replay",
    "export": "pnp.cli.loop:export",
    "calibrate": "pnp.cli.loop:calibrate",
    "new": "pnp.cli.loop:new",
    "serve": "pnp.cli.serve:serve",
}

# One-line help of each command for ``pnp --help``, so listing them imports none.
SUMMARIES: dict[str, str] = {
    "list": "List the games in card_data/ with their components and counts.",
    "build": "Build print-ready PDFs for GAME (or all).",
    "check": "Check GAME (or all): tables, counts, typed numbers, rules lint, purity, glyphs.",
    "tables": "Print the tables the rules engine computes for GAME.",
    "calc": "Playtest-night calculators: pnp calc GAME WHAT ARGS...",
    "sample": "Play one seeded game of GAME with bots and narrate it.",
    "simulate": "Play many bot games of GAME and report on them.",
    "replay": "Replay a game's JSON log step by step; the first illegal step is an error.",
    "export": "Export GAME's faces for Tabletop Simulator, a print shop, a contact sheet or tuck boxes.",
    "calibrate": "Write a duplex test sheet that measures how far a printer shifts the back side.",
    "new": "Start a new game: card_data/SLUG/ and templates/SLUG/ that build and check at once.",
    "serve": "Preview GAME (or all) in the browser, rebuilt on every save.",
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{target} is not a click command")
        return command

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        # Parsing runs option callbacks and reads pnp.toml: Ctrl-C may land here too.
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:
            raise Interrupted() from None

    def invoke(self, ctx: click.Context) -> Any:
        # click would print "Aborted!" and exit 1; Ctrl-C is the user's choice, not a failure.
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted() from None
        except PnpError as exc:
            raise UserError(exc) from None
        except Exception as exc:
            if caused_by_ctrl_c(exc):
                raise Interrupted() from None
            raise

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUMMARIES.get(name, "")) for name in COMMANDS]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def caused_by_ctrl_c(exc: BaseException) -> bool:
    """Whether ``exc`` was raised because Ctrl-C interrupted something: Python 3.11 turns a
    KeyboardInterrupt inside a class being made (a dataclass field's ``__set_name__``, as a
    command's module is imported) into a RuntimeError caused by it."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__
    return False


class Interrupted(click.ClickException):
    """Ctrl-C: one line on stderr and the shell's usual status for SIGINT (128 + 2)."""

    exit_code = 130

    def __init__(self) -> None:
        super().__init__("interrupted")

    def show(self, file: Any = None) -> None:
        click.echo("pnp: interrupted", err=True)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path),
              help="Workspace root (default: walk up from the current folder to card_data/).")
@click.option("-v", "--verbose", is_flag=True, help="Log what pnp is doing to stderr.")
@click.option("-q", "--quiet", is_flag=True, help="Print only the data asked for.")
@click.pass_context
def cli(ctx: click.Context, root: Path | None, verbose: bool, quiet: bool) -> None:
    """pnp: print-and-play sheets, bilingual rulebooks and rules checks for Chinese tabletop games."""
    level = logging.INFO if verbose else logging.ERROR if quiet else logging.WARNING
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    from pnp.cli import process  # not for --help, which never gets here

    process.install()
    if quiet:
        ctx.meta["pnp.quiet"] = True
    ctx.obj = WorkspaceRef(root)
    ctx.default_map = config_defaults(root)
    recover_output(root)


def recover_output(root: Path | None) -> None:
    """Every command first finishes or undoes a write a killed pnp left in the workspace's
    output folder, so no one reads a mix of two builds there (pnp.build.journal)."""
    from pnp.build.staging import recover_folder
    from pnp.cli.options import output_root
    from pnp.cli.progress import recovered_line

    try:
        folder = output_root(find_workspace(root))
    except (PnpError, click.ClickException):
        return  # no workspace, or an output folder refused: the command itself says so
    try:
        done = recover_folder(folder)
    except OSError as exc:
        click.echo(f"pnp: {folder}: could not finish an interrupted write: {exc.strerror or exc}", err=True)
        return
    for recovery in done:
        click.echo(recovered_line(recovery), err=True)


def config_defaults(root: Path | None) -> dict[str, Any] | None:
    """click's default_map from the workspace's pnp.toml; None outside a workspace (the
    command itself says there is no workspace, if it needs one)."""
    from pnp.cli.config import default_map

    try:
        found = find_workspace(root)
    except PnpError:
        return None
    return default_map(found.root) or None


def main() -> None:
    try:
        cli(prog_name="pnp")
    except KeyboardInterrupt:  # between click's own steps: the same line and status
        Interrupted().show()
        raise SystemExit(Interrupted.exit_code) from None
