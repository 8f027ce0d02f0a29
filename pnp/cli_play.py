"""The sample-game commands of ``pnp``: ``sample`` and ``simulate``.

Registered on the main group in pnp/cli.py. Each command parses its options, calls the core
(pnp.narrate, pnp.simulate) and prints or writes the result; the JSON formats are documented
in docs/sample-and-simulate.md.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pnp.data.model import LANGS
from pnp.errors import PnpError
from pnp.workspace import Workspace, find_workspace

BOT_CHOICE = click.Choice(["greedy", "random"])


def _workspace(ctx: click.Context) -> Workspace:
    """The workspace chosen by the main group (``--root`` or the current folder)."""
    workspace = getattr(ctx.find_root().obj, "workspace", None)
    return workspace if isinstance(workspace, Workspace) else find_workspace()


def _variant(game: str, variant: str | None, abilities: bool) -> str | None:
    """``--abilities`` is aizhewudi's spelling of ``--variant abilities``."""
    if not abilities:
        return variant
    if game != "aizhewudi":
        raise PnpError(f"--abilities is an aizhewudi option; {game} has no ability cards")
    if variant not in (None, "abilities"):
        raise PnpError(f"--abilities and --variant {variant} do not go together")
    return "abilities"


def _write(path: Path, data: bytes) -> Path:
    """Write beside the target and rename into place: never a half-written file."""
    from pnp.build import Artifact, write_atomically

    path = path.resolve()
    written = write_atomically(path.parent, [Artifact(Path(path.name), data)])
    return written[0].path


def _shown(path: Path) -> Path:
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def play_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--variant, --abilities and --bots: how the games are played, shared by sample and simulate."""
    for option in reversed((
        click.option("--variant", help="Rules variant: tisigui classic, niutouwang official, "
                     "aizhewudi abilities."),
        click.option("--abilities", is_flag=True, help="aizhewudi: deal the ability cards "
                     "(same as --variant abilities)."),
        click.option("--bots", type=BOT_CHOICE, default="greedy", show_default=True,
                     help="The engine's bots at every seat."),
    )):
        command = option(command)
    return command


def _json_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


@click.command()
@click.argument("game")
@click.option("--players", type=int, help="Number of players (default: the game's most common).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="The same seed always gives the same game.")
@click.option("--lang", type=click.Choice(list(LANGS)),
              help="Script of the narration (default: the game's source script).")
@click.option("--format", "fmt", type=click.Choice(["md", "json", "pdf"]), default="md",
              show_default=True, help="md: narrated transcript; json: the engine's event log; "
              "pdf: the transcript typeset like the rulebook.")
@play_options
@click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False), default="a4", show_default=True,
              help="Paper size of --format pdf.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to FILE instead of stdout (pdf default: "
              "output/GAME/LANG/sample-seedS-pN.pdf).")
@click.pass_context
def sample(ctx: click.Context, game: str, players: int | None, seed: int, lang: str | None,
           fmt: str, variant: str | None, abilities: bool, bots: str, paper: str,
           out: Path | None) -> None:
    """Play one seeded game of GAME with bots and narrate it turn by turn.

    Seats count from 1 in the narration and from 0 in the JSON event log.
    """
    from pnp import narrate

    workspace = _workspace(ctx)
    played = narrate.play_sample(workspace, game, players, seed, _variant(game, variant, abilities),
                                 bots=bots)
    lang = lang or played.game.info.source_lang
    if fmt == "pdf":
        data = narrate.narration_pdf(workspace, played, lang, paper)
        path = _write(out or narrate.default_pdf_path(workspace, played, lang), data)
        click.echo(f"wrote {_shown(path)} ({len(data) / 1024:.0f} KiB)")
        return
    text = _json_text(played.log) if fmt == "json" else narrate.narration(workspace, played, lang)
    if out is not None:
        path = _write(out, text.encode("utf-8"))
        click.echo(f"wrote {_shown(path)} ({len(text.encode('utf-8')) / 1024:.0f} KiB)", err=True)
        return
    click.echo(text, nl=False)


@click.command()
@click.argument("game")
@click.option("--games", type=int, default=1000, show_default=True, help="How many games.")
@click.option("--players", type=int, help="Number of players (default: the game's most common).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the first game; game i uses seed + i.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@play_options
@click.option("--jobs", type=click.IntRange(min=1),
              help="Worker processes (default: one per CPU; the report never depends on it).")
@click.pass_context
def simulate(ctx: click.Context, game: str, games: int, players: int | None, seed: int, fmt: str,
             variant: str | None, abilities: bool, bots: str, jobs: int | None) -> None:
    """Play many bot games of GAME and report length, scores, wins, end conditions and supply."""
    from pnp import simulate as sim

    workspace = _workspace(ctx)
    chosen = _variant(game, variant, abilities)
    if sys.stderr.isatty():
        with click.progressbar(length=max(games, 1), label=f"{game}: playing", file=sys.stderr,
                               show_pos=True) as bar:
            data = sim.simulate(workspace, game, games, players, seed, chosen, bots, jobs,
                                progress=bar.update)
    else:
        data = sim.simulate(workspace, game, games, players, seed, chosen, bots, jobs)
    click.echo(_json_text(data) if fmt == "json" else sim.text_report(data), nl=False)
