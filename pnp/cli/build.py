"""``pnp build``."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.build import build as run_build
from pnp.cli.options import command, game_argument, lang_option, message, paper_option, shown, workspace


@command()
@game_argument
@lang_option()
@paper_option()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Output root instead of output/ (files go to DIR/<game>/<lang>/).")
@click.option("--png", is_flag=True, help="Also write a 300 dpi PNG of every card face, with bleed, under png/.")
@click.pass_context
def build(ctx: click.Context, game: str, lang: str, paper: str, out: Path | None, png: bool) -> None:
    """Build print-ready PDFs for GAME (or all): components.pdf and rulebook.pdf per script."""
    written = run_build(workspace(ctx), game, lang, paper, out, png)
    pngs = [item for item in written if item.path.suffix == ".png"]
    for item in written:
        if item.path.suffix != ".png":
            message(f"wrote {shown(item.path)} ({item.size / 1024:.0f} KiB)")
    if pngs:
        folders = sorted({str(item.path.parent) for item in pngs})
        message(f"wrote {len(pngs)} PNG faces in {', '.join(folders)}")
