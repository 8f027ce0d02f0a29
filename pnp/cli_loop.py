"""The designer's-loop commands: export, calibrate, new (and the options they share)."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.cli import LANG_CHOICE, Context, pass_context


def _shown(path: Path) -> Path:
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


@click.command("export")
@click.argument("kind", type=click.Choice(["tts", "print-shop", "contact"]))
@click.argument("game")
@click.option("--lang", type=LANG_CHOICE, default="all", show_default=True, help="Script to export.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write instead of output/<game>/<lang>/<kind>/.")
@pass_context
def export(context: Context, kind: str, game: str, lang: str, out: Path | None) -> None:
    """Export GAME's faces for Tabletop Simulator (tts), a print shop or a chat (contact)."""
    from pnp.export import export as run_export

    written = run_export(context.workspace, kind, game, lang, out)
    folders = sorted({str(_shown(item.path.parent)) for item in written})
    size = sum(item.size for item in written)
    click.echo(f"wrote {len(written)} files ({size / 1024:.0f} KiB) in {', '.join(folders)}")
LOOP_COMMANDS = [export]
