"""The rebuild-on-save commands: ``pnp serve`` and the loop behind ``pnp build --watch``."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import click

from pnp.cli.options import command, lang_option, paper_option, shown
from pnp.core.workspace import Workspace
from pnp.data.gameset import KeptGames
from pnp.serve.balance import GAMES, MAX_GAMES

# The group's context object (pnp.cli.options.WorkspaceRef) is passed as ``obj``.
WATCHING = "watching card_data/, templates/ and fonts/ for changes (Ctrl-C to stop)"


def _changed(changed: tuple[str, ...]) -> None:
    if changed:
        more = f" and {len(changed) - 5} more" if len(changed) > 5 else ""
        click.echo(f"changed: {', '.join(changed[:5])}{more}", err=True)


@command("serve")
@click.argument("game", default="all")
@click.option("--port", type=click.IntRange(0, 65535), default=8800, show_default=True,
              help="Port to listen on; 0 picks a free one.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Another address than 127.0.0.1 shows your work to the network.")
@click.option("--balance-games", type=click.IntRange(1, MAX_GAMES), default=GAMES, show_default=True,
              help="Games of each player count the balance page plays after each rules edit.")
@lang_option(help="Script(s) to preview.")
@paper_option()
@click.pass_obj
def serve(context: Any, game: str, port: int, host: str, balance_games: int, lang: str, paper: str) -> None:
    """Preview GAME (or all) in the browser, rebuilt on every save: card faces and backs, sheets,
    rulebook and player aid, the `pnp check` report and a sample game.

    The page follows every save by itself; a broken save shows its error above the last good
    build. Previews are built in output/.serve/, apart from `pnp build`'s outputs.

    Each game's balance page (/balance/GAME, linked from the preview) plays a small sweep of
    its rules in the background once opened, again after each save of its game.yaml.
    """
    from pnp.render.deflation import install_filter
    from pnp.serve.preview import Preview
    from pnp.serve.server import PreviewServer
    from pnp.serve.views import State
    from pnp.serve.watch import Round, rebuild_loop

    install_filter()  # builds with kept games deflate a stream seen before from memory
    workspace = context.workspace
    preview = Preview(workspace, game, lang, paper.lower(), balance_games=balance_games)
    server = PreviewServer(preview, host, port)

    def run(changed: tuple[str, ...]) -> State:
        _changed(changed)
        return preview.refresh(changed)

    def report(done: Round[State]) -> None:
        state = done.result
        if state is None:  # refresh shows a broken save in the page and never raises
            return
        for error in state.errors:
            click.echo(error, err=True)
        outcome = f"{len(state.errors)} error(s) shown in the page" if state.errors else "page updated"
        click.echo(f"{outcome} ({done.seconds:.1f} s)", err=True)

    click.echo(f"serving {server.url} (Ctrl-C to stop); building in {shown(preview.root)}")
    server.start()
    try:
        rebuild_loop(workspace, run, report)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    click.echo("stopped", err=True)


def watch_build(workspace: Workspace, build_once: Callable[[tuple[str, ...], KeptGames], None]) -> None:
    """``pnp build --watch``: build, then build again after every save, until Ctrl-C.

    ``build_once`` gets the paths that changed (none the first time) and the games the
    rounds keep loaded. A failed build prints its error and the loop waits for the fix.
    """
    from pnp.games.registry import tables_from_engine
    from pnp.render.deflation import install_filter
    from pnp.render.png import FaceRasters, reusing
    from pnp.serve.watch import Round, rebuild_loop

    install_filter()  # builds with kept games deflate a stream seen before from memory
    rasters = FaceRasters()  # with --png, a face drawn as before keeps its PNG
    kept = KeptGames(tables_from_engine)  # a game whose files did not change is not read again

    def run(changed: tuple[str, ...]) -> None:
        _changed(changed)
        with reusing(rasters):
            build_once(changed, kept)

    def report(done: Round[None]) -> None:
        if done.error is not None:
            click.echo(done.error.as_printed(), err=True)
        click.echo(f"{'failed' if done.error else 'done'} in {done.seconds:.1f} s", err=True)

    with contextlib.suppress(KeyboardInterrupt):
        rebuild_loop(workspace, run, report, ready=lambda: click.echo(WATCHING, err=True))
    click.echo("stopped watching", err=True)

